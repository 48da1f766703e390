//! The judgements and the untested statements as text: plain text for `dodbench claims`,
//! Markdown tables for the docs, a point or a judgement's values in words, and the tally line.

use crate::claim::Untested;
use crate::family::Family;

use super::{Crossover, Judgement, Point, tally};

/// The untested statements as plain text, one block each (`dodbench claims`, after the
/// judgements); empty when there is none.
pub fn render_untested_text(untested: &[(Family, &Untested)]) -> String {
    if untested.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{} statements of the catalogue no claim tests:\n",
        untested.len()
    );
    for (family, u) in untested {
        out.push_str(&format!(
            "{} ({family}, {}): not testable here\n  \"{}\"\n  why: {}\n",
            u.id, u.source, u.quote, u.reason
        ));
    }
    out
}

/// The untested statements as a Markdown table (statement, family, the article's words in
/// short, why), after a blank line; empty when there is none.
pub fn render_untested_markdown(untested: &[(Family, &Untested)]) -> String {
    if untested.is_empty() {
        return String::new();
    }
    let cell = |text: &str| text.replace('|', "/").replace('\n', " ");
    let mut out = format!(
        "\n{} statements of the catalogue no claim tests:\n\n| statement | family | the article \
         says | why it is not tested |\n| --- | --- | --- | --- |\n",
        untested.len()
    );
    for (family, u) in untested {
        out.push_str(&format!(
            "| {} | `{family}` | {} | {} |\n",
            cell(&u.id),
            cell(&shorten(&u.quote, 70)),
            cell(&u.reason)
        ));
    }
    out
}

/// A number with three significant digits (`0.0312`, `1.98`, `2594`).
pub fn format_value(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// A parameter value or a bound as declared: whole numbers without decimals (`64`, `1`),
/// others as [`format_value`].
fn format_declared(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format_value(v)
    }
}

impl Point {
    /// The point in words: `N = 1000: 0.0312 [0.0301, 0.0325] confirmed (paired over 15
    /// rounds)`.
    pub fn describe(&self) -> String {
        let at = self
            .n
            .map_or_else(|| "fit".to_string(), |n| format!("N = {n}"));
        let at = match self.x {
            Some(x) => format!("{at}, x = {}", format_declared(x)),
            None => at,
        };
        let interval = self
            .interval
            .map(|(a, b)| format!(" [{}, {}]", format_value(a), format_value(b)))
            .unwrap_or_default();
        let outcome = self.outcome.as_str();
        format!(
            "{at}: {}{interval} {outcome} ({})",
            format_value(self.value),
            self.how
        )
    }
}

/// The judgements as plain text, one block per claim, then the tally (`dodbench claims`).
pub fn render_text(judgements: &[Judgement<'_>]) -> String {
    let mut out = String::new();
    for j in judgements {
        let c = j.claim;
        out.push_str(&format!(
            "{} ({}, {}): {}\n  \"{}\"\n  measured: {} {}\n",
            c.id, j.family, c.source, j.verdict, c.quote, c.quantity, c.rule
        ));
        for p in &j.points {
            out.push_str(&format!("  {}\n", p.describe()));
        }
        if !j.outside.is_empty() {
            let ns: Vec<String> = j.outside.iter().map(u64::to_string).collect();
            out.push_str(&format!(
                "  not judged (the claim is about {}): N = {}\n",
                c.sizes,
                ns.join(", ")
            ));
        }
        for x in &j.crossovers {
            out.push_str(&format!("  {}\n", x.describe(j)));
        }
        for m in &j.missing {
            out.push_str(&format!("  missing: {m}\n"));
        }
    }
    out.push_str(&tally_line(judgements));
    out.push('\n');
    out
}

/// `139 claims: 85 confirmed, 13 refuted, ...`: the tally in words, no line end.
pub fn tally_line(judgements: &[Judgement<'_>]) -> String {
    let counts: Vec<String> = tally(judgements)
        .into_iter()
        .map(|(v, k)| format!("{k} {v}"))
        .collect();
    format!("{} claims: {}", judgements.len(), counts.join(", "))
}

/// At most `max` characters of `text`, cut at a word, with `…` when cut: an article's words
/// in a table row.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end_matches([',', ';', ':', '.']))
}

impl Judgement<'_> {
    /// The value at each N in one line (`1000: 2.64; 65536: 5.06`, `fit: 1.98`), or the first
    /// thing missing when there is none.
    pub fn values_in_short(&self) -> String {
        if self.points.is_empty() {
            return self
                .missing
                .first()
                .map_or(String::new(), |m| shorten(m, 60));
        }
        let values = self
            .points
            .iter()
            .map(|p| {
                let at = p.n.map_or_else(|| "fit".to_string(), |n| format!("{n}"));
                match p.x {
                    Some(x) => {
                        format!(
                            "{at} at x = {}: {}",
                            format_declared(x),
                            format_value(p.value)
                        )
                    }
                    None => format!("{at}: {}", format_value(p.value)),
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        let crossings = self
            .crossovers
            .iter()
            .filter_map(|x| {
                let m = x.meets?;
                Some(format!(
                    "; crosses {} at x ≈ {} (N = {})",
                    format_declared(m.bound),
                    format_value(m.at),
                    x.n
                ))
            })
            .collect::<String>();
        format!("{values}{crossings}")
    }
}

impl Crossover {
    /// The crossover in short, without its N or its parameter's name: `confirmed up to x = 64,
    /// undecided from x = 128, meeting 1 at x ≈ 164` (what `dodbench agreement` sets side by
    /// side for two runs).
    pub fn in_short(&self) -> String {
        let mut out = self.runs();
        if let Some(m) = self.meets {
            out += &format!(
                ", meeting {} at x ≈ {}",
                format_declared(m.bound),
                format_value(m.at)
            );
        }
        out
    }

    /// The two runs of one outcome the crossover lies between: `confirmed up to x = 64,
    /// refuted from x = 128`.
    fn runs(&self) -> String {
        format!(
            "{} up to x = {}, {} from x = {}",
            self.below.as_str(),
            format_declared(self.between.0),
            self.above.as_str(),
            format_declared(self.between.1),
        )
    }

    /// The crossover in words: `crossover at N = 1000: confirmed up to x = 64, refuted from x
    /// = 128 (x: iterations of script work between API calls); the ratio meets 1 at x ≈ 97,
    /// where single_thread's time per work unit is ≈ 520`.
    pub fn describe(&self, j: &Judgement<'_>) -> String {
        let (param, den) = match &j.claim.quantity {
            crate::claim::Quantity::RatioAcross { param, points } => {
                (param.as_str(), points.first().map(|p| &p.den))
            }
            _ => ("x", None),
        };
        let mut out = format!("crossover at N = {}: {} (x: {param})", self.n, self.runs());
        if let Some(m) = self.meets {
            out += &format!(
                "; the ratio meets {} at x ≈ {}",
                format_declared(m.bound),
                format_value(m.at)
            );
            if let (Some(v), Some(d)) = (m.den_at, den) {
                out += &format!(
                    ", where {}'s {} is ≈ {}",
                    d.design,
                    d.metric,
                    format_value(v)
                );
            }
        }
        out
    }
}

/// The judgements as one Markdown table, a row per claim (claim, family, the article's words
/// in short, verdict, the value at each N), then the tally: the compact form `docs/claims.md`
/// carries for the committed reference run.
pub fn render_markdown(judgements: &[Judgement<'_>]) -> String {
    // A table cell holds no `|` and no line break.
    let cell = |text: &str| text.replace('|', "/").replace('\n', " ");
    let mut out = String::from(
        "| claim | family | the article says | verdict | measured |\n| --- | --- | --- | --- | --- |\n",
    );
    for j in judgements {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            cell(&j.claim.id),
            j.family,
            cell(&shorten(&j.claim.quote, 70)),
            j.verdict,
            cell(&j.values_in_short())
        ));
    }
    out.push_str(&format!("\n{}.\n", tally_line(judgements)));
    out
}
