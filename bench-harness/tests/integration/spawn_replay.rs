//! The spawn family's replay: every registered spawn design (the peers included: `hecs_spawn`'s
//! static bundles, `hecs_spawn_builder`'s `EntityBuilder`, `hecs_batch`, and the `bevy_ecs`
//! peers behind their feature) gives the model's counts and world on every `spawn-*` workload,
//! timed replays included, and reports its resource and world sizes.

use bench_harness::replay::{SpawnFamily, SpawnReplay};
use bench_harness::suite::PreparedTrace;
use impls::spawn::{SpawnDesignVisitor, Spawner, for_each_spawn_design};
use workloads::TraceOp;
use workloads::spawn::SpawnOp;

use crate::support::{note_and_measure, verify_and_time};

const FAMILY: &str = <SpawnOp as TraceOp>::FAMILY;

struct VerifyAll<'a> {
    prepared: &'a PreparedTrace<SpawnFamily>,
    failures: Vec<String>,
}

impl SpawnDesignVisitor for VerifyAll<'_> {
    fn visit<S: Spawner + 'static>(&mut self) {
        let p = self.prepared;
        let outcome = verify_and_time::<SpawnReplay<S>>(p);
        note_and_measure::<SpawnReplay<S>>(p, &outcome, &mut self.failures);
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
