//! Measurements beyond criterion's times, one module per metric. Each runs the one replay
//! driver ([`crate::replay::ReplayState::replay`]) on a verified design, in its own pass, and
//! fills its fields of [`results::Benchmark`] (or the `sweeps` section):
//!
//! * [`cache_sim`]: simulated cache misses per op under callgrind (deterministic), `sim`;
//! * [`alloc_counter`]: the counting global allocator the `dodbench` binary installs;
//! * [`memory`]: bytes per object, peak bytes, allocator calls, memory over time, `memory`;
//! * [`counters`]: hardware counters where `perf_event_open` has them, `hw`;
//! * [`latency`]: per-op latency percentiles from batches of ops, `latency`;
//! * [`sweep`]: ns/op against N up to beyond the last-level cache, `sweeps`.

pub mod alloc_counter;
pub mod cache_sim;
pub mod counters;
pub mod latency;
pub mod memory;
pub mod sweep;

use impls::id_table::{DesignVisitor, IdTable, designs, for_each_design};
use workloads::Payload;

use crate::suite::PreparedTrace;
use crate::verify::{Checked, check_design};

/// Workloads of the cache, memory and sweep passes: the ones whose cost is memory traffic.
pub const SWEEP_WORKLOADS: [&str; 4] = ["lookup-uniform", "iterate-full", "iterate-holes", "churn"];

/// Which (workload, design, N) a pass runs: empty `designs` means every registered design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// Workload names.
    pub workloads: Vec<String>,
    /// Design names; empty for all.
    pub designs: Vec<String>,
    /// Live sizes.
    pub sizes: Vec<usize>,
}

impl Selection {
    /// Checks that every named workload (of the ID-table family) and design exists.
    ///
    /// # Errors
    /// The first unknown name, with the valid ones.
    pub fn validate(&self) -> Result<(), String> {
        let known: Vec<&str> = designs().iter().map(|d| d.name).collect();
        for d in &self.designs {
            if !known.contains(&d.as_str()) {
                return Err(format!(
                    "unknown design {d:?}; valid designs: {}",
                    known.join(", ")
                ));
            }
        }
        // The passes measure the ID-table family; the tag and allocator families carry their
        // own metrics from `cargo bench`.
        let workloads: Vec<&str> = workloads::registry::workloads_of(workloads::family::ID_TABLE)
            .iter()
            .map(|w| w.name)
            .collect();
        for w in &self.workloads {
            if !workloads.contains(&w.as_str()) {
                return Err(format!(
                    "unknown ID-table workload {w:?}; valid workloads: {}",
                    workloads.join(", ")
                ));
            }
        }
        if self.sizes.contains(&0) {
            return Err("--n must be positive".to_string());
        }
        Ok(())
    }

    /// Whether design `name` is selected.
    pub fn selects_design(&self, name: &str) -> bool {
        self.designs.is_empty() || self.designs.iter().any(|d| d == name)
    }

    /// How many designs are selected.
    pub fn design_count(&self) -> usize {
        designs()
            .iter()
            .filter(|d| self.selects_design(d.name))
            .count()
    }
}

/// Something measured once per selected design on one prepared trace. `measure` is only called
/// for designs whose verification replay gave the model's answers.
pub trait DesignMeasure {
    /// What one design yields.
    type Output;

    /// Measures design `D` on `prepared`.
    ///
    /// # Errors
    /// The measurement's own replay failed or disagreed with the model.
    fn measure<D: IdTable<Payload> + 'static>(
        &mut self,
        prepared: &PreparedTrace,
        checked: &Checked,
    ) -> Result<Self::Output, String>;
}

/// One design's row of a pass: its verdict and, when verified, the measurement.
#[derive(Debug)]
pub struct DesignRow<O> {
    /// Registry name.
    pub design: &'static str,
    /// The verification replay's verdict (with the design's memory after setup).
    pub checked: Checked,
    /// The measurement, or why it failed; `None` for designs that were not verified.
    pub measured: Option<Result<O, String>>,
}

/// Verifies every selected design on `prepared` and runs `m` on the verified ones, calling
/// `on_design` after each (for progress).
pub fn for_each_verified<M: DesignMeasure>(
    prepared: &PreparedTrace,
    selection: &Selection,
    m: &mut M,
    on_design: &mut dyn FnMut(&str),
) -> Vec<DesignRow<M::Output>> {
    struct Visit<'a, M: DesignMeasure> {
        prepared: &'a PreparedTrace,
        selection: &'a Selection,
        m: &'a mut M,
        on_design: &'a mut dyn FnMut(&str),
        rows: Vec<DesignRow<M::Output>>,
    }
    impl<M: DesignMeasure> DesignVisitor<Payload> for Visit<'_, M> {
        fn visit<D: IdTable<Payload> + 'static>(&mut self) {
            let name = D::INFO.name;
            if !self.selection.selects_design(name) {
                return;
            }
            let checked = check_design::<D>(&self.prepared.trace, &self.prepared.expected);
            let measured = checked
                .outcome
                .is_verified()
                .then(|| self.m.measure::<D>(self.prepared, &checked));
            self.rows.push(DesignRow {
                design: name,
                checked,
                measured,
            });
            (self.on_design)(name);
        }
    }
    let mut visit = Visit {
        prepared,
        selection,
        m,
        on_design,
        rows: Vec::new(),
    };
    for_each_design(&mut visit);
    visit.rows
}
