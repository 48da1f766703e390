//! The locking family contract, checked once for every registered design.
//!
//! One generic model-based property test: a random world (units on a small integer grid, so
//! raycasts find neighbours), frames of random jobs (any order, units named twice, pushes of
//! other units, the same unit pushed by many jobs) run by each design with 1, 2 and 4 threads,
//! on this 2-core machine too. After every frame the positions must equal the model's exactly
//! and the tallies (jobs, pushes, raycast hits per unit) sum to the model's; the design's lock
//! acquisitions and messages must not depend on the thread count (they gate CI), and its
//! invariants must hold. A design without writes to other units (`rayon_par_iter`) runs the same
//! frames with those pushes removed.

use crate::support;

use impls::locking::model::ModelRunner;
use impls::locking::{
    GameplayRunner, Job, LockingDesignVisitor, NO_OTHER, Script, SyncCounts, Tally, World,
    for_each_locking_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::ModelRun;

/// A case: unit positions, the script, and frames of jobs (unit, other, delta) as indices
/// taken modulo the unit count.
#[derive(Debug, Clone)]
struct Case {
    positions: Vec<[f32; 2]>,
    script: Script,
    frames: Vec<Vec<Job>>,
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        proptest::collection::vec((0u8..24, 0u8..24), 1..40),
        (0u32..3, 1u8..6, 1u32..9),
        proptest::collection::vec(
            proptest::collection::vec(
                (any::<u16>(), 0u8..6, any::<u16>(), -2i8..=2, -2i8..=2),
                0..60,
            ),
            1..4,
        ),
    )
        .prop_map(|(raw, (compute, radius, batch), frames)| {
            let n = raw.len();
            let positions = raw
                .into_iter()
                .map(|(x, y)| [f32::from(x), f32::from(y)])
                .collect();
            let frames = frames
                .into_iter()
                .map(|jobs| {
                    jobs.into_iter()
                        .map(|(unit, kind, other, dx, dy)| Job {
                            unit: u32::from(unit) % n as u32,
                            // Half the jobs push no other unit; some push unit 0 (a hot
                            // unit), the rest a random one.
                            other: match kind {
                                0..=2 => NO_OTHER,
                                3 => 0,
                                _ => u32::from(other) % n as u32,
                            },
                            delta: [f32::from(dx), f32::from(dy)],
                        })
                        .collect()
                })
                .collect();
            Case {
                positions,
                script: Script {
                    compute,
                    radius: f32::from(radius),
                    batch,
                },
                frames,
            }
        })
}

fn positions_of<R: GameplayRunner>(r: &mut R, n: usize) -> Vec<Option<[f32; 2]>> {
    let mut out = vec![None; n];
    r.positions(&mut |u, p| out[u as usize] = Some(p));
    out
}

/// Runs `case` on design `R` with `threads` workers against the model; returns the design's
/// counts.
fn run_case<R: GameplayRunner>(case: &Case, threads: usize) -> Result<SyncCounts, TestCaseError> {
    let name = R::INFO.meta.name;
    let n = case.positions.len();
    let world = World::new(&case.positions, case.script.radius);
    let mut model = ModelRunner::new(world.clone(), 1);
    let mut design = R::new(world, threads);
    let mut totals = SyncCounts::default();
    for (f, jobs) in case.frames.iter().enumerate() {
        // A design that lets a job write only its own unit runs the same frames without the
        // pushes of other units.
        let own_only: Vec<Job>;
        let jobs = if R::INFO.foreign_writes {
            jobs
        } else {
            own_only = jobs
                .iter()
                .map(|j| Job {
                    other: NO_OTHER,
                    ..*j
                })
                .collect();
            &own_only
        };
        // A frame in two calls, as a replay split in batches runs it.
        let cut = jobs.len() / 2;
        let mut got = Tally::default();
        got.add(&design.run_jobs(&jobs[..cut], &case.script));
        got.add(&design.run_jobs(&jobs[cut..], &case.script));
        let want = model.run_jobs(jobs, &case.script);
        prop_assert_eq!(
            got,
            want,
            "{} with {} threads: tally of frame {}",
            name,
            threads,
            f
        );
        design.end_frame();
        model.end_frame();
        prop_assert_eq!(
            positions_of(&mut design, n),
            positions_of(&mut model, n),
            "{} with {} threads: positions after frame {}",
            name,
            threads,
            f
        );
        design.check_invariants().map_err(TestCaseError::fail)?;
        totals = design.counts();
    }
    Ok(totals)
}

fn check<R: GameplayRunner>(case: &Case) -> Result<(), TestCaseError> {
    let name = R::INFO.meta.name;
    let mut seen: Option<SyncCounts> = None;
    for threads in [1, 2, 4] {
        let counts = run_case::<R>(case, threads)?;
        if let Some(first) = seen {
            prop_assert_eq!(
                (counts.lock_acquisitions, counts.messages),
                (first.lock_acquisitions, first.messages),
                "{}: lock acquisitions and messages at {} threads differ from 1 thread's",
                name,
                threads
            );
        }
        seen = Some(counts);
    }
    Ok(())
}

/// The property test per design, through the shared seeded runner.
struct RunAll(ModelRun);

impl LockingDesignVisitor for RunAll {
    fn visit<R: GameplayRunner + 'static>(&mut self) {
        self.0
            .check(R::INFO.meta.name, case_strategy(), |case| check::<R>(&case));
    }
}

#[test]
fn every_design_ends_each_frame_like_the_model() {
    let mut test = RunAll(ModelRun::new(
        module_path!(),
        "every_design_ends_each_frame_like_the_model",
        48,
    ));
    for_each_locking_design(&mut test);
    test.0.finish();
}
