//! Claude Code's per-handler `if` rule: one permission rule such as
//! `Bash(git push *)` or `Edit(*.ts)`; the handler spawns only when the
//! tool call matches (Claude Code §1.4).
//!
//! Best effort, failing open like Claude Code: the tool name must match
//! (`mcp__server` also covers that server's tools); the argument is a
//! wildcard pattern (`*` any run of characters, `**` the same) tested
//! against the call's main facet: the command of `Bash`/`PowerShell` (a
//! trailing `:*` means "starts with"), the path of file tools (a relative
//! pattern matches any path suffix), `domain:<host>` against a `WebFetch`
//! URL's host. An argument this host cannot evaluate lets the handler run.
//! Rules apply only on `PreToolUse`, `PostToolUse`, `PostToolUseFailure`,
//! `PermissionRequest`, `PermissionDenied`; a handler with `if` on any
//! other event never runs.

use serde_json::{Map, Value};

/// A parsed `if` rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IfRule {
    /// Tool name (or `mcp__server` prefix).
    pub tool: String,
    /// Rule content inside the parentheses, if any.
    pub arg: Option<String>,
}

/// Events on which Claude Code evaluates `if`.
pub const IF_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

impl IfRule {
    /// Parses `Tool` or `Tool(arg)`.
    pub fn parse(src: &str) -> Option<IfRule> {
        let src = src.trim();
        let (tool, arg) = match src.find('(') {
            Some(i) if src.ends_with(')') => (&src[..i], Some(&src[i + 1..src.len() - 1])),
            Some(_) => return None,
            None => (src, None),
        };
        let valid = !tool.is_empty()
            && tool
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        valid.then(|| IfRule {
            tool: tool.to_string(),
            arg: arg.map(str::to_string),
        })
    }

    /// Whether the handler should run for this tool call.
    pub fn allows(&self, tool_name: &str, input: Option<&Map<String, Value>>) -> bool {
        let name_ok = tool_name == self.tool
            || (self.tool.starts_with("mcp__")
                && tool_name
                    .strip_prefix(self.tool.as_str())
                    .is_some_and(|rest| rest.starts_with("__")));
        if !name_ok {
            return false;
        }
        let arg = match self.arg.as_deref().map(str::trim) {
            None | Some("") | Some("*") => return true,
            Some(a) => a,
        };
        let field = |k: &str| input.and_then(|m| m.get(k)).and_then(Value::as_str);
        match tool_name {
            "Bash" | "PowerShell" => match field("command") {
                Some(cmd) => match arg.strip_suffix(":*") {
                    Some(prefix) => cmd.starts_with(prefix),
                    None => wildcard(arg, cmd),
                },
                None => true,
            },
            "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => {
                match field("file_path").or_else(|| field("notebook_path")) {
                    Some(path) => path_matches(arg, path),
                    None => true,
                }
            }
            "WebFetch" => match (arg.strip_prefix("domain:"), field("url")) {
                (Some(domain), Some(url)) => {
                    let host = url_host(url);
                    host == domain || host.ends_with(&format!(".{domain}"))
                }
                _ => true,
            },
            _ => true,
        }
    }
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if pattern.starts_with('/') || pattern.starts_with('~') {
        return wildcard(pattern.trim_start_matches("//"), path);
    }
    // Relative: the path, or any suffix of it starting after a `/`; since
    // `*` spans `/`, that is the pattern `*/<pattern>` (one linear scan, not
    // one scan per component of a payload-sized path).
    wildcard(pattern, path) || wildcard(&format!("*/{pattern}"), path)
}

fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    host.split(':').next().unwrap_or("")
}

/// `*` matches any run of characters (iterative, linear backtracking).
pub(crate) fn wildcard(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            while pi < p.len() && p[pi] == '*' {
                pi += 1;
            }
            star = Some((pi, ti));
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn rules() {
        let r = IfRule::parse("Bash(git push *)").unwrap();
        let i = input(json!({"command": "git push origin main"}));
        assert!(r.allows("Bash", Some(&i)));
        assert!(!r.allows("Bash", Some(&input(json!({"command": "git status"})))));
        assert!(!r.allows("Edit", Some(&i)));
        let r = IfRule::parse("Bash(npm run test:*)").unwrap();
        assert!(r.allows(
            "Bash",
            Some(&input(json!({"command": "npm run test -- -u"})))
        ));
        let r = IfRule::parse("Edit(*.ts)").unwrap();
        assert!(r.allows("Edit", Some(&input(json!({"file_path": "/a/b/c.ts"})))));
        assert!(!r.allows("Edit", Some(&input(json!({"file_path": "/a/b/c.rs"})))));
        let r = IfRule::parse("WebFetch(domain:example.com)").unwrap();
        assert!(r.allows(
            "WebFetch",
            Some(&input(json!({"url": "https://docs.example.com/x"})))
        ));
        assert!(!r.allows(
            "WebFetch",
            Some(&input(json!({"url": "https://evil.com/x"})))
        ));
        assert!(
            IfRule::parse("mcp__memory")
                .unwrap()
                .allows("mcp__memory__create", None)
        );
        assert!(IfRule::parse("Bash(oops").is_none());
        assert!(wildcard("a*b*c", "aXXbYYc") && !wildcard("a*b*c", "aXXbYY"));
    }
}
