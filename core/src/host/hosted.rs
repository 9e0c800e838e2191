//! Which agents' hook configurations a host can run.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::model::Provider;

/// The hook dialects a host can run (the agents whose hook configurations
/// the host understands).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Claude Code `settings.json` / plugin `hooks/hooks.json`.
    ClaudeCode,
    /// Codex `hooks.json` / `[hooks]` tables.
    Codex,
}

impl Dialect {
    /// The provider id (`claude-code`, `codex`).
    pub fn id(self) -> &'static str {
        self.provider().id()
    }

    /// The provider this dialect belongs to.
    pub fn provider(self) -> Provider {
        match self {
            Dialect::ClaudeCode => Provider::ClaudeCode,
            Dialect::Codex => Provider::Codex,
        }
    }

    /// The dialect of a provider, if hosts can run its hooks.
    pub fn from_provider(p: Provider) -> Option<Dialect> {
        match p {
            Provider::ClaudeCode => Some(Dialect::ClaudeCode),
            Provider::Codex => Some(Dialect::Codex),
            _ => None,
        }
    }

    /// Parses a provider id or alias (`claude`, `claude-code`, `codex`).
    pub fn parse(s: &str) -> Result<Dialect, Error> {
        let p = Provider::parse(s)?;
        Dialect::from_provider(p).ok_or_else(|| Error::InvalidArgument {
            message: format!("hooks of {} cannot be hosted (claude-code, codex)", p.id()),
        })
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
