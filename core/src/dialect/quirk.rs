//! The shape of one agent quirk ([`Quirk`]), the shared reasons a quirk
//! cannot be pinned by a fixture, and [`q!`], which builds one entry. Each
//! agent lists its own quirks beside its codec
//! (`dialect/<agent>/quirks.rs`, in the agent's row); the registry over
//! all of them, with its rules and generated page, is [`crate::quirks`].

use serde::Serialize;

use crate::model::Provider;

/// Whether a payload fixture can pin a quirk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "reason", rename_all = "snake_case")]
pub enum FixtureRule {
    /// Payload- or answer-observable: some fixture under
    /// `fixtures/<provider>/` must name it.
    Required,
    /// Nothing a payload or an encoded answer can show (config, matcher,
    /// trust, install, timing, the process environment, events the agent
    /// never sends); the reason says which.
    NotApplicable(&'static str),
}

/// One documented agent quirk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Quirk {
    /// `<provider id>/<n>`, e.g. `claude-code/1`.
    pub id: &'static str,
    /// The agent.
    pub provider: Provider,
    /// Versions or dates it applies to, as the doc gives them.
    pub versions: &'static str,
    /// Native event(s) concerned; `*` for all.
    pub event: &'static str,
    /// The area it touches (`no_opinion`, `block`, `ask`, `tool_input`,
    /// `detection`, `config`, ...).
    pub capability: &'static str,
    /// What the agent does.
    pub behaviour: &'static str,
    /// What a hook (or this library) does about it.
    pub mitigation: &'static str,
    /// Doc section, row and confidence marks.
    pub source: &'static str,
    /// Whether a fixture must pin it.
    pub fixture: FixtureRule,
}

impl Quirk {
    /// The row number `n` of the id.
    pub fn number(&self) -> u32 {
        self.id
            .rsplit('/')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

use FixtureRule::NotApplicable;

// Why a quirk cannot be pinned by a fixture, shared by the agents.

pub(crate) const CONFIG: FixtureRule =
    NotApplicable("configuration only: no payload or answer involved");
pub(crate) const MATCHER: FixtureRule =
    NotApplicable("matcher semantics only: decided in the config, not on the wire");
pub(crate) const TRUST: FixtureRule =
    NotApplicable("trust / loading of hook definitions: no payload involved");
pub(crate) const INSTALL: FixtureRule =
    NotApplicable("install / plugin lifecycle: no payload involved");
pub(crate) const TIMING: FixtureRule = NotApplicable(
    "timing: a payload fixture has no clock (the runtime deadline tests cover our side)",
);
pub(crate) const NOT_SENT: FixtureRule =
    NotApplicable("the agent sends no payload in this case, so there is nothing to decode");
pub(crate) const ENV: FixtureRule =
    NotApplicable("the hook process's environment, not the payload or the answer");
pub(crate) const AGENT_OUT: FixtureRule = NotApplicable(
    "the agent's own output or exit code after the hook answered; the answer is unchanged",
);
pub(crate) const ORDER: FixtureRule =
    NotApplicable("ordering across separate hook processes: one payload cannot show it");
pub(crate) const MODEL_SIDE: FixtureRule = NotApplicable(
    "what the agent sends to the model after the hook answered; no payload or answer shows it",
);

/// Builds one entry; the id is `<provider id>/<n>`.
macro_rules! q {
    ($pid:literal, $p:expr, $n:literal, $ver:expr, $ev:expr, $cap:expr, $beh:expr, $mit:expr, $src:expr, $fx:expr $(,)?) => {
        $crate::dialect::quirk::Quirk {
            id: concat!($pid, "/", $n),
            provider: $p,
            versions: $ver,
            event: $ev,
            capability: $cap,
            behaviour: $beh,
            mitigation: $mit,
            source: $src,
            fixture: $fx,
        }
    };
}
pub(crate) use q;
