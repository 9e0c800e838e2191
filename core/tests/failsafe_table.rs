//! The failsafe table (core/src/failsafe.rs) is committed into the Python
//! and Node packages, which read it when their native part cannot load.
//! This test fails when a committed copy differs from what the core
//! renders now; `make fail-table` (AGENTHOOKS_BLESS=1) rewrites them.

use std::path::PathBuf;

fn copies() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    vec![
        root.join("bindings/python/python/agenthooks/_fail_table.json"),
        root.join("bindings/node/lib/fail-table.json"),
    ]
}

#[test]
fn committed_fail_tables_match_the_core() {
    let fresh = agenthooks::failsafe::table_json();
    let bless = std::env::var_os("AGENTHOOKS_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for path in copies() {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == fresh {
            continue;
        }
        if bless {
            std::fs::write(&path, &fresh).expect("writing the fail table");
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale failsafe table(s): {} — run `make fail-table` and commit them",
        stale.join(", ")
    );
}

#[test]
fn closed_answers_block_and_open_answers_do_not() {
    let t = agenthooks::failsafe::table();
    for (id, p) in t["providers"].as_object().unwrap() {
        let closed = &p["closed"];
        let open = &p["open"];
        // Closed blocks: exit 2, or a JSON verdict on stdout.
        assert!(
            closed["exit_code"] == 2 || !closed["stdout"].as_str().unwrap().is_empty(),
            "{id}: {closed}"
        );
        assert_eq!(open["exit_code"], 0, "{id}: {open}");
        let out = open["stdout"].as_str().unwrap();
        assert!(out.is_empty() || out == "{}", "{id}: {open}");
    }
}

#[test]
fn every_tool_pre_event_blocks_under_fail_closed() {
    // The blocking events are rendered from minimal events; a gating tool
    // event missing here would let the failsafe fail open on it.
    let t = agenthooks::failsafe::table();
    for (id, p) in t["providers"].as_object().unwrap() {
        let blocks: Vec<&str> = p["closed_blocks"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        let native = agenthooks::native_events(agenthooks::Provider::parse(id).unwrap());
        for (name, kind) in p["kinds"].as_object().unwrap() {
            if kind == "tool.pre" && native.contains(&name.as_str()) {
                assert!(blocks.contains(&name.as_str()), "{id} {name}");
            }
        }
    }
}
