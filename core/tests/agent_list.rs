//! One agent list everywhere: every place that introduces the project
//! names all the agents the core supports (`Provider::ALL`), by the names
//! a reader knows them by.

use std::path::Path;

use agenthooks::Provider;

/// The name a reader knows each agent by (the display name without the
/// vendor: "Codex" for "OpenAI Codex CLI").
fn short(p: Provider) -> &'static str {
    match p {
        Provider::ClaudeCode => "Claude Code",
        Provider::Codex => "Codex",
        Provider::Cursor => "Cursor",
        Provider::Gemini => "Gemini CLI",
        Provider::KimiCode => "Kimi Code",
        Provider::Copilot => "Copilot CLI",
        Provider::Opencode => "OpenCode",
        Provider::Openclaw => "OpenClaw",
        // A new agent: its display name, until this list names it.
        other => other.display_name(),
    }
}

/// (file, how many leading lines introduce the project, or a key whose line it is)
const PLACES: &[(&str, Intro)] = &[
    ("README.md", Intro::Lines(12)),
    ("bindings/python/README.md", Intro::Lines(8)),
    ("bindings/python/pyproject.toml", Intro::Key("description")),
    ("bindings/node/README.md", Intro::Lines(8)),
    ("bindings/node/package.json", Intro::Key("\"description\"")),
    ("bindings/go/README.md", Intro::Lines(8)),
    ("bindings/go/doc.go", Intro::Lines(6)),
    ("docs/agents/README.md", Intro::Lines(30)),
];

#[derive(Clone, Copy)]
enum Intro {
    Lines(usize),
    Key(&'static str),
}

#[test]
fn every_introduction_names_every_agent() {
    assert_eq!(
        Provider::ALL.len(),
        8,
        "update this test's names with the provider list"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut missing = Vec::new();
    for (file, intro) in PLACES {
        let text = std::fs::read_to_string(root.join(file)).expect(file);
        let part: String = match intro {
            Intro::Lines(n) => text.lines().take(*n).collect::<Vec<_>>().join(" "),
            Intro::Key(k) => text
                .lines()
                .find(|l| l.trim_start().starts_with(k))
                .unwrap_or_else(|| panic!("{file}: no {k} line"))
                .to_string(),
        };
        // Markdown emphasis and line breaks do not split a name.
        let part = part.replace("**", "").replace("\n", " ");
        for p in Provider::ALL {
            assert!(p.display_name().contains(short(p)), "{:?}", p);
            if !part.contains(short(p)) {
                missing.push(format!("{file}: {}", short(p)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "agent lists missing agents: {missing:?}"
    );
}
