//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::claim_spec::{d1, time};
use results::{ClaimMetric, ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

use crate::replay::metric_fields::family_ratio;

const SOURCE: &str = "003 Data Structures Part 2: Indices";

/// The quote of I3.
const O1_QUOTE: &str = "Usually, this pays off, because it only adds a small constant O(1) cost to modifications and it greatly accelerates the searches O(n) → O(1).";

/// The quote of I6a and I6b.
const STAR_QUOTE: &str = "Suppose that we have n enemies in the game that are all observing the player (so o->observed is identical for all of them). In this case, removing a single enemy is O(n), so removing all of them is O(n²).";

/// The note of I6a, I6b and I8b.
const STAR_NOTE: &str = "The bench sizes alone cannot fit this: 1K, and 100K by default, where the quadratic designs are capped at 16,384 per key (unsupported). idx-star is a scaling workload of the sweep pass (1K, 4K, 16K, ... up to the cap): a run whose sweep has no idx-star points (those made before it joined the sweep) leaves the exponent unmeasured.";

/// The quote of I8a and I8b.
const BASIC_QUOTE: &str = "With this approach, all the basic operations are O(1) – adding, removing and finding the first element of a set. Finding all the elements of a set is O(m), where m is the size of the set, but that is ok.";

/// The quote of I9a, I9b and I9c.
const CLUSTERED_QUOTE: &str = "For example, we could incrementally sort the array – a little bit every frame. However, note that this would mean that items would move around in memory and we would no longer have permanent indices or permanent object pointers. Generally, I don’t think it’s worth doing, having stable indices and pointers is more important than improving the cache behavior of queries.";

/// The quote of I5a and I5b.
const TINY_QUOTE: &str = "Another issue with this approach is that we again get lots and lots of tiny arrays. As I said before, I prefer having data stored in a few large bulk data arrays rather than spread out all over the place in thousands of tiny arrays. It is nicer to the allocator, friendlier to the cache, reduces fragmentation and lets you get big chunks of memory straight from the VM.";

/// The quote of I10a.
const TWO_INDEX_QUOTE: &str = "Nothing with this approach restricts us to using just a single index. We can simply add as many indices as we need, for all the queries we want to accelerate.";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "I2",
        source: SOURCE,
        quote: "The cost here is O(n) in the number of observations. This might be alright for very small datasets, but we want to find something better.",
        reading: "scan (brute force over the bulk array) on idx-notify (80% VisitByA): the exponent k of time per op ≈ c·N^k over the bench sizes and the sweep's. O(n): k within [0.7, 1.3].",
        quantity: QuantitySpec::exponent(time("scan", "idx-notify")),
        rule: Rule::Between(0.7, 1.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "scan is capped at 16,384 live records, so it has N = 1000 and the sweep's 1024 (and 4096 in a default sweep): the quick run has two sizes, short of the three a fit needs.",
        ),
    },
    ClaimSpec {
        id: "I3",
        source: SOURCE,
        quote: O1_QUOTE,
        reading: "intrusive (hash of key → first record) ÷ scan, time per FirstByA on idx-first. O(n) → O(1) at N = 1000 records is a factor of the order of hundreds; \"greatly\" read as at least 10× faster (at most 0.1).",
        quantity: QuantitySpec::ratio(time("intrusive", "idx-first"), time("scan", "idx-first")),
        rule: Rule::AtMost(0.1),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some("scan is capped at 16,384 live records: at 100K only intrusive runs."),
    },
    ClaimSpec {
        id: "I5a",
        source: SOURCE,
        quote: TINY_QUOTE,
        reading: "vec_of_vecs (the article's array of arrays: a hash from key to a slot in a Vec<Vec<u32>>, one heap array of IDs per key) ÷ intrusive (the bulk array with prev/next links in the records, no array per key), simulated D1 misses per op on idx-notify (n relations over n/4 keys, sets of 1 to 7: a tiny array per key). \"Friendlier to the cache\" read as the bulk arrays missing less: the tiny arrays at least as many misses (≥ 1).",
        quantity: QuantitySpec::ratio(
            d1("vec_of_vecs", "idx-notify"),
            d1("intrusive", "idx-notify"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I5b",
        source: SOURCE,
        quote: TINY_QUOTE,
        reading: "\"Nicer to the allocator\": intrusive ÷ vec_of_vecs, allocator calls per op seen by the counting allocator on idx-churn (n relations over n/4 keys; each step removes a random relation and adds one to a random key, so the keys' tiny arrays shrink and grow): the bulk arrays read as making no more calls than the tiny arrays (≤ 1). intrusive is the numerator so that a bulk store that makes no call in the body reads 0, not a division by zero.",
        quantity: QuantitySpec::ratio(
            OperandSpec::new(ClaimMetric::AllocCallsPerOp, "intrusive", "idx-churn"),
            OperandSpec::new(ClaimMetric::AllocCallsPerOp, "vec_of_vecs", "idx-churn"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "Fragmentation and memory from the VM, the quote's other two gains, are not measured.",
        ),
    },
    ClaimSpec {
        id: "I6a",
        source: SOURCE,
        quote: STAR_QUOTE,
        reading: "multimap_scan_remove (the unordered_multimap analogue: removal searches the key's values) on idx-star (n observers of one player, all removed in random order): exponent k of the whole body's time (all n removals) ≈ c·N^k over the bench and sweep sizes. O(n²): k within [1.7, 2.3].",
        quantity: QuantitySpec::total_exponent(time("multimap_scan_remove", "idx-star")),
        rule: Rule::Between(1.7, 2.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(STAR_NOTE),
    },
    ClaimSpec {
        id: "I6b",
        source: SOURCE,
        quote: STAR_QUOTE,
        reading: "I6a on the multimap crate (MultiMap<u32, u32>, removal by position + Vec::remove), the closest published analogue of std::unordered_multimap: exponent of the whole body's time on idx-star within [1.7, 2.3].",
        quantity: QuantitySpec::total_exponent(time("multimap", "idx-star")),
        rule: Rule::Between(1.7, 2.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(STAR_NOTE),
    },
    ClaimSpec {
        id: "I6c",
        source: SOURCE,
        quote: "std::unordered_multimap is fast at looking up and inserting objects, but deleting objects can be expensive.",
        reading: "Per size, where no exponent can be fitted: multimap_scan_remove ÷ intrusive (the article's O(1) unlink), time per removal on idx-star. \"Expensive\" against the intrusive list: at least 1. One size cannot show the growth (I6a does).",
        quantity: QuantitySpec::ratio(
            time("multimap_scan_remove", "idx-star"),
            time("intrusive", "idx-star"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "At N = 1000 (the only size where the quadratic designs run) a removal searches about n/4 = 250 values on average; the O(n²) itself needs I6a's exponent.",
        ),
    },
    ClaimSpec {
        id: "I7",
        source: SOURCE,
        quote: "Note that std::multimap is not what we want – it’s search-based, not hash-based, so lookups are O(log n). In fact, you should probably almost always be using one of the std::unordered_* data structures instead of a regular map, set, multimap or multiset.",
        reading: "btree_pairs (the std::multimap analogue: a BTreeSet<(key, id)>, a lookup a search down the tree) ÷ multimap_scan_remove (the std::unordered_multimap analogue: a HashMap<u32, Vec<u32>>, a lookup one hash), time per FirstByA on idx-first (uniform keys over n/4 sets of 1 to 7). O(log n) against O(1), and the advice to use the hash-based container: the search-based lookup read as slower at every size (≥ 1).",
        quantity: QuantitySpec::ratio(
            time("btree_pairs", "idx-first"),
            time("multimap_scan_remove", "idx-first"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "idx-first runs at two sizes by default (1K, 100K), short of the three an exponent fit needs, so the O(log n) growth itself is not fitted; the claim is judged per size.",
        ),
    },
    ClaimSpec {
        id: "I8a",
        source: SOURCE,
        quote: BASIC_QUOTE,
        reading: "intrusive (hash → first, prev/next links in the record, cyclic) on idx-notify (80% VisitByA over sets of 1-7, 10% Add, 10% Remove: every op O(1) or O(m) with m ≤ 7): exponent k of time per op ≈ c·N^k over the bench and sweep sizes. O(1) against the scan's O(n): read as k at most 0.5, since time also grows with the working set's cache misses, which O-notation does not count.",
        quantity: QuantitySpec::exponent(time("intrusive", "idx-notify")),
        rule: Rule::AtMost(0.5),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I8b",
        source: SOURCE,
        quote: BASIC_QUOTE,
        reading: "The removal against I6: intrusive on idx-star, exponent of the whole body's time (n removals of O(1) each: O(n)), at most 1.5 (k = 1, with room for cache effects as the set outgrows the caches).",
        quantity: QuantitySpec::total_exponent(time("intrusive", "idx-star")),
        rule: Rule::AtMost(1.5),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(STAR_NOTE),
    },
    ClaimSpec {
        id: "I9a",
        source: SOURCE,
        quote: CLUSTERED_QUOTE,
        reading: "The cache behaviour the article grants the clustered index: clustered (rows sorted by key a few swaps per access, ID → position table) ÷ intrusive, simulated D1 misses per op on idx-notify (scattered sets). Better cache behaviour: at most 1.",
        quantity: QuantitySpec::ratio(d1("clustered", "idx-notify"), d1("intrusive", "idx-notify")),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "idx-notify also adds and removes 10% each, which move the clustered rows; the sets are small (1-7).",
        ),
    },
    ClaimSpec {
        id: "I9b",
        source: SOURCE,
        quote: CLUSTERED_QUOTE,
        reading: "\"Not worth doing\" where queries dominate: clustered ÷ intrusive, time per visit on idx-tags (tag → entities, common and rare tags, about 1M records visited). Not worth it read as a gain under 10%: at least 0.9.",
        quantity: QuantitySpec::ratio(time("clustered", "idx-tags"), time("intrusive", "idx-tags")),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article weighs the gain against losing permanent indices; the suite measures only the gain (the clustered design pays an ID → position table for its stable IDs).",
        ),
    },
    ClaimSpec {
        id: "I9c",
        source: SOURCE,
        quote: CLUSTERED_QUOTE,
        reading: "I9b on the observer mix: clustered ÷ intrusive, time per op on idx-notify (scattered sets, 10% Add and 10% Remove), at least 0.9.",
        quantity: QuantitySpec::ratio(
            time("clustered", "idx-notify"),
            time("intrusive", "idx-notify"),
        ),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I10a",
        source: SOURCE,
        quote: TWO_INDEX_QUOTE,
        reading: "The second query, \"Entity B has been deleted\" (observed == B OR observer == B), accelerated by a second index: intrusive_2idx (indices on a and b) ÷ scan, time per RemoveEntity on idx-entity-delete. Accelerated: at most 1.",
        quantity: QuantitySpec::ratio(
            time("intrusive_2idx", "idx-entity-delete"),
            time("scan", "idx-entity-delete"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some("scan is capped at 16,384 live records: at 100K only the indexed designs run."),
    },
    ClaimSpec {
        id: "I10b",
        source: SOURCE,
        quote: "Here pointers is a separately allocated array with num_observations entries. Each observation in the observations array has a corresponding entry in the pointers arrays. With this data layout, you can add as many indices as you need, without disturbing the original data structure.",
        reading: "intrusive_2idx ÷ intrusive, heap bytes per record after the setup on idx-notify. Each index adds its own prev/next array (two u32 per record) and its own key → first table, never a copy of the records: a second index at most doubles the bytes per record.",
        quantity: family_ratio(
            "bytes_per_record",
            "intrusive_2idx",
            "intrusive",
            "idx-notify",
        ),
        rule: Rule::AtMost(2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The suite records bytes per record as a total (records, links, hash tables, free list), not each index's share, so the article's \"two extra uint32_t\" per record per index cannot be checked as a difference.",
        ),
    },
];

/// The catalogue's statements of the article that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "I1",
        source: SOURCE,
        quote: "An entity might appear several times in the observations array if it is watching multiple entities, or being watched by multiple entities. Note that this way of organizing the data is a lot more similar to a relational database than to a traditional object-oriented model.",
        reason: "A statement about what the layout resembles, with no quantity: every design of the family keeps the article's bulk array of relation records, so there is no object-oriented model (observers kept inside the observed objects) to compare it with, and no measure of likeness to a database.",
    },
    UntestedSpec {
        id: "I4",
        source: SOURCE,
        quote: "You could still store indices in your hash table in this case, but you would have to make sure that whenever you move items to pack the bulk data array, you update their indices in the hash table to reflect the move. This would save you the ID → index indirection step when searching, but I’m not sure it’s worth the extra complexity. Working with indices that can be invalidated at any point if an object is deleted can be very error-prone.",
        reason: "The comparison is of two packed designs that differ only in what the index stores: IDs resolved through an ID → index table, or positions patched on every move. The suite has neither alone: the packed design, clustered, does both at once (position links patched on every move, IDs in its first map resolved through an ID → position table), and every other design keeps permanent record indices in a bulk array with a free list. Even with the pair, the article's doubt is about complexity and error-proneness, which no run measures; only the saved indirection step could be timed.",
    },
];
