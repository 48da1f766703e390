//! The one place that reads a benchmark's (or a sweep or history point's) status: whether it was
//! verified, its median if so, and the words a row shows when it has no number.

use results::{Benchmark, Status};

/// Whether a status says the design's digest matched the model (`verified`); `failed` and
/// `unsupported` designs carry no time.
pub(super) fn is_verified(status: Status) -> bool {
    status.is_verified()
}

/// A status as the page writes it.
pub(super) fn status_name(status: Status) -> String {
    status.to_string()
}

/// The median ns per work unit of a verified benchmark with a usable time; `None` for a design
/// that was not timed.
pub(super) fn median(b: &Benchmark) -> Option<f64> {
    b.ns_per_op
        .map(|e| e.median)
        .filter(|m| b.verified && m.is_finite() && *m > 0.0)
}

/// The status, with the reason when there is one: what a chart or row shows without a time.
pub(super) fn note(b: &Benchmark) -> String {
    match &b.reason {
        Some(r) => format!("{}: {r}", status_name(b.status)),
        None => status_name(b.status),
    }
}

/// What a row without its family's metrics says instead: timed but not measured (`time only`,
/// e.g. the `system` allocator), or why it was neither.
pub(super) fn unmeasured_note(b: &Benchmark) -> String {
    if median(b).is_some() {
        "time only".to_string()
    } else {
        note(b)
    }
}
