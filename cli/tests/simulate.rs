//! `agenthooks simulate`: the table, the JSON fields, the matrix, and the
//! exit status when the hook cannot run.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_agenthooks");

fn sim(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(BIN)
        .arg("simulate")
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("agenthooks runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

const DENY_EXIT2: &str = "cat >/dev/null; echo 'no deletes' >&2; exit 2";

#[test]
fn json_has_the_stable_fields() {
    let (code, out, err) = sim(&[
        "--json",
        "--agent",
        "kimi-code",
        "--agent",
        "copilot",
        "--command",
        "rm -rf build",
        "--",
        "sh",
        "-c",
        DENY_EXIT2,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Vec<Value> = serde_json::from_str(&out).expect("JSON array");
    assert_eq!(v.len(), 2);
    for o in &v {
        for k in [
            "agent",
            "scenario",
            "event",
            "argv",
            "payload",
            "timeout_ms",
            "answer",
            "prediction",
        ] {
            assert!(o.get(k).is_some(), "{k} in {o}");
        }
        assert_eq!(o["prediction"]["effect"], "tool_blocked", "{o}");
        assert_eq!(o["answer"]["exit"], 2);
    }
    let seen = v[0]["prediction"]["model_sees"].as_str().unwrap_or("");
    assert!(seen.ends_with("no deletes"), "{seen}");
    assert_eq!(v[1]["prediction"]["warnings"][0]["code"], "reason_dropped");
}

#[test]
fn the_table_and_the_matrix() {
    let (code, out, _) = sim(&["--prompt", "hello", "--", "sh", "-c", "cat >/dev/null"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("== prompt: hello"), "{out}");
    assert_eq!(out.matches("prompt_continues").count(), 8, "{out}");
    let (code, out, _) = sim(&["--matrix", "--", "sh", "-c", "cat >/dev/null"]);
    assert_eq!(code, 0);
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("agent") && first.contains("shell: rm -rf build"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("codex")).count(),
        1,
        "{out}"
    );
}

#[test]
fn a_hook_that_cannot_run_fails_the_command() {
    let (code, out, err) = sim(&[
        "--agent",
        "codex",
        "--command",
        "ls",
        "--",
        "/nonexistent/hook",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("did not run"), "{err}");
    assert!(out.contains("HOOK DID NOT RUN"), "{out}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let (code, _, err) = sim(&["--payload", "/nonexistent.json", "--", "true"]);
    assert_eq!(code, 1);
    assert!(err.contains("--payload needs exactly one --agent"), "{err}");
    let (code, _, err) = sim(&["--scenarios", "/nonexistent.json", "--", "true"]);
    assert_eq!(code, 1);
    assert!(err.contains("--scenarios"), "{err}");
    let (code, _, err) = sim(&["--event", "tool.pre", "--", "true"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs `command`"), "{err}");
}

#[test]
fn a_native_payload_of_one_agent() {
    let dir = std::env::temp_dir().join(format!("ah-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("p.json");
    std::fs::write(
        &f,
        r#"{"session_id":"s","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hi"}"#,
    )
    .expect("write");
    let (code, out, err) = sim(&[
        "--json",
        "--agent",
        "claude-code",
        "--payload",
        f.to_str().unwrap_or(""),
        "--",
        "sh",
        "-c",
        "cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"no\"}'",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{err}");
    let v: Vec<Value> = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v[0]["event"], "UserPromptSubmit");
    assert_eq!(v[0]["prediction"]["effect"], "prompt_blocked");
}
