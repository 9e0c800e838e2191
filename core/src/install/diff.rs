//! A small line diff for `--dry-run` (unified format, 3 lines of context).

use std::path::Path;

/// The unified diff of one file (`None` = absent).
pub fn unified(path: &Path, before: Option<&str>, after: Option<&str>) -> String {
    let a: Vec<&str> = before.map(|s| s.lines().collect()).unwrap_or_default();
    let b: Vec<&str> = after.map(|s| s.lines().collect()).unwrap_or_default();
    let name = path.display();
    let mut out = format!(
        "--- {}\n+++ {}\n",
        if before.is_some() {
            format!("{name}")
        } else {
            "/dev/null".into()
        },
        if after.is_some() {
            format!("{name}")
        } else {
            "/dev/null".into()
        }
    );
    let ops = lcs_ops(&a, &b);
    // Group into hunks with 3 lines of context.
    let n = ops.len();
    let mut i = 0;
    while i < n {
        if ops[i].0 == ' ' {
            i += 1;
            continue;
        }
        let start = i.saturating_sub(3);
        let mut last_change = i;
        let mut j = i + 1;
        while j < n {
            if ops[j].0 != ' ' {
                if j - last_change > 7 {
                    break;
                }
                last_change = j;
            }
            j += 1;
        }
        let end = (last_change + 4).min(n);
        let (mut la, mut lb) = (0, 0);
        for op in &ops[..start] {
            if op.0 != '+' {
                la += 1;
            }
            if op.0 != '-' {
                lb += 1;
            }
        }
        let ca = ops[start..end].iter().filter(|o| o.0 != '+').count();
        let cb = ops[start..end].iter().filter(|o| o.0 != '-').count();
        out.push_str(&format!("@@ -{},{} +{},{} @@\n", la + 1, ca, lb + 1, cb));
        for (c, line) in &ops[start..end] {
            out.push(*c);
            out.push_str(line);
            out.push('\n');
        }
        i = end;
    }
    out
}

fn lcs_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<(char, &'a str)> {
    // Trim the common prefix and suffix, then LCS on the middle (small
    // config files; a huge middle falls back to delete-all/insert-all).
    let mut pre = 0;
    while pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf]
    {
        suf += 1;
    }
    let (ma, mb) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut ops: Vec<(char, &str)> = a[..pre].iter().map(|l| (' ', *l)).collect();
    // Checked: the table has (n+1)(m+1) cells, bounded before allocating.
    let cells = (ma.len().saturating_add(1)).checked_mul(mb.len().saturating_add(1));
    if cells.is_none_or(|c| c > 4_000_000) {
        ops.extend(ma.iter().map(|l| ('-', *l)));
        ops.extend(mb.iter().map(|l| ('+', *l)));
    } else {
        let (n, m) = (ma.len(), mb.len());
        let mut t = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                t[i * (m + 1) + j] = if ma[i] == mb[j] {
                    t[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && ma[i] == mb[j] {
                ops.push((' ', ma[i]));
                i += 1;
                j += 1;
            } else if j < m && (i == n || t[i * (m + 1) + j + 1] >= t[(i + 1) * (m + 1) + j]) {
                ops.push(('+', mb[j]));
                j += 1;
            } else {
                ops.push(('-', ma[i]));
                i += 1;
            }
        }
    }
    ops.extend(a[a.len() - suf..].iter().map(|l| (' ', *l)));
    ops
}

#[cfg(test)]
mod tests {
    #[test]
    fn shows_added_lines() {
        let d = super::unified(
            std::path::Path::new("f"),
            Some("a\nb\nc\n"),
            Some("a\nb\nx\nc\n"),
        );
        assert!(d.contains("+x\n"), "{d}");
        assert!(d.contains(" b\n"));
        let d = super::unified(std::path::Path::new("f"), None, Some("a\n"));
        assert!(
            d.starts_with("--- /dev/null\n+++ f\n@@ -1,0 +1,1 @@\n+a\n"),
            "{d}"
        );
    }
}
