//! A linear-time twin of an ECMAScript pattern: the same pattern written
//! for the Rust `regex` crate, for the subset of ECMAScript (no flags, no
//! Unicode mode) whose meaning both engines share exactly.
//!
//! Whether a pattern matches somewhere in a subject does not depend on the
//! order in which a backtracking engine tries alternatives, so a pattern
//! without lookaround and backreferences accepts the same strings in both
//! engines once every construct is spelled out: `.` is "not a line
//! terminator" (`\n`, `\r`, U+2028, U+2029), `\d`, `\w`, `\s` are their
//! ECMAScript sets (ASCII digits and word characters; the ECMAScript white
//! space and line terminators), and every other character is written as a
//! `\x{…}` escape. Anything else — lookaround, backreferences, word
//! boundaries, Annex B oddities, characters outside the Basic Multilingual
//! Plane (which ECMAScript sees as two UTF-16 code units) — has no twin.
//!
//! The twin is only consulted for subjects made of BMP characters (the
//! caller checks), where UTF-16 code units and Unicode scalar values are
//! one and the same.

use std::fmt::Write;

/// ECMAScript `\s`: WhiteSpace (TAB, VT, FF, ZWNBSP, every `Zs`) and
/// LineTerminator (LF, CR, LS, PS).
const WS: &str = r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = r"0-9";
const WORD: &str = r"0-9A-Za-z_";
/// Deepest group nesting translated (the `regex` crate's own limit is 250).
const MAX_DEPTH: usize = 200;

/// The Rust `regex` spelling of an ECMAScript pattern (no flags), or
/// `None` when the pattern is outside the shared subset.
pub(super) fn to_rust(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut t = Translator {
        s: &chars,
        i: 0,
        out: String::with_capacity(pattern.len() * 2),
        depth: 0,
    };
    t.alt()?;
    (t.i == chars.len()).then_some(t.out)
}

struct Translator<'a> {
    s: &'a [char],
    i: usize,
    out: String,
    depth: usize,
}

/// One class member: a character or a class escape (already spelled).
enum Member {
    Char(u32),
    Set(String),
}

impl Translator<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn alt(&mut self) -> Option<()> {
        self.seq()?;
        while self.peek() == Some('|') {
            self.i += 1;
            self.out.push('|');
            self.seq()?;
        }
        Some(())
    }

    fn seq(&mut self) -> Option<()> {
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => return Some(()),
                '^' | '$' => {
                    self.i += 1;
                    self.out.push(c);
                    // A quantified anchor is an error in ECMAScript.
                    if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
                        return None;
                    }
                }
                _ => {
                    self.atom()?;
                    self.quantifier()?;
                }
            }
        }
        Some(())
    }

    fn atom(&mut self) -> Option<()> {
        match self.next()? {
            '.' => self.out.push_str(r"[^\x{A}\x{D}\x{2028}\x{2029}]"),
            '(' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return None;
                }
                if self.peek() == Some('?') {
                    self.i += 1;
                    match self.next()? {
                        ':' => {}
                        '<' if self
                            .peek()
                            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') =>
                        {
                            // A named group: the name does not change what matches.
                            while self.next()? != '>' {}
                        }
                        _ => return None, // lookaround
                    }
                }
                self.out.push_str("(?:");
                self.alt()?;
                if self.next()? != ')' {
                    return None;
                }
                self.out.push(')');
                self.depth -= 1;
            }
            '[' => self.class()?,
            '\\' => match self.escape(false)? {
                Member::Char(c) => lit(&mut self.out, c),
                Member::Set(s) => {
                    self.out.push('[');
                    self.out.push_str(&s);
                    self.out.push(']');
                }
            },
            '*' | '+' | '?' | '{' | '}' | ')' | '|' => return None,
            c => lit(&mut self.out, bmp(c)?),
        }
        Some(())
    }

    fn quantifier(&mut self) -> Option<()> {
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.i += 1;
                self.out.push(c);
            }
            Some('{') => {
                self.i += 1;
                let lo = self.number()?;
                let hi = match self.next()? {
                    '}' => Some(Some(lo)),
                    ',' if self.peek() == Some('}') => {
                        self.i += 1;
                        Some(None)
                    }
                    ',' => {
                        let hi = self.number()?;
                        (self.next()? == '}').then_some(Some(hi))
                    }
                    _ => None,
                }?;
                match hi {
                    Some(h) if h == lo => write!(self.out, "{{{lo}}}").ok()?,
                    Some(h) => write!(self.out, "{{{lo},{h}}}").ok()?,
                    None => write!(self.out, "{{{lo},}}").ok()?,
                }
            }
            _ => return Some(()),
        }
        if self.peek() == Some('?') {
            self.i += 1;
            self.out.push('?');
        }
        // A second quantifier is an error in ECMAScript.
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return None;
        }
        Some(())
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let digits: String = self.s.get(start..self.i)?.iter().collect();
        // Counts past a thousand make huge automata; leave them to the
        // backtracking engine.
        digits.parse().ok().filter(|n| *n <= 1000)
    }

    fn class(&mut self) -> Option<()> {
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        let mut body = String::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' {
                // `[]` / `[^]`: the empty class, or any code unit.
                if first {
                    return None;
                }
                break;
            }
            first = false;
            let lo = if c == '\\' {
                self.escape(true)?
            } else {
                Member::Char(bmp(c)?)
            };
            let is_range =
                self.peek() == Some('-') && self.s.get(self.i + 1).is_some_and(|&n| n != ']');
            match lo {
                Member::Set(s) if is_range => {
                    // Annex B: `[\d-z]` is a union; not in the subset.
                    let _ = s;
                    return None;
                }
                Member::Set(s) => {
                    body.push('[');
                    body.push_str(&s);
                    body.push(']');
                }
                Member::Char(a) if is_range => {
                    self.i += 1; // '-'
                    let c = self.next()?;
                    let hi = if c == '\\' {
                        match self.escape(true)? {
                            Member::Char(h) => h,
                            Member::Set(_) => return None,
                        }
                    } else {
                        bmp(c)?
                    };
                    if hi < a {
                        return None;
                    }
                    lit(&mut body, a);
                    body.push('-');
                    lit(&mut body, hi);
                }
                Member::Char(a) => lit(&mut body, a),
            }
        }
        self.out.push('[');
        if negated {
            self.out.push('^');
        }
        self.out.push_str(&body);
        self.out.push(']');
        Some(())
    }

    /// After a backslash: a character or a class escape.
    fn escape(&mut self, in_class: bool) -> Option<Member> {
        let set = |neg: bool, s: &str| Member::Set(format!("{}{s}", if neg { "^" } else { "" }));
        let c = self.next()?;
        Some(match c {
            'd' | 'D' => set(c == 'D', DIGIT),
            'w' | 'W' => set(c == 'W', WORD),
            's' | 'S' => set(c == 'S', WS),
            't' => Member::Char(0x9),
            'n' => Member::Char(0xA),
            'v' => Member::Char(0xB),
            'f' => Member::Char(0xC),
            'r' => Member::Char(0xD),
            'b' if in_class => Member::Char(0x8),
            '0' if !self.peek().is_some_and(|n| n.is_ascii_digit()) => Member::Char(0),
            'x' => Member::Char(self.hex(2)?),
            'u' => {
                let u = self.hex(4)?;
                if (0xD800..0xE000).contains(&u) {
                    return None;
                }
                Member::Char(u)
            }
            'c' => {
                let l = self.next()?;
                if !l.is_ascii_alphabetic() {
                    return None;
                }
                Member::Char(u32::from(l) % 32)
            }
            // Word boundaries, backreferences, `\k`, Annex B identity
            // escapes of letters and digits: not in the subset.
            c if c.is_ascii_alphanumeric() => return None,
            // An identity escape of punctuation (`\.`, `\-`, `\/`, ...).
            c => Member::Char(bmp(c)?),
        })
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let digits: String = self.s.get(self.i..self.i + n)?.iter().collect();
        if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.i += n;
        u32::from_str_radix(&digits, 16).ok()
    }
}

/// A Basic Multilingual Plane character as a code point.
fn bmp(c: char) -> Option<u32> {
    let u = u32::from(c);
    (u < 0x10000).then_some(u)
}

/// Writes one character so neither engine's syntax can touch it.
fn lit(out: &mut String, c: u32) {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() || ch == '_' => out.push(ch),
        _ => {
            let _ = write!(out, r"\x{{{c:X}}}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_subset_translates() {
        let t = |p: &str| to_rust(p);
        assert_eq!(
            t("mcp__.*").as_deref(),
            Some(r"mcp__[^\x{A}\x{D}\x{2028}\x{2029}]*")
        );
        assert_eq!(t("^(Edit|Write)$").as_deref(), Some("^(?:Edit|Write)$"));
        assert!(t(r"[a-z]+_\d{2,4}").is_some());
        assert!(t(r"(?<n>a)b{2,}?").is_some());
        for no in [
            r"(?<=mcp__)x",
            r"(?=a)",
            r"(a)\1",
            r"\bBash",
            r"a{",
            r"[]",
            r"[^]",
            r"[\d-z]",
            "😀",
            r"\uD83D",
            r"\p{L}",
            "a**",
            "^*",
        ] {
            assert_eq!(t(no), None, "{no}");
        }
    }

    /// Every twin agrees with regress (ECMAScript) on every subject.
    #[test]
    fn twins_agree_with_regress() {
        let patterns = [
            "mcp__.*__.*delete.*",
            "^(Edit|Write)$",
            "Edit|Write|MultiEdit",
            "^mcp__[a-z]+__(get|list)_.+$",
            r"^\w+-\d{2,3}$",
            r"\s",
            r"[^\s]+",
            r"a.c",
            r"a[.]c",
            r"\.",
            r"[\]a-]",
            r"[a\-z]",
            r"\x41\u00e9\cJ\t",
            r"(?:ab){2}",
            r"(?<word>ab)+",
            r"a{0,1}b{2,}c{1}",
            r"^$",
            r"]",
            "(a+)+$",
            r"[\s\S]",
            r"[\W\d]x",
        ];
        let subjects = [
            "",
            "a",
            "abc",
            "a.c",
            "a\nc",
            "a\u{2028}c",
            "Edit",
            "NotebookEdit",
            "Write",
            "mcp__github__delete_repo",
            "mcp__fs__list_dir",
            "mcp__fs__list_",
            "abc-12",
            "abc-1234",
            "\u{a0}",
            "\u{feff}",
            "\u{85}",
            "ABé\n\t",
            "]}",
            "-",
            "z",
            "ababab",
            "abbbc",
            "aaaa",
            "aaab",
            "٣x",
            "_x",
        ];
        for p in patterns {
            let r = regress::Regex::new(p).unwrap();
            let t = to_rust(p).unwrap_or_else(|| panic!("{p} has no twin"));
            let t = regex::Regex::new(&t).unwrap_or_else(|e| panic!("{p} -> {t}: {e}"));
            for s in subjects {
                assert_eq!(r.find(s).is_some(), t.is_match(s), "{p:?} on {s:?}");
            }
        }
    }
}
