//! `dashmap`: the units in a `DashMap<u32, [f32; 2]>` (unit to position, dashmap's default shard
//! count), the concurrent map Rust code reaches for when several threads write one table, used as
//! its documentation shows: `map.get(&unit)` to read a position, `map.get_mut(&unit)` to push
//! one, each call taking its key's shard lock (shared for `get`, exclusive for `get_mut`) for the
//! guard's lifetime. Physics is a plain [`Physics`] read through a shared reference during a call
//! (it does not move within a frame) and synchronised with the map at the end of a frame.
//!
//! It answers the per-call critical section (H2) with a lock per shard instead of one per world:
//! a job still takes a lock per Unit call (2 when it pushes only itself, 3 when it also pushes
//! another unit; its raycast takes none), but two threads only meet when their units hash to the
//! same shard. What it cannot do: make a script's several calls atomic together, or spare the
//! hashing and lock word on every call a plain `Vec` index would not pay. The trade-off: any unit
//! may push any other (`foreign_writes: true`) at the price of a hash and a lock per call.

use std::hash::{BuildHasherDefault, DefaultHasher};

use ::dashmap::DashMap;

use crate::locking::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, Physics, Script, SyncCounts, Tally,
    Workers, World, run_chunks, workers,
};
use crate::{DesignKind, DesignMeta};

/// The map: dashmap's default hasher (std's SipHash-1-3) under fixed keys instead of
/// per-process random ones: the same algorithm and shard choice, but the same probe sequences in
/// every run, so its simulated counts repeat (as the relations family's `StdFirstMap`).
type UnitMap = DashMap<u32, [f32; 2], BuildHasherDefault<DefaultHasher>>;

/// Bytes a shard of the map holds besides its buckets, by this design's estimate: the
/// cache-padded `RwLock` around the shard's table (128 bytes on x86-64 and aarch64) and the
/// table's trailing group of control bytes (16).
const SHARD_BYTES: usize = 128 + 16;

/// The units in a `DashMap`, jobs split in contiguous chunks over the workers.
pub struct DashMapUnits {
    /// Unit to position, one entry per unit `0..len`.
    map: UnitMap,
    /// The unit count.
    len: u32,
    /// Read shared during a call, synchronised with `map` at the end of a frame.
    physics: Physics,
    /// The map's shard count, as dashmap 6 chooses it by default (for the memory estimate).
    shards: usize,
    pool: Workers,
    counts: SyncCounts,
}

/// The API through the map: a shard lock per Unit call, physics directly.
struct ShardLocked<'a> {
    map: &'a UnitMap,
    physics: &'a Physics,
    acquisitions: u64,
}

impl GameplayApi for ShardLocked<'_> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.acquisitions += 1;
        *self
            .map
            .get(&unit)
            .expect("every unit below the unit count is in the map")
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        self.acquisitions += 1;
        let mut p = self
            .map
            .get_mut(&unit)
            .expect("every unit below the unit count is in the map");
        p[0] += delta[0];
        p[1] += delta[1];
    }

    fn counted(&self) -> SyncCounts {
        SyncCounts {
            lock_acquisitions: self.acquisitions,
            ..SyncCounts::default()
        }
    }
}

impl DashMapUnits {
    /// Unit `unit`'s position, read through the map between frames.
    fn position(&self, unit: u32) -> [f32; 2] {
        *self
            .map
            .get(&unit)
            .expect("every unit below the unit count is in the map")
    }
}

impl GameplayRunner for DashMapUnits {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "dashmap",
            description: "peer: units in a DashMap<u32, [f32; 2]>, a shard lock per Unit call (get to read, get_mut to push), physics unlocked",
            kind: DesignKind::Peer {
                crate_name: "dashmap",
                version: "6.2.1",
                idiom: "DashMap<u32, [f32; 2]> (std SipHash-1-3 under fixed keys): map.get(&unit) to read, map.get_mut(&unit) to push (a shard lock per call)",
                docs: "https://docs.rs/dashmap/6.2.1/dashmap/struct.DashMap.html",
                adapter: "Per Unit call, `acquisitions += 1` for the lock count (as our `call_*` designs pay) and an `.expect` on the `Option` of `map.get` / `map.get_mut` (every unit is in the map); `raycast` reads the plain `Physics`, no map or lock. Nothing else beyond the idiom.",
            },
        },
        answers: "a sharded-lock table (a lock per shard instead of per world)",
        foreign_writes: true,
        threaded: true,
    };

    fn new(world: World, threads: usize) -> Self {
        let positions = world.units.all_positions();
        let len = positions.len() as u32;
        let map: UnitMap = (0..len).zip(positions).collect();
        Self {
            map,
            len,
            physics: world.physics,
            shards: (std::thread::available_parallelism().map_or(1, usize::from) * 4)
                .next_power_of_two(),
            pool: workers(threads),
            counts: SyncCounts::default(),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let (map, physics) = (&self.map, &self.physics);
        let (tally, counts) = run_chunks(&self.pool, jobs, script, |_| ShardLocked {
            map,
            physics,
            acquisitions: 0,
        });
        self.counts.add(&counts);
        tally
    }

    fn end_frame(&mut self) {
        for u in 0..self.len {
            let p = self.position(u);
            self.physics.sync(u, p);
        }
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        for entry in self.map.iter() {
            f(*entry.key(), *entry.value());
        }
    }

    fn counts(&self) -> SyncCounts {
        self.counts
    }

    /// The map by estimate (dashmap does not report its own): its tables' buckets, about 8/7
    /// of its capacity, an entry and a control byte each, plus `SHARD_BYTES` per shard; and
    /// physics.
    fn memory_bytes(&self) -> usize {
        let buckets = self.map.capacity() * 8 / 7;
        buckets * (size_of::<(u32, [f32; 2])>() + 1)
            + self.shards * SHARD_BYTES
            + self.physics.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.map.len() != self.len as usize {
            return Err(format!(
                "the map holds {} entries for {} units",
                self.map.len(),
                self.len
            ));
        }
        for u in 0..self.len {
            match self.map.get(&u) {
                None => return Err(format!("unit {u} is not in the map")),
                Some(p) if !(p[0].is_finite() && p[1].is_finite()) => {
                    return Err(format!("unit {u} has a position that is not finite"));
                }
                Some(_) => {}
            }
        }
        self.physics.check_invariants()
    }
}
