//! `rayon_par_iter`: the units as a rayon user keeps them, a `Vec<[f32; 2]>` of positions, and
//! each call's jobs run with `ThreadPool::install` over `positions[first..].par_iter_mut()`
//! zipped with `jobs.par_iter()`, as rayon's documentation shows: every job gets its own unit as
//! a `&mut [f32; 2]` and physics as a shared `&Physics`, so no lock, no atomic and no message is
//! needed; the borrow checker proves the writes disjoint. It answers what the others are
//! measured against: the lock-free ceiling, disjoint units where no job writes another.
//!
//! What it cannot do: run a job that pushes another unit ("adjusting the position of another
//! unit"): that write is not the job's to make, so the design says `foreign_writes: false`, the
//! replayer declares it unsupported on traces with such jobs, and [`RayonParIter::run_jobs`]
//! panics if it is handed one. The trade-off: the fastest design where it applies, and no answer
//! at all to the post's question once a script reaches outside its own unit.
//!
//! The zip needs the call's jobs to name consecutive units (job `i`'s unit is the first job's
//! plus `i`): every generated trace, and a frame split anywhere, has that shape. A call that does
//! not (the property test's random frames name a unit twice) takes the fallback: the jobs sorted
//! by unit, grouped, and the groups run in parallel, each group's jobs in order against its one
//! unit. The benchmark never takes it. With one thread (the passes' replays) the jobs run in a
//! plain loop on the caller, as rayon's iterators do on one thread, without a pool.

use ::rayon::prelude::*;

use crate::locking::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, NO_OTHER, Physics, Script, Tally, Workers,
    World, run_job, workers,
};
use crate::{DesignKind, DesignMeta};

/// The units' positions in a `Vec`, physics beside them, jobs run by rayon's parallel
/// iterators on the shared pool.
pub struct RayonParIter {
    /// `positions[u]`: unit `u`'s position.
    positions: Vec<[f32; 2]>,
    /// Read shared during a call, synchronised with `positions` at the end of a frame.
    physics: Physics,
    pool: Workers,
}

/// The API a job sees: its own unit, writable, and physics, read-only. Any other unit is out of
/// its reach.
struct OwnUnit<'a> {
    unit: u32,
    at: &'a mut [f32; 2],
    physics: &'a Physics,
}

impl OwnUnit<'_> {
    /// Panics unless `unit` is this job's own.
    #[inline]
    fn own(&self, unit: u32) {
        assert_eq!(
            unit, self.unit,
            "rayon_par_iter: the job of unit {} reached unit {unit}; each job writes only its own",
            self.unit
        );
    }
}

impl GameplayApi for OwnUnit<'_> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.own(unit);
        *self.at
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        self.own(unit);
        self.at[0] += delta[0];
        self.at[1] += delta[1];
    }
}

/// Sums two tallies (rayon's `reduce`).
fn combine(mut a: Tally, b: Tally) -> Tally {
    a.add(&b);
    a
}

/// The first unit of `jobs` when they name consecutive units, `None` otherwise.
fn consecutive(jobs: &[Job]) -> Option<usize> {
    let first = jobs.first()?.unit as usize;
    jobs.iter()
        .enumerate()
        .all(|(i, j)| j.unit as usize == first + i)
        .then_some(first)
}

/// The fallback for jobs that do not name consecutive units: sorted by unit (stably), grouped,
/// each group paired with its unit's `&mut` (split off `positions` in unit order), the groups
/// run in parallel and each group's jobs in order.
fn run_grouped(
    positions: &mut [[f32; 2]],
    physics: &Physics,
    jobs: &[Job],
    script: &Script,
) -> Tally {
    let mut order: Vec<&Job> = jobs.iter().collect();
    order.sort_by_key(|j| j.unit);
    let mut groups: Vec<(&mut [f32; 2], &[&Job])> = Vec::new();
    let mut rest = positions;
    let mut base = 0usize;
    for group in order.chunk_by(|a, b| a.unit == b.unit) {
        let unit = group[0].unit as usize;
        let (at, tail) = std::mem::take(&mut rest)[unit - base..]
            .split_first_mut()
            .expect("a job's unit is below the unit count (validated traces)");
        groups.push((at, group));
        rest = tail;
        base = unit + 1;
    }
    groups
        .into_par_iter()
        .fold(Tally::default, |mut tally, (at, group)| {
            let mut api = OwnUnit {
                unit: group[0].unit,
                at,
                physics,
            };
            for job in group {
                run_job(&mut api, job, script, &mut tally);
            }
            tally
        })
        .reduce(Tally::default, combine)
}

impl GameplayRunner for RayonParIter {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "rayon_par_iter",
            description: "peer: positions in a Vec, each job on its own unit through rayon's par_iter_mut, no lock (no job may push another unit)",
            kind: DesignKind::Peer {
                crate_name: "rayon",
                version: "1.12.0",
                idiom: "ThreadPool::install + positions.par_iter_mut().zip(jobs) (each job writes only its own unit)",
                docs: "https://docs.rs/rayon/1.12.0/rayon/iter/trait.IntoParallelRefMutIterator.html",
                adapter: "Per call, a scan of the jobs for a push of another unit (refused: `foreign_writes: false`) and a `consecutive(jobs)` check before the zip; per job, `OwnUnit::own` asserts on `position` and `push` that the unit is the job's own. No lock, atomic or count: its `SyncCounts` stay zero.",
            },
        },
        answers: "the lock-free ceiling: disjoint units, no job writes another",
        foreign_writes: false,
        threaded: true,
    };

    fn new(world: World, threads: usize) -> Self {
        Self {
            positions: world.units.all_positions(),
            physics: world.physics,
            pool: workers(threads),
        }
    }

    /// Runs the jobs as the module docs say.
    ///
    /// # Panics
    /// A job pushes another unit (`other` is not [`NO_OTHER`]): the caller ran a trace this
    /// design does not support (`foreign_writes: false`). Nothing has run when it panics.
    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        if let Some(job) = jobs.iter().find(|j| j.other != NO_OTHER) {
            panic!(
                "rayon_par_iter cannot run a job that pushes another unit (unit {} pushes {}): \
                 it supports only traces without foreign writes (foreign_writes: false)",
                job.unit, job.other
            );
        }
        let physics = &self.physics;
        let positions = &mut self.positions;
        let Some(pool) = self.pool.pool() else {
            // One thread: the plain loop rayon's iterators reduce to, on the caller.
            let mut tally = Tally::default();
            for job in jobs {
                let mut api = OwnUnit {
                    unit: job.unit,
                    at: &mut positions[job.unit as usize],
                    physics,
                };
                run_job(&mut api, job, script, &mut tally);
            }
            return tally;
        };
        pool.install(|| match consecutive(jobs) {
            Some(first) => positions[first..first + jobs.len()]
                .par_iter_mut()
                .zip(jobs.par_iter())
                .fold(Tally::default, |mut tally, (at, job)| {
                    let mut api = OwnUnit {
                        unit: job.unit,
                        at,
                        physics,
                    };
                    run_job(&mut api, job, script, &mut tally);
                    tally
                })
                .reduce(Tally::default, combine),
            None => run_grouped(positions, physics, jobs, script),
        })
    }

    fn end_frame(&mut self) {
        for (u, &p) in self.positions.iter().enumerate() {
            self.physics.sync(u as u32, p);
        }
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        for (u, &p) in self.positions.iter().enumerate() {
            f(u as u32, p);
        }
    }

    fn memory_bytes(&self) -> usize {
        self.positions.capacity() * size_of::<[f32; 2]>() + self.physics.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if let Some(u) = self
            .positions
            .iter()
            .position(|p| !(p[0].is_finite() && p[1].is_finite()))
        {
            return Err(format!("unit {u} has a position that is not finite"));
        }
        self.physics.check_invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locking::SyncCounts;
    use crate::locking::model::ModelRunner;

    /// The family property test skips every frame with a job that pushes another unit, and
    /// nearly every random frame has one; these frames have none, in both shapes.
    fn frames(n: u32) -> Vec<Vec<Job>> {
        let job = |unit: u32, k: u32| Job {
            unit,
            other: NO_OTHER,
            delta: [(k % 5) as f32 - 2.0, (k % 3) as f32 - 1.0],
        };
        vec![
            // Consecutive units (the zip), a whole frame.
            (0..n).map(|u| job(u, u)).collect(),
            // Consecutive from the middle.
            (n / 3..n).map(|u| job(u, u + 7)).collect(),
            // Units out of order and repeated (the grouped fallback).
            (0..3 * n).map(|k| job((k * 7 + 3) % n, k)).collect(),
        ]
    }

    fn positions_of<R: GameplayRunner>(r: &mut R, n: u32) -> Vec<[f32; 2]> {
        let mut out = vec![[f32::NAN; 2]; n as usize];
        r.positions(&mut |u, p| out[u as usize] = p);
        out
    }

    #[test]
    fn matches_the_model_on_frames_without_foreign_writes() {
        let n = 29u32;
        let start: Vec<[f32; 2]> = (0..n).map(|u| [(u % 6) as f32, (u / 6) as f32]).collect();
        let script = Script {
            compute: 2,
            radius: 1.5,
            batch: 4,
        };
        for threads in [1, 2, 4] {
            let world = World::new(&start, script.radius);
            let mut model = ModelRunner::new(world.clone(), 1);
            let mut design = RayonParIter::new(world, threads);
            for (f, jobs) in frames(n).iter().enumerate() {
                for cut in [0, 1, jobs.len() / 2, jobs.len()] {
                    let mut got = design.run_jobs(&jobs[..cut], &script);
                    got.add(&design.run_jobs(&jobs[cut..], &script));
                    let want = model.run_jobs(jobs, &script);
                    assert_eq!(got, want, "{threads} threads, frame {f}, cut {cut}");
                    design.end_frame();
                    model.end_frame();
                    assert_eq!(
                        positions_of(&mut design, n),
                        positions_of(&mut model, n),
                        "{threads} threads, frame {f}, cut {cut}"
                    );
                    design.check_invariants().unwrap();
                }
            }
            assert_eq!(design.counts(), SyncCounts::default());
        }
    }

    #[test]
    #[should_panic(expected = "cannot run a job that pushes another unit")]
    fn refuses_a_job_that_pushes_another_unit() {
        let world = World::new(&[[0.0, 0.0], [1.0, 0.0]], 1.0);
        let mut design = RayonParIter::new(world, 2);
        let script = Script {
            compute: 0,
            radius: 1.0,
            batch: 1,
        };
        let jobs = [Job {
            unit: 0,
            other: 1,
            delta: [1.0, 0.0],
        }];
        design.run_jobs(&jobs, &script);
    }
}
