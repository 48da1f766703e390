//! `bench_harness::shrink` on a planted wrong answer in every family: the family's reference
//! design, wrapped so that it skips one op in 61 ([`kept`]: a wrong answer on a rarely reached
//! path, the kind of bug the model tests plant), fails verification on a default-size
//! trace; the shrink keeps that failure on a trace of at most 5 % of the ops or at most 50.

use std::any::Any;
use std::time::{Duration, Instant};

use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::erased::OnBatch;
use bench_harness::replay::{
    Design, Family, OpOf, ReplayError, ReplayerVisitor, Resolved, Role, Scale, State,
};
use bench_harness::shrink::shrink;
use bench_harness::verify::{Expected, check_design};
use workloads::{Trace, TraceOp};

type Digest<F> = <F as Family>::Digest;
type StatsOf<F> = <OpOf<F> as TraceOp>::Stats;

/// The planted bug: of the ops that create no handle (the inner design's handles stay in step
/// with the trace), every 61st from the 8th on is skipped, counted over the body's replay:
/// an off-by-one on a path one op in 61 reaches.
fn kept<O: TraceOp>(ops: &[O], seen: &mut usize) -> Vec<O> {
    let mut kept = Vec::with_capacity(ops.len());
    for &op in ops {
        if !op.creates_handle() {
            *seen += 1;
            if *seen % 61 == 8 {
                continue;
            }
        }
        kept.push(op);
    }
    kept
}

/// `inner` with the planted bug.
struct Planted<F: Family>(&'static dyn Design<F>);

/// The inner state and the ops without handles it has been given.
struct PlantedState<F: Family>(Box<dyn State<F>>, usize);

impl<F: Family> Design<F> for Planted<F> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn unsupported_before(&self, stats: &StatsOf<F>) -> Option<String> {
        self.0.unsupported_before(stats)
    }
    fn unsupported_trace(&self, trace: &Trace<OpOf<F>>) -> Option<String> {
        self.0.unsupported_trace(trace)
    }
    fn unsupported_after(&self, stats: &StatsOf<F>, body: &Digest<F>) -> Option<String> {
        self.0.unsupported_after(stats, body)
    }
    fn for_trace(&self, trace: &Trace<OpOf<F>>) -> Box<dyn State<F>> {
        Box::new(PlantedState(self.0.for_trace(trace), 0))
    }
    fn after_setup(&self, trace: &Trace<OpOf<F>>) -> Result<Box<dyn State<F>>, ReplayError> {
        // The setup as the design builds it; the bug is in the body's path.
        Ok(Box::new(PlantedState(self.0.after_setup(trace)?, 0)))
    }
    fn measure(
        &self,
        trace: &Trace<OpOf<F>>,
        stats: &StatsOf<F>,
    ) -> Result<Option<F::Metrics>, ReplayError> {
        self.0.measure(trace, stats)
    }
}

impl<F: Family> State<F> for PlantedState<F> {
    fn replay(&mut self, ops: &[OpOf<F>]) -> Result<Digest<F>, ReplayError> {
        self.0.replay(&kept(ops, &mut self.1))
    }
    fn resolve(&mut self, ops: &[OpOf<F>]) -> Result<(Resolved, Digest<F>), ReplayError> {
        self.0.resolve(&kept(ops, &mut self.1))
    }
    fn replay_resolved(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
    ) -> Result<Digest<F>, ReplayError> {
        self.0.replay_resolved(&kept(ops, &mut self.1), body)
    }
    fn timed_replay(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
    ) -> (Duration, Result<Digest<F>, ReplayError>) {
        self.0.timed_replay(&kept(ops, &mut self.1), body)
    }
    fn replay_resolved_within(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
        within: &mut dyn FnMut(&mut dyn FnMut()),
    ) -> Result<Digest<F>, ReplayError> {
        self.0
            .replay_resolved_within(&kept(ops, &mut self.1), body, within)
    }
    fn replay_in_batches(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
        batch: usize,
        each: &mut OnBatch<'_, F>,
    ) -> Result<(), ReplayError> {
        self.0
            .replay_in_batches(&kept(ops, &mut self.1), body, batch, each)
    }
    fn memory_bytes(&self) -> u64 {
        self.0.memory_bytes()
    }
    fn live_count(&self) -> usize {
        self.0.live_count()
    }
    fn state_digest(&mut self) -> Option<u64> {
        self.0.state_digest()
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.0.check_invariants()
    }
    fn as_any(&self) -> &dyn Any {
        self.0.as_any()
    }
}

/// The family's reference design as an object.
fn reference<F: Family>() -> &'static dyn Design<F> {
    struct Find<F: Family>(Option<&'static dyn Design<F>>);
    impl<F: Family> ReplayerVisitor<F> for Find<F> {
        fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
            if role == Role::Design && design.name() == F::REFERENCE_DESIGN {
                self.0 = Some(design);
            }
        }
    }
    let mut find = Find::<F>(None);
    F::for_each_replayer(&mut find);
    find.0
        .expect("every family's reference design is registered")
}

/// Per family: the workload, the ops before and after, and the time it took.
struct PlantedShrinks(Vec<String>, Vec<String>);

impl FamilyVisitor for PlantedShrinks {
    fn visit<F: Family>(&mut self) {
        let inner = reference::<F>();
        let planted: &'static Planted<F> = Box::leak(Box::new(Planted(inner)));
        let n = F::bench_sizes(Scale::Default)[0];
        // The family's first workload (at its smallest default size) the planted bug fails on
        // the way the model check first sees it: in the body's answers or the state after.
        let failing = workloads::registry::workloads_of(F::NAME)
            .into_iter()
            .filter(|w| !w.recorded && w.variant_of.is_none())
            .find_map(|w| {
                let trace = workloads::registry::generate_for::<OpOf<F>>(
                    w.name,
                    n,
                    bench_harness::suite::DEFAULT_SEED,
                    None,
                )
                .ok()?;
                let expected = Expected::of(&trace).ok()?;
                let honest = check_design(inner, &trace, &expected);
                let checked = check_design(planted, &trace, &expected);
                (honest.outcome.is_verified() && checked.failure.is_some()).then_some((
                    w.name,
                    trace,
                    checked.failure,
                ))
            });
        let Some((workload, trace, kind)) = failing else {
            panic!("{}: the planted bug fails no workload at n={n}", F::NAME);
        };
        let ops = trace.setup.len() + trace.body.len();
        let started = Instant::now();
        let shrunk = shrink::<F>(planted, trace, Duration::from_secs(120), &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
        let left = shrunk.trace.setup.len() + shrunk.trace.body.len();
        let line = format!(
            "{}/{workload} n={n}: {ops} ops -> {left} ({:.2}%), {} candidates, {:.1?}, {:?}",
            F::NAME,
            100.0 * left as f64 / ops as f64,
            shrunk.tests,
            started.elapsed(),
            kind
        );
        assert_eq!(Some(shrunk.kind), kind, "{line}");
        assert!(shrunk.finished, "{line}: stopped by the time limit");
        if !(left * 20 <= ops || left <= 50) {
            self.1.push(format!("{line}: not small enough"));
        }
        let again = Expected::of(&shrunk.trace).expect("the shrunk trace is valid");
        assert_eq!(
            check_design(planted, &shrunk.trace, &again).failure,
            kind,
            "{line}: the shrunk trace does not fail the same way"
        );
        assert!(
            check_design(inner, &shrunk.trace, &again)
                .outcome
                .is_verified(),
            "{line}: the honest design fails the shrunk trace"
        );
        self.0.push(line);
    }
}

#[test]
fn a_planted_wrong_answer_shrinks_to_a_small_trace_in_every_family() {
    let mut shrinks = PlantedShrinks(Vec::new(), Vec::new());
    for_each_family(&mut shrinks);
    for line in &shrinks.0 {
        eprintln!("{line}");
    }
    assert!(shrinks.1.is_empty(), "{:#?}", shrinks.1);
    assert_eq!(
        shrinks.0.len(),
        bench_harness::families::family_names().len()
    );
}

#[test]
fn a_trace_the_design_passes_is_not_shrunk() {
    let trace = workloads::registry::generate_for::<OpOf<bench_harness::replay::IdTableFamily>>(
        "churn", 1000, 1, None,
    )
    .unwrap();
    let design = reference::<bench_harness::replay::IdTableFamily>();
    let error = shrink(design, trace, Duration::from_secs(5), &mut |_| {}).unwrap_err();
    assert!(
        error.to_string().contains("does not fail verification"),
        "{error}"
    );
}
