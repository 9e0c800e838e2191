#![no_main]
//! Fuzzes the Openclaw decoder (and respond/to_json on what decodes).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    agenthooks_fuzz::run(agenthooks::Provider::Openclaw, data);
});
