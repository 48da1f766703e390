//! Number formatting shared by tables and chart labels, so a number reads the same everywhere.

/// `x` with `digits` significant digits, without exponent notation (`1234.5` → `1235`,
/// `2.3456` → `2.346`, `0.012345` → `0.01235`).
pub fn significant(x: f64, digits: u32) -> String {
    if !x.is_finite() {
        return "-".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Nanoseconds per op for tables: four significant digits.
pub fn ns(x: f64) -> String {
    significant(x, 4)
}

/// A rate or count with an SI prefix: `412.3 M`, `9.87 k`, `12.0`.
pub fn si(x: f64) -> String {
    if !x.is_finite() {
        return "-".to_string();
    }
    let (scaled, prefix) = match x.abs() {
        a if a >= 1e12 => (x / 1e12, " T"),
        a if a >= 1e9 => (x / 1e9, " G"),
        a if a >= 1e6 => (x / 1e6, " M"),
        a if a >= 1e3 => (x / 1e3, " k"),
        _ => (x, ""),
    };
    format!("{}{prefix}", significant(scaled, 4))
}

/// Bytes with a binary prefix: `48 KiB`, `2 MiB`, `1.5 GiB`, `96 B`.
pub fn bytes(b: f64) -> String {
    let (scaled, unit) = match b.abs() {
        a if a >= (1u64 << 30) as f64 => (b / (1u64 << 30) as f64, "GiB"),
        a if a >= (1u64 << 20) as f64 => (b / (1u64 << 20) as f64, "MiB"),
        a if a >= 1024.0 => (b / 1024.0, "KiB"),
        _ => (b, "B"),
    };
    format!("{} {unit}", trim_zeros(&significant(scaled, 3)))
}

/// `48.0` → `48`, `1.50` → `1.5`; integers are left alone.
fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// `1234567` as `1,234,567`.
pub fn count(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A ratio to the best: `1.00×`, `12.35×`.
pub fn ratio(x: f64) -> String {
    format!("{x:.2}×")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers_for_people() {
        assert_eq!(significant(1234.4, 4), "1234");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(count(65_536), "65,536");
        assert_eq!(count(999), "999");
        assert_eq!(significant(2.34567, 4), "2.346");
        assert_eq!(significant(0.012346, 4), "0.01235");
        assert_eq!(significant(f64::NAN, 4), "-");
        assert_eq!(si(412_345_678.0), "412.3 M");
        assert_eq!(si(9_870.0), "9.870 k");
        assert_eq!(si(12.0), "12.00");
        assert_eq!(bytes(48.0 * 1024.0), "48 KiB");
        assert_eq!(bytes(1.5 * 1048576.0), "1.5 MiB");
        assert_eq!(bytes(96.0), "96 B");
        assert_eq!(ratio(1.0), "1.00×");
    }
}
