"""The shared fixtures through the Python binding.

Provider cases (``fixtures/<provider>/*.json``, schema: fixtures/README.md)
and router cases (``fixtures/router/*.json``, fixtures/router/README.md),
run strictly like the Rust runners (core/tests/fixtures.rs,
core/tests/router_fixtures.rs): unknown fields fail, names are unique and
equal their path, every response is checked, ``ran + skipped == total``,
and ``AH_FIXTURE=<substring>`` filters by name.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
from typing import Any, Dict, List, Optional, Set, Tuple, Union

import pytest

import agenthooks as ah
from agenthooks import _native

from conftest import FIXTURES, compact, load_json, strict_eq

CASE_FIELDS = {
    "name", "description", "provider", "variant", "event", "argv", "env", "payload",
    "payload_text", "payload_b64", "payload_gen", "expect", "responses", "skip",
}
GEN_FIELDS = {"kind", "depth", "bytes", "base", "field"}
EXPECT_FIELDS = {"event", "error"}
CODE_FIELDS = {"code"}
RESPONSE_FIELDS = {"decision", "policy", "error", "wire", "notes"}
WIRE_FIELDS = {"stdout_json", "stdout", "stderr", "exit_code"}
NOTE_FIELDS = {"code", "from", "to"}
ROUTER_FIELDS = {"name", "description", "mode", "handlers", "expect", "called"}
ROUTER_HANDLER_FIELDS = {"decision", "error"}
ROUTER_EXPECT_FIELDS = {"decision", "error"}


class FixtureError(AssertionError):
    pass


def check_fields(what: str, obj: Any, allowed: Set[str], required: Set[str] = set()) -> None:
    if not isinstance(obj, dict):
        raise FixtureError(f"{what}: expected an object, got {type(obj).__name__}")
    unknown = set(obj) - allowed
    if unknown:
        raise FixtureError(f"{what}: unknown field(s) {sorted(unknown)}")
    missing = required - set(obj)
    if missing:
        raise FixtureError(f"{what}: missing field(s) {sorted(missing)}")


def payload_bytes(c: Dict[str, Any]) -> bytes:
    forms = [k for k in ("payload", "payload_text", "payload_b64", "payload_gen") if k in c]
    if len(forms) != 1:
        raise FixtureError(f"{c['name']}: exactly one payload form, got {forms}")
    if "payload" in c:
        return compact(c["payload"])
    if "payload_text" in c:
        return str(c["payload_text"]).encode()
    if "payload_b64" in c:
        return base64.b64decode(c["payload_b64"])
    g = c["payload_gen"]
    check_fields(f"{c['name']}: payload_gen", g, GEN_FIELDS, {"kind"})
    if g["kind"] == "deep":
        d = int(g["depth"])
        return b"[" * d + b"]" * d
    if g["kind"] == "big_string":
        return b'"' + b"x" * int(g["bytes"]) + b'"'
    if g["kind"] == "big_field":
        base = dict(g["base"])
        base[g["field"]] = "x" * int(g["bytes"])
        return compact(base)
    raise FixtureError(f"{c['name']}: unknown payload_gen kind {g['kind']}")


def check_wire(name: str, i: int, r: ah.Response, w: Dict[str, Any]) -> None:
    check_fields(f"{name}: response {i}: wire", w, WIRE_FIELDS, {"exit_code"})
    assert r.exit_code == w["exit_code"], (
        f"{name}: response {i}: exit code (stdout {r.stdout!r}, stderr {r.stderr!r})"
    )
    if ("stdout_json" in w) == ("stdout" in w):
        raise FixtureError(f"{name}: response {i}: wire needs exactly one of stdout_json / stdout")
    if "stdout_json" in w:
        try:
            got = json.loads(r.stdout)
        except ValueError as e:
            raise AssertionError(f"{name}: response {i}: stdout is not JSON ({e}): {r.stdout!r}")
        assert strict_eq(got, w["stdout_json"]), (
            f"{name}: response {i}: stdout JSON\n got: {got}\nwant: {w['stdout_json']}"
        )
    else:
        assert r.stdout == w["stdout"], f"{name}: response {i}: stdout {r.stdout!r}"
    if "stderr" in w:
        want = w["stderr"]
        if isinstance(want, str):
            assert r.stderr == want, f"{name}: response {i}: stderr {r.stderr!r}"
        else:
            check_fields(f"{name}: response {i}: stderr", want, {"contains"}, {"contains"})
            assert want["contains"] in r.stderr, (
                f"{name}: response {i}: stderr {r.stderr!r} lacks {want['contains']!r}"
            )


def check_notes(name: str, i: int, got: List[ah.Note], want: List[Dict[str, Any]]) -> None:
    for n in want:
        check_fields(f"{name}: response {i}: note", n, NOTE_FIELDS, {"code"})
    g = [(n.code, n.from_, n.to) for n in got]
    w = [(n["code"], n.get("from"), n.get("to")) for n in want]
    assert g == w, f"{name}: response {i}: notes\n got: {g}\nwant: {w}"


def run_case(c: Dict[str, Any]) -> None:
    name = c["name"]
    data = payload_bytes(c)
    check_fields(f"{name}: expect", c["expect"], EXPECT_FIELDS)
    expect = c["expect"]
    variant, detection = c.get("variant"), None
    if "env" in c or "argv" in c:
        # Detection cases: the provider must be found from env/argv/shape
        # alone (a `--provider` in the fixture's argv is the config flag),
        # and the decode records how.
        argv = list(c.get("argv", []))
        rest, _payload = _native.take_argv_payload(argv)
        try:
            args = _native.parse_args(rest)
        except ah.AgentHooksError:
            args = None
        flag = args.provider if args is not None else None
        try:
            p, detection, found_variant = ah.detect(flag, dict(c.get("env", {})), argv, data)
        except ah.AgentHooksError as e:
            raise AssertionError(f"{name}: detection failed: {e}")
        assert p == _native.parse_provider(c["provider"]), f"{name}: detected provider {p}"
        variant = variant or found_variant
    decoded: Union[ah.Event, ah.AgentHooksError]
    try:
        decoded = ah.decode(c["provider"], data, event=c.get("event"), variant=variant, detection=detection)
    except ah.AgentHooksError as e:
        decoded = e
    if ("event" in expect) == ("error" in expect):
        raise FixtureError(f"{name}: expect needs exactly one of event / error")
    if "event" in expect:
        assert isinstance(decoded, ah.Event), (
            f"{name}: expected an event, got error {getattr(decoded, 'code', '?')} ({decoded})"
        )
        full = json.loads(decoded.to_json())
        raw = full.pop("raw")
        assert strict_eq(full, expect["event"]), (
            f"{name}: canonical event\n got: {json.dumps(full, sort_keys=True)}"
            f"\nwant: {json.dumps(expect['event'], sort_keys=True)}"
        )
        assert decoded.raw == data, f"{name}: raw must be byte-identical"
        assert strict_eq(raw, json.loads(data)), f"{name}: to_json raw"
        loaded = json.loads(data)
        if beyond_serde(loaded):
            # raw_json() is the unified view (lone surrogates as U+FFFD,
            # numbers beyond float as +-max, containers nested 100 deep or
            # more as their JSON text): same object, same event.
            rj = decoded.raw_json()
            assert isinstance(rj, dict) and rj.keys() == loaded.keys(), f"{name}: raw_json()"
            assert rj.get("hook_event_name") == loaded.get("hook_event_name"), f"{name}: raw_json()"
        else:
            assert strict_eq(decoded.raw_json(), loaded), f"{name}: raw_json()"
    else:
        check_fields(f"{name}: expect.error", expect["error"], CODE_FIELDS, CODE_FIELDS)
        assert isinstance(decoded, ah.AgentHooksError), (
            f"{name}: expected error {expect['error']['code']}, decoded fine"
        )
        assert decoded.code == expect["error"]["code"], f"{name}: error code ({decoded})"
    for i, rc in enumerate(c.get("responses", [])):
        check_fields(f"{name}: response {i}", rc, RESPONSE_FIELDS, {"wire"})
        policy = ah.Policy.from_json(json.dumps(rc["policy"])) if "policy" in rc else ah.Policy()
        if isinstance(decoded, ah.AgentHooksError):
            assert "error" not in rc, f"{name}: response {i}: `error` is implied on error cases"
            resp = ah.fail_response_for_payload(c["provider"], data, decoded, policy)
        else:
            want_err: Optional[str] = None
            if "error" in rc:
                check_fields(f"{name}: response {i}: error", rc["error"], CODE_FIELDS, CODE_FIELDS)
                want_err = rc["error"]["code"]
            try:
                d = (
                    ah.Decision.from_json(json.dumps(rc["decision"]))
                    if "decision" in rc
                    else ah.no_decision()
                )
                resp = ah.respond(decoded, d, policy)
                assert want_err is None, f"{name}: response {i}: expected error {want_err}, got {resp}"
            except ah.AgentHooksError as e:
                assert want_err is not None, f"{name}: response {i}: unexpected error {e.code} ({e})"
                assert e.code == want_err, f"{name}: response {i}: error code {e.code} ({e})"
                resp = ah.fail_response(decoded.provider, decoded, e, policy)
        check_wire(name, i, resp, rc["wire"])
        check_notes(name, i, resp.notes, rc.get("notes", []))


def beyond_serde(v: Any) -> bool:
    """Whether a parsed payload holds what JSON.parse reads but serde_json
    does not: a lone surrogate, a number beyond float, nesting of 100 or
    more (the core's dialect::json reads those into its unified view)."""
    stack = [(v, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(x, float) and x in (float("inf"), float("-inf")):
            return True
        elif isinstance(x, (list, dict)):
            if depth >= 100:
                return True
            items = list(x.items()) if isinstance(x, dict) else list(enumerate(x))
            for k, y in items:
                if isinstance(k, str):
                    stack.append((k, depth))
                stack.append((y, depth + 1))
    return False


def provider_dirs() -> List[pathlib.Path]:
    dirs = []
    for d in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        try:
            _native.parse_provider(d.name)
        except ah.InvalidArgumentError:
            continue  # router/, host/, install/: other families
        dirs.append(d)
    return dirs


def test_provider_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    filt = os.environ.get("AH_FIXTURE")
    total = ran = skipped = 0
    names: Set[str] = set()
    failures: List[str] = []
    dirs = provider_dirs()
    assert dirs, "no provider fixture folders"
    for d in dirs:
        for f in sorted(d.glob("*.json")):
            c = load_json(f)
            check_fields(str(f), c, CASE_FIELDS, {"name", "description", "provider", "expect"})
            assert c["name"] == f"{d.name}/{f.stem}", f"fixture name must equal its path: {f}"
            assert str(c["description"]).strip(), f"{c['name']}: description"
            assert c["name"] not in names, f"duplicate fixture name {c['name']}"
            names.add(c["name"])
            if filt and filt not in c["name"]:
                continue
            total += 1
            skip = c.get("skip", {})
            if "python" in skip:
                assert str(skip["python"]).strip(), f"{c['name']}: skip needs a reason"
                skipped += 1
                continue
            try:
                run_case(c)
            except AssertionError as e:
                failures.append(str(e))
            ran += 1
    with capsys.disabled():
        print(f"\nfixtures: ran {ran}, skipped {skipped}, total {total}")
    assert not failures, f"{len(failures)} fixture(s) failed:\n\n" + "\n\n".join(failures)
    assert ran + skipped == total
    assert total > 0, "no fixtures matched"


def router_handlers(
    c: Dict[str, Any], calls: List[int]
) -> List[Any]:
    hs = []
    for h in c["handlers"]:
        check_fields(f"{c['name']}: handler", h, ROUTER_HANDLER_FIELDS)
        if ("decision" in h) == ("error" in h):
            raise FixtureError(f"{c['name']}: handler needs decision or error")

        def make(h: Dict[str, Any]) -> Any:
            def handler(event: ah.Event) -> ah.Decision:
                calls[0] += 1
                if "error" in h:
                    raise RuntimeError(h["error"])
                return ah.Decision.from_json(json.dumps(h["decision"]))

            return handler

        hs.append(make(h))
    return hs


def error_code_of(exc: BaseException) -> str:
    """The code the core gives an exception (what the fail policy reports)."""
    return ah.fail_response("claude-code", None, exc).notes[0].from_ or ""


ROUTER_EVENT = (
    b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",'
    b'"tool_input":{"command":"ls"},"tool_use_id":"t"}'
)


def router_results(c: Dict[str, Any]) -> List[Tuple[str, Union[ah.Decision, BaseException], int]]:
    """The case through each Python path: the combinator and, for `stack`,
    handlers registered on a Router (its real dispatch)."""
    event = ah.decode("claude-code", ROUTER_EVENT)
    paths: List[Tuple[str, Any]] = []
    if c["mode"] == "stack":
        calls = [0]
        paths.append(("any_of", (ah.any_of(*router_handlers(c, calls)), calls)))
        calls2 = [0]
        r = ah.Router()
        for h in router_handlers(c, calls2):
            r.on_tool_pre(h)
        paths.append(("Router", (r.decide, calls2)))
    elif c["mode"] == "all":
        calls = [0]
        paths.append(("all_of", (ah.all_of(*router_handlers(c, calls)), calls)))
    else:
        raise FixtureError(f"{c['name']}: unknown mode {c['mode']}")
    out: List[Tuple[str, Union[ah.Decision, BaseException], int]] = []
    for label, (fn, counter) in paths:
        try:
            got: Union[ah.Decision, BaseException] = fn(event)
        except Exception as e:
            got = e
        out.append((label, got, counter[0]))
    return out


def test_router_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    filt = os.environ.get("AH_FIXTURE")
    files = sorted((FIXTURES / "router").glob("*.json"))
    total = ran = 0
    failures: List[str] = []
    for f in files:
        c = load_json(f)
        check_fields(str(f), c, ROUTER_FIELDS, ROUTER_FIELDS)
        assert c["name"] == f"router/{f.stem}"
        assert c["description"]
        if filt and filt not in c["name"]:
            continue
        total += 1
        check_fields(f"{c['name']}: expect", c["expect"], ROUTER_EXPECT_FIELDS)
        for label, got, called in router_results(c):
            try:
                if "decision" in c["expect"]:
                    want = ah.Decision.from_json(json.dumps(c["expect"]["decision"]))
                    assert isinstance(got, ah.Decision), f"{c['name']} [{label}]: raised {got!r}"
                    assert got == want, f"{c['name']} [{label}]: got {got}, want {want}"
                else:
                    assert isinstance(got, BaseException), f"{c['name']} [{label}]: got {got}"
                    code = error_code_of(got)
                    assert code == c["expect"]["error"]["code"], f"{c['name']} [{label}]: {code}"
                assert called == c["called"], (
                    f"{c['name']} [{label}]: handlers called {called}, want {c['called']}"
                )
            except AssertionError as e:
                failures.append(str(e))
        ran += 1
    with capsys.disabled():
        print(f"\nrouter fixtures: ran {ran}, total {total}")
    assert not failures, "\n".join(failures)
    assert ran == total
    assert total > 0


def test_the_runner_is_strict() -> None:
    """A broken expectation or an unknown field fails (the runner cannot
    pass vacuously)."""
    good = load_json(FIXTURES / "codex" / "pretooluse-ask.json")
    run_case(good)
    wrong_wire = json.loads(json.dumps(good))
    wrong_wire["responses"][0]["wire"]["exit_code"] = 7
    with pytest.raises(AssertionError):
        run_case(wrong_wire)
    wrong_event = json.loads(json.dumps(good))
    wrong_event["expect"]["event"]["native_name"] = "PostToolUse"
    with pytest.raises(AssertionError):
        run_case(wrong_event)
    with pytest.raises(FixtureError):
        check_fields("case", dict(good, surprise=1), CASE_FIELDS)
    wrong_note = json.loads(json.dumps(good))
    wrong_note["responses"][0]["notes"] = []
    with pytest.raises(AssertionError):
        run_case(wrong_note)
