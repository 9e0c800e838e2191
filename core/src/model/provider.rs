//! Agent identities: provider ids, aliases and variants.

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// A coding agent whose hook dialect agenthooks speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Provider {
    /// Anthropic Claude Code (`claude-code`, alias `claude`).
    ClaudeCode,
    /// OpenAI Codex CLI (`codex`).
    Codex,
    /// Cursor IDE / CLI / cloud agents (`cursor`).
    Cursor,
    /// Google Gemini CLI (`gemini`, alias `gemini-cli`).
    Gemini,
    /// Moonshot Kimi Code (`kimi-code`, alias `kimi`).
    KimiCode,
    /// GitHub Copilot CLI (`copilot`, alias `copilot-cli`).
    Copilot,
    /// OpenCode in-process plugins (`opencode`).
    Opencode,
    /// OpenClaw in-process plugins (`openclaw`).
    Openclaw,
}

impl Provider {
    /// Every provider, in documentation order.
    pub const ALL: [Provider; 8] = [
        Provider::ClaudeCode,
        Provider::Codex,
        Provider::Cursor,
        Provider::Gemini,
        Provider::KimiCode,
        Provider::Copilot,
        Provider::Opencode,
        Provider::Openclaw,
    ];

    /// The canonical id (`claude-code`, `codex`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Provider::ClaudeCode => "claude-code",
            Provider::Codex => "codex",
            Provider::Cursor => "cursor",
            Provider::Gemini => "gemini",
            Provider::KimiCode => "kimi-code",
            Provider::Copilot => "copilot",
            Provider::Opencode => "opencode",
            Provider::Openclaw => "openclaw",
        }
    }

    /// Human-readable product name.
    pub fn display_name(self) -> &'static str {
        match self {
            Provider::ClaudeCode => "Claude Code",
            Provider::Codex => "OpenAI Codex CLI",
            Provider::Cursor => "Cursor",
            Provider::Gemini => "Gemini CLI",
            Provider::KimiCode => "Kimi Code",
            Provider::Copilot => "GitHub Copilot CLI",
            Provider::Opencode => "OpenCode",
            Provider::Openclaw => "OpenClaw",
        }
    }

    /// Every spelling [`Provider::parse`] accepts, as it compares them
    /// (trimmed, ASCII lower case, `_` read as `-`). The failsafe table
    /// carries it (`provider_spellings`), so the bindings' stand-ins name
    /// the same agents without the core.
    pub const SPELLINGS: [(&'static str, Provider); 19] = [
        ("claude-code", Provider::ClaudeCode),
        ("claude", Provider::ClaudeCode),
        ("claudecode", Provider::ClaudeCode),
        ("codex", Provider::Codex),
        ("codex-cli", Provider::Codex),
        ("openai-codex", Provider::Codex),
        ("cursor", Provider::Cursor),
        ("cursor-cli", Provider::Cursor),
        ("cursor-agent", Provider::Cursor),
        ("gemini", Provider::Gemini),
        ("gemini-cli", Provider::Gemini),
        ("kimi-code", Provider::KimiCode),
        ("kimi", Provider::KimiCode),
        ("kimicode", Provider::KimiCode),
        ("copilot", Provider::Copilot),
        ("copilot-cli", Provider::Copilot),
        ("github-copilot", Provider::Copilot),
        ("opencode", Provider::Opencode),
        ("openclaw", Provider::Openclaw),
    ];

    /// Parses an id or alias ([`Provider::SPELLINGS`]), case-insensitively,
    /// accepting `_` for `-`.
    pub fn parse(s: &str) -> Result<Provider, Error> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        Provider::SPELLINGS
            .iter()
            .find(|(spelling, _)| *spelling == norm)
            .map(|(_, p)| *p)
            .ok_or_else(|| Error::UnknownProvider {
                given: s.to_string(),
            })
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Provider {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_aliases_round_trip() {
        for p in Provider::ALL {
            assert_eq!(Provider::parse(p.id()).unwrap(), p);
            assert_eq!(Provider::parse(&p.id().to_uppercase()).unwrap(), p);
        }
        assert_eq!(Provider::parse("claude").unwrap(), Provider::ClaudeCode);
        assert_eq!(Provider::parse("gemini-cli").unwrap(), Provider::Gemini);
        assert_eq!(Provider::parse("kimi").unwrap(), Provider::KimiCode);
        assert_eq!(Provider::parse("copilot_cli").unwrap(), Provider::Copilot);
        for (spelling, p) in Provider::SPELLINGS {
            assert_eq!(Provider::parse(spelling).unwrap(), p);
            assert_eq!(
                spelling,
                spelling.trim().to_ascii_lowercase().replace('_', "-")
            );
        }
        let err = Provider::parse("vim").unwrap_err();
        assert_eq!(err.code().as_str(), "unknown_provider");
    }
}
