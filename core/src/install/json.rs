//! One JSON-in / JSON-out entry point for install, uninstall and doctor, so
//! every binding exposes `install(manifest, target)` with the same shapes as
//! the CLI.
//!
//! Request:
//! ```json
//! {"action": "install" | "uninstall" | "doctor",
//!  "manifest": "<hooks.toml or hooks.json text>" | {...manifest object...},
//!  "agent": "claude-code" | "codex,cursor" | "all",
//!  "scope": "user" | "project" | "local",
//!  "project": "<dir>", "home": "<dir>", "env": {"CODEX_HOME": "..."},
//!  "dry_run": false, "cursor_events": ["preToolUse", ...], "force": false,
//!  "run": false, "probe_project": false}
//! ```
//! `force` writes read-only, hard-linked or another user's files; doctor's
//! `run` runs recorded user hooks, `probe_project` recorded project hooks
//! too (`docs/install.md`, doctor).
//!
//! Response: `{"results": [{"agent", "scope", "changed", "files": [{"path",
//! "before", "after"}], "diff", "notes"} | {"agent", "error": {"code",
//! "message"}}]}`; doctor: `{"agents": [...report...]}`; bad requests:
//! `{"error": {"code", "message"}}`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Action, Manifest, Scope, Target};
use crate::model::Provider;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    action: String,
    #[serde(default)]
    manifest: Option<Value>,
    #[serde(default)]
    agent: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    project: Option<PathBuf>,
    #[serde(default)]
    home: Option<PathBuf>,
    #[serde(default)]
    env: Option<BTreeMap<String, String>>,
    #[serde(default)]
    dry_run: bool,
    #[serde(default)]
    cursor_events: Option<Vec<String>>,
    #[serde(default)]
    run: bool,
    #[serde(default)]
    force: bool,
    #[serde(default)]
    probe_project: bool,
}

fn error(code: &str, message: impl Into<String>) -> String {
    json!({"error": {"code": code, "message": message.into()}}).to_string()
}

/// Installs, uninstalls or diagnoses (see the module docs).
pub fn request_json(request: &str) -> String {
    let req: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return error("invalid_argument", format!("install request: {e}")),
    };
    let base = Target::from_env(Provider::ClaudeCode, Scope::User);
    let home = req.home.clone().unwrap_or(base.home);
    let project = req.project.clone().unwrap_or(base.project);
    let env = req.env.clone().unwrap_or(base.env);
    let action = match req.action.as_str() {
        "install" => Action::Install,
        "uninstall" => Action::Uninstall,
        "doctor" => {
            let opts = super::doctor::Options {
                run: req.run,
                probe_project: req.probe_project,
            };
            let agents = super::doctor::report_with(&home, &project, &env, opts, &mut |_| {});
            return json!({ "agents": agents }).to_string();
        }
        other => {
            return error(
                "invalid_argument",
                format!("unknown action `{other}` (install, uninstall, doctor)"),
            );
        }
    };
    let manifest = match &req.manifest {
        Some(Value::String(text)) => {
            if text.trim_start().starts_with('{') {
                Manifest::from_json(text)
            } else {
                Manifest::from_toml(text)
            }
        }
        Some(obj @ Value::Object(_)) => Manifest::from_json(&obj.to_string()),
        _ => {
            return error(
                "invalid_argument",
                "`manifest` (TOML/JSON text or an object) is required",
            );
        }
    };
    let manifest = match manifest {
        Ok(m) => m,
        Err(e) => return error("manifest", e.to_string()),
    };
    let scope = match Scope::parse(req.scope.as_deref().unwrap_or("project")) {
        Ok(s) => s,
        Err(e) => return error("invalid_argument", e.to_string()),
    };
    let spec = req.agent.clone().unwrap_or_else(|| "all".into());
    let agents: Result<Vec<Provider>, _> = if spec == "all" {
        Ok(Provider::ALL.to_vec())
    } else {
        spec.split(',').map(|s| Provider::parse(s.trim())).collect()
    };
    let agents = match agents {
        Ok(a) => a,
        Err(e) => return error(e.code().as_str(), e.to_string()),
    };
    let mut results = Vec::new();
    for agent in agents {
        let t = Target {
            agent,
            scope,
            home: home.clone(),
            project: project.clone(),
            env: env.clone(),
            cursor_events: req.cursor_events.clone(),
            force: req.force,
        };
        let r = if req.dry_run {
            super::plan(&manifest, &t, action)
        } else {
            super::apply(&manifest, &t, action)
        };
        results.push(match r {
            Ok(p) => json!({
                "agent": agent.id(),
                "scope": scope.as_str(),
                "changed": !p.is_noop(),
                "files": p.changes.iter().map(|c| json!({
                    "path": c.path.to_string_lossy(),
                    "before": c.before,
                    "after": c.after,
                })).collect::<Vec<_>>(),
                "diff": p.diff(),
                "notes": p.notes,
            }),
            Err(e) => {
                json!({"agent": agent.id(), "error": {"code": "install", "message": e.to_string()}})
            }
        });
    }
    json!({ "results": results }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_then_uninstall_through_json() {
        let dir = std::env::temp_dir().join(format!("ah-install-json-{}", std::process::id()));
        let (home, project) = (dir.join("home"), dir.join("project"));
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        let manifest = "id = \"guard\"\nprogram = \"/opt/guard\"\n\n[[hooks]]\nid = \"pre\"\nkind = \"tool.pre\"\nmatch = \"shell\"\n";
        let req = |action: &str, dry: bool| {
            json!({"action": action, "manifest": manifest, "agent": "claude-code", "scope": "project",
                   "project": project, "home": home, "env": {}, "dry_run": dry})
            .to_string()
        };
        let dry: Value = serde_json::from_str(&request_json(&req("install", true))).unwrap();
        assert_eq!(dry["results"][0]["changed"], true, "{dry}");
        assert!(
            !project.join(".claude/settings.json").exists(),
            "dry run writes nothing"
        );
        let done: Value = serde_json::from_str(&request_json(&req("install", false))).unwrap();
        assert_eq!(done["results"][0]["changed"], true, "{done}");
        let text = std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
        assert!(
            text.contains("/opt/guard") && text.contains("--provider=claude-code"),
            "{text}"
        );
        let again: Value = serde_json::from_str(&request_json(&req("install", false))).unwrap();
        assert_eq!(again["results"][0]["changed"], false, "idempotent: {again}");
        let gone: Value = serde_json::from_str(&request_json(&req("uninstall", false))).unwrap();
        assert_eq!(gone["results"][0]["changed"], true, "{gone}");
        let bad: Value = serde_json::from_str(&request_json(r#"{"action":"zap"}"#)).unwrap();
        assert_eq!(bad["error"]["code"], "invalid_argument");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
