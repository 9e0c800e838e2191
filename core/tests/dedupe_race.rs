//! 32 processes race to claim one Cursor tool call: exactly one handles it.
//!
//! The test binary re-runs itself (`std::env::current_exe()`) with
//! `AH_DEDUPE_CHILD` set; in that mode the `child` test decodes the payload
//! it is given, waits for a start signal, calls `dedupe::claim` and exits
//! with a code naming the outcome.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::dedupe::{Claim, claim};
use agenthooks::{DecodeOptions, Provider};

const CHILD: &str = "AH_DEDUPE_CHILD";
const FIRST: i32 = 10;
const DUPLICATE: i32 = 11;
const NOT_APPLICABLE: i32 = 12;

/// Child mode: a no-op unless `AH_DEDUPE_CHILD` is set.
#[test]
fn child() {
    let Ok(go) = std::env::var(CHILD) else {
        return;
    };
    let payload = std::env::var("AH_DEDUPE_PAYLOAD").expect("payload");
    let event = agenthooks::decode(
        Provider::Cursor,
        payload.as_bytes(),
        &DecodeOptions::default(),
    )
    .expect("decodes");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !Path::new(&go).exists() {
        assert!(Instant::now() < deadline, "no start signal");
        std::thread::sleep(Duration::from_millis(1));
    }
    let code = match claim(&event).expect("state root usable") {
        Claim::First => FIRST,
        Claim::Duplicate => DUPLICATE,
        Claim::NotApplicable => NOT_APPLICABLE,
    };
    std::process::exit(code);
}

fn generic(turn: &str, command: &str) -> String {
    format!(
        r#"{{"hook_event_name":"preToolUse","conversation_id":"race-conv","generation_id":"{turn}","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{{"command":"{command}","cwd":"/w"}},"tool_use_id":"call_{turn}\nctc_1"}}"#
    )
}

fn specific(turn: &str, command: &str) -> String {
    format!(
        r#"{{"hook_event_name":"beforeShellExecution","conversation_id":"race-conv","generation_id":"{turn}","workspace_roots":["/w"],"command":"{command}","cwd":"/w"}}"#
    )
}

fn spawn(state: &Path, go: &Path, payload: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CHILD, go)
        .env("AH_DEDUPE_PAYLOAD", payload)
        .env("AGENTHOOKS_STATE_DIR", state)
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn child")
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("ah-dedupe-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn thirty_two_processes_one_delivery() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let root = scratch();
    let state = root.join("state");
    // Three calls in a row, each raced by 32 processes: the generic event
    // fired 31 times with the agent's call id (a double-firing build) and
    // its specific sibling once, all released at the same moment.
    for (round, command) in ["cargo test", "git push", "rm -rf target"]
        .iter()
        .enumerate()
    {
        let turn = format!("gen-{round}");
        let go = root.join(format!("go-{round}"));
        let mut children: Vec<Child> = (0..32)
            .map(|i| {
                let payload = if i == 16 {
                    specific(&turn, command)
                } else {
                    generic(&turn, command)
                };
                spawn(&state, &go, &payload)
            })
            .collect();
        std::fs::write(&go, "go").unwrap();
        let codes: Vec<i32> = children
            .iter_mut()
            .map(|c| c.wait().unwrap().code().unwrap_or(-1))
            .collect();
        let first = codes.iter().filter(|c| **c == FIRST).count();
        let dup = codes.iter().filter(|c| **c == DUPLICATE).count();
        assert_eq!(first, 1, "round {round}: exactly one delivery: {codes:?}");
        assert_eq!(dup, 31, "round {round}: the rest suppressed: {codes:?}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(state.join("dedupe"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    std::fs::remove_dir_all(&root).unwrap();
}
