//! A telemetry-style hook for `bench/async/run.py` and the tier-2 async
//! check (`tests/e2e/async/run`): its `tool.post` handler sleeps
//! `AH_SLEEP_MS` milliseconds (default 0), as slow work (an upload) would,
//! then appends a line to `AH_MARKER` when that is set (the native event
//! name and the time, microseconds since the epoch). Installed with
//! `--async` it answers at once.

use std::io::Write;

use agenthooks::{Decision, Router};

fn main() {
    let ms: u64 = std::env::var("AH_SLEEP_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let marker = std::env::var_os("AH_MARKER");
    let mut r = Router::new();
    r.on_tool_post(move |e| {
        std::thread::sleep(std::time::Duration::from_millis(ms));
        if let Some(m) = &marker {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(m)
            {
                let us = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_micros())
                    .unwrap_or(0);
                let _ = writeln!(f, "{} {us}", e.native_name);
            }
        }
        Decision::no_decision()
    });
    agenthooks::main(r)
}
