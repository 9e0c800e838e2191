//! `agenthooks._native`: the PyO3 layer of the Python binding. It only
//! converts types and maps errors; every rule lives in the core crate and
//! the idiomatic API (router, `main`, enums, exceptions) is the pure-Python
//! package `agenthooks` around it.

mod codec;
mod convert;
mod decision;
mod error;
mod event;
mod policy;
mod response;
mod router;
mod runtime;
mod serve;
mod surface;

use pyo3::prelude::*;

/// The crate version as PEP 440 (`1.2.0-rc.1` -> `1.2.0rc1`).
fn pep440(v: &str) -> String {
    let Some((base, pre)) = v.split_once('-') else {
        return v.to_string();
    };
    let (tag, num) = pre.split_once('.').unwrap_or((pre, "0"));
    let tag = match tag {
        "alpha" | "a" => "a",
        "beta" | "b" => "b",
        "rc" => "rc",
        _ => return format!("{base}.dev0"),
    };
    format!("{base}{tag}{num}")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", pep440(env!("CARGO_PKG_VERSION")))?;
    m.add("DEFAULT_MAX_BYTES", agenthooks::dialect::DEFAULT_MAX_BYTES)?;
    m.add_class::<error::CoreError>()?;
    m.add_function(wrap_pyfunction!(error::error_codes, m)?)?;
    event::register(m)?;
    decision::register(m)?;
    m.add_class::<policy::PyPolicy>()?;
    m.add_class::<response::PyResponse>()?;
    m.add_class::<response::PyNote>()?;
    m.add_class::<response::PyCapability>()?;
    codec::register(m)?;
    runtime::register(m)?;
    serve::register(m)?;
    surface::register(m)?;
    router::register(m)?;
    Ok(())
}
