//! A callgrind output file read for its totals ([`CallgrindTotals`], [`parse_callgrind`]), and
//! the totals as figures per op.

use results::{SimConfig, SimPerOp};

use super::{LINE_BYTES, SimError};

/// The event totals of one callgrind output file: event names from its `events:` line, values
/// from `totals:` (or `summary:`), trailing omitted columns read as zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallgrindTotals {
    /// Event names, e.g. `Ir`, `Dr`, `D1mr`.
    pub events: Vec<String>,
    /// One value per event.
    pub values: Vec<u64>,
}

impl CallgrindTotals {
    /// The total of event `name`, zero if the file does not list it.
    pub fn get(&self, name: &str) -> u64 {
        self.events
            .iter()
            .position(|e| e == name)
            .map_or(0, |i| self.values[i])
    }

    /// Figures per op for `ops` work units.
    pub fn per_op(&self, ops: u64, config: SimConfig) -> SimPerOp {
        let per = |v: u64| v as f64 / ops.max(1) as f64;
        let d1 = self.get("D1mr") + self.get("D1mw");
        SimPerOp {
            ir: per(self.get("Ir")),
            data_reads: per(self.get("Dr")),
            data_writes: per(self.get("Dw")),
            d1_miss: per(d1),
            ll_miss: per(self.get("DLmr") + self.get("DLmw")),
            d1_read_miss: per(self.get("D1mr")),
            ll_read_miss: per(self.get("DLmr")),
            i1_miss: Some(per(self.get("I1mr"))),
            bytes_streamed: per(d1 * LINE_BYTES),
            ops,
            config,
        }
    }
}

/// Parses a callgrind output file's `events:` header and `totals:` line (falling back to
/// `summary:`).
///
/// # Errors
/// No `events:` line, no totals, a non-number, or more values than events.
pub fn parse_callgrind(text: &str) -> Result<CallgrindTotals, SimError> {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
    };
    let events: Vec<String> = field("events:")
        .ok_or_else(|| SimError::Parse("no `events:` line".into()))?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if events.is_empty() {
        return Err(SimError::Parse("empty `events:` line".into()));
    }
    let totals = field("totals:")
        .or_else(|| field("summary:"))
        .ok_or_else(|| SimError::Parse("no `totals:` or `summary:` line".into()))?;
    let mut values = totals
        .split_whitespace()
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| SimError::Parse(format!("total {v:?} is not a count")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if values.len() > events.len() {
        return Err(SimError::Parse(format!(
            "{} totals for {} events",
            values.len(),
            events.len()
        )));
    }
    values.resize(events.len(), 0);
    Ok(CallgrindTotals { events, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_fills_omitted_columns_and_rejects_garbage() {
        let t = parse_callgrind("events: Ir Dr Dw D1mr\nfoo\ntotals: 10 4\n").unwrap();
        assert_eq!(t.get("Ir"), 10);
        assert_eq!(t.get("Dr"), 4);
        assert_eq!(t.get("D1mr"), 0);
        assert_eq!(t.get("DLmr"), 0);
        let t = parse_callgrind("events: Ir\nsummary: 7\n").unwrap();
        assert_eq!(t.get("Ir"), 7);
        for bad in [
            "totals: 1\n",
            "events: Ir\n",
            "events: Ir\ntotals: x\n",
            "events: Ir\ntotals: 1 2\n",
            "events:\ntotals: 1\n",
        ] {
            assert!(
                matches!(parse_callgrind(bad), Err(SimError::Parse(_))),
                "{bad:?}"
            );
        }
    }
}
