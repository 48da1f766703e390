//! `command_buffers` (tuned, not in the post): per-thread command buffers applied after the
//! join, as Bevy's `Commands` defer structural changes. The world is one [`World`], as in
//! `single_thread`; during a call the workers only read it, through a shared reference, and
//! each runs its contiguous [`chunk`] of the jobs: position reads and raycasts straight on the
//! world, every push (own and other) appended to the worker's own buffer of `(unit, delta)`.
//! When the broadcast has returned, the caller's thread applies the buffers in worker order
//! ([`Units::push`](super::Units::push)). The buffers are kept across calls, one `Mutex` per
//! worker its owner locks once per call (the hand-over, not counted), so their capacity is
//! reused.
//!
//! Writes are deferred: a read sees the state as it was before any push of this call, never
//! another job's push of it. That is allowed, since a read only feeds the script's own work
//! (pushes add deltas, so the positions at the end are the model's whatever the order).
//! Counted: `messages` (commands recorded, one per push), no lock. The trade-off: no lock and
//! no message queue between workers, and the work split evenly, but every push is written
//! twice (recorded, then applied) and the applying runs on one thread after the join, a serial
//! tail that grows with the pushes.

use std::sync::{Mutex, MutexGuard};

use super::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, Script, SyncCounts, Tally, Workers, World,
    run_chunks, workers,
};
use crate::{DesignKind, DesignMeta};

/// A recorded push: the unit and its delta.
pub type Command = (u32, [f32; 2]);

/// The world read shared by the workers, their pushes recorded and applied after the join.
pub struct CommandBuffers {
    world: World,
    /// `buffers[w]`: worker `w`'s commands, empty between calls.
    buffers: Vec<Mutex<Vec<Command>>>,
    pool: Workers,
    counts: SyncCounts,
}

/// The API on one worker: reads and raycasts on the shared world, pushes recorded.
struct Deferred<'a> {
    world: &'a World,
    /// The worker's buffer, held for the call (the hand-over, not counted).
    buffer: MutexGuard<'a, Vec<Command>>,
}

impl GameplayApi for Deferred<'_> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.world.units.position(unit)
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.world.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        self.buffer.push((unit, delta));
    }

    fn counted(&self) -> SyncCounts {
        SyncCounts {
            messages: self.buffer.len() as u64,
            ..SyncCounts::default()
        }
    }
}

impl GameplayRunner for CommandBuffers {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "command_buffers",
            description: "not in the post: workers read the world shared and record every push in their own buffer, applied in worker order after the join (Bevy Commands)",
            kind: DesignKind::Tuned,
        },
        answers: "not in the post: per-thread command buffers applied after the join (Bevy Commands)",
        foreign_writes: true,
        threaded: true,
    };

    fn new(world: World, threads: usize) -> Self {
        let pool = workers(threads);
        let buffers = (0..pool.threads())
            .map(|_| Mutex::new(Vec::new()))
            .collect();
        Self {
            world,
            buffers,
            pool,
            counts: SyncCounts::default(),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let (world, buffers) = (&self.world, &self.buffers);
        let (tally, counts) = run_chunks(&self.pool, jobs, script, |me| {
            let mut buffer = buffers[me].lock().unwrap_or_else(|e| e.into_inner());
            // Empty unless a worker panicked in the last call: its commands are not applied.
            buffer.clear();
            Deferred { world, buffer }
        });
        for buffer in &mut self.buffers {
            let buffer = buffer.get_mut().unwrap_or_else(|e| e.into_inner());
            for &(unit, delta) in buffer.iter() {
                self.world.units.push(unit, delta);
            }
            buffer.clear();
        }
        self.counts.add(&counts);
        tally
    }

    fn end_frame(&mut self) {
        self.world.sync_physics();
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        self.world.units.visit_positions(0, f);
    }

    fn counts(&self) -> SyncCounts {
        self.counts
    }

    fn memory_bytes(&self) -> usize {
        let buffers: usize = self
            .buffers
            .iter()
            .map(|b| b.lock().unwrap_or_else(|e| e.into_inner()).capacity())
            .sum();
        self.world.memory_bytes()
            + buffers * size_of::<Command>()
            + self.buffers.capacity() * size_of::<Mutex<Vec<Command>>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.world.check_invariants()?;
        for (w, buffer) in self.buffers.iter().enumerate() {
            let left = buffer.lock().unwrap_or_else(|e| e.into_inner()).len();
            if left != 0 {
                return Err(format!(
                    "worker {w}'s buffer holds {left} unapplied commands"
                ));
            }
        }
        Ok(())
    }
}
