//! Safe file replacement: an advisory lock around every read-modify-write,
//! atomic writes (temp file in the same directory as the file written,
//! created with the original's mode, fsync, rename, fsync of the
//! directory) and a backup of the previous version.
//!
//! What is never done to a file that is there:
//! - **replace a symlink**: writes go through the link to the file it
//!   points at (in that file's directory), so a dotfiles link stays a link;
//! - **block on it**: it is opened non-blocking and must be a regular file
//!   (a FIFO, device or directory is refused), at most [`MAX_FILE_BYTES`];
//! - **rewrite it silently when it is read-only, has other hard links, or
//!   belongs to another user**: refused unless forced ([`check_writable`]);
//! - **lose a concurrent write**: just before the rename the file is read
//!   again and compared with what the merge started from; if another
//!   program (the agent itself) wrote it meanwhile, [`replace`] reports it
//!   and the caller merges again.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::InstallError;

/// Environment variable (tests only): milliseconds to sleep between writing
/// and syncing the temp file and renaming it over the target, so a test can
/// kill the process in that window and check the old file is intact.
pub const TEST_DELAY_ENV: &str = "AGENTHOOKS_INSTALL_TEST_DELAY_MS";

/// Suffix of the backups older versions kept beside a replaced file
/// (`doctor` still skips such files).
pub const BACKUP_SUFFIX: &str = ".agenthooks.bak";

/// The largest file read (8 MiB): every agent config is far smaller; a
/// bigger one is refused rather than read whole into memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// Symlinks followed from one path before giving up (a loop).
const MAX_LINKS: usize = 40;

fn io(path: &Path, what: &str, e: std::io::Error) -> InstallError {
    InstallError::Io {
        path: path.to_path_buf(),
        message: format!("{what}: {e}"),
    }
}

fn refused(path: &Path, message: String) -> InstallError {
    InstallError::Refused {
        path: path.to_path_buf(),
        message,
    }
}

/// What kind of file a non-regular file is, for messages.
#[cfg(unix)]
fn kind_name(ft: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_char_device() || ft.is_block_device() {
        "a device"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn kind_name(ft: fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Opens an existing file for reading, never blocking (`O_NONBLOCK`: a
/// FIFO opens at once), and checks it is a regular file. `None` when it
/// does not exist.
fn open_regular(path: &Path) -> Result<Option<(fs::File, fs::Metadata)>, InstallError> {
    let mut o = fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags((rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::CLOEXEC).bits() as i32);
    }
    let f = match o.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            // A directory cannot be opened on some systems: say what it is.
            if let Ok(m) = fs::metadata(path) {
                if !m.is_file() {
                    return Err(not_regular(path, m.file_type()));
                }
            }
            return Err(io(path, "opening", e));
        }
    };
    let md = f
        .metadata()
        .map_err(|e| io(path, "reading the metadata", e))?;
    if !md.is_file() {
        return Err(not_regular(path, md.file_type()));
    }
    Ok(Some((f, md)))
}

fn not_regular(path: &Path, ft: fs::FileType) -> InstallError {
    refused(
        path,
        format!(
            "not a regular file ({}); it was left untouched",
            kind_name(ft)
        ),
    )
}

/// Reads a file (at most [`MAX_FILE_BYTES`]); `None` when it does not
/// exist. Never blocks on a FIFO; refuses anything but a regular file.
pub fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, InstallError> {
    Ok(read_with_meta(path)?.map(|(b, _)| b))
}

fn read_with_meta(path: &Path) -> Result<Option<(Vec<u8>, fs::Metadata)>, InstallError> {
    let Some((f, md)) = open_regular(path)? else {
        return Ok(None);
    };
    let too_large = |n: u64| {
        refused(
            path,
            format!(
                "too large ({n} bytes; a config file is at most {MAX_FILE_BYTES} bytes); it was left untouched"
            ),
        )
    };
    if md.len() > MAX_FILE_BYTES {
        return Err(too_large(md.len()));
    }
    let mut buf = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io(path, "reading", e))?;
    if buf.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(buf.len() as u64));
    }
    Ok(Some((buf, md)))
}

/// Reads a text file; `None` when it does not exist (see [`read_bytes`]).
pub fn read_opt(path: &Path) -> Result<Option<String>, InstallError> {
    match read_bytes(path)? {
        Some(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|e| InstallError::Parse {
                path: path.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
            }),
        None => Ok(None),
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

/// The file a write to `path` lands in: `path` itself, or where its chain
/// of symlinks ends (that file need not exist yet), absolute, with the
/// symlinks of its directories resolved.
pub fn real_path(path: &Path) -> Result<PathBuf, InstallError> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let (Some(dir), Some(name)) = (p.parent(), p.file_name()) else {
            return Err(refused(path, "is not a file path".into()));
        };
        let dir = absolute(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        });
        let here = dir.join(name);
        match fs::symlink_metadata(&here) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&here).map_err(|e| io(&here, "reading the symlink", e))?;
                p = dir.join(to);
            }
            _ => return Ok(here),
        }
    }
    Err(refused(
        path,
        "too many levels of symbolic links; it was left untouched".into(),
    ))
}

/// Whether `path` itself is a symlink.
pub fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Checks a project file really is in the project: its symlinks (of the
/// file or of a directory on the way) must not lead outside `project`, or
/// a cloned repository could make a project install write (and back up,
/// and show in a diff) any file of the user's.
pub fn check_inside(path: &Path, project: &Path) -> Result<PathBuf, InstallError> {
    let real = real_path(path)?;
    let root = absolute(project);
    if !real.starts_with(&root) {
        return Err(refused(
            path,
            format!(
                "leads outside the project (to {}) through a symlink; a project install writes only inside {} (it was left untouched)",
                real.display(),
                root.display()
            ),
        ));
    }
    Ok(real)
}

/// Refuses to replace an existing file that is read-only, has other hard
/// links, or belongs to another user — unless `force`.
pub fn check_writable(path: &Path, real: &Path, force: bool) -> Result<(), InstallError> {
    let Some((_, md)) = open_regular(real)? else {
        return Ok(());
    };
    if force {
        return Ok(());
    }
    check_meta(path, &md)
}

#[cfg(unix)]
fn check_meta(path: &Path, md: &fs::Metadata) -> Result<(), InstallError> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    if md.uid() != me {
        return Err(refused(
            path,
            format!(
                "owned by uid {}, not by you (uid {me}); it was left untouched (pass --force to write it anyway)",
                md.uid()
            ),
        ));
    }
    if md.mode() & 0o200 == 0 {
        return Err(refused(
            path,
            format!(
                "is read-only (mode {:04o}); it was left untouched (make it writable, or pass --force to write it anyway, keeping its mode)",
                md.mode() & 0o7777
            ),
        ));
    }
    if md.nlink() > 1 {
        return Err(refused(
            path,
            format!(
                "has {} hard links; replacing it would leave the other names with the old content, so it was left untouched (pass --force to write it anyway)",
                md.nlink()
            ),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_meta(path: &Path, md: &fs::Metadata) -> Result<(), InstallError> {
    if md.permissions().readonly() {
        return Err(refused(
            path,
            "is read-only; it was left untouched (make it writable, or pass --force)".into(),
        ));
    }
    Ok(())
}

/// Replaces `path` with `after` atomically (`None` removes it), keeping
/// the previous version as a backup, provided the file still holds exactly
/// `before` (what the merge started from; `None`: absent). Returns
/// `Ok(false)`, having written nothing, when it does not: another program
/// wrote it meanwhile, and the caller must merge again.
///
/// A symlink is written through (the link stays); removing a symlinked
/// JSON file leaves an empty object in its target, and any other
/// symlinked file is unlinked, its target kept.
pub fn replace(
    path: &Path,
    before: Option<&str>,
    after: Option<&str>,
    force: bool,
) -> Result<bool, InstallError> {
    let real = real_path(path)?;
    let current = read_with_meta(&real)?;
    let (now, md) = match current {
        Some((b, m)) => (Some(b), Some(m)),
        None => (None, None),
    };
    if now.as_deref() != before.map(str::as_bytes) {
        return Ok(false);
    }
    if let Some(md) = &md {
        if !force {
            check_meta(path, md)?;
        }
    }
    if let Some(old) = &now {
        backup(path, &real, old)?;
    }
    let unchanged = || -> Result<bool, InstallError> {
        Ok(read_bytes(&real)?.as_deref() == before.map(str::as_bytes))
    };
    let dir = real.parent().unwrap_or(Path::new("."));
    match after {
        Some(c) => {
            fs::create_dir_all(dir).map_err(|e| io(dir, "creating the directory", e))?;
            write_atomic(&real, c.as_bytes(), md.as_ref(), &unchanged)
        }
        None if is_symlink(path) => {
            let json = path.extension().is_some_and(|e| e == "json");
            if json && now.is_some() {
                write_atomic(&real, b"{}\n", md.as_ref(), &unchanged)
            } else {
                if !unchanged()? {
                    return Ok(false);
                }
                fs::remove_file(path).map_err(|e| io(path, "removing the symlink", e))?;
                Ok(true)
            }
        }
        None => {
            if now.is_some() {
                if !unchanged()? {
                    return Ok(false);
                }
                fs::remove_file(&real).map_err(|e| io(&real, "removing", e))?;
                sync_dir(dir);
            }
            Ok(true)
        }
    }
}

/// Subdirectory of the private state root ([`crate::state`]) holding
/// backups: never beside the file, where a project's backup would be
/// committed by `git add -A`, and never readable by anyone else (mode
/// 0600 in a 0700 directory).
pub const BACKUP_DIR: &str = "backups";

/// The index of `BACKUP_DIR`: backup name → the file it is the previous
/// version of.
pub const BACKUP_INDEX: &str = "index.json";

fn backup_dir() -> Result<crate::state::StateDir, InstallError> {
    crate::state::root()
        .and_then(|r| r.subdir(BACKUP_DIR))
        .map_err(state_err)
}

/// The backup's name for a file: a hash of its absolute path (after
/// symlinks) and its name, e.g. `3f9a…-settings.json`.
pub fn backup_name(real: &Path) -> String {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(real.to_string_lossy().as_bytes());
    let hex: String = h.iter().take(12).map(|b| format!("{b:02x}")).collect();
    let name: String = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{hex}-{name}")
}

/// Where the previous version of `path` is (or would be) kept.
pub fn backup_path(path: &Path) -> Result<PathBuf, InstallError> {
    Ok(backup_dir()?.path().join(backup_name(&real_path(path)?)))
}

/// One backup of the index.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Backup {
    /// The file as the install named it (a symlink stays named).
    pub path: PathBuf,
    /// The file written (where the symlinks lead).
    pub file: PathBuf,
    /// The backup.
    pub backup: PathBuf,
    /// When it was saved (seconds since the Unix epoch).
    pub saved: u64,
}

fn read_index(dir: &crate::state::StateDir) -> serde_json::Map<String, serde_json::Value> {
    dir.read(BACKUP_INDEX, 4 << 20)
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| match v {
            serde_json::Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default()
}

/// Every backup the index knows, newest first.
pub fn backups() -> Result<Vec<Backup>, InstallError> {
    let dir = backup_dir()?;
    let mut out: Vec<Backup> = read_index(&dir)
        .into_iter()
        .map(|(name, v)| Backup {
            path: PathBuf::from(v["path"].as_str().unwrap_or("")),
            file: PathBuf::from(v["file"].as_str().unwrap_or("")),
            backup: dir.path().join(&name),
            saved: v["saved"].as_u64().unwrap_or(0),
        })
        .collect();
    out.sort_by(|a, b| b.saved.cmp(&a.saved).then(a.path.cmp(&b.path)));
    Ok(out)
}

/// Keeps `old` (the content of `real`, reached through `path`) as its
/// backup in the state root, and indexes it.
fn backup(path: &Path, real: &Path, old: &[u8]) -> Result<(), InstallError> {
    let dir = backup_dir()?;
    let name = backup_name(real);
    dir.write_replace(&name, old).map_err(state_err)?;
    let lock = dir.open_lock("index.lock").map_err(state_err)?;
    lock_file(
        &lock,
        &dir.path().join("index.lock"),
        Duration::from_secs(30),
    )?;
    let mut index = read_index(&dir);
    let saved = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    index.insert(
        name,
        serde_json::json!({"path": absolute_link(path), "file": real, "saved": saved}),
    );
    let text = serde_json::to_string_pretty(&serde_json::Value::Object(index)).unwrap_or_default();
    dir.write_replace(BACKUP_INDEX, text.as_bytes())
        .map_err(state_err)
}

/// `path` made absolute without resolving its own last symlink.
fn absolute_link(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(d), Some(n)) if !d.as_os_str().is_empty() => absolute(d).join(n),
        (_, Some(n)) => absolute(Path::new(".")).join(n),
        _ => path.to_path_buf(),
    }
}

/// Puts the backup of `path` back (the current version becomes the
/// backup), under the install lock, with every check of [`replace`].
/// Returns the backup used.
pub fn restore(path: &Path, force: bool) -> Result<PathBuf, InstallError> {
    let _locks = lock_all(&[path.to_path_buf()], Duration::from_secs(30))?;
    let dir = backup_dir()?;
    let real = real_path(path)?;
    let name = backup_name(&real);
    let bpath = dir.path().join(&name);
    let old = dir
        .read(&name, MAX_FILE_BYTES as usize)
        .map_err(state_err)?
        .ok_or_else(|| {
            refused(
                path,
                format!("has no backup ({} does not exist)", bpath.display()),
            )
        })?;
    let old = String::from_utf8(old).map_err(|_| refused(&bpath, "is not UTF-8".into()))?;
    for _ in 0..super::MAX_ATTEMPTS {
        let now = read_opt(&real)?;
        if replace(path, now.as_deref(), Some(&old), force)? {
            return Ok(bpath);
        }
    }
    Err(InstallError::Changed {
        path: path.to_path_buf(),
        attempts: super::MAX_ATTEMPTS,
    })
}

/// Creates a new file for writing, never following a symlink and never
/// reusing an existing file, with `like`'s mode (and group, and owner when
/// we may) from the first instant: never more readable than the original.
fn create_like(p: &Path, like: Option<&fs::Metadata>) -> std::io::Result<fs::File> {
    let mut o = fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        o.custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::CLOEXEC).bits() as i32);
        if let Some(m) = like {
            o.mode(m.mode() & 0o777);
        }
    }
    let f = o.open(p)?;
    #[cfg(unix)]
    if let Some(m) = like {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // Owner and group first (nothing written yet), then the exact mode
        // (the umask may have narrowed it; widening back to the original's
        // own mode exposes nothing the original does not).
        let fm = f.metadata()?;
        if fm.uid() != m.uid() || fm.gid() != m.gid() {
            let uid =
                (rustix::process::geteuid().is_root() && fm.uid() != m.uid()).then(|| m.uid());
            let gid = (fm.gid() != m.gid()).then(|| m.gid());
            // Only root may give a file away; a group we are not in is
            // refused: the file then keeps ours, never a wider mode.
            let _ = std::os::unix::fs::fchown(&f, uid, gid);
        }
        f.set_permissions(fs::Permissions::from_mode(m.mode() & 0o777))?;
    }
    Ok(f)
}

fn write_atomic(
    path: &Path,
    bytes: &[u8],
    like: Option<&fs::Metadata>,
    unchanged: &dyn Fn() -> Result<bool, InstallError>,
) -> Result<bool, InstallError> {
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
        let mut f = create_like(&tmp, like).map_err(|e| io(&tmp, "creating the temp file", e))?;
        f.write_all(bytes)
            .map_err(|e| io(&tmp, "writing the temp file", e))?;
        f.sync_all()
            .map_err(|e| io(&tmp, "syncing the temp file", e))?;
        drop(f);
        if let Some(ms) = std::env::var(TEST_DELAY_ENV)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            std::thread::sleep(Duration::from_millis(ms));
        }
        // The last look before the rename: a write by another program
        // since the merge read the file must not be lost.
        if !unchanged()? {
            return Ok(false);
        }
        fs::rename(&tmp, path).map_err(|e| io(path, "renaming the temp file over", e))?;
        sync_dir(dir);
        Ok(true)
    })();
    if !matches!(result, Ok(true)) {
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
