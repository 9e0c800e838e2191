//! No import cycles between the modules of `core/src` and `ffi/src`.
//!
//! Reads every module file as text (comments, strings and `#[cfg(test)]`
//! blocks removed), collects its `crate::` / `super::` / `self::` paths
//! (`use` trees included), resolves each to the module that defines the
//! name (following `pub use` re-exports, globs included), and lifts every
//! edge to the level where the two modules are siblings: an edge from
//! `host::select` to `matcher` is `host → matcher` in the crate root; an
//! edge between a module and its own ancestor or descendant is structure,
//! not a dependency. Each strongly connected component of more than one
//! sibling is a cycle, reported with the lines that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// Cycles allowed while another helper breaks them: each entry is the set
/// of sibling modules of one cycle, as reported. An entry that no longer
/// matches a cycle fails the test too, so the list can only shrink. Empty:
/// `core/src` and `ffi/src` have no import cycles.
const ALLOWED: &[(&str, &[&str])] = &[];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Colon2,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other,
}

/// Source text without comments, string/char literals and `#[cfg(test)]` items.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0usize;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            continue;
        }
        // Raw strings: r"..", r#".."#, br#".."#.
        let raw_start = if c == b'r' {
            Some(i + 1)
        } else if c == b'b' && b.get(i + 1) == Some(&b'r') {
            Some(i + 2)
        } else {
            None
        };
        let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if let (Some(mut j), false) = (raw_start, ident_before) {
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) == Some(&b'"') {
                j += 1;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
                continue;
            }
        }
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
            continue;
        }
        if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}', '"'); otherwise a lifetime.
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
                continue;
            }
            let ch_len = src[i + 1..].chars().next().map_or(0, char::len_utf8);
            if ch_len > 0 && b.get(i + 1 + ch_len) == Some(&b'\'') {
                i += 2 + ch_len;
                out.push_str("' '");
                continue;
            }
        }
        let ch = src[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    remove_test_items(&out)
}

/// Drops each `#[cfg(test)]` item (up to its matching `}` or `;`).
fn remove_test_items(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(p) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..p]);
        let after = &rest[p..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut line = 1;
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphabetic() || c == '_' {
            let s = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(chars[s..i].iter().collect()), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Colon2, line));
            i += 2;
        } else {
            let t = match c {
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                ';' => Tok::Semi,
                '*' => Tok::Star,
                _ => Tok::Other,
            };
            out.push((t, line));
            i += 1;
        }
    }
    out
}

/// One path a module names: its segments (`crate`/`super`/`self` first),
/// the line, and whether a `pub use` re-exports it (with its local name).
#[derive(Debug, Clone)]
struct Ref {
    segs: Vec<String>,
    line: usize,
    reexport: Option<String>,
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// Parses a use tree from `toks[i]`, prefixed by `prefix`; returns the
/// leaves (path, local name) and the index after the tree.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
) -> (Vec<(Vec<String>, String)>, usize) {
    let mut path = prefix.to_vec();
    let mut leaves = Vec::new();
    loop {
        match toks.get(i) {
            Some((Tok::Ident(s), _)) => {
                path.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::Colon2) {
                    i += 1;
                    continue;
                }
                let mut name = s.clone();
                if ident(toks.get(i)) == Some("as") {
                    if let Some(n) = ident(toks.get(i + 1)) {
                        name = n.to_string();
                    }
                    i += 2;
                }
                if name == "self" {
                    path.pop();
                    name = path.last().cloned().unwrap_or_default();
                }
                leaves.push((path, name));
                return (leaves, i);
            }
            Some((Tok::Open, _)) => {
                i += 1;
                loop {
                    match toks.get(i).map(|t| &t.0) {
                        Some(Tok::Close) => return (leaves, i + 1),
                        Some(Tok::Comma) => i += 1,
                        None => return (leaves, i),
                        _ => {
                            let (l, j) = use_tree(toks, i, &path);
                            leaves.extend(l);
                            if j == i {
                                i += 1;
                            } else {
                                i = j;
                            }
                        }
                    }
                }
            }
            Some((Tok::Star, _)) => {
                path.push("*".into());
                leaves.push((path, "*".into()));
                return (leaves, i + 1);
            }
            _ => return (leaves, i),
        }
    }
}

fn refs(src: &str, children: &BTreeSet<String>) -> Vec<Ref> {
    let toks = tokens(&strip(src));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        // `use` trees (with `pub use` re-exports).
        if ident(toks.get(i)) == Some("use") {
            // `pub use` or `pub(crate) use` (and `pub(super)`).
            let public = (i >= 1 && ident(toks.get(i - 1)) == Some("pub"))
                || (i >= 4
                    && ident(toks.get(i - 4)) == Some("pub")
                    && matches!(ident(toks.get(i - 2)), Some("crate" | "super" | "self")));
            let line = toks[i].1;
            let (leaves, j) = use_tree(&toks, i + 1, &[]);
            for (segs, name) in leaves {
                let first = segs.first().map(String::as_str).unwrap_or("");
                let relative =
                    ["crate", "super", "self"].contains(&first) || children.contains(first);
                if relative {
                    out.push(Ref {
                        segs,
                        line,
                        reexport: public.then_some(name),
                    });
                }
            }
            i = j.max(i + 1);
            continue;
        }
        // Inline paths: `crate::x::y`, `super::x`.
        let start = ident(toks.get(i));
        let mid_path = i > 0 && toks[i - 1].0 == Tok::Colon2;
        if let (Some(s @ ("crate" | "super" | "self")), false) = (start, mid_path) {
            if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Colon2) {
                let line = toks[i].1;
                let mut segs = vec![s.to_string()];
                let mut j = i + 2;
                while let Some(n) = ident(toks.get(j)) {
                    segs.push(n.to_string());
                    if toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Colon2) {
                        j += 2;
                    } else {
                        j += 1;
                        break;
                    }
                }
                if toks.get(j).map(|t| &t.0) == Some(&Tok::Open) {
                    let (leaves, k) = use_tree(&toks, j, &segs);
                    for (segs, _) in leaves {
                        out.push(Ref {
                            segs,
                            line,
                            reexport: None,
                        });
                    }
                    j = k;
                } else {
                    out.push(Ref {
                        segs,
                        line,
                        reexport: None,
                    });
                }
                i = j.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    out
}

struct Module {
    file: PathBuf,
    src: String,
    refs: Vec<Ref>,
}

struct Crate {
    name: &'static str,
    modules: BTreeMap<ModPath, Module>,
}

fn load(name: &'static str, root: &Path) -> Crate {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("read src dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut paths = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(root).expect("under root");
        let mut segs: ModPath = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if segs == ["lib"] || segs.last().is_some_and(|s| s == "mod") {
            segs.pop();
        }
        paths.insert(segs, f);
    }
    let mut modules = BTreeMap::new();
    for (segs, file) in &paths {
        let children: BTreeSet<String> = paths
            .keys()
            .filter(|p| p.len() == segs.len() + 1 && p.starts_with(segs))
            .filter_map(|p| p.last().cloned())
            .collect();
        let src = fs::read_to_string(file).expect("read module");
        let refs = refs(&src, &children);
        modules.insert(
            segs.clone(),
            Module {
                file: file.clone(),
                src,
                refs,
            },
        );
    }
    Crate { name, modules }
}

impl Crate {
    /// The absolute form of a path as written in module `m`.
    fn absolute(&self, m: &ModPath, segs: &[String]) -> ModPath {
        let mut base: ModPath;
        let mut rest = segs;
        match segs.first().map(String::as_str) {
            Some("crate") => {
                base = Vec::new();
                rest = &segs[1..];
            }
            Some("self") => {
                base = m.clone();
                rest = &segs[1..];
            }
            Some("super") => {
                base = m.clone();
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            _ => base = m.clone(),
        }
        base.extend(rest.iter().cloned());
        base
    }

    /// Whether module `m` itself defines `name`.
    fn defines(&self, m: &ModPath, name: &str) -> bool {
        let Some(module) = self.modules.get(m) else {
            return false;
        };
        let toks = tokens(&strip(&module.src));
        toks.windows(2).any(|w| {
            matches!(&w[0].0, Tok::Ident(k) if ["fn", "struct", "enum", "const", "static", "type", "trait", "union", "macro_rules"].contains(&k.as_str()))
                && matches!(&w[1].0, Tok::Ident(n) if n == name)
        }) || toks.windows(3).any(|w| {
            matches!(&w[0].0, Tok::Ident(k) if k == "macro_rules")
                && matches!(&w[2].0, Tok::Ident(n) if n == name)
        })
    }

    /// The module that defines the item an absolute path names.
    fn resolve(&self, path: &[String], depth: usize) -> ModPath {
        let mut k = path.len();
        while k > 0 && !self.modules.contains_key(&path[..k]) {
            k -= 1;
        }
        let module: ModPath = path[..k].to_vec();
        let Some(name) = path.get(k) else {
            return module;
        };
        if depth > 8 || self.defines(&module, name) {
            return module;
        }
        let m = &self.modules[&module];
        for r in &m.refs {
            if r.reexport.as_deref() == Some(name.as_str()) {
                let mut target = self.absolute(&module, &r.segs);
                target.extend(path[k + 1..].iter().cloned());
                return self.resolve(&target, depth + 1);
            }
        }
        for r in &m.refs {
            if r.reexport.as_deref() == Some("*") {
                let mut glob = self.absolute(&module, &r.segs);
                glob.pop();
                let mut target = glob.clone();
                target.extend(path[k..].iter().cloned());
                let found = self.resolve(&target, depth + 1);
                if found != glob || self.defines(&glob, name) {
                    return found;
                }
            }
        }
        module
    }

    /// Sibling-level edges: (parent, from child, to child) → evidence lines.
    fn edges(&self) -> BTreeMap<(ModPath, String, String), Vec<String>> {
        let mut out: BTreeMap<(ModPath, String, String), Vec<String>> = BTreeMap::new();
        for (m, module) in &self.modules {
            for r in &module.refs {
                let target = self.resolve(&self.absolute(m, &r.segs), 0);
                let common = m.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common == m.len() || common == target.len() {
                    continue;
                }
                let key = (
                    m[..common].to_vec(),
                    m[common].clone(),
                    target[common].clone(),
                );
                let rel = module
                    .file
                    .components()
                    .rev()
                    .take(m.len().max(1) + 1)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.entry(key).or_default().push(format!(
                    "{rel}:{} names {}",
                    r.line,
                    r.segs.join("::")
                ));
            }
        }
        out
    }

    /// Every cycle: (parent, sorted member names, evidence).
    fn cycles(&self) -> Vec<(ModPath, Vec<String>, Vec<String>)> {
        let edges = self.edges();
        let mut by_parent: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (parent, from, to) in edges.keys() {
            by_parent
                .entry(parent.clone())
                .or_default()
                .entry(from.clone())
                .or_default()
                .insert(to.clone());
        }
        let mut out = Vec::new();
        for (parent, graph) in by_parent {
            for scc in sccs(&graph) {
                if scc.len() < 2 {
                    continue;
                }
                let members: BTreeSet<&String> = scc.iter().collect();
                let mut evidence = Vec::new();
                for ((p, from, to), lines) in &edges {
                    if *p == parent && members.contains(from) && members.contains(to) {
                        evidence.push(format!("  {from} -> {to}: {}", lines[0]));
                    }
                }
                let mut names = scc.clone();
                names.sort();
                out.push((parent.clone(), names, evidence));
            }
        }
        out
    }
}

/// Tarjan's strongly connected components.
fn sccs(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct St<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        on: BTreeSet<&'a str>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut St<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.g.get(v) {
            for w in next {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let l = s.low[v].min(s.low[w]);
                    s.low.insert(v, l);
                } else if s.on.contains(w) {
                    let l = s.low[v].min(s.index[w]);
                    s.low.insert(v, l);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = St {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on: BTreeSet::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

#[test]
fn no_import_cycles_in_core_and_ffi() {
    let crates = [
        load("agenthooks", &repo().join("core/src")),
        load("agenthooks-ffi", &repo().join("ffi/src")),
    ];
    let mut report = String::new();
    let mut allowed_seen = BTreeSet::new();
    for c in &crates {
        for (parent, names, evidence) in c.cycles() {
            let at = if parent.is_empty() {
                "crate".to_string()
            } else {
                parent.join("::")
            };
            let allowed = ALLOWED
                .iter()
                .position(|(k, set)| *k == c.name && *set == names.as_slice());
            if let Some(i) = allowed {
                allowed_seen.insert(i);
                continue;
            }
            report.push_str(&format!(
                "{}: cycle in {at}: {}\n{}\n",
                c.name,
                names.join(" <-> "),
                evidence.join("\n")
            ));
        }
    }
    for (i, (k, set)) in ALLOWED.iter().enumerate() {
        if !allowed_seen.contains(&i) {
            report.push_str(&format!(
                "{k}: the allowed cycle {set:?} is gone: remove it from ALLOWED\n"
            ));
        }
    }
    assert!(report.is_empty(), "import cycles:\n{report}");
}

/// The checker finds what it is meant to find: a two-module cycle through
/// a `use` group and an inline path, a cycle through a re-export, and no
/// cycle for parent/child references or names in comments and strings.
#[test]
fn the_checker_sees_cycles_and_only_cycles() {
    let dir = std::env::temp_dir().join(format!("ah-cycles-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let write = |p: &str, s: &str| {
        let f = dir.join(p);
        fs::create_dir_all(f.parent().expect("parent")).expect("mkdir");
        fs::write(f, s).expect("write");
    };
    write(
        "lib.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub use d::Thing;\n",
    );
    write("a.rs", "use crate::{b::{self, B}, c};\npub struct A;\n");
    write("b/mod.rs", "pub mod inner;\npub struct B;\n");
    write(
        "b/inner.rs",
        "pub fn f() -> crate::a::A { super::B; todo!() }\n",
    );
    // c → lib's re-export of d::Thing; d mentions c only in a comment and a string.
    write("c.rs", "pub fn g() -> crate::Thing { todo!() }\n");
    write(
        "d.rs",
        "// crate::c::g\npub const S: &str = \"crate::c::g\";\npub struct Thing;\n#[cfg(test)]\nmod tests { use crate::c::g; }\n",
    );
    let c = load("t", &dir);
    let found: Vec<Vec<String>> = c.cycles().into_iter().map(|(_, n, _)| n).collect();
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(found, vec![vec!["a".to_string(), "b".to_string()]]);
    let edges = c.edges();
    let has = |f: &str, t: &str| {
        edges
            .keys()
            .any(|(p, a, b)| p.is_empty() && a == f && b == t)
    };
    assert!(has("c", "d"), "re-export followed: {:?}", edges.keys());
    assert!(
        !has("d", "c"),
        "comments, strings and tests are not references"
    );
}
