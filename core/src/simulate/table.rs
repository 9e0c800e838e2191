//! The readable form of a simulation: one block per scenario, one row per
//! agent (the answer, the effect, what the model or user sees, warnings).

use super::run::Outcome;

/// Shortens text to one line of at most `n` characters.
pub fn clip(s: &str, n: usize) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= n {
        one
    } else {
        let cut: String = one.chars().take(n.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

/// The wire answer in one short line.
pub fn answer_summary(o: &Outcome) -> String {
    let a = &o.answer;
    if a.timed_out {
        return format!("timed out after {} ms", o.timeout_ms);
    }
    let code = match a.exit {
        Some(c) => format!("exit {c}"),
        None => "killed".into(),
    };
    let out = a.stdout.trim();
    let err = a.stderr.trim();
    let mut s = code;
    if !out.is_empty() {
        s.push_str(&format!(" out {}", clip(out, 44)));
    }
    if !err.is_empty() && (out.is_empty() || a.exit != Some(0)) {
        s.push_str(&format!(" err {}", clip(err, 30)));
    }
    if out.is_empty() && err.is_empty() {
        s.push_str(" (empty)");
    }
    s
}

/// The table.
pub fn render(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    let mut last = None::<&str>;
    let w_agent = outcomes
        .iter()
        .map(|o| o.agent.id().len())
        .max()
        .unwrap_or(8);
    for o in outcomes {
        if last != Some(o.scenario.as_str()) {
            if last.is_some() {
                out.push('\n');
            }
            out.push_str(&format!("== {}\n", o.scenario));
            last = Some(o.scenario.as_str());
        }
        let agent = format!("{:<w$}", o.agent.id(), w = w_agent);
        if let Some(why) = &o.skipped {
            out.push_str(&format!("  {agent}  -  ({why})\n"));
            continue;
        }
        if let Some(e) = &o.run_error {
            out.push_str(&format!("  {agent}  HOOK DID NOT RUN: {}\n", clip(e, 100)));
            continue;
        }
        let Some(p) = &o.prediction else { continue };
        let mut sees = Vec::new();
        if let Some(m) = &p.model_sees {
            sees.push(format!("model: {}", clip(m, 60)));
        }
        if let Some(u) = &p.user_sees {
            sees.push(format!("user: {}", clip(u, 50)));
        }
        out.push_str(&format!(
            "  {agent}  {:<30} {:<58} {}\n",
            p.effect.as_str(),
            clip(&answer_summary(o), 58),
            sees.join("  ")
        ));
        let codes: Vec<&str> = p.warnings.iter().map(|w| w.code.as_str()).collect();
        if !codes.is_empty() {
            out.push_str(&format!(
                "  {:<w$}  ! {}\n",
                "",
                codes.join(", "),
                w = w_agent
            ));
        }
    }
    out
}

/// A short cell text for an effect.
pub fn short(e: super::Effect) -> &'static str {
    use super::Effect as E;
    match e {
        E::ToolRuns => "runs",
        E::ToolRunsWithoutPrompt => "runs, no prompt",
        E::ToolRunsWithInputRewritten => "rewritten",
        E::ToolBlocked => "BLOCKED",
        E::AsksUser => "asks user",
        E::PromptBlocked => "PROMPT BLOCKED",
        E::PromptContinues => "continues",
        E::PromptRewritten => "prompt rewritten",
        E::ContextInjected => "context added",
        E::AgentContinues => "keeps going",
        E::AgentStops => "stops",
        E::OutputReplaced => "output replaced",
        E::NoEffect => "no effect",
    }
}

/// The compact form: one row per agent, one column per scenario, a cell
/// per effect (`*` marks warnings, listed below the table).
pub fn render_matrix(outcomes: &[Outcome]) -> String {
    let mut scenarios: Vec<&str> = Vec::new();
    let mut agents: Vec<crate::model::Provider> = Vec::new();
    for o in outcomes {
        if !scenarios.contains(&o.scenario.as_str()) {
            scenarios.push(&o.scenario);
        }
        if !agents.contains(&o.agent) {
            agents.push(o.agent);
        }
    }
    let cell = |a: crate::model::Provider, s: &str| -> String {
        match outcomes.iter().find(|o| o.agent == a && o.scenario == s) {
            None => String::new(),
            Some(o) if o.skipped.is_some() => "-".into(),
            Some(o) if o.run_error.is_some() => "DID NOT RUN".into(),
            Some(o) => match &o.prediction {
                Some(p) if p.warnings.is_empty() => short(p.effect).into(),
                Some(p) => format!("{} *", short(p.effect)),
                None => String::new(),
            },
        }
    };
    let w0 = agents
        .iter()
        .map(|a| a.id().len())
        .max()
        .unwrap_or(5)
        .max(5);
    let widths: Vec<usize> = scenarios
        .iter()
        .map(|s| {
            agents
                .iter()
                .map(|a| cell(*a, s).chars().count())
                .chain(std::iter::once(s.chars().count()))
                .max()
                .unwrap_or(4)
        })
        .collect();
    let mut out = format!("{:<w0$}", "agent");
    for (s, w) in scenarios.iter().zip(&widths) {
        out.push_str(&format!("  {s:<w$}"));
    }
    out.push('\n');
    for a in &agents {
        out.push_str(&format!("{:<w0$}", a.id()));
        for (s, w) in scenarios.iter().zip(&widths) {
            out.push_str(&format!("  {:<w$}", cell(*a, s)));
        }
        out.push('\n');
    }
    let mut notes = Vec::new();
    for o in outcomes {
        if let Some(e) = &o.run_error {
            notes.push(format!(
                "  {} / {}: {}",
                o.agent.id(),
                o.scenario,
                clip(e, 100)
            ));
        }
        if let Some(p) = &o.prediction {
            for w in &p.warnings {
                notes.push(format!(
                    "  {} / {}: {}: {}",
                    o.agent.id(),
                    o.scenario,
                    w.code.as_str(),
                    clip(&w.message, 90)
                ));
            }
        }
    }
    if !notes.is_empty() {
        out.push_str("\n* warnings:\n");
        out.push_str(&notes.join("\n"));
        out.push('\n');
    }
    out.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
