//! Every decodable fixture payload of every provider folder must be named
//! by its own provider through `detect::detect_shape` alone; fixtures that
//! carry `env` / `argv` must also come out right through the full
//! `detect::detect` (flag absent). Reads whatever fixtures exist, loosely
//! (the strict schema is `core/tests/fixtures.rs`'s job).
//!
//! A collision is allowed only when it is listed in [`ALLOWED`] with the
//! rule in `core/src/detect.rs` that explains it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::detect::{detect, detect_shape};
use serde_json::{Map, Value};

/// `(fixture name, provider detect_shape names, reason)`: collisions the
/// shape rules accept by design. Each reason cites the rule in detect.rs.
const ALLOWED: &[(&str, &str, &str)] = &[(
    "codex/sessionend-other",
    "claude-code",
    "detect.rs shape rule 10: Codex SessionEnd carries only session_id, transcript_path, \
         cwd, hook_event_name and reason \"other\" (codex.md §3.2 e2e), the same keys and \
         values as Claude Code's SessionEnd (claude-code.md §3.3); with no `rollout-` \
         transcript path and no Codex plugin variable nothing tells them apart, and Claude \
         Code, the reference dialect, wins the tie. Both answer no-op with empty stdout.",
)];

/// Providers with no detection rule: OpenCode and OpenClaw payloads are
/// the plugin bridges' frames, always sent with `--provider` (`serve`) or
/// decoded in-process (detect.rs module docs).
const NOT_DETECTED: &[Provider] = &[Provider::Opencode, Provider::Openclaw];

/// Fixture families that are not provider folders.
fn provider_dirs(root: &Path) -> Vec<(Provider, PathBuf)> {
    let mut dirs: Vec<(Provider, PathBuf)> = std::fs::read_dir(root)
        .expect("fixtures/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter_map(|p| {
            let n = p.file_name()?.to_string_lossy().to_string();
            Provider::parse(&n).ok().map(|prov| (prov, p))
        })
        .filter(|(prov, _)| !NOT_DETECTED.contains(prov))
        .collect();
    dirs.sort_by(|a, b| a.1.cmp(&b.1));
    dirs
}

/// The payload as bytes and as an object, when the fixture has one that
/// decodes to an event.
fn payload_of(case: &Value) -> Option<(Vec<u8>, Map<String, Value>)> {
    case.get("expect")?.get("event")?.as_object()?;
    if let Some(Value::Object(m)) = case.get("payload") {
        return Some((serde_json::to_vec(m).ok()?, m.clone()));
    }
    if let Some(Value::String(t)) = case.get("payload_text") {
        if let Ok(m) = serde_json::from_str::<Map<String, Value>>(t) {
            return Some((t.as_bytes().to_vec(), m));
        }
    }
    None
}

#[derive(Default)]
struct Count {
    checked: usize,
    ok: usize,
    allowed: usize,
    collisions: Vec<String>,
    env_checked: usize,
}

#[test]
fn every_fixture_payload_is_detected_as_its_provider() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let allowed: HashMap<&str, (&str, &str)> =
        ALLOWED.iter().map(|(n, p, r)| (*n, (*p, *r))).collect();
    let mut counts: BTreeMap<&'static str, Count> = BTreeMap::new();
    let mut used_allowances = Vec::new();
    for (provider, dir) in provider_dirs(&root) {
        let count = counts.entry(provider.id()).or_default();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            // Files mid-edit by another writer are skipped, not failed: the
            // strict runner reports malformed fixtures.
            let Ok(case) = serde_json::from_str::<Value>(&text) else {
                eprintln!("detect_shapes: skipping unparsable {}", f.display());
                continue;
            };
            let name = case
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let Some((bytes, map)) = payload_of(&case) else {
                continue;
            };
            count.checked += 1;
            // Detection names the same variant as decoding (one rule per
            // agent: dialect::cursor::variant for Cursor), from the payload
            // alone (no environment, no --variant).
            if case.get("variant").is_none() && case.get("env").is_none() {
                let want = case["expect"]["event"]
                    .get("variant")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let none = |_: &str| None;
                if let Ok((p, _, v)) = detect(None, &none, &[], &bytes) {
                    if p == provider && v.as_deref().unwrap_or("") != want {
                        count.collisions.push(format!(
                            "{name}: detect says variant {v:?}, decoding {want:?}"
                        ));
                    }
                }
            }
            let got = detect_shape(&map);
            if got == Some(provider) {
                count.ok += 1;
            } else {
                let got_id = got.map(Provider::id).unwrap_or("none");
                match allowed.get(name.as_str()) {
                    Some((want, _)) if *want == got_id => {
                        count.allowed += 1;
                        used_allowances.push(name.clone());
                    }
                    _ => count.collisions.push(format!(
                        "{name}: detect_shape says {got_id}, fixture is {}",
                        provider.id()
                    )),
                }
            }
            // Detection cases: the whole rule chain must get it right.
            let env: HashMap<String, String> = case
                .get("env")
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                        .collect()
                })
                .unwrap_or_default();
            let argv: Vec<String> = case
                .get("argv")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            if case.get("env").is_some() || case.get("argv").is_some() {
                count.env_checked += 1;
                let lookup = |k: &str| env.get(k).cloned();
                match detect(None, &lookup, &argv, &bytes) {
                    Ok((p, _, _)) if p == provider => {}
                    Ok((p, how, _)) => count.collisions.push(format!(
                        "{name}: detect (env/argv) says {} by {how:?}, fixture is {}",
                        p.id(),
                        provider.id()
                    )),
                    Err(e) => count
                        .collisions
                        .push(format!("{name}: detect (env/argv) failed: {e}")),
                }
            }
        }
    }
    let mut total = Count::default();
    for (id, c) in &counts {
        eprintln!(
            "detect_shapes: {id:<12} checked {:>3}  ok {:>3}  allowed {:>2}  collisions {:>2}  (env/argv cases {})",
            c.checked,
            c.ok,
            c.allowed,
            c.collisions.len(),
            c.env_checked
        );
        total.checked += c.checked;
        total.ok += c.ok;
        total.allowed += c.allowed;
        total.collisions.extend(c.collisions.iter().cloned());
    }
    eprintln!(
        "detect_shapes: total checked {}  ok {}  allowed {}  collisions {}",
        total.checked,
        total.ok,
        total.allowed,
        total.collisions.len()
    );
    for (name, (_, reason)) in &allowed {
        if used_allowances.iter().any(|u| u == name) {
            eprintln!("detect_shapes: allowed {name}: {reason}");
        } else {
            eprintln!(
                "detect_shapes: allowance for {name} is unused (fixture gone or now detected)"
            );
        }
    }
    for c in &total.collisions {
        eprintln!("detect_shapes: COLLISION {c}");
    }
    assert!(total.checked > 0, "no fixture payloads found");
    assert!(
        total.collisions.is_empty(),
        "{} unexplained detection collision(s); see stderr",
        total.collisions.len()
    );
}
