//! Which agent called: the core's `detect` (flag, then environment, then
//! the payload's shape).

use std::collections::HashMap;

use agenthooks::Detection;
use napi::bindgen_prelude::{Buffer, Either};
use napi_derive::napi;

use crate::error::{Result, throw};

/// The outcome of [`detect`].
#[napi(object)]
pub struct Detected {
    /// The provider id.
    pub provider: String,
    /// How it was found: `config`, `env` or `shape`.
    pub detection: String,
    /// The variant, when one is known.
    pub variant: Option<String>,
}

/// Names the calling agent from the `--provider` flag, the environment,
/// argv (legacy argv payloads) and the payload. Throws `unknown_provider`
/// when nothing names one (or the flag is unknown).
#[napi]
pub fn detect(
    flag: Option<String>,
    env: HashMap<String, String>,
    argv: Vec<String>,
    payload: Either<String, Buffer>,
) -> Result<Detected> {
    let bytes: &[u8] = match &payload {
        Either::A(s) => s.as_bytes(),
        Either::B(b) => b,
    };
    let lookup = |k: &str| env.get(k).cloned();
    let (p, how, variant) =
        agenthooks::detect::detect(flag.as_deref(), &lookup, &argv, bytes).map_err(throw)?;
    Ok(Detected {
        provider: p.id().to_string(),
        detection: match how {
            Detection::Config => "config",
            Detection::Env => "env",
            Detection::Shape => "shape",
        }
        .to_string(),
        variant,
    })
}
