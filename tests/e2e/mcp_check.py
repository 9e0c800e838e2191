"""Checks the tier-2 `mcp` case: prints why it failed, nothing when it passed.

usage: mcp_check.py CASE_DIR PYTHON MCP_SERVER SEEN
"""

import json
import os
import sys

d, py, server, seen = sys.argv[1:]
log = os.path.join(d, "mcp_transport.log")
lines = [l for l in open(log) if l.strip()] if os.path.exists(log) else []
want = {"server": "echo", "transport": "stdio", "command": py, "args": [server],
        "from_config": True, "config_path": os.path.join(d, "mcp.json"), "scope": "flag"}
if not lines:
    print("the hook logged no transport (mcp_transport.log empty or missing)")
elif json.loads(lines[0]).get("transport") != want:
    print(f"the hook resolved {lines[0].strip()}, want {json.dumps({'transport': want})}")
elif "echo: hello from the fake model" not in seen:
    print(f"the MCP server's answer did not reach the model; it saw: {seen}")
