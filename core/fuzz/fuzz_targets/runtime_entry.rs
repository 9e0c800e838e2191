#![no_main]
//! Fuzzes the author-side run entry: argv lines, an empty line, then stdin
//! (see `agenthooks_fuzz::split_entry`), through launch / start / complete.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    agenthooks_fuzz::run_entry(data);
});
