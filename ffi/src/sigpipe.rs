//! Keeps SIGPIPE from killing the host process while hooks run.
//!
//! The core feeds each hook's stdin through a pipe from a thread of its
//! own; a hook that exits without reading makes that write raise SIGPIPE,
//! whose default action kills the whole process. Rust programs ignore
//! SIGPIPE, but a C or Go (cgo) host does not, so the calls that run hooks
//! block SIGPIPE on the calling thread for their duration: every thread
//! they spawn inherits the mask, the write fails with EPIPE instead, and a
//! signal left pending on a thread dies with it. Child processes start
//! with a clean mask (Rust's `Command` resets it).

/// Blocks SIGPIPE on this thread until dropped; then consumes a SIGPIPE
/// this thread raised meanwhile and restores the previous mask.
#[cfg(unix)]
pub(crate) struct Blocked {
    old: libc::sigset_t,
    was_pending: bool,
}

#[cfg(unix)]
fn pipe_pending() -> bool {
    // SAFETY: `set` is a valid, initialised sigset_t for these calls.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigpending(&mut set) == 0 && libc::sigismember(&set, libc::SIGPIPE) == 1
    }
}

/// Blocks SIGPIPE on the calling thread (`None` if that failed).
#[cfg(unix)]
pub(crate) fn block() -> Option<Blocked> {
    // SAFETY: both sigsets are valid and initialised; pthread_sigmask only
    // changes this thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) != 0 {
            return None;
        }
        Some(Blocked {
            old,
            was_pending: pipe_pending(),
        })
    }
}

#[cfg(unix)]
impl Drop for Blocked {
    fn drop(&mut self) {
        // SAFETY: valid sigsets; sigwait returns at once since SIGPIPE is
        // pending and blocked; the mask restored is the one saved.
        unsafe {
            if !self.was_pending && pipe_pending() {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGPIPE);
                let mut sig = 0;
                libc::sigwait(&set, &mut sig);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, std::ptr::null_mut());
        }
    }
}

/// No SIGPIPE to block.
#[cfg(not(unix))]
pub(crate) fn block() -> Option<()> {
    None
}
