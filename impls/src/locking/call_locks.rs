//! Per-call critical sections (H2): the whole world behind one lock, taken by every API call a
//! script makes, so no call can see another half done. "We could put a critical section in
//! each API call. But ... with so many critical sections, we will probably loose whatever
//! performance we hoped to gain from multithreading."
//!
//! One algorithm ([`CallLocked`]) over the lock ([`CallLock`]): `call_mutex`
//! (`std::sync::Mutex`: every call exclusive), `call_rwlock` (`std::sync::RwLock`: position
//! reads and raycasts shared, pushes exclusive) and, in [`super::peers::parking_lot`],
//! `call_mutex_pl`. A job takes the lock 3 times (4 when it pushes another unit): the lock
//! count per job is the trace's API calls per job, whatever the threads. Between calls the
//! script's own work runs unlocked, so what threads can overlap is that work; the calls
//! themselves are serialised (the read-write lock lets reads overlap, at the price of a
//! heavier lock).

use std::sync::{Mutex, RwLock};

use super::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, Script, SyncCounts, Tally, Workers, World,
    run_chunks, workers,
};
use crate::{DesignKind, DesignMeta};

/// A lock over the whole world, as the per-call designs take it.
pub trait CallLock: Send + Sync + Sized + 'static {
    /// The design's info (its name says which lock).
    const INFO: LockingDesignInfo;

    /// The lock over `world`.
    fn new(world: World) -> Self;

    /// Runs `f` on the world under the lock, for a call that only reads.
    fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R;

    /// Runs `f` on the world under the lock, for a call that writes.
    fn write<R>(&self, f: impl FnOnce(&mut World) -> R) -> R;

    /// The world, with no other thread running (between frames).
    fn get_mut(&mut self) -> &mut World;

    /// The world, read under the lock outside any frame.
    fn peek<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        self.read(f)
    }
}

impl CallLock for Mutex<World> {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "call_mutex",
            description: "H2: one std::sync::Mutex over the world, locked by every API call (3-4 per job)",
            kind: DesignKind::Article,
        },
        answers: "H2 (a critical section in each API call)",
        foreign_writes: true,
        threaded: true,
    };

    fn new(world: World) -> Self {
        Mutex::new(world)
    }

    #[inline]
    fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.lock().unwrap_or_else(|e| e.into_inner()))
    }

    #[inline]
    fn write<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        f(&mut self.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn get_mut(&mut self) -> &mut World {
        Mutex::get_mut(self).unwrap_or_else(|e| e.into_inner())
    }
}

impl CallLock for RwLock<World> {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "call_rwlock",
            description: "H2, read/write: one std::sync::RwLock over the world, reads and raycasts shared, pushes exclusive, per call",
            kind: DesignKind::Tuned,
        },
        answers: "H2 with a read/write lock",
        foreign_writes: true,
        threaded: true,
    };

    fn new(world: World) -> Self {
        RwLock::new(world)
    }

    #[inline]
    fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.read().unwrap_or_else(|e| e.into_inner()))
    }

    #[inline]
    fn write<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        f(&mut self.write().unwrap_or_else(|e| e.into_inner()))
    }

    fn get_mut(&mut self) -> &mut World {
        RwLock::get_mut(self).unwrap_or_else(|e| e.into_inner())
    }
}

/// `call_mutex`.
pub type CallMutex = CallLocked<Mutex<World>>;
/// `call_rwlock`.
pub type CallRwLock = CallLocked<RwLock<World>>;

/// The world behind lock `L`, jobs split in contiguous chunks over the workers.
pub struct CallLocked<L: CallLock> {
    world: L,
    pool: Workers,
    counts: SyncCounts,
}

/// The API through the lock: every call one acquisition.
struct PerCall<'a, L> {
    world: &'a L,
    acquisitions: u64,
}

impl<L: CallLock> GameplayApi for PerCall<'_, L> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.acquisitions += 1;
        self.world.read(|w| w.units.position(unit))
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.acquisitions += 1;
        self.world.read(|w| w.physics.raycast(unit))
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        self.acquisitions += 1;
        self.world.write(|w| w.units.push(unit, delta));
    }

    fn counted(&self) -> SyncCounts {
        SyncCounts {
            lock_acquisitions: self.acquisitions,
            ..SyncCounts::default()
        }
    }
}

impl<L: CallLock> GameplayRunner for CallLocked<L> {
    const INFO: LockingDesignInfo = L::INFO;

    fn new(world: World, threads: usize) -> Self {
        Self {
            world: L::new(world),
            pool: workers(threads),
            counts: SyncCounts::default(),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let world = &self.world;
        let (tally, counts) = run_chunks(&self.pool, jobs, script, |_| PerCall {
            world,
            acquisitions: 0,
        });
        self.counts.add(&counts);
        tally
    }

    fn end_frame(&mut self) {
        self.world.get_mut().sync_physics();
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        self.world.get_mut().units.visit_positions(0, f);
    }

    fn counts(&self) -> SyncCounts {
        self.counts
    }

    fn memory_bytes(&self) -> usize {
        self.world.peek(World::memory_bytes)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.world.peek(World::check_invariants)
    }
}
