//! Short text helpers of the view: shortened chart labels, three significant digits, dates.

use crate::format;

/// Shortens `s` to `max` characters with an ellipsis (chart labels; tables keep the whole).
pub(super) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max - 1).collect::<String>())
    }
}

/// `x` with three significant digits, empty when missing or not finite.
pub(super) fn sig3(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map(|v| format::significant(v, 3))
        .unwrap_or_default()
}

/// `YYYY-MM-DD HH:MM UTC` of a Unix time (the history's calendar, `results::history::utc_date`,
/// to the minute).
pub fn utc(unix: u64) -> String {
    let iso = results::history::utc_date(unix);
    format!("{} {} UTC", &iso[..10], &iso[11..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13 UTC");
    }
}
