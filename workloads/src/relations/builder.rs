//! What the one-to-many index generators (`idx-*`) share: `RelationTraceBuilder`, which
//! tracks live records (and per-key counts) so a generator can say "remove a random live
//! record" or "delete entity e"; the [`SetSizes`] distribution; and `build_sets`, the setup
//! most `idx-*` workloads start from.
//!
//! # The built relations
//! `build_sets(n, sizes)` draws set sizes (by [`SetSizes::draw`]) for keys `0, 1, 2, ...`
//! until they sum to `n` (the last set cut short), so keys are `0..k`. Every record of key `a`
//! gets an observer `b` drawn uniformly from the same entities `0..k` (so an entity is
//! observed by about `n/k` records and observes about as many), and its payload is its handle
//! times an odd constant. The `n` records are then added in a shuffled order, so a set's
//! records are spread over the whole bulk array, as the article's "items in a set can be
//! spread out in memory".

use serde::{Deserialize, Serialize};

use crate::relations::{LiveRecords, RecordHandle, RelationOp};
use crate::rng::TraceRng;

use crate::generate::parts::{LiveHandles, TraceParts};

/// Sizes of the sets (records per observed key) when built: a workload parameter, written in
/// JSON as `"uniform-1-7"` or `"heavy-tail"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetSizes {
    /// One `below(7)` draw per key: uniform in 1..=7 (mean 4).
    #[serde(rename = "uniform-1-7")]
    Uniform1To7,
    /// Per key one `below(100)` draw; on 0 (1% of keys) `100 + below(901)` records (uniform in
    /// 100..=1000), otherwise `1 + below(7)` (uniform in 1..=7). Mean about 9.5; the 1% of
    /// heavy keys hold about 58% of the records.
    #[serde(rename = "heavy-tail")]
    HeavyTail,
}

impl SetSizes {
    /// Every variant: the allowed values of a `set_sizes` parameter.
    pub const ALL: [SetSizes; 2] = [SetSizes::Uniform1To7, SetSizes::HeavyTail];

    /// One key's set size, drawn as the variant's doc says.
    pub fn draw(self, rng: &mut TraceRng) -> usize {
        match self {
            SetSizes::Uniform1To7 => 1 + rng.below(7) as usize,
            SetSizes::HeavyTail => {
                if rng.below(100) == 0 {
                    100 + rng.below(901) as usize
                } else {
                    1 + rng.below(7) as usize
                }
            }
        }
    }
}

/// Where a set's records sit in the bulk array after `build_sets`: a workload parameter,
/// written in JSON as `"scattered"` or `"clustered"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// Records added in a shuffled order: a set's records anywhere in the array.
    #[serde(rename = "scattered")]
    Scattered,
    /// Records added key by key: each set's records at consecutive IDs (what a clustered index
    /// would give).
    #[serde(rename = "clustered")]
    Clustered,
}

impl Layout {
    /// Every variant: the allowed values of a `layout` parameter.
    pub const ALL: [Layout; 2] = [Layout::Scattered, Layout::Clustered];
}

/// Builds a relation trace op by op while tracking the live records.
///
/// Invariant: `records` and `handles` hold exactly the records added and not removed by the
/// ops in `parts`.
#[derive(Debug, Default)]
pub(crate) struct RelationTraceBuilder {
    parts: TraceParts<RelationOp>,
    records: LiveRecords,
    handles: LiveHandles,
}

crate::generate::parts::recorder!(RelationTraceBuilder: RelationOp, live: handles);

/// The payload of handle `h`: `h` times an odd constant (distinct per handle).
pub(crate) fn payload_of(h: RecordHandle) -> u32 {
    h.wrapping_mul(0x9E37_79B9)
}

impl RelationTraceBuilder {
    /// Live records with `a == key`.
    pub(crate) fn count_a(&self, key: u32) -> u64 {
        self.records.count_a(key)
    }

    /// Appends an `Add` of `{a, b, payload_of(handle)}` and returns the handle.
    pub(crate) fn add(&mut self, a: u32, b: u32) -> RecordHandle {
        let h = self.records.add(a, b);
        let same = self.handles.insert_next();
        debug_assert_eq!(h, same);
        self.parts.push(RelationOp::Add {
            a,
            b,
            payload: payload_of(h),
        });
        h
    }

    /// Appends a `Remove` of a uniformly chosen live record.
    ///
    /// # Panics
    /// If nothing is live.
    pub(crate) fn remove_random(&mut self, rng: &mut TraceRng) {
        let h = self.handles.random(rng);
        self.remove(h);
    }

    /// Appends a `Remove` of live record `h`.
    ///
    /// # Panics
    /// If `h` is not live.
    pub(crate) fn remove(&mut self, h: RecordHandle) {
        self.records.remove(h);
        self.handles.remove(h);
        self.parts.push(RelationOp::Remove(h));
    }

    /// Appends a `RemoveEntity(e)`; returns how many records it removes.
    pub(crate) fn remove_entity(&mut self, e: u32) -> u64 {
        let handles = &mut self.handles;
        let removed = self.records.remove_entity(e, |h| handles.remove(h));
        self.parts.push(RelationOp::RemoveEntity(e));
        removed
    }

    /// Appends a read-only op (`VisitByA`, `VisitByB`, `FirstByA`, `CountByA`).
    pub(crate) fn query(&mut self, op: RelationOp) {
        debug_assert!(matches!(
            op,
            RelationOp::VisitByA(_)
                | RelationOp::VisitByB(_)
                | RelationOp::FirstByA(_)
                | RelationOp::CountByA(_)
        ));
        self.parts.push(op);
    }
}

/// The setup of `idx-first`, `idx-churn` and `idx-entity-delete`: [`build_sets`] of `n` records
/// with sets of 1 to 7, scattered; returns `k`.
pub(crate) fn uniform_sets(b: &mut RelationTraceBuilder, n: usize, rng: &mut TraceRng) -> u32 {
    build_sets(b, n, SetSizes::Uniform1To7, Layout::Scattered, rng)
}

/// Adds `n` records over keys `0..k` with set sizes drawn by `sizes`, in a shuffled order, as
/// the [module doc](self) says; returns `k` (at least 1). With `Layout::Clustered` the records
/// are added key by key instead (no shuffle draw), so each set occupies consecutive record IDs:
/// the layout a clustered index would reach, without its cost.
pub(crate) fn build_sets(
    b: &mut RelationTraceBuilder,
    n: usize,
    sizes: SetSizes,
    layout: Layout,
    rng: &mut TraceRng,
) -> u32 {
    let mut keys: Vec<u32> = Vec::with_capacity(n);
    let mut key = 0u32;
    while keys.len() < n {
        let size = sizes.draw(rng).min(n - keys.len());
        keys.extend(std::iter::repeat_n(key, size));
        key += 1;
    }
    let k = key.max(1);
    if layout == Layout::Scattered {
        rng.shuffle(&mut keys);
    }
    for a in keys {
        let observer = rng.below(u64::from(k)) as u32;
        b.add(a, observer);
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::parts::{Recorder, TracksLive};

    #[test]
    fn sets_have_the_drawn_sizes_and_entities_die_on_both_sides() {
        let mut removed = 0;
        let t = RelationTraceBuilder::default().record("test", 4000, 9, &(), |b, rng| {
            let k = build_sets(b, 4000, SetSizes::Uniform1To7, Layout::Scattered, rng);
            assert!((800..1200).contains(&k), "{k}");
            assert_eq!(b.live_count(), 4000);
            let total: u64 = (0..k).map(|key| b.count_a(key)).sum();
            assert_eq!(total, 4000);
            assert!((0..k - 1).all(|key| (1..=7).contains(&b.count_a(key))));
            b.start_body();
            removed = b.remove_entity(3);
            assert!(removed >= b.count_a(3) && removed > 0);
            assert_eq!(b.count_a(3), 0);
            b.remove_random(rng);
            assert_eq!(b.live_count() as u64, 4000 - removed - 1);
        });
        let stats = t.validate().unwrap();
        assert_eq!(stats.entity_removed, removed);
    }

    #[test]
    fn heavy_tail_puts_most_records_in_one_percent_of_keys() {
        let mut rng = TraceRng::new(1);
        let sizes: Vec<usize> = (0..100_000)
            .map(|_| SetSizes::HeavyTail.draw(&mut rng))
            .collect();
        let heavy: usize = sizes.iter().filter(|&&s| s >= 100).sum();
        let total: usize = sizes.iter().sum();
        let share = heavy as f64 / total as f64;
        assert!((0.5..0.65).contains(&share), "{share}");
    }
}
