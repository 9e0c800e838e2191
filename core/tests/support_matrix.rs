//! The capability rows against the real encoder, and the support matrix
//! page against the rows.
//!
//! For every agent and every native event it documents, every decision
//! kind and modifier the event kind takes is encoded through
//! `agenthooks::respond` on a real payload of that event (from
//! `fixtures/<agent>/`, else a blank event of its kind), and what the row
//! claims is checked against what comes out: a claimed decision is never
//! degraded, an unclaimed one always is; a claimed modifier survives with
//! at least one claimed decision, an unclaimed one is always dropped.
//! Then every cell of the support matrix is encoded the same way.
//! `docs/support-matrix.md` must hold `matrix::markdown()` between its
//! markers (`AGENTHOOKS_BLESS=1` rewrites it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agenthooks::matrix::{self, Support};
use agenthooks::{
    Decision, DecisionKind as D, DecodeOptions, Event, Kind, Policy, Provider, Response,
};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The first decodable fixture payload of each (agent, native event).
fn fixture_events() -> BTreeMap<(&'static str, String), Event> {
    let mut out = BTreeMap::new();
    for p in Provider::ALL {
        let dir = root().join("fixtures").join(p.id());
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files {
            if f.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("fixture");
            let v: Value = serde_json::from_str(&text).expect("fixture JSON");
            let Some(payload) = v.get("payload") else {
                continue;
            };
            let opts = DecodeOptions {
                event: v.get("event").and_then(Value::as_str).map(String::from),
                variant: v.get("variant").and_then(Value::as_str).map(String::from),
                ..DecodeOptions::default()
            };
            let bytes = serde_json::to_vec(payload).expect("payload");
            if let Ok(ev) = agenthooks::decode(p, &bytes, &opts) {
                out.entry((p.id(), ev.native_name.clone())).or_insert(ev);
            }
        }
    }
    out
}

fn event_for(fx: &BTreeMap<(&'static str, String), Event>, p: Provider, native: &str) -> Event {
    if let Some(ev) = fx.get(&(p.id(), native.to_string())) {
        return ev.clone();
    }
    let kind = agenthooks::capability_of(p, native).kind;
    let mut ev = Event::new(p, native, kind);
    if matches!(
        kind,
        Kind::ToolPre | Kind::ToolPost | Kind::ToolError | Kind::PermissionRequest
    ) {
        let pre = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;
        let claude = agenthooks::decode(Provider::ClaudeCode, pre, &DecodeOptions::default())
            .expect("claude payload");
        ev.tool = claude.tool;
    }
    ev
}

const KINDS: [D; 12] = [
    D::NoDecision,
    D::Allow,
    D::Deny,
    D::Ask,
    D::Defer,
    D::AcceptPrompt,
    D::BlockPrompt,
    D::Finish,
    D::Continue,
    D::Observed,
    D::FlagOutput,
    D::ReplaceOutput,
];
const MODIFIERS: [&str; 5] = [
    "updated_input",
    "context",
    "system_message",
    "stop_agent",
    "block_reason",
];

fn decision(kind: D) -> Decision {
    let mut d = match kind {
        D::Deny => Decision::deny("capability check"),
        D::Ask => Decision::ask("capability check"),
        D::BlockPrompt => Decision::block_prompt("capability check"),
        D::Continue => Decision::continue_with("capability check"),
        D::FlagOutput => Decision::flag_output("capability check"),
        D::ReplaceOutput => Decision::replace_output("capability check"),
        _ => Decision::no_decision(),
    };
    d.kind = kind;
    d
}

fn with_modifier(mut d: Decision, m: &str) -> Decision {
    match m {
        "updated_input" => {
            let mut map = serde_json::Map::new();
            map.insert("command".into(), "echo checked".into());
            d.updated_input = Some(map);
        }
        "context" => d.context = vec!["capability check".into()],
        "system_message" => d.system_message = Some("capability check".into()),
        "stop_agent" => d.stop_agent = Some(agenthooks::model::StopAgent::default()),
        "block_reason" => d.block_reason = Some("capability check".into()),
        _ => unreachable!("{m}"),
    }
    d
}

fn has_note(r: &Response, code: &str, from: &str) -> bool {
    r.notes
        .iter()
        .any(|n| n.code == code && n.from.as_deref() == Some(from))
}

#[test]
fn every_capability_row_matches_the_encoder() {
    let fx = fixture_events();
    let policy = Policy::default();
    let mut checked = 0usize;
    let mut failures: Vec<String> = Vec::new();
    for p in Provider::ALL {
        for native in agenthooks::native_events(p) {
            let cap = agenthooks::capability_of(p, native);
            let ev = event_for(&fx, p, native);
            for k in KINDS {
                let d = decision(k);
                if d.validate_for(cap.kind).is_err() {
                    continue;
                }
                let r = match agenthooks::respond(&ev, &d, &policy) {
                    Ok(r) => r,
                    Err(e) => {
                        failures.push(format!("{}/{native}: `{}` fails: {e}", p.id(), k.as_str()));
                        continue;
                    }
                };
                checked += 1;
                let degraded = has_note(&r, "degraded", k.as_str());
                if cap.only_when.iter().any(|(c, _)| *c == k) {
                    // Honoured or degraded depending on the payload; the
                    // matrix says which condition.
                    continue;
                }
                let conditional = cap.only_with.iter().find(|(c, _)| *c == k);
                let claimed = cap.decisions.contains(&k);
                match (claimed, conditional) {
                    (true, None) if degraded => failures.push(format!(
                        "{}/{native}: the row lists `{}` but the encoder degrades it: {:?}",
                        p.id(),
                        k.as_str(),
                        r.notes
                    )),
                    (true, Some((_, m))) => {
                        if !degraded {
                            failures.push(format!(
                                "{}/{native}: the row says a bare `{}` needs `{m}`, but the encoder takes it",
                                p.id(),
                                k.as_str()
                            ));
                        }
                        let r2 = agenthooks::respond(&ev, &with_modifier(d.clone(), m), &policy)
                            .expect("conditional decision encodes");
                        if has_note(&r2, "degraded", k.as_str()) {
                            failures.push(format!(
                                "{}/{native}: `{}` with `{m}` is still degraded",
                                p.id(),
                                k.as_str()
                            ));
                        }
                    }
                    (false, _) if !degraded => failures.push(format!(
                        "{}/{native}: `{}` is not in the row but the encoder does not degrade it",
                        p.id(),
                        k.as_str()
                    )),
                    _ => {}
                }
            }
            for m in MODIFIERS {
                let mut kept_somewhere = false;
                let mut valid_somewhere = false;
                for k in &cap.decisions {
                    let d = with_modifier(decision(*k), m);
                    if d.validate_for(cap.kind).is_err() {
                        continue;
                    }
                    valid_somewhere = true;
                    let Ok(r) = agenthooks::respond(&ev, &d, &policy) else {
                        continue;
                    };
                    checked += 1;
                    if !has_note(&r, "dropped", m) {
                        kept_somewhere = true;
                    }
                }
                if !valid_somewhere {
                    continue;
                }
                let claimed = cap.modifiers.contains(&m);
                if claimed && !kept_somewhere {
                    failures.push(format!(
                        "{}/{native}: the row lists `{m}` but every decision drops it",
                        p.id()
                    ));
                }
                if !claimed && kept_somewhere {
                    failures.push(format!(
                        "{}/{native}: `{m}` is not in the row but the encoder keeps it",
                        p.id()
                    ));
                }
            }
        }
    }
    assert!(checked > 500, "checked only {checked} encodings");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the agent sees: stdout (parsed when JSON) and the exit code.
fn wire(r: &Response) -> (Value, i32) {
    let out = serde_json::from_str(&r.stdout).unwrap_or(Value::String(r.stdout.clone()));
    (out, r.exit_code)
}

#[test]
fn every_matrix_cell_is_what_the_encoder_does() {
    let fx = fixture_events();
    let policy = Policy::default();
    let mut failures: Vec<String> = Vec::new();
    let mut cells = 0usize;
    for row in matrix::matrix() {
        for c in row {
            for native in &c.events {
                cells += 1;
                let mut ev = event_for(&fx, c.provider, native);
                if let Some(s) = ev.stop.as_mut() {
                    // Below the continuation cap.
                    s.loop_count = Some(0);
                }
                let d = c.action.decision();
                let cap = agenthooks::capability_of(c.provider, native);
                let conditional = cap
                    .only_when
                    .iter()
                    .any(|(k, _)| Some(*k) == c.action.decision);
                let r = agenthooks::respond(&ev, &d, &policy).expect("action encodes");
                let noop = agenthooks::respond(&ev, &Decision::no_decision(), &policy)
                    .expect("no-op encodes");
                let what = format!("{}/{native} `{}`", c.provider.id(), c.action.id);
                // A dropped `reason` (an answer with no message field) is
                // not the action lost.
                let lost = r.notes.iter().any(|n| {
                    n.code == "degraded"
                        || (n.code == "dropped" && n.from.as_deref() == c.action.modifier)
                });
                match c.support {
                    Support::Yes => {
                        if lost {
                            failures.push(format!("{what}: ✓ but {:?}", r.notes));
                        }
                        if wire(&r) == wire(&noop) {
                            failures.push(format!("{what}: ✓ but answers the no-op"));
                        }
                    }
                    Support::Degraded(to) => {
                        let ok = r
                            .notes
                            .iter()
                            .any(|n| n.code == "degraded" && n.to.as_deref() == Some(to.as_str()));
                        if !conditional && (!ok || wire(&r) == wire(&noop)) {
                            failures.push(format!(
                                "{what}: degraded to `{}` but {:?}",
                                to.as_str(),
                                r.notes
                            ));
                        }
                    }
                    Support::No => {
                        if !lost {
                            failures.push(format!("{what}: ✗ but nothing was lost"));
                        }
                    }
                }
            }
        }
    }
    assert!(cells > 80, "only {cells} cells with events");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const BEGIN: &str = "<!-- support-matrix:begin (generated by core/src/matrix.rs; AGENTHOOKS_BLESS=1 cargo test -p agenthooks --test support_matrix) -->\n";
const END: &str = "<!-- support-matrix:end -->";

#[test]
fn the_support_matrix_page_is_up_to_date() {
    let path = root().join("docs/support-matrix.md");
    let text = std::fs::read_to_string(&path).expect("docs/support-matrix.md");
    let start = text.find(BEGIN).expect("begin marker") + BEGIN.len();
    let end = text[start..].find(END).expect("end marker") + start;
    let want = matrix::markdown();
    if text[start..end] != want {
        if std::env::var_os("AGENTHOOKS_BLESS").is_some() {
            let new = format!("{}{want}{}", &text[..start], &text[end..]);
            std::fs::write(&path, new).expect("write");
            return;
        }
        panic!(
            "docs/support-matrix.md is out of date with the capability rows; \
             run AGENTHOOKS_BLESS=1 cargo test -p agenthooks --test support_matrix"
        );
    }
}

#[test]
fn the_table_has_every_agent_and_action() {
    let m = matrix::matrix();
    assert_eq!(m.len(), matrix::ACTIONS.len());
    for row in &m {
        assert_eq!(row.len(), Provider::ALL.len());
    }
    // Spot checks against the wire facts.
    let cell = |p: Provider, id: &str| {
        let a = matrix::ACTIONS.iter().find(|a| a.id == id).expect("action");
        matrix::cell(p, a).support
    };
    assert_eq!(cell(Provider::ClaudeCode, "ask"), Support::Yes);
    assert_eq!(cell(Provider::Codex, "ask"), Support::Degraded(D::Deny));
    assert_eq!(cell(Provider::Codex, "allow"), Support::No);
    assert_eq!(cell(Provider::Codex, "rewrite-input"), Support::Yes);
}
