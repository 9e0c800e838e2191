//! Walks every provider fixture in `fixtures/<provider>/*.json` and checks
//! decode and every response against the core. Schema: `fixtures/README.md`.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use agenthooks::{Decision, DecodeOptions, Error, Policy, Provider};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    description: String,
    provider: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    argv: Option<Vec<String>>,
    #[serde(default)]
    env: Option<BTreeMap<String, String>>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    payload_text: Option<String>,
    #[serde(default)]
    payload_b64: Option<String>,
    #[serde(default)]
    payload_gen: Option<Gen>,
    expect: Expect,
    #[serde(default)]
    responses: Vec<ResponseCase>,
    #[serde(default)]
    skip: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Gen {
    kind: String,
    #[serde(default)]
    depth: Option<usize>,
    #[serde(default)]
    bytes: Option<usize>,
    #[serde(default)]
    base: Option<Map<String, Value>>,
    #[serde(default)]
    field: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    event: Option<Value>,
    #[serde(default)]
    error: Option<ErrorExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorExpect {
    code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResponseCase {
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    error: Option<ErrorExpect>,
    wire: Wire,
    #[serde(default)]
    notes: Vec<NoteExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    #[serde(default)]
    stdout_json: Option<Value>,
    #[serde(default)]
    stdout: Option<String>,
    #[serde(default)]
    stderr: Option<StderrExpect>,
    exit_code: i32,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StderrExpect {
    Exact(String),
    Contains { contains: String },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct NoteExpect {
    code: String,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
}

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn b64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::new();
    let mut buf = 0u32;
    let mut bits = 0;
    for c in s.bytes().filter_map(val) {
        buf = (buf << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
            buf &= (1 << bits) - 1;
        }
    }
    out
}

fn payload_bytes(c: &Case) -> Vec<u8> {
    let given = [
        c.payload.is_some(),
        c.payload_text.is_some(),
        c.payload_b64.is_some(),
        c.payload_gen.is_some(),
    ];
    assert_eq!(
        given.iter().filter(|b| **b).count(),
        1,
        "{}: exactly one payload form",
        c.name
    );
    if let Some(p) = &c.payload {
        return serde_json::to_vec(p).unwrap();
    }
    if let Some(t) = &c.payload_text {
        return t.as_bytes().to_vec();
    }
    if let Some(b) = &c.payload_b64 {
        return b64_decode(b);
    }
    let g = c.payload_gen.as_ref().unwrap();
    match g.kind.as_str() {
        "deep" => {
            let d = g.depth.expect("deep needs depth");
            let mut v = Vec::with_capacity(2 * d);
            v.extend(std::iter::repeat_n(b'[', d));
            v.extend(std::iter::repeat_n(b']', d));
            v
        }
        "big_string" => {
            let n = g.bytes.expect("big_string needs bytes");
            let mut v = Vec::with_capacity(n + 2);
            v.push(b'"');
            v.extend(std::iter::repeat_n(b'x', n));
            v.push(b'"');
            v
        }
        "big_field" => {
            let n = g.bytes.expect("big_field needs bytes");
            let mut base = g.base.clone().expect("big_field needs base");
            base.insert(
                g.field.clone().expect("big_field needs field"),
                Value::String("x".repeat(n)),
            );
            serde_json::to_vec(&Value::Object(base)).unwrap()
        }
        other => panic!("{}: unknown payload_gen kind {other}", c.name),
    }
}

fn check_notes(name: &str, i: usize, got: &[agenthooks::Note], want: &[NoteExpect]) {
    let got: Vec<NoteExpect> = got
        .iter()
        .map(|n| NoteExpect {
            code: n.code.clone(),
            from: n.from.clone(),
            to: n.to.clone(),
        })
        .collect();
    assert_eq!(&got, want, "{name}: response {i}: notes");
}

fn check_wire(name: &str, i: usize, r: &agenthooks::Response, w: &Wire) {
    assert_eq!(
        r.exit_code, w.exit_code,
        "{name}: response {i}: exit code (stdout {:?}, stderr {:?})",
        r.stdout, r.stderr
    );
    match (&w.stdout_json, &w.stdout) {
        (Some(j), None) => {
            let got: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| {
                panic!(
                    "{name}: response {i}: stdout is not JSON ({e}): {:?}",
                    r.stdout
                )
            });
            assert_eq!(&got, j, "{name}: response {i}: stdout JSON");
        }
        (None, Some(s)) => assert_eq!(&r.stdout, s, "{name}: response {i}: stdout"),
        _ => panic!("{name}: response {i}: wire needs exactly one of stdout_json / stdout"),
    }
    match &w.stderr {
        None => {}
        Some(StderrExpect::Exact(s)) => assert_eq!(&r.stderr, s, "{name}: response {i}: stderr"),
        Some(StderrExpect::Contains { contains }) => assert!(
            r.stderr.contains(contains.as_str()),
            "{name}: response {i}: stderr {:?} lacks {contains:?}",
            r.stderr
        ),
    }
}

fn run_case(c: &Case) {
    let bytes = payload_bytes(c);
    let opts = DecodeOptions {
        variant: c.variant.clone(),
        event: c.event.clone(),
        ..DecodeOptions::default()
    };
    let mut opts = opts;
    let provider = Provider::parse(&c.provider);
    if c.env.is_some() || c.argv.is_some() {
        // Detection cases: the provider must be found from env/argv/shape
        // alone (no flag), and the decode records how.
        let env = c.env.clone().unwrap_or_default();
        let lookup = |k: &str| env.get(k).cloned();
        let argv = c.argv.clone().unwrap_or_default();
        // A `--provider` in the fixture's argv is the config flag.
        let mut rest = argv.clone();
        let _ = agenthooks::dialect::cursor::take_argv_payload(&mut rest);
        let flag = agenthooks::runtime::parse_args(&rest)
            .ok()
            .flatten()
            .and_then(|a| a.provider);
        let (p, how, variant) = agenthooks::detect::detect(flag.as_deref(), &lookup, &argv, &bytes)
            .unwrap_or_else(|e| panic!("{}: detection failed: {e}", c.name));
        assert_eq!(
            Ok(p),
            provider.as_ref().map(|p| *p).map_err(|_| ()),
            "{}: detected provider",
            c.name
        );
        opts.detection = how;
        if opts.variant.is_none() {
            opts.variant = variant;
        }
    }
    let decoded: Result<agenthooks::Event, Error> = match &provider {
        Ok(p) => agenthooks::decode(*p, &bytes, &opts),
        Err(_) => Err(Provider::parse(&c.provider).unwrap_err()),
    };
    match (&c.expect.event, &c.expect.error, &decoded) {
        (Some(want), None, Ok(ev)) => {
            let got = ev.to_value_without_raw();
            assert_eq!(
                &got,
                want,
                "{}: canonical event\n got: {}",
                c.name,
                serde_json::to_string(&got).unwrap()
            );
            assert_eq!(ev.raw, bytes, "{}: raw must be byte-identical", c.name);
            // `to_json` is the canonical JSON with `raw` spliced in verbatim
            // (raw may hold what only JSON.parse reads: lone surrogates,
            // any depth), so it is checked as text.
            let json = ev.to_json();
            let tail = format!(",\"raw\":{}}}", std::str::from_utf8(&bytes).unwrap().trim());
            let head = json
                .strip_suffix(&tail)
                .unwrap_or_else(|| panic!("{}: to_json must end with the raw payload", c.name));
            let without: Value =
                serde_json::from_str(&format!("{head}}}")).expect("to_json is JSON");
            assert_eq!(without, got, "{}: to_json without raw", c.name);
            // The head (what bindings decode eagerly) plus the output (read
            // on demand) is the canonical event, exactly.
            let mut split: Value =
                serde_json::from_str(&ev.head_json()).expect("head_json is JSON");
            let obj = split.as_object_mut().expect("head_json is an object");
            assert!(!obj.contains_key("output") && !obj.contains_key("raw"));
            if let Some(out) = ev.output_json() {
                let out: Value = serde_json::from_str(&out).expect("output_json is JSON");
                obj.insert("output".into(), out);
            }
            assert_eq!(&split, want, "{}: head_json + output_json", c.name);
        }
        (None, Some(code), Err(e)) => {
            assert_eq!(e.code().as_str(), code.code, "{}: error code ({e})", c.name)
        }
        (Some(_), None, Err(e)) => panic!(
            "{}: expected an event, got error {} ({e})",
            c.name,
            e.code()
        ),
        (None, Some(code), Ok(_)) => {
            panic!("{}: expected error {}, decoded fine", c.name, code.code)
        }
        _ => panic!("{}: expect needs exactly one of event / error", c.name),
    }
    for (i, rc) in c.responses.iter().enumerate() {
        let policy: Policy = match &rc.policy {
            Some(p) => Policy::from_json(&p.to_string())
                .unwrap_or_else(|e| panic!("{}: response {i}: policy: {e}", c.name)),
            None => Policy::default(),
        };
        let resp = match &decoded {
            Err(err) => {
                let Ok(p) = provider.as_ref() else {
                    panic!("{}: responses need a known provider", c.name);
                };
                assert!(
                    rc.error.is_none(),
                    "{}: response {i}: `error` is implied on error cases",
                    c.name
                );
                agenthooks::dialect::fail_response_for_payload(*p, &bytes, err, &policy)
            }
            Ok(ev) => {
                let parsed = match &rc.decision {
                    Some(d) => Decision::from_json(&d.to_string()),
                    None => Ok(Decision::no_decision()),
                };
                let result = parsed.and_then(|d| agenthooks::respond(ev, &d, &policy));
                match (result, &rc.error) {
                    (Ok(r), None) => r,
                    (Err(e), Some(want)) => {
                        assert_eq!(
                            e.code().as_str(),
                            want.code,
                            "{}: response {i}: error code",
                            c.name
                        );
                        agenthooks::fail_response(ev.provider, Some(ev), &e, &policy)
                    }
                    (Ok(r), Some(want)) => panic!(
                        "{}: response {i}: expected error {}, got {:?}",
                        c.name, want.code, r
                    ),
                    (Err(e), None) => panic!(
                        "{}: response {i}: unexpected error {} ({e})",
                        c.name,
                        e.code()
                    ),
                }
            }
        };
        check_wire(&c.name, i, &resp, &rc.wire);
        check_notes(&c.name, i, &resp.notes, &rc.notes);
    }
}

#[test]
fn provider_fixtures() {
    let root = fixtures_root();
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut total = 0;
    let mut ran = 0;
    let mut skipped = 0;
    let mut names = HashSet::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            Provider::parse(&n).is_ok()
        })
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let c: Case =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let rel = format!(
                "{}/{}",
                dir.file_name().unwrap().to_string_lossy(),
                f.file_stem().unwrap().to_string_lossy()
            );
            assert_eq!(c.name, rel, "fixture name must equal its path");
            assert!(!c.description.trim().is_empty(), "{}: description", c.name);
            assert!(
                names.insert(c.name.clone()),
                "duplicate fixture name {}",
                c.name
            );
            if let Some(f) = &filter {
                if !c.name.contains(f.as_str()) {
                    continue;
                }
            }
            total += 1;
            if let Some(reason) = c.skip.get("rust") {
                assert!(!reason.trim().is_empty());
                skipped += 1;
                continue;
            }
            run_case(&c);
            ran += 1;
        }
    }
    eprintln!("fixtures: ran {ran}, skipped {skipped}, total {total}");
    assert_eq!(ran + skipped, total);
    assert!(total > 0, "no fixtures matched");
}
