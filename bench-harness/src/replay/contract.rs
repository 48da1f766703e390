//! The replay's contract, below every family: what a family is to the harness ([`Family`]),
//! what one design's replay is ([`Replayer`]), a family's digest ([`ReplayDigest`]), a
//! hand-written loop beside the replays ([`ReferenceLoop`]), the visitors that hand them out
//! ([`ReplayerVisitor`]) and the helpers written once over them. It names no family; every
//! family's module implements it (`replay/<family>/`), and the list of families is
//! [`crate::families`].

use std::fmt::Debug;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use workloads::{Trace, TraceOp};

use results::DesignRecord;

use super::erased::{Design, design};
pub use super::metric_fields::{MetricFields, NoMetrics};
use super::resolved::{HandleIds, HandleMap, ResolvedBody};
use super::shared::CellStates;

/// A family as the harness sees it: everything the criterion driver, the CLI, the measurement
/// passes, `compare` and the report need, so none of them names a family.
pub trait Family: Sized + 'static {
    /// The op vocabulary of its traces.
    type Op: TraceOp;
    /// What a replay observed, reduced to counts and order-independent sums: two replays of
    /// one trace give equal digests exactly when they saw the same answers (up to sum
    /// collisions), whatever order each design keeps its contents in.
    type Digest: ReplayDigest<Self::Op> + Send + 'static;
    /// The replayer of the family's obviously-correct reference model, whose digests are the
    /// expected answers.
    type Model: Replayer<Family = Self>;
    /// What [`Replayer::measure`] measures beyond time, as a struct whose field names are
    /// its section's metric names (a table of [`metric_fields!`](super::metric_fields), in
    /// `replay/<family>/metrics.rs`); [`NoMetrics`] for a family without.
    type Metrics: MetricFields;

    /// The family's name in trace headers, results and benchmark IDs (the op vocabulary's).
    const NAME: &'static str = <Self::Op as TraceOp>::FAMILY;
    /// The family in results: the variant of [`results::Family`] named [`Self::NAME`].
    const RESULTS_FAMILY: results::Family = results_family(Self::NAME);
    /// Whether a replay hands its work to threads other than the caller's (worker threads):
    /// such a body is timed on the wall clock, since the caller's waits for a processor
    /// (taken off the time of a body run on one thread, `host::Stopwatch`) are time its
    /// workers ran.
    const RUNS_ON_OTHER_THREADS: bool = false;
    /// A title for listings and the report ("ID lookup tables").
    const TITLE: &'static str;
    /// The design whose time normalises the family's others in `compare` and the history
    /// (the article's baseline design).
    const REFERENCE_DESIGN: &'static str;
    /// The workloads whose cost is memory traffic: the default set of `dodbench cache` and
    /// `dodbench sweep`.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str];
    /// The default set of `dodbench memory` (bodies that grow, shrink or hold the store).
    const MEMORY_WORKLOADS: &'static [&'static str];
    /// The default set of `dodbench latency`.
    const LATENCY_WORKLOADS: &'static [&'static str];
    /// Workloads whose claims are about how cost grows with N (a quadratic removal against a
    /// linear one): `dodbench sweep` times them at every size of its plan beside
    /// [`Self::MEMORY_BOUND_WORKLOADS`], so `results::verdict` can fit an exponent per design.
    /// None by default.
    const SCALING_WORKLOADS: &'static [&'static str] = &[];
    /// Largest live size `dodbench sweep` goes to (its replays must stay within seconds).
    const SWEEP_MAX_N: usize;

    /// What bounds `trace`'s body on a store larger than the caches, recorded with the
    /// workload so the report can set each design against this machine's measured limits
    /// ([`results::MemoryBound`]); `None`, the default, for bodies that are neither a stream
    /// over the stored objects nor a list of independent gets.
    fn memory_bound(trace: &Trace<Self::Op>) -> Option<results::MemoryBound> {
        let _ = trace;
        None
    }

    /// The live sizes of the family's runs, as data: the `cargo bench` matrix per scale and
    /// the passes' sizes.
    const SIZES: RunSizes;

    /// Live sizes of the `cargo bench` matrix at `scale` ([`RunSizes::bench`] of
    /// [`Self::SIZES`]).
    fn bench_sizes(scale: Scale) -> Vec<usize> {
        Self::SIZES.bench(scale).to_vec()
    }

    /// The sizes `workload` is benchmarked at: [`Family::bench_sizes`] unless the family
    /// restricts a workload (e.g. variants of a workload at other object sizes, run at one
    /// size in quick mode to keep the quick run short).
    fn workload_bench_sizes(workload: &str, scale: Scale) -> Vec<usize> {
        let _ = workload;
        Self::bench_sizes(scale)
    }

    /// Live sizes of the `cache`, `memory` and `latency` passes (`quick` for CI), from
    /// [`Self::SIZES`].
    fn pass_sizes(quick: bool) -> Vec<usize> {
        let sizes = Self::SIZES;
        if quick {
            sizes.passes_quick
        } else {
            sizes.passes
        }
        .to_vec()
    }

    /// The family's designs as results records, in registry order.
    fn design_records() -> Vec<DesignRecord>;

    /// The articles' quantitative claims this family's results answer, as data: the tables
    /// of `replay/<family>/claims.rs` (one per article where the family reads several, in
    /// catalogue order), whose rows the run records ([`Family::claims`]) and `results::verdict`
    /// judges.
    const CLAIMS: &'static [&'static [results::ClaimSpec]];
    /// The catalogue's quantitative statements of this family's articles that no claim tests,
    /// each with the reason (the table `UNTESTED` of `replay/<family>/claims.rs`); `cli`'s
    /// catalogue test checks that every statement is a claim or one of these.
    const UNTESTED: &'static [results::UntestedSpec] = &[];
    /// Why the family's peers have no reference loop where they have none
    /// ([`results::FamilyRecord::no_loops`]); `None` for a family whose peers have a loop
    /// wherever their replay runs.
    const NO_LOOPS: Option<&'static str> = None;

    /// [`Family::CLAIMS`], every table's rows in order, as the run records them.
    fn claims() -> Vec<results::Claim> {
        Self::CLAIMS
            .iter()
            .copied()
            .flatten()
            .map(results::Claim::from)
            .collect()
    }

    /// [`Family::UNTESTED`] as the run records them.
    fn untested() -> Vec<results::Untested> {
        Self::UNTESTED.iter().map(results::Untested::from).collect()
    }

    /// How the report shows [`Family::Metrics`] and `compare` gates them: a title, the metric
    /// that ranks the table, and one spec per field (name, label, unit, description, better
    /// direction, deterministic or not, chart), as the metrics type declares it
    /// ([`MetricFields::section`]). `None` for a family without metrics.
    fn metric_section() -> Option<results::MetricSection> {
        <Self::Metrics as MetricFields>::section()
    }

    /// The family as a run records it: its title, time reference, claims and metric specs.
    fn family_record() -> results::FamilyRecord {
        results::FamilyRecord {
            family: Self::RESULTS_FAMILY,
            title: Self::TITLE.to_string(),
            reference_design: Self::REFERENCE_DESIGN.to_string(),
            claims: Self::claims(),
            untested: Self::untested(),
            metrics: Self::metric_section(),
            no_loops: Self::NO_LOOPS.map(str::to_string),
        }
    }

    /// A program that replays `trace` on `design`'s crate alone, without dodbench, and prints
    /// where the crate's answers differ from a brute-force model: what `dodbench shrink` writes
    /// beside a shrunk trace for a peer whose calls the family can write out
    /// (`replay/<family>/repro.rs`); `None` for every other design.
    fn standalone_repro(design: &str, trace: &Trace<Self::Op>) -> Option<StandaloneRepro> {
        let _ = (design, trace);
        None
    }

    /// Calls the visitor once per registered design (role [`Role::Design`]), then once per
    /// reference replayer timed beside them ([`Role::Reference`]), then once per reference
    /// loop.
    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V);
}

/// The variant of [`results::Family`] named `name`, found at compile time (a family's
/// [`Family::RESULTS_FAMILY`] from its [`Family::NAME`]): a name results has no family of
/// fails the build.
pub const fn results_family(name: &str) -> results::Family {
    let all = results::Family::ALL;
    let mut k = 0;
    while k < all.len() {
        if same_str(all[k].as_str(), name) {
            return all[k];
        }
        k += 1;
    }
    panic!("results::Family has no family of this name")
}

/// Whether `a` and `b` are the same string, in a constant.
const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The live sizes a family runs at ([`Family::SIZES`]): the `cargo bench` matrix at each
/// [`Scale`] and the sizes of the `cache`, `memory` and `latency` passes, quick (CI) or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSizes {
    /// The matrix of a quick run ([`Scale::Quick`]).
    pub quick: &'static [usize],
    /// The default matrix ([`Scale::Default`]).
    pub default: &'static [usize],
    /// The exhaustive matrix ([`Scale::Full`]).
    pub full: &'static [usize],
    /// The passes' sizes in a quick run (CI).
    pub passes_quick: &'static [usize],
    /// The passes' sizes otherwise.
    pub passes: &'static [usize],
}

impl RunSizes {
    /// The `cargo bench` matrix at `scale`.
    pub fn bench(&self, scale: Scale) -> &'static [usize] {
        match scale {
            Scale::Quick => self.quick,
            Scale::Default => self.default,
            Scale::Full => self.full,
        }
    }
}

/// The results records of a family's designs, one per entry of its registry's list of
/// `infos` (the registry's `*_designs()`), in order, each made by the family's `record`.
pub fn records_of<I>(infos: Vec<I>, record: impl Fn(&I) -> DesignRecord) -> Vec<DesignRecord> {
    infos.iter().map(record).collect()
}

/// A standalone program that shows a peer's failure with its crate alone
/// ([`Family::standalone_repro`]): a Cargo package of two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandaloneRepro {
    /// `Cargo.toml`, naming the crate at its exact version.
    pub cargo_toml: String,
    /// `src/main.rs`: the trace's ops as data, the crate's calls as the peer makes them, and the
    /// brute-force answers they are compared with.
    pub main_rs: String,
}

/// A family that can run a design type `D` from another crate (the user's type implementing
/// the family's design trait): the replayer it wraps `D` in and `D`'s results record. One impl
/// per family, next to its replayer; `dodbench::external` runs such a design beside the
/// family's registry.
pub trait HostsDesign<D>: Family {
    /// The family's replayer of `D`.
    type Replayer: Replayer<Family = Self>;

    /// `D`'s record in results (its kind is normally `external`).
    fn design_record() -> DesignRecord;
}

/// Designs visited after a family's registry: `()` for none (every built-in run),
/// [`External`] for a user's design.
pub trait ExtraDesigns<F: Family> {
    /// Visits each extra design (role [`Role::Design`]).
    fn for_each<V: ReplayerVisitor<F>>(visitor: &mut V);

    /// Their results records, in visiting order.
    fn records() -> Vec<DesignRecord>;
}

impl<F: Family> ExtraDesigns<F> for () {
    fn for_each<V: ReplayerVisitor<F>>(_visitor: &mut V) {}

    fn records() -> Vec<DesignRecord> {
        Vec::new()
    }
}

/// One design type `D` from another crate, run by the family that hosts it.
pub struct External<D>(std::marker::PhantomData<D>);

impl<D, F: HostsDesign<D>> ExtraDesigns<F> for External<D> {
    fn for_each<V: ReplayerVisitor<F>>(visitor: &mut V) {
        visitor.visit::<<F as HostsDesign<D>>::Replayer>(Role::Design);
    }

    fn records() -> Vec<DesignRecord> {
        vec![<F as HostsDesign<D>>::design_record()]
    }
}

/// [`Family::for_each_replayer`] followed by the extra designs `X`.
pub fn for_each_replayer_with<F: Family, X: ExtraDesigns<F>, V: ReplayerVisitor<F>>(
    visitor: &mut V,
) {
    F::for_each_replayer(visitor);
    X::for_each(visitor);
}

/// [`Family::design_records`] followed by the records of the extra designs `X`.
pub fn design_records_with<F: Family, X: ExtraDesigns<F>>() -> Vec<DesignRecord> {
    let mut records = F::design_records();
    records.extend(X::records());
    records
}

/// The part of a design's results record every family fills alike, from the design's
/// [`DesignMeta`](impls::DesignMeta): its family, name, description and where it comes from
/// (kind, and for a peer its crate version, idiom and documentation page). The
/// family-specific fields (ID size, stale detection, capacity, limits) are left at "none",
/// for the family to set by struct update.
pub fn design_record_of(family: results::Family, meta: &impls::DesignMeta) -> DesignRecord {
    let impls::DesignMeta {
        name,
        description,
        kind,
    } = *meta;
    let usage = kind.usage();
    DesignRecord {
        family,
        name: name.to_string(),
        description: description.to_string(),
        kind: kind.label().to_string(),
        crate_version: kind.crate_version(),
        id_bytes: 0,
        detects_stale: false,
        capacity: None,
        limits: None,
        idiom: usage.map(|(idiom, _)| idiom.to_string()),
        docs: usage.map(|(_, docs)| docs.to_string()),
        adapter: kind.adapter().map(str::to_string),
        contract_gaps: Vec::new(),
    }
}

/// A contract gap: a design that cannot detect a stale ID (a reused slot's old ID reads the
/// new object) skips the generation check every get of the others pays.
pub const GAP_NO_STALE_DETECTION: &str = "detects no stale ID";

/// Names the fields in which `got` differs from `want` (digests of one family).
pub fn describe_mismatch<D: Serialize>(want: &D, got: &D) -> String {
    let w = serde_json::to_value(want).expect("digest serialises");
    let g = serde_json::to_value(got).expect("digest serialises");
    let mut parts = Vec::new();
    if let (Some(w), Some(g)) = (w.as_object(), g.as_object()) {
        for (k, wv) in w {
            if g.get(k) != Some(wv) {
                parts.push(format!("{k}: expected {wv}, got {}", g[k]));
            }
        }
    }
    parts.join("; ")
}

/// How big a `cargo bench` run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// `DODBENCH_QUICK=1`: the smallest matrix with short measurement (CI).
    Quick,
    /// The default matrix: every workload at the sizes that show the designs apart.
    Default,
    /// `DODBENCH_FULL=1`: the exhaustive matrix.
    Full,
}

/// What a replayer is in a family's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A registered design: verified, timed, measured by every pass, ranked.
    Design,
    /// A reference timed beside the designs (results family `reference`), never ranked and
    /// not measured by the passes.
    Reference,
}

/// Something done once per replayer of family `F`.
///
/// A visitor that runs a design (verifies, times or measures it) implements
/// [`visit_design`](Self::visit_design), which is compiled once per family ([`erased`](super::erased)); one
/// that needs the replayer's type (its name, a reference loop's own state) implements
/// [`visit`](Self::visit), compiled once per design.
pub trait ReplayerVisitor<F: Family> {
    /// Called once per design or reference replayer `R`; by default hands its design object
    /// to [`visit_design`](Self::visit_design).
    fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
        self.visit_design(design::<R>(), role);
    }

    /// Called once per design or reference replayer, as an object (unless
    /// [`visit`](Self::visit) is implemented instead); ignored by default.
    fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
        let _ = (design, role);
    }

    /// Called once per reference loop `L` (a hand-written loop for one body shape, timed
    /// beside the designs); ignored by default.
    fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {}
}

/// A hand-written loop timed beside a family's designs where a trace has its shape (e.g. a
/// plain `Vec` sum for an iteration body): the floor a design's time is read against.
///
/// A loop implements at least one of [`for_trace`](Self::for_trace) and
/// [`in_cell`](Self::in_cell): each defaults to the other, a loop with a state of its own
/// writing the first, a loop that can read a design's state in the cell the second.
pub trait ReferenceLoop: Sized + 'static {
    /// The family whose traces it runs.
    type Family: Family;

    /// The design whose replay this loop writes by hand, if any: its time over the loop's is
    /// the replay driver's overhead (`Benchmark::overhead` in results).
    const MIRRORS: Option<&'static str> = None;

    /// Its name in results (family `reference`): `ref-direct-<design>` for a loop that mirrors
    /// a design ([`Self::MIRRORS`]); a loop that mirrors none names itself.
    fn name() -> String {
        let design = Self::MIRRORS.expect("a loop that mirrors no design names itself");
        format!("ref-direct-{design}")
    }

    /// The loop for `trace` whose body's expected digest is `expected_body`, or `None` when the
    /// body does not have its shape. Defaults to [`in_cell`](Self::in_cell) in a cell that
    /// holds no design's state.
    fn for_trace(
        trace: &Trace<OpOf<Self::Family>>,
        expected_body: &<Self::Family as Family>::Digest,
    ) -> Option<Self> {
        Self::in_cell(trace, expected_body, &CellStates::default())
    }

    /// The loop for `trace` in a cell whose designs' timed replays share their states in
    /// `designs`: a loop that mirrors a design reads that design's very state and resolved IDs
    /// there, so the loop and the replay time the same bytes and their ratio is the driver's
    /// cost, not where two copies of a table landed in memory ([`shared`](super::shared)). Defaults to
    /// [`for_trace`](Self::for_trace), a state of the loop's own.
    fn in_cell(
        trace: &Trace<OpOf<Self::Family>>,
        expected_body: &<Self::Family as Family>::Digest,
        designs: &CellStates,
    ) -> Option<Self> {
        let _ = designs;
        Self::for_trace(trace, expected_body)
    }

    /// Runs `iters` timed, verified passes and returns the time inside them.
    ///
    /// # Errors
    /// A pass disagreed with the model.
    fn run(&self, iters: u64) -> Result<Duration, String>;
}

/// [`ReferenceLoop::run`] of a loop whose passes time and verify themselves: `iters` calls of
/// `pass`, the times summed, stopping at the first pass that fails. Generic and inlined, so
/// the loop's pass is called as directly as from a hand-written `for`.
///
/// # Errors
/// The first pass's error.
#[inline]
pub fn sum_passes(
    iters: u64,
    mut pass: impl FnMut() -> Result<Duration, String>,
) -> Result<Duration, String> {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        total += pass()?;
    }
    Ok(total)
}

/// A family's digest: mergeable so a body replayed in pieces (latency batches, memory samples)
/// digests to the value of the whole, and serialisable so a child process can report it.
pub trait ReplayDigest<O>:
    Copy + Debug + Default + PartialEq + Eq + Serialize + DeserializeOwned
{
    /// Folds in the digest of a replay of the ops that followed.
    fn merge(&mut self, later: &Self);

    /// Work units of the replayed `ops` that gave this digest (as the family's
    /// `TraceStats::work_units` counts them).
    fn work_units(&self, ops: &[O]) -> u64;
}

/// The names of family `F`'s replayers with `role` (all of them for `None`), in list order;
/// reference loops are not replayers and are not listed.
pub fn replayer_names<F: Family>(role: Option<Role>) -> Vec<&'static str> {
    struct Names(Vec<&'static str>, Option<Role>);
    impl<F: Family> ReplayerVisitor<F> for Names {
        fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
            if self.1.is_none_or(|r| r == role) {
                self.0.push(R::design_name());
            }
        }
    }
    let mut names = Names(Vec::new(), role);
    F::for_each_replayer(&mut names);
    names.0
}

/// The names of family `F`'s reference loops, in list order.
pub fn reference_loop_names<F: Family>() -> Vec<String> {
    struct Names(Vec<String>);
    impl<F: Family> ReplayerVisitor<F> for Names {
        fn visit<R: Replayer<Family = F>>(&mut self, _role: Role) {}
        fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
            self.0.push(L::name());
        }
    }
    let mut names = Names(Vec::new());
    F::for_each_replayer(&mut names);
    names.0
}

/// The designs of family `F` that a reference loop mirrors ([`ReferenceLoop::MIRRORS`]): the
/// ones whose timed replays share their state with the cell ([`CellStates`]).
pub fn mirrored_designs<F: Family>() -> Vec<&'static str> {
    struct Mirrored(Vec<&'static str>);
    impl<F: Family> ReplayerVisitor<F> for Mirrored {
        fn visit<R: Replayer<Family = F>>(&mut self, _role: Role) {}
        fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
            self.0.extend(L::MIRRORS);
        }
    }
    let mut mirrored = Mirrored(Vec::new());
    F::for_each_replayer(&mut mirrored);
    mirrored.0
}

/// The op type of family `F`.
pub type OpOf<F> = <F as Family>::Op;

/// The digest type of family `F`.
pub type DigestOf<F> = <F as Family>::Digest;

/// A body resolved for replayer `R`, with the digest of the dry run that resolved it.
pub type ResolvedPair<R> = (
    ResolvedBody<<R as Replayer>::Id>,
    DigestOf<<R as Replayer>::Family>,
);

/// The body statistics type of family `F`.
pub type StatsOf<F> = <OpOf<F> as TraceOp>::Stats;

/// A design's replay state for one trace: the design plus the handle → design ID map.
///
/// A family writes one replay loop, [`run`](Replayer::run), generic over where it finds the
/// design's IDs ([`HandleIds`]); the provided methods use it three ways: through the handle map
/// ([`replay`](Replayer::replay): setup and every untimed replay), through the handle map
/// recording the IDs the ops use ([`resolve`](Replayer::resolve): the dry run before timing), and reading the recorded IDs in
/// op order ([`replay_resolved`](Replayer::replay_resolved): the timed run, see
/// [`resolved`](super::resolved)).
pub trait Replayer: Sized + 'static {
    /// The family.
    type Family: Family;

    /// What the replay holds per handle: the design's ID of the object (or what an application
    /// would keep for it, e.g. a block's offset and size).
    type Id: Copy + PartialEq + Debug;

    /// The design's registry name.
    fn design_name() -> &'static str;

    /// Why the design cannot run a trace with these counts by its documented limits (fixed
    /// capacity, a cap on tags per entity, ...), decided before replaying.
    fn unsupported_before(stats: &StatsOf<Self::Family>) -> Option<String> {
        let _ = stats;
        None
    }

    /// Why the design cannot run a trace with this header by its documented limits (e.g. an
    /// object size it is not built for), decided before replaying.
    fn unsupported_trace(trace: &Trace<OpOf<Self::Family>>) -> Option<String> {
        let _ = trace;
        None
    }

    /// Why the design cannot run the trace, decided from the body's digest (a documented
    /// limit such as no stale-ID detection that shows only in the answers).
    fn unsupported_after(
        stats: &StatsOf<Self::Family>,
        body: &<Self::Family as Family>::Digest,
    ) -> Option<String> {
        let _ = (stats, body);
        None
    }

    /// An empty design with room in its handle map for `trace`'s handles.
    fn for_trace(trace: &Trace<OpOf<Self::Family>>) -> Self;

    /// The handle map (`Default` while [`replay`](Replayer::replay) has it out).
    fn handles(&mut self) -> &mut HandleMap<Self::Id>;

    /// The family's replay loop: applies `ops` in order, finding each op's IDs through `ids`
    /// and handing it the IDs the design produced, and returns what was observed.
    ///
    /// Calls `ids` a fixed number of times per op kind, in op order, whatever the design
    /// answers (so a dry run and a timed run make the same calls). Expects a validated trace;
    /// an op naming a handle never created is a bug in the caller and panics on the handle
    /// map's bounds check.
    ///
    /// # Errors
    /// The design refused an op (fixed capacity, ID space, arena exhausted), or `ids` rejected
    /// an ID ([`IdMismatch`](super::resolved::IdMismatch)); the ops before it were applied.
    fn run<H: HandleIds<Self::Id>>(
        &mut self,
        ops: &[OpOf<Self::Family>],
        ids: &mut H,
    ) -> Result<<Self::Family as Family>::Digest, ReplayError>;

    /// Builds the starting state: an empty design with the trace's setup replayed.
    ///
    /// # Errors
    /// The design refused an op of the setup.
    fn after_setup(trace: &Trace<OpOf<Self::Family>>) -> Result<Self, ReplayError> {
        let mut state = Self::for_trace(trace);
        state.replay(&trace.setup)?;
        Ok(state)
    }

    /// Applies `ops` in order through the handle map and returns what was observed.
    ///
    /// # Errors
    /// As [`run`](Replayer::run).
    fn replay(
        &mut self,
        ops: &[OpOf<Self::Family>],
    ) -> Result<<Self::Family as Family>::Digest, ReplayError> {
        let mut map = std::mem::take(self.handles());
        let result = self.run(ops, &mut map);
        *self.handles() = map;
        result
    }

    /// The dry run before timing: replays `ops` like [`replay`](Replayer::replay), op by op,
    /// and records every ID the ops used or produced, in op order.
    ///
    /// # Errors
    /// As [`run`](Replayer::run); the index is the op's in `ops`.
    fn resolve(&mut self, ops: &[OpOf<Self::Family>]) -> Result<ResolvedPair<Self>, ReplayError> {
        let mut ids_per_op = Vec::with_capacity(ops.len());
        let (result, log) = recording_ids(self, |state, map| {
            let mut digest = <Self::Family as Family>::Digest::default();
            for (index, op) in ops.iter().enumerate() {
                let before = map.recorded();
                let d = state
                    .run(std::slice::from_ref(op), map)
                    .map_err(|e| ReplayError { index, ..e })?;
                digest.merge(&d);
                ids_per_op.push((map.recorded() - before) as u32);
            }
            Ok(digest)
        });
        let digest = result?;
        Ok((ResolvedBody::new(ops, log, &ids_per_op), digest))
    }

    /// The timed run: replays `ops`, resolved by a dry run into `body`, reading each op's IDs
    /// from `body` in order (the handle map is neither read nor updated), segment by segment.
    ///
    /// # Errors
    /// As [`run`](Replayer::run); an ID the design produced that differs from the dry run's
    /// is an [`IdMismatch`](super::resolved::IdMismatch).
    fn replay_resolved(
        &mut self,
        ops: &[OpOf<Self::Family>],
        body: &ResolvedBody<Self::Id>,
    ) -> Result<<Self::Family as Family>::Digest, ReplayError> {
        let mut digest = <Self::Family as Family>::Digest::default();
        let segments = body.segments();
        for (k, segment) in segments.iter().enumerate() {
            let next_first = segments.get(k + 1).map_or(body.ids().len(), |s| s.first_id);
            let mut cursor = body.cursor(segment, next_first);
            let d = self
                .run(&ops[segment.start..segment.end], &mut cursor)
                .map_err(|e| ReplayError {
                    index: e.index + segment.start,
                    ..e
                })?;
            digest.merge(&d);
        }
        Ok(digest)
    }

    /// Heap bytes the design holds now, by its own accounting.
    fn memory_bytes(&self) -> u64;

    /// Live objects (IDs, entities, blocks) the design holds now.
    fn live_count(&self) -> usize;

    /// A digest of the design's whole live contents, read after a replay and outside any timed
    /// region, for families whose timed ops observe too little of the state (a `simulate`
    /// body reads nothing back). May reorganise the design (e.g. collect garbage) but never
    /// changes what later ops observe. `None` (the default): the family has none.
    fn state_digest(&mut self) -> Option<u64> {
        None
    }

    /// The family's metrics beyond time (memory per tag, fragmentation, ...) from an extra
    /// untimed replay of `trace`; `Ok(None)` for a family that has none (ID tables, whose
    /// memory metrics come from `dodbench memory`).
    ///
    /// # Errors
    /// The design refused an op.
    fn measure(
        trace: &Trace<OpOf<Self::Family>>,
        stats: &StatsOf<Self::Family>,
    ) -> Result<Option<MetricsOf<Self::Family>>, ReplayError> {
        let _ = (trace, stats);
        Ok(None)
    }

    /// The design's own invariant check.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// The body statistics of `trace` where replayer `R`'s own replay runs it: `None` for an
/// invalid trace or one `R` declares unsupported before replaying
/// ([`Replayer::unsupported_before`]). A reference loop that mirrors `R` has a loop only where
/// this is `Some`.
pub fn runs_trace<R: Replayer>(trace: &Trace<OpOf<R::Family>>) -> Option<StatsOf<R::Family>> {
    let stats = trace.validate().ok()?;
    R::unsupported_before(&stats).is_none().then_some(stats)
}

/// The frame of a dry run ([`Replayer::resolve`] and a replayer's own): runs `replay` on
/// `state` with its handle map taken out and recording, then puts the map back, whatever
/// `replay` returned; returns that and every ID the ops used or produced, in op order.
pub fn recording_ids<R: Replayer, T>(
    state: &mut R,
    replay: impl FnOnce(&mut R, &mut HandleMap<R::Id>) -> T,
) -> (T, Vec<R::Id>) {
    let mut map = std::mem::take(state.handles());
    map.start_recording();
    let result = replay(state, &mut map);
    let log = map.stop_recording();
    *state.handles() = map;
    (result, log)
}

/// The typed metrics of family `F`.
pub type MetricsOf<F> = <F as Family>::Metrics;

/// `metrics` of family `F` as results.json carries them: named values tagged by the family.
///
/// # Errors
/// A field of `F::Metrics` is not a number, an optional number or a list of numbers (a
/// declaration error, caught by the family list's tests).
pub fn family_metrics<F: Family>(metrics: &F::Metrics) -> Result<results::FamilyMetrics, String> {
    results::FamilyMetrics::from_fields(F::RESULTS_FAMILY, metrics)
}

/// A replay could not continue: the design refused an op.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("op {index} ({op}): {error}")]
pub struct ReplayError {
    /// Index of the failing op within the replayed slice.
    pub index: usize,
    /// The op, as `Debug` prints it.
    pub op: String,
    /// The design's error, as it displays.
    pub error: String,
}

impl ReplayError {
    /// The error of op `index` (`op`) refused with `error`. Cold and out of line: replay
    /// loops build it only when a design refuses an op, so its formatting stays out of them.
    #[cold]
    #[inline(never)]
    pub fn at(index: usize, op: impl Debug, error: impl std::fmt::Display) -> Self {
        Self {
            index,
            op: format!("{op:?}"),
            error: error.to_string(),
        }
    }
}
