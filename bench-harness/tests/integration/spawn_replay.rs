//! The spawn family's replay: every registered spawn design (the peers included: `hecs_spawn`'s
//! static bundles, `hecs_spawn_builder`'s `EntityBuilder`, `hecs_batch`, and the `bevy_ecs`
//! peers behind their feature) gives the model's counts and world on every `spawn-*` workload,
//! timed replays included, and reports its resource and world sizes.

use bench_harness::replay::{Replayer, SpawnFamily, SpawnReplay};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Outcome, check_replayer};
use impls::spawn::{SpawnDesignVisitor, Spawner, for_each_spawn_design};
use workloads::TraceOp;
use workloads::spawn::SpawnOp;

const FAMILY: &str = <SpawnOp as TraceOp>::FAMILY;

struct VerifyAll<'a> {
    prepared: &'a PreparedTrace<SpawnFamily>,
    failures: Vec<String>,
}

impl SpawnDesignVisitor for VerifyAll<'_> {
    fn visit<S: Spawner + 'static>(&mut self) {
        let p = self.prepared;
        let mut outcome = check_replayer::<SpawnReplay<S>>(&p.trace, &p.expected).outcome;
        if outcome.is_verified()
            && let Err(e) = TimedReplay::of::<SpawnReplay<S>>(&p.trace, &p.expected).run(2)
        {
            outcome = Outcome::Failed(e);
        }
        if !outcome.is_verified() {
            self.failures.push(format!(
                "{} on {}: {outcome:?}",
                S::INFO.meta.name,
                p.trace.header.generator
            ));
        }
        assert!(
            SpawnReplay::<S>::measure(&p.trace, &p.expected.stats)
                .unwrap()
                .is_some()
        );
    }
}

#[test]
fn every_spawn_design_verifies_on_every_workload() {
    for w in workloads::registry::workloads_of(FAMILY) {
        for n in [1, 300, 2_000] {
            let prepared = PreparedTrace::<SpawnFamily>::generate(w.name, n, 11).unwrap();
            let mut v = VerifyAll {
                prepared: &prepared,
                failures: Vec::new(),
            };
            for_each_spawn_design(&mut v);
            assert!(v.failures.is_empty(), "{:#?}", v.failures);
        }
    }
}
