//! The one private per-user state root, and the only way the project
//! writes state files.
//!
//! Everything agenthooks keeps between processes — Cursor dedupe markers,
//! the stop-continuation counter, install locks, backups of replaced
//! configuration files, the record of installed hook commands — lives
//! under one directory that belongs to the user running the agent:
//!
//! 1. `$AGENTHOOKS_STATE_DIR`, when it is set to an absolute path;
//! 2. else `$XDG_STATE_HOME/agenthooks`, when that is absolute;
//! 3. else `$HOME/.local/state/agenthooks`, when `HOME` is absolute;
//! 4. else `<temp dir>/agenthooks-<euid>`.
//!
//! An empty or relative value is ignored (a cloned repository's `env` key
//! can set these variables; an empty value used to write state into the
//! repository). There is no shared fallback name: the numeric effective
//! uid always names the last resort.
//!
//! Guarantees (Unix; `docs/security.md` lists the tests that prove them):
//!
//! - The root and every subdirectory are created with mode 0700 and
//!   verified on every use: a real directory (the last component is opened
//!   with `O_NOFOLLOW | O_DIRECTORY`), owned by the effective uid, not
//!   writable by group or others. Anything else is refused with an
//!   [`Error::Io`] naming the directory and the reason; callers answer with
//!   the fail policy.
//! - Files are opened relative to the verified directory's descriptor
//!   with `O_NOFOLLOW` (a symlink planted at a state file's name is never
//!   followed), new files with `O_EXCL` and mode 0600, reads with
//!   `O_NONBLOCK` and a regular-file check (a FIFO never blocks us), and
//!   replacements go through a fresh temp file and `renameat`, so a hard
//!   link at the name is replaced, never written through.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::Error;

/// Environment variable naming the state root (absolute paths only).
pub const STATE_DIR_ENV: &str = "AGENTHOOKS_STATE_DIR";

/// A verified private directory: the root or one of its subdirectories.
#[derive(Debug)]
pub struct StateDir {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

fn refuse(path: &Path, reason: impl Into<String>) -> Error {
    let reason = reason.into();
    Error::Io {
        what: format!("refusing state directory {}", path.display()),
        source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, reason),
    }
}

fn io_err(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::Io {
        what: format!("{what} {}", path.display()),
        source: e,
    }
}

/// An environment value usable as a directory: set, non-empty, absolute.
fn absolute_env(name: &str) -> Option<PathBuf> {
    let v = std::env::var_os(name)?;
    let p = PathBuf::from(v);
    (!p.as_os_str().is_empty() && p.is_absolute()).then_some(p)
}

/// A fresh private state root under the temp directory, removed with
/// everything in it when dropped: the test kit gives each simulated hook
/// run its own (dedupe markers and stop counters never leak between runs).
#[derive(Debug)]
pub struct TempRoot {
    dir: StateDir,
}

impl TempRoot {
    /// Creates `<temp>/<prefix>-<pid>-<nanos>-<n>` (0700, verified).
    pub fn new(prefix: &str) -> Result<TempRoot, Error> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..8 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
            if path.symlink_metadata().is_ok() {
                continue;
            }
            match root_at(&path) {
                Ok(dir) => return Ok(TempRoot { dir }),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| refuse(&base, "no free name for a temporary state root")))
    }

    /// The root.
    pub fn dir(&self) -> &StateDir {
        &self.dir
    }
}

impl Drop for TempRoot {
    fn drop(&mut self) {
        // Best effort: a leftover temp dir is not the caller's failure.
        let _ = std::fs::remove_dir_all(self.dir.path());
    }
}

/// Where the state root is (see the module docs); not created.
pub fn root_path() -> PathBuf {
    if let Some(p) = absolute_env(STATE_DIR_ENV) {
        return p;
    }
    if let Some(p) = absolute_env("XDG_STATE_HOME") {
        return p.join("agenthooks");
    }
    if let Some(p) = absolute_env("HOME") {
        return p.join(".local").join("state").join("agenthooks");
    }
    std::env::temp_dir().join(format!("agenthooks-{}", euid()))
}

/// Opens (creating if needed) and verifies the user's state root.
pub fn root() -> Result<StateDir, Error> {
    root_at(&root_path())
}

/// Opens (creating if needed) and verifies an explicit state root (tests
/// and embedders). A relative path is refused.
pub fn root_at(path: &Path) -> Result<StateDir, Error> {
    if !path.is_absolute() {
        return Err(refuse(path, "the state directory must be an absolute path"));
    }
    // Missing ancestors are created 0700 too; existing ones are used as
    // they are (`/tmp`, a home directory) — only the root itself must be
    // private, and it is opened without following a symlink.
    if let Some(parent) = path.parent() {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        b.create(parent)
            .map_err(|e| io_err(parent, "creating the parent of", e))?;
    }
    imp::open_dir(None, path)
}

fn valid_name(dir: &Path, name: &str) -> Result<(), Error> {
    if name.is_empty()
        || name == "."
        || name == ".."
        || name.contains('/')
        || name.contains('\\')
        || name.contains('\0')
    {
        return Err(refuse(dir, format!("invalid state file name {name:?}")));
    }
    Ok(())
}

impl StateDir {
    /// The directory's path (for messages; every access goes through the
    /// verified descriptor).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens (creating if needed, mode 0700) and verifies a subdirectory.
    pub fn subdir(&self, name: &str) -> Result<StateDir, Error> {
        valid_name(&self.path, name)?;
        imp::open_dir(Some(self), &self.path.join(name))
    }

    /// Reads a regular file of at most `limit` bytes; `None` when it does
    /// not exist. A symlink, FIFO, directory or a file owned by someone
    /// else is refused; a larger file is `too_large`.
    pub fn read(&self, name: &str, limit: usize) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.read_with_mtime(name, limit)?.map(|(b, _)| b))
    }

    /// [`StateDir::read`] plus the file's modification time.
    pub fn read_with_mtime(
        &self,
        name: &str,
        limit: usize,
    ) -> Result<Option<(Vec<u8>, SystemTime)>, Error> {
        valid_name(&self.path, name)?;
        let path = self.path.join(name);
        let Some(f) = imp::open_read(self, name).map_err(|e| io_err(&path, "opening", e))? else {
            return Ok(None);
        };
        let meta = f.metadata().map_err(|e| io_err(&path, "inspecting", e))?;
        check_file(&path, &meta)?;
        let mtime = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        let mut buf = Vec::new();
        f.take(cap)
            .read_to_end(&mut buf)
            .map_err(|e| io_err(&path, "reading", e))?;
        if buf.len() > limit {
            return Err(Error::TooLarge {
                what: "state file",
                limit,
            });
        }
        Ok(Some((buf, mtime)))
    }

    /// Creates a new file (mode 0600) holding `bytes`; `Ok(false)` when the
    /// name is already taken (by anything: a file, a symlink, a FIFO).
    pub fn create_new(&self, name: &str, bytes: &[u8]) -> Result<bool, Error> {
        valid_name(&self.path, name)?;
        let path = self.path.join(name);
        let mut f = match imp::create_excl(self, name) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
            Err(e) => return Err(io_err(&path, "creating", e)),
        };
        f.write_all(bytes)
            .and_then(|()| f.flush())
            .map_err(|e| io_err(&path, "writing", e))?;
        Ok(true)
    }

    /// Replaces `name` atomically with `bytes` (mode 0600): a fresh temp
    /// file, then a rename over the name (a symlink or hard link there is
    /// replaced, never written through).
    pub fn write_replace(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        valid_name(&self.path, name)?;
        let path = self.path.join(name);
        for attempt in 0..16u32 {
            let tmp = format!(".{name}.tmp.{}.{attempt}", std::process::id());
            let mut f = match imp::create_excl(self, &tmp) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let _ = imp::unlink(self, &tmp);
                    continue;
                }
                Err(e) => return Err(io_err(&path, "creating a temp file for", e)),
            };
            let written = f.write_all(bytes).and_then(|()| f.flush());
            drop(f);
            if let Err(e) = written.and_then(|()| imp::rename(self, &tmp, name)) {
                let _ = imp::unlink(self, &tmp);
                return Err(io_err(&path, "writing", e));
            }
            return Ok(());
        }
        Err(refuse(&path, "could not create a temp file"))
    }

    /// Removes `name` (a missing file is fine; the entry itself is removed,
    /// never what a symlink points at).
    pub fn remove(&self, name: &str) -> Result<(), Error> {
        valid_name(&self.path, name)?;
        match imp::unlink(self, name) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err(&self.path.join(name), "removing", e)),
        }
    }

    /// A private, nameless file holding `bytes`, open for reading from the
    /// start: created `O_EXCL` (mode 0600) under a fresh name, reopened
    /// read-only (owner and type checked), and its name removed at once.
    /// The descriptor is what a detached child process gets as its stdin
    /// (`crate::detach`): the payload never appears in argv or the
    /// environment, and no file is left behind even if the child dies.
    pub fn private_copy(&self, bytes: &[u8]) -> Result<File, Error> {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        for attempt in 0..16u32 {
            let name = format!(".copy.{}.{nanos}.{attempt}", std::process::id());
            if !self.create_new(&name, bytes)? {
                continue;
            }
            let path = self.path.join(&name);
            let opened = imp::open_read(self, &name).map_err(|e| io_err(&path, "opening", e));
            let _ = imp::unlink(self, &name);
            let f = opened?.ok_or_else(|| refuse(&path, "the file vanished"))?;
            let meta = f.metadata().map_err(|e| io_err(&path, "inspecting", e))?;
            check_file(&path, &meta)?;
            return Ok(f);
        }
        Err(refuse(&self.path, "could not create a private file"))
    }

    /// Opens (creating if needed, mode 0600) a lock file for `flock`.
    pub fn open_lock(&self, name: &str) -> Result<File, Error> {
        valid_name(&self.path, name)?;
        let path = self.path.join(name);
        let f = imp::open_lock(self, name).map_err(|e| io_err(&path, "opening the lock", e))?;
        let meta = f.metadata().map_err(|e| io_err(&path, "inspecting", e))?;
        check_file(&path, &meta)?;
        Ok(f)
    }

    /// Appends `line` to `name` (created mode 0600 when missing) with one
    /// `write` on an `O_APPEND` descriptor, so lines of concurrent
    /// processes never interleave (one `write` to a regular file is applied
    /// whole on local filesystems); a short write is an error. Before
    /// writing, a file that would grow past `max_bytes` is rotated:
    /// `name` becomes `name.1`, `name.1` becomes `name.2`, ... and
    /// `name.<keep>` is dropped, under an exclusive lock on `.<name>.lock`
    /// (a process that finds the lock busy appends to whatever `name` is:
    /// another one is rotating). A symlink, FIFO, directory or a file of
    /// another user at `name` is refused, never written through.
    pub fn append_rotating(
        &self,
        name: &str,
        line: &[u8],
        max_bytes: u64,
        keep: u32,
    ) -> Result<(), Error> {
        valid_name(&self.path, name)?;
        let path = self.path.join(name);
        let len = u64::try_from(line.len()).unwrap_or(u64::MAX);
        let open = || -> Result<(File, u64), Error> {
            let f = imp::open_append(self, name).map_err(|e| io_err(&path, "opening", e))?;
            let meta = f.metadata().map_err(|e| io_err(&path, "inspecting", e))?;
            check_file(&path, &meta)?;
            #[cfg(unix)]
            {
                // A hard link at the name would make us write into another
                // file of this user's: appended files have one name.
                use std::os::unix::fs::MetadataExt;
                if meta.nlink() > 1 {
                    return Err(refuse(&path, "state file has other names (hard links)"));
                }
            }
            Ok((f, meta.len()))
        };
        let (mut f, size) = open()?;
        if size > 0 && size.saturating_add(len) > max_bytes {
            drop(f);
            self.rotate(name, max_bytes, len, keep)?;
            f = open()?.0;
        }
        let n = f
            .write(line)
            .map_err(|e| io_err(&path, "appending to", e))?;
        if n != line.len() {
            return Err(io_err(
                &path,
                "appending to",
                std::io::Error::new(std::io::ErrorKind::WriteZero, "short write"),
            ));
        }
        Ok(())
    }

    /// Shifts `name` to `name.1` (and older generations up to `keep`),
    /// when it still needs it under the rotation lock.
    fn rotate(&self, name: &str, max_bytes: u64, len: u64, keep: u32) -> Result<(), Error> {
        let lock_name = format!(".{name}.lock");
        let lock = self.open_lock(&lock_name)?;
        #[cfg(unix)]
        {
            use rustix::fs::{FlockOperation, flock};
            if flock(&lock, FlockOperation::NonBlockingLockExclusive).is_err() {
                // Someone else is rotating right now.
                return Ok(());
            }
        }
        // Another process may have rotated between our check and the lock.
        let still = match imp::open_read(self, name) {
            Ok(Some(f)) => f
                .metadata()
                .is_ok_and(|m| m.len() > 0 && m.len().saturating_add(len) > max_bytes),
            _ => false,
        };
        if still {
            let keep = keep.max(1);
            let _ = imp::unlink(self, &format!("{name}.{keep}"));
            for i in (1..keep).rev() {
                match imp::rename(self, &format!("{name}.{i}"), &format!("{name}.{}", i + 1)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(io_err(&self.path.join(name), "rotating", e)),
                }
            }
            imp::rename(self, name, &format!("{name}.1"))
                .map_err(|e| io_err(&self.path.join(name), "rotating", e))?;
        }
        drop(lock);
        Ok(())
    }

    /// The names of the entries (not `.`/`..`), with their modification
    /// times; unreadable entries are skipped.
    pub fn entries(&self) -> Vec<(String, SystemTime)> {
        let Ok(rd) = std::fs::read_dir(&self.path) else {
            return Vec::new();
        };
        rd.flatten()
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                let t = e.metadata().ok()?.modified().ok()?;
                Some((name, t))
            })
            .collect()
    }

    /// Removes the entries last modified more than `ttl` ago (best effort:
    /// markers of sessions that ended; errors are ignored).
    pub fn sweep_older_than(&self, ttl: std::time::Duration) {
        let now = SystemTime::now();
        for (name, t) in self.entries() {
            if now.duration_since(t).is_ok_and(|age| age > ttl) {
                let _ = self.remove(&name);
            }
        }
    }
}

/// A state file must be a regular file of ours, with no other names.
fn check_file(path: &Path, meta: &std::fs::Metadata) -> Result<(), Error> {
    if !meta.is_file() {
        return Err(refuse(path, "state file is not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != euid() {
            return Err(refuse(
                path,
                format!("state file is owned by uid {}", meta.uid()),
            ));
        }
    }
    Ok(())
}

/// The effective uid (the owner every state path must have).
#[cfg(unix)]
pub fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The effective uid (no uids here: 0).
#[cfg(not(unix))]
pub fn euid() -> u32 {
    0
}

#[cfg(unix)]
mod imp {
    use super::*;
    use rustix::fs::{AtFlags, Mode, OFlags};
    use std::os::fd::OwnedFd;
    use std::os::unix::fs::MetadataExt;

    fn dir_flags() -> OFlags {
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
    }

    /// Creates (0700) and opens a directory without following a symlink
    /// at its last component, then verifies owner and mode.
    pub(super) fn open_dir(parent: Option<&StateDir>, path: &Path) -> Result<StateDir, Error> {
        let name: &OsStr = match parent {
            Some(_) => path.file_name().unwrap_or(path.as_os_str()),
            None => path.as_os_str(),
        };
        let mk = match parent {
            Some(p) => rustix::fs::mkdirat(&p.fd, name, Mode::from_raw_mode(0o700)),
            None => rustix::fs::mkdir(name, Mode::from_raw_mode(0o700)),
        };
        match mk {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(io_err(path, "creating", e.into())),
        }
        let fd: OwnedFd = match parent {
            Some(p) => rustix::fs::openat(&p.fd, name, dir_flags(), Mode::empty()),
            None => rustix::fs::open(name, dir_flags(), Mode::empty()),
        }
        .map_err(|e| match e {
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => {
                refuse(path, "it is a symlink or not a directory")
            }
            e => io_err(path, "opening", e.into()),
        })?;
        let f = File::from(fd);
        let meta = f.metadata().map_err(|e| io_err(path, "inspecting", e))?;
        if !meta.is_dir() {
            return Err(refuse(path, "not a directory"));
        }
        if meta.uid() != euid() {
            return Err(refuse(
                path,
                format!(
                    "owned by uid {}, not by this user (uid {})",
                    meta.uid(),
                    euid()
                ),
            ));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(refuse(
                path,
                format!(
                    "writable by group or others (mode {:o}); run `chmod 700 {}`",
                    meta.mode() & 0o7777,
                    path.display()
                ),
            ));
        }
        let fd = OwnedFd::from(f);
        if meta.mode() & 0o077 != 0 {
            // Ours, not writable by others, but readable: close it.
            let _ = rustix::fs::fchmod(&fd, Mode::from_raw_mode(0o700));
        }
        Ok(StateDir {
            path: path.to_path_buf(),
            fd,
        })
    }

    pub(super) fn open_read(dir: &StateDir, name: &str) -> std::io::Result<Option<File>> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        match rustix::fs::openat(&dir.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(Some(File::from(fd))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(rustix::io::Errno::LOOP) => Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "is a symlink",
            )),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn create_excl(dir: &StateDir, name: &str) -> std::io::Result<File> {
        let flags = OFlags::WRONLY
            | OFlags::CREATE
            | OFlags::EXCL
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&dir.fd, name, flags, Mode::from_raw_mode(0o600))?;
        Ok(File::from(fd))
    }

    pub(super) fn open_append(dir: &StateDir, name: &str) -> std::io::Result<File> {
        let flags = OFlags::WRONLY
            | OFlags::APPEND
            | OFlags::CREATE
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::CLOEXEC;
        match rustix::fs::openat(&dir.fd, name, flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => Ok(File::from(fd)),
            Err(rustix::io::Errno::LOOP) => Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "is a symlink",
            )),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn open_lock(dir: &StateDir, name: &str) -> std::io::Result<File> {
        let flags =
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        match rustix::fs::openat(&dir.fd, name, flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => Ok(File::from(fd)),
            Err(rustix::io::Errno::LOOP) => Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "is a symlink",
            )),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn rename(dir: &StateDir, from: &str, to: &str) -> std::io::Result<()> {
        Ok(rustix::fs::renameat(&dir.fd, from, &dir.fd, to)?)
    }

    pub(super) fn unlink(dir: &StateDir, name: &str) -> std::io::Result<()> {
        Ok(rustix::fs::unlinkat(&dir.fd, name, AtFlags::empty())?)
    }
}

#[cfg(not(unix))]
mod imp {
    //! Best effort without descriptor-relative calls: plain paths.
    use super::*;

    pub(super) fn open_dir(_parent: Option<&StateDir>, path: &Path) -> Result<StateDir, Error> {
        std::fs::create_dir_all(path).map_err(|e| io_err(path, "creating", e))?;
        let meta = std::fs::symlink_metadata(path).map_err(|e| io_err(path, "inspecting", e))?;
        if !meta.is_dir() {
            return Err(refuse(path, "not a directory"));
        }
        Ok(StateDir {
            path: path.to_path_buf(),
        })
    }

    pub(super) fn open_read(dir: &StateDir, name: &str) -> std::io::Result<Option<File>> {
        match File::open(dir.path.join(name)) {
            Ok(f) => Ok(Some(f)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub(super) fn create_excl(dir: &StateDir, name: &str) -> std::io::Result<File> {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.path.join(name))
    }

    pub(super) fn open_append(dir: &StateDir, name: &str) -> std::io::Result<File> {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(dir.path.join(name))
    }

    pub(super) fn open_lock(dir: &StateDir, name: &str) -> std::io::Result<File> {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.path.join(name))
    }

    pub(super) fn rename(dir: &StateDir, from: &str, to: &str) -> std::io::Result<()> {
        std::fs::rename(dir.path.join(from), dir.path.join(to))
    }

    pub(super) fn unlink(dir: &StateDir, name: &str) -> std::io::Result<()> {
        std::fs::remove_file(dir.path.join(name))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "ah-state-{tag}-{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn root_is_created_private_and_files_are_0600() {
        let d = tmp("mode");
        let root = root_at(&d).unwrap();
        assert_eq!(std::fs::metadata(&d).unwrap().mode() & 0o777, 0o700);
        let sub = root.subdir("x").unwrap();
        assert!(sub.create_new("f", b"1").unwrap());
        assert!(!sub.create_new("f", b"2").unwrap());
        assert_eq!(sub.read("f", 10).unwrap().unwrap(), b"1");
        sub.write_replace("f", b"22").unwrap();
        assert_eq!(sub.read("f", 10).unwrap().unwrap(), b"22");
        let m = std::fs::metadata(d.join("x").join("f")).unwrap();
        assert_eq!(m.mode() & 0o777, 0o600);
        assert!(sub.read("f", 1).is_err(), "over the limit");
        sub.remove("f").unwrap();
        sub.remove("f").unwrap();
        assert_eq!(sub.read("f", 10).unwrap(), None);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn symlinks_are_never_followed() {
        let d = tmp("link");
        let root = root_at(&d).unwrap();
        let victim = d.with_extension("victim");
        std::fs::write(&victim, b"precious").unwrap();
        symlink(&victim, d.join("f")).unwrap();
        assert!(root.read("f", 100).is_err());
        assert!(!root.create_new("f", b"x").unwrap());
        root.write_replace("f", b"x").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(
            !std::fs::symlink_metadata(d.join("f"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A symlinked subdirectory is refused.
        let elsewhere = d.with_extension("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        symlink(&elsewhere, d.join("sub")).unwrap();
        assert!(root.subdir("sub").is_err());
        // A symlinked root is refused.
        let link_root = d.with_extension("linkroot");
        symlink(&elsewhere, &link_root).unwrap();
        assert!(root_at(&link_root).is_err());
        for p in [&d, &elsewhere] {
            std::fs::remove_dir_all(p).unwrap();
        }
        std::fs::remove_file(&victim).unwrap();
        std::fs::remove_file(&link_root).unwrap();
    }

    #[test]
    fn writable_by_others_is_refused_and_relative_paths_too() {
        let d = tmp("perm");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = root_at(&d).unwrap_err();
        assert!(e.to_string().contains("writable by group or others"), "{e}");
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        root_at(&d).unwrap();
        assert_eq!(std::fs::metadata(&d).unwrap().mode() & 0o777, 0o700);
        assert!(root_at(Path::new("rel/dir")).is_err());
        assert!(root_at(Path::new("")).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn fifo_at_a_state_name_does_not_block() {
        let d = tmp("fifo");
        let root = root_at(&d).unwrap();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            d.join("f"),
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        assert!(root.read("f", 10).is_err());
        assert!(!root.create_new("f", b"x").unwrap());
        assert!(root.open_lock("f").is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn bad_names_are_refused() {
        let d = tmp("names");
        let root = root_at(&d).unwrap();
        for n in ["", ".", "..", "a/b", "../x"] {
            assert!(root.create_new(n, b"x").is_err(), "{n:?}");
            assert!(root.subdir(n).is_err(), "{n:?}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
