//! The family list as every consumer sees it: each family describes itself consistently (its
//! designs, records, pass workloads, sizes, metrics and claims), its digests merge piecewise,
//! and every workload's trace dispatches to its family.
//!
//! Here rather than beside `families.rs`: each test visits every family, so it compiles every
//! family's code, which the library already holds for this binary to link; as unit tests they
//! compiled it a second time into the library's test build.

use bench_harness::families::{
    FamilyVisitor, TraceVisitor, check_family, family_names, for_each_family, with_family,
};
use bench_harness::replay::{Family, OpOf, ReplayDigest, Replayer};
use bench_harness::suite::PreparedTrace;
use workloads::TraceStats;

/// The latency and memory passes replay bodies in pieces and rely on `ReplayDigest`: the
/// merged digests of the pieces must be the whole body's, and their work units the body's.
#[test]
fn digests_of_pieces_merge_to_the_whole_body() {
    struct Check;
    impl FamilyVisitor for Check {
        fn visit<F: Family>(&mut self) {
            for w in workloads::registry::workloads_of(F::NAME) {
                let p = PreparedTrace::<F>::generate(w.name, 300, 4).unwrap();
                let mut model = F::Model::after_setup(&p.trace).unwrap();
                let (mut merged, mut units) = (F::Digest::default(), 0);
                for piece in p.trace.body.chunks(7) {
                    let d = model.replay(piece).unwrap();
                    units += d.work_units(piece);
                    merged.merge(&d);
                }
                assert_eq!(merged, p.expected.body, "{}: merged digest", w.name);
                assert_eq!(units, p.expected.stats.work_units(), "{}: units", w.name);
            }
        }
    }
    for_each_family(&mut Check);
}

#[test]
fn every_family_describes_itself_consistently() {
    struct Check;
    impl FamilyVisitor for Check {
        fn visit<F: Family>(&mut self) {
            assert_eq!(F::RESULTS_FAMILY.as_str(), F::NAME);
            assert_eq!(F::family_record().family, F::RESULTS_FAMILY);
            let designs = bench_harness::replay::replayer_names::<F>(Some(
                bench_harness::replay::Role::Design,
            ));
            assert!(
                designs.contains(&F::REFERENCE_DESIGN),
                "{}: reference design {} is not registered",
                F::NAME,
                F::REFERENCE_DESIGN
            );
            let records = F::design_records();
            assert_eq!(
                records.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
                designs,
                "{}: design records and replayers disagree",
                F::NAME
            );
            assert!(records.iter().all(|r| r.family == F::RESULTS_FAMILY));
            let workloads = workloads::registry::workloads_of(F::NAME);
            for set in [
                F::MEMORY_BOUND_WORKLOADS,
                F::MEMORY_WORKLOADS,
                F::LATENCY_WORKLOADS,
            ] {
                assert!(!set.is_empty(), "{}: an empty pass workload set", F::NAME);
                for w in set {
                    assert!(
                        workloads.iter().any(|x| x.name == *w && !x.recorded),
                        "{}: pass workload {w} is not a generated workload of the family",
                        F::NAME
                    );
                }
            }
            for w in F::SCALING_WORKLOADS {
                assert!(
                    workloads.iter().any(|x| x.name == *w && !x.recorded),
                    "{}: scaling workload {w} is not a generated workload of the family",
                    F::NAME
                );
            }
            for scale in [
                bench_harness::replay::Scale::Quick,
                bench_harness::replay::Scale::Default,
                bench_harness::replay::Scale::Full,
            ] {
                assert!(!F::bench_sizes(scale).is_empty());
            }
            assert!(!F::pass_sizes(true).is_empty() && !F::pass_sizes(false).is_empty());
            assert!(F::SWEEP_MAX_N >= bench_harness::measure::sweep::MIN_N);
        }
    }
    for_each_family(&mut Check);
}

/// A family's metric section is well formed and names exactly the fields of its typed
/// metrics, so every value `measure` produces has a spec (label, unit, direction) and every
/// spec a value.
#[test]
fn metric_sections_name_exactly_the_typed_metrics_fields() {
    struct Check;
    impl FamilyVisitor for Check {
        fn visit<F: Family>(&mut self) {
            let fields = match serde_json::to_value(F::Metrics::default()) {
                Ok(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
                other => panic!("{}: metrics are not a struct: {other:?}", F::NAME),
            };
            let fields: std::collections::BTreeSet<String> = fields;
            let Some(section) = F::metric_section() else {
                assert!(
                    fields.is_empty(),
                    "{}: metrics {fields:?} without specs",
                    F::NAME
                );
                return;
            };
            section
                .check()
                .unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
            let names: std::collections::BTreeSet<String> =
                section.names().into_iter().map(str::to_string).collect();
            assert_eq!(names, fields, "{}: specs against metric fields", F::NAME);
            bench_harness::replay::family_metrics::<F>(&F::Metrics::default())
                .unwrap_or_else(|e| panic!("{}: {e}", F::NAME));
        }
    }
    for_each_family(&mut Check);
}

/// A claim names designs, workloads and metrics its family runs (a typo would read as
/// "not measured" in every report), states its reading, and has an ID of its own.
#[test]
fn every_claim_names_what_its_family_runs() {
    struct Check(Vec<String>);
    impl FamilyVisitor for Check {
        fn visit<F: Family>(&mut self) {
            let claims = F::claims();
            assert!(!claims.is_empty(), "{}: no claims declared", F::NAME);
            let mut designs: Vec<String> = bench_harness::replay::replayer_names::<F>(None)
                .into_iter()
                .map(str::to_string)
                .collect();
            designs.extend(bench_harness::replay::reference_loop_names::<F>());
            let workloads = workloads::registry::workloads_of(F::NAME);
            for c in &claims {
                assert!(
                    !c.id.is_empty() && !c.quote.is_empty() && !c.reading.is_empty(),
                    "{}: claim {c:?} lacks an ID, quote or reading",
                    F::NAME
                );
                assert!(!self.0.contains(&c.id), "claim ID {} declared twice", c.id);
                self.0.push(c.id.clone());
                results::verdict::check_metric_names(c, F::metric_section().as_ref()).unwrap();
                let (low, high) = c.rule.bounds();
                assert!(low <= high, "claim {}: empty rule {}", c.id, c.rule);
                for op in c.quantity.operands() {
                    assert!(
                        designs.contains(&op.design),
                        "claim {}: {} has no design {:?}",
                        c.id,
                        F::NAME,
                        op.design
                    );
                    assert!(
                        workloads.iter().any(|w| w.name == op.workload),
                        "claim {}: {} has no workload {:?}",
                        c.id,
                        F::NAME,
                        op.workload
                    );
                }
            }
        }
    }
    for_each_family(&mut Check(Vec::new()));
}

#[test]
fn every_workload_family_is_listed_and_dispatches() {
    struct Name;
    impl TraceVisitor for Name {
        type Output = &'static str;
        fn visit<F: Family>(self, _trace: workloads::Trace<OpOf<F>>) -> &'static str {
            F::NAME
        }
    }
    let names = family_names();
    for family in workloads::vocabularies::FAMILIES {
        assert!(names.contains(family), "{family} is not in for_each_family");
    }
    for w in workloads::registry::workloads() {
        assert!(names.contains(&w.family), "{} has no family", w.name);
        let trace = workloads::registry::generate_any(w.name, 50, 1, None).unwrap();
        assert_eq!(with_family(trace, Name), w.family);
    }
    assert!(
        check_family("nope")
            .unwrap_err()
            .contains(&names.join(", "))
    );
}
