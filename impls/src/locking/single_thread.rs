//! `single_thread`: every job on the caller's thread against the world itself, no lock, no
//! worker: the reference every speed-up is measured against (what a game does before it
//! multithreads its gameplay).

use super::{GameplayRunner, Job, LockingDesignInfo, Script, Tally, World, run_job};
use crate::{DesignKind, DesignMeta};

/// One thread, no synchronisation.
#[derive(Debug, Clone)]
pub struct SingleThread {
    world: World,
}

impl GameplayRunner for SingleThread {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "single_thread",
            description: "reference: every job on the caller's thread, no lock (the speed-up baseline)",
            kind: DesignKind::Article,
        },
        answers: "the baseline (no multithreading)",
        foreign_writes: true,
        threaded: false,
    };

    fn new(world: World, _threads: usize) -> Self {
        Self { world }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let mut tally = Tally::default();
        let mut api = self.world.api();
        for job in jobs {
            run_job(&mut api, job, script, &mut tally);
        }
        tally
    }

    fn end_frame(&mut self) {
        self.world.sync_physics();
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        self.world.units.visit_positions(0, f);
    }

    fn memory_bytes(&self) -> usize {
        self.world.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.world.check_invariants()
    }
}
