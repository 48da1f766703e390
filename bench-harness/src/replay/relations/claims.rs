//! The articles' claims this family's results answer (see `results::claim`).

use results::{Claim, Metric, Operand, Quantity, Rule};

const SOURCE: &str = "003 Data Structures Part 2: Indices";

/// Median time per work unit of `design` on `workload`.
fn time(design: &str, workload: &str) -> Operand {
    Operand::new(Metric::Time, design, workload)
}

/// Every claim, in catalogue order.
pub(super) fn claims() -> Vec<Claim> {
    let o1_quote = "Usually, this pays off, because it only adds a small constant O(1) cost to modifications and it greatly accelerates the searches O(n) → O(1).";
    let star_quote = "Suppose that we have n enemies in the game that are all observing the player (so o->observed is identical for all of them). In this case, removing a single enemy is O(n), so removing all of them is O(n²).";
    let star_note = "The bench sizes alone cannot fit this: 1K, and 100K by default, where the quadratic designs are capped at 16,384 per key (unsupported). idx-star is a scaling workload of the sweep pass (1K, 4K, 16K, ... up to the cap): a run whose sweep has no idx-star points (those made before it joined the sweep) leaves the exponent unmeasured.";
    let basic_quote = "With this approach, all the basic operations are O(1) – adding, removing and finding the first element of a set. Finding all the elements of a set is O(m), where m is the size of the set, but that is ok.";
    let clustered_quote = "For example, we could incrementally sort the array – a little bit every frame. However, note that this would mean that items would move around in memory and we would no longer have permanent indices or permanent object pointers. Generally, I don’t think it’s worth doing, having stable indices and pointers is more important than improving the cache behavior of queries.";
    let two_index_quote = "Nothing with this approach restricts us to using just a single index. We can simply add as many indices as we need, for all the queries we want to accelerate.";
    vec![
        Claim {
            id: "I2".into(),
            source: SOURCE.into(),
            quote: "The cost here is O(n) in the number of observations. This might be alright for very small datasets, but we want to find something better.".into(),
            reading: "scan (brute force over the bulk array) on idx-notify (80% VisitByA): the exponent k of time per op ≈ c·N^k over the bench sizes and the sweep's. O(n): k within [0.7, 1.3].".into(),
            quantity: Quantity::exponent(time("scan", "idx-notify")),
            rule: Rule::Between(0.7, 1.3),
            note: Some("scan is capped at 16,384 live records, so it has N = 1000 and the sweep's 1024 (and 4096 in a default sweep): the quick run has two sizes, short of the three a fit needs.".into()),
        },
        Claim {
            id: "I3".into(),
            source: SOURCE.into(),
            quote: o1_quote.into(),
            reading: "intrusive (hash of key → first record) ÷ scan, time per FirstByA on idx-first. O(n) → O(1) at N = 1000 records is a factor of the order of hundreds; \"greatly\" read as at least 10× faster (at most 0.1).".into(),
            quantity: Quantity::ratio(time("intrusive", "idx-first"), time("scan", "idx-first")),
            rule: Rule::AtMost(0.1),
            note: Some("scan is capped at 16,384 live records: at 100K only intrusive runs.".into()),
        },
        Claim {
            id: "I6a".into(),
            source: SOURCE.into(),
            quote: star_quote.into(),
            reading: "multimap_scan_remove (the unordered_multimap analogue: removal searches the key's values) on idx-star (n observers of one player, all removed in random order): exponent k of the whole body's time (all n removals) ≈ c·N^k over the bench and sweep sizes. O(n²): k within [1.7, 2.3].".into(),
            quantity: Quantity::total_exponent(time("multimap_scan_remove", "idx-star")),
            rule: Rule::Between(1.7, 2.3),
            note: Some(star_note.into()),
        },
        Claim {
            id: "I6b".into(),
            source: SOURCE.into(),
            quote: star_quote.into(),
            reading: "I6a on the multimap crate (MultiMap<u32, u32>, removal by position + Vec::remove), the closest published analogue of std::unordered_multimap: exponent of the whole body's time on idx-star within [1.7, 2.3].".into(),
            quantity: Quantity::total_exponent(time("multimap", "idx-star")),
            rule: Rule::Between(1.7, 2.3),
            note: Some(star_note.into()),
        },
        Claim {
            id: "I6c".into(),
            source: SOURCE.into(),
            quote: "std::unordered_multimap is fast at looking up and inserting objects, but deleting objects can be expensive.".into(),
            reading: "Per size, where no exponent can be fitted: multimap_scan_remove ÷ intrusive (the article's O(1) unlink), time per removal on idx-star. \"Expensive\" against the intrusive list: at least 1. One size cannot show the growth (I6a does).".into(),
            quantity: Quantity::ratio(
                time("multimap_scan_remove", "idx-star"),
                time("intrusive", "idx-star"),
            ),
            rule: Rule::AtLeast(1.0),
            note: Some("At N = 1000 (the only size where the quadratic designs run) a removal searches about n/4 = 250 values on average; the O(n²) itself needs I6a's exponent.".into()),
        },
        Claim {
            id: "I8a".into(),
            source: SOURCE.into(),
            quote: basic_quote.into(),
            reading: "intrusive (hash → first, prev/next links in the record, cyclic) on idx-notify (80% VisitByA over sets of 1-7, 10% Add, 10% Remove: every op O(1) or O(m) with m ≤ 7): exponent k of time per op ≈ c·N^k over the bench and sweep sizes. O(1) against the scan's O(n): read as k at most 0.5, since time also grows with the working set's cache misses, which O-notation does not count.".into(),
            quantity: Quantity::exponent(time("intrusive", "idx-notify")),
            rule: Rule::AtMost(0.5),
            note: None,
        },
        Claim {
            id: "I8b".into(),
            source: SOURCE.into(),
            quote: basic_quote.into(),
            reading: "The removal against I6: intrusive on idx-star, exponent of the whole body's time (n removals of O(1) each: O(n)), at most 1.5 (k = 1, with room for cache effects as the set outgrows the caches).".into(),
            quantity: Quantity::total_exponent(time("intrusive", "idx-star")),
            rule: Rule::AtMost(1.5),
            note: Some(star_note.into()),
        },
        Claim {
            id: "I9a".into(),
            source: SOURCE.into(),
            quote: clustered_quote.into(),
            reading: "The cache behaviour the article grants the clustered index: clustered (rows sorted by key a few swaps per access, ID → position table) ÷ intrusive, simulated D1 misses per op on idx-notify (scattered sets). Better cache behaviour: at most 1.".into(),
            quantity: Quantity::ratio(
                Operand::new(Metric::D1Misses, "clustered", "idx-notify"),
                Operand::new(Metric::D1Misses, "intrusive", "idx-notify"),
            ),
            rule: Rule::AtMost(1.0),
            note: Some("idx-notify also adds and removes 10% each, which move the clustered rows; the sets are small (1-7).".into()),
        },
        Claim {
            id: "I9b".into(),
            source: SOURCE.into(),
            quote: clustered_quote.into(),
            reading: "\"Not worth doing\" where queries dominate: clustered ÷ intrusive, time per visit on idx-tags (tag → entities, common and rare tags, about 1M records visited). Not worth it read as a gain under 10%: at least 0.9.".into(),
            quantity: Quantity::ratio(time("clustered", "idx-tags"), time("intrusive", "idx-tags")),
            rule: Rule::AtLeast(0.9),
            note: Some("The article weighs the gain against losing permanent indices; the suite measures only the gain (the clustered design pays an ID → position table for its stable IDs).".into()),
        },
        Claim {
            id: "I9c".into(),
            source: SOURCE.into(),
            quote: clustered_quote.into(),
            reading: "I9b on the observer mix: clustered ÷ intrusive, time per op on idx-notify (scattered sets, 10% Add and 10% Remove), at least 0.9.".into(),
            quantity: Quantity::ratio(
                time("clustered", "idx-notify"),
                time("intrusive", "idx-notify"),
            ),
            rule: Rule::AtLeast(0.9),
            note: None,
        },
        Claim {
            id: "I10a".into(),
            source: SOURCE.into(),
            quote: two_index_quote.into(),
            reading: "The second query, \"Entity B has been deleted\" (observed == B OR observer == B), accelerated by a second index: intrusive_2idx (indices on a and b) ÷ scan, time per RemoveEntity on idx-entity-delete. Accelerated: at most 1.".into(),
            quantity: Quantity::ratio(
                time("intrusive_2idx", "idx-entity-delete"),
                time("scan", "idx-entity-delete"),
            ),
            rule: Rule::AtMost(1.0),
            note: Some("scan is capped at 16,384 live records: at 100K only the indexed designs run.".into()),
        },
        Claim {
            id: "I10b".into(),
            source: SOURCE.into(),
            quote: "Here pointers is a separately allocated array with num_observations entries. Each observation in the observations array has a corresponding entry in the pointers arrays. With this data layout, you can add as many indices as you need, without disturbing the original data structure.".into(),
            reading: "intrusive_2idx ÷ intrusive, heap bytes per record after the setup on idx-notify. Each index adds its own prev/next array (two u32 per record) and its own key → first table, never a copy of the records: a second index at most doubles the bytes per record.".into(),
            quantity: Quantity::ratio(
                Operand::new(Metric::family("bytes_per_record"), "intrusive_2idx", "idx-notify"),
                Operand::new(Metric::family("bytes_per_record"), "intrusive", "idx-notify"),
            ),
            rule: Rule::AtMost(2.0),
            note: Some("The suite records bytes per record as a total (records, links, hash tables, free list), not each index's share, so the article's \"two extra uint32_t\" per record per index cannot be checked as a difference.".into()),
        },
    ]
}
