//! Replays the fuzz inputs through every dialect: the committed minimized
//! crashes (`core/fuzz/regressions/<target>/*`) and, when present, the local
//! corpus (`core/fuzz/corpus/<target>/*`, gitignored). Each input goes
//! through the same body as the fuzz targets (decode, then respond with a
//! few decisions, fail_response and to_json) for every provider; nothing
//! may panic. Passes with zero files, and prints how many it replayed.

use std::io::Write;
use std::path::{Path, PathBuf};

use agenthooks::Provider;

#[path = "../fuzz/src/lib.rs"]
mod fuzz_body;

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

fn replay(kind: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind);
    let mut files = Vec::new();
    files_under(&root, &mut files);
    for path in &files {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for p in Provider::ALL {
            let r = std::panic::catch_unwind(|| fuzz_body::run(p, &data));
            if let Err(panic) = r {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{} as {}: panicked: {msg}", path.display(), p.id());
            }
        }
    }
    // Written straight to stderr so the count shows without --nocapture.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz_corpus: replayed {} {kind} input(s) from {} through {} providers",
        files.len(),
        root.display(),
        Provider::ALL.len()
    );
    files.len()
}

#[test]
fn regressions_never_panic() {
    replay("regressions");
}

#[test]
fn local_corpus_never_panics() {
    replay("corpus");
}
