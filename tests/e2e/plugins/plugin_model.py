"""The tier-2 fake model (../fake_model.py) for the plugin e2e: the same
server, turns and inspection, with OpenClaw's shell tool `exec` called
when the request offers it (OpenCode's is `bash`).

Serve:   plugin_model.py serve PORT_FILE LOG_FILE COMMAND
Inspect: plugin_model.py tool-result LOG_FILE
"""

import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "ah_fake_model", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fake_model.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
_shell_tool = base.chat_shell_tool


def shell_tool(body):
    names = [(t.get("function") or {}).get("name") or t.get("name") or ""
             for t in body.get("tools") or []]
    return "exec" if "exec" in names else _shell_tool(body)


base.chat_shell_tool = shell_tool

if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "serve":
        base.serve(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "tool-result":
        out = base.tool_result(sys.argv[2])
        if out is None:
            sys.exit(1)
        print(out)
    else:
        sys.exit(__doc__)
