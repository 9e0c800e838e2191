#!/usr/bin/env bash
# Seeds corpus/<target>/ with every fixture payload of the target's agent
# (fixtures/<provider>/*.json: `payload`, `payload_text` or `payload_b64`;
# generated payloads are skipped), and corpus/runtime_entry/ with every
# runtime vector (fixtures/runtime/*.json: argv lines, an empty line, stdin). Corpus dirs are gitignored. Run from
# anywhere; re-running only adds files (names are content hashes).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixtures="$here/../../fixtures"
PYTHON="${PYTHON:-$(command -v python3)}"
"$PYTHON" - "$fixtures" "$here/corpus" <<'PY'
import base64, hashlib, json, os, sys
fixtures, corpus = sys.argv[1], sys.argv[2]
targets = {
    "claude-code": "decode_claude", "codex": "decode_codex", "cursor": "decode_cursor",
    "gemini": "decode_gemini", "kimi-code": "decode_kimi", "copilot": "decode_copilot",
    "opencode": "decode_opencode", "openclaw": "decode_openclaw",
}
total = 0
for provider, target in sorted(targets.items()):
    src = os.path.join(fixtures, provider)
    out = os.path.join(corpus, target)
    os.makedirs(out, exist_ok=True)
    n = 0
    for name in sorted(os.listdir(src)) if os.path.isdir(src) else []:
        if not name.endswith(".json"):
            continue
        case = json.load(open(os.path.join(src, name), encoding="utf-8"))
        if "payload" in case:
            data = json.dumps(case["payload"], separators=(",", ":"), ensure_ascii=False).encode()
        elif "payload_text" in case:
            data = case["payload_text"].encode()
        elif "payload_b64" in case:
            data = base64.b64decode(case["payload_b64"])
        else:
            continue
        with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
        n += 1
    print(f"{target}: {n} seeds from fixtures/{provider}")
    total += n
# runtime_entry: every runtime vector (fixtures/runtime/*.json) as argv
# lines, an empty line, then stdin (agenthooks_fuzz::split_entry).
out = os.path.join(corpus, "runtime_entry")
os.makedirs(out, exist_ok=True)
n = 0
src = os.path.join(fixtures, "runtime")
for name in sorted(os.listdir(src)) if os.path.isdir(src) else []:
    if not name.endswith(".json"):
        continue
    case = json.load(open(os.path.join(src, name), encoding="utf-8"))
    if any("\n" in a for a in case["argv"]):
        continue
    if "stdin" in case:
        data = json.dumps(case["stdin"], separators=(",", ":"), ensure_ascii=False).encode()
    elif "stdin_text" in case:
        data = case["stdin_text"].encode()
    elif "stdin_b64" in case:
        data = base64.b64decode(case["stdin_b64"])
    elif "stdin_parts" in case:
        data = b"".join(p.encode() if isinstance(p, str) else p["repeat"].encode() * min(p["times"], 20000)
                        for p in case["stdin_parts"])
    else:
        data = b""
    entry = "\n".join(case["argv"]).encode() + b"\n\n" + data
    with open(os.path.join(out, hashlib.sha1(entry).hexdigest()), "wb") as f:
        f.write(entry)
    n += 1
print(f"runtime_entry: {n} seeds from fixtures/runtime")
total += n
print(f"seeded {total} inputs into {corpus}")
PY
