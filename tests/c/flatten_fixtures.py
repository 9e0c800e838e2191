#!/usr/bin/env python3
"""Flattens the shared fixtures into plain files the C ABI test reads.

usage: flatten_fixtures.py <fixtures dir> <out dir>

The C runner (tests/c/abi_test.c) has no JSON library of its own beyond a
small reader, so this step does what needs one: it validates every case
strictly (the schema of fixtures/README.md and fixtures/router/README.md:
unknown fields fail, names are unique and equal their path), builds the
payload bytes (`payload` compact, `payload_text`, `payload_b64`,
`payload_gen`), and writes each part to its own file:

  <out>/provider/count              number of cases
  <out>/provider/<i>/name, provider, payload | payload_gen (+ payload_base.json),
                     [variant], [event], [skip], [argv] (NUL-separated), [env.json]
                     expect_event.json | expect_error
                     nresp, r<j>.[decision.json|policy.json|error|stdout|
                     stdout.json|stderr|stderr_contains|exit|notes.json]
  <out>/router/count
  <out>/router/<i>/name, mode, nhandlers, h<j>.decision.json | h<j>.error,
                   expect.decision.json | expect_error, called
  <out>/dispatch/count, files       cases written; *.json files in fixtures/router/dispatch
  <out>/dispatch/<i>/name, provider, payload, nentries, calls (one id a line),
                    handles (true|false), expect.decision.json | expect_error,
                    e<j>.id, e<j>.role (handler|observer|middleware), e<j>.on,
                    [e<j>.when], [e<j>.guard] (true|false), [e<j>.async],
                    [e<j>.decision.json], [e<j>.error], [e<j>.next],
                    [e<j>.return] (inner|null) | [e<j>.return.json]
  <out>/runtime/count
  <out>/runtime/<i>/name, argv (NUL-separated), stdin (bytes), [router.json],
                    stdout | stdout.json, [stderr_contains] (NUL-separated), exit
  <out>/mcp/count, <out>/mcp/<i>/name, request.json ({root} replaced by the
                  case folder's absolute path), expect.json
  <out>/transcript/count, <out>/transcript/<i>/name, request.json (path,
                  format, max_line_bytes, max_entries = the case's page size),
                  expect.json (the entries array)
  <out>/serve/count, files          cases written; *.json files in fixtures/serve
  <out>/serve/<i>/name, argv (NUL-separated), argc, input (the bytes the plugin
                  writes), output (one reply frame a line), in_order (one JSON
                  array of seqs a line; empty when none)
"""
import base64
import json
import pathlib
import sys

CASE_KEYS = {"name", "description", "provider", "variant", "event", "argv", "env", "payload",
             "payload_text", "payload_b64", "payload_gen", "expect", "responses", "skip"}
GEN_KEYS = {"kind", "depth", "bytes", "base", "field"}
RESP_KEYS = {"decision", "policy", "error", "wire", "notes"}
WIRE_KEYS = {"stdout_json", "stdout", "stderr", "exit_code"}
NOTE_KEYS = {"code", "from", "to"}
ROUTER_KEYS = {"name", "description", "mode", "handlers", "expect", "called"}
DISPATCH_KEYS = {"name", "description", "event", "entries", "expect", "calls", "handles"}
ENTRY_KEYS = {"id", "role", "on", "when", "guard", "async", "does"}
DOES_KEYS = {"handler": {"decision", "error"}, "observer": {"error"}, "middleware": {"next", "error", "return"}}
RUNTIME_KEYS = {"name", "description", "argv", "router", "stdin", "stdin_text", "stdin_b64", "stdin_parts", "expect"}
SERVE_KEYS = {"name", "description", "provider", "args", "input", "output", "in_order"}
RUNTIME_EXPECT_KEYS = {"stdout", "stdout_json", "stderr_contains", "exit_code"}


def strict(obj, allowed, where):
    if not isinstance(obj, dict):
        sys.exit(f"{where}: expected an object")
    extra = set(obj) - allowed
    if extra:
        sys.exit(f"{where}: unknown fields {sorted(extra)}")


def no_dupes(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError(f"duplicate key {k!r}")
        d[k] = v
    return d


def load(path):
    try:
        return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=no_dupes)
    except ValueError as e:
        sys.exit(f"{path}: {e}")


def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()


def payload_gen(c):
    """Generated payloads are described, not stored (some are 20 MB); the
    C runner builds them: `deep N`, `big_string N`, or `big_field N FIELD`
    with the base object in payload_base.json."""
    g = c["payload_gen"]
    strict(g, GEN_KEYS, c["name"] + ": payload_gen")
    if g["kind"] in ("deep", "big_string"):
        n = g["depth"] if g["kind"] == "deep" else g["bytes"]
        return f"{g['kind']} {int(n)}", None
    if g["kind"] == "big_field":
        if " " in g["field"] or not isinstance(g.get("base"), dict):
            sys.exit(f"{c['name']}: big_field needs a base object and a plain field name")
        return f"big_field {int(g['bytes'])} {g['field']}", compact(g["base"])
    sys.exit(f"{c['name']}: unknown payload_gen kind {g['kind']}")


def payload_bytes(c):
    forms = [k for k in ("payload", "payload_text", "payload_b64", "payload_gen") if k in c]
    if len(forms) != 1:
        sys.exit(f"{c['name']}: exactly one payload form, got {forms}")
    if "payload" in c:
        return compact(c["payload"])
    if "payload_text" in c:
        return c["payload_text"].encode()
    if "payload_b64" in c:
        return base64.b64decode(c["payload_b64"])
    g = c["payload_gen"]
    strict(g, GEN_KEYS, c["name"] + ": payload_gen")
    if g["kind"] == "deep":
        return b"[" * g["depth"] + b"]" * g["depth"]
    if g["kind"] == "big_string":
        return b'"' + b"x" * g["bytes"] + b'"'
    if g["kind"] == "big_field":
        base = dict(g["base"])
        base[g["field"]] = "x" * g["bytes"]
        return compact(base)
    sys.exit(f"{c['name']}: unknown payload_gen kind {g['kind']}")


def write(d, name, data):
    (d / name).write_bytes(data if isinstance(data, bytes) else str(data).encode())


def provider_cases(root, out):
    # fixtures/async (async hooks, prompt backfill) is run over this C ABI by
    # the Go runner (bindings/go/async_vectors_test.go), not flattened here.
    dirs = sorted(p for p in root.iterdir() if p.is_dir() and p.name not in ("router", "host", "install", "runtime", "serve", "simulate", "async", "mcp", "transcript"))
    names = set()
    i = 0
    for d in dirs:
        for f in sorted(d.glob("*.json")):
            c = load(f)
            strict(c, CASE_KEYS, str(f))
            want = f"{d.name}/{f.stem}"
            if c.get("name") != want:
                sys.exit(f"{f}: name must be {want!r}")
            if not str(c.get("description", "")).strip():
                sys.exit(f"{f}: description")
            if want in names:
                sys.exit(f"duplicate fixture name {want}")
            names.add(want)
            cd = out / str(i)
            cd.mkdir(parents=True)
            write(cd, "name", want)
            write(cd, "provider", c["provider"])
            if c.get("variant") is not None:
                write(cd, "variant", c["variant"])
            if c.get("event") is not None:
                write(cd, "event", c["event"])
            if "argv" in c:
                write(cd, "argv", b"".join(a.encode() + b"\0" for a in c["argv"]))
            if "env" in c:
                write(cd, "env.json", compact(c["env"]))
            if "c" in c.get("skip", {}):
                write(cd, "skip", c["skip"]["c"])
            if "payload_gen" in c and len([k for k in c if k.startswith("payload")]) == 1:
                spec, base = payload_gen(c)
                write(cd, "payload_gen", spec)
                if base is not None:
                    write(cd, "payload_base.json", base)
            else:
                write(cd, "payload", payload_bytes(c))
            exp = c["expect"]
            strict(exp, {"event", "error"}, want + ": expect")
            if ("event" in exp) == ("error" in exp):
                sys.exit(f"{want}: expect needs exactly one of event / error")
            if "event" in exp:
                write(cd, "expect_event.json", compact(exp["event"]))
            else:
                strict(exp["error"], {"code"}, want + ": expect.error")
                write(cd, "expect_error", exp["error"]["code"])
            resps = c.get("responses", [])
            write(cd, "nresp", len(resps))
            for j, r in enumerate(resps):
                where = f"{want}: response {j}"
                strict(r, RESP_KEYS, where)
                if "decision" in r:
                    write(cd, f"r{j}.decision.json", compact(r["decision"]))
                if "policy" in r:
                    write(cd, f"r{j}.policy.json", compact(r["policy"]))
                if "error" in r:
                    strict(r["error"], {"code"}, where + ": error")
                    write(cd, f"r{j}.error", r["error"]["code"])
                w = r["wire"]
                strict(w, WIRE_KEYS, where + ": wire")
                if ("stdout_json" in w) == ("stdout" in w):
                    sys.exit(f"{where}: wire needs exactly one of stdout_json / stdout")
                if "stdout_json" in w:
                    write(cd, f"r{j}.stdout.json", compact(w["stdout_json"]))
                else:
                    write(cd, f"r{j}.stdout", w["stdout"].encode())
                if isinstance(w.get("stderr"), str):
                    write(cd, f"r{j}.stderr", w["stderr"].encode())
                elif isinstance(w.get("stderr"), dict):
                    strict(w["stderr"], {"contains"}, where + ": stderr")
                    write(cd, f"r{j}.stderr_contains", w["stderr"]["contains"].encode())
                write(cd, f"r{j}.exit", w["exit_code"])
                for n in r.get("notes", []):
                    strict(n, NOTE_KEYS, where + ": note")
                write(cd, f"r{j}.notes.json", compact(r.get("notes", [])))
            i += 1
    write(out, "count", i)
    return i


def router_cases(root, out):
    i = 0
    for f in sorted((root / "router").glob("*.json")):
        c = load(f)
        strict(c, ROUTER_KEYS, str(f))
        want = f"router/{f.stem}"
        if c.get("name") != want or not c.get("description"):
            sys.exit(f"{f}: name must be {want!r}, with a description")
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", want)
        if c["mode"] not in ("stack", "all"):
            sys.exit(f"{want}: unknown mode {c['mode']}")
        write(cd, "mode", c["mode"])
        write(cd, "nhandlers", len(c["handlers"]))
        for j, h in enumerate(c["handlers"]):
            strict(h, {"decision", "error"}, f"{want}: handler {j}")
            if ("decision" in h) == ("error" in h):
                sys.exit(f"{want}: handler {j} needs decision or error")
            if "decision" in h:
                write(cd, f"h{j}.decision.json", compact(h["decision"]))
            else:
                write(cd, f"h{j}.error", h["error"].encode())
        exp = c["expect"]
        strict(exp, {"decision", "error"}, want + ": expect")
        if "decision" in exp:
            write(cd, "expect.decision.json", compact(exp["decision"]))
        else:
            write(cd, "expect_error", exp["error"]["code"])
        write(cd, "called", c["called"])
        i += 1
    write(out, "count", i)
    return i


def dispatch_entry(cd, want, j, e, ids):
    where = f"{want}: entry {j}"
    strict(e, ENTRY_KEYS, where)
    eid, role, on = e.get("id"), e.get("role"), e.get("on")
    if not isinstance(eid, str) or not eid or "\n" in eid or eid in ids:
        sys.exit(f"{where}: id must be a unique non-empty line")
    ids.add(eid)
    if role not in DOES_KEYS:
        sys.exit(f"{where}: unknown role {role!r}")
    if role == "handler":
        if not isinstance(on, str) or not on.startswith(("kind:", "native:")):
            sys.exit(f"{where}: a handler is on kind:<kind> or native:<name>")
    elif on != "*":
        sys.exit(f"{where}: {role} is on *")
    write(cd, f"e{j}.id", eid)
    write(cd, f"e{j}.role", role)
    write(cd, f"e{j}.on", on)
    when = e.get("when")
    if when is not None:
        if role != "handler" or not isinstance(when, str) or not (
                when == "guard" or when.startswith(("canonical:", "names:"))):
            sys.exit(f"{where}: bad when {when!r}")
        write(cd, f"e{j}.when", when)
    if ("guard" in e) != (when == "guard") or not isinstance(e.get("guard", True), bool):
        sys.exit(f"{where}: guard (a bool) goes with when: guard, only")
    if "guard" in e:
        write(cd, f"e{j}.guard", "true" if e["guard"] else "false")
    if e.get("async") is not None:
        if e["async"] is not True:
            sys.exit(f"{where}: async is true or absent")
        write(cd, f"e{j}.async", "true")
    does = e["does"]
    strict(does, DOES_KEYS[role], where + ": does")
    if "error" in does:
        if not isinstance(does["error"], str):
            sys.exit(f"{where}: error is text")
        write(cd, f"e{j}.error", does["error"].encode())
    if "decision" in does:
        if "error" in does:
            sys.exit(f"{where}: decision or error, not both")
        write(cd, f"e{j}.decision.json", compact(does["decision"]))
    if role == "middleware":
        n = does.get("next", 0)
        if not isinstance(n, int) or isinstance(n, bool) or n not in (0, 1, 2):
            sys.exit(f"{where}: next is 0, 1 or 2")
        write(cd, f"e{j}.next", n)
        r = does.get("return")
        if r is None or r == "inner":
            write(cd, f"e{j}.return", "null" if r is None else "inner")
        elif isinstance(r, dict):
            write(cd, f"e{j}.return.json", compact(r))
        else:
            sys.exit(f"{where}: return is \"inner\", null or a decision")


def dispatch_cases(root, out):
    """fixtures/router/README.md, dispatch vectors: the C runner drives
    each through ah_router / ah_dispatch. Every file becomes a case or the
    flattening fails: there is no skip."""
    files = sorted((root / "router" / "dispatch").glob("*.json"))
    i = 0
    for f in files:
        c = load(f)
        strict(c, DISPATCH_KEYS, str(f))
        want = f"router/dispatch/{f.stem}"
        if c.get("name") != want or not str(c.get("description", "")).strip():
            sys.exit(f"{f}: name must be {want!r}, with a description")
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", want)
        ev = c["event"]
        strict(ev, {"provider", "payload"}, want + ": event")
        write(cd, "provider", ev["provider"])
        write(cd, "payload", compact(ev["payload"]))
        ids = set()
        write(cd, "nentries", len(c["entries"]))
        for j, e in enumerate(c["entries"]):
            dispatch_entry(cd, want, j, e, ids)
        exp = c["expect"]
        strict(exp, {"decision", "error"}, want + ": expect")
        if ("decision" in exp) == ("error" in exp):
            sys.exit(f"{want}: expect needs exactly one of decision / error")
        if "decision" in exp:
            write(cd, "expect.decision.json", compact(exp["decision"]))
        else:
            strict(exp["error"], {"code"}, want + ": expect.error")
            write(cd, "expect_error", exp["error"]["code"])
        calls = c["calls"]
        if not isinstance(calls, list) or any(x not in ids for x in calls):
            sys.exit(f"{want}: calls must name entries")
        write(cd, "calls", "".join(x + "\n" for x in calls))
        if not isinstance(c["handles"], bool):
            sys.exit(f"{want}: handles is a bool")
        write(cd, "handles", "true" if c["handles"] else "false")
        i += 1
    write(out, "count", i)
    write(out, "files", len(files))
    return i


def runtime_stdin(c):
    forms = [k for k in ("stdin", "stdin_text", "stdin_b64", "stdin_parts") if k in c]
    if len(forms) > 1:
        sys.exit(f"{c['name']}: at most one stdin form, got {forms}")
    if "stdin" in c:
        return compact(c["stdin"])
    if "stdin_text" in c:
        return c["stdin_text"].encode()
    if "stdin_b64" in c:
        return base64.b64decode(c["stdin_b64"])
    out = b""
    for p in c.get("stdin_parts", []):
        if isinstance(p, str):
            out += p.encode()
        else:
            strict(p, {"repeat", "times"}, c["name"] + ": stdin_parts")
            out += p["repeat"].encode() * int(p["times"])
    return out


def runtime_cases(root, out):
    """fixtures/runtime/README.md: argv + stdin -> the process's answer."""
    i = 0
    for f in sorted((root / "runtime").glob("*.json")):
        c = load(f)
        strict(c, RUNTIME_KEYS, str(f))
        want = f"runtime/{f.stem}"
        if c.get("name") != want or not str(c.get("description", "")).strip():
            sys.exit(f"{f}: name must be {want!r}, with a description")
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", want)
        if any("\0" in a for a in c["argv"]):
            sys.exit(f"{want}: NUL in argv")
        write(cd, "argv", b"\0".join(a.encode() for a in c["argv"]))
        write(cd, "argc", len(c["argv"]))
        write(cd, "stdin", runtime_stdin(c))
        if "router" in c:
            write(cd, "router.json", compact(c["router"]))
        exp = c["expect"]
        strict(exp, RUNTIME_EXPECT_KEYS, want + ": expect")
        if ("stdout" in exp) == ("stdout_json" in exp):
            sys.exit(f"{want}: expect needs exactly one of stdout / stdout_json")
        if "stdout" in exp:
            write(cd, "stdout", exp["stdout"].encode())
        else:
            write(cd, "stdout.json", compact(exp["stdout_json"]))
        if exp.get("stderr_contains"):
            write(cd, "stderr_contains", b"\0".join(x.encode() for x in exp["stderr_contains"]))
        write(cd, "exit", exp["exit_code"])
        i += 1
    write(out, "count", i)
    return i


def serve_line(want, entry):
    """One input line of a serve vector (fixtures/serve/README.md)."""
    if isinstance(entry, str):
        return entry.encode()
    if isinstance(entry, dict) and set(entry) == {"$b64"}:
        return base64.b64decode(entry["$b64"], validate=True)
    if isinstance(entry, dict) and set(entry) == {"$gen"}:
        g = entry["$gen"]
        strict(g, {"prefix", "fill", "repeat", "suffix"}, want + ": $gen")
        return (g["prefix"] + g["fill"] * int(g["repeat"]) + g["suffix"]).encode()
    if isinstance(entry, dict):
        return compact(entry)
    sys.exit(f"{want}: an input entry is an object or a string")


def serve_cases(root, out):
    """fixtures/serve/README.md: lines in, reply frames out. The C runner
    serves each through ah_bridge_*; every file becomes a case or the
    flattening fails: there is no skip."""
    files = sorted((root / "serve").glob("*.json"))
    i = 0
    for f in files:
        c = load(f)
        strict(c, SERVE_KEYS, str(f))
        want = f"serve/{f.stem}"
        if c.get("name") != want or not str(c.get("description", "")).strip():
            sys.exit(f"{f}: name must be {want!r}, with a description")
        if c.get("provider") not in ("opencode", "openclaw"):
            sys.exit(f"{want}: provider is opencode or openclaw")
        argv = ["hook", "agenthooks", "serve", "--provider=" + c["provider"], *c.get("args", [])]
        if any(not isinstance(a, str) or "\0" in a for a in argv):
            sys.exit(f"{want}: args are strings without NUL")
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", want)
        write(cd, "argv", b"\0".join(a.encode() for a in argv))
        write(cd, "argc", len(argv))
        lines = [serve_line(want, e) for e in c["input"]]
        if any(b"\n" in ln for ln in lines):
            sys.exit(f"{want}: an input line holds a newline")
        write(cd, "input", b"".join(ln + b"\n" for ln in lines))
        if not isinstance(c["output"], list) or not all(isinstance(x, dict) for x in c["output"]):
            sys.exit(f"{want}: output is a list of frames")
        write(cd, "output", b"".join(compact(x) + b"\n" for x in c["output"]))
        order = c.get("in_order", [])
        if not isinstance(order, list) or not all(isinstance(x, list) and len(x) >= 2 for x in order):
            sys.exit(f"{want}: in_order is a list of seq lists")
        write(cd, "in_order", b"".join(compact(x) + b"\n" for x in order))
        i += 1
    write(out, "count", i)
    write(out, "files", len(files))
    return i


SIM_FILE_KEYS = {"agent", "agent_version", "rows"}
SIM_ROW_KEYS = {"name", "description", "event", "tool", "answer", "effect", "model_sees", "user_sees", "warnings", "note"}
SIM_ANSWER_KEYS = {"stdout", "stderr", "exit", "timed_out"}


def simulate_cases(root, out):
    """fixtures/simulate/README.md: (agent, event, wire answer) -> effect.
    Each row becomes one ah_predict_json request and its expectation:
    request.json, effect, warnings (one code a line), and model_sees /
    user_sees (`null` file: must be absent; missing file: not checked)."""
    files = [(f, False) for f in sorted((root / "simulate").glob("*.json"))]
    files += [(f, True) for f in sorted((root / "simulate" / "observed").glob("*.json"))]
    i = 0
    for f, observed in files:
        c = load(f)
        strict(c, SIM_FILE_KEYS, str(f))
        for r in c["rows"]:
            where = f"{f}: {r.get('name')}"
            strict(r, SIM_ROW_KEYS, where)
            strict(r["answer"], SIM_ANSWER_KEYS, where + ": answer")
            cd = out / str(i)
            cd.mkdir(parents=True)
            write(cd, "name", f"simulate/{f.parent.name}/{c['agent']}/{r['name']}")
            req = {"agent": c["agent"], "event": r["event"], "answer": r["answer"]}
            if observed:
                # headless runs; warnings are a subset there (README)
                req["mode"] = "headless"
                write(cd, "warnings_subset", "1")
            if r.get("tool"):
                req["tool"] = r["tool"]
            write(cd, "request.json", compact(req))
            write(cd, "effect", r["effect"])
            write(cd, "warnings", "".join(w + "\n" for w in sorted(r.get("warnings", []))))
            for k in ("model_sees", "user_sees"):
                if k in r:
                    write(cd, k, "\0null" if r[k] is None else r[k])
            i += 1
    write(out, "count", i)
    return i


MCP_KEYS = {"name", "description", "request", "expect"}
TRANSCRIPT_KEYS = {"name", "description", "file", "format", "max_line_bytes", "page_size", "expect"}


def mcp_cases(root, out):
    """fixtures/mcp/README.md: a fake HOME/project tree + lookup -> transport."""
    i = 0
    for case in sorted(p for p in (root / "mcp").iterdir() if (p / "case.json").is_file()):
        top = case.resolve()
        text = (case / "case.json").read_text().replace("{root}", str(top))
        c = json.loads(text)
        assert set(c) <= MCP_KEYS, f"{case}: unknown fields {set(c) - MCP_KEYS}"
        assert c["name"] == f"mcp/{case.name}", f"{case}: name must equal the path"
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", c["name"])
        write(cd, "request.json", json.dumps(c["request"]))
        write(cd, "expect.json", json.dumps(c["expect"]))
        i += 1
    write(out, "count", i)
    return i


def transcript_cases(root, out):
    """fixtures/transcript/README.md: a transcript file read page by page."""
    i = 0
    for f in sorted((root / "transcript").glob("*.json")):
        c = json.loads(f.read_text())
        assert set(c) <= TRANSCRIPT_KEYS, f"{f}: unknown fields {set(c) - TRANSCRIPT_KEYS}"
        assert c["name"] == f"transcript/{f.stem}", f"{f}: name must equal the path"
        req = {"path": str((f.parent / c["file"]).resolve()), "format": c.get("format", "auto"),
               "max_entries": c.get("page_size", 256)}
        if "max_line_bytes" in c:
            req["max_line_bytes"] = c["max_line_bytes"]
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", c["name"])
        write(cd, "request.json", json.dumps(req))
        write(cd, "expect.json", json.dumps(c["expect"]))
        i += 1
    write(out, "count", i)
    return i


def verdict_cases(root, out):
    """fixtures/simulate/verdicts/verdicts.json: the core's verdict of an
    assertion over outcomes. Each case becomes one ah_verdict_json request
    (request.json) and `expect`: "holds=<0|1> checked=<n> nothing=<0|1>"
    then one "<index> <agent>" line per offending outcome."""
    c = load(root / "simulate" / "verdicts" / "verdicts.json")
    strict(c, {"description", "cases"}, "verdicts.json")
    i = 0
    for v in c["cases"]:
        strict(v, {"name", "assertion", "outcomes", "holds", "checked", "offending", "nothing_checked"}, v.get("name", "?"))
        cd = out / str(i)
        cd.mkdir(parents=True)
        write(cd, "name", f"verdicts/{v['name']}")
        write(cd, "request.json", compact({"assertion": v["assertion"], "outcomes": v["outcomes"]}))
        lines = [f"holds={int(v['holds'])} checked={v['checked']} nothing={int(v['nothing_checked'])}\n"]
        lines += [f"{o['index']} {o['agent']}\n" for o in v["offending"]]
        write(cd, "expect", "".join(lines))
        i += 1
    write(out, "count", i)
    return i


def main():
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    if out.exists():
        import shutil
        shutil.rmtree(out)
    (out / "provider").mkdir(parents=True)
    (out / "router").mkdir(parents=True)
    (out / "runtime").mkdir(parents=True)
    (out / "dispatch").mkdir(parents=True)
    (out / "serve").mkdir(parents=True)
    (out / "simulate").mkdir(parents=True)
    (out / "verdicts").mkdir(parents=True)
    n = provider_cases(root, out / "provider")
    m = router_cases(root, out / "router")
    k = runtime_cases(root, out / "runtime")
    d = dispatch_cases(root, out / "dispatch")
    v = serve_cases(root, out / "serve")
    s = simulate_cases(root, out / "simulate")
    mc = mcp_cases(root, out / "mcp")
    tc = transcript_cases(root, out / "transcript")
    vd = verdict_cases(root, out / "verdicts")
    print(f"flatten_fixtures: {n} provider cases, {m} router cases, {d} dispatch vectors, "
          f"{k} runtime vectors, {v} serve vectors, {s} simulate vectors, {mc} mcp cases, {tc} transcript cases, "
          f"{vd} verdict vectors -> {out}")


if __name__ == "__main__":
    main()
