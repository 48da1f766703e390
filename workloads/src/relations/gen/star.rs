//! `idx-star`: the article's quadratic case, "n enemies in the game that are all observing
//! the player": `n` records with the same `a`, then every one removed. A removal that searches
//! its key's set costs O(n), the whole body O(n²); the intrusive lists stay O(1) per removal.
//! Designs with such a search are capped (`unsupported` above their stated set size).

use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::relations::builder::RelationTraceBuilder;
use crate::trace::Trace;

/// The observed entity (the player).
pub const PLAYER: u32 = 0;

crate::generate::workload! {
    /// n observers of one entity (the player), then all n relations removed in random order
    pub struct IdxStarParams for "idx-star" {
        // `seed` orders the removals.
        /// Fraction of the `n` relations the body removes, in percent.
        pub remove_percent: u32 = 100, in 1..=100,
    }
}

/// Setup: `n` × `Add {a: PLAYER, b: i + 1}` for `i` in `0..n`. Body: the handles shuffled,
/// the first `ceil(n × remove_percent / 100)` removed in that order.
pub fn generate(n: usize, seed: u64, params: &IdxStarParams) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let mut handles: Vec<u32> = (0..n as u32).map(|i| b.add(PLAYER, i + 1)).collect();
        b.start_body();
        rng.shuffle(&mut handles);
        let count = (n * params.remove_percent as usize).div_ceil(100);
        for &h in &handles[..count] {
            b.remove(h);
        }
    })
}
