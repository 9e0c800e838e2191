//! The generated half of each agent page (`docs/agents/<agent>.md`): its
//! events with what each can express (the capability rows), its column of
//! the support matrix, its quirks (the registry) and one real sample
//! payload per event (from `fixtures/<agent>/`). Everything below the
//! page's marker must equal what this test generates;
//! `AGENTHOOKS_BLESS=1 cargo test -p agenthooks --test agent_pages`
//! rewrites it (the hand-written half above the marker is kept).

use std::path::{Path, PathBuf};

use agenthooks::matrix::{self, Support};
use agenthooks::{DecodeOptions, Provider};
use serde_json::Value;

const MARKER: &str = "<!-- generated below by core/tests/agent_pages.rs from the capability rows, the quirk registry and fixtures/; AGENTHOOKS_BLESS=1 cargo test -p agenthooks --test agent_pages -->\n";

/// Samples larger than this are skipped (a smaller one of the same event
/// is taken, or none).
const MAX_SAMPLE: usize = 2500;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// One sample per native event: the first (by file name) fixture payload
/// that decodes to it, is not a malformed-input case, and is small.
fn samples(p: Provider) -> Vec<(String, String, Value)> {
    let dir = root().join("fixtures").join(p.id());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().and_then(|e| e.to_str()) == Some("json"))
        .collect();
    files.sort();
    let mut out: Vec<(String, String, Value)> = Vec::new();
    for f in files {
        let name = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if name.starts_with("malformed") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("read"))
            .expect("fixture JSON");
        let Some(payload) = v.get("payload") else {
            continue;
        };
        let text = serde_json::to_string_pretty(payload).expect("payload");
        if text.len() > MAX_SAMPLE {
            continue;
        }
        let opts = DecodeOptions {
            event: v.get("event").and_then(Value::as_str).map(String::from),
            variant: v.get("variant").and_then(Value::as_str).map(String::from),
            ..DecodeOptions::default()
        };
        let Ok(ev) = agenthooks::decode(p, text.as_bytes(), &opts) else {
            continue;
        };
        if out.iter().any(|(n, _, _)| *n == ev.native_name)
            || !agenthooks::native_events(p).contains(&ev.native_name.as_str())
        {
            continue;
        }
        out.push((ev.native_name.clone(), name, payload.clone()));
    }
    // In the agent's documentation order.
    let order = |n: &str| agenthooks::native_events(p).iter().position(|e| *e == n);
    out.sort_by_key(|(n, _, _)| order(n));
    out
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "—".to_string()
    } else {
        items
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn generated(p: Provider) -> String {
    let id = p.id();
    let mut out = String::new();
    out.push_str("## What a hook can do here\n\n");
    out.push_str(
        "This agent's column of the [support matrix](../support-matrix.md) \
         (`agenthooks capabilities --table`):\n\n| action | support | on | what happens instead |\n|---|:-:|---|---|\n",
    );
    for a in matrix::ACTIONS {
        let c = matrix::cell(p, a);
        let mark = match c.support {
            Support::Yes => "✓".to_string(),
            Support::Degraded(to) => format!("degraded → `{}`", to.as_str()),
            Support::No => "✗".to_string(),
        };
        let on = if c.events.is_empty() {
            "no such event".to_string()
        } else {
            list(&c.events.iter().map(|e| e.to_string()).collect::<Vec<_>>())
        };
        out.push_str(&format!(
            "| {} | {mark} | {on} | {} |\n",
            a.title,
            c.why.unwrap_or_default().replace('|', "\\|")
        ));
    }
    out.push_str("\n## Events\n\n");
    out.push_str(&format!(
        "Every native event (`agenthooks capabilities --provider {id}` has the same as JSON). \
         *blocks*: the event can stop or redirect the action at all.\n\n\
         | native event | kind | blocks | decisions | modifiers |\n|---|---|:-:|---|---|\n"
    ));
    for n in agenthooks::native_events(p) {
        let cap = agenthooks::capability_of(p, n);
        let decisions: Vec<String> = cap
            .decisions
            .iter()
            .map(|d| {
                let mut x = format!("`{}`", d.as_str());
                if let Some((_, m)) = cap.only_with.iter().find(|(k, _)| k == d) {
                    x.push_str(&format!(" (only with `{m}`)"));
                }
                if let Some((_, c)) = cap.only_when.iter().find(|(k, _)| k == d) {
                    x.push_str(&format!(" (only when {c})"));
                }
                x
            })
            .collect();
        let decisions = decisions.join(", ");
        out.push_str(&format!(
            "| `{n}` | `{}` | {} | {decisions} | {} |\n",
            cap.kind.as_str(),
            if cap.can_block { "yes" } else { "no" },
            list(
                &cap.modifiers
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
            )
        ));
    }
    let quirks = agenthooks::quirks::for_provider(p);
    out.push_str(&format!(
        "\n## Quirks\n\nWhat this agent does that a hook author would not guess, and what \
         agenthooks does about it ({} rows; all agents: [quirks.md](../quirks.md)).\n\n",
        quirks.len()
    ));
    for q in quirks {
        out.push_str(&format!(
            "- **`{}`** ({}; {}): {} *agenthooks:* {}\n",
            q.id,
            q.event,
            q.versions,
            q.behaviour.trim(),
            q.mitigation.trim()
        ));
    }
    let samples = samples(p);
    out.push_str(&format!(
        "\n## Sample payloads\n\nOne real-shaped payload per event, as the agent writes it to the \
         hook's stdin (from the conformance fixtures, `fixtures/{id}/`; {} of {} events). Try one \
         with `agenthooks decode --provider {id} < payload.json`.\n",
        samples.len(),
        agenthooks::native_events(p).len()
    ));
    for (event, file, payload) in samples {
        out.push_str(&format!(
            "\n### {event}\n\n`fixtures/{id}/{file}.json`\n\n```json\n{}\n```\n",
            serde_json::to_string_pretty(&payload).expect("payload")
        ));
    }
    out
}

#[test]
fn agent_pages_are_up_to_date() {
    let bless = std::env::var_os("AGENTHOOKS_BLESS").is_some();
    let mut stale = Vec::new();
    for p in Provider::ALL {
        let path = root().join(agenthooks::dialect::agent(p).page);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let at = text
            .find(MARKER)
            .unwrap_or_else(|| panic!("{}: no generated-section marker", path.display()));
        let want = generated(p);
        let have = &text[at + MARKER.len()..];
        if have != want {
            if bless {
                std::fs::write(&path, format!("{}{MARKER}{want}", &text[..at])).expect("write");
            } else {
                stale.push(path.display().to_string());
            }
        }
        // Every page has a sample for most of its events.
        let n = samples(p).len();
        assert!(n >= 3, "{}: only {n} sample payloads", p.id());
    }
    assert!(
        stale.is_empty(),
        "stale agent pages (regenerate with AGENTHOOKS_BLESS=1 cargo test -p agenthooks --test agent_pages): {stale:?}"
    );
}
