//! `agenthooks mcp-transport` and `agenthooks transcript`: the core's MCP
//! transport resolution and transcript reader from the command line.

use std::io::Write;
use std::process::ExitCode;

use agenthooks::Policy;
use clap::Args;

use crate::Common;

/// `agenthooks transcript PATH`.
#[derive(Args)]
pub struct TranscriptArgs {
    /// The transcript file (a hook payload's `transcript_path`).
    path: String,
    /// `auto` or the agent whose format it is.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Lines longer than this are skipped unread (reported as too_long).
    #[arg(long, default_value_t = agenthooks::transcript::DEFAULT_MAX_LINE)]
    max_line_bytes: usize,
}

/// Payload on stdin -> `{"transport": {...} | null}` for its MCP tool call,
/// resolved from the agent's own configuration as this process sees it.
pub fn mcp_transport_cmd(c: &Common) -> ExitCode {
    let provider = match agenthooks::Provider::parse(&c.provider) {
        Ok(p) => p,
        Err(e) => return crate::fatal(&e),
    };
    let ev = match crate::read_event(c, provider, &Policy::default()) {
        Ok(ev) => ev,
        Err(b) => return crate::fatal(&b.0),
    };
    match agenthooks::mcp::resolve_for_event(&ev) {
        Ok(t) => {
            let line = serde_json::json!({ "transport": t }).to_string();
            let _ = writeln!(std::io::stdout().lock(), "{line}");
            ExitCode::SUCCESS
        }
        Err(e) => crate::fatal(&e),
    }
}

/// Prints a transcript's entries, one JSON object a line.
pub fn transcript_cmd(a: &TranscriptArgs) -> ExitCode {
    let format = match agenthooks::transcript::Format::parse(&a.format) {
        Ok(f) => f,
        Err(e) => return crate::fatal(&e),
    };
    let reader = match agenthooks::transcript::Reader::open(
        std::path::Path::new(&a.path),
        format,
        a.max_line_bytes,
    ) {
        Ok(r) => r,
        Err(e) => return crate::fatal(&e),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for entry in reader {
        match entry {
            Ok(e) => {
                let line = serde_json::to_string(&e).unwrap_or_default();
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) => {
                let _ = out.flush();
                return crate::fatal(&e);
            }
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}
