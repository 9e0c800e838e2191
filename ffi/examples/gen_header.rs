//! Generates `include/agenthooks.h` with cbindgen (used as a library) and
//! checks that every exported `ah_*` item carries a doc comment.
//!
//! `cargo run -p agenthooks-ffi --example gen_header -- <out.h>`: writes
//! the header (`make header` passes `include/agenthooks.h`; `make
//! header-check` a temporary file that it diffs against the committed one).

use std::process::ExitCode;

/// Version macros, derived from the crate version (never hand-written).
fn version_macros() -> String {
    let v = env!("CARGO_PKG_VERSION");
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    let minor = env!("CARGO_PKG_VERSION_MINOR");
    let patch = env!("CARGO_PKG_VERSION_PATCH");
    format!(
        r#"
/** The library version this header was generated with (equals ah_version()). */
#define AH_VERSION "{v}"
/** Major part of AH_VERSION. */
#define AH_VERSION_MAJOR {major}
/** Minor part of AH_VERSION. */
#define AH_VERSION_MINOR {minor}
/** Patch part of AH_VERSION. */
#define AH_VERSION_PATCH {patch}
/** AH_VERSION as one number: major * 10000 + minor * 100 + patch. */
#define AH_VERSION_NUMBER (AH_VERSION_MAJOR * 10000 + AH_VERSION_MINOR * 100 + AH_VERSION_PATCH)

/** Marks a deprecated function; the note says what to use instead. */
#if defined(__GNUC__) || defined(__clang__)
#  define AH_DEPRECATED(note) __attribute__((deprecated(note)))
#else
#  define AH_DEPRECATED(note)
#endif
"#
    )
}

/// The names of `ah_*` / `AH_*` items declared on a line, if the line
/// starts a declaration.
fn declared(line: &str) -> Option<String> {
    let t = line.trim();
    let ident = |s: &str| -> Option<String> {
        let s = s.trim_start_matches('*');
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        let id = &s[..end];
        (id.starts_with("ah_") || id.starts_with("AH_")).then(|| id.to_string())
    };
    if let Some(rest) = t.strip_prefix("#define ") {
        return ident(rest).filter(|id| id != "AGENTHOOKS_H");
    }
    if t.starts_with("typedef struct ") && t.ends_with(';') {
        // `typedef struct ah_x ah_x;` (opaque handle)
        return t.split_whitespace().nth(2).and_then(ident);
    }
    if t.starts_with("typedef struct ") || t.starts_with("enum ") {
        return t
            .split_whitespace()
            .nth(if t.starts_with("enum") { 1 } else { 2 })
            .and_then(ident);
    }
    if t.starts_with("AH_") && (t.ends_with(',') || t.contains(" = ")) {
        return ident(t); // enum variant
    }
    // A function prototype: `<type> ah_name(` at column 0.
    if !line.starts_with(' ') && line.contains('(') && !t.starts_with('#') && !t.starts_with("/*") {
        let before = &line[..line.find('(')?];
        return before.split_whitespace().last().and_then(ident);
    }
    None
}

/// Items that lack a doc comment right above them.
fn undocumented(header: &str) -> Vec<String> {
    let lines: Vec<&str> = header.lines().collect();
    let mut missing = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = declared(line) else { continue };
        // `AH_DEPRECATED("...")` sits between a doc comment and its item.
        let prev = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("AH_DEPRECATED"));
        if !prev.is_some_and(|p| p.trim_end().ends_with("*/")) {
            missing.push(name);
        }
    }
    missing
}

fn main() -> ExitCode {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: gen_header <out.h>");
        return ExitCode::from(2);
    };
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut config = match cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gen_header: {e}");
            return ExitCode::FAILURE;
        }
    };
    config.after_includes = Some(version_macros());
    let bindings = match cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("gen_header: cbindgen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut text = Vec::new();
    bindings.write(&mut text);
    let text = String::from_utf8(text).expect("cbindgen writes UTF-8");
    let missing = undocumented(&text);
    if !missing.is_empty() {
        eprintln!(
            "gen_header: exported items without a doc comment: {}",
            missing.join(", ")
        );
        return ExitCode::FAILURE;
    }
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("gen_header: writing {out}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_undocumented_items() {
        let h = "/** doc */\nah_status ah_x(int a);\n\nvoid ah_y(void);\n#define AH_Z 1\n";
        assert_eq!(super::undocumented(h), vec!["ah_y", "AH_Z"]);
    }
}
