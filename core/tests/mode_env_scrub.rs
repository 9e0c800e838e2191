//! The Makefile keeps the session-mode variables (`mode::env_names`) out of
//! every suite's environment, so a CI runner's `CI=true` or an agent's hook
//! variables never change what a test observes. The list there is written
//! by hand; this keeps it equal to the table.

use std::collections::BTreeSet;

#[test]
fn the_makefile_scrubs_every_mode_variable() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Makefile");
    let makefile = std::fs::read_to_string(path).expect("the repository's Makefile");
    let line = makefile
        .lines()
        .find_map(|l| l.strip_prefix("AH_MODE_ENV :="))
        .expect("an `AH_MODE_ENV :=` line in the Makefile");
    let listed: BTreeSet<&str> = line.split_whitespace().collect();
    let table: BTreeSet<&str> = agenthooks::mode::env_names().into_iter().collect();
    assert_eq!(listed, table, "Makefile AH_MODE_ENV vs mode::env_names()");
    assert!(makefile.contains("unexport $(AH_MODE_ENV)"));
}
