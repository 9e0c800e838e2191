//! Safe file replacement: an advisory lock around every read-modify-write,
//! atomic writes (temp file in the same directory, fsync, rename, fsync of
//! the directory) and a backup of the previous version.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::InstallError;

/// Environment variable (tests only): milliseconds to sleep between writing
/// and syncing the temp file and renaming it over the target, so a test can
/// kill the process in that window and check the old file is intact.
pub const TEST_DELAY_ENV: &str = "AGENTHOOKS_INSTALL_TEST_DELAY_MS";

/// Suffix of the backup kept beside a replaced file.
pub const BACKUP_SUFFIX: &str = ".agenthooks.bak";

fn io(path: &Path, what: &str, e: std::io::Error) -> InstallError {
    InstallError::Io {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
    }
}

/// Reads a file; `None` when it does not exist.
pub fn read_opt(path: &Path) -> Result<Option<String>, InstallError> {
    match fs::read(path) {
        Ok(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|e| InstallError::Parse {
                path: path.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path, "reading", e)),
    }
}

/// The absolute form of `path` with symlinks in its existing ancestors
/// resolved (the file itself need not exist).
pub fn absolute(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut existing = abs.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(p), Some(n)) => {
                rest.push(n.to_os_string());
                existing = p;
            }
            _ => return abs,
        }
    }
    let mut out = fs::canonicalize(existing).unwrap_or_else(|_| existing.to_path_buf());
    for n in rest.iter().rev() {
        out.push(n);
    }
    out
}

/// Replaces `path` with `content` atomically, keeping the previous version
/// as `<path>.agenthooks.bak`. `None` removes the file (after the backup).
pub fn replace(path: &Path, content: Option<&str>) -> Result<(), InstallError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let old = fs::read(path).ok();
    if let Some(old) = &old {
        let bak = backup_path(path);
        write_atomic(&bak, old, None)?;
    }
    match content {
        Some(c) => {
            fs::create_dir_all(dir).map_err(|e| io(dir, "creating the directory", e))?;
            let mode = fs::metadata(path).ok().map(|m| m.permissions());
            write_atomic(path, c.as_bytes(), mode)?;
        }
        None => {
            if old.is_some() {
                fs::remove_file(path).map_err(|e| io(path, "removing", e))?;
                sync_dir(dir);
            }
        }
    }
    Ok(())
}

/// `<path>.agenthooks.bak`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(BACKUP_SUFFIX);
    PathBuf::from(s)
}

fn write_atomic(
    path: &Path,
    bytes: &[u8],
    perms: Option<fs::Permissions>,
) -> Result<(), InstallError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.agenthooks-tmp-{}-{}",
        std::process::id(),
        next_serial()
    ));
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| io(&tmp, "creating the temp file", e))?;
        f.write_all(bytes)
            .map_err(|e| io(&tmp, "writing the temp file", e))?;
        if let Some(p) = perms {
            let _ = f.set_permissions(p);
        }
        f.sync_all()
            .map_err(|e| io(&tmp, "syncing the temp file", e))?;
        drop(f);
        if let Some(ms) = std::env::var(TEST_DELAY_ENV)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            std::thread::sleep(Duration::from_millis(ms));
        }
        fs::rename(&tmp, path).map_err(|e| io(path, "renaming the temp file over", e))?;
        sync_dir(dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn next_serial() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

fn sync_dir(dir: &Path) {
    // Makes the rename durable; not possible on every platform, never fatal.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Exclusive advisory locks on a set of files, held until dropped.
#[derive(Debug)]
pub struct Locks {
    _files: Vec<fs::File>,
}

/// The lock file name standing for `path` (in the `locks` subdirectory
/// of the private state root, [`crate::state`]): a hash of the absolute
/// path, so every install of one file takes the same lock whatever its
/// `TMPDIR`.
pub fn lock_name(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(absolute(path).to_string_lossy().as_bytes());
    let hex: String = h.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("{hex}.lock")
}

fn state_err(e: crate::Error) -> InstallError {
    InstallError::Io {
        path: crate::state::root_path(),
        message: e.to_string(),
    }
}

/// Locks every path (sorted, so two processes never deadlock), waiting up
/// to `wait` for each. The lock files live in the user's private state
/// root: another user cannot pre-create, hold or redirect them.
pub fn lock_all(paths: &[PathBuf], wait: Duration) -> Result<Locks, InstallError> {
    let mut names: Vec<String> = paths.iter().map(|p| lock_name(p)).collect();
    names.sort();
    names.dedup();
    let dir = crate::state::root()
        .and_then(|r| r.subdir("locks"))
        .map_err(state_err)?;
    let mut files = Vec::new();
    for n in names {
        let f = dir.open_lock(&n).map_err(state_err)?;
        lock_file(&f, &dir.path().join(&n), wait)?;
        files.push(f);
    }
    Ok(Locks { _files: files })
}

#[cfg(unix)]
fn lock_file(f: &fs::File, p: &Path, wait: Duration) -> Result<(), InstallError> {
    use rustix::fs::{FlockOperation, flock};
    let start = std::time::Instant::now();
    loop {
        match flock(f, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(()),
            Err(e) if e == rustix::io::Errno::WOULDBLOCK || e == rustix::io::Errno::INTR => {
                if start.elapsed() > wait {
                    return Err(InstallError::Locked {
                        path: p.to_path_buf(),
                    });
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(io(p, "locking", e.into())),
        }
    }
}

#[cfg(not(unix))]
fn lock_file(_f: &fs::File, _p: &Path, _wait: Duration) -> Result<(), InstallError> {
    // No advisory lock here; the atomic rename still never leaves a torn file.
    Ok(())
}
