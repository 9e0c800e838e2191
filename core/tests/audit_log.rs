//! The opt-in audit log (issue 15 §4), in real hook processes: this test
//! binary re-run as a hook (`AH_AUDIT_CHILD` set) with a clean
//! environment, a fresh state root per case. A plain `main` (harness =
//! false): libtest would print to stdout itself.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agenthooks::audit::{self, Entry};
use agenthooks::{Decision, Router};
use serde_json::Value;

const CHILD: &str = "AH_AUDIT_CHILD";

fn guard() -> Router {
    let mut r = Router::new();
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("destructive")
        } else {
            Decision::no_decision()
        }
    });
    r
}

/// Child modes: `hook` runs one invocation as a hook process; `loop`
/// runs `AH_AUDIT_N` invocations in-process (concurrent appends).
fn child_main(mode: &str) -> ! {
    let argv: Vec<String> = std::env::var("AH_AUDIT_ARGV")
        .unwrap_or_default()
        .split('\u{1f}')
        .map(String::from)
        .collect();
    if mode == "loop" {
        let n: usize = std::env::var("AH_AUDIT_N").unwrap().parse().unwrap();
        let router = std::sync::Arc::new(guard());
        for _ in 0..n {
            let r = agenthooks::runtime::run_argv(router.clone(), &argv, PRE_LS);
            assert_eq!(r.exit_code, 0);
        }
        std::process::exit(0);
    }
    if mode == "append" {
        // Raw appends with a tiny rotation bound (rotation races).
        let dir =
            agenthooks::state::root_at(Path::new(&std::env::var("AH_AUDIT_DIR").unwrap())).unwrap();
        let tag = std::env::var("AH_AUDIT_TAG").unwrap();
        for i in 0..200 {
            let line = format!(
                "{{\"w\":\"{tag}\",\"i\":{i},\"pad\":\"{}\"}}\n",
                "x".repeat(40)
            );
            dir.append_rotating("f", line.as_bytes(), 4096, 200)
                .unwrap();
        }
        std::process::exit(0);
    }
    let code = agenthooks::process::run_process(guard(), &argv);
    std::process::exit(code)
}

const PRE_LS: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls hunter2-in-tool-input"},"tool_use_id":"t"}"#;
const PRE_RM: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf / --token=s3cr3t-tok curl -H 'Authorization: Bearer abcdefghijklmnop'","api_key":"AK-SECRET-VALUE"},"tool_use_id":"t"}"#;

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn spawn(mode: &str, argv: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> std::process::Child {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.env_clear()
        .env(CHILD, mode)
        .env("AH_AUDIT_ARGV", argv.join("\u{1f}"))
        .env("PATH", "/usr/bin:/bin")
        // A secret in the hook's environment: never logged.
        .env("MY_API_TOKEN", "env-secret-zzz");
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child
}

fn run(argv: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Out {
    let out = spawn("hook", argv, env, stdin).wait_with_output().unwrap();
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ah-audit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn lines(state: &Path) -> Vec<Value> {
    let p = state.join("log").join(audit::FILE);
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

const HOOK: &[&str] = &[
    "guard",
    "agenthooks",
    "run",
    "--provider=claude-code",
    "--hook-id=demo:guard",
];

fn off_by_default_and_switches() {
    let d = scratch("switch");
    let st = d.join("state");
    let sdir = ("AGENTHOOKS_STATE_DIR", st.to_str().unwrap());
    let o = run(HOOK, &[sdir], PRE_RM);
    assert!(o.stdout.contains("deny"), "{}", o.stdout);
    assert!(
        !st.join("log").exists(),
        "logging is off by default: no log directory"
    );
    // AGENTHOOKS_LOG=0 silences a --log written into the config.
    let mut with_log = HOOK.to_vec();
    with_log.push("--log");
    run(&with_log, &[sdir, ("AGENTHOOKS_LOG", "0")], PRE_RM);
    assert!(!st.join("log").exists(), "AGENTHOOKS_LOG=0 wins over --log");
    // --log alone turns it on.
    run(&with_log, &[sdir], PRE_RM);
    assert_eq!(lines(&st).len(), 1);
    // AGENTHOOKS_LOG=1 without --log too.
    run(HOOK, &[sdir, ("AGENTHOOKS_LOG", "1")], PRE_LS);
    let l = lines(&st);
    assert_eq!(l.len(), 2);
    std::fs::remove_dir_all(&d).unwrap();
}

fn line_contents_and_modes() {
    let d = scratch("line");
    let st = d.join("state");
    let env = [
        ("AGENTHOOKS_STATE_DIR", st.to_str().unwrap()),
        ("AGENTHOOKS_LOG", "1"),
    ];
    let o = run(HOOK, &env, PRE_RM);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("deny"), "{}", o.stdout);
    let l = lines(&st);
    assert_eq!(l.len(), 1);
    let e = &l[0];
    assert_eq!(e["v"], 1);
    assert_eq!(e["agent"], "claude-code");
    assert_eq!(e["event"], "PreToolUse");
    assert_eq!(e["kind"], "tool.pre");
    assert_eq!(e["hook_id"], "demo:guard");
    assert_eq!(e["decision"], "deny");
    assert_eq!(e["exit"], 0);
    assert!(e["latency_us"].as_u64().is_some(), "{e}");
    assert!(
        audit::parse_rfc3339(e["ts"].as_str().unwrap()).is_some(),
        "{e}"
    );
    assert!(e.get("payload").is_none(), "no payload unless asked: {e}");
    let raw = std::fs::read_to_string(st.join("log").join(audit::FILE)).unwrap();
    for secret in [
        "rm -rf",
        "s3cr3t",
        "abcdefghijklmnop",
        "AK-SECRET",
        "env-secret-zzz",
    ] {
        assert!(!raw.contains(secret), "{secret} was written: {raw}");
    }
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&st.join("log")), 0o700);
    assert_eq!(mode(&st.join("log").join(audit::FILE)), 0o600);
    // The line parses as the documented entry.
    let back: Entry = serde_json::from_str(raw.lines().next().unwrap()).unwrap();
    assert_eq!(back.hook_id.as_deref(), Some("demo:guard"));

    // An answer given before any handler (unknown provider) is logged too.
    let bad = [
        "guard",
        "agenthooks",
        "run",
        "--provider=claude-cod",
        "--hook-id=demo:x",
    ];
    let o = run(&bad, &env, PRE_LS);
    assert_eq!(o.code, 0, "fail-open: {}", o.stderr);
    let l = lines(&st);
    assert_eq!(l.len(), 2);
    assert_eq!(l[1]["error"], "unknown_provider", "{}", l[1]);
    assert_eq!(l[1]["decision"], "none");
    assert_eq!(l[1]["event"], "PreToolUse");
    assert_eq!(l[1]["hook_id"], "demo:x");
    std::fs::remove_dir_all(&d).unwrap();
}

fn payloads_are_redacted() {
    let d = scratch("payloads");
    let st = d.join("state");
    let env = [
        ("AGENTHOOKS_STATE_DIR", st.to_str().unwrap()),
        ("AGENTHOOKS_LOG", "payloads"),
    ];
    run(HOOK, &env, PRE_RM);
    let l = lines(&st);
    assert_eq!(l.len(), 1);
    let cmd = l[0]["payload"]["tool_input"]["command"].as_str().unwrap();
    assert!(cmd.starts_with("rm -rf /"), "{cmd}");
    assert_eq!(l[0]["payload"]["tool_input"]["api_key"], "[redacted]");
    let raw = std::fs::read_to_string(st.join("log").join(audit::FILE)).unwrap();
    for secret in ["s3cr3t", "abcdefghijklmnop", "AK-SECRET", "env-secret-zzz"] {
        assert!(!raw.contains(secret), "{secret} was written: {raw}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn concurrent_hooks_never_interleave() {
    let d = scratch("concurrent");
    let st = d.join("state");
    let (procs, per) = (6usize, 60usize);
    let children: Vec<_> = (0..procs)
        .map(|w| {
            let id = format!("--hook-id=w:{w}");
            let argv = ["guard", "agenthooks", "run", "--provider=claude-code", &id];
            spawn(
                "loop",
                &argv,
                &[
                    ("AGENTHOOKS_STATE_DIR", st.to_str().unwrap()),
                    ("AGENTHOOKS_LOG", "1"),
                    ("AH_AUDIT_N", &per.to_string()),
                ],
                b"",
            )
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let l = lines(&st);
    assert_eq!(l.len(), procs * per, "every line intact and present");
    for w in 0..procs {
        let n = l
            .iter()
            .filter(|e| e["hook_id"] == format!("w:{w}"))
            .count();
        assert_eq!(n, per, "writer {w}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn rotation_is_bounded() {
    // Sequential: every generation within the bound, only `keep` kept, the
    // newest lines survive in order.
    let d = scratch("rotate");
    let dir = agenthooks::state::root_at(&d.join("state")).unwrap();
    for i in 0..500 {
        let line = format!("{i:05} {}\n", "y".repeat(90));
        dir.append_rotating("f", line.as_bytes(), 1000, 2).unwrap();
    }
    let mut seen = Vec::new();
    for name in ["f.2", "f.1", "f"] {
        let p = d.join("state").join(name);
        let len = std::fs::metadata(&p).unwrap().len();
        assert!(len <= 1000, "{name}: {len} bytes");
        for l in std::fs::read_to_string(&p).unwrap().lines() {
            seen.push(l[..5].parse::<u32>().unwrap());
        }
    }
    assert!(
        !d.join("state").join("f.3").exists(),
        "only 2 generations kept"
    );
    let n = u32::try_from(seen.len()).unwrap();
    let expect: Vec<u32> = (500 - n..500).collect();
    assert_eq!(seen, expect, "the newest lines, in order");
    assert!(n >= 20, "{n}");

    // Processes racing the rotation: no line lost or torn (keep is large
    // enough to hold everything).
    let d2 = scratch("rotate-race");
    let st = d2.join("state");
    std::fs::create_dir_all(&st).unwrap();
    std::fs::set_permissions(&st, std::fs::Permissions::from_mode(0o700)).unwrap();
    let children: Vec<_> = (0..6)
        .map(|w| {
            spawn(
                "append",
                &[],
                &[
                    ("AH_AUDIT_DIR", st.to_str().unwrap()),
                    ("AH_AUDIT_TAG", &w.to_string()),
                ],
                b"",
            )
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let mut total = 0;
    let mut files = 0;
    for e in std::fs::read_dir(&st).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if name.starts_with('.') {
            continue;
        }
        files += 1;
        for l in std::fs::read_to_string(e.path()).unwrap().lines() {
            let v: Value =
                serde_json::from_str(l).unwrap_or_else(|err| panic!("torn line {l:?}: {err}"));
            assert!(v["i"].is_u64());
            total += 1;
        }
    }
    assert_eq!(total, 6 * 200);
    assert!(files > 2, "rotation happened: {files} files");
    std::fs::remove_dir_all(&d).unwrap();
    std::fs::remove_dir_all(&d2).unwrap();
}

fn main() {
    if let Ok(mode) = std::env::var(CHILD) {
        child_main(&mode);
    }
    off_by_default_and_switches();
    line_contents_and_modes();
    payloads_are_redacted();
    concurrent_hooks_never_interleave();
    rotation_is_bounded();
    println!("audit_log: 5 checks passed");
}
