//! The locking family: gameplay scripts run on several threads against one engine's shared,
//! mutable state, and the ways to make that safe ("Multithreaded Gameplay", BitSquid, catalogue
//! H1-H3).
//!
//! # The state and the jobs (the same for every design)
//! The engine is "a big ball of mutable state" ([`World`]): units as point masses in the
//! components family's single buffer ([`crate::components::direct::BufferDirect`]) behind the
//! **Unit** API (read a unit's position, push a unit by a delta), and a physics world, the
//! spatial family's dense grid ([`crate::spatial::dense_grid::DenseGrid`]) over the units'
//! positions, behind the **Physics** API (`raycast`: how many units lie within the script's
//! radius of a unit's body). Physics is the engine's: it is synchronised with the units at the
//! end of each frame ([`Physics::sync`], after every job of the frame has run), so within a
//! frame it reads the frame's starting positions, as an engine's physics step does.
//!
//! A **job** ([`Job`]) is one unit's gameplay script for a frame, four API calls with pure
//! script work between them ([`run_job`]): read its own position, raycast from its body, push
//! itself by its delta, and, for some jobs, push *another* unit ("adjusting the position of
//! another unit"). Pushes add a delta, so the order in which threads apply them does not matter:
//! positions are whole numbers in `f32` (the workload keeps them below 2^23), every sum is
//! exact, and any schedule ends in the state the one-thread model reaches ([`model`]). A job's
//! raycast reads physics, which does not move within a frame, so its answer is fixed too; the
//! position a job reads may see another thread's push or not, and only feeds the script's own
//! work (never an answer).
//!
//! # The designs ([`GameplayRunner`]; "which one to choose")
//! * `single_thread`: every job on the caller's thread, no lock: the reference every speed-up
//!   is measured against.
//! * Per-call critical sections (H2: "we could put a critical section in each API call"):
//!   `call_mutex` (one `std::sync::Mutex` over the world, taken by every call),
//!   `call_mutex_pl` (the same with `parking_lot::Mutex`), `call_rwlock` (a
//!   `std::sync::RwLock`: reads and raycasts shared, pushes exclusive).
//! * API-level locks held over a batch (H3: `lock_api("Unit", player, LockType.WRITE)`):
//!   `api_batch` locks Physics for reading and the units a batch of `k` jobs writes (in stripes
//!   of units, always in one global order, so no deadlock), runs the batch, unlocks;
//!   `api_try` tries the locks and runs another batch first when one is taken (the post's
//!   coroutine switch).
//! * Actors (H1: "processing nodes only touch their own local memory and communicate ...
//!   through asynchronous message passing"): each worker owns a slice of the units, runs their
//!   jobs and sends every push of another unit to its owner as a message (`actors_std` over
//!   `std::sync::mpsc`, `actors_crossbeam` over `crossbeam-channel`).
//! * `command_buffers` (tuned, not in the post; Bevy's `Commands`): workers read the world
//!   shared and record their pushes in their own buffer, applied in worker order after the
//!   join.
//! * Peers: `rayon_par_iter` (`par_iter_mut` over the units, each job writing only its own:
//!   the lock-free ceiling, unsupported where a job writes another unit) and `dashmap` (the
//!   units in a sharded-lock map, a shard lock per call).
//!
//! Threads are a pool started once per thread count and shared by every design
//! ([`workers`]); a design gets the pool when it is built, outside any timed region. What each
//! design synchronises is counted by the design itself ([`SyncCounts`]): lock acquisitions and
//! messages per job depend on the design and the trace only, never on the thread count or the
//! schedule (checked by `impls/tests/integration/locking_model.rs`); failed try-locks do.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing
//! [`GameplayRunner`], then add one line to [`registry`].

pub mod actors;
pub mod api_locks;
pub mod call_locks;
pub mod command_buffers;
pub mod model;
pub mod peers;
pub mod registry;
pub mod single_thread;
pub mod world;

pub use registry::{
    LockingDesignVisitor, find_locking_design, for_each_locking_design, locking_designs,
};
pub use world::{Physics, Units, World};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::DesignMeta;

/// The worker pool every threaded design runs on ([`workers`]).
pub type WorkerPool = rayon::ThreadPool;

/// The `other` of a job that pushes no other unit.
pub const NO_OTHER: u32 = u32::MAX;

/// Most worker threads a design runs on.
pub const MAX_THREADS: usize = 64;

/// Most jobs per batch of the API-level lock designs.
pub const MAX_BATCH: u32 = 1024;

/// One unit's gameplay script for one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Job {
    /// The unit whose script this is.
    pub unit: u32,
    /// The unit it also pushes, or [`NO_OTHER`] (may be `unit` itself).
    pub other: u32,
    /// The push, added to its own position and to `other`'s (whole numbers).
    pub delta: [f32; 2],
}

/// What every job of a trace shares: the script's work between calls and the raycast radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Script {
    /// Iterations of the script's own work ([`script_work`]) before each API call after the
    /// first.
    pub compute: u32,
    /// The raycast radius.
    pub radius: f32,
    /// Jobs per batch of the API-level lock designs (`k`), `1..=`[`MAX_BATCH`].
    pub batch: u32,
}

/// The engine's API as a script sees it: what a design makes thread-safe, each its own way.
pub trait GameplayApi {
    /// The Unit API: unit `unit`'s position (x, y).
    fn position(&mut self, unit: u32) -> [f32; 2];
    /// The Physics API: units within the script's radius of `unit`'s body (itself included).
    fn raycast(&mut self, unit: u32) -> u32;
    /// The Unit API: adds `delta` to `unit`'s position.
    fn push(&mut self, unit: u32, delta: [f32; 2]);

    /// What this API synchronised for the calls it served (locks taken, messages sent); none
    /// by default.
    fn counted(&self) -> SyncCounts {
        SyncCounts::default()
    }
}

/// The script's pure work between API calls: `iters` rounds of a xorshift on local state, a
/// stand-in for the interpreter's own computation ("calibrated": its time per iteration is in
/// docs/locking.md), returned so it cannot be optimised away.
#[inline]
pub fn script_work(mut x: u64, iters: u32) -> u64 {
    x |= 1;
    for _ in 0..iters {
        x = crate::xorshift::step(x);
    }
    x
}

/// What the jobs a design ran observed, summed over workers: every field is fixed by the
/// trace, whatever the schedule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Jobs run.
    pub jobs: u64,
    /// Pushes applied (own and other).
    pub pushes: u64,
    /// Raycast hits, summed.
    pub hits: u64,
    /// `Σ mix_unit_value(unit, hits)` over jobs, wrapping: which job saw how many hits.
    pub hit_mix: u64,
}

impl Tally {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Tally) {
        self.jobs += other.jobs;
        self.pushes += other.pushes;
        self.hits += other.hits;
        self.hit_mix = self.hit_mix.wrapping_add(other.hit_mix);
    }
}

/// A 64-bit mix of a unit and a value (splitmix64's finaliser), for order-free sums.
#[inline]
pub fn mix_unit_value(unit: u32, value: u64) -> u64 {
    let mut z = (u64::from(unit) << 32 ^ value).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Runs `job` through `api`: the one gameplay script every design runs (see the module docs),
/// adding what it observed to `tally`. Returns the script's work value (for `black_box`).
#[inline]
pub fn run_job<A: GameplayApi>(api: &mut A, job: &Job, script: &Script, tally: &mut Tally) -> u64 {
    let p = api.position(job.unit);
    let mut w = script_work(
        u64::from(p[0].to_bits()) << 32 | u64::from(p[1].to_bits()),
        script.compute,
    );
    let hits = api.raycast(job.unit);
    w = script_work(w ^ u64::from(hits), script.compute);
    api.push(job.unit, job.delta);
    tally.pushes += 1;
    if job.other != NO_OTHER {
        w = script_work(w, script.compute);
        api.push(job.other, job.delta);
        tally.pushes += 1;
    }
    tally.jobs += 1;
    tally.hits += u64::from(hits);
    tally.hit_mix = tally
        .hit_mix
        .wrapping_add(mix_unit_value(job.unit, u64::from(hits)));
    std::hint::black_box(w)
}

/// What a design synchronised, counted by the design since it was built.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncCounts {
    /// Locks taken on behalf of jobs (a per-call lock, a batch's API locks, a shard lock), each
    /// acquisition once. The pool's own hand-over of a frame's work is not counted.
    pub lock_acquisitions: u64,
    /// Messages sent on behalf of jobs (an actor's push to another unit's owner, a recorded
    /// command applied after the join).
    pub messages: u64,
    /// Lock attempts that found the lock taken (`api_try`): depends on the schedule.
    pub failed_try_locks: u64,
}

impl SyncCounts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &SyncCounts) {
        self.lock_acquisitions += other.lock_acquisitions;
        self.messages += other.messages;
        self.failed_try_locks += other.failed_try_locks;
    }
}

/// A locking design: runs a frame's jobs on its workers against the world it was built from.
///
/// # Contract (checked by `impls/tests/integration/locking_model.rs` against [`model::ModelRunner`])
/// * [`new`](GameplayRunner::new) takes the world (units and physics, synchronised) and the
///   thread count, `1..=`[`MAX_THREADS`]; a design may ignore it (`single_thread`).
/// * [`run_jobs`](GameplayRunner::run_jobs) runs every job of `jobs` exactly once, in any order
///   and on any thread, and returns before any of them is still running. Jobs of one call may
///   name one unit several times (a partial frame) and any unit as `other`.
/// * [`end_frame`](GameplayRunner::end_frame) synchronises physics with the units.
/// * After any sequence of calls, [`positions`](GameplayRunner::positions) equals the model's
///   exactly, and the tallies summed equal the model's.
pub trait GameplayRunner: Sized + Send {
    /// Name, description, kind.
    const INFO: LockingDesignInfo;

    /// The design over `world`, on `threads` workers (taken from [`workers`]).
    fn new(world: World, threads: usize) -> Self;

    /// Runs every job of `jobs` once (see the contract).
    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally;

    /// The physics step at the end of a frame: physics reads the units' positions now.
    fn end_frame(&mut self);

    /// Calls `f(unit, position)` for every unit, in any order.
    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2]));

    /// What the design synchronised since it was built (the default: nothing, for a design
    /// that takes no lock and sends no message).
    fn counts(&self) -> SyncCounts {
        SyncCounts::default()
    }

    /// Heap bytes held (units, physics, locks, buffers), by its own accounting.
    fn memory_bytes(&self) -> usize;

    /// The design's own invariant check.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// What a locking design says about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockingDesignInfo {
    /// Name, description and origin.
    pub meta: DesignMeta,
    /// Which item of the post it answers (`H1` actors, `H2` per-call, `H3` API-level), or what
    /// it is instead.
    pub answers: &'static str,
    /// Whether it can run a job that pushes another unit (`rayon_par_iter` cannot).
    pub foreign_writes: bool,
    /// Whether it runs jobs on several threads.
    pub threaded: bool,
}

/// Where a design's workers run: with one thread, on the caller itself (no hand-over, no
/// other thread: what a measurement pass replays, so its counts repeat exactly); with more, on
/// the pool of that many threads, started on first use and kept for the process, so every
/// design with that thread count runs on the same threads, none pays for starting them, and a
/// replay built many times never starts more.
#[derive(Clone)]
pub struct Workers {
    pool: Option<Arc<WorkerPool>>,
}

impl Workers {
    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    /// Runs `f(worker, workers)` once per worker, all at once, and returns the results in
    /// worker order; with one thread, `f(0, 1)` on the caller.
    pub fn each<R: Send>(&self, f: impl Fn(usize, usize) -> R + Sync) -> Vec<R> {
        match &self.pool {
            None => vec![f(0, 1)],
            Some(pool) => pool.broadcast(|ctx| f(ctx.index(), ctx.num_threads())),
        }
    }

    /// The pool, for a design that schedules on it itself (rayon's parallel iterators);
    /// `None` with one thread.
    pub fn pool(&self) -> Option<&WorkerPool> {
        self.pool.as_deref()
    }
}

/// The workers of `threads` threads (clamped to `1..=`[`MAX_THREADS`]), see [`Workers`].
///
/// # Panics
/// The operating system refused to start the threads.
pub fn workers(threads: usize) -> Workers {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<WorkerPool>>>> = OnceLock::new();
    let threads = threads.clamp(1, MAX_THREADS);
    if threads == 1 {
        return Workers { pool: None };
    }
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let pool = pools
        .entry(threads)
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(move |i| format!("dodbench-locking-{threads}-{i}"))
                    .build()
                    .expect("the operating system starts the worker threads"),
            )
        })
        .clone();
    Workers { pool: Some(pool) }
}

/// The jobs of worker `w` of `of` when `jobs` are split in contiguous chunks.
#[inline]
pub fn chunk<T>(jobs: &[T], w: usize, of: usize) -> &[T] {
    let of = of.max(1);
    let len = jobs.len();
    &jobs[w * len / of..(w + 1) * len / of]
}

/// Runs `jobs` on `workers` in contiguous chunks ([`chunk`]): each worker makes its API with
/// `api(worker)`, runs its chunk through [`run_job`], and reports what the API counted
/// ([`GameplayApi::counted`]); returns the summed tally and counts. The loop of every design
/// whose workers split a call's jobs evenly.
pub fn run_chunks<A: GameplayApi>(
    workers: &Workers,
    jobs: &[Job],
    script: &Script,
    api: impl Fn(usize) -> A + Sync,
) -> (Tally, SyncCounts) {
    sum_workers(workers.each(|me, of| {
        let mut api = api(me);
        let mut tally = Tally::default();
        for job in chunk(jobs, me, of) {
            run_job(&mut api, job, script, &mut tally);
        }
        (tally, api.counted())
    }))
}

/// Sums the per-worker `(tally, counts)` pairs a broadcast returned.
pub fn sum_workers(parts: Vec<(Tally, SyncCounts)>) -> (Tally, SyncCounts) {
    let mut out = (Tally::default(), SyncCounts::default());
    for (t, c) in &parts {
        out.0.add(t);
        out.1.add(c);
    }
    out
}
