//! Measurements beyond criterion's times, one module per metric. Each runs a family's replayer
//! ([`crate::replay::Replayer::replay`]) on a verified design, in its own pass, and fills its
//! fields of [`results::Benchmark`] (or the `sweeps` section), the same fields for every
//! family:
//!
//! * [`cache_sim`]: simulated cache misses per op under callgrind (deterministic), `sim`
//!   ([`callgrind_request`]: where its children start instrumenting);
//! * [`alloc_counter`]: the counting global allocator the `dodbench` binary installs;
//! * [`memory`]: bytes per object, peak bytes, allocator calls, memory over time, `memory`;
//! * [`counters`]: hardware counters where `perf_event_open` has them, `hw`;
//! * [`latency`]: per-op latency percentiles from batches of ops, `latency`;
//! * [`sweep`]: ns/op against N up to beyond the last-level cache, `sweeps`;
//! * [`limits`]: the machine's sequential read bandwidth and random-load latencies at the
//!   sweep's working sets, `sweeps.memory_limits`.

pub mod alloc_counter;
pub mod cache_sim;
pub mod callgrind_request;
pub mod counters;
pub mod latency;
pub mod limits;
pub mod memory;
pub mod sweep;

use crate::replay::{Design, Family, ReferenceLoop, ReplayerVisitor, Role};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, Outcome, check_design};

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
    /// Checks that every named workload and design exists in family `F`.
    ///
    /// # Errors
    /// The first unknown name, with the valid ones.
    pub fn validate<F: Family>(&self) -> Result<(), String> {
        let known = design_names::<F>();
        for d in &self.designs {
            if !known.contains(&d.as_str()) {
                return Err(format!(
                    "unknown {} design {d:?}; valid designs: {}",
                    F::NAME,
                    known.join(", ")
                ));
            }
        }
        let workloads: Vec<&str> = workloads::registry::workloads_of(F::NAME)
            .iter()
            .map(|w| w.name)
            .collect();
        for w in &self.workloads {
            if !workloads.contains(&w.as_str()) {
                return Err(format!(
                    "unknown {} workload {w:?}; valid workloads: {}",
                    F::NAME,
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

    /// How many of family `F`'s designs are selected.
    pub fn design_count<F: Family>(&self) -> usize {
        design_names::<F>()
            .iter()
            .filter(|d| self.selects_design(d))
            .count()
    }
}

/// The names of family `F`'s registered designs (not its references), in registry order.
pub fn design_names<F: Family>() -> Vec<&'static str> {
    crate::replay::replayer_names::<F>(Some(Role::Design))
}

/// Something measured once per selected design on one prepared trace, for designs of any
/// family. `measure` is only called for designs whose verification replay gave the model's
/// answers.
pub trait DesignMeasure {
    /// What one design yields.
    type Output;

    /// Measures `design` on `prepared`.
    ///
    /// # Errors
    /// The measurement's own replay failed or disagreed with the model.
    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        checked: &Checked,
    ) -> Result<Self::Output, String>;

    /// Measures reference loop `L` on `prepared` (a trace it has the shape of), for a pass
    /// whose figures a hand-written loop also has (the cache pass: simulated instructions of
    /// the floor a replay is read against); `None` (the default): the pass skips loops.
    fn measure_loop<L: ReferenceLoop>(
        &mut self,
        prepared: &PreparedTrace<L::Family>,
    ) -> Option<Result<Self::Output, String>> {
        let _ = prepared;
        None
    }
}

/// One design's row of a pass: its verdict and, when verified, the measurement.
#[derive(Debug)]
pub struct DesignRow<O> {
    /// Registry name (or reference loop name).
    pub design: String,
    /// Whether the row is a reference loop's (results family `reference`).
    pub reference: bool,
    /// The verification replay's verdict (with the design's memory after setup).
    pub checked: Checked,
    /// The measurement, or why it failed; `None` for designs that were not verified.
    pub measured: Option<Result<O, String>>,
}

/// Verifies every selected design on `prepared` and runs `m` on the verified ones, calling
/// `on_design` after each (for progress). References are not measured; reference loops that
/// have the trace's shape are, by passes that measure loops
/// ([`DesignMeasure::measure_loop`]), when no design is named.
pub fn for_each_verified<F: Family, M: DesignMeasure>(
    prepared: &PreparedTrace<F>,
    selection: &Selection,
    m: &mut M,
    on_design: &mut dyn FnMut(&str),
) -> Vec<DesignRow<M::Output>> {
    struct Visit<'a, F: Family, M: DesignMeasure> {
        prepared: &'a PreparedTrace<F>,
        selection: &'a Selection,
        m: &'a mut M,
        on_design: &'a mut dyn FnMut(&str),
        rows: Vec<DesignRow<M::Output>>,
    }
    impl<F: Family, M: DesignMeasure> ReplayerVisitor<F> for Visit<'_, F, M> {
        fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
            let name = design.name();
            if role != Role::Design || !self.selection.selects_design(name) {
                return;
            }
            let checked = check_design(design, &self.prepared.trace, &self.prepared.expected);
            let measured = checked
                .outcome
                .is_verified()
                .then(|| self.m.measure(design, self.prepared, &checked));
            self.rows.push(DesignRow {
                design: name.to_string(),
                reference: false,
                checked,
                measured,
            });
            (self.on_design)(name);
        }

        fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
            let p = self.prepared;
            if !self.selection.designs.is_empty()
                || L::for_trace(&p.trace, &p.expected.body).is_none()
            {
                return;
            }
            let Some(measured) = self.m.measure_loop::<L>(p) else {
                return;
            };
            let outcome = match &measured {
                Ok(_) => Outcome::Verified,
                Err(e) => Outcome::Failed(e.clone()),
            };
            self.rows.push(DesignRow {
                design: L::name(),
                reference: true,
                checked: Checked::outcome_only(outcome),
                measured: Some(measured),
            });
        }
    }
    let was = crate::replay::set_repeatable(true);
    let mut visit = Visit {
        prepared,
        selection,
        m,
        on_design,
        rows: Vec::new(),
    };
    F::for_each_replayer(&mut visit);
    crate::replay::set_repeatable(was);
    visit.rows
}
