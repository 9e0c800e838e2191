//! Double wiring, refused before it happens: some agents read more than
//! their own hook files (Cursor and Copilot CLI also read Claude Code's
//! `.claude/settings.json`), so one of our hooks installed for two agents
//! can reach one agent twice. `doctor` reports it afterwards; `install`
//! refuses it ([`InstallError::DoubleWired`]), naming the file that
//! already covers the hook.

use std::path::PathBuf;

use super::{InstallError, Manifest, Target, doctor, files, resolve};
use crate::model::Provider;

/// One hook that would reach an agent twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    /// The agent that would run it twice.
    pub reader: Provider,
    /// `<manifest id>:<hook id>`.
    pub hook_id: String,
    /// The file this install would write it into.
    pub writing: PathBuf,
    /// The file the reader already runs it from.
    pub covered_by: PathBuf,
}

/// The hooks of this install that an agent reading one of the files it
/// writes already gets from another file it reads.
pub fn double_wiring(m: &Manifest, t: &Target) -> Result<Vec<Overlap>, InstallError> {
    let mut notes = Vec::new();
    let ids: Vec<String> = resolve(m, t, &mut notes)?
        .into_iter()
        .map(|r| r.hook_id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let writing = files(m, t)?;
    let mut out = Vec::new();
    for reader in Provider::ALL {
        let reads = doctor::candidates(reader, &t.home, &t.project, &t.env);
        // The agent installed reads what it is given (a file not created
        // yet is in no directory listing).
        let Some(w) = writing
            .iter()
            .find(|w| reader == t.agent || reads.iter().any(|(f, _)| f == *w))
        else {
            continue;
        };
        for (f, _) in &reads {
            if writing.contains(f) || std::fs::metadata(f).is_err() {
                continue;
            }
            // An unreadable file is doctor's to report, not a reason to
            // refuse here.
            let Ok(entries) = doctor::entries(f) else {
                continue;
            };
            for e in entries {
                let Some(id) = e.hook_id else { continue };
                if ids.contains(&id) && !out.iter().any(|o: &Overlap| o.hook_id == id) {
                    out.push(Overlap {
                        reader,
                        hook_id: id,
                        writing: w.clone(),
                        covered_by: f.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// [`double_wiring`] as the install's error, when there is any.
pub fn refuse_double_wiring(m: &Manifest, t: &Target) -> Result<(), InstallError> {
    let found = double_wiring(m, t)?;
    let Some(first) = found.first() else {
        return Ok(());
    };
    let hooks: Vec<&str> = found.iter().map(|o| o.hook_id.as_str()).collect();
    Err(InstallError::DoubleWired {
        agent: t.agent.id().to_string(),
        message: format!(
            "{} reads both {} and {}, and {} already has {}; installing would run {} twice there. Nothing was written (uninstall it from {} first to move it)",
            first.reader.display_name(),
            first.writing.display(),
            first.covered_by.display(),
            first.covered_by.display(),
            hooks.join(", "),
            if hooks.len() == 1 { "it" } else { "them" },
            first.covered_by.display(),
        ),
    })
}
