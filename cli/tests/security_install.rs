//! Attacks on `agenthooks doctor` (issue 11 §2): a command in a file the
//! user did not write through `agenthooks install` is never run.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agenthooks");

struct Env {
    root: PathBuf,
    home: PathBuf,
    project: PathBuf,
}

impl Env {
    fn new(tag: &str) -> Env {
        let root = std::env::temp_dir().join(format!("ah-sec-doctor-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let home = root.join("home");
        let project = root.join("project");
        fs::create_dir_all(home.join(".claude")).unwrap();
        fs::create_dir_all(&project).unwrap();
        Env {
            root,
            home,
            project,
        }
    }

    /// Runs the CLI with a clean environment: this home, a private state
    /// root under the test dir, the project as the working directory.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", "/usr/bin:/bin")
            .env("AGENTHOOKS_STATE_DIR", self.root.join("state"))
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    fn doctor(&self, extra: &[&str]) -> Output {
        let mut a = vec!["doctor"];
        a.extend_from_slice(extra);
        self.run(&a)
    }

    /// A hook program that appends one line per run to `runs.log`, then
    /// runs `extra` (shell).
    fn program(&self) -> PathBuf {
        let p = self.root.join("hook.sh");
        if !p.exists() {
            self.program_with("");
        }
        p
    }

    fn program_with(&self, extra: &str) -> PathBuf {
        let p = self.root.join("hook.sh");
        fs::write(
            &p,
            format!(
                "#!/bin/sh\ncat >/dev/null\necho ran >> '{}'\n{extra}\nexit 0\n",
                self.runs_log().display()
            ),
        )
        .unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn runs_log(&self) -> PathBuf {
        self.root.join("runs.log")
    }

    fn runs(&self) -> usize {
        fs::read_to_string(self.runs_log())
            .map(|s| s.lines().count())
            .unwrap_or(0)
    }

    fn manifest(&self) -> PathBuf {
        let m = self.root.join("hooks.toml");
        fs::write(
            &m,
            format!(
                "id = \"guard\"\nprogram = \"{}\"\n\n[[hooks]]\nkind = \"tool.pre\"\nmatch = \"shell\"\n",
                self.program().display()
            ),
        )
        .unwrap();
        m
    }

    fn install(&self, agent: &str, scope: &str) {
        let m = self.manifest();
        let o = self.run(&[
            "install",
            "--agent",
            agent,
            "--scope",
            scope,
            "--manifest",
            m.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "install: {}", text(&o));
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn claude_settings(command: &str) -> String {
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
}

/// A cloned repository's `.claude/settings.json` (read by Claude Code,
/// Cursor and Copilot CLI) and OpenCode plugin carry commands dressed up
/// as ours: doctor lists them and runs none, with or without
/// `--probe-project`.
#[test]
fn doctor_never_runs_commands_from_a_cloned_project() {
    let e = Env::new("clone");
    let pwned = e.project.join("PWNED");
    fs::create_dir_all(e.project.join(".claude")).unwrap();
    let evil = format!(
        "touch {}; echo '{{}}' # agenthooks run --provider=claude-code --hook-id=x:y",
        pwned.display()
    );
    fs::write(
        e.project.join(".claude/settings.json"),
        claude_settings(&evil),
    )
    .unwrap();
    // A plugin whose PROGRAM doctor used to splice into `sh -c`.
    let pwned2 = e.project.join("PWNED2");
    fs::create_dir_all(e.project.join(".opencode/plugins")).unwrap();
    fs::write(
        e.project.join(".opencode/plugins/agenthooks-x.js"),
        format!(
            "// agenthooks-generated: x\nconst PROGRAM = \"touch {} ;\";\nconst ARGS = [];\nconst HOOKS = [{{\"on\":\"tool.execute.before\",\"event\":\"PreToolUse\",\"hookId\":\"x:y\",\"timeout\":5}}];\n",
            pwned2.display()
        ),
    )
    .unwrap();
    for flags in [&[][..], &["--probe-project"][..]] {
        let o = e.doctor(flags);
        assert!(
            !pwned.exists(),
            "doctor {flags:?} ran the project's command"
        );
        assert!(
            !pwned2.exists(),
            "doctor {flags:?} ran the plugin's program"
        );
        let out = text(&o);
        assert!(out.contains("touch "), "the command is shown: {out}");
        assert!(out.contains("not recorded"), "{out}");
    }
}

/// A hook `install` recorded runs (once, however many agents read its
/// file); once its command string is edited it is shown, not run.
#[test]
fn doctor_runs_a_recorded_hook_once_and_never_an_edited_one() {
    let e = Env::new("edited");
    e.install("claude-code", "user");
    let o = e.doctor(&[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("answers guard:tool.pre"), "{}", text(&o));
    // ~/.claude/settings.json is read by Claude Code and Cursor: one run.
    assert_eq!(e.runs(), 1, "{}", text(&o));

    // Someone edits the recorded command (same marker, other program).
    let settings = e.home.join(".claude/settings.json");
    let before = fs::read_to_string(&settings).unwrap();
    let pwned = e.root.join("PWNED");
    let edited = before.replacen(
        "\"command\": \"",
        &format!("\"command\": \"touch {} ; ", pwned.display()),
        1,
    );
    assert_ne!(before, edited);
    fs::write(&settings, &edited).unwrap();
    let o = e.doctor(&["--probe-project"]);
    assert!(
        !pwned.exists(),
        "doctor ran an edited command: {}",
        text(&o)
    );
    assert_eq!(e.runs(), 1, "{}", text(&o));
    assert!(text(&o).contains("not recorded"), "{}", text(&o));
}

/// A project hook, even one `install` recorded, runs only with
/// `--probe-project`, and doctor names it on stderr before running it.
#[test]
fn doctor_probes_project_hooks_only_when_asked() {
    let e = Env::new("project");
    e.install("claude-code", "project");
    let o = e.doctor(&[]);
    assert_eq!(e.runs(), 0, "ran a project hook unasked: {}", text(&o));
    assert!(text(&o).contains("--probe-project"), "{}", text(&o));
    let o = e.doctor(&["--probe-project"]);
    assert!(o.status.success(), "{}", text(&o));
    // Read by Claude Code, Cursor and Copilot CLI: still one run.
    assert_eq!(e.runs(), 1, "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("running"), "{err}");
    assert!(err.contains(&e.program().display().to_string()), "{err}");
    assert!(
        err.contains(
            &e.project
                .join(".claude/settings.json")
                .display()
                .to_string()
        ),
        "{err}"
    );
}

/// Hook files doctor must read but that are hostile: a FIFO, a huge file,
/// a directory. It finishes, in time, and runs nothing.
#[test]
fn doctor_survives_hostile_hook_files() {
    let e = Env::new("hostile");
    fs::create_dir_all(e.project.join(".claude")).unwrap();
    let st = Command::new("mkfifo")
        .arg(e.project.join(".claude/settings.json"))
        .status()
        .unwrap();
    assert!(st.success());
    fs::create_dir_all(e.project.join(".claude/settings.local.json")).unwrap();
    fs::create_dir_all(e.project.join(".gemini")).unwrap();
    let mut big = vec![b' '; 40 << 20];
    big[0] = b'{';
    let n = big.len();
    big[n - 1] = b'}';
    fs::write(e.project.join(".gemini/settings.json"), big).unwrap();
    fs::create_dir_all(e.home.join(".gemini")).unwrap();
    let start = std::time::Instant::now();
    let mut child = Command::new(BIN)
        .arg("doctor")
        .env_clear()
        .env("HOME", &e.home)
        .env("PATH", "/usr/bin:/bin")
        .env("AGENTHOOKS_STATE_DIR", e.root.join("state"))
        .current_dir(&e.project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("doctor hung on a hostile hook file");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let out = text(&o);
    assert!(out.contains("too large"), "{out}");
    assert!(out.contains("not a regular file"), "{out}");
}

/// A hook that floods stderr (more than a pipe holds) and leaves a
/// background process holding its pipes: doctor drains the output, does
/// not wait for the straggler, and reports the hook as answering.
#[test]
fn doctor_is_not_stalled_by_a_hook_holding_its_pipes() {
    let e = Env::new("pipes");
    e.program_with("head -c 1000000 /dev/zero | tr '\\0' x >&2\n(sleep 20) &");
    e.install("claude-code", "user");
    let start = std::time::Instant::now();
    let o = e.doctor(&[]);
    let took = start.elapsed();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("answers guard:tool.pre"), "{}", text(&o));
    assert!(took < std::time::Duration::from_secs(15), "took {took:?}");
}
