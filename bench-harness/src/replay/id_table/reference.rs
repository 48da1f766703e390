//! Reference loops that put the replay numbers in context, verified like any replay:
//!
//! * [`VecIterate`]: summing a plain `Vec<Payload>` of the live objects, the floor for any
//!   `iterate-*` workload (the "≤ 1.5× a plain Vec" goal for the packed array);
//! * [`DirectLookup`]: a hand-written loop calling `IdTable::get` over a plain `Vec` of the
//!   design's own IDs (no handle map), one per design it mirrors, to measure the replay
//!   driver's own overhead on lookup bodies and to rank the designs without the driver.

use std::time::{Duration, Instant};

use impls::id_table::IdTable;
use workloads::{Op, Payload, Trace};

use super::{Digest, IdTableFamily, ReplayState, mix};
use crate::replay::{ReferenceLoop, Replayer};

/// Sums `value` over a plain `Vec` holding the trace's live objects, once per `Iterate`.
pub struct VecIterate {
    objects: Vec<Payload>,
    passes: usize,
    expected_sum: u64,
}

impl ReferenceLoop for VecIterate {
    type Family = IdTableFamily;

    fn name() -> String {
        "ref-vec".to_string()
    }

    /// For a trace whose body is only `Iterate` ops; `None` otherwise.
    fn for_trace(trace: &Trace<Op>, expected: &Digest) -> Option<Self> {
        if trace.body.is_empty() || trace.body.iter().any(|op| *op != Op::Iterate) {
            return None;
        }
        let model = ReplayState::<impls::id_table::model::ModelTable<Payload>>::after_setup(trace)
            .expect("the model never refuses an insert");
        let objects: Vec<Payload> = model.table.iter().copied().collect();
        Some(Self {
            objects,
            passes: trace.body.len(),
            expected_sum: expected.iterate_sum,
        })
    }

    /// Times `iters` runs of all passes.
    ///
    /// # Errors
    /// The sum differs from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            let mut sum = 0u64;
            for _ in 0..self.passes {
                let objects = std::hint::black_box(&self.objects);
                sum = sum.wrapping_add(objects.iter().fold(0u64, |s, p| s.wrapping_add(p.value)));
            }
            total += start.elapsed();
            if std::hint::black_box(sum) != self.expected_sum {
                return Err(format!(
                    "vec sum {sum} differs from the model's {}",
                    self.expected_sum
                ));
            }
        }
        Ok(total)
    }
}

/// Calls `IdTable::get` in a hand-written loop over a plain `Vec` of the table's own IDs (the
/// body's handles resolved before timing, read sequentially): what an application that keeps
/// its IDs in a list does, and the floor a replay of design `D` is read against
/// ([`ReferenceLoop::mirrors`]).
pub struct DirectLookup<D: IdTable<Payload>> {
    state: ReplayState<D>,
    ids: Vec<D::Id>,
    expected: Digest,
}

impl<D: IdTable<Payload>> ReferenceLoop for DirectLookup<D> {
    type Family = IdTableFamily;

    fn name() -> String {
        format!("ref-direct-{}", D::INFO.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(D::INFO.name)
    }

    /// For a trace whose body is only `Get` ops; `None` otherwise or if the setup fails.
    fn for_trace(trace: &Trace<Op>, expected: &Digest) -> Option<Self> {
        let mut state = ReplayState::<D>::after_setup(trace).ok()?;
        let ids = trace
            .body
            .iter()
            .map(|op| match op {
                Op::Get(h) => Some(state.handles().ids()[*h as usize]),
                _ => None,
            })
            .collect::<Option<Vec<D::Id>>>()?;
        Some(Self {
            state,
            ids,
            expected: *expected,
        })
    }

    /// Times `iters` runs of the lookup loop.
    ///
    /// # Errors
    /// Hits or the lookup sum differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            let table = &self.state.table;
            let mut hits = 0u64;
            let mut sum = 0u64;
            for &id in std::hint::black_box(&self.ids) {
                if let Some(p) = table.get(id) {
                    hits += 1;
                    sum = sum.wrapping_add(mix(p));
                }
            }
            total += start.elapsed();
            if std::hint::black_box((hits, sum)) != (self.expected.hits, self.expected.lookup_sum) {
                return Err(format!(
                    "direct lookup loop over {} disagrees with the model",
                    D::INFO.name
                ));
            }
        }
        Ok(total)
    }
}
