"""Binding coverage (STYLE.md §4): every public item of the core crate is
either wrapped (the Python name is listed and must exist) or excluded with
a reason. A new core item fails this test until the binding decides."""

from __future__ import annotations

import re
from typing import Dict, Set

import agenthooks as ah

from conftest import ROOT

CORE = ROOT / "core" / "src"

# core item -> Python name in `agenthooks` (dotted for members).
WRAPPED: Dict[str, str] = {
    # lib.rs re-exports
    "Capability": "Capability",
    "DecodeOptions": "decode",  # keyword arguments of decode()
    "capability_of": "capability_of",
    "decode": "decode",
    "fail_response": "fail_response",
    "native_events": "native_events",
    "respond": "respond",
    "Error": "AgentHooksError",
    "ErrorCode": "CODES",
    "Handler": "Handler",
    "Matcher": "Matcher",
    "PermissionRequestEvent": "PermissionRequestEvent",
    "PromptEvent": "PromptEvent",
    "Router": "Router",
    "StopEvent": "StopEvent",
    "ToolErrorEvent": "ToolErrorEvent",
    "ToolPostEvent": "ToolPostEvent",
    "ToolPreEvent": "ToolPreEvent",
    "all": "all_of",
    "any": "any_of",
    "when": "when",
    "main": "main",
    "mcp": "resolve_mcp_transport",  # + Event.mcp_transport()
    "transcript": "read_transcript",
    "native": "Event.native",  # + the agenthooks.native TypedDicts (docs/native-views.md)
    "serve": "main",  # `<program> agenthooks serve --provider=...` (the plugin bridges)
    "bridge": "main",  # the serve loop is a driver over _native.Bridge
    "process": "main",  # the Rust process entry; Python has its own main()
    # model::*
    "Decision": "Decision",
    "DecisionKind": "DecisionKind",
    "StopAgent": "Decision.stop_reason",
    "AgentInfo": "AgentInfo",
    "Detection": "Event.detection",
    "Event": "Event",
    "SessionInfo": "SessionInfo",
    "StopInfo": "StopInfo",
    "Usage": "Usage",
    "Kind": "Kind",
    "AskFallback": "Policy.ask_fallback",
    "HeadlessAsk": "Policy.headless_ask",
    "Fail": "Policy.fail",
    "Policy": "Policy",
    "SessionMode": "Event.interactive",  # + Event.mode_signal
    "Unsupported": "Policy.unsupported",
    "Provider": "Provider",
    "Note": "Note",
    "Response": "Response",
    "Canonical": "Canonical",
    "McpInfo": "McpInfo",
    "ToolCall": "ToolCall",
    # modules
    "capability": "capability_of",
    "detect": "detect",
    "dialect": "fail_response_for_payload",
    "error": "AgentHooksError",
    "model": "Event",
    "merge": "merge_all",
    "router": "Router",
    "runtime": "main",
    "quirks": "quirks",
    "host": "host_run",
    "matcher": "matcher_test",
    "install": "install",
}

EXCLUDED: Dict[str, str] = {
    "schema": "the JSON Schemas ship as package data (agenthooks/schemas/, read with importlib.resources; tests/test_schemas.py); drift is recorded by the core's hook runtime",
    "simulate": "the test kit's core (issue 17): exposed as _native.predict_json / simulate_json / fixture_corpus_json / scenario_payloads_json / verdict_json for agenthooks.testing",
    "testing": "the Rust test kit (issue 17); Python's is agenthooks.testing over the same _native JSON functions",
    "dispatch": "the engine under Router (router.py drives _native.RouterTable); not an author API",
    "Result": "a Rust type alias; Python raises instead",
    "handler": "Rust closure plumbing; any Python callable is a handler",
    "input_object": "decode already applies it (ToolCall.input is always a dict)",
    "patch_paths": "decode already applies it (ToolCall.paths)",
    "sorted_json": "an internal helper of ids and dedupe (ToolCall.stable_facet wraps its use)",
    "is_empty_value": "the canonical-JSON presence rule, applied inside Event.to_json()",
    "json": "the payload JSON reader, applied inside decode (and by Event.raw_json)",
    "dedupe": "runtime-internal: applied by the core's prepare() once the runtime calls it",
    "state": "runtime-internal: the private per-user state root prepare() and install use",
    "ancestry": "runtime-internal: the hook's ancestor chain from /proc, read by prompt backfill (run(ancestry=) injects one) and by Event.mcp_transport (the agent's --mcp-config flags)",
    "backfill": "runtime-internal: Invocation.backfill() in main/run delivers the backfilled prompt to observers",
    "detach": "runtime-internal: Invocation.detach() in main starts the async hook's detached child",
    "audit": "runtime-internal: Invocation.complete() writes the opt-in audit log line (AGENTHOOKS_LOG / --log; test_audit_log.py)",
    "matrix": "documentation: the support matrix is `agenthooks capabilities --table` and docs/support-matrix.md, derived from the rows capability_of returns",
    "ancestry": "runtime-internal: the hook's ancestor chain from /proc, read by mode",
    "mode": "runtime-internal: the run decides the session mode when a decision is ask (argv --observed injects the observation)",
    "failsafe": "rendered at build time into _fail_table.json, which _failsafe.py reads when _native cannot load",
}


def core_items() -> Set[str]:
    lib = (CORE / "lib.rs").read_text()
    items = set(re.findall(r"^pub mod (\w+);", lib, re.M))
    for block in re.findall(r"^pub use ([^;]+);", lib, re.M | re.S):
        if block.strip() == "model::*":
            model = (CORE / "model" / "mod.rs").read_text()
            items |= set(re.findall(r"^pub mod (\w+);", model, re.M))
            items |= set(re.findall(r"^pub fn (\w+)", model, re.M))
            for inner in re.findall(r"^pub use [\w:]+::\{?([^;}]+)\}?;", model, re.M | re.S):
                items |= {n.strip() for n in inner.split(",") if n.strip()}
            continue
        names = re.sub(r"[\w:]*\{|\}|\n", " ", block)
        for part in names.split(","):
            part = part.strip()
            if not part:
                continue
            m = re.match(r"(?:[\w:]+::)?(\w+)(?: as (\w+))?$", part)
            assert m, part
            items.add(m.group(2) or m.group(1))
    return items


def test_every_core_item_is_wrapped_or_excluded() -> None:
    items = core_items()
    undecided = sorted(items - set(WRAPPED) - set(EXCLUDED))
    assert not undecided, f"core items the Python binding neither wraps nor excludes: {undecided}"
    assert not set(WRAPPED) & set(EXCLUDED)


def test_wrapped_names_exist() -> None:
    for core, py in WRAPPED.items():
        obj: object = ah
        for part in py.split("."):
            assert hasattr(obj, part), f"{core} -> agenthooks.{py}"
            obj = getattr(obj, part)
