//! API-level locks held over a batch (H3): "instead of synchronizing at each function call,
//! what if we did it at the level of the API: `Unit = LuaThreads.lock_api("Unit", player,
//! LockType.WRITE)` ... `LuaThreads.unlock_api(Unit)`". A worker locks the APIs a task needs,
//! runs the task's script work with the locks held, and unlocks.
//!
//! Layout: the units are cut into [`STRIPES`] stripes of contiguous unit indices (stripe `s`
//! holds units `s * per .. (s + 1) * per`, `per = ceil(len / STRIPES)`; with fewer units than
//! stripes the last ones are empty), each its own components-family store ([`Units`], a unit at
//! `unit - s * per` in it) behind a `std::sync::RwLock`; physics is one `std::sync::RwLock`.
//! The jobs of a [`run_jobs`](GameplayRunner::run_jobs) call are cut into batches of
//! `script.batch` (`k`) consecutive jobs, whatever the thread count, and the batches split over
//! the workers in contiguous chunks. A batch is one task: it locks Physics for reading, then,
//! for writing, every stripe its jobs push (each job's own unit and its `other`), runs its jobs
//! and unlocks. The locks are always taken in one global order, Physics first and then the
//! stripes ascending, so the post's deadlock ("requiring the same APIs in different orders in
//! different threads") cannot happen.
//!
//! Two flavours of one algorithm ([`ApiLocked`] over [`Acquire`]): `api_batch` ([`Blocking`])
//! waits for each lock; `api_try` ([`TryFirst`]) is the post's coroutine switch ("the
//! lock_api() function does not have to lock the thread if an API is locked by someone else,
//! we can just switch to a different coroutine"): it tries the locks, and if one is taken
//! releases what it holds and runs its next batch first, retrying the deferred one later (and
//! blocking for it after [`GIVE_UP`] failures, or when a whole pass of retries failed, so every
//! batch runs).
//!
//! Counted: `1 + stripes locked` lock acquisitions per batch run, fixed by the trace and `k`
//! (a failed attempt of `api_try` is not an acquisition; it counts one failed try-lock, which
//! depends on the schedule). Trade-off: a batch pays its locks once for `k` jobs instead of per
//! call, but holds its stripes through all its script work, so batches that write one stripe
//! (a hot unit every job pushes, or neighbouring units) run one after another, and a larger `k`
//! writes more stripes per batch, so batches collide more.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

use super::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, MAX_BATCH, NO_OTHER, Physics, Script,
    SyncCounts, Tally, Units, Workers, World, run_job, sum_workers, workers,
};
use crate::{DesignKind, DesignMeta};

/// Stripes of units, each behind its own lock (one bit each in a batch's stripe set).
pub const STRIPES: usize = 64;

/// Failed attempts after which `api_try` blocks for a deferred batch's locks.
pub const GIVE_UP: u32 = 8;

/// How a worker takes the locks of its batches: the flavour of [`ApiLocked`].
pub trait Acquire: Send + Sync + Sized + 'static {
    /// The design's info (its name says which flavour).
    const INFO: LockingDesignInfo;

    /// Runs batches `mine` of `work` against `locks`, on one worker; returns what its jobs
    /// observed and what it synchronised.
    fn run_batches(locks: &Striped, work: &Batches<'_>, mine: Range<usize>) -> (Tally, SyncCounts);
}

/// A [`run_jobs`](GameplayRunner::run_jobs) call's jobs cut into batches: batch `b` is
/// `jobs[b * k..(b + 1) * k]` (the last one shorter).
#[derive(Debug, Clone, Copy)]
pub struct Batches<'j> {
    /// The call's jobs.
    pub jobs: &'j [Job],
    /// Jobs per batch, at least 1.
    pub k: usize,
    /// The script every job runs.
    pub script: &'j Script,
}

impl<'j> Batches<'j> {
    /// Number of batches.
    pub fn len(&self) -> usize {
        self.jobs.len().div_ceil(self.k)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Batch `b`'s jobs.
    #[inline]
    pub fn batch(&self, b: usize) -> &'j [Job] {
        &self.jobs[b * self.k..((b + 1) * self.k).min(self.jobs.len())]
    }
}

/// `api_batch`'s flavour: wait for every lock of a batch.
#[derive(Debug, Clone, Copy)]
pub struct Blocking;

/// `api_try`'s flavour: try a batch's locks, and on a taken one defer the batch and run the
/// next (the post's coroutine switch).
#[derive(Debug, Clone, Copy)]
pub struct TryFirst;

/// `api_batch`.
pub type ApiBatch = ApiLocked<Blocking>;
/// `api_try`.
pub type ApiTry = ApiLocked<TryFirst>;

/// The world as the API-level lock designs hold it: physics and [`STRIPES`] stripes of units,
/// each behind a `std::sync::RwLock`.
#[derive(Debug)]
pub struct Striped {
    physics: RwLock<Physics>,
    stripes: Vec<RwLock<Units>>,
    /// Units per stripe (at least 1).
    per: u32,
    /// Number of units.
    len: u32,
}

/// A worker's write guards over the stripes a batch holds, in ascending stripe order.
type Guards<'a> = Vec<RwLockWriteGuard<'a, Units>>;

impl Striped {
    fn new(world: World) -> Self {
        let positions = world.units.all_positions();
        let len = positions.len();
        let per = len.div_ceil(STRIPES).max(1);
        let stripes = (0..STRIPES)
            .map(|s| {
                let lo = (s * per).min(len);
                let hi = ((s + 1) * per).min(len);
                RwLock::new(Units::new(&positions[lo..hi]))
            })
            .collect();
        Self {
            physics: RwLock::new(world.physics),
            stripes,
            per: per as u32,
            len: len as u32,
        }
    }

    /// Units of stripe `s`.
    fn span(&self, s: usize) -> Range<u32> {
        let lo = (s as u32).saturating_mul(self.per).min(self.len);
        let hi = (s as u32 + 1).saturating_mul(self.per).min(self.len);
        lo..hi
    }

    /// The stripes `batch` writes, as a set of bits (bit `s`: stripe `s`).
    #[inline]
    fn stripes_of(&self, batch: &[Job]) -> u64 {
        let mut mask = 0u64;
        for job in batch {
            mask |= 1 << (job.unit / self.per);
            if job.other != NO_OTHER {
                mask |= 1 << (job.other / self.per);
            }
        }
        mask
    }

    /// Takes Physics for reading, then the stripes of `mask` for writing, ascending (the one
    /// global order), their guards pushed onto the empty `guards`. Blocking, it always
    /// succeeds; otherwise on the first lock taken it releases what it holds and returns `None`.
    fn acquire<'a>(
        &'a self,
        mask: u64,
        guards: &mut Guards<'a>,
        blocking: bool,
    ) -> Option<RwLockReadGuard<'a, Physics>> {
        debug_assert!(guards.is_empty());
        let physics = if blocking {
            self.physics.read().unwrap_or_else(|e| e.into_inner())
        } else {
            match self.physics.try_read() {
                Ok(g) => g,
                Err(TryLockError::Poisoned(e)) => e.into_inner(),
                Err(TryLockError::WouldBlock) => return None,
            }
        };
        let mut rest = mask;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let lock = &self.stripes[s];
            let guard = if blocking {
                lock.write().unwrap_or_else(|e| e.into_inner())
            } else {
                match lock.try_write() {
                    Ok(g) => g,
                    Err(TryLockError::Poisoned(e)) => e.into_inner(),
                    Err(TryLockError::WouldBlock) => {
                        guards.clear();
                        return None;
                    }
                }
            };
            guards.push(guard);
        }
        Some(physics)
    }

    /// Runs batch `b` if its locks can be taken (always, `blocking`), then releases them;
    /// counts the acquisitions of a run. Returns whether it ran.
    fn run_batch<'a>(
        &'a self,
        work: &Batches<'_>,
        b: usize,
        guards: &mut Guards<'a>,
        blocking: bool,
        tally: &mut Tally,
        counts: &mut SyncCounts,
    ) -> bool {
        let batch = work.batch(b);
        let mask = self.stripes_of(batch);
        let Some(physics) = self.acquire(mask, guards, blocking) else {
            return false;
        };
        let mut api = Held {
            physics: &physics,
            mask,
            guards,
            per: self.per,
        };
        for job in batch {
            run_job(&mut api, job, work.script, tally);
        }
        guards.clear();
        drop(physics);
        counts.lock_acquisitions += 1 + u64::from(mask.count_ones());
        true
    }
}

/// The API over the locks a batch holds: a unit is found in its stripe's guard.
struct Held<'g, 'a> {
    physics: &'g Physics,
    /// The stripes held (bit `s`: stripe `s`); `guards` in ascending stripe order.
    mask: u64,
    guards: &'g mut Guards<'a>,
    per: u32,
}

impl Held<'_, '_> {
    /// The index in `guards` of `unit`'s stripe, and `unit`'s index in that stripe.
    ///
    /// # Panics
    /// The batch does not hold `unit`'s stripe (a job calling a unit it did not lock).
    #[inline]
    fn slot(&self, unit: u32) -> (usize, u32) {
        let s = unit / self.per;
        assert!(
            s < 64 && self.mask >> s & 1 == 1,
            "unit {unit}'s stripe is not locked by its batch"
        );
        let below = self.mask & ((1u64 << s) - 1);
        (below.count_ones() as usize, unit - s * self.per)
    }
}

impl GameplayApi for Held<'_, '_> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        let (g, i) = self.slot(unit);
        self.guards[g].position(i)
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        let (g, i) = self.slot(unit);
        self.guards[g].push(i, delta);
    }
}

impl Acquire for Blocking {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "api_batch",
            description: "H3: per batch of k jobs, Physics read-locked then the unit stripes it writes write-locked in ascending order (std::sync::RwLock), held over the batch",
            kind: DesignKind::Article,
        },
        answers: "H3 (API-level locks over a batch)",
        foreign_writes: true,
        threaded: true,
    };

    fn run_batches(locks: &Striped, work: &Batches<'_>, mine: Range<usize>) -> (Tally, SyncCounts) {
        let mut tally = Tally::default();
        let mut counts = SyncCounts::default();
        let mut guards = Vec::with_capacity(STRIPES);
        for b in mine {
            locks.run_batch(work, b, &mut guards, true, &mut tally, &mut counts);
        }
        (tally, counts)
    }
}

impl Acquire for TryFirst {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "api_try",
            description: "H3 with the coroutine switch: api_batch's locks tried, a batch whose lock is taken deferred behind the worker's next ones (blocking after 8 failures)",
            kind: DesignKind::Tuned,
        },
        answers: "H3 with the coroutine switch (try the locks, run another batch first)",
        foreign_writes: true,
        threaded: true,
    };

    fn run_batches(locks: &Striped, work: &Batches<'_>, mine: Range<usize>) -> (Tally, SyncCounts) {
        let mut tally = Tally::default();
        let mut counts = SyncCounts::default();
        let mut guards = Vec::with_capacity(STRIPES);
        // (batch, failed attempts), in the order they were deferred.
        let mut deferred: VecDeque<(usize, u32)> = VecDeque::new();
        let mut run = |b: usize, blocking: bool| {
            locks.run_batch(work, b, &mut guards, blocking, &mut tally, &mut counts)
        };
        let mut failed = 0u64;
        for b in mine {
            if !run(b, false) {
                failed += 1;
                deferred.push_back((b, 1));
            }
        }
        while !deferred.is_empty() {
            let mut ran = false;
            for _ in 0..deferred.len() {
                let (b, failures) = deferred.pop_front().expect("a pass pops what it counted");
                // A batch that failed too often waits for its locks (in the global order).
                if run(b, failures >= GIVE_UP) {
                    ran = true;
                } else {
                    failed += 1;
                    deferred.push_back((b, failures + 1));
                }
            }
            if !ran {
                // Every deferred batch failed this pass: wait for the oldest one's locks.
                let (b, _) = deferred.pop_front().expect("the pass left every batch");
                run(b, true);
            }
        }
        counts.failed_try_locks += failed;
        (tally, counts)
    }
}

/// The world in stripes behind API-level locks, batches of jobs split in contiguous chunks over
/// the workers, each taking its batches' locks the [`Acquire`] flavour's way.
pub struct ApiLocked<F: Acquire> {
    locks: Striped,
    pool: Workers,
    counts: SyncCounts,
    flavour: PhantomData<F>,
}

impl<F: Acquire> GameplayRunner for ApiLocked<F> {
    const INFO: LockingDesignInfo = F::INFO;

    fn new(world: World, threads: usize) -> Self {
        Self {
            locks: Striped::new(world),
            pool: workers(threads),
            counts: SyncCounts::default(),
            flavour: PhantomData,
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let work = Batches {
            jobs,
            k: script.batch.clamp(1, MAX_BATCH) as usize,
            script,
        };
        let batches = work.len();
        let locks = &self.locks;
        let parts = self.pool.each(|me, of| {
            // The batch indices `chunk` gives this worker: contiguous, in worker order.
            let w = me;
            let mine = w * batches / of..(w + 1) * batches / of;
            F::run_batches(locks, &work, mine)
        });
        let (tally, counts) = sum_workers(parts);
        self.counts.add(&counts);
        tally
    }

    fn end_frame(&mut self) {
        let Striped {
            physics, stripes, ..
        } = &mut self.locks;
        let physics = physics.get_mut().unwrap_or_else(|e| e.into_inner());
        let mut start = 0u32;
        for stripe in stripes.iter_mut() {
            let units = stripe.get_mut().unwrap_or_else(|e| e.into_inner());
            for i in 0..units.len() as u32 {
                physics.sync(start + i, units.position(i));
            }
            start += units.len() as u32;
        }
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        let mut start = 0u32;
        for stripe in &mut self.locks.stripes {
            let units = stripe.get_mut().unwrap_or_else(|e| e.into_inner());
            units.visit_positions(start, f);
            start += units.len() as u32;
        }
    }

    fn counts(&self) -> SyncCounts {
        self.counts
    }

    fn memory_bytes(&self) -> usize {
        let locks = &self.locks;
        let stripes: usize = locks
            .stripes
            .iter()
            .map(|s| s.read().unwrap_or_else(|e| e.into_inner()).memory_bytes())
            .sum();
        let physics = locks
            .physics
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .memory_bytes();
        stripes + physics + locks.stripes.capacity() * size_of::<RwLock<Units>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let locks = &self.locks;
        if locks.stripes.len() != STRIPES {
            return Err(format!(
                "{} stripes instead of {STRIPES}",
                locks.stripes.len()
            ));
        }
        let mut next = 0u32;
        for (s, stripe) in locks.stripes.iter().enumerate() {
            let units = stripe.read().unwrap_or_else(|e| e.into_inner());
            units.check_invariants()?;
            let span = locks.span(s);
            if span.start != next || units.len() != span.len() {
                return Err(format!(
                    "stripe {s} holds {} units from {next}, not units {span:?}",
                    units.len()
                ));
            }
            next = span.end;
        }
        if next != locks.len {
            return Err(format!("stripes cover 0..{next}, not 0..{}", locks.len));
        }
        locks
            .physics
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .check_invariants()
    }
}
