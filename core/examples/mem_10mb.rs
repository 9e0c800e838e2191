//! Peak heap use of decode + respond on a PostToolUse whose `tool_response`
//! is a 10 MB string, measured with a counting global allocator.
//!
//! `cargo run --release -p agenthooks --example mem_10mb [-- <MiB>]`
//!
//! Prints, per dialect (Claude Code, Codex): the payload size, the peak of
//! live heap bytes above the baseline (the payload itself is allocated
//! before the baseline) and the ratio. The target is a ratio under 3.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks::{Decision, DecodeOptions, Policy, Provider};
use serde_json::{Value, json};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    TOTAL.fetch_add(n, Ordering::Relaxed);
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's layout and
// only updates counters; it never touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Log-like output of exactly `n` bytes (lines, tabs, quotes: real escapes).
fn big_output(n: usize) -> String {
    let mut s = String::with_capacity(n + 128);
    let mut i = 0u64;
    while s.len() < n {
        s.push_str(&format!(
            "test db::pool::case_{i:06} ... ok\t(\"burst\" {} ms)\n",
            i % 97
        ));
        i += 1;
    }
    s.truncate(n);
    s
}

fn payload(output: String) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": "0199a7c2-55e1-7a10-b3f4-2c9d8e7f6a50",
        "turn_id": "0199a7c3-0a12-7c44-9e01-6b5a4c3d2e1f",
        "transcript_path": "/home/dev/.codex/sessions/2026/08/30/rollout-0199a7c2.jsonl",
        "cwd": "/srv/api",
        "hook_event_name": "PostToolUse",
        "model": "gpt-5.5-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": "cargo test --locked -p db"},
        "tool_response": Value::String(output),
        "tool_use_id": "call_T7q0"
    }))
    .expect("serializes")
}

struct Measure {
    peak: usize,
    allocated: usize,
}

/// Runs `f` and returns the peak live heap above the level at the start.
fn measure(f: impl FnOnce()) -> Measure {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let total = TOTAL.load(Ordering::Relaxed);
    f();
    Measure {
        peak: PEAK.load(Ordering::Relaxed) - base,
        allocated: TOTAL.load(Ordering::Relaxed) - total,
    }
}

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let bytes = payload(big_output(mib << 20));
    let n = bytes.len();
    println!("payload: {n} bytes ({mib} MiB tool_response string, with escapes)");
    println!(
        "{:<12} {:<26} {:>12} {:>8} {:>14}",
        "provider", "what", "peak bytes", "x size", "allocated"
    );
    let floor = measure(|| {
        let v: Value = serde_json::from_slice(&bytes).expect("valid JSON");
        std::hint::black_box(&v);
    });
    println!(
        "{:<12} {:<26} {:>12} {:>8.2} {:>14}",
        "-",
        "serde_json::Value parse",
        floor.peak,
        floor.peak as f64 / n as f64,
        floor.allocated
    );
    let mut worst: f64 = 0.0;
    for p in [Provider::ClaudeCode, Provider::Codex] {
        for (what, d) in [
            ("decode+respond no_decision", Decision::no_decision()),
            (
                "decode+respond flag_output",
                Decision::flag_output("too long"),
            ),
        ] {
            let m = measure(|| {
                let ev = agenthooks::decode(p, &bytes, &DecodeOptions::default()).expect("decodes");
                let r = agenthooks::respond(&ev, &d, &Policy::default()).expect("responds");
                std::hint::black_box((&ev, &r));
            });
            let ratio = m.peak as f64 / n as f64;
            worst = worst.max(ratio);
            println!(
                "{:<12} {:<26} {:>12} {:>8.2} {:>14}",
                p.id(),
                what,
                m.peak,
                ratio,
                m.allocated
            );
        }
    }
    println!(
        "worst peak / payload: {worst:.2} (target < 3): {}",
        if worst < 3.0 { "ok" } else { "MISSED" }
    );
}
