//! The process of a Rust hook program: argv, stdin and stdout around the
//! core's run ([`crate::runtime`]) and serve loop ([`crate::serve`]).

use std::io::Write;
use std::sync::Arc;

use crate::model::Response;
use crate::router::Router;
use crate::runtime::{Launch, StdoutGuard, decide_event, launch, read_stdin, run_plan_with};
#[cfg(unix)]
use crate::{
    Error,
    model::{Decision, Event},
    runtime::{Invocation, panic_message},
};

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
    // Only an async run that detaches asks (a readlink of /proc/self/exe).
    let again = || {
        let mut again: Vec<String> = argv.to_vec();
        if let Some(exe) = std::env::current_exe()
            .ok()
            .and_then(|p| p.to_str().map(str::to_string))
        {
            if let Some(first) = again.first_mut() {
                *first = exe;
            }
        }
        again
    };
    #[cfg(unix)]
    let resp = {
        let fd = guard.answer_fd();
        let decide =
            |r: &Arc<Router>, b: Option<Arc<Event>>, i: &Invocation| decide_on_alarm(r, b, i, fd);
        run_plan_with(Arc::new(router), &plan, stdin, Some(again), &decide)
    };
    #[cfg(not(unix))]
    let resp = run_plan_with(Arc::new(router), &plan, stdin, Some(again), &decide_event);
    write_process_answer(&resp, Some(&guard))
}

/// The handlers of a process-owning run on this thread, bounded by a
/// `SIGALRM` deadline ([`crate::alarm`]) instead of a worker thread: on
/// the deadline the timeout answer, rendered now, is written (its stdout
/// to `answer_fd`, the real stdout) and the process exits. Where the
/// alarm cannot be had (someone else's SIGALRM handler or timer), the
/// worker thread as everywhere else.
#[cfg(unix)]
fn decide_on_alarm(
    router: &Arc<Router>,
    backfill: Option<Arc<Event>>,
    inv: &Invocation,
    answer_fd: i32,
) -> Result<Decision, Error> {
    // No handler, observer or middleware for this event: nothing can hang.
    if !router.runs_user_code(&inv.event) && backfill.is_none() {
        return router.decide(&inv.event);
    }
    let timeout = inv.timeout_answer();
    let Some(deadline) = crate::alarm::Deadline::arm(
        timeout.stderr.into_bytes(),
        timeout.stdout.into_bytes(),
        timeout.exit_code,
        answer_fd,
        inv.deadline_ms,
    ) else {
        return decide_event(router, backfill, inv);
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if let Some(b) = &backfill {
            let _ = router.decide(b);
        }
        router.decide(&inv.event)
    }));
    // Ours from here: no timeout answer after this.
    deadline.finish();
    match outcome {
        Ok(r) => r,
        Err(p) => Err(Error::Panic {
            message: panic_message(p.as_ref()),
        }),
    }
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
