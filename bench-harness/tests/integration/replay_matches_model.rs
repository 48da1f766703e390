//! Every registered ID-table design replays every ID-table workload with the model's answers,
//! and a broken design is caught before it could be timed. (The allocator family's counterpart
//! is `alloc_replay.rs`.)

use crate::short_traces::short_trace;
use bench_harness::replay::id_table::STALE_WRAP;
use bench_harness::replay::id_table::recording::Recording;
use bench_harness::replay::{IdTableFamily, IdTableReplay, IdTableState, Replayer};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Expected, Outcome, check_replayer};
use impls::DesignMeta;
use impls::TableError;
use impls::id_table::holey::Holey;
use impls::id_table::{
    Design, DesignCtorVisitor, DesignInfo, DesignKind, IdTable, StaleDetection,
    for_each_design_ctor,
};
use workloads::{IdTableOp, Payload, PayloadSize, Trace};

use crate::support::verify_and_time;

/// The entry of a test's broken design in the registry's terms: tuned, named `name` and
/// described by `description`, with IDs of `id_bytes` that detect stale IDs as `stale`, and
/// no stated hazard, capacity or cap on free-index shifts.
const fn test_info(
    name: &'static str,
    description: &'static str,
    id_bytes: usize,
    stale: StaleDetection,
) -> DesignInfo {
    DesignInfo {
        meta: DesignMeta {
            name,
            description,
            kind: DesignKind::Tuned,
        },
        id_bytes,
        stale,
        demonstrates: None,
        capacity: None,
        remove_shift_cap: None,
    }
}

/// Why table `T`'s replay failed verification on `workload` generated at `n` with `seed`;
/// panics if it did not fail.
fn failure<T: IdTable<Payload> + 'static>(workload: &str, n: usize, seed: u64) -> String {
    let p = PreparedTrace::<IdTableFamily>::generate(workload, n, seed).unwrap();
    match check_replayer::<IdTableState<T>>(&p.trace, &p.expected).outcome {
        Outcome::Failed(reason) => reason,
        other => panic!(
            "{} on {workload} was not caught: {other:?}",
            T::INFO.meta.name
        ),
    }
}

/// The [`IdTable`] methods a test's wrapper of a table forwards unchanged to the table it wraps
/// (field `$inner` of `self`): each signature, `&self` or `&mut self`, becomes
/// a method that calls the wrapped design's method of that name with the same arguments.
///
/// ```text
/// forward_to!(0;
///     fn remove(&mut self, id: Self::Id) -> Option<Payload>;
///     fn len(&self) -> usize;
/// );
/// ```
macro_rules! forward_to {
    ($inner:tt;) => {};
    ($inner:tt; fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?; $($rest:tt)*) => {
        fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
            self.$inner.$name($($arg),*)
        }
        forward_to!($inner; $($rest)*);
    };
    ($inner:tt; fn $name:ident(&mut self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?; $($rest:tt)*) => {
        fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            self.$inner.$name($($arg),*)
        }
        forward_to!($inner; $($rest)*);
    };
}

/// The [`IdTable`] methods a test's wrapper of a table (field `0`) forwards unchanged whatever
/// its IDs: the count, the iterators and the memory.
macro_rules! forward_table_reads {
    () => {
        forward_to!(0;
            fn len(&self) -> usize;
            fn iter(&self) -> impl Iterator<Item = &Payload>;
            fn iter_mut(&mut self) -> impl Iterator<Item = &mut Payload>;
            fn memory_bytes(&self) -> usize;
        );
    };
}

struct VerifyAll<'a> {
    prepared: &'a PreparedTrace<IdTableFamily>,
    verdicts: Vec<(&'static str, Outcome)>,
}

impl DesignCtorVisitor for VerifyAll<'_> {
    fn visit<D: Design>(&mut self) {
        let outcome = verify_and_time::<IdTableReplay<D>>(self.prepared);
        self.verdicts
            .push((IdTableReplay::<D>::design_name(), outcome));
    }
}

/// The sizes every design's outcome is checked at: the edges of a table (one object, a few, a
/// few hundred), with short bodies, and one of the benchmarks' order with the default body.
const SIZES: [usize; 4] = [1, 7, 300, 2_000];

#[test]
fn every_design_gives_the_model_answers_on_every_workload() {
    for workload in workloads::registry::workloads_of(<IdTableOp as workloads::TraceOp>::FAMILY) {
        for n in SIZES {
            let prepared = if n < SIZES[SIZES.len() - 1] {
                short_trace(workload.name, n, 11)
            } else {
                PreparedTrace::generate(workload.name, n, 11).unwrap()
            };
            let mut all = VerifyAll {
                prepared: &prepared,
                verdicts: Vec::new(),
            };
            for_each_design_ctor(&mut all);
            for (design, outcome) in all.verdicts {
                let info = impls::id_table::registry::find_design(design).unwrap();
                let expected_refused = info
                    .capacity
                    .is_some_and(|c| c < prepared.expected.stats.peak_live as usize);
                let expected_unsupported =
                    expected_refused || (workload.needs_stale_detection && !info.detects_stale());
                // The design built to show the article's LIFO warning shows it, and only it.
                let expected_wrap =
                    info.demonstrates.is_some() && workload.name == "churn-hot-stale";
                match outcome {
                    Outcome::Verified => assert!(
                        !expected_unsupported && !expected_wrap,
                        "{design} on {} n={n} verified but should be unsupported",
                        workload.name
                    ),
                    // A capacity refuses the trace before the replay; a missing or passed
                    // stale detection shows in the replay's answers.
                    Outcome::Refused(reason) => assert!(
                        expected_refused,
                        "{design} on {} n={n} refused: {reason}",
                        workload.name
                    ),
                    Outcome::Unsupported(reason) => assert!(
                        (expected_unsupported && !expected_refused)
                            || (expected_wrap && reason.starts_with(STALE_WRAP)),
                        "{design} on {} n={n} unsupported: {reason}",
                        workload.name
                    ),
                    Outcome::Failed(reason) => {
                        panic!("{design} failed {} at n={n}: {reason}", workload.name)
                    }
                }
            }
        }
    }
}

/// A design with a classic bug: lookups ignore the generation, so stale IDs resolve to
/// whatever now lives in the slot, although it claims to detect them.
struct IgnoresGeneration(Holey<Payload>);

impl IdTable<Payload> for IgnoresGeneration {
    type Id = (u32, impls::id::Id64);
    const INFO: DesignInfo = test_info(
        "broken",
        "holey, but lookups ignore the generation",
        12,
        StaleDetection::Never,
    );
    fn new() -> Self {
        Self(Holey::new())
    }
    fn insert(&mut self, value: Payload) -> Result<Self::Id, TableError> {
        let id = self.0.insert(value)?;
        Ok((id.index(), id))
    }
    fn get(&self, id: Self::Id) -> Option<&Payload> {
        // Any generation: find the live object in this slot by trying recent generations.
        (0..64).find_map(|g| self.0.get(impls::id::Id64::new(id.0, g)))
    }
    fn get_mut(&mut self, id: Self::Id) -> Option<&mut Payload> {
        self.0.get_mut(id.1)
    }
    fn remove(&mut self, id: Self::Id) -> Option<Payload> {
        self.0.remove(id.1)
    }
    forward_table_reads!();
}

/// A design that drops every 100th insert's value on the floor (returns another object).
struct LosesObjects(Holey<Payload>, u32);

impl IdTable<Payload> for LosesObjects {
    type Id = impls::id::Id64;
    const INFO: DesignInfo = test_info(
        "loses-objects",
        "holey, but every 100th insert stores a wrong payload",
        8,
        StaleDetection::Never,
    );
    fn new() -> Self {
        Self(Holey::new(), 0)
    }
    fn insert(&mut self, mut value: Payload) -> Result<Self::Id, TableError> {
        self.1 += 1;
        if self.1 % 100 == 0 {
            value.value ^= 1;
        }
        self.0.insert(value)
    }
    forward_to!(0;
        fn get(&self, id: Self::Id) -> Option<&Payload>;
        fn get_mut(&mut self, id: Self::Id) -> Option<&mut Payload>;
        fn remove(&mut self, id: Self::Id) -> Option<Payload>;
    );
    forward_table_reads!();
}

#[test]
fn a_design_resolving_stale_ids_fails_verification() {
    let reason = failure::<IgnoresGeneration>("lookup-stale", 500, 3);
    assert!(reason.contains("stale_hits"), "{reason}");
}

#[test]
fn a_design_returning_wrong_objects_fails_verification_on_every_reading_workload() {
    for workload in [
        "lookup-uniform",
        "iterate-full",
        "churn",
        "frame",
        "article-mix",
    ] {
        failure::<LosesObjects>(workload, 1_000, 5);
    }
}

#[test]
fn an_invalid_trace_is_refused_with_the_op_index() {
    let mut trace: Trace<IdTableOp> = workloads::registry::generate("churn", 10, 1, None).unwrap();
    trace.body.insert(3, IdTableOp::Get(10_000));
    let e = Expected::<IdTableFamily>::of(&trace)
        .unwrap_err()
        .to_string();
    assert!(e.contains("body op 3"), "{e}");
}

#[test]
fn a_recorded_application_trace_replays_verified_on_every_design() {
    // An "application": spawns, looks up, despawns, iterates; recorded through the wrapper.
    let mut app = Recording::new(Holey::<Payload>::new());
    let mut ids = Vec::new();
    for h in 0..200u32 {
        ids.push(app.insert(Payload::for_handle(h)).unwrap());
    }
    app.start_body();
    for round in 0..50usize {
        let victim = ids.remove((round * 7) % ids.len());
        assert!(app.remove(victim).is_some());
        assert!(app.get(victim).is_none());
        let h = 200 + round as u32;
        ids.push(app.insert(Payload::for_handle(h)).unwrap());
        let _ = app.get(ids[round % ids.len()]);
        if let Some(p) = app.get_mut(ids[(round * 3) % ids.len()]) {
            p.mutate();
        }
        if round % 10 == 0 {
            let _total = app.iter().fold(0u64, |s, p| s.wrapping_add(p.value));
        }
    }
    let trace = app.into_trace(0);
    let stats = trace.validate().expect("a recording is a valid trace");
    assert_eq!(stats.removes, 50);
    assert_eq!(stats.stale_gets, 50);
    // Round trip through the file format, then verify on every design.
    let bytes = workloads::format::to_bytes(&trace).unwrap();
    let loaded = workloads::format::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, trace);
    let prepared = PreparedTrace::<IdTableFamily>::from_trace(loaded).unwrap();
    let mut all = VerifyAll {
        prepared: &prepared,
        verdicts: Vec::new(),
    };
    for_each_design_ctor(&mut all);
    for (design, outcome) in all.verdicts {
        let info = impls::id_table::registry::find_design(design).unwrap();
        assert!(
            outcome.is_verified() || !info.detects_stale(),
            "{design}: {outcome:?}"
        );
    }
}

#[test]
fn setup_state_matches_the_model_for_every_design() {
    let p = PreparedTrace::<IdTableFamily>::generate("iterate-holes", 1_000, 9).unwrap();
    let state = IdTableState::<Holey<Payload>>::after_setup(&p.trace).unwrap();
    assert_eq!(state.table.len() as u64, p.expected.stats.live_at_start);
}

/// Tables built so far by [`Drifting::new`]: each table's IDs carry its number.
static TABLES_BUILT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// A correct table whose IDs differ from one table to the next (they carry the table's
/// number), so the IDs a dry run resolved on one table are not the IDs a fresh table hands
/// out: exactly what the resolved timed replay must refuse.
struct Drifting(Holey<Payload>, u32);

impl IdTable<Payload> for Drifting {
    type Id = (u32, impls::id::Id64);
    const INFO: DesignInfo = test_info(
        "drifting",
        "holey, with IDs that differ between two tables given the same ops",
        12,
        StaleDetection::Never,
    );
    fn new() -> Self {
        let number = TABLES_BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self(Holey::new(), number)
    }
    fn insert(&mut self, value: Payload) -> Result<Self::Id, TableError> {
        Ok((self.1, self.0.insert(value)?))
    }
    fn get(&self, id: Self::Id) -> Option<&Payload> {
        self.0.get(id.1)
    }
    fn get_mut(&mut self, id: Self::Id) -> Option<&mut Payload> {
        self.0.get_mut(id.1)
    }
    fn remove(&mut self, id: Self::Id) -> Option<Payload> {
        self.0.remove(id.1)
    }
    forward_table_reads!();
}

#[test]
fn a_design_whose_ids_differ_between_runs_fails_the_timed_replay() {
    for workload in ["churn", "fill", "article-mix"] {
        let p = PreparedTrace::<IdTableFamily>::generate(workload, 500, 4).unwrap();
        // Each table alone is correct: the untimed verification passes.
        let outcome = check_replayer::<IdTableState<Drifting>>(&p.trace, &p.expected).outcome;
        assert!(outcome.is_verified(), "{workload}: {outcome:?}");
        // A fresh table per timed replay hands out other IDs than the dry run resolved.
        let err = TimedReplay::of::<IdTableState<Drifting>>(&p.trace, &p.expected)
            .run(2)
            .expect_err("different IDs must not post a time");
        assert!(err.contains("not deterministic"), "{workload}: {err}");
    }
    // A read-only body is timed on the dry run's own table, whose IDs it resolved: no drift.
    let p = PreparedTrace::<IdTableFamily>::generate("lookup-uniform", 500, 4).unwrap();
    TimedReplay::of::<IdTableState<Drifting>>(&p.trace, &p.expected)
        .run(2)
        .unwrap();
}

/// The article's LIFO warning, demonstrated: on `churn-hot-stale` the LIFO 16-bit design
/// resolves a stale ID at the first lookup of an object removed 2^16 reuses of its slot ago
/// (body op 2 * 65,536 + 1), and verification states it (status `unsupported`, never a
/// number); FIFO `holey32` and the other generational designs detect every stale ID.
#[test]
fn lifo_16_bit_generation_resolves_a_stale_id_on_churn_hot_stale() {
    use impls::id_table::holey32::Holey32;
    use impls::id_table::holey32_lifo::Holey32Lifo;
    let p = PreparedTrace::<IdTableFamily>::generate("churn-hot-stale", 100, 1).unwrap();
    let lifo = check_replayer::<IdTableState<Holey32Lifo<Payload>>>(&p.trace, &p.expected).outcome;
    let Outcome::Unsupported(reason) = lifo else {
        panic!("the LIFO design did not show its hazard: {lifo:?}");
    };
    assert!(
        reason.starts_with(&format!("{STALE_WRAP} at op 131073 of the body")),
        "{reason}"
    );
    let fifo = check_replayer::<IdTableState<Holey32<Payload>>>(&p.trace, &p.expected).outcome;
    assert_eq!(fifo, Outcome::Verified);
}

/// A design with a long stated horizon that resolves a stale ID on a trace far shorter than
/// it is broken, not at its limit: verification says `failed`.
#[test]
fn a_stale_hit_within_the_stated_horizon_is_a_failure() {
    struct ClaimsLongHorizon(Holey32LifoAlias);
    type Holey32LifoAlias = impls::id_table::holey32_lifo::Holey32Lifo<Payload>;
    impl IdTable<Payload> for ClaimsLongHorizon {
        type Id = <Holey32LifoAlias as IdTable<Payload>>::Id;
        const INFO: DesignInfo = DesignInfo {
            capacity: Some(65_536),
            ..test_info(
                "claims-long-horizon",
                "the LIFO 16-bit design claiming a 2^31-reuse horizon",
                4,
                StaleDetection::UntilSlotReuses(1 << 31),
            )
        };
        fn new() -> Self {
            Self(Holey32LifoAlias::new())
        }
        forward_to!(0; fn insert(&mut self, value: Payload) -> Result<Self::Id, TableError>;);
        forward_to!(0;
            fn get(&self, id: Self::Id) -> Option<&Payload>;
            fn get_mut(&mut self, id: Self::Id) -> Option<&mut Payload>;
            fn remove(&mut self, id: Self::Id) -> Option<Payload>;
        );
        forward_table_reads!();
    }
    let reason = failure::<ClaimsLongHorizon>("churn-hot-stale", 100, 1);
    assert!(reason.contains("stale_hits"), "{reason}");
}

#[test]
fn the_object_size_is_the_traces_and_a_fixed_size_state_refuses_another() {
    use workloads::{Payload8, Payload128};
    for (workload, size) in [
        ("iterate-full-p8", PayloadSize::B8),
        ("lookup-uniform-p128", PayloadSize::B128),
        ("iterate-full", PayloadSize::B32),
    ] {
        let p = PreparedTrace::<IdTableFamily>::generate(workload, 300, 5).unwrap();
        let state =
            IdTableReplay::<impls::id_table::registry::ctors::Packed>::after_setup(&p.trace)
                .unwrap();
        assert_eq!(state.size(), size, "{workload}");
    }
    // The 8 B and 128 B model answers differ from the 32 B ones: the digest covers the payload.
    let digest = |workload: &str| {
        PreparedTrace::<IdTableFamily>::generate(workload, 300, 5)
            .unwrap()
            .expected
            .body
            .iterate_sum
    };
    assert_ne!(digest("iterate-full-p8"), digest("iterate-full"));
    assert_ne!(digest("iterate-full-p128"), digest("iterate-full-p8"));
    // A state of one object size given a trace of another reports it, never replays it.
    let p = PreparedTrace::<IdTableFamily>::generate("iterate-full-p8", 300, 5).unwrap();
    let err = IdTableState::<Holey<Payload>>::after_setup(&p.trace)
        .err()
        .expect("a 32 B state refuses an 8 B trace");
    assert!(err.error.contains("8 B"), "{err}");
    assert!(IdTableState::<Holey<Payload8>, Payload8>::after_setup(&p.trace).is_ok());
    assert!(IdTableState::<Holey<Payload128>, Payload128>::after_setup(&p.trace).is_err());
    // Verification calls it `unsupported` with that reason (an external design implemented
    // for 32 B objects only, on the 8 B variants), never `failed`.
    let outcome = check_replayer::<IdTableState<Holey<Payload>>>(&p.trace, &p.expected).outcome;
    let Outcome::Refused(reason) = outcome else {
        panic!("a 32 B design on an 8 B trace: {outcome:?}");
    };
    assert!(reason.contains("8 B"), "{reason}");
}

#[test]
fn pool_sorted_vec_is_unsupported_above_its_stated_remove_cost_cap() {
    use impls::id_table::pool_sorted_vec::PoolSortedVec;
    use workloads::trace::TraceHeader;
    // Traces shaped as the generators shape them: `n` adds, then removes in the setup or the
    // body, or `churn`'s remove-and-add pairs (the free count stays at one).
    let trace = |n: u32, setup_removes: u32, body: Vec<IdTableOp>| Trace {
        header: TraceHeader {
            generator: "hand-built".into(),
            n: u64::from(n),
            seed: 0,
            params: serde_json::json!({}),
        },
        setup: (0..n)
            .map(|_| IdTableOp::Add)
            .chain((0..setup_removes).map(|h| IdTableOp::Remove(h * 2)))
            .collect(),
        body,
    };
    let removes = |n: u32| (0..n / 2).map(|h| IdTableOp::Remove(h * 2)).collect();
    let remove_random = |n: u32| trace(n, 0, removes(n));
    let iterate_holes = |n: u32| trace(n, n / 2, vec![IdTableOp::Iterate]);
    let churn = |n: u32| {
        let pairs = (0..100_000).flat_map(|h| [IdTableOp::Remove(h), IdTableOp::Add]);
        trace(n, 0, pairs.collect())
    };
    type Sorted = IdTableState<PoolSortedVec<Payload>>;
    assert_eq!(Sorted::unsupported_trace(&remove_random(65_536)), None);
    assert_eq!(Sorted::unsupported_trace(&iterate_holes(65_536)), None);
    assert_eq!(Sorted::unsupported_trace(&churn(1_000_000)), None);
    // 0 + 1 + ... + 499,999 free slots at the 500,000 removes, in the body or the setup.
    for over in [remove_random(1_000_000), iterate_holes(1_000_000)] {
        let reason = Sorted::unsupported_trace(&over).expect("above the cap");
        assert!(
            reason.contains("O(free slots)")
                && reason.contains("500000 removes")
                && reason.contains("124999750000"),
            "{reason}"
        );
    }
    // Whatever the object size.
    let sized = IdTableReplay::<impls::id_table::registry::ctors::PoolSortedVec>::unsupported_trace(
        &iterate_holes(1_000_000),
    );
    assert!(sized.is_some_and(|r| r.contains("O(free slots)")));
    // Other designs have no such cap.
    assert_eq!(
        IdTableState::<Holey<Payload>>::unsupported_trace(&remove_random(1_000_000)),
        None
    );
}
