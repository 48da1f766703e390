//! The machine's own memory limits as plain data: what one core of the measuring machine reads
//! per nanosecond when it streams a buffer, and what one load costs when its address is known
//! in advance (independent loads, as gets by ID) or comes from the previous load (a pointer
//! chase), at buffer sizes from the first-level cache to beyond the last. `dodbench sweep`
//! measures them (`bench_harness::measure::limits`) and stores them in its `sweeps` section;
//! the report draws them beside the designs and states a memory-bound cell's best design as a
//! share of the limit its body is bound by ([`MemoryBound`], declared per workload by its
//! family and recorded with the workload).

use serde::{Deserialize, Serialize};

/// The limits at one buffer size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MemoryLimit {
    /// Bytes of the buffer read.
    pub bytes: u64,
    /// Sequential read bandwidth in bytes per ns (GB/s): the buffer summed front to back.
    pub read_bytes_per_ns: f64,
    /// ns per load of a random word whose address does not depend on an earlier load: the
    /// processor overlaps them, as it overlaps a loop's gets by ID.
    pub independent_load_ns: f64,
    /// ns per load of a random cache line whose address is the previous load's value: each
    /// waits for the one before (a linked structure's walk).
    pub dependent_load_ns: f64,
}

/// The limits over a range of buffer sizes, and how they were measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryLimits {
    /// How each figure was measured (the kernels, repetitions and which repetition is kept).
    pub method: String,
    /// One point per buffer size, ascending.
    pub points: Vec<MemoryLimit>,
}

impl MemoryLimits {
    /// The limits at a buffer of `bytes`: each figure interpolated on log-log axes between the
    /// two measured sizes around it; below the smallest or above the largest measured size,
    /// that end's figures (a working set past the largest buffer pays at least its latency).
    /// `None` without points.
    pub fn at(&self, bytes: u64) -> Option<MemoryLimit> {
        let first = *self.points.first()?;
        let last = *self.points.last()?;
        if bytes <= first.bytes {
            return Some(MemoryLimit { bytes, ..first });
        }
        if bytes >= last.bytes {
            return Some(MemoryLimit { bytes, ..last });
        }
        let hi = self.points.iter().position(|p| p.bytes >= bytes)?;
        let (a, b) = (self.points[hi - 1], self.points[hi]);
        let t = ((bytes as f64).ln() - (a.bytes as f64).ln())
            / ((b.bytes as f64).ln() - (a.bytes as f64).ln());
        let between = |x: f64, y: f64| (x.ln() + t * (y.ln() - x.ln())).exp();
        Some(MemoryLimit {
            bytes,
            read_bytes_per_ns: between(a.read_bytes_per_ns, b.read_bytes_per_ns),
            independent_load_ns: between(a.independent_load_ns, b.independent_load_ns),
            dependent_load_ns: between(a.dependent_load_ns, b.dependent_load_ns),
        })
    }
}

/// What bounds a workload's body when its store is larger than the caches, for comparison
/// with the machine's [`MemoryLimits`]. A family declares it for the workloads whose body is
/// one of these shapes; other bodies have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MemoryBound {
    /// Each work unit reads `bytes_per_unit` bytes that sit next to the previous unit's (an
    /// iteration over packed objects): bound by the sequential read bandwidth.
    Stream {
        /// Bytes a work unit needs to read (the object's size).
        bytes_per_unit: u64,
    },
    /// Each work unit reads one object at an address known before the unit starts (a get by
    /// ID from a list of IDs): bound by the cost of an independent random load.
    IndependentLoads,
}

/// A design's time per work unit against the limit its body is bound by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimitShare {
    /// What bounds the body.
    pub bound: MemoryBound,
    /// The design's ns per work unit.
    pub ns_per_unit: f64,
    /// The machine's limit at the design's working set: bytes per ns of sequential reading
    /// for a stream, ns of one independent random load for independent loads.
    pub limit: f64,
}

impl LimitShare {
    /// `ns_per_unit` on a store of `working_set_bytes` against `limits`, for a body bound by
    /// `bound`; `None` without limits, or with a time or a limit that is not positive.
    pub fn of(
        bound: MemoryBound,
        ns_per_unit: f64,
        working_set_bytes: u64,
        limits: &MemoryLimits,
    ) -> Option<Self> {
        let at = limits.at(working_set_bytes)?;
        let limit = match bound {
            MemoryBound::Stream { .. } => at.read_bytes_per_ns,
            MemoryBound::IndependentLoads => at.independent_load_ns,
        };
        let positive = |x: f64| x.is_finite() && x > 0.0;
        (positive(ns_per_unit) && positive(limit)).then_some(Self {
            bound,
            ns_per_unit,
            limit,
        })
    }

    /// The ns per work unit the limit allows: the unit's bytes at the read bandwidth, or one
    /// independent load.
    pub fn limit_ns_per_unit(&self) -> f64 {
        match self.bound {
            MemoryBound::Stream { bytes_per_unit } => bytes_per_unit as f64 / self.limit,
            MemoryBound::IndependentLoads => self.limit,
        }
    }

    /// How far the design is from the limit: its ns per unit ÷ the limit's (1.0 at the
    /// limit, 2.0 for half the limit's speed; below 1 where the limit, measured apart from
    /// the design and interpolated between buffer sizes, reads low).
    pub fn times_limit(&self) -> f64 {
        self.ns_per_unit / self.limit_ns_per_unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> MemoryLimits {
        let point = |bytes, read, independent, dependent| MemoryLimit {
            bytes,
            read_bytes_per_ns: read,
            independent_load_ns: independent,
            dependent_load_ns: dependent,
        };
        MemoryLimits {
            method: "test".into(),
            points: vec![
                point(1 << 10, 40.0, 1.0, 1.5),
                point(1 << 20, 10.0, 4.0, 16.0),
            ],
        }
    }

    #[test]
    fn interpolates_on_log_axes_and_holds_the_ends() {
        let l = limits();
        let mid = l.at(1 << 15).unwrap();
        assert!((mid.read_bytes_per_ns - 20.0).abs() < 1e-9, "{mid:?}");
        assert!((mid.independent_load_ns - 2.0).abs() < 1e-9, "{mid:?}");
        assert!((mid.dependent_load_ns - 1.5 * (16.0f64 / 1.5).sqrt()).abs() < 1e-9);
        assert_eq!(l.at(10).unwrap().read_bytes_per_ns, 40.0);
        assert_eq!(l.at(1 << 30).unwrap().dependent_load_ns, 16.0);
        assert_eq!(l.at(1 << 30).unwrap().bytes, 1 << 30);
        let none = MemoryLimits {
            method: String::new(),
            points: Vec::new(),
        };
        assert_eq!(none.at(1024), None);
    }

    #[test]
    fn a_share_is_the_time_over_the_limits_time() {
        let l = limits();
        let stream = MemoryBound::Stream { bytes_per_unit: 32 };
        let s = LimitShare::of(stream, 4.0, 1 << 20, &l).unwrap();
        assert_eq!(s.limit_ns_per_unit(), 3.2);
        assert!((s.times_limit() - 1.25).abs() < 1e-12);
        let g = LimitShare::of(MemoryBound::IndependentLoads, 6.0, 1 << 20, &l).unwrap();
        assert_eq!(g.times_limit(), 1.5);
        assert_eq!(LimitShare::of(stream, 0.0, 1 << 20, &l), None);
        assert_eq!(LimitShare::of(stream, f64::NAN, 1 << 20, &l), None);
    }

    #[test]
    fn bounds_read_as_tagged_json() {
        let stream = MemoryBound::Stream { bytes_per_unit: 32 };
        let json = serde_json::to_string(&stream).unwrap();
        assert_eq!(json, r#"{"kind":"stream","bytes_per_unit":32}"#);
        let back: MemoryBound = serde_json::from_str(r#"{"kind":"independent_loads"}"#).unwrap();
        assert_eq!(back, MemoryBound::IndependentLoads);
    }
}
