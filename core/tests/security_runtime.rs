//! Attacks on the author-side run entry (argv + stdin -> answer), each in a
//! real hook process (this test binary re-executed as the hook program), so
//! exit codes, panics and stack overflows are what the agent would see.
//!
//! The hook program is a guard that denies any shell command containing
//! `rm -rf`; `AH_ROUTER_FAIL` sets the router's own fail posture. Every
//! case pipes a payload an agent can send and checks that the guard still
//! guards: a typo in the configured command, a payload the agent's own
//! `JSON.parse` accepts, or a JSON blob in argv must never turn into
//! "no opinion" (exit 0, empty stdout: Claude Code runs `rm -rf`).
//!
//! `harness = false`: libtest would print to the stdout under test.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks::{Decision, Policy, Router};

const CHILD: &str = "AH_SECURITY_RUNTIME_CHILD";
static NEXT: AtomicUsize = AtomicUsize::new(0);

fn child_main() -> ! {
    let policy = match std::env::var("AH_ROUTER_FAIL").as_deref() {
        Ok("closed") => Policy::fail_closed(),
        _ => Policy::default(),
    };
    let mut r = Router::new().policy(policy);
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("guard: rm -rf is not allowed")
        } else {
            Decision::no_decision()
        }
    });
    let argv: Vec<String> =
        serde_json::from_str(&std::env::var("AH_RUNTIME_ARGV").unwrap_or_default())
            .unwrap_or_default();
    let code = agenthooks::process::run_process(r, &argv);
    std::process::exit(code)
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn hook(argv: &[&str], router_fail: &str, stdin: &[u8]) -> Out {
    let exe = std::env::current_exe().unwrap();
    let state = std::env::temp_dir().join(format!(
        "ah-security-runtime-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let mut child = Command::new(exe)
        .env(CHILD, "1")
        .env("AH_RUNTIME_ARGV", serde_json::to_string(argv).unwrap())
        .env("AH_ROUTER_FAIL", router_fail)
        .env("AGENTHOOKS_STATE_DIR", &state)
        .env_remove("AGENTHOOKS_NOTES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin_pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written on a thread: a child that answers before reading everything
    // must not deadlock the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin_pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let _ = std::fs::remove_dir_all(&state);
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn claude_pre(command: &str, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":{},"description":"d"{extra}}},"tool_use_id":"toolu_1"}}"#,
        serde_json::to_string(command).unwrap()
    )
    .into_bytes()
}

const RM: &str = "rm -rf /home/user";

/// Claude Code's own deny on PreToolUse (the guard's answer).
fn assert_claude_deny(o: &Out, what: &str) {
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: stdout is not the deny JSON ({e}): stdout {:?}, stderr {:?}, exit {}",
            o.stdout, o.stderr, o.code
        )
    });
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{what}: {v}"
    );
    assert_eq!(o.code, 0, "{what}: exit code");
}

/// "No opinion" in Claude Code's terms: exit 0 with empty stdout, or `{}`
/// once the event is known (claude-code.md §5); never exit 2, which on a
/// Stop makes Claude continue.
fn assert_no_opinion(o: &Out, what: &str) {
    assert!(
        o.code == 0 && matches!(o.stdout.trim(), "" | "{}"),
        "{what}: expected no opinion, got stdout {:?}, exit {}, stderr {:?}",
        o.stdout,
        o.code,
        o.stderr
    );
}

type Case = (&'static str, fn());

fn typo_option_is_ignored_with_a_warning() {
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--fail=closed",
            "--timout=5",
        ],
        "open",
        &claude_pre(RM, ""),
    );
    assert_claude_deny(&o, "--timout=5");
    assert!(o.stderr.contains("--timout"), "warning: {:?}", o.stderr);
}

fn typo_provider_blocks_under_fail_closed() {
    for fail in [&["--fail=closed"][..], &[]] {
        let mut argv = vec!["guard", "agenthooks", "run", "--provider=claude-cod"];
        argv.extend_from_slice(fail);
        // Closed from argv, or from the router when argv says nothing.
        let o = hook(&argv, "closed", &claude_pre(RM, ""));
        assert_eq!(o.code, 2, "exit 2 blocks on every agent: {:?}", o.stderr);
        assert_eq!(o.stdout, "");
        assert!(o.stderr.contains("unknown_provider"), "{:?}", o.stderr);
    }
    // Fail-open: no opinion, but said clearly.
    let o = hook(
        &["guard", "agenthooks", "run", "--provider=claude-cod"],
        "open",
        &claude_pre(RM, ""),
    );
    assert_eq!((o.stdout.as_str(), o.code), ("", 0));
    assert!(o.stderr.contains("unknown_provider"), "{:?}", o.stderr);
}

fn typo_in_fail_value_fails_closed() {
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--fail=closd",
        ],
        "open",
        &claude_pre(RM, ""),
    );
    assert_claude_deny(&o, "--fail=closd");
    assert!(o.stderr.contains("--fail"), "{:?}", o.stderr);
    // Even a harmless command is blocked: the configuration is broken.
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--fail=closd",
        ],
        "open",
        &claude_pre("ls", ""),
    );
    assert_claude_deny(&o, "--fail=closd on ls");
}

fn bad_timeout_value_gets_the_fail_policy() {
    let argv = [
        "guard",
        "agenthooks",
        "run",
        "--provider=claude-code",
        "--timeout=ten",
    ];
    let o = hook(&argv, "closed", &claude_pre("ls", ""));
    assert_claude_deny(&o, "--timeout=ten under a fail-closed router");
    assert!(o.stderr.contains("--timeout"), "{:?}", o.stderr);
    let o = hook(&argv, "open", &claude_pre("ls", ""));
    assert_no_opinion(&o, "--timeout=ten under a fail-open router");
    assert!(o.stderr.contains("--timeout"), "{:?}", o.stderr);
}

fn huge_max_bytes_does_not_panic() {
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--max-bytes=18446744073709551615",
        ],
        "open",
        &claude_pre(RM, ""),
    );
    assert_claude_deny(&o, "--max-bytes=u64::MAX");
    assert!(!o.stderr.contains("panicked"), "{:?}", o.stderr);
}

fn stop(extra: &str) -> Vec<u8> {
    format!(
        r#"{{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false{extra}}}"#
    )
    .into_bytes()
}

fn fail_closed_never_makes_a_stop_continue() {
    let closed = [
        "guard",
        "agenthooks",
        "run",
        "--provider=claude-code",
        "--fail=closed",
    ];
    // Undecodable (invalid UTF-8): logged only, never exit 2 (= continue).
    let payload = {
        let mut p = stop("");
        p.pop();
        p.extend_from_slice(b",\"last_assistant_message\":\"caf\xe9\"}");
        p
    };
    let o = hook(&closed, "open", &payload);
    assert_no_opinion(&o, "invalid UTF-8 Stop");
    assert!(o.stderr.contains("invalid_utf8"), "{:?}", o.stderr);
    // Oversized (over --max-bytes): the name is read from what was read.
    let big = stop(&format!(
        r#","last_assistant_message":"{}""#,
        "x".repeat(4096)
    ));
    let mut argv = closed.to_vec();
    argv.push("--max-bytes=1024");
    let o = hook(&argv, "open", &big);
    assert_no_opinion(&o, "oversized Stop");
    assert!(o.stderr.contains("too_large"), "{:?}", o.stderr);
    // A number JSON.parse reads as Infinity: decodes, no opinion.
    let o = hook(&closed, "open", &stop(r#","n":1e999"#));
    assert_no_opinion(&o, "Stop with 1e999");
    // With an unknown provider the same holds under the universal answer.
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-cod",
            "--fail=closed",
        ],
        "open",
        &payload,
    );
    assert_no_opinion(&o, "unknown provider, Stop");
    // ... while a Stop named only inside the model's tool input is no Stop.
    let mut nested = claude_pre(RM, r#","x":{"hook_event_name":"Stop"}"#);
    nested.pop();
    nested.extend_from_slice(b",\"bad\":\"\xff\"}");
    let o = hook(&closed, "open", &nested);
    assert_eq!(o.code, 2, "nested Stop must not unblock: {:?}", o.stderr);
}

fn unknown_event_name_is_reported() {
    let mut p = claude_pre(RM, "");
    let s = String::from_utf8(p.clone())
        .unwrap()
        .replace("\"PreToolUse\"", "\"pretooluse\"");
    p = s.into_bytes();
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--fail=closed",
        ],
        "open",
        &p,
    );
    assert_no_opinion(&o, "lowercase event name");
    assert!(
        o.stderr.contains("pretooluse") && o.stderr.contains("PreToolUse"),
        "say what was not recognised: {:?}",
        o.stderr
    );
}

fn lone_surrogate_still_guards() {
    // JSON.stringify("\ud800") is "\"\\ud800\"": an agent can send it.
    let o = hook(
        &["guard", "agenthooks", "run", "--provider=claude-code"],
        "open",
        &claude_pre(RM, r#","note":"half an emoji: \ud83d""#),
    );
    assert_claude_deny(&o, "lone surrogate");
}

fn deep_tool_input_still_guards() {
    for depth in [200usize, 100_000] {
        let deep = "[".repeat(depth) + &"]".repeat(depth);
        let o = hook(
            &["guard", "agenthooks", "run", "--provider=claude-code"],
            "open",
            &claude_pre(RM, &format!(r#","args":{deep}"#)),
        );
        assert_claude_deny(&o, &format!("tool_input nested {depth} deep"));
    }
    // 1 000 000 levels at top level: not an object, answered, no crash.
    let deep = "[".repeat(1_000_000) + &"]".repeat(1_000_000);
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--fail=closed",
        ],
        "open",
        deep.as_bytes(),
    );
    assert_eq!(o.code, 2, "fail-closed answer, not a crash: {:?}", o.stderr);
    assert!(o.stderr.contains("not_an_object"), "{:?}", o.stderr);
}

fn huge_numbers_still_guard() {
    let o = hook(
        &["guard", "agenthooks", "run", "--provider=claude-code"],
        "open",
        &claude_pre(
            RM,
            r#","timeout":1e999,"big":123456789012345678901234567890,"neg":-1e999"#,
        ),
    );
    assert_claude_deny(&o, "huge numbers");
}

fn json_argument_never_replaces_stdin() {
    let decoy = r#"{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t0"}"#;
    // A config blob before the `agenthooks` word belongs to the program.
    let o = hook(
        &[
            "guard",
            decoy,
            "agenthooks",
            "run",
            "--provider=claude-code",
        ],
        "open",
        &claude_pre(RM, ""),
    );
    assert_claude_deny(&o, "JSON before the word");
    // Even as the last argument, stdin wins when it holds a payload.
    let o = hook(
        &[
            "guard",
            "agenthooks",
            "run",
            "--provider=claude-code",
            decoy,
        ],
        "open",
        &claude_pre(RM, ""),
    );
    assert_claude_deny(&o, "JSON argument with a payload on stdin");
    // The legacy mode still works when stdin is empty.
    let rm = String::from_utf8(claude_pre(RM, "")).unwrap();
    let o = hook(
        &["guard", "agenthooks", "run", "--provider=claude-code", &rm],
        "open",
        b"",
    );
    assert_claude_deny(&o, "argv payload with empty stdin");
}

fn usage_without_the_word() {
    let o = hook(&["guard", "run", "--provider=claude-code"], "open", b"{}");
    assert_eq!((o.stdout.as_str(), o.code), ("", 64), "{:?}", o.stderr);
    assert!(o.stderr.contains("agenthooks run"), "{:?}", o.stderr);
}

const CASES: &[Case] = &[
    (
        "typo_option_is_ignored_with_a_warning",
        typo_option_is_ignored_with_a_warning,
    ),
    (
        "typo_provider_blocks_under_fail_closed",
        typo_provider_blocks_under_fail_closed,
    ),
    (
        "typo_in_fail_value_fails_closed",
        typo_in_fail_value_fails_closed,
    ),
    (
        "bad_timeout_value_gets_the_fail_policy",
        bad_timeout_value_gets_the_fail_policy,
    ),
    (
        "huge_max_bytes_does_not_panic",
        huge_max_bytes_does_not_panic,
    ),
    (
        "fail_closed_never_makes_a_stop_continue",
        fail_closed_never_makes_a_stop_continue,
    ),
    (
        "unknown_event_name_is_reported",
        unknown_event_name_is_reported,
    ),
    ("lone_surrogate_still_guards", lone_surrogate_still_guards),
    ("deep_tool_input_still_guards", deep_tool_input_still_guards),
    ("huge_numbers_still_guard", huge_numbers_still_guard),
    (
        "json_argument_never_replaces_stdin",
        json_argument_never_replaces_stdin,
    ),
    ("usage_without_the_word", usage_without_the_word),
];

fn main() {
    if std::env::var_os(CHILD).is_some() {
        child_main();
    }
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut failed = Vec::new();
    let mut ran = 0;
    for (name, f) in CASES {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        ran += 1;
        if std::panic::catch_unwind(f).is_err() {
            failed.push(*name);
            eprintln!("security_runtime: FAILED {name}");
        } else {
            eprintln!("security_runtime: ok {name}");
        }
    }
    eprintln!(
        "security_runtime: {} passed, {} failed",
        ran - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        std::process::exit(1);
    }
}
