//! Reference loops that put the replay numbers in context, verified like any replay:
//!
//! * [`VecIterate`]: summing a plain `Vec` of the live objects (of the trace's object size), the floor for any
//!   `iterate-*` workload (the "≤ 1.5× a plain Vec" goal for the packed array);
//! * [`DirectLookup`]: a hand-written loop calling `IdTable::get` over a plain `Vec` of the
//!   design's own IDs (no handle map), one per design it mirrors, to measure the replay
//!   driver's own overhead on lookup bodies and to rank the designs without the driver. The
//!   loop is [`super::lookup_all`], the very function the timed replay runs a uniform run of
//!   `Get`s through, so the two differ only by what the driver does around it.

use std::time::{Duration, Instant};

use impls::id_table::registry::ctors;
use impls::id_table::{Design, IdTable};
use workloads::{Object, Op, Payload, Payload8, Payload128, Trace};

use super::{Digest, IdTableFamily, SizedReplay, lookup_all};
use crate::replay::{ReferenceLoop, Replayer};

/// The live objects of a trace in a plain `Vec`, of the trace's object size.
enum Objects {
    B8(Vec<Payload8>),
    B32(Vec<Payload>),
    B128(Vec<Payload128>),
}

/// Sums `value` over a plain `Vec` holding the trace's live objects, once per `Iterate`.
pub struct VecIterate {
    objects: Objects,
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
        let model = SizedReplay::<ctors::Model>::after_setup(trace)
            .expect("the model never refuses an insert");
        let objects = match model {
            SizedReplay::B8(m) => Objects::B8(m.table.iter().copied().collect()),
            SizedReplay::B32(m) => Objects::B32(m.table.iter().copied().collect()),
            SizedReplay::B128(m) => Objects::B128(m.table.iter().copied().collect()),
        };
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
        match &self.objects {
            Objects::B8(v) => self.time(v, iters),
            Objects::B32(v) => self.time(v, iters),
            Objects::B128(v) => self.time(v, iters),
        }
    }
}

impl VecIterate {
    /// [`ReferenceLoop::run`] over objects of one size.
    fn time<P: Object>(&self, objects: &[P], iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            let mut sum = 0u64;
            for _ in 0..self.passes {
                let objects = std::hint::black_box(objects);
                sum = sum.wrapping_add(objects.iter().fold(0u64, |s, p| s.wrapping_add(p.value())));
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
/// its IDs in a list does, and the floor a replay of design `C` is read against
/// ([`ReferenceLoop::mirrors`]).
pub struct DirectLookup<C: Design> {
    state: SizedReplay<C>,
    ids: Vec<C::Id>,
    expected: Digest,
}

impl<C: Design> ReferenceLoop for DirectLookup<C> {
    type Family = IdTableFamily;

    fn name() -> String {
        format!("ref-direct-{}", SizedReplay::<C>::design_name())
    }

    fn mirrors() -> Option<&'static str> {
        Some(SizedReplay::<C>::design_name())
    }

    /// For a trace whose body is only `Get` ops; `None` otherwise or if the setup fails.
    fn for_trace(trace: &Trace<Op>, expected: &Digest) -> Option<Self> {
        let mut state = SizedReplay::<C>::after_setup(trace).ok()?;
        let ids = trace
            .body
            .iter()
            .map(|op| match op {
                Op::Get(h) => Some(state.handles().ids()[*h as usize]),
                _ => None,
            })
            .collect::<Option<Vec<C::Id>>>()?;
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
        match &self.state {
            SizedReplay::B8(s) => self.time(&s.table, iters),
            SizedReplay::B32(s) => self.time(&s.table, iters),
            SizedReplay::B128(s) => self.time(&s.table, iters),
        }
    }
}

impl<C: Design> DirectLookup<C> {
    /// [`ReferenceLoop::run`] on the table of one object size.
    fn time<P: Object, D: IdTable<P, Id = C::Id>>(
        &self,
        table: &D,
        iters: u64,
    ) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Instant::now();
            let (hits, sum) = lookup_all(table, std::hint::black_box(&self.ids));
            total += start.elapsed();
            if std::hint::black_box((hits, sum)) != (self.expected.hits, self.expected.lookup_sum) {
                return Err(format!(
                    "direct lookup loop over {} disagrees with the model",
                    SizedReplay::<C>::design_name()
                ));
            }
        }
        Ok(total)
    }
}
