//! Prints a [`Comparison`]: a plain-text table for terminals and CI logs, or Markdown for a
//! pull-request comment. Unchanged and not-run (filtered) rows are left out unless asked for;
//! the summary always counts everything.
//!
//! Markdown is safe to post: every piece of text that comes from a file (design and workload
//! names, commits, notes, warnings) is escaped ([`md_escape`]), so `|`, `<`, `>`, `&`,
//! backticks and newlines cannot break the table or inject markup into the comment.

use std::fmt::Write;

use super::metrics::{Measured, MetricKind};
use super::rules::{Comparison, Row, Verdict};

/// Output flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns.
    Text,
    /// A GitHub-flavoured Markdown table.
    Markdown,
}

/// Renders the comparison; `all` includes unchanged rows.
pub fn render(c: &Comparison, format: Format, all: bool) -> String {
    let rows: Vec<&Row> = c
        .rows
        .iter()
        .filter(|r| all || !matches!(r.verdict, Verdict::Unchanged | Verdict::NotRun))
        .collect();
    let mut out = String::new();
    let title = format!(
        "dodbench compare: {} (base) -> {} (new)",
        short(&c.base_commit),
        short(&c.new_commit)
    );
    let rules = format!(
        "rules: deterministic metrics ±{:.1}%; time normalised by {}, flagged beyond ±{:.0}% \
         and outside both runs' intervals, never fails the gate",
        c.rules.threshold_det * 100.0,
        c.references.describe(),
        c.rules.threshold_time * 100.0
    );
    let header = [
        "benchmark",
        "metric",
        "kind",
        "base",
        "new",
        "change",
        "verdict",
        "note",
    ];
    let cells: Vec<[String; 8]> = rows.iter().map(|r| cells(r)).collect();
    match format {
        Format::Markdown => {
            let _ = writeln!(
                out,
                "### {}\n\n{}\n\n{}\n",
                md_escape(&title),
                md_escape(&verdict_line(c)),
                md_escape(&rules)
            );
            for p in &c.problems {
                let _ = writeln!(out, "- **gate failure**: {}", md_escape(p));
            }
            if !cells.is_empty() {
                let _ = writeln!(out, "| {} |", header.join(" | "));
                let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
                for row in &cells {
                    let escaped: Vec<String> = row.iter().map(|s| md_escape(s)).collect();
                    let _ = writeln!(out, "| {} |", escaped.join(" | "));
                }
                out.push('\n');
            }
            for w in &c.warnings {
                let _ = writeln!(out, "- note: {}", md_escape(w));
            }
        }
        Format::Text => {
            let _ = writeln!(out, "{title}\n{rules}");
            if !cells.is_empty() {
                let mut widths = header.map(str::len);
                for row in &cells {
                    for (w, cell) in widths.iter_mut().zip(row) {
                        *w = (*w).max(cell.chars().count());
                    }
                }
                let line = |row: &[String]| {
                    let mut s = String::new();
                    for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
                        if i == row.len() - 1 {
                            s.push_str(cell);
                        } else {
                            let _ = write!(s, "{cell:<w$}  ");
                        }
                    }
                    s.trim_end().to_string()
                };
                let _ = writeln!(out, "\n{}", line(&header.map(String::from)));
                for row in &cells {
                    let _ = writeln!(out, "{}", line(row));
                }
            }
            for w in &c.warnings {
                let _ = writeln!(out, "note: {w}");
            }
            for p in &c.problems {
                let _ = writeln!(out, "gate failure: {p}");
            }
            let _ = writeln!(out, "\n{}", verdict_line(c));
        }
    }
    out
}

/// `OK` or `FAIL` with the counts of every verdict.
fn verdict_line(c: &Comparison) -> String {
    let failing = c.regressions().count();
    let counts = format!(
        "{} deterministic regressions, {} gating failures, {} deterministic improvements; time \
         (information only): {} slower, {} faster; {} benchmarks new, {} gone (gating), {} not \
         run (filtered)",
        c.count(Verdict::Regressed, MetricKind::Deterministic),
        failing,
        c.count(Verdict::Improved, MetricKind::Deterministic),
        c.count(Verdict::Regressed, MetricKind::Time),
        c.count(Verdict::Improved, MetricKind::Time),
        c.count(Verdict::New, MetricKind::Deterministic),
        c.count(Verdict::Gone, MetricKind::Deterministic),
        c.count(Verdict::NotRun, MetricKind::Deterministic),
    );
    if !c.problems.is_empty() {
        format!("FAIL: {counts}. {}", c.problems.join("; "))
    } else if failing > 0 {
        let names: Vec<String> = c
            .regressions()
            .map(|r| format!("{} {}", r.key, r.metric))
            .collect();
        format!("FAIL: {counts}. Regressed: {}", names.join(", "))
    } else {
        format!("OK: {counts}")
    }
}

fn cells(r: &Row) -> [String; 8] {
    let normalised = r.kind == MetricKind::Time && r.note.starts_with("vs ");
    let value = |m: Option<Measured>| match m {
        None => "-".to_string(),
        Some(m) if normalised => match (m.lower, m.upper) {
            (Some(l), Some(u)) => format!("{}x [{}, {}]", num(m.value), num(l), num(u)),
            _ => format!("{}x", num(m.value)),
        },
        Some(m) => num(m.value),
    };
    let verdict = if r.kind == MetricKind::Time
        && matches!(r.verdict, Verdict::Regressed | Verdict::Improved)
    {
        format!("{} (info)", r.verdict.label())
    } else {
        r.verdict.label().to_string()
    };
    [
        r.key.to_string(),
        r.metric.clone(),
        r.kind.label().to_string(),
        value(r.base),
        value(r.new),
        r.change
            .map_or("-".to_string(), |c| format!("{:+.1}%", c * 100.0)),
        verdict,
        r.note.clone(),
    ]
}

/// `text` made safe for one cell or line of GitHub-flavoured Markdown: `&`, `<` and `>` as
/// HTML entities (no tags, no entity tricks), backticks as `&#96;` (no code spans), `|`
/// and the emphasis and link characters `\\ * [ ] ~` backslash-escaped (no columns,
/// emphasis or links from names; GitHub never emphasises intraword `_`, so `vec_of_vecs`
/// stays readable), and line breaks as spaces (no new rows).
///
/// ```
/// use results::compare::table::md_escape;
/// assert_eq!(md_escape("a|b<img src=x>`c`\nd"), "a\\|b&lt;img src=x&gt;&#96;c&#96; d");
/// ```
pub fn md_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '`' => out.push_str("&#96;"),
            '|' => out.push_str("\\|"),
            '\\' | '*' | '[' | ']' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A number with about four significant digits.
fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

fn short(commit: &str) -> &str {
    match commit.char_indices().nth(12) {
        Some((i, _)) if commit.chars().take(12).all(|c| c.is_ascii_hexdigit()) => &commit[..i],
        _ => commit,
    }
}
