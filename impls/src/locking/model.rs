//! The obviously-correct reference: positions in a `Vec`, physics a copy of them taken at each
//! frame's end, raycasts by brute force over every body with the spatial family's own distance
//! test ([`within`]), every job in order on the caller's thread. Its answers are the expected
//! ones every design must reproduce.

use super::{GameplayApi, GameplayRunner, Job, LockingDesignInfo, Script, Tally, World, run_job};
use crate::spatial::within;
use crate::{DesignKind, DesignMeta};

/// The reference model.
#[derive(Debug, Clone)]
pub struct ModelRunner {
    positions: Vec<[f32; 2]>,
    bodies: Vec<[f32; 2]>,
    radius: f32,
}

impl GameplayApi for ModelRunner {
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.positions[unit as usize]
    }

    fn raycast(&mut self, unit: u32) -> u32 {
        let at = self.bodies[unit as usize];
        self.bodies
            .iter()
            .filter(|b| within(b, &at, self.radius))
            .count() as u32
    }

    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        let p = &mut self.positions[unit as usize];
        p[0] += delta[0];
        p[1] += delta[1];
    }
}

impl GameplayRunner for ModelRunner {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference: positions in a Vec, brute-force raycasts over a copy taken at each frame's end, one thread",
            kind: DesignKind::Article,
        },
        answers: "the expected answers",
        foreign_writes: true,
        threaded: false,
    };

    fn new(world: World, _threads: usize) -> Self {
        let positions = world.units.all_positions();
        Self {
            bodies: positions.clone(),
            positions,
            radius: world.physics.radius(),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let mut tally = Tally::default();
        for job in jobs {
            run_job(self, job, script, &mut tally);
        }
        tally
    }

    fn end_frame(&mut self) {
        self.bodies.clone_from(&self.positions);
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        for (u, &p) in self.positions.iter().enumerate() {
            f(u as u32, p);
        }
    }

    fn memory_bytes(&self) -> usize {
        (self.positions.capacity() + self.bodies.capacity()) * size_of::<[f32; 2]>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.positions.len() == self.bodies.len() {
            Ok(())
        } else {
            Err("positions and bodies differ in length".into())
        }
    }
}
