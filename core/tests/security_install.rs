//! Attacks on `install` / `uninstall` (issue 11 §3, §4 and the hostile-file
//! pass): every test performs the attack and checks the install kept what
//! it must keep, leaked nothing and never hung.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agenthooks::Provider;
use agenthooks::install::{self, Manifest, Scope, Target, fsio, jsonc};

/// Every test of this binary records into one private state root of its
/// own, never the developer's `~/.local/state`.
fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let d = std::env::temp_dir().join(format!("ah-sec-install-state-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        // SAFETY: set once, before any test of this binary reads it (every
        // test calls `init` first; `Once` blocks them until it is done).
        unsafe { std::env::set_var("AGENTHOOKS_STATE_DIR", &d) };
    });
}

fn state_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("AGENTHOOKS_STATE_DIR").unwrap())
}

fn tempdir(tag: &str) -> PathBuf {
    init();
    let d = std::env::temp_dir().join(format!("ah-sec-install-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(d.join("home/.claude")).unwrap();
    fs::create_dir_all(d.join("project")).unwrap();
    d
}

fn manifest(id: &str) -> Manifest {
    Manifest::from_toml(&format!(
        "id = \"{id}\"\nprogram = \"/opt/{id}/hook\"\n\n[[hooks]]\nkind = \"tool.pre\"\nmatch = \"shell\"\n"
    ))
    .unwrap()
}

fn claude_user(home: &Path) -> Target {
    Target::new(Provider::ClaudeCode, Scope::User, home, home)
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(d) else { return };
    for e in rd.flatten() {
        let p = e.path();
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn files_under(d: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    walk(d, &mut v);
    v.sort();
    v
}

const SETTINGS: &str = "{\n  \"model\": \"opus\"\n}\n";

// ------------------------------------------------------------ §3 backups

/// A 0600 `config.toml` holding a token: no copy of it the install makes
/// (backup, temp file) may be readable by anyone else, wherever it is kept.
#[test]
fn backup_of_a_private_file_is_not_world_readable() {
    let d = tempdir("bakmode");
    let home = d.join("home");
    let codex = home.join(".codex");
    fs::create_dir_all(&codex).unwrap();
    let cfg = codex.join("config.toml");
    let secret = "model = \"gpt\"\n[auth]\ntoken = \"sk-SECRET-TOKEN-1234\"\n";
    fs::write(&cfg, secret).unwrap();
    fs::set_permissions(&cfg, fs::Permissions::from_mode(0o600)).unwrap();
    let t = Target::new(Provider::Codex, Scope::User, &home, &home);
    install::install(&manifest("guard"), &t).unwrap();
    assert!(
        fs::read_to_string(&cfg)
            .unwrap()
            .contains("sk-SECRET-TOKEN-1234")
    );
    assert_eq!(mode(&cfg), 0o600, "the config keeps its mode");
    let mut copies = 0;
    for root in [d.clone(), state_dir()] {
        for f in files_under(&root) {
            let Ok(text) = fs::read_to_string(&f) else {
                continue;
            };
            if text.contains("sk-SECRET-TOKEN-1234") {
                copies += 1;
                assert_eq!(
                    mode(&f) & 0o077,
                    0,
                    "{} holds the token and is readable by others ({:o})",
                    f.display(),
                    mode(&f)
                );
            }
        }
    }
    assert!(copies >= 2, "the config and its backup hold the token");
    let _ = fs::remove_dir_all(&d);
}

/// Installing (twice, so the project file has a previous version) and
/// uninstalling into a project leaves no file in the project but the
/// agent's config: no backup `git add -A` would commit.
#[test]
fn project_install_leaves_no_backup_in_the_project() {
    let d = tempdir("bakproj");
    let home = d.join("home");
    let proj = d.join("project");
    fs::create_dir_all(proj.join(".claude")).unwrap();
    let local = proj.join(".claude/settings.local.json");
    fs::write(&local, SETTINGS).unwrap();
    let t = Target::new(Provider::ClaudeCode, Scope::Local, &home, &proj);
    install::install(&manifest("guard"), &t).unwrap();
    let mut m2 = manifest("guard");
    m2.hooks[0].timeout = Some(12);
    install::install(&m2, &t).unwrap();
    assert_eq!(files_under(&proj), vec![local.clone()]);
    install::uninstall(&m2, &t).unwrap();
    assert_eq!(files_under(&proj), vec![local.clone()]);
    assert_eq!(fs::read_to_string(&local).unwrap(), SETTINGS);
    let _ = fs::remove_dir_all(&d);
}

// ------------------------------------------------------------ §4 keep what is there

/// A dotfiles-managed `settings.json` is a symlink: install writes through
/// it (the link stays a link, the target gets the hooks), and uninstall
/// gives the target back byte for byte, still through the link.
#[test]
fn symlinked_settings_stay_a_symlink() {
    let d = tempdir("symlink");
    let home = d.join("home");
    let dots = home.join("dotfiles");
    fs::create_dir_all(&dots).unwrap();
    let real = dots.join("claude-settings.json");
    fs::write(&real, SETTINGS).unwrap();
    let link = home.join(".claude/settings.json");
    symlink("../dotfiles/claude-settings.json", &link).unwrap();
    let t = claude_user(&home);
    install::install(&manifest("guard"), &t).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a regular file"
    );
    assert_eq!(
        fs::read_link(&link).unwrap(),
        PathBuf::from("../dotfiles/claude-settings.json")
    );
    assert!(
        fs::read_to_string(&real)
            .unwrap()
            .contains("--hook-id=guard:")
    );
    // Nothing was left in the dotfiles directory but the file itself.
    assert_eq!(files_under(&dots), vec![real.clone()]);
    install::uninstall(&manifest("guard"), &t).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), SETTINGS);
    let _ = fs::remove_dir_all(&d);
}

/// A read-only (0444) settings file is refused, with an error naming the
/// file, and left untouched.
#[test]
fn read_only_file_is_refused() {
    let d = tempdir("ro");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::write(&p, SETTINGS).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
    let err = install::install(&manifest("guard"), &claude_user(&home))
        .expect_err("a read-only file must not be rewritten");
    let msg = err.to_string();
    assert!(msg.contains(&p.display().to_string()), "{msg}");
    assert!(msg.contains("read-only"), "{msg}");
    assert!(msg.contains("--force"), "{msg}");
    assert_eq!(fs::read_to_string(&p).unwrap(), SETTINGS);
    assert_eq!(mode(&p), 0o444);
    let _ = fs::remove_dir_all(&d);
}

/// With `force`, a read-only file is written and keeps its mode.
#[test]
fn read_only_file_is_written_when_forced() {
    let d = tempdir("roforce");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::write(&p, SETTINGS).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
    let mut t = claude_user(&home);
    t.force = true;
    install::install(&manifest("guard"), &t).unwrap();
    assert!(fs::read_to_string(&p).unwrap().contains("--hook-id=guard:"));
    assert_eq!(mode(&p), 0o444);
    let _ = fs::remove_dir_all(&d);
}

/// A file with another hard link is refused (replacing it would split the
/// links: the other name would keep the old content), unless forced.
#[test]
fn hard_linked_file_is_refused() {
    let d = tempdir("hardlink");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::write(&p, SETTINGS).unwrap();
    let other = home.join("settings-copy.json");
    fs::hard_link(&p, &other).unwrap();
    let err = install::install(&manifest("guard"), &claude_user(&home)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains(&p.display().to_string()), "{msg}");
    assert!(msg.contains("hard link"), "{msg}");
    assert_eq!(fs::read_to_string(&p).unwrap(), SETTINGS);
    assert_eq!(fs::metadata(&p).unwrap().nlink(), 2);
    let _ = fs::remove_dir_all(&d);
}

/// Child-process mode: installs `AH_SEC_CHILD_ID` into `AH_SEC_CHILD_HOME`.
#[test]
fn child_install() {
    let (Ok(home), Ok(id)) = (
        std::env::var("AH_SEC_CHILD_HOME"),
        std::env::var("AH_SEC_CHILD_ID"),
    ) else {
        return; // not a child run
    };
    init();
    match install::install(&manifest(&id), &claude_user(Path::new(&home))) {
        Ok(_) => {}
        Err(e) => {
            eprintln!("child install failed: {e}");
            std::process::exit(3);
        }
    }
}

/// The agent writes its own settings while an install is between reading
/// the file and renaming its new version over it: the install notices,
/// merges again, and the agent's write is not lost.
#[test]
fn a_concurrent_write_by_the_agent_is_not_lost() {
    let d = tempdir("concurrent");
    let home = d.join("home");
    let dir = home.join(".claude");
    let p = dir.join("settings.json");
    fs::write(&p, SETTINGS).unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_install",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("AH_SEC_CHILD_HOME", &home)
        .env("AH_SEC_CHILD_ID", "racer")
        .env(fsio::TEST_DELAY_ENV, "1500")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the child's new version is written (and waiting to be
    // renamed), then write as the agent would.
    let start = Instant::now();
    loop {
        let tmp = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains("agenthooks-tmp"));
        if tmp {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no temp file");
        assert!(child.try_wait().unwrap().is_none(), "child finished early");
        std::thread::sleep(Duration::from_millis(10));
    }
    fs::write(&p, "{\n  \"model\": \"opus\",\n  \"theme\": \"dark\"\n}\n").unwrap();
    let st = child.wait().unwrap();
    assert!(st.success(), "{st:?}");
    let text = fs::read_to_string(&p).unwrap();
    let v = jsonc::parse(&text).unwrap().value;
    assert_eq!(v["theme"], "dark", "the agent's write was lost:\n{text}");
    assert!(text.contains("--hook-id=racer:tool.pre"), "{text}");
    let _ = fs::remove_dir_all(&d);
}

// ------------------------------------------------------------ hostile files

/// Runs `f` on another thread; fails if it does not return in `secs`.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .expect("hung: did not return in time")
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success());
}

/// A FIFO where the settings file should be: install (and plan) fail at
/// once with an error naming it, instead of blocking forever on open.
#[test]
fn fifo_instead_of_settings_does_not_hang() {
    let d = tempdir("fifo");
    let proj = d.join("project");
    fs::create_dir_all(proj.join(".claude")).unwrap();
    let p = proj.join(".claude/settings.json");
    mkfifo(&p);
    let t = Target::new(Provider::ClaudeCode, Scope::Project, &d.join("home"), &proj);
    let msg = within(10, move || {
        install::install(&manifest("guard"), &t)
            .expect_err("a FIFO is not a settings file")
            .to_string()
    });
    assert!(msg.contains("not a regular file"), "{msg}");
    assert!(fs::symlink_metadata(&p).unwrap().file_type().is_fifo());
    let _ = fs::remove_dir_all(&d);
}

use std::os::unix::fs::FileTypeExt;

/// A directory where the settings file should be: a clear error.
#[test]
fn directory_instead_of_settings_is_refused() {
    let d = tempdir("dirfile");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::create_dir_all(&p).unwrap();
    let msg = within(10, move || {
        install::install(&manifest("guard"), &claude_user(&home))
            .unwrap_err()
            .to_string()
    });
    assert!(msg.contains("settings.json"), "{msg}");
    assert!(msg.contains("not a regular file"), "{msg}");
    assert!(p.is_dir());
    let _ = fs::remove_dir_all(&d);
}

/// A settings file far larger than any config (here 32 MiB of blanks
/// around `{}`) is refused rather than read whole into memory.
#[test]
fn huge_file_is_refused() {
    let d = tempdir("huge");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    let mut big = vec![b' '; 32 << 20];
    big[0] = b'{';
    let n = big.len();
    big[n - 1] = b'}';
    fs::write(&p, &big).unwrap();
    let err = install::install(&manifest("guard"), &claude_user(&home)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("too large"), "{msg}");
    assert_eq!(fs::metadata(&p).unwrap().len(), n as u64);
    let _ = fs::remove_dir_all(&d);
}

/// Deeply nested JSON and TOML are parse errors, not stack overflows.
#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let d = tempdir("deep");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    fs::write(&p, &deep).unwrap();
    let err = install::install(&manifest("guard"), &claude_user(&home)).unwrap_err();
    assert!(err.to_string().contains("left untouched"), "{err}");
    let kimi = home.join(".kimi-code");
    fs::create_dir_all(&kimi).unwrap();
    let deep_toml = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    fs::write(kimi.join("config.toml"), &deep_toml).unwrap();
    let t = Target::new(Provider::KimiCode, Scope::User, &home, &home);
    let err = install::install(&manifest("guard"), &t).unwrap_err();
    assert!(err.to_string().contains("left untouched"), "{err}");
    assert_eq!(
        fs::read_to_string(kimi.join("config.toml")).unwrap(),
        deep_toml
    );
    let _ = fs::remove_dir_all(&d);
}

/// A cloned project whose `.claude/settings.json` is a symlink to a file
/// outside the project (here the user's private config): a project
/// install refuses it, leaves the target untouched and copies none of it
/// into the project.
#[test]
fn project_symlink_pointing_outside_is_refused() {
    let d = tempdir("symout");
    let home = d.join("home");
    let proj = d.join("project");
    fs::create_dir_all(proj.join(".claude")).unwrap();
    let secret = home.join("private.json");
    let secret_text = "{\n  \"token\": \"sk-PRIVATE-999\"\n}\n";
    fs::write(&secret, secret_text).unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    let link = proj.join(".claude/settings.json");
    symlink(&secret, &link).unwrap();
    let t = Target::new(Provider::ClaudeCode, Scope::Project, &home, &proj);
    let err = install::install(&manifest("guard"), &t).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains(&link.display().to_string()), "{msg}");
    assert!(msg.contains("outside the project"), "{msg}");
    assert_eq!(fs::read_to_string(&secret).unwrap(), secret_text);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    for f in files_under(&proj) {
        if fs::symlink_metadata(&f).unwrap().file_type().is_symlink() {
            continue;
        }
        if let Ok(t) = fs::read_to_string(&f) {
            assert!(
                !t.contains("sk-PRIVATE-999"),
                "{} copies the secret",
                f.display()
            );
        }
    }
    // A directory symlink to outside is the same attack.
    fs::remove_file(&link).unwrap();
    fs::remove_dir(proj.join(".claude")).unwrap();
    let outside = home.join("elsewhere");
    fs::create_dir_all(&outside).unwrap();
    symlink(&outside, proj.join(".claude")).unwrap();
    let err = install::install(&manifest("guard"), &t).unwrap_err();
    assert!(err.to_string().contains("outside the project"), "{err}");
    assert!(files_under(&outside).is_empty());
    let _ = fs::remove_dir_all(&d);
}

/// A settings file owned by another user (a shared or hostile checkout) is
/// refused unless forced. Needs root to create such a file.
#[test]
fn file_owned_by_another_user_is_refused() {
    let d = tempdir("owner");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::write(&p, SETTINGS).unwrap();
    let uid = fs::metadata(&d).unwrap().uid();
    if uid != 0 {
        eprintln!("SKIPPED: needs root to give a file to another user");
        return;
    }
    std::os::unix::fs::chown(&p, Some(65534), Some(65534)).unwrap();
    let err = install::install(&manifest("guard"), &claude_user(&home)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains(&p.display().to_string()), "{msg}");
    assert!(msg.contains("owned by uid 65534"), "{msg}");
    assert_eq!(fs::read_to_string(&p).unwrap(), SETTINGS);
    assert_eq!(fs::metadata(&p).unwrap().uid(), 65534);
    let _ = fs::remove_dir_all(&d);
}

// ------------------------------------------------------------ the manifest

/// A relative `program` path would run whatever file sits at that path in
/// the directory the agent runs the hook from (a cloned repo's own
/// `./hook`): refused.
#[test]
fn relative_program_path_is_refused() {
    for prog in ["./hook", "bin/hook", "../x/hook"] {
        let err = Manifest::from_toml(&format!(
            "id = \"g\"\nprogram = \"{prog}\"\n[[hooks]]\nkind = \"tool.pre\"\n"
        ))
        .unwrap_err();
        assert!(err.to_string().contains("absolute"), "{prog}: {err}");
    }
    // A bare name (looked up on PATH) and an absolute path are fine.
    for prog in ["guard", "/usr/local/bin/guard"] {
        Manifest::from_toml(&format!(
            "id = \"g\"\nprogram = \"{prog}\"\n[[hooks]]\nkind = \"tool.pre\"\n"
        ))
        .unwrap();
    }
}

/// Control characters (NUL, newline, ...) in the program or its arguments
/// are refused: a C agent would cut the command at a NUL, and a newline
/// splits a shell command line in two.
#[test]
fn control_characters_in_program_or_args_are_refused() {
    for (prog, args) in [
        ("/bin/guard\\u0000; rm -rf ~", "[]"),
        ("/bin/guard\\nrm -rf ~", "[]"),
        ("/bin/guard", "[\"--x\\r\"]"),
    ] {
        let err = Manifest::from_toml(&format!(
            "id = \"g\"\nprogram = \"{prog}\"\nargs = {args}\n[[hooks]]\nkind = \"tool.pre\"\n"
        ))
        .unwrap_err();
        assert!(
            err.to_string().contains("control character"),
            "{prog}: {err}"
        );
    }
}

/// Shell metacharacters in the program path and arguments reach the
/// program as exactly those bytes, for every agent whose config holds a
/// shell command line (each run the way the agent runs it: `sh -c`).
#[test]
fn shell_metacharacters_are_quoted_for_every_agent() {
    let d = tempdir("quote");
    let home = d.join("home");
    let proj = d.join("project");
    let odd = d.join("dir with 'quotes' $HOME `id` ; & | > <");
    fs::create_dir_all(&odd).unwrap();
    let prog = odd.join("hook \"x\" $(id)");
    let log = d.join("argv.log");
    fs::write(
        &prog,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{}'\ncat >/dev/null\nexit 0\n",
            log.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&prog, fs::Permissions::from_mode(0o755)).unwrap();
    let arg = "a'b\"c $HOME `id` $(id) \\ * ? ~ # ! {x,y}";
    let m = Manifest::from_json(
        &serde_json::json!({
            "id": "q",
            "program": prog.to_str().unwrap(),
            "args": [arg],
            "hooks": [{"kind": "tool.pre"}],
        })
        .to_string(),
    )
    .unwrap();
    for agent in [
        Provider::ClaudeCode,
        Provider::Codex,
        Provider::Gemini,
        Provider::KimiCode,
        Provider::Copilot,
    ] {
        let t = Target::new(agent, Scope::User, &home, &proj);
        let plan = install::install(&m, &t).unwrap();
        let file = &plan.changes[0].path;
        let es = install::doctor::entries(file).unwrap();
        let e = es
            .iter()
            .find(|e| e.hook_id.as_deref() == Some("q:tool.pre"))
            .unwrap_or_else(|| panic!("{agent:?}: no entry in {}", file.display()));
        let _ = fs::remove_file(&log);
        let st = Command::new("sh")
            .arg("-c")
            .arg(&e.command)
            .stdin(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(st.success(), "{agent:?}: {}", e.command);
        let got = fs::read_to_string(&log).unwrap();
        let first: Vec<&str> = got.lines().take(3).collect();
        assert_eq!(
            first,
            vec![arg, "agenthooks", "run"],
            "{agent:?}: {}",
            e.command
        );
    }
    let _ = fs::remove_dir_all(&d);
}

/// A cloned project's settings file with the `hooks` key twice: the agent
/// (JSON.parse) reads the last one, so a hook merged into the first would
/// be silently dead while install reports success. Either the install
/// refuses the file, or the hook is where the agent will read it.
#[test]
fn duplicate_keys_cannot_hide_the_installed_hook() {
    let d = tempdir("dupkey");
    let proj = d.join("project");
    fs::create_dir_all(proj.join(".claude")).unwrap();
    let p = proj.join(".claude/settings.json");
    let text = "{\n  \"hooks\": {},\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": []}\n}\n";
    fs::write(&p, text).unwrap();
    let t = Target::new(Provider::ClaudeCode, Scope::Project, &d.join("home"), &proj);
    match install::install(&manifest("guard"), &t) {
        Ok(_) => {
            // serde_json keeps the last duplicate, as the agents do.
            let v: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
            let cmd = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str();
            assert!(
                cmd.is_some_and(|c| c.contains("--hook-id=guard:")),
                "install reported success but the agent sees no hook:\n{}",
                fs::read_to_string(&p).unwrap()
            );
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("duplicate key `hooks`"), "{msg}");
            assert_eq!(fs::read_to_string(&p).unwrap(), text);
        }
    }
    let _ = fs::remove_dir_all(&d);
}

/// A symlink loop where a settings file should be: an error, not a hang.
#[test]
fn symlink_loop_is_an_error() {
    let d = tempdir("loop");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    symlink("settings.json", &p).unwrap();
    let msg = within(10, move || {
        install::install(&manifest("guard"), &claude_user(&home))
            .unwrap_err()
            .to_string()
    });
    assert!(msg.contains("settings.json"), "{msg}");
    let _ = fs::remove_dir_all(&d);
}

/// The backup is found again through the index: `restore` puts the
/// previous version back (through a symlink, keeping it), and the version
/// it replaced becomes the backup.
#[test]
fn backups_are_indexed_and_restored() {
    let d = tempdir("restore");
    let home = d.join("home");
    let dots = home.join("dotfiles");
    fs::create_dir_all(&dots).unwrap();
    let real = dots.join("settings.json");
    fs::write(&real, SETTINGS).unwrap();
    let link = home.join(".claude/settings.json");
    symlink(&real, &link).unwrap();
    install::install(&manifest("guard"), &claude_user(&home)).unwrap();
    let installed = fs::read_to_string(&real).unwrap();
    let list = fsio::backups().unwrap();
    let b = list
        .iter()
        .find(|b| b.path == link)
        .unwrap_or_else(|| panic!("{link:?} not in {list:?}"));
    assert_eq!(
        fs::canonicalize(&b.file).unwrap(),
        fs::canonicalize(&real).unwrap()
    );
    assert_eq!(fs::read_to_string(&b.backup).unwrap(), SETTINGS);
    assert_eq!(mode(&b.backup), 0o600);
    assert!(b.backup.starts_with(state_dir()));
    fsio::restore(&link, false).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), SETTINGS);
    assert_eq!(
        fs::read_to_string(fsio::backup_path(&link).unwrap()).unwrap(),
        installed
    );
    let _ = fs::remove_dir_all(&d);
}

/// Forced onto another user's 0640 file (root only), the install keeps the
/// file's owner, group and mode: the new version is not root's, and is
/// never readable by more people than the old one.
#[test]
fn forced_write_keeps_owner_group_and_mode() {
    let d = tempdir("keepowner");
    let home = d.join("home");
    let p = home.join(".claude/settings.json");
    fs::write(&p, SETTINGS).unwrap();
    if fs::metadata(&d).unwrap().uid() != 0 {
        eprintln!("SKIPPED: needs root to give a file to another user");
        return;
    }
    std::os::unix::fs::chown(&p, Some(65534), Some(65534)).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
    let mut t = claude_user(&home);
    t.force = true;
    install::install(&manifest("guard"), &t).unwrap();
    let m = fs::metadata(&p).unwrap();
    assert!(fs::read_to_string(&p).unwrap().contains("--hook-id=guard:"));
    assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (65534, 65534, 0o640));
    let _ = fs::remove_dir_all(&d);
}
