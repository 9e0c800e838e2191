"""What a hook can learn beyond its payload (issue 16): the transport of the
MCP server a tool call names, and the agent's transcript.

Both are thin drivers over the core (``agenthooks::mcp``,
``agenthooks::transcript``); the answers are plain dicts, identical in every
language. See docs/mcp-and-transcripts.md.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, Mapping, Optional, Sequence

from . import _native
from .errors import CODES, AgentHooksError

__all__ = ["resolve_mcp_transport", "read_transcript"]


def _call(native_fn: Any, request: Mapping[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(native_fn(json.dumps(request)))
    err = out.get("error")
    if isinstance(err, dict):
        code = str(err.get("code") or "invalid_argument")
        raise CODES.get(code, AgentHooksError)(str(err.get("message") or code), code=code)
    return out


def resolve_mcp_transport(
    provider: str,
    server: str,
    *,
    cwd: str = "",
    home: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
    agent_argv: Sequence[str] = (),
    payload_url: Optional[str] = None,
    payload_command: Optional[str] = None,
) -> Optional[Dict[str, Any]]:
    """The transport of MCP server ``server`` as ``provider``'s own
    configuration defines it (``{"server", "transport", "command", "args",
    "url", "from_config", "config_path", "scope"}``), or ``None``. An
    explicit lookup: ``home`` defaults to ``$HOME``, ``env`` to nothing (pass
    ``os.environ`` to honour ``CODEX_HOME`` and friends). For the event being
    handled, use ``event.mcp_transport()``."""
    req: Dict[str, Any] = {
        "provider": provider,
        "server": server,
        "cwd": cwd,
        "home": os.environ.get("HOME", "") if home is None else home,
        "env": dict(env or {}),
        "agent_argv": list(agent_argv),
    }
    if payload_url is not None:
        req["payload_url"] = payload_url
    if payload_command is not None:
        req["payload_command"] = payload_command
    t = _call(_native.mcp_resolve_json, req).get("transport")
    return t if isinstance(t, dict) else None


def read_transcript(
    path: str,
    format: str = "auto",
    *,
    max_line_bytes: Optional[int] = None,
    page_size: int = 256,
) -> Iterator[Dict[str, Any]]:
    """Yields the entries of a transcript file (``event.session.transcript_path``)
    one at a time, reading ``page_size`` lines per native call: ``{"line",
    "offset", "kind", "format", "type", "role", "text", "tool_calls",
    "tool_results", "timestamp", "bytes", "raw"}`` (absent keys omitted).
    ``format``: ``"auto"`` or a provider id. Lines over ``max_line_bytes``
    (default 4 MiB) are skipped unread and yield a ``kind == "too_long"``
    entry. Memory stays bounded whatever the file's size."""
    offset, line = 0, 1
    while True:
        req: Dict[str, Any] = {
            "path": str(path),
            "format": format,
            "offset": offset,
            "line": line,
            "max_entries": page_size,
        }
        if max_line_bytes is not None:
            req["max_line_bytes"] = max_line_bytes
        page = _call(_native.transcript_page_json, req)
        for entry in page["entries"]:
            yield entry
        offset, line = page["next_offset"], page["next_line"]
        if page["done"]:
            return
