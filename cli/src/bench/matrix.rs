//! What a bench run covers: each family's matrix of (workload, N) ([`matrix`]), the names it
//! registers in each workload group, every benchmark ID of an unfiltered run ([`Universe`]),
//! the run's selection in words ([`selection_text`]), and criterion's `--list` ([`Lister`]).

use bench_harness::families::ListVisitor;
use bench_harness::replay::{
    ExtraDesigns, Family, OpOf, ReferenceLoop, Replayer, ReplayerVisitor, Role, Scale,
    for_each_replayer_with,
};
use bench_harness::suite::SuiteConfig;
use criterion::{BenchmarkId, Criterion};
use workloads::Trace;

use super::fail;

/// One (workload, n) of a family's matrix; a recorded trace (which ignores n and runs once, at
/// the n its header records) comes with the trace read to learn that n, so it is not read twice.
pub(super) type MatrixEntry<F> = (&'static str, usize, Option<Trace<OpOf<F>>>);

/// Every (workload, n) of family `F`'s matrix, in run order. A quick run leaves out the points
/// of parameter sweeps (`WorkloadInfo::variant_of`): it keeps to one value of each parameter.
pub(super) fn matrix<F: Family>(config: &SuiteConfig) -> Vec<MatrixEntry<F>> {
    let mut out = Vec::new();
    for workload in workloads::registry::workloads_of(F::NAME) {
        if workload.variant_of.is_some() && config.quick() {
            continue;
        }
        if workload.recorded {
            match workloads::registry::generate_for::<F::Op>(workload.name, 1, config.seed, None) {
                Ok(t) => out.push((workload.name, t.header.n as usize, Some(t))),
                Err(e) => fail(&format!("cannot prepare {}: {e}", workload.name)),
            }
        } else {
            out.extend(
                config
                    .sizes_for_workload::<F>(workload.name)
                    .into_iter()
                    .map(|n| (workload.name, n, None)),
            );
        }
    }
    out
}

/// The names family `F` registers in each workload group: designs, references, loops, each
/// with the family its results entry is filed under (`reference` for references and loops).
fn names<F: Family, X: ExtraDesigns<F>>() -> Vec<(String, results::Family)> {
    struct Names(Vec<(String, results::Family)>);
    impl<F: Family> ReplayerVisitor<F> for Names {
        fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
            let family = match role {
                Role::Design => F::RESULTS_FAMILY,
                Role::Reference => results::Family::Reference,
            };
            self.0.push((R::design_name().to_string(), family));
        }
        fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
            self.0.push((L::name(), results::Family::Reference));
        }
    }
    let mut names = Names(Vec::new());
    for_each_replayer_with::<F, X, _>(&mut names);
    names.0
}

/// Every benchmark ID the bench could run with no selection: every family, at every scale's
/// sizes. The run's [`StepRecord`] excludes those it did not run, so `compare` can tell a
/// benchmark this run's selection left out from one that went missing.
pub(super) struct Universe {
    pub(super) seed: u64,
    pub(super) ids: Vec<String>,
}

impl ListVisitor for Universe {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        let names = names::<F, X>();
        for scale in [Scale::Quick, Scale::Default, Scale::Full] {
            let config = SuiteConfig {
                scale,
                sizes: None,
                seed: self.seed,
                fresh: false,
                timer: Default::default(),
                instances: None,
            };
            for (workload, n, _) in matrix::<F>(&config) {
                for (name, family) in &names {
                    self.ids.push(format!("{family}/{workload}/{name}/{n}"));
                }
            }
        }
    }
}

/// This run's selection in words: its scale, size override and criterion arguments.
pub(super) fn selection_text(config: &SuiteConfig) -> String {
    let mut parts = vec![format!("scale {}", config.mode())];
    if let Some(sizes) = &config.sizes {
        let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
        parts.push(format!("DODBENCH_SIZES={}", sizes.join(",")));
    }
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if !args.is_empty() {
        parts.push(format!("arguments {}", args.join(" ")));
    }
    parts.join("; ")
}

/// Registers every benchmark name without preparing anything: what criterion's `--list` mode
/// prints (the closures never run in it).
pub(super) struct Lister<'a> {
    pub(super) criterion: &'a mut Criterion,
    pub(super) config: &'a SuiteConfig,
}

impl ListVisitor for Lister<'_> {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        for (workload, n, _) in matrix::<F>(self.config) {
            let mut group = self
                .criterion
                .benchmark_group(format!("{}/{workload}", F::NAME));
            for (name, _) in names::<F, X>() {
                group.bench_function(BenchmarkId::new(name, n), |b| b.iter(|| ()));
            }
            group.finish();
        }
    }
}
