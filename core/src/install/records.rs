//! The record of what `install` wrote, in the user's private state root
//! ([`crate::state`], subdirectory `installed/`): one empty-ish file per
//! hook command, named by the SHA-256 of the agent id, the absolute path
//! of the config file and the exact command string (for the OpenCode and
//! OpenClaw plugins, the whole generated file). `doctor` runs a hook only
//! when its record exists, so a command it finds in a file — a cloned
//! repository's `.claude/settings.json`, or one of ours edited since — is
//! shown, never run: nobody but the user can write the state root, and a
//! changed byte anywhere in the command changes the name.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::fsio;
use crate::model::Provider;

/// Subdirectory of the state root holding the records.
pub const DIR: &str = "installed";

/// The record name of one command (or plugin file) in one file.
pub fn key(agent: Provider, file: &Path, subject: &str) -> String {
    let mut h = Sha256::new();
    h.update(agent.id().as_bytes());
    h.update([0]);
    h.update(fsio::absolute(file).to_string_lossy().as_bytes());
    h.update([0]);
    h.update(subject.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `install` recorded exactly this subject in this file for this
/// agent (any error reading the state root counts as "no").
pub fn is_recorded(agent: Provider, file: &Path, subject: &str) -> bool {
    let Ok(dir) = crate::state::root().and_then(|r| r.subdir(DIR)) else {
        return false;
    };
    matches!(dir.read(&key(agent, file, subject), 4096), Ok(Some(_)))
}

/// Brings the records of one file up to date: records every subject of
/// ours in `after`, drops those of `before` that are gone.
pub fn sync(
    agent: Provider,
    file: &Path,
    before: &[(String, String)],
    now: &[(String, String)],
) -> Result<(), crate::Error> {
    let dir = crate::state::root()?.subdir(DIR)?;
    for (s, _) in before {
        if !now.iter().any(|(n, _)| n == s) {
            dir.remove(&key(agent, file, s))?;
        }
    }
    for (s, hook_id) in now {
        let body = serde_json::json!({
            "agent": agent.id(),
            "file": fsio::absolute(file),
            "hook_id": hook_id,
        })
        .to_string();
        dir.create_new(&key(agent, file, s), body.as_bytes())?;
    }
    Ok(())
}
