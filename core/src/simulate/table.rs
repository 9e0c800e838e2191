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
