//! The work estimate of the ECMAScript backtracking policy (see the
//! `matcher` module docs): a small scan of the pattern's structure that
//! `regress` already accepted.

use super::{ECMA_MAX_SUBJECT_BYTES, ECMA_MIN_SUBJECT_BYTES, ECMA_STEP_BUDGET};

/// Cost of a sub-pattern: polynomial degree in the subject length, a
/// constant factor (log2), and whether it matches a string one way only.
#[derive(Clone, Copy)]
struct Cost {
    degree: u32,
    log2: f64,
    fixed: bool,
}

const ATOM: Cost = Cost {
    degree: 0,
    log2: 0.0,
    fixed: true,
};

struct Parser<'a> {
    s: &'a [char],
    i: usize,
}

/// The subject bound for a pattern `regress` already accepted, or why
/// the pattern is rejected.
pub(super) fn subject_bound(pattern: &str) -> Result<usize, &'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Parser { s: &chars, i: 0 };
    let mut cost = p.alt()?;
    // Unbalanced `)` cannot reach here (regress rejects it), but never loop.
    while p.i < chars.len() {
        p.i += 1;
        let rest = p.alt()?;
        cost = seq(cost, rest);
    }
    let e = f64::from(cost.degree + 1);
    let fact: f64 = (1..=cost.degree + 1).map(f64::from).product();
    let n = (ECMA_STEP_BUDGET * fact / cost.log2.exp2()).powf(1.0 / e);
    let bound = if n.is_finite() {
        n.min(ECMA_MAX_SUBJECT_BYTES as f64) as usize
    } else {
        ECMA_MAX_SUBJECT_BYTES
    };
    if bound < ECMA_MIN_SUBJECT_BYTES {
        return Err("too many repetitions in sequence: backtracking would be too slow");
    }
    Ok(bound)
}

fn seq(a: Cost, b: Cost) -> Cost {
    Cost {
        degree: a.degree + b.degree,
        log2: a.log2 + b.log2,
        fixed: a.fixed && b.fixed,
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn alt(&mut self) -> Result<Cost, &'static str> {
        let mut branches = vec![self.seq()?];
        while self.peek() == Some('|') {
            self.i += 1;
            branches.push(self.seq()?);
        }
        if branches.len() == 1 {
            return Ok(branches[0]);
        }
        let degree = branches.iter().map(|b| b.degree).max().unwrap_or(0);
        let log2 = branches.iter().map(|b| b.log2).fold(0.0, f64::max);
        Ok(Cost {
            degree,
            log2: log2 + (branches.len() as f64).log2(),
            fixed: false,
        })
    }

    fn seq(&mut self) -> Result<Cost, &'static str> {
        let mut acc = Cost { ..ATOM };
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let item = self.quantified(atom)?;
            acc = seq(acc, item);
        }
        Ok(acc)
    }

    fn atom(&mut self) -> Result<Cost, &'static str> {
        let c = self.s[self.i];
        self.i += 1;
        match c {
            '\\' => {
                self.i += 1; // the escaped char; longer escapes cost like atoms
                Ok(ATOM)
            }
            '[' => {
                // `]` right after `[` or `[^` closes an empty class in JS.
                if self.peek() == Some('^') {
                    self.i += 1;
                }
                while let Some(c) = self.peek() {
                    self.i += 1;
                    match c {
                        '\\' => self.i += 1,
                        ']' => break,
                        _ => {}
                    }
                }
                Ok(ATOM)
            }
            '(' => {
                if self.peek() == Some('?') {
                    self.i += 1;
                    match self.peek() {
                        Some('<') if !matches!(self.s.get(self.i + 1), Some('=' | '!')) => {
                            while let Some(c) = self.peek() {
                                self.i += 1;
                                if c == '>' {
                                    break;
                                }
                            }
                        }
                        Some('<') => self.i += 2,
                        Some(_) => self.i += 1,
                        None => {}
                    }
                }
                let inner = self.alt()?;
                if self.peek() == Some(')') {
                    self.i += 1;
                }
                Ok(inner)
            }
            _ => Ok(ATOM),
        }
    }

    /// A quantifier after an atom: `(min, max)`, `max` `None` = unbounded.
    fn quantifier(&mut self) -> Option<(u32, Option<u32>)> {
        let q = match self.peek()? {
            '*' => {
                self.i += 1;
                (0, None)
            }
            '+' => {
                self.i += 1;
                (1, None)
            }
            '?' => {
                self.i += 1;
                (0, Some(1))
            }
            '{' => {
                let rest: String = self.s[self.i..].iter().take(24).collect();
                let close = rest.find('}')?;
                let body = &rest[1..close];
                let (lo, hi) = match body.split_once(',') {
                    Some((lo, hi)) => (lo, Some(hi)),
                    None => (body, None),
                };
                let min: u32 = lo.parse().ok()?;
                let max = match hi {
                    None => Some(min),
                    Some("") => None,
                    Some(h) => Some(h.parse().ok()?),
                };
                self.i += rest[..=close].chars().count();
                (min, max)
            }
            _ => return None,
        };
        if self.peek() == Some('?') {
            self.i += 1; // lazy: same work bound
        }
        Some(q)
    }

    fn quantified(&mut self, atom: Cost) -> Result<Cost, &'static str> {
        let Some((min, max)) = self.quantifier() else {
            return Ok(atom);
        };
        Ok(match max {
            Some(m) if m == min => Cost {
                degree: atom.degree.saturating_mul(m),
                log2: atom.log2 * f64::from(m),
                fixed: atom.fixed,
            },
            Some(1) => Cost {
                degree: atom.degree,
                log2: atom.log2 + 1.0,
                fixed: false,
            },
            _ if !atom.fixed => {
                return Err(
                    "a repeated sub-pattern that can match in several ways (nested quantifier, alternation or optional part) backtracks exponentially",
                );
            }
            _ => Cost {
                degree: atom.degree + 1,
                log2: atom.log2,
                fixed: false,
            },
        })
    }
}
