//! Replays the fuzz inputs: the committed regressions
//! (`core/fuzz/regressions/<target>/*`: minimized crashes and the
//! agent-shaped inputs of issue 21 §1 / issue 11 §7) and, when present, the
//! local corpus (`core/fuzz/corpus/<target>/*`, gitignored). Inputs of the
//! `decode_*` targets go through the same body as those targets (decode,
//! then respond with a few decisions, fail_response and to_json) for every
//! provider; inputs of `runtime_entry` (argv lines, an empty line, stdin)
//! through the run entry's body. Nothing may panic. Passes with zero
//! files, and prints how many it replayed.

use std::io::Write;
use std::path::{Path, PathBuf};

use agenthooks::Provider;

#[path = "../fuzz/src/lib.rs"]
mod fuzz_body;

/// The fuzz target whose inputs live under `runtime_entry/`.
const ENTRY: &str = "runtime_entry";

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let hidden = p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn replay(kind: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind);
    let mut files = Vec::new();
    files_under(&root, &mut files);
    let (entry, decode): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|p| p.strip_prefix(&root).is_ok_and(|r| r.starts_with(ENTRY)));
    for path in &decode {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for p in Provider::ALL {
            let r = std::panic::catch_unwind(|| fuzz_body::run(p, &data));
            if let Err(panic) = r {
                panic!(
                    "{} as {}: panicked: {}",
                    path.display(),
                    p.id(),
                    panic_text(&*panic)
                );
            }
        }
    }
    for path in &entry {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(panic) = std::panic::catch_unwind(|| fuzz_body::run_entry(&data)) {
            panic!(
                "{} through the run entry: panicked: {}",
                path.display(),
                panic_text(&*panic)
            );
        }
    }
    // Written straight to stderr so the count shows without --nocapture.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz_corpus: replayed {} {kind} decode input(s) through {} providers and {} run-entry input(s) from {}",
        decode.len(),
        Provider::ALL.len(),
        entry.len(),
        root.display(),
    );
    decode.len() + entry.len()
}

#[test]
fn regressions_never_panic() {
    // The committed agent-shaped inputs are there: the replay is not empty.
    assert!(replay("regressions") > 0);
}

#[test]
fn local_corpus_never_panics() {
    replay("corpus");
}
