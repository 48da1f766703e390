//! The families, as the harness sees the family list (`family_list::families!`). Every
//! consumer (the criterion driver, `dodbench list/gen/replay`, the measurement passes, the
//! tables of `docs/`) iterates over them with a [`FamilyVisitor`]; adding a family is a line in
//! the family list and its module `replay::<family>`, whose `Marker` is its [`Family`] (plus
//! its designs, op vocabulary and replayer, see ARCHITECTURE.md).

use workloads::AnyTrace;

use crate::replay::{External, ExtraDesigns, Family, HostsDesign, OpOf};

/// Something done once per family, e.g. "benchmark every workload" or "list the designs".
pub trait FamilyVisitor {
    /// Called once per family `F`, in list order.
    fn visit<F: Family>(&mut self);
}

/// Writes [`for_each_family`] from the family list.
macro_rules! visit_every_family {
    ($($(#[$doc:meta])* $variant:ident $module:ident,)*) => {
        /// Calls `visitor.visit::<F>()` for every family, in list order.
        pub fn for_each_family<V: FamilyVisitor>(visitor: &mut V) {
            $(visitor.visit::<crate::replay::$module::Marker>();)*
        }
    };
}

family_list::families!(visit_every_family);

/// Something done once per family of a [`DesignList`], with the extra designs `X` the list
/// adds to that family (the driver of `cargo bench` and of `dodbench::external`).
pub trait ListVisitor {
    /// Called once per family `F` of the list, whose replayers are `F`'s then `X`'s.
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self);
}

/// A list of families with, per family, extra designs: [`AllFamilies`] (every family, no
/// extra) or [`ExternalDesign`] (one family plus a user's design).
pub trait DesignList {
    /// Calls `visitor.visit::<F, X>()` once per family of the list.
    fn for_each<V: ListVisitor>(visitor: &mut V);
}

/// Every family of [`for_each_family`], with its registered designs only.
pub struct AllFamilies;

impl DesignList for AllFamilies {
    fn for_each<V: ListVisitor>(visitor: &mut V) {
        struct Each<'a, V>(&'a mut V);
        impl<V: ListVisitor> FamilyVisitor for Each<'_, V> {
            fn visit<F: Family>(&mut self) {
                self.0.visit::<F, ()>();
            }
        }
        for_each_family(&mut Each(visitor));
    }
}

/// Family `F` alone, with the user's design `D` beside its registered designs.
pub struct ExternalDesign<F, D>(std::marker::PhantomData<(F, D)>);

impl<D, F: HostsDesign<D>> DesignList for ExternalDesign<F, D> {
    fn for_each<V: ListVisitor>(visitor: &mut V) {
        visitor.visit::<F, External<D>>();
    }
}

/// The names of every family, in list order.
pub fn family_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl FamilyVisitor for Names {
        fn visit<F: Family>(&mut self) {
            self.0.push(F::NAME);
        }
    }
    let mut names = Names(Vec::new());
    for_each_family(&mut names);
    names.0
}

/// Checks that `name` is a family.
///
/// # Errors
/// It is not: the message lists the families.
pub fn check_family(name: &str) -> Result<(), String> {
    let names = family_names();
    if names.contains(&name) {
        Ok(())
    } else {
        Err(format!(
            "unknown family {name:?}; valid families: {}",
            names.join(", ")
        ))
    }
}

/// Something done with a trace once its family is known.
pub trait TraceVisitor {
    /// What it gives.
    type Output;
    /// Called with the trace as a trace of its family `F`.
    fn visit<F: Family>(self, trace: workloads::Trace<OpOf<F>>) -> Self::Output;
}

/// Hands `trace` to `visitor` as a trace of its family.
///
/// # Panics
/// If the trace's family is not in [`for_each_family`] (every op vocabulary of
/// `workloads::vocabularies` has a family here: a missing line is a bug, caught by this
/// module's tests).
pub fn with_family<V: TraceVisitor>(trace: AnyTrace, visitor: V) -> V::Output {
    struct Dispatch<V: TraceVisitor> {
        trace: Option<AnyTrace>,
        visitor: Option<V>,
        output: Option<V::Output>,
    }
    impl<V: TraceVisitor> FamilyVisitor for Dispatch<V> {
        fn visit<F: Family>(&mut self) {
            if self.trace.as_ref().is_some_and(|t| t.family() == F::NAME) {
                let trace = self.trace.take().expect("checked above");
                let trace = trace
                    .into_family::<OpOf<F>>()
                    .expect("the family names match");
                let visitor = self.visitor.take().expect("visited once");
                self.output = Some(visitor.visit::<F>(trace));
            }
        }
    }
    let family = trace.family();
    let mut dispatch = Dispatch {
        trace: Some(trace),
        visitor: Some(visitor),
        output: None,
    };
    for_each_family(&mut dispatch);
    dispatch
        .output
        .unwrap_or_else(|| panic!("family {family} is not in bench_harness::families"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The latency and memory passes replay bodies in pieces and rely on `ReplayDigest`: the
    /// merged digests of the pieces must be the whole body's, and their work units the body's.
    #[test]
    fn digests_of_pieces_merge_to_the_whole_body() {
        use crate::replay::{ReplayDigest, Replayer};
        use workloads::TraceStats;
        struct Check;
        impl FamilyVisitor for Check {
            fn visit<F: Family>(&mut self) {
                for w in workloads::registry::workloads_of(F::NAME) {
                    let p = crate::suite::PreparedTrace::<F>::generate(w.name, 300, 4).unwrap();
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
                let designs = crate::replay::replayer_names::<F>(Some(crate::replay::Role::Design));
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
                    crate::replay::Scale::Quick,
                    crate::replay::Scale::Default,
                    crate::replay::Scale::Full,
                ] {
                    assert!(!F::bench_sizes(scale).is_empty());
                }
                assert!(!F::pass_sizes(true).is_empty() && !F::pass_sizes(false).is_empty());
                assert!(F::SWEEP_MAX_N >= crate::measure::sweep::MIN_N);
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
                crate::replay::family_metrics::<F>(&F::Metrics::default())
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
                let mut designs: Vec<String> = crate::replay::replayer_names::<F>(None)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                designs.extend(crate::replay::reference_loop_names::<F>());
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
}
