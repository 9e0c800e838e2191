#!/usr/bin/env python3
"""A tiny stdio MCP server for the tier-2 MCP case (Python 3 stdlib only).

JSON-RPC 2.0 over stdio, one message a line: `initialize`, `tools/list` (one
tool, `echo`), `tools/call` (echoes its `text` argument back, prefixed with
"echo: "); notifications are ignored, `ping` answers `{}`, anything else gets
method-not-found. If MCP_SERVER_LOG is set, each request is appended there.
"""

import json
import os
import sys

TOOL = {
    "name": "echo",
    "description": "Echoes its text argument back.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    },
}


def answer(req):
    method = req.get("method")
    params = req.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "ah-e2e-echo", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        if params.get("name") != "echo":
            return {"content": [{"type": "text", "text": "unknown tool"}], "isError": True}
        text = (params.get("arguments") or {}).get("text", "")
        return {"content": [{"type": "text", "text": f"echo: {text}"}]}
    if method == "ping":
        return {}
    return None


def main():
    log = os.environ.get("MCP_SERVER_LOG")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            continue
        if log:
            with open(log, "a") as f:
                f.write(json.dumps(req) + "\n")
        if "id" not in req:  # a notification
            continue
        result = answer(req)
        if result is None:
            reply = {"jsonrpc": "2.0", "id": req["id"],
                     "error": {"code": -32601, "message": f"method not found: {req.get('method')}"}}
        else:
            reply = {"jsonrpc": "2.0", "id": req["id"], "result": result}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
