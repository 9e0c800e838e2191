"""The typed native views (``agenthooks.native``, TypedDicts generated from
schemas/) against every provider fixture whose payload is a JSON object
that decodes: ``event.native(view)`` must hold each property the event's
input schema declares exactly as the payload has it, the event's TypedDict
must declare it with a type its value conforms to (checked at run time,
nested TypedDicts too), and every required property must be there. The
schemas are read here, not through the generated code.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import typing
from typing import Any, Dict, List, Optional, Tuple

import pytest

import agenthooks as ah
from agenthooks import native

from conftest import FIXTURES, ROOT

SCHEMAS = pathlib.Path(os.environ.get("AH_SCHEMAS_DIR") or ROOT / "schemas")


def object_payload(c: Dict[str, Any]) -> Optional[bytes]:
    """The fixture's payload when it is a JSON object."""
    if "payload" in c:
        p = c["payload"]
        return json.dumps(p, separators=(",", ":")).encode() if isinstance(p, dict) else None
    if "payload_text" in c:
        try:
            v = json.loads(c["payload_text"])
        except ValueError:
            return None
        return c["payload_text"].encode("utf-8", "surrogatepass") if isinstance(v, dict) else None
    g = c.get("payload_gen")
    if isinstance(g, dict) and g.get("kind") == "big_field":
        base = dict(g["base"])
        base[g["field"]] = "x" * int(g["bytes"])
        return json.dumps(base, separators=(",", ":")).encode()
    return None


def same(view: Any, payload: Any) -> bool:
    """JSON equality; numbers as numbers (NaN never occurs in JSON; an
    out-of-range literal is inf on both sides)."""
    if isinstance(payload, bool) or isinstance(view, bool):
        return type(view) is type(payload) and view == payload
    if isinstance(payload, (int, float)) and isinstance(view, (int, float)):
        return view == payload or (math.isinf(view) and view == payload)
    if isinstance(payload, list):
        return isinstance(view, list) and len(view) == len(payload) and all(
            same(a, b) for a, b in zip(view, payload)
        )
    if isinstance(payload, dict):
        return isinstance(view, dict) and view.keys() == payload.keys() and all(
            same(view[k], payload[k]) for k in payload
        )
    return bool(view == payload)


def is_typeddict(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def conforms(value: Any, ann: Any, path: str) -> None:
    """Fails unless ``value`` is of the annotation (the subset the
    generator writes: str, int, float, bool, Any, Optional, List, Dict,
    TypedDict)."""
    if ann is Any:
        return
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Union:
        if value is None and type(None) in args:
            return
        rest = [a for a in args if a is not type(None)]
        assert len(rest) == 1, f"{path}: unexpected union {ann}"
        conforms(value, rest[0], path)
        return
    if origin is list:
        assert isinstance(value, list), f"{path}: {value!r} is not a list"
        for i, v in enumerate(value):
            conforms(v, args[0], f"{path}[{i}]")
        return
    if origin is dict:
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        return
    if is_typeddict(ann):
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        hints = typing.get_type_hints(ann)
        for k in ann.__required_keys__:
            assert k in value, f"{path}.{k}: required by {ann.__name__}, absent"
        for k, v in value.items():
            if k in hints:
                conforms(v, hints[k], f"{path}.{k}")
        return
    if ann is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif ann is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = type(value) is ann
    assert ok, f"{path}: {value!r} is not {getattr(ann, '__name__', ann)}"


def cases() -> List[Tuple[str, str, Dict[str, Any], bytes]]:
    out = []
    for agent in native.AGENTS:
        files = sorted((FIXTURES / agent).glob("*.json"))
        assert files, f"no fixtures for {agent}"
        for f in files:
            c = json.loads(f.read_text())
            if not c["expect"].get("event"):
                continue
            data = object_payload(c)
            if data is not None:
                out.append((agent, c["name"], c, data))
    return out


def test_every_object_payload_reads_through_its_typed_view() -> None:
    index = json.loads((SCHEMAS / "index.json").read_text())
    checked = eligible = 0
    unlisted: List[str] = []
    failures: List[str] = []
    for agent, name, c, data in cases():
        ev = ah.decode(agent, data, event=c.get("event"), variant=c.get("variant"))
        module = native.AGENTS[agent]
        entry = index["agents"][agent]["events"].get(ev.native_name)
        got = ev.native()
        assert ev.native() is got, f"{name}: native() parses once"
        if entry is None:
            assert ev.native_name not in module.EVENTS, name
            unlisted.append(name)
            continue
        eligible += 1
        view = module.EVENTS[ev.native_name]
        try:
            typed = ev.native(view)
            assert typed is got
            schema = json.loads((SCHEMAS / entry["input"]).read_text())
            payload = json.loads(data)
            hints = typing.get_type_hints(view)
            for k in schema.get("properties", {}):
                if k not in payload:
                    continue
                assert k in hints, f"{k}: declared in the schema, not in {view.__name__}"
                assert k in typed, f"{k}: in the payload, not in the view"
                assert same(typed[k], payload[k]), f"{k}: view {typed[k]!r} != payload {payload[k]!r}"
                conforms(typed[k], hints[k], k)
            for k in schema.get("required", []):
                assert k in payload, f"required {k} is not in the payload"
                assert k in view.__required_keys__, f"required {k} is optional in {view.__name__}"
            assert same(typed, payload), "the view is not the payload"
            checked += 1
        except AssertionError as e:
            failures.append(f"{name}: {e}")
    assert not failures, "\n".join(failures)
    print(f"native views (python): {checked} payloads checked ({len(unlisted)} of events the schemas do not list)")
    assert checked > 0
    assert checked == eligible


def test_a_view_of_another_event_is_invalid_argument() -> None:
    ev = ah.decode(
        "claude-code",
        b'{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}',
    )
    with pytest.raises(ah.AgentHooksError) as e:
        ev.native(native.claude_code.PreToolUse)
    assert e.value.code == "invalid_argument"
    with pytest.raises(ah.AgentHooksError) as e:
        ev.native(native.codex.Stop)
    assert e.value.code == "invalid_argument"
    with pytest.raises(ah.AgentHooksError):
        ev.native(dict)
    stop = ev.native(native.claude_code.Stop)
    assert stop["session_id"] == "s"
