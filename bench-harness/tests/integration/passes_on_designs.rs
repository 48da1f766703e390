//! The measurement passes on a family's designs picked by name: the cache pass's child replays
//! a design it finds by name and refuses an unknown one, the latency pass gives ordered
//! percentiles of a verified replay, and the counter pass falls back to a reason where the
//! counters cannot open.
//!
//! Here rather than beside the passes: picking a design by name visits every design of the
//! family, so each test compiles every design's replay, which the library already holds for
//! this binary to link; as unit tests they compiled it a second time into the library's test
//! build.

use bench_harness::measure::cache_sim::run_child;
use bench_harness::measure::counters::CounterPass;
use bench_harness::measure::latency::{BATCH_OPS, LatencyPass, batch_ops, clock_overhead_ns};
use bench_harness::measure::{Selection, for_each_verified};
use bench_harness::replay::IdTableFamily;
use bench_harness::suite::PreparedTrace;
use workloads::AnyTrace;

#[test]
fn child_replays_and_rejects_unknown_designs() {
    let p = PreparedTrace::<IdTableFamily>::generate("lookup-uniform", 100, 1).unwrap();
    let any = || AnyTrace::new(p.trace.clone());
    let digest = run_child("holey", any()).unwrap();
    assert_eq!(digest, serde_json::to_string(&p.expected.body).unwrap());
    assert!(run_child("nope", any()).unwrap_err().contains("unknown"));
}

#[test]
fn percentiles_are_ordered_and_the_digest_is_checked() {
    let p = PreparedTrace::<IdTableFamily>::generate("churn", 200, 3).unwrap();
    let selection = Selection {
        workloads: vec![],
        designs: vec!["packed".into(), "map-hash".into()],
        sizes: vec![],
    };
    let mut pass = LatencyPass {
        clock_overhead_ns: clock_overhead_ns(),
    };
    let rows = for_each_verified(&p, &selection, &mut pass, &mut |_| {});
    assert_eq!(rows.len(), 2);
    for row in rows {
        let l = row.measured.unwrap().unwrap();
        assert_eq!(l.batch_ops, BATCH_OPS);
        assert!(
            l.p50 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max,
            "{l:?}"
        );
    }
    let it = PreparedTrace::<IdTableFamily>::generate("iterate-full", 100, 3).unwrap();
    assert_eq!(batch_ops(&it.trace.body), 1);
}

#[test]
fn unavailable_counters_give_a_reason_not_a_panic() {
    let p = PreparedTrace::<IdTableFamily>::generate("lookup-uniform", 100, 1).unwrap();
    let selection = Selection {
        workloads: vec![],
        designs: vec!["holey".into()],
        sizes: vec![],
    };
    let mut pass = CounterPass {
        open: || Err("hardware counter instructions unavailable: No such file or directory".into()),
    };
    let rows = for_each_verified(&p, &selection, &mut pass, &mut |_| {});
    assert_eq!(rows.len(), 1);
    let e = rows[0].measured.as_ref().unwrap().as_ref().unwrap_err();
    assert!(e.contains("instructions unavailable"), "{e}");
    // The real counters either work or fail the same way, never panic.
    let mut real = CounterPass::default();
    match &for_each_verified(&p, &selection, &mut real, &mut |_| {})[0].measured {
        Some(Ok(hw)) => assert!(hw.instructions > 0.0),
        Some(Err(e)) => assert!(e.contains("unavailable"), "{e}"),
        None => panic!("holey is verified on lookup-uniform"),
    }
}
