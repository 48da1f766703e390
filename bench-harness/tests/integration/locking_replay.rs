//! The locking replay: every design verifies on every workload (at the bench's threads and at
//! 1, 2 and 4), counts are fixed whatever the threads, and a design that loses a push under
//! contention fails verification.

use bench_harness::replay::locking::{LockingFamily, LockingReplay};
use bench_harness::replay::{Family, Replayer, ReplayerVisitor, Role};
use bench_harness::suite::PreparedTrace;
use bench_harness::verify::{Outcome, check_replayer};
use impls::DesignMeta;
use impls::locking::{GameplayApi, SyncCounts, Workers, World, run_chunks, workers};
use impls::locking::{
    GameplayRunner, Job, LockingDesignInfo, LockingDesignVisitor, Script, Tally,
    for_each_locking_design,
};
use std::sync::RwLock;

/// A planted race: pushes read the position under a read lock, then write it under a write
/// lock taken after the read lock is dropped (a lost update whenever two threads push one unit
/// between the two), the bug a per-call design gets by locking the read and the write of a
/// read-modify-write separately.
struct RacyPush {
    world: RwLock<World>,
    pool: Workers,
}

struct RacyApi<'a>(&'a RwLock<World>);

impl GameplayApi for RacyApi<'_> {
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.0.read().unwrap().units.position(unit)
    }

    fn raycast(&mut self, unit: u32) -> u32 {
        self.0.read().unwrap().physics.raycast(unit)
    }

    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        let p = self.0.read().unwrap().units.position(unit);
        // Widen the window between the read and the write.
        std::thread::yield_now();
        let mut w = self.0.write().unwrap();
        let now = w.units.position(unit);
        w.units
            .push(unit, [p[0] + delta[0] - now[0], p[1] + delta[1] - now[1]]);
    }
}

impl GameplayRunner for RacyPush {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "racy_push",
            description: "a planted race: read and write of a push under separate locks",
            kind: impls::DesignKind::External,
        },
        answers: "nothing: a test of the verification",
        foreign_writes: true,
        threaded: true,
    };

    /// At least 4 threads, whatever the machine, so the race has threads to lose pushes between.
    fn new(world: World, threads: usize) -> Self {
        Self {
            world: RwLock::new(world),
            pool: workers(threads.max(4)),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let world = &self.world;
        run_chunks(&self.pool, jobs, script, |_| RacyApi(world)).0
    }

    fn end_frame(&mut self) {
        self.world.get_mut().unwrap().sync_physics();
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        let w = self.world.get_mut().unwrap();
        for u in 0..w.units.len() as u32 {
            f(u, w.units.position(u));
        }
    }

    fn counts(&self) -> SyncCounts {
        SyncCounts::default()
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn every_design_verifies_on_every_workload() {
    for workload in ["lock-none", "lock-mixed", "lock-hot"] {
        let p = PreparedTrace::<LockingFamily>::generate(workload, 300, 5).unwrap();
        struct Check<'a>(&'a PreparedTrace<LockingFamily>, Vec<String>);
        impl ReplayerVisitor<LockingFamily> for Check<'_> {
            fn visit<R: Replayer<Family = LockingFamily>>(&mut self, _role: Role) {
                let outcome = check_replayer::<R>(&self.0.trace, &self.0.expected).outcome;
                if !outcome.is_verified() && !matches!(outcome, Outcome::Refused(_)) {
                    self.1.push(format!("{}: {outcome:?}", R::design_name()));
                }
            }
        }
        let mut check = Check(&p, Vec::new());
        LockingFamily::for_each_replayer(&mut check);
        assert!(check.1.is_empty(), "{workload}: {:?}", check.1);
    }
}

#[test]
fn rayon_is_unsupported_where_a_job_writes_another_unit() {
    let p = PreparedTrace::<LockingFamily>::generate("lock-mixed", 200, 5).unwrap();
    let reason =
        <LockingReplay<impls::locking::peers::rayon::RayonParIter> as Replayer>::unsupported_before(
            &p.expected.stats,
        );
    assert!(reason.is_some_and(|r| r.contains("push another unit")));
}

#[test]
fn a_design_that_loses_pushes_under_contention_fails_verification() {
    // Every job pushes unit 0: with 4 threads interleaving, the planted race loses pushes, and
    // the verification every bench replay goes through must say so.
    let p = PreparedTrace::<LockingFamily>::generate("lock-hot", 2000, 9).unwrap();
    let mut failed = false;
    for _ in 0..20 {
        let outcome = check_replayer::<LockingReplay<RacyPush>>(&p.trace, &p.expected).outcome;
        if !outcome.is_verified() {
            failed = true;
            break;
        }
    }
    assert!(failed, "the planted race never lost a push in 20 replays");
}

#[test]
fn counts_per_job_do_not_depend_on_threads() {
    let p = PreparedTrace::<LockingFamily>::generate("lock-mixed", 500, 3).unwrap();
    struct Counts<'a>(&'a PreparedTrace<LockingFamily>, Vec<String>);
    impl LockingDesignVisitor for Counts<'_> {
        fn visit<R: GameplayRunner + 'static>(&mut self) {
            if !R::INFO.foreign_writes {
                return;
            }
            let at = |t| {
                let mut s = LockingReplay::<R>::after_setup_on(&self.0.trace, t).unwrap();
                s.replay(&self.0.trace.body).unwrap();
                let c = s.counts();
                (c.lock_acquisitions, c.messages)
            };
            let (one, four) = (at(1), at(4));
            if one != four {
                self.1.push(format!(
                    "{}: {one:?} at 1 thread, {four:?} at 4",
                    R::INFO.meta.name
                ));
            }
        }
    }
    let mut c = Counts(&p, Vec::new());
    for_each_locking_design(&mut c);
    assert!(c.1.is_empty(), "{:?}", c.1);
}

#[test]
fn the_section_matches_the_metrics_and_a_speedup_is_measured() {
    let p = PreparedTrace::<LockingFamily>::generate("lock-none", 200, 3).unwrap();
    let m = <LockingReplay<impls::locking::call_locks::CallMutex> as Replayer>::measure(
        &p.trace,
        &p.expected.stats,
    )
    .unwrap()
    .unwrap();
    assert_eq!(m.threads.len(), m.speedup.len());
    assert!(m.speedup.iter().all(|s| *s > 0.0));
    // 200 jobs, 3 calls each (no other unit): 3 locks per job exactly.
    assert_eq!(m.locks_per_job, Some(3.0));
    assert_eq!(m.messages_per_job, Some(0.0));
    LockingFamily::metric_section().unwrap().check().unwrap();
}
