//! The CLI is argument parsing over the core's entry points: `host run`
//! answers exactly what `host::json::run_json` (the call every binding
//! makes) answers for the same request, and `exec` exactly what the run
//! entry (`runtime::start` → handler → `Invocation::complete`) answers for
//! the same arguments, payload and decision: deduplication, `--match` and
//! the stop-loop guard included.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agenthooks::runtime::{self, Plan, RunArgs};
use agenthooks::{Decision, Policy};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_agenthooks");

struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("ah-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        Scratch(d)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What stays the same between two runs of the same hooks (no timings).
fn stable(v: &Value) -> Value {
    if v.get("error").is_some() {
        return v.clone();
    }
    let hooks: Vec<Value> = v["hooks"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|h| json!([h["hook"], h["command"], h["exit_code"], h["output"]]))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "dialect": v["dialect"], "event": v["event"], "subjects": v["subjects"],
        "outcome": v["outcome"], "hooks": hooks, "warnings": v["warnings"],
        "audit_len": v["audit"].as_array().map(Vec::len),
    })
}

fn cli(args: &[&str]) -> (Value, i32, String) {
    let o = Command::new(BIN)
        .args(args)
        .output()
        .expect("agenthooks runs");
    let out: Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    (
        out,
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn core(req: Value) -> Value {
    serde_json::from_str(&agenthooks::host::json::run_json(&req.to_string())).expect("JSON")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 scratch path")
}

#[test]
fn host_run_is_the_core_json_call() {
    let d = Scratch::new("host");
    let config = d.write(
        "settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"systemMessage\":\"from config\"}'"}]},{"matcher":"Bash(","hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    let plugin = d.0.join("plug");
    d.write(
        "plug/hooks/hooks.json",
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo blocked by plugin >&2; exit 2"}]}]}}"#,
    );
    // Key order and spacing the agent chose: the file's exact bytes are decoded.
    let event = d.write(
        "event.json",
        r#"{ "tool_use_id":"t", "hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"} }"#,
    );
    let (out, code, _) = cli(&[
        "host",
        "run",
        "--dialect",
        "claude-code",
        "--config",
        s(&config),
        "--plugin",
        s(&plugin),
        "--event-json",
        s(&event),
        "--sequential",
    ]);
    assert_eq!(code, 0, "{out}");
    let want = core(json!({
        "dialect": "claude-code",
        "configs": [{"path": s(&config)}],
        "plugins": [{"root": s(&plugin)}],
        "event_path": s(&event),
        "sequential": true,
    }));
    assert_eq!(stable(&out), stable(&want));
    assert_eq!(out["hooks"].as_array().map(Vec::len), Some(2), "{out}");
    assert!(
        out["outcome"].to_string().contains("blocked by plugin"),
        "{out}"
    );
    assert_eq!(out["warnings"][0]["code"], "invalid_regex", "{out}");
    // The inline form of the same event decodes to the same event.
    let text = std::fs::read_to_string(&event).expect("event");
    let inline = core(json!({
        "dialect": "claude-code", "configs": [{"path": s(&config)}],
        "plugins": [{"root": s(&plugin)}], "sequential": true,
        "event": serde_json::from_str::<Value>(&text).expect("event JSON"),
    }));
    assert_eq!(stable(&inline)["outcome"], stable(&out)["outcome"]);

    // Errors: the same object, on stdout, with exit 1 and a line on stderr.
    let missing = d.0.join("absent.json");
    let (out, code, err) = cli(&[
        "host",
        "run",
        "--dialect",
        "claude-code",
        "--config",
        s(&config),
        "--event-json",
        s(&missing),
    ]);
    let want = core(json!({
        "dialect": "claude-code", "configs": [{"path": s(&config)}], "event_path": s(&missing),
    }));
    assert_eq!((code, &out), (1, &want));
    assert_eq!(out["error"]["code"], "io");
    assert!(err.starts_with("agenthooks host: io: "), "{err}");
    let (out, code, _) = cli(&[
        "host",
        "run",
        "--dialect",
        "claude-code",
        "--config",
        s(&config),
        "--strict",
        "--event-json",
        s(&event),
    ]);
    assert_eq!(
        (code, &out["error"]["code"]),
        (1, &json!("config_rejected"))
    );
    let (out, code, _) = cli(&[
        "host",
        "run",
        "--dialect",
        "gemini",
        "--config",
        s(&config),
        "--event-json",
        s(&event),
    ]);
    assert_eq!(
        (code, &out["error"]["code"]),
        (1, &json!("invalid_argument"))
    );
}

/// One call of `agenthooks exec` whose command appends a line to `marker`
/// and prints `decision`: (stdout, exit code, stderr).
fn exec(
    state: &Path,
    marker: &Path,
    extra: &[&str],
    payload: &str,
    decision: &str,
) -> (String, i32, String) {
    let script = format!(
        "cat > /dev/null; echo ran >> '{}'; printf '%s' '{decision}'",
        marker.display()
    );
    let mut args: Vec<&str> = vec!["exec"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "sh", "-c", &script]);
    let mut child = Command::new(BIN)
        .args(&args)
        .env("AGENTHOOKS_STATE_DIR", state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agenthooks exec starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(payload.as_bytes())
        .expect("payload written");
    let o = child.wait_with_output().expect("exec finishes");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The same call through the run entry, in process, with its own state.
fn run_entry(
    state: &Path,
    args: RunArgs,
    policy: &Policy,
    payload: &str,
    decision: &str,
) -> (String, i32) {
    let plan = Plan {
        args: RunArgs {
            command: "run".into(),
            state_dir: Some(state.to_path_buf()),
            ..args
        },
        ..Plan::default()
    };
    let r = match runtime::start(&plan, policy, Ok(payload.as_bytes().to_vec())) {
        Ok(inv) => inv.complete(Decision::from_json(decision)),
        Err(answer) => answer,
    };
    (r.stdout, r.exit_code)
}

fn ran(marker: &Path) -> usize {
    std::fs::read_to_string(marker).map_or(0, |t| t.lines().count())
}

#[test]
fn exec_deduplicates_cursor_siblings_like_the_run_entry() {
    let d = Scratch::new("exec-dedupe");
    let (exec_state, run_state) = (d.0.join("state-exec"), d.0.join("state-run"));
    let marker = d.0.join("marker");
    let ids =
        r#""conversation_id":"4f0b7d2e","generation_id":"a92c1e07","workspace_roots":["/srv/app"]"#;
    let generic = format!(
        r#"{{"hook_event_name":"preToolUse",{ids},"tool_name":"Shell","tool_input":{{"command":"git push --force","cwd":"/srv/app"}},"tool_use_id":"call_1"}}"#
    );
    let specific = format!(
        r#"{{"hook_event_name":"beforeShellExecution",{ids},"cursor_version":"2.3.9","command":"git push --force","cwd":"/srv/app"}}"#
    );
    let deny = r#"{"kind":"deny","reason":"no force push"}"#;
    let args = RunArgs {
        provider: Some("cursor".into()),
        ..RunArgs::default()
    };
    let mut seen = Vec::new();
    for payload in [&generic, &specific] {
        let (out, code, err) = exec(
            &exec_state,
            &marker,
            &["--provider", "cursor"],
            payload,
            deny,
        );
        let want = run_entry(&run_state, args.clone(), &Policy::default(), payload, deny);
        assert_eq!((out.clone(), code), want, "{err}");
        seen.push(out);
    }
    assert!(
        seen[0].contains("deny"),
        "first delivery decides: {}",
        seen[0]
    );
    assert_eq!(seen[1].trim(), "{}", "the sibling answers the no-op");
    assert_eq!(ran(&marker), 1, "the command ran once");
}

#[test]
fn exec_honours_match_like_the_run_entry() {
    let d = Scratch::new("exec-match");
    let marker = d.0.join("marker");
    let bash = r#"{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;
    let deny = r#"{"kind":"deny","reason":"no"}"#;
    for (matcher, runs) in [("file.edit", false), ("shell", true)] {
        let before = ran(&marker);
        let (out, code, err) = exec(
            &d.0.join("state"),
            &marker,
            &["--provider", "claude-code", "--match", matcher],
            bash,
            deny,
        );
        let args = RunArgs {
            provider: Some("claude-code".into()),
            matcher: Some(matcher.into()),
            ..RunArgs::default()
        };
        let want = run_entry(&d.0.join("state-run"), args, &Policy::default(), bash, deny);
        assert_eq!((out.clone(), code), want, "--match={matcher}: {err}");
        assert_eq!(out.contains("deny"), runs, "--match={matcher}: {out}");
        assert_eq!(
            ran(&marker) - before,
            usize::from(runs),
            "--match={matcher}"
        );
    }
}

#[test]
fn exec_caps_stop_continuations_like_the_run_entry() {
    let d = Scratch::new("exec-loop");
    let (exec_state, run_state) = (d.0.join("state-exec"), d.0.join("state-run"));
    let marker = d.0.join("marker");
    let stop = |active: bool| {
        format!(
            r#"{{"session_id":"loop-1","cwd":"/tmp","hook_event_name":"Stop","stop_hook_active":{active},"last_assistant_message":"done"}}"#
        )
    };
    let more = r#"{"kind":"continue","reason":"run the tests first"}"#;
    let policy_json = r#"{"continuation_cap":1}"#;
    let policy = Policy::from_json(policy_json).expect("policy");
    let args = RunArgs {
        provider: Some("claude-code".into()),
        ..RunArgs::default()
    };
    let mut outs = Vec::new();
    for active in [false, true] {
        let payload = stop(active);
        let (out, code, err) = exec(
            &exec_state,
            &marker,
            &["--provider", "claude-code", "--policy", policy_json],
            &payload,
            more,
        );
        let want = run_entry(&run_state, args.clone(), &policy, &payload, more);
        assert_eq!(
            (out.clone(), code),
            want,
            "stop_hook_active={active}: {err}"
        );
        outs.push(out);
    }
    assert!(
        outs[0].contains("\"block\""),
        "the first stop continues: {}",
        outs[0]
    );
    assert!(
        !outs[1].contains("\"block\""),
        "the cap holds across processes: {}",
        outs[1]
    );
}
