//! The spawn family's replay: every registered spawn design (the peers included: `hecs_spawn`'s
//! static bundles, `hecs_spawn_builder`'s `EntityBuilder`, `hecs_batch`, and the `bevy_ecs`
//! peers behind their feature) gives the model's counts and world on every `spawn-*` workload,
//! timed replays included, and reports its resource and world sizes.

use bench_harness::replay::SpawnFamily;
use bench_harness::suite::PreparedTrace;
use workloads::TraceOp;
use workloads::spawn::SpawnOp;

use crate::support::failures_of_every_design;

const FAMILY: &str = <SpawnOp as TraceOp>::FAMILY;

#[test]
fn every_spawn_design_verifies_on_every_workload() {
    for w in workloads::registry::workloads_of(FAMILY) {
        for n in [1, 300, 2_000] {
            let prepared = PreparedTrace::<SpawnFamily>::generate(w.name, n, 11).unwrap();
            let failures = failures_of_every_design(&prepared);
            assert!(failures.is_empty(), "{failures:#?}");
        }
    }
}
