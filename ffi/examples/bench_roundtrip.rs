//! The C ABI round trip of `BenchmarkDecodeRespondCgo` (bindings/go),
//! called from Rust: the same extern fns, payload and decision, without
//! cgo. The difference between the two is the cgo boundary's cost.
//!
//! `cargo run --release -p agenthooks-ffi --example bench_roundtrip [iterations]`

use std::time::Instant;

use agenthooks_ffi::event::{ah_event_decode, ah_event_free};
use agenthooks_ffi::respond::{
    ah_event_respond, ah_response_exit_code, ah_response_free, ah_response_stdout,
};

const PRE: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;
const DENY: &[u8] = br#"{"kind":"deny","reason":"destructive command"}"#;
const PROVIDER: &[u8] = b"claude-code";

fn round_trip() -> usize {
    let mut ev = std::ptr::null_mut();
    let mut r = std::ptr::null_mut();
    // SAFETY: valid pointers and lengths; each handle is freed once.
    unsafe {
        ah_event_decode(
            PROVIDER.as_ptr(),
            PROVIDER.len(),
            PRE.as_ptr(),
            PRE.len(),
            std::ptr::null(),
            &mut ev,
            std::ptr::null_mut(),
        );
        ah_event_respond(
            ev,
            DENY.as_ptr(),
            DENY.len(),
            std::ptr::null(),
            0,
            &mut r,
            std::ptr::null_mut(),
        );
        let n = ah_response_stdout(r).len + ah_response_exit_code(r) as usize;
        ah_response_free(r);
        ah_event_free(ev);
        n
    }
}

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let mut sink = 0;
    for _ in 0..n / 10 {
        sink += round_trip();
    }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n / 5 {
            sink += round_trip();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / f64::from(n / 5));
    }
    println!(
        "decode+respond through the C ABI from Rust: {best:.0} ns/op (best of 5; sink {sink})"
    );
}
