//! `tags-grow-long`: a few entities whose lists only grow (an inventory filling up, a list of
//! listeners), the push-heavy workload of the growth-policy claim (C9, "Allocation Adventures
//! 2"): "If we allocate 16 items at a time … push on average takes O(n)/16 … still O(n)", and
//! with doubling "every n pushes, you will encounter a push that takes O(n) time".
//!
//! Here `n` counts the tags pushed, not entities: the setup spawns `lists` entities and the
//! body appends `n` tags to them in turn, so every list ends `n / lists` tags long and the
//! lists' length grows with `n`, as the claim's `n` does. The lists grow together (one push
//! each in turn), so a growing array cannot simply extend into free space behind it: another
//! list's array follows it, and a reallocation moves it.

use crate::generate::parts::Recorder;
use crate::tags::TagOp;
use crate::tags::builder::{TagTraceBuilder, random_tag};
use crate::trace::Trace;

crate::generate::workload! {
    /// 64 entities; body pushes n tags onto them in turn, so each list grows to n/64 tags
    pub struct TagsGrowLongParams for "tags-grow-long" {
        /// Entities the tags go to, in turn: each list ends `n / lists` tags long. 64 keeps the
        /// +1 growth policy's copying (about `2 n² / lists` bytes over the body) near 2 GB at
        /// the sweep's 256K tags.
        pub lists: usize = 64, in 1..=65_536,
    }
}

/// Setup: `m = min(lists, n)` × `Spawn` (never more entities than `n`, as every tag
/// workload). Body: `n` × `AddTag`, the `k`-th onto entity `k mod m`, each a uniformly drawn
/// vocabulary tag.
pub fn generate(n: usize, seed: u64, params: &TagsGrowLongParams) -> Trace<TagOp> {
    TagTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let lists: Vec<_> = (0..params.lists.min(n.max(1))).map(|_| b.spawn()).collect();
        b.start_body();
        for k in 0..n {
            let tag = random_tag(rng);
            b.add_tag(lists[k % lists.len()], tag);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_grows_to_n_over_lists_tags() {
        let t = generate(1_000, 3, &TagsGrowLongParams { lists: 8 });
        assert_eq!(t.setup, vec![TagOp::Spawn; 8]);
        assert_eq!(t.body.len(), 1_000);
        assert!(t.body.iter().all(|op| matches!(op, TagOp::AddTag(..))));
        let stats = t.validate().unwrap();
        assert_eq!(stats.max_tags_per_entity, 125);
        assert_eq!(stats.adds, 1_000);
        assert_eq!(t, generate(1_000, 3, &TagsGrowLongParams { lists: 8 }));
    }
}
