//! What the locking generators (`lock-*`) share: the world (a [`LockingOp::Script`] op, then
//! `n` units uniform over a square sized so a raycast finds `hits` units on average) and the
//! frames of jobs (every unit's script once per frame, in unit order, each pushing itself by a
//! delta in `-2..=2` per axis and, as the workload chooses, another unit by the same delta).

use crate::generate::parts::TraceParts;
use crate::locking::{LockingOp, NO_OTHER};
use crate::rng::TraceRng;

/// The shape every locking workload shares (its parameters).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape {
    /// Frames of the body.
    pub frames: u32,
    /// Script work per call (iterations).
    pub compute: u32,
    /// Raycast radius.
    pub radius: u32,
    /// Jobs per batch of the API-level lock designs.
    pub batch: u32,
    /// Mean units a raycast finds (itself included): sets the density.
    pub hits: f64,
}

/// Appends the `Script` op and `n` units to the setup.
pub(crate) fn world(
    rng: &mut TraceRng,
    n: usize,
    shape: &Shape,
    parts: &mut TraceParts<LockingOp>,
) {
    parts.push(LockingOp::Script {
        compute: shape.compute,
        radius: shape.radius,
        batch: shape.batch,
    });
    // A raycast of radius r covers pi r^2: n units over side^2 put `hits` in it.
    let area = std::f64::consts::PI * f64::from(shape.radius).powi(2) * n as f64 / shape.hits;
    let side = area.sqrt().ceil().max(1.0) as u64;
    for _ in 0..n {
        parts.push(LockingOp::Unit {
            x: rng.below(side) as i32,
            y: rng.below(side) as i32,
        });
    }
}

/// Appends `shape.frames` frames of one job per unit, in unit order, to the body; `other`
/// picks each job's other unit ([`NO_OTHER`] for none).
pub(crate) fn frames(
    rng: &mut TraceRng,
    n: usize,
    shape: &Shape,
    parts: &mut TraceParts<LockingOp>,
    mut other: impl FnMut(&mut TraceRng, u32) -> u32,
) {
    parts.start_body();
    for _ in 0..shape.frames {
        for unit in 0..n as u32 {
            let dx = rng.below(5) as i32 - 2;
            let dy = rng.below(5) as i32 - 2;
            let other = other(rng, unit);
            debug_assert!(other == NO_OTHER || (other as usize) < n);
            parts.push(LockingOp::Job {
                unit,
                other,
                dx,
                dy,
            });
        }
        parts.push(LockingOp::Frame);
    }
}
