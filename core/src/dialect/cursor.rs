//! Cursor dialect (in progress: decoding is not implemented yet).

use serde_json::{Map, Value};

use super::DecodeOptions;
use crate::capability::Capability;
use crate::error::Error;
use crate::model::{
    Decision, DecisionKind as D, Event, Fail, Kind, Note, Policy, Provider, Response,
};

const P: Provider = Provider::Cursor;

/// Native events of this agent.
pub const EVENTS: &[&str] = &[];

/// The capability row of a native event.
pub fn capability(native: &str) -> Capability {
    Capability::new(P, native, Kind::Other, false, &[D::NoDecision], &[])
}

/// Decodes a payload.
pub fn decode(_map: Map<String, Value>, _opts: &DecodeOptions) -> Result<Event, Error> {
    Err(Error::InvalidArgument {
        message: format!("the {} dialect is not implemented yet", P.id()),
    })
}

/// Encodes a (planned) decision.
pub fn encode(
    _ev: &Event,
    _d: &Decision,
    _policy: &Policy,
    _notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    Ok(Response::empty())
}

/// The answer when the payload could not be decoded, per fail posture.
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response::empty(),
        Fail::Closed => super::common::exit2_block(P, diag),
    }
}
