//! The one runner of the family model property tests: seeded so a run can be replayed, and
//! complete so one failing design does not hide the others.
//!
//! Each model test (`tests/integration/<family>_model.rs`, a module of the package's one test
//! binary beside this one) builds one [`ModelRun`], calls [`ModelRun::check`] once per
//! registered design from its registry visitor, and ends with [`ModelRun::finish`], which panics once, listing every
//! failing design with its seed, its minimal failing input and the command that replays it.
//!
//! Why seeded: proptest's default runner draws a fresh seed per run, so CI could pass or fail
//! on the same commit and a failure could not be replayed. Here each design's seed is fixed by
//! default, derived from the test module's, the test's and the design's names (so two designs,
//! or one design in two tests, do not share a sequence), and printed before the design runs
//! (libtest shows a failing test's output).
//!
//! Environment variables:
//!
//! * `DODBENCH_TEST_SEED=<u64>` (decimal, or hex with `0x`): runs every design with this seed,
//!   e.g. the one a failure printed; the failure message gives the whole command line.
//! * `DODBENCH_TEST_SEED=random`: draws a fresh seed per design from the OS and prints it, for
//!   a longer search than CI's fixed seeds.
//! * `DODBENCH_TEST_CASES=<n>`: runs `n` cases per design instead of the test's own count.
//!
//! Regressions: a failing case's own seed is appended to
//! `impls/tests/regressions/<test module>.txt` (proptest's file persistence) and every later
//! run of that module's tests replays the file's cases first, for every design, whatever the seed.
//! Commit the file's new lines with the fix so the case stays checked.

// Each test module uses a part of it.
#![allow(dead_code)]

use std::collections::hash_map::RandomState;
use std::fmt::Debug;
use std::hash::{BuildHasher, Hasher};

use impls::spatial::{PointId, SpatialIndex};
use proptest::strategy::{BoxedStrategy, Strategy};
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestCaseResult, TestRng,
    TestRunner,
};

/// Where a design's seed comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedChoice {
    /// Derived from the test's and the design's names: the same on every run.
    Fixed,
    /// This seed for every design (`DODBENCH_TEST_SEED=<u64>`).
    Given(u64),
    /// A fresh seed per design from the OS (`DODBENCH_TEST_SEED=random`).
    Random,
}

impl SeedChoice {
    /// The choice `DODBENCH_TEST_SEED` states; [`SeedChoice::Fixed`] if unset.
    ///
    /// # Panics
    /// If the variable is set to anything but `random` or a `u64`.
    pub fn from_env() -> Self {
        match std::env::var("DODBENCH_TEST_SEED") {
            Err(_) => SeedChoice::Fixed,
            Ok(s) if s.trim().eq_ignore_ascii_case("random") => SeedChoice::Random,
            Ok(s) => SeedChoice::Given(parse_seed(&s).unwrap_or_else(|| {
                panic!("DODBENCH_TEST_SEED={s:?}: expected `random`, a decimal u64 or 0x<hex>")
            })),
        }
    }
}

/// A seed written as decimal or as `0x` hex.
pub fn parse_seed(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16).ok(),
        None => s.replace('_', "").parse().ok(),
    }
}

/// FNV-1a over `parts`, each followed by a 0xFF separator (so `("ab", "c")` and `("a", "bc")`
/// differ).
fn name_hash(parts: &[&str]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for part in parts {
        for &b in part.as_bytes().iter().chain(&[0xFF]) {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }
    h
}

/// The fixed seed of `design` in `test_fn` of the test module `module`.
pub fn fixed_seed(module: &str, test_fn: &str, design: &str) -> u64 {
    name_hash(&[module, test_fn, design])
}

/// SplitMix64: one `u64` seed spread over the 32 bytes ChaCha takes, so nearby seeds give
/// unrelated streams.
fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut out = [0u8; 32];
    for chunk in out.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_ne_bytes());
    }
    out
}

/// One design that disagreed with its model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignFailure {
    /// The design's label as the test gave it (its registry name, maybe with a variant).
    pub design: String,
    /// The seed its run started from.
    pub seed: u64,
    /// proptest's report: why it failed and the minimal failing input.
    pub report: String,
    /// The shell command that runs the test again from this seed.
    pub replay: String,
}

/// One model test's run over every design; see the [module docs](self).
#[derive(Debug)]
pub struct ModelRun {
    /// The test module (the last segment of `module_path!()` at a test file's top level: its
    /// file stem). It names the seeds and the regressions file.
    module: &'static str,
    /// The `#[test]` function, for the replay command.
    test_fn: &'static str,
    /// Cases per design.
    cases: u32,
    seeds: SeedChoice,
    /// The regressions file, absolute; `None` keeps failures unsaved (the runner's own tests).
    regressions: Option<&'static str>,
    failures: Vec<DesignFailure>,
}

impl ModelRun {
    /// A run of `cases` cases per design (or `DODBENCH_TEST_CASES`), seeded as
    /// `DODBENCH_TEST_SEED` says, saving failures in `tests/regressions/<module>.txt`;
    /// `module` is the test file's `module_path!()`.
    ///
    /// # Panics
    /// If either variable is set to something unreadable.
    pub fn new(module: &'static str, test_fn: &'static str, cases: u32) -> Self {
        let module = module.rsplit("::").next().unwrap_or(module);
        let cases = match std::env::var("DODBENCH_TEST_CASES") {
            Err(_) => cases,
            Ok(n) => n.trim().parse().unwrap_or_else(|_| {
                panic!("DODBENCH_TEST_CASES={n:?}: expected a whole number of cases")
            }),
        };
        // proptest's `Direct` path is a `&'static str`; one short string per test, leaked.
        let regressions: &'static str = String::leak(format!(
            "{}/tests/regressions/{module}.txt",
            env!("CARGO_MANIFEST_DIR")
        ));
        ModelRun {
            module,
            test_fn,
            cases,
            seeds: SeedChoice::from_env(),
            regressions: Some(regressions),
            failures: Vec::new(),
        }
    }

    /// The same run seeded by `seeds` instead of the environment.
    pub fn with_seeds(mut self, seeds: SeedChoice) -> Self {
        self.seeds = seeds;
        self
    }

    /// The same run with failures saved in (and replayed first from) `path` instead of the
    /// committed file, or not at all with `None`.
    pub fn with_regressions(mut self, path: Option<&'static str>) -> Self {
        self.regressions = path;
        self
    }

    /// The seed `design` runs from.
    fn seed_for(&self, design: &str) -> u64 {
        match self.seeds {
            SeedChoice::Fixed => fixed_seed(self.module, self.test_fn, design),
            SeedChoice::Given(seed) => seed,
            SeedChoice::Random => RandomState::new().build_hasher().finish(),
        }
    }

    /// The command that runs this test from `seed`.
    fn replay_command(&self, seed: u64) -> String {
        format!(
            "DODBENCH_TEST_SEED={seed:#018x} cargo test -p impls --test integration -- --exact \
             {}::{}",
            self.module, self.test_fn
        )
    }

    /// Checks `property` on `strategy`'s values for `design`, recording a failure instead of
    /// panicking so the remaining designs still run.
    pub fn check<S: Strategy + 'static>(
        &mut self,
        design: &str,
        strategy: S,
        property: impl Fn(S::Value) -> TestCaseResult,
    ) {
        self.check_boxed(design, strategy.boxed(), &property);
    }

    /// [`check`](Self::check) behind a boxed strategy and a `dyn` property: proptest's runner
    /// (generation, shrinking, persistence) is compiled once per value type, not once per
    /// design and property, which kept this test binary the slowest unit of a `cargo test`
    /// build. Boxing draws the same values from the same seed.
    fn check_boxed<V: Debug>(
        &mut self,
        design: &str,
        strategy: BoxedStrategy<V>,
        property: &dyn Fn(V) -> TestCaseResult,
    ) {
        let seed = self.seed_for(design);
        println!(
            "{}::{} {design}: seed {seed:#018x} ({:?}), {} cases",
            self.module, self.test_fn, self.seeds, self.cases
        );
        let config = Config {
            cases: self.cases,
            failure_persistence: self
                .regressions
                .map(|p| Box::new(FileFailurePersistence::Direct(p)) as _),
            ..Config::default()
        };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed));
        let mut runner = TestRunner::new_with_rng(config, rng);
        if let Err(e) = runner.run(&strategy, property) {
            self.failures.push(DesignFailure {
                design: design.to_owned(),
                seed,
                report: e.to_string(),
                replay: self.replay_command(seed),
            });
        }
    }

    /// Every failure recorded so far, in design order (the non-panicking end of a run).
    pub fn failures(&self) -> &[DesignFailure] {
        &self.failures
    }

    /// Ends the run.
    ///
    /// # Panics
    /// If any design failed, once, listing every failing design.
    pub fn finish(self) {
        if self.failures.is_empty() {
            return;
        }
        let mut msg = format!(
            "{} design(s) disagree with the model in {}::{}:",
            self.failures.len(),
            self.module,
            self.test_fn
        );
        for f in &self.failures {
            msg += &format!(
                "\n\n=== {} (seed {:#018x})\nreplay: {}\n{}",
                f.design, f.seed, f.replay, f.report
            );
        }
        if let Some(path) = self.regressions {
            msg += &format!(
                "\n\nA case found anew was appended to {path} (proptest says so above); \
                 commit that line with the fix so every later run replays it first."
            );
        }
        panic!("{msg}");
    }
}

/// Writes a family's model property test, given the family's registry visitor trait and design
/// trait, its `for_each_*` function, the length range of an op sequence and the cases per
/// design: the visitor `ModelTest` checks `run_against_model::<D>` (of the calling module) on
/// sequences of `op_strategy()` (likewise) for every design through one [`ModelRun`], and
/// `#[test] every_design_agrees_with_the_model` runs it over the registry. A family whose
/// visitor is its own (other inputs, or several designs per visit) names it and gets the
/// `#[test]` alone.
macro_rules! every_design_agrees_with_the_model {
    (
        $visitor:ident::visit<D: $design:ident>,
        $for_each:ident,
        ops: $ops:expr,
        cases: $cases:expr $(,)?
    ) => {
        /// The property test per design, through the shared seeded runner.
        struct ModelTest($crate::support::ModelRun);

        impl $visitor for ModelTest {
            fn visit<D: $design + 'static>(&mut self) {
                let ops = proptest::collection::vec(op_strategy(), $ops);
                self.0
                    .check(D::INFO.meta.name, ops, |ops| run_against_model::<D>(&ops));
            }
        }

        $crate::support::every_design_agrees_with_the_model!(ModelTest, $for_each, cases: $cases);
    };
    ($test:ident, $for_each:ident, cases: $cases:expr $(,)?) => {
        #[test]
        fn every_design_agrees_with_the_model() {
            let mut test = $test($crate::support::ModelRun::new(
                module_path!(),
                "every_design_agrees_with_the_model",
                $cases,
            ));
            $for_each(&mut test);
            test.0.finish();
        }
    };
}

pub(crate) use every_design_agrees_with_the_model;

/// Fails the test case, in `ctx`'s words, when the design's or the model's invariants are
/// broken (as their `check_invariants` report it after an op).
///
/// # Errors
/// The case's failure, naming the broken invariant.
pub fn invariants_hold(
    design: Result<(), String>,
    model: Result<(), String>,
    ctx: impl Fn(&str) -> String,
) -> Result<(), TestCaseError> {
    if let Err(broken) = design {
        return Err(TestCaseError::fail(ctx(&format!(
            "invariant broken: {broken}"
        ))));
    }
    if let Err(broken) = model {
        return Err(TestCaseError::fail(ctx(&format!(
            "model invariant broken: {broken}"
        ))));
    }
    Ok(())
}

/// A spatial index's answer to a radius query, sorted, so it compares with the model's scan.
pub fn answer<const D: usize, I: SpatialIndex<D>>(i: &mut I, c: [f32; D], r: f32) -> Vec<PointId> {
    let mut v = Vec::new();
    i.query(c, r, |id| v.push(id));
    v.sort_unstable();
    v
}
