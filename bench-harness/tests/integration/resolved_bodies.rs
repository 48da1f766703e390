//! The resolved timed replay, for every family, workload and design: it gives the model's
//! answers, its resolved IDs stay within twice the trace's own bytes (setup and body ops in
//! memory; the segment table adds at most one entry per 32 ops), and lookup bodies
//! touch every live object (the working set the times claim).

use crate::short_traces::short_trace;
use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::resolved::MIN_UNIFORM_RUN;
use bench_harness::replay::{Family, Replayer, ReplayerVisitor, Role};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::check_replayer;

/// Checks every design of one prepared trace.
struct Designs<'a, F: Family> {
    prepared: &'a PreparedTrace<F>,
    /// (workload, n, design, resolved bytes ÷ trace bytes) of every verified design.
    ratios: &'a mut Vec<(String, usize, &'static str, f64)>,
}

impl<F: Family> ReplayerVisitor<F> for Designs<'_, F> {
    fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
        let p = self.prepared;
        if role != Role::Design
            || R::unsupported_before(&p.expected.stats)
                .or_else(|| R::unsupported_trace(&p.trace))
                .is_some()
        {
            return;
        }
        let mut timed = TimedReplay::of::<R>(&p.trace, &p.expected);
        if let Err(e) = timed.run(2) {
            // The timed replay verifies its answers too, so it also fails a design the body
            // does not suit (stale IDs it cannot detect): only a design the untimed
            // verification accepts must pass it. Asked after the fact, the verification's
            // replay runs for these designs alone.
            assert!(
                !check_replayer::<R>(&p.trace, &p.expected)
                    .outcome
                    .is_verified(),
                "{}/{}/{}/{}: the resolved replay failed: {e}",
                F::NAME,
                p.workload,
                R::design_name(),
                p.n
            );
            return;
        }
        // The trace's own size in memory: its ops, setup and body.
        let ops = p.trace.setup.len() + p.trace.body.len();
        let trace_bytes = (ops * std::mem::size_of::<F::Op>()).max(1);
        let body = timed
            .resolved()
            .and_then(|body| body.typed::<R::Id>())
            .expect("resolved by the run");
        let id_bytes = std::mem::size_of_val(body.ids());
        // At most one segment per 64-op run plus the mixed stretches between them.
        let most_segments = 2 * p.trace.body.len() / MIN_UNIFORM_RUN + 2;
        assert!(
            body.segments().len() <= most_segments,
            "{}/{}: {} segments for {} ops",
            F::NAME,
            p.workload,
            body.segments().len(),
            p.trace.body.len()
        );
        let resolved = id_bytes;
        self.ratios.push((
            p.workload.clone(),
            p.n,
            R::design_name(),
            resolved as f64 / trace_bytes as f64,
        ));
    }
}

/// One family's check: the problems found (empty when every design passed).
type FamilyCheck = Box<dyn FnOnce() -> Vec<String> + Send>;

/// Collects one [`check_family`] per family, to run them on every core: the families are
/// independent, and one after another they were the longest test binary of `cargo test`.
struct EveryFamily(Vec<FamilyCheck>);

impl FamilyVisitor for EveryFamily {
    fn visit<F: Family>(&mut self) {
        self.0.push(Box::new(check_family::<F>));
    }
}

/// Replays every workload of family `F` on every design, resolved, at its first quick size
/// (at most 1,000) with a short body ([`short_trace`]: a resolved body's segments and IDs are
/// per op, so the bound holds or fails on the first thousands of ops as on the whole, but
/// for the workload whose largest ops come last, which keeps its length); the problems found.
fn check_family<F: Family>() -> Vec<String> {
    let n = F::pass_sizes(true)[0].min(1_000);
    let mut ratios = Vec::new();
    for w in workloads::registry::workloads_of(F::NAME) {
        let prepared = short_trace::<F>(w.name, n, 21);
        F::for_each_replayer(&mut Designs {
            prepared: &prepared,
            ratios: &mut ratios,
        });
    }
    assert!(!ratios.is_empty(), "{}: no design verified", F::NAME);
    let max = ratios.iter().max_by(|a, b| a.3.total_cmp(&b.3)).unwrap();
    println!(
        "{}: largest resolved IDs ÷ trace: {:.4}× ({} {} n = {})",
        F::NAME,
        max.3,
        max.0,
        max.2,
        max.1
    );
    let mut problems = Vec::new();
    for (workload, n, design, ratio) in ratios {
        // 2× the trace, up to the rounding of a body of reallocs: each carries a 16-byte
        // block in and one out for a 12-byte op (alloc-vector-doubling: 2.0003×).
        if ratio > 2.001 {
            problems.push(format!(
                "{}/{workload}/{design}/{n}: resolved IDs are {ratio:.2}× the trace",
                F::NAME
            ));
        }
    }
    problems
}

#[test]
fn every_design_of_every_family_verifies_resolved_within_twice_the_trace_bytes() {
    let mut every = EveryFamily(Vec::new());
    for_each_family(&mut every);
    let checks = std::sync::Mutex::new(every.0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    // A panicking check (a failed replay) fails the test through its thread's join.
    let problems: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        // Taken in a statement of its own: the lock is not held by the check.
                        let next = checks.lock().unwrap().pop();
                        let Some(check) = next else { break };
                        found.extend(check());
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a family's check panicked"))
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn lookup_uniform_touches_every_live_object_at_every_bench_size() {
    use bench_harness::replay::{IdTableFamily, Scale};
    for scale in [Scale::Quick, Scale::Default] {
        for n in IdTableFamily::bench_sizes(scale) {
            let trace = workloads::registry::generate("lookup-uniform", n, 1, None).unwrap();
            let ws = trace.working_set();
            assert_eq!(ws.distinct, n as u64, "n = {n}");
            assert!(!ws.visits_store);
        }
    }
}

#[test]
fn whole_store_bodies_say_so() {
    let trace = workloads::registry::generate("iterate-full", 1_000, 1, None).unwrap();
    let ws = trace.working_set();
    assert!(ws.visits_store);
    assert_eq!(ws.distinct, 0);
}
