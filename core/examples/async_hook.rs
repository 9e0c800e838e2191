//! A telemetry-style hook for `bench/async/run.py`: its `tool.post`
//! handler sleeps `AH_SLEEP_MS` milliseconds (default 0), as slow work
//! (an upload) would. Installed with `--async` it answers at once.

use agenthooks::{Decision, Router};

fn main() {
    let ms: u64 = std::env::var("AH_SLEEP_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut r = Router::new();
    r.on_tool_post(move |_| {
        std::thread::sleep(std::time::Duration::from_millis(ms));
        Decision::no_decision()
    });
    agenthooks::main(r)
}
