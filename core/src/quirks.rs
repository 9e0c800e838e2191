//! Machine-readable registry of agent quirks: every row of the quirk table
//! in each agent's protocol research (§7 or its "Known quirks" section), in
//! our own words. Each agent lists its quirks in its own dialect module
//! (`dialect/<agent>/quirks.rs`, the `quirks` of its [`dialect::Agent`]
//! row, with the research file and table section beside them); this module
//! is the registry over all of them.
//!
//! Ids are `<provider id>/<n>`, `n` being the row's number in the doc's
//! table; tables without numbers (Cursor §6.2, Gemini §6, OpenCode §6,
//! OpenClaw §6) are numbered here in table order. A fixture pins a quirk by
//! naming it in its description (`quirk <n>`, `<provider>/<n>` or
//! `§<section> #<n>`); see `core/tests/quirks_fixtures.rs`.
//! `docs/quirks.md` is generated from [`markdown`] and checked by a test.

use crate::dialect;
pub use crate::dialect::quirk::{FixtureRule, Quirk};
use crate::model::Provider;

/// The quirk table's section in each protocol doc (what `§<s> #<n>` in a
/// fixture description refers to).
pub fn section(p: Provider) -> &'static str {
    dialect::agent(p).quirk_section
}

/// A quirk's source as the page shows it: the research file names (not
/// part of the repository) become the agent's id.
fn source_text(source: &str) -> String {
    let mut s = source.to_string();
    for p in Provider::ALL {
        s = s.replace(doc_file(p), p.id());
    }
    s
}

/// The protocol doc file of a provider.
pub fn doc_file(p: Provider) -> &'static str {
    dialect::agent(p).research
}

/// The agent's page as a link from `docs/` (where `docs/quirks.md` is).
fn page_from_docs(p: Provider) -> &'static str {
    let page = dialect::agent(p).page;
    page.strip_prefix("docs/").unwrap_or(page)
}

/// Every agent's quirks in one slice, agents in [`Provider::ALL`] order and
/// each in its table order: the rows' lists, joined at compile time.
static ALL: [Quirk; total()] = joined();

/// How many quirks the agents list in all.
const fn total() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < Provider::ALL.len() {
        n += dialect::agent(Provider::ALL[i]).quirks.len();
        i += 1;
    }
    n
}

/// The agents' lists, one after the other.
const fn joined() -> [Quirk; total()] {
    const BLANK: Quirk = Quirk {
        id: "",
        provider: Provider::ClaudeCode,
        versions: "",
        event: "",
        capability: "",
        behaviour: "",
        mitigation: "",
        source: "",
        fixture: FixtureRule::Required,
    };
    let mut out = [BLANK; total()];
    let mut at = 0;
    let mut i = 0;
    while i < Provider::ALL.len() {
        let list = dialect::agent(Provider::ALL[i]).quirks;
        let mut j = 0;
        while j < list.len() {
            out[at] = list[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Every quirk, grouped by provider in documentation order.
pub fn all() -> &'static [Quirk] {
    &ALL
}

/// The quirks of one provider, in table order.
pub fn for_provider(p: Provider) -> Vec<&'static Quirk> {
    dialect::agent(p).quirks.iter().collect()
}

/// Looks a quirk up by id.
pub fn get(id: &str) -> Option<&'static Quirk> {
    ALL.iter().find(|q| q.id == id)
}

/// The registry as JSON (an array of quirks).
pub fn to_json() -> String {
    serde_json::to_string_pretty(all()).unwrap_or_else(|_| "[]".into())
}

/// The registry as the Markdown page `docs/quirks.md`.
pub fn markdown() -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = String::new();
    out.push_str("# Agent quirks\n\n");
    out.push_str(
        "Generated from each agent's quirk list (`core/src/dialect/<agent>/quirks.rs`) by `agenthooks::quirks::markdown()`; do not edit by hand.\n\
         Regenerate with `AH_UPDATE_QUIRKS_MD=1 cargo test -p agenthooks --lib quirks`.\n\n\
         One row per known quirk of each agent, in our own words, from the project's research into each\n\
         agent's hook protocol (summarized per agent in [the agent pages](agents/README.md)). Ids are\n\
         `<provider>/<n>`, `n` the row's number in that research's quirk table (tables without numbers are\n\
         numbered in table order). Source: the section of that research the row comes from, and how the\n\
         fact was established (e2e: observed against the real agent; doc: its documentation; src: its\n\
         source; seen: reported by others; impl: seen in a third-party implementation). A fixture pins a quirk by naming it in its description: `quirk <n>`,\n\
         `<provider>/<n>` or `§<section> #<n>` (`core/tests/quirks_fixtures.rs`). Fixture column:\n\
         `required` means some fixture under `fixtures/<provider>/` must name it; `n/a` gives the reason\n\
         no payload or answer can show it.\n\n",
    );
    out.push_str("| Provider | Quirks | Fixture required | Not applicable |\n|---|---|---|---|\n");
    for p in Provider::ALL {
        let qs = for_provider(p);
        let req = qs
            .iter()
            .filter(|q| q.fixture == FixtureRule::Required)
            .count();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            p.id(),
            qs.len(),
            req,
            qs.len() - req
        ));
    }
    for p in Provider::ALL {
        out.push_str(&format!(
            "\n## {} (`{}`, research {}, [agent page]({}))\n\n",
            p.display_name(),
            p.id(),
            section(p),
            page_from_docs(p)
        ));
        out.push_str(
            "| Id | Event | Capability | Versions | Behaviour | Mitigation | Fixture | Source |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for q in for_provider(p) {
            let fixture = match q.fixture {
                FixtureRule::Required => "required".to_string(),
                FixtureRule::NotApplicable(r) => format!("n/a: {r}"),
            };
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} | {} |\n",
                q.id,
                cell(q.event),
                cell(q.capability),
                cell(q.versions),
                cell(q.behaviour),
                cell(q.mitigation),
                cell(&fixture),
                cell(&source_text(q.source))
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Rows in each doc's quirk table.
    const TABLE_SIZES: [(Provider, usize); 8] = [
        (Provider::ClaudeCode, 22),
        (Provider::Codex, 21),
        (Provider::Cursor, 16),
        (Provider::Gemini, 25),
        (Provider::KimiCode, 18),
        (Provider::Copilot, 23),
        (Provider::Opencode, 22),
        (Provider::Openclaw, 25),
    ];

    #[test]
    fn every_table_row_is_registered_once_in_order() {
        let mut ids = HashSet::new();
        for q in all() {
            assert!(ids.insert(q.id), "duplicate id {}", q.id);
            assert!(
                q.id.starts_with(&format!("{}/", q.provider.id())),
                "{}: id prefix",
                q.id
            );
            for (what, s) in [
                ("versions", q.versions),
                ("event", q.event),
                ("capability", q.capability),
                ("behaviour", q.behaviour),
                ("mitigation", q.mitigation),
                ("source", q.source),
            ] {
                assert!(!s.trim().is_empty(), "{}: empty {what}", q.id);
            }
            assert!(
                q.source.starts_with(doc_file(q.provider)),
                "{}: source names {}",
                q.id,
                doc_file(q.provider)
            );
            assert!(
                q.source
                    .contains(&format!("{} #{}", section(q.provider), q.number())),
                "{}: source cites the row",
                q.id
            );
            if let FixtureRule::NotApplicable(r) = q.fixture {
                assert!(!r.trim().is_empty(), "{}: reason", q.id);
            }
        }
        for (p, n) in TABLE_SIZES {
            let qs = for_provider(p);
            assert_eq!(qs.len(), n, "{p}: quirk count");
            for (i, q) in qs.iter().enumerate() {
                assert_eq!(q.number() as usize, i + 1, "{}: numbering", q.id);
            }
        }
        assert_eq!(get("codex/7").unwrap().provider, Provider::Codex);
        assert!(get("codex/99").is_none());
    }

    /// The registry is the agents' rows: [`all`] is their lists joined in
    /// [`Provider::ALL`] order, nothing dropped or added, and each list
    /// holds only its own agent's quirks.
    #[test]
    fn registry_is_the_rows_lists_in_agent_order() {
        let mut rows: Vec<&Quirk> = Vec::new();
        for p in Provider::ALL {
            let row = dialect::agent(p);
            assert_eq!(row.provider, p);
            assert!(!row.quirks.is_empty(), "{p}: no quirks");
            for q in row.quirks {
                assert_eq!(q.provider, p, "{} listed under {p}", q.id);
            }
            assert_eq!(for_provider(p), row.quirks.iter().collect::<Vec<_>>());
            rows.extend(row.quirks);
        }
        assert_eq!(all().iter().collect::<Vec<_>>(), rows);
    }

    #[test]
    fn json_round_trips() {
        let v: serde_json::Value = serde_json::from_str(&to_json()).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), all().len());
        assert_eq!(arr[0]["id"], "claude-code/1");
        assert_eq!(arr[0]["provider"], "claude-code");
        assert_eq!(arr[0]["fixture"]["kind"], "required");
        let na = arr.iter().find(|q| q["id"] == "codex/3").expect("codex/3");
        assert_eq!(na["fixture"]["kind"], "not_applicable");
        assert!(na["fixture"]["reason"].as_str().unwrap().contains("trust"));
    }

    /// `docs/quirks.md` is generated from the registry; set
    /// `AH_UPDATE_QUIRKS_MD=1` to rewrite it after changing the data.
    #[test]
    fn docs_quirks_md_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/quirks.md");
        let want = markdown();
        if std::env::var_os("AH_UPDATE_QUIRKS_MD").is_some() {
            std::fs::write(&path, &want).expect("write docs/quirks.md");
        }
        let got = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            got == want,
            "docs/quirks.md is stale; regenerate with AH_UPDATE_QUIRKS_MD=1 cargo test -p agenthooks --lib quirks"
        );
        for q in all() {
            assert!(got.contains(&format!("`{}`", q.id)), "{} missing", q.id);
        }
    }
}
