//! The process of a Rust hook program: argv, stdin and stdout around the
//! core's run ([`crate::runtime`]) and serve loop ([`crate::serve`]).

use std::io::Write;
use std::sync::Arc;

use crate::model::Response;
use crate::router::Router;
use crate::runtime::{Launch, StdoutGuard, launch, read_stdin, run_plan_as};

/// The whole author-side run for a Rust hook program: parses argv, reads
/// stdin, runs the router, writes the agent's answer and exits.
pub fn main(router: Router) -> ! {
    let argv: Vec<String> = std::env::args().collect();
    let code = run_process(router, &argv);
    std::process::exit(code)
}

/// [`main`] without the exit, for tests and embedding: [`launch`], then
/// stdin ([`read_stdin`]) and [`run_plan`] (or the `serve` loop), then the
/// answer on the real stdout (stray prints of handlers go to stderr).
pub fn run_process(router: Router, argv: &[String]) -> i32 {
    let plan = match launch(argv) {
        Launch::Answer(r) => return write_process_answer(&r, None),
        Launch::Serve(plan) => {
            if !plan.warnings.is_empty() {
                let mut err = std::io::stderr().lock();
                let _ = err.write_all(plan.warnings.as_bytes());
                let _ = err.flush();
            }
            // NDJSON over stdio for the OpenCode / OpenClaw plugin bridges.
            return crate::serve::serve_process(router, &plan.args);
        }
        Launch::Run(plan) => plan,
    };
    let guard = StdoutGuard::divert();
    let stdin = read_stdin(plan.read_limit());
    // How to run this program again, for an async hook's detached child:
    // the executable itself (argv[0] may be a bare name or a symlink).
    let mut again: Vec<String> = argv.to_vec();
    if let Some(exe) = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
    {
        if let Some(first) = again.first_mut() {
            *first = exe;
        }
    }
    let resp = run_plan_as(Arc::new(router), &plan, stdin, Some(&again[..]));
    write_process_answer(&resp, Some(&guard))
}

/// Writes stderr, then stdout (through the guard when there is one);
/// returns the exit code (1 when stdout cannot be written).
fn write_process_answer(resp: &Response, guard: Option<&StdoutGuard>) -> i32 {
    if !resp.stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(resp.stderr.as_bytes());
        let _ = err.flush();
    }
    let written = match guard {
        Some(g) => g.write_answer(resp.stdout.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(resp.stdout.as_bytes())
                .and_then(|()| out.flush())
        }
    };
    if written.is_err() {
        return 1;
    }
    resp.exit_code
}
