//! The fixture corpus shipped with the crate: every decodable payload of
//! `fixtures/<agent>/` (the shapes the real agents send), embedded from
//! `corpus.json`, which `make sim-corpus` regenerates from the fixtures
//! (`core/tests/simulate_corpus.rs` fails when it drifts).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Kind, Provider};

/// One payload of the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusEntry {
    /// The agent.
    pub agent: Provider,
    /// The fixture's name (`<agent>/<file stem>`).
    pub name: String,
    /// The native event.
    pub event: String,
    /// The unified kind.
    pub kind: Kind,
    /// The variant the payload needs, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Whether the payload names its event (else pass `event` to decode).
    pub names_event: bool,
    /// The payload.
    pub payload: Value,
}

/// The embedded corpus, as JSON text (an array of [`CorpusEntry`]).
pub const CORPUS_JSON: &str = include_str!("corpus.json");

/// The whole corpus.
pub fn all() -> &'static [CorpusEntry] {
    static C: OnceLock<Vec<CorpusEntry>> = OnceLock::new();
    C.get_or_init(|| serde_json::from_str(CORPUS_JSON).unwrap_or_default())
}

/// The corpus of one agent, optionally of one unified kind.
pub fn of(agent: Provider, kind: Option<Kind>) -> Vec<&'static CorpusEntry> {
    all()
        .iter()
        .filter(|e| e.agent == agent && kind.is_none_or(|k| e.kind == k))
        .collect()
}

impl CorpusEntry {
    /// Decodes the payload (with the event and variant it needs).
    pub fn decode(&self) -> crate::Result<crate::Event> {
        let opts = crate::DecodeOptions {
            event: (!self.names_event).then(|| self.event.clone()),
            variant: self.variant.clone(),
            ..crate::DecodeOptions::default()
        };
        crate::decode(self.agent, self.payload.to_string().as_bytes(), &opts)
    }
}
