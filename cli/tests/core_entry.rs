//! The CLI is argument parsing over the core's entry points: `host run`
//! answers exactly what `host::json::run_json` (the call every binding
//! makes) answers for the same request.

use std::path::{Path, PathBuf};
use std::process::Command;

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
