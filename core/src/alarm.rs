//! The handler deadline of a process-owning hook run without a thread.
//!
//! A hook program's handlers must be answered for by the deadline even when
//! they hang. Running them on a worker thread costs every hook process a
//! `clone3`, a 2 MB stack and a fresh malloc arena (128 MB reserved, then
//! trimmed to 64 MB), for a deadline that almost never fires. When the process is
//! ours ([`crate::process::run_process`], a Rust hook program's `main`), the
//! handlers run on the calling thread instead and the deadline is a
//! `SIGALRM` (`setitimer(ITIMER_REAL)`): the timeout answer is rendered
//! before the handlers start, and the signal handler writes it with
//! `write(2)` and ends the process with `_exit(2)` (both async-signal-safe;
//! it allocates nothing and takes no lock).
//!
//! Exactly one answer: [`Deadline`] holds a state word. The signal handler
//! moves it `ARMED → FIRED` before writing; the normal path moves it
//! `ARMED → DONE` (in [`Deadline::finish`]) before the caller writes its
//! own answer. Whoever wins the compare-exchange answers; a signal that
//! arrives after `DONE` returns without a write.
//!
//! Where signals are not ours (the C ABI in a host process, the Python and
//! Node bindings, `serve`, tests calling `run_plan`), nothing here is used:
//! those keep the worker thread. [`Deadline::arm`] also declines (the
//! caller falls back to the thread) when someone else's `SIGALRM` handler
//! or interval timer is installed, or another deadline is armed.
//!
//! The one module of the core with `unsafe` (STYLE.md: signal handlers have
//! no safe wrapper in rustix, and a handler's body must be async-signal-safe
//! by construction); every block says why it holds.

#![allow(unsafe_code)]

use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU8, AtomicUsize, Ordering};

const IDLE: u8 = 0;
const ARMING: u8 = 1;
const ARMED: u8 = 2;
const DONE: u8 = 3;
const FIRED: u8 = 4;

static STATE: AtomicU8 = AtomicU8::new(IDLE);
static ERR_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static ERR_LEN: AtomicUsize = AtomicUsize::new(0);
static OUT_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static OUT_LEN: AtomicUsize = AtomicUsize::new(0);
static OUT_FD: AtomicI32 = AtomicI32::new(1);
static CODE: AtomicI32 = AtomicI32::new(0);

/// Writes all of `len` bytes at `ptr` to `fd`; async-signal-safe (a raw
/// `write(2)` loop, retried on `EINTR`, given up on any other error).
///
/// # Safety
/// `ptr` must be valid for reads of `len` bytes (or `len` must be 0).
unsafe fn write_all_raw(fd: i32, mut ptr: *const u8, mut len: usize) {
    while len > 0 {
        // SAFETY: the caller guarantees `ptr..ptr+len` is readable.
        let n = unsafe { libc::write(fd, ptr.cast(), len) };
        if n < 0 {
            // Reading errno allocates nothing (an `Os` error is a plain code).
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return;
        }
        let Ok(n) = usize::try_from(n) else { return };
        if n == 0 || n > len {
            return;
        }
        // SAFETY: `n <= len`, so the new pointer stays within the buffer.
        ptr = unsafe { ptr.add(n) };
        len -= n;
    }
}

/// The `SIGALRM` handler: the timeout answer, once, then `_exit`.
extern "C" fn on_alarm(_sig: libc::c_int) {
    if STATE
        .compare_exchange(ARMED, FIRED, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // The normal path answered (or is answering): nothing to do.
        return;
    }
    // SAFETY: the pointers and lengths were stored before STATE became
    // ARMED, and the buffers they point into live in the `Deadline`, which
    // is dropped only after STATE left ARMED (finish/drop move it to DONE
    // first), and we won the move out of ARMED: they are still alive.
    // `write` and `_exit` are async-signal-safe.
    unsafe {
        write_all_raw(
            2,
            ERR_PTR.load(Ordering::SeqCst),
            ERR_LEN.load(Ordering::SeqCst),
        );
        write_all_raw(
            OUT_FD.load(Ordering::SeqCst),
            OUT_PTR.load(Ordering::SeqCst),
            OUT_LEN.load(Ordering::SeqCst),
        );
        libc::_exit(CODE.load(Ordering::SeqCst));
    }
}

/// An armed deadline: if it passes before [`Deadline::finish`], the
/// pre-rendered answer is written and the process exits.
pub struct Deadline {
    // Kept alive (and never moved: boxed slices) while armed: the signal
    // handler reads them through the raw pointers above.
    _stderr: Box<[u8]>,
    _stdout: Box<[u8]>,
    old_action: libc::sigaction,
    /// The thread's signal mask had `SIGALRM` blocked: blocked again on finish.
    was_blocked: bool,
    finished: bool,
}

impl Deadline {
    /// Arms a deadline of `ms` milliseconds on this process: when it
    /// passes, `stderr` is written to fd 2, `stdout` to `stdout_fd`, and the
    /// process exits with `exit_code`. `None` (nothing changed; use a
    /// worker thread) when `SIGALRM` or the real-time interval timer is
    /// already someone else's, another deadline is armed, or a call fails.
    pub fn arm(
        stderr: Vec<u8>,
        stdout: Vec<u8>,
        exit_code: i32,
        stdout_fd: i32,
        ms: u64,
    ) -> Option<Deadline> {
        let secs = libc::time_t::try_from(ms / 1000).ok()?;
        let usecs = libc::suseconds_t::try_from((ms % 1000) * 1000).ok()?;
        // A zero it_value would disarm the timer: the smallest delay instead.
        let usecs = if secs == 0 && usecs == 0 { 1 } else { usecs };
        STATE
            .compare_exchange(IDLE, ARMING, Ordering::SeqCst, Ordering::SeqCst)
            .ok()?;
        let stderr = stderr.into_boxed_slice();
        let stdout = stdout.into_boxed_slice();
        ERR_PTR.store(stderr.as_ptr().cast_mut(), Ordering::SeqCst);
        ERR_LEN.store(stderr.len(), Ordering::SeqCst);
        OUT_PTR.store(stdout.as_ptr().cast_mut(), Ordering::SeqCst);
        OUT_LEN.store(stdout.len(), Ordering::SeqCst);
        OUT_FD.store(stdout_fd, Ordering::SeqCst);
        CODE.store(exit_code, Ordering::SeqCst);
        let give_up = || {
            STATE.store(IDLE, Ordering::SeqCst);
            None
        };

        // SAFETY: zeroed `sigaction` / `sigset_t` are valid initial values
        // (plain C structs); every pointer passed below points at a local.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        let mut old_action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_alarm as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SA_RESTART: a handler's system call interrupted by a signal that
        // arrives after `finish` (and returns) resumes instead of failing.
        action.sa_flags = libc::SA_RESTART;
        // SAFETY: `sa_mask` is a valid sigset_t to fill; `on_alarm` is
        // async-signal-safe (see its comment) and lives for the program.
        let installed = unsafe {
            libc::sigfillset(&mut action.sa_mask);
            libc::sigaction(libc::SIGALRM, &action, &mut old_action)
        };
        if installed != 0 {
            return give_up();
        }
        let restore = |old: &libc::sigaction| {
            // SAFETY: `old` is the action sigaction returned above.
            unsafe { libc::sigaction(libc::SIGALRM, old, std::ptr::null_mut()) };
        };
        if old_action.sa_sigaction != libc::SIG_DFL && old_action.sa_sigaction != libc::SIG_IGN {
            // Someone's own SIGALRM handler: leave signals to them.
            restore(&old_action);
            return give_up();
        }
        // An inherited blocked SIGALRM (the signal mask survives exec)
        // would never arrive: unblock it on this thread while armed.
        // SAFETY: plain sigset_t operations on locals.
        let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
        let mut old_set: libc::sigset_t = unsafe { std::mem::zeroed() };
        let unblocked = unsafe {
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGALRM);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, &mut old_set)
        };
        if unblocked != 0 {
            restore(&old_action);
            return give_up();
        }
        // SAFETY: `old_set` was filled by pthread_sigmask.
        let was_blocked = unsafe { libc::sigismember(&old_set, libc::SIGALRM) } == 1;
        let reblock = || {
            if was_blocked {
                // SAFETY: `set` holds SIGALRM only.
                unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
            }
        };
        STATE.store(ARMED, Ordering::SeqCst);
        let timer = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: secs,
                tv_usec: usecs,
            },
        };
        // SAFETY: zeroed itimerval is valid; both pointers are locals.
        let mut old_timer: libc::itimerval = unsafe { std::mem::zeroed() };
        let armed = unsafe { libc::setitimer(libc::ITIMER_REAL, &timer, &mut old_timer) };
        let busy = old_timer.it_value.tv_sec != 0 || old_timer.it_value.tv_usec != 0;
        if armed != 0 || busy {
            // Not ours to take (or it failed): put everything back. Moving
            // to DONE first makes a signal from our timer a no-op.
            STATE.store(DONE, Ordering::SeqCst);
            if armed == 0 {
                // SAFETY: restores the timer setitimer returned.
                unsafe { libc::setitimer(libc::ITIMER_REAL, &old_timer, std::ptr::null_mut()) };
            }
            reblock();
            restore(&old_action);
            return give_up();
        }
        Some(Deadline {
            _stderr: stderr,
            _stdout: stdout,
            old_action,
            was_blocked,
            finished: false,
        })
    }

    /// Disarms the deadline: after it returns the caller owns the answer
    /// and no timeout answer will be written. Call it as soon as the
    /// handlers returned (or unwound), before encoding their outcome.
    pub fn finish(mut self) {
        self.disarm();
    }

    fn disarm(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if STATE
            .compare_exchange(ARMED, DONE, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // FIRED: the signal handler (on another thread a handler
            // started) is writing the timeout answer and will `_exit`; this
            // thread must not answer too.
            loop {
                // SAFETY: pause(2) has no preconditions.
                unsafe { libc::pause() };
            }
        }
        let zero = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
        };
        // SAFETY: disarms the timer; restores the action and mask saved by
        // `arm` (pointers to locals and to `self`).
        unsafe {
            libc::setitimer(libc::ITIMER_REAL, &zero, std::ptr::null_mut());
            libc::sigaction(libc::SIGALRM, &self.old_action, std::ptr::null_mut());
            if self.was_blocked {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGALRM);
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            }
        }
        // A signal already pending at this point found DONE and returned;
        // the statics may be reused by the next `arm`.
        STATE.store(IDLE, Ordering::SeqCst);
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.disarm();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timer_running() -> bool {
        // SAFETY: getitimer fills a local.
        let mut t: libc::itimerval = unsafe { std::mem::zeroed() };
        unsafe { libc::getitimer(libc::ITIMER_REAL, &mut t) };
        t.it_value.tv_sec != 0 || t.it_value.tv_usec != 0
    }

    fn handler_now() -> libc::sighandler_t {
        // SAFETY: queries the current action into a local.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        unsafe { libc::sigaction(libc::SIGALRM, std::ptr::null(), &mut old) };
        old.sa_sigaction
    }

    fn arm() -> Option<Deadline> {
        // Long enough never to fire while the test runs (firing would end
        // the test process).
        Deadline::arm(b"err".to_vec(), b"out".to_vec(), 2, 1, 600_000)
    }

    /// The paths where the deadline must not fire: arm and finish leave
    /// nothing behind; a second deadline, someone else's timer and someone
    /// else's handler each make `arm` decline and leave theirs alone.
    /// One test (the state is the process's): sequential by construction.
    #[test]
    fn arms_disarms_and_declines_what_is_not_ours() {
        let before = handler_now();
        let d = arm().expect("armed");
        assert!(timer_running());
        assert_ne!(handler_now(), before);
        assert!(arm().is_none(), "one deadline at a time");
        d.finish();
        assert!(!timer_running(), "finish disarms the timer");
        assert_eq!(handler_now(), before, "finish restores the action");
        // Dropping without finish disarms too; the state is reusable.
        drop(arm().expect("armed again"));
        assert!(!timer_running());

        // Someone else's timer (long: it never fires here).
        let theirs = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: 500,
                tv_usec: 0,
            },
        };
        // SAFETY: arms a timer from a local; SIGALRM stays at its default
        // and the timer is cancelled below long before it could fire.
        unsafe { libc::setitimer(libc::ITIMER_REAL, &theirs, std::ptr::null_mut()) };
        assert!(arm().is_none(), "a running timer is not ours");
        assert!(timer_running(), "their timer is put back");
        assert_eq!(handler_now(), before);
        let zero = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
        };
        // SAFETY: cancels the timer.
        unsafe { libc::setitimer(libc::ITIMER_REAL, &zero, std::ptr::null_mut()) };

        // Someone else's handler.
        extern "C" fn theirs_handler(_: libc::c_int) {}
        // SAFETY: installs an empty handler, restored below.
        let mut act: libc::sigaction = unsafe { std::mem::zeroed() };
        act.sa_sigaction = theirs_handler as extern "C" fn(libc::c_int) as libc::sighandler_t;
        let mut saved: libc::sigaction = unsafe { std::mem::zeroed() };
        unsafe { libc::sigaction(libc::SIGALRM, &act, &mut saved) };
        assert!(arm().is_none(), "a handler is not ours");
        assert_eq!(
            handler_now(),
            theirs_handler as extern "C" fn(libc::c_int) as libc::sighandler_t,
            "their handler stays"
        );
        assert!(!timer_running());
        // SAFETY: restores the action saved above.
        unsafe { libc::sigaction(libc::SIGALRM, &saved, std::ptr::null_mut()) };
        assert!(arm().is_some(), "free again");
    }
}
