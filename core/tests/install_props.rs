//! Property tests over generated existing configs: installing preserves
//! every unrelated key, value, comment and byte of formatting; installing
//! twice changes nothing; uninstalling gives back the original bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::install::{self, Action, Manifest, Plan, Scope, Target};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const MANIFEST: &str = r#"
id = "prop"
program = "/opt/prop/bin/hook"

[[hooks]]
kind = "tool.pre"
match = "shell"
timeout = 20
fail = "closed"

[[hooks]]
kind = "agent.stop"
blocking = false

[[hooks]]
id = "edits"
kind = "tool.post"
match = "file.edit|mcp:github"
"#;

fn manifest() -> Manifest {
    Manifest::from_toml(MANIFEST).unwrap()
}

/// The text style of a generated file.
#[derive(Debug, Clone)]
struct Style {
    indent: &'static str,
    comments: bool,
    trailing_newline: bool,
}

fn style() -> impl Strategy<Value = Style> {
    (
        prop_oneof![Just(""), Just("  "), Just("    "), Just("\t")],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(indent, comments, trailing_newline)| Style {
            indent,
            comments,
            trailing_newline,
        })
}

fn write(v: &Value, s: &Style, depth: usize, out: &mut String) {
    let nl = |out: &mut String, d: usize| {
        if !s.indent.is_empty() {
            out.push('\n');
            for _ in 0..d {
                out.push_str(s.indent);
            }
        }
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if s.indent.is_empty() {
                        out.push(' ');
                    }
                }
                nl(out, depth + 1);
                if s.comments && !s.indent.is_empty() && i % 2 == 0 {
                    out.push_str(&format!("// about {k}"));
                    nl(out, depth + 1);
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write(x, s, depth + 1, out);
            }
            nl(out, depth);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    if s.indent.is_empty() {
                        out.push(' ');
                    }
                }
                nl(out, depth + 1);
                write(x, s, depth + 1, out);
            }
            nl(out, depth);
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn render(v: &Value, s: &Style) -> String {
    let mut out = String::new();
    write(v, s, 0, &mut out);
    if s.trailing_newline {
        out.push('\n');
    }
    out
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(|n| json!(n)),
        "[a-zA-Z0-9 _./-]{0,12}".prop_map(Value::String),
        Just(Value::Null),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn handler() -> impl Strategy<Value = Value> {
    ("[a-z][a-z/ -]{0,15}", proptest::option::of(1u32..600)).prop_map(|(c, t)| {
        let mut m = Map::new();
        m.insert("type".into(), json!("command"));
        m.insert("command".into(), json!(c));
        if let Some(t) = t {
            m.insert("timeout".into(), json!(t));
        }
        Value::Object(m)
    })
}

/// Nested (Claude/Codex/Gemini) user hooks: event -> groups.
fn nested_hooks(events: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let group = (
        proptest::option::of("[A-Za-z]{1,8}"),
        prop::collection::vec(handler(), 1..3),
    )
        .prop_map(|(m, hs)| {
            let mut g = Map::new();
            if let Some(m) = m {
                g.insert("matcher".into(), json!(m));
            }
            g.insert("hooks".into(), Value::Array(hs));
            Value::Object(g)
        });
    prop::collection::btree_map(
        prop::sample::select(events),
        prop::collection::vec(group, 1..3),
        1..3,
    )
    .prop_map(|m| {
        Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.to_string(), Value::Array(v)))
                .collect(),
        )
    })
}

/// Flat (Cursor) user hooks.
fn flat_hooks(events: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop::collection::btree_map(
        prop::sample::select(events),
        prop::collection::vec(handler(), 1..3),
        1..3,
    )
    .prop_map(|m| {
        Value::Object(
            m.into_iter()
                .map(|(k, v)| (k.to_string(), Value::Array(v)))
                .collect(),
        )
    })
}

/// A settings object: random keys plus maybe the user's hooks.
fn settings(
    hooks: BoxedStrategy<Value>,
    extra: Vec<(&'static str, Value)>,
) -> impl Strategy<Value = Value> {
    (
        prop::collection::btree_map("[a-z]{1,8}", value(), 0..5),
        proptest::option::of(hooks),
    )
        .prop_map(move |(m, h)| {
            let mut o: Map<String, Value> = m
                .into_iter()
                .filter(|(k, _)| k != "hooks" && k != "version")
                .collect();
            for (k, v) in &extra {
                o.insert(k.to_string(), v.clone());
            }
            if let Some(h) = h {
                o.insert("hooks".into(), h);
            }
            Value::Object(o)
        })
}

fn plan(
    m: &Manifest,
    t: &Target,
    action: Action,
    files: &BTreeMap<PathBuf, Option<String>>,
) -> Plan {
    install::plan_from(m, t, action, files).expect("plan")
}

fn applied(
    files: &BTreeMap<PathBuf, Option<String>>,
    p: &Plan,
) -> BTreeMap<PathBuf, Option<String>> {
    let mut out = files.clone();
    for c in &p.changes {
        out.insert(c.path.clone(), c.after.clone());
    }
    out
}

fn target(agent: Provider) -> Target {
    let root = Path::new("/nonexistent-agenthooks-prop");
    Target::new(
        agent,
        Scope::User,
        &root.join("home"),
        &root.join("project"),
    )
}

/// Strips `//` comment lines (the generator writes them on their own lines).
fn parse_loose(text: &str) -> Value {
    install::jsonc::parse(text)
        .expect("our output parses")
        .value
}

fn check_json(agent: Provider, path: PathBuf, before: String) -> Result<(), TestCaseError> {
    let m = manifest();
    let t = target(agent);
    let mut files = BTreeMap::new();
    files.insert(path.clone(), Some(before.clone()));
    // Codex also reads config.toml: absent here.
    let p1 = plan(&m, &t, Action::Install, &files);
    let after1 = applied(&files, &p1);
    let text = after1[&path].clone().expect("installed");
    // Unrelated keys and values are untouched.
    let (a, b) = (parse_loose(&before), parse_loose(&text));
    for (k, v) in a.as_object().unwrap() {
        if k != "hooks" {
            prop_assert_eq!(Some(v), b.get(k), "key {} changed", k);
        }
    }
    // The user's hooks are all still there, in order, before ours.
    if let Some(h) = a.get("hooks").and_then(Value::as_object) {
        for (ev, arr) in h {
            let now = b["hooks"][ev].as_array().unwrap();
            let user = arr.as_array().unwrap();
            prop_assert_eq!(&now[..user.len()], &user[..]);
        }
    }
    // Every comment line survives.
    for line in before.lines().filter(|l| l.trim_start().starts_with("//")) {
        prop_assert!(text.contains(line.trim()), "comment lost: {}", line);
    }
    // Idempotent.
    let p2 = plan(&m, &t, Action::Install, &after1);
    prop_assert!(p2.is_noop(), "second install changed:\n{}", p2.diff());
    // Uninstall gives back the original bytes.
    let p3 = plan(&m, &t, Action::Uninstall, &after1);
    let after3 = applied(&after1, &p3);
    assert_restored(after3[&path].as_deref(), &before)?;
    Ok(())
}

/// Uninstall gives back the original bytes; the one exception is a file
/// holding nothing at all (`{}`, no comment), which is removed.
fn assert_restored(now: Option<&str>, before: &str) -> Result<(), TestCaseError> {
    let empty = parse_loose(before)
        .as_object()
        .is_some_and(|o| o.is_empty())
        && !before.contains("//");
    if now.is_none() && empty {
        return Ok(());
    }
    prop_assert_eq!(now, Some(before));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn claude_settings_preserved(v in settings(nested_hooks(&["PreToolUse", "PostToolUse", "Stop", "Notification"]).boxed(), vec![]), s in style()) {
        let s = Style { comments: false, ..s };
        check_json(Provider::ClaudeCode, PathBuf::from("/nonexistent-agenthooks-prop/home/.claude/settings.json"), render(&v, &s))?;
    }

    #[test]
    fn gemini_jsonc_preserved(v in settings(nested_hooks(&["BeforeTool", "AfterTool", "AfterAgent"]).boxed(), vec![]), s in style()) {
        check_json(Provider::Gemini, PathBuf::from("/nonexistent-agenthooks-prop/home/.gemini/settings.json"), render(&v, &s))?;
    }

    #[test]
    fn cursor_hooks_preserved(v in settings(flat_hooks(&["preToolUse", "stop", "afterFileEdit"]).boxed(), vec![("version", json!(1))]), s in style()) {
        check_json(Provider::Cursor, PathBuf::from("/nonexistent-agenthooks-prop/home/.cursor/hooks.json"), render(&v, &s))?;
    }

    #[test]
    fn codex_hooks_and_trust_preserved(
        v in settings(nested_hooks(&["PreToolUse", "PostToolUse", "Stop"]).boxed(), vec![]),
        s in style(),
        toml_keys in prop::collection::btree_map("[a-z]{1,8}", "[a-z0-9 ]{0,8}", 0..4),
        comment in any::<bool>(),
    ) {
        let m = manifest();
        let t = target(Provider::Codex);
        let (hp, cp) = install::codex::paths(&t);
        let mut toml = String::new();
        if comment { toml.push_str("# my codex config\n"); }
        for (k, x) in &toml_keys { toml.push_str(&format!("{k} = {x:?}\n")); }
        toml.push_str("\n[features]\nhooks = true # on\n");
        let hooks_text = render(&v, &Style { comments: false, ..s });
        let mut files = BTreeMap::new();
        files.insert(hp.clone(), Some(hooks_text.clone()));
        files.insert(cp.clone(), Some(toml.clone()));
        let p1 = plan(&m, &t, Action::Install, &files);
        let a1 = applied(&files, &p1);
        let cfg = a1[&cp].clone().unwrap();
        for line in toml.lines() {
            prop_assert!(cfg.contains(line), "config line lost: {}", line);
        }
        prop_assert!(cfg.contains("trusted_hash = \"sha256:"));
        let p2 = plan(&m, &t, Action::Install, &a1);
        prop_assert!(p2.is_noop(), "second install changed:\n{}", p2.diff());
        let a3 = applied(&a1, &plan(&m, &t, Action::Uninstall, &a1));
        assert_restored(a3[&hp].as_deref(), &hooks_text)?;
        prop_assert_eq!(a3[&cp].as_deref(), Some(toml.as_str()));
    }

    #[test]
    fn kimi_toml_preserved(
        keys in prop::collection::btree_map("[a-z]{1,8}", "[a-z0-9 ]{0,8}", 0..5),
        user_hooks in prop::collection::vec(("[A-Z][a-z]{2,8}", "[a-z][a-z /-]{0,12}"), 0..3),
        comment in any::<bool>(),
        tail_table in any::<bool>(),
    ) {
        let m = manifest();
        let t = target(Provider::KimiCode);
        let path = install::kimi::path(&t).unwrap();
        let mut text = String::new();
        if comment { text.push_str("# kimi\n"); }
        for (k, x) in &keys { text.push_str(&format!("{k} = {x:?}  # why\n")); }
        for (e, c) in &user_hooks {
            text.push_str(&format!("\n[[hooks]]\nevent = {e:?}\ncommand = {c:?}\n"));
        }
        if tail_table { text.push_str("\n[models.x]\nprovider = \"m\"\n"); }
        let mut files = BTreeMap::new();
        files.insert(path.clone(), Some(text.clone()));
        let p1 = plan(&m, &t, Action::Install, &files);
        let a1 = applied(&files, &p1);
        let out = a1[&path].clone().unwrap();
        for line in text.lines() {
            prop_assert!(out.contains(line), "line lost: {}", line);
        }
        let p2 = plan(&m, &t, Action::Install, &a1);
        prop_assert!(p2.is_noop(), "second install changed:\n{}", p2.diff());
        let a3 = applied(&a1, &plan(&m, &t, Action::Uninstall, &a1));
        prop_assert_eq!(a3[&path].as_deref(), Some(text.as_str()));
    }
}
