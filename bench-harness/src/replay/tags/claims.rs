//! The articles' claims this family's results answer (see `results::claim`): seed 002's
//! "Allocation Adventures 2: Arrays of Arrays" (the TagComponent's storage).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::claim_spec::{d1, family, time};
use results::{ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

/// The smallest store C4b and C5b are about ("if the buffer is large"): 10,000 entities of
/// 3 tags hold about 240 KB of 8-byte nodes, seven times a 32 KB first-level cache.
const LARGE_STORE: u64 = 10_000;

const AA2: &str = "002 Allocation Adventures 2: Arrays of Arrays";

const fn bytes_per_tag(design: &'static str, workload: &'static str) -> OperandSpec {
    family("bytes_per_tag", design, workload)
}

/// The quote of C3a and C3b.
const LINKED_QUOTE: &str = "A linked list can give us a cache miss for every next pointer we \
                            follow. This would give us even worse performance than we would \
                            get with vector < vector < unsigned > >.";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "C2",
        source: AA2,
        quote: "Also, since the fixed size must be set to the maximum array size, every \
                entity that uses fewer entries than the maximum will waste some space.",
        reading: "fixed ({ n, tags: [u32; 8] } per entity) on tags-visit-all (3 tags per \
                  entity), heap bytes per tag held: the 36-byte record carries 3 tags, so \
                  the article's own layout gives 12 bytes per 4-byte tag; the waste read \
                  as at least that.",
        quantity: QuantitySpec::value(bytes_per_tag("fixed", "tags-visit-all")),
        rule: Rule::AtLeast(12.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "C3a",
        source: AA2,
        quote: LINKED_QUOTE,
        reading: "boxed_nodes (a Box<{ tag, next }> per tag) ÷ vec_of_vecs (one heap \
                  array per entity), simulated D1 misses per tag visited on \
                  tags-visit-all: a miss per pointer followed against one per entity's \
                  array, read as more misses (≥ 1).",
        quantity: QuantitySpec::ratio(
            d1("boxed_nodes", "tags-visit-all"),
            d1("vec_of_vecs", "tags-visit-all"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "C3b",
        source: AA2,
        quote: LINKED_QUOTE,
        reading: "boxed_nodes ÷ vec_of_vecs, time per tag visited on \
                  tags-visit-all-fragmented (the stores built amid foreign heap \
                  allocations, half of them freed: a used heap, as the nodes of a running \
                  game would find it): \"even worse performance\" read as slower (≥ 1).",
        quantity: QuantitySpec::ratio(
            time("boxed_nodes", "tags-visit-all-fragmented"),
            time("vec_of_vecs", "tags-visit-all-fragmented"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "On a fresh heap (tags-visit-all) nodes allocated one after another sit close \
             together, which flatters the linked list; the fragmented build is closer to \
             the article's malloc'd nodes.",
        ),
    },
    ClaimSpec {
        id: "C4a",
        source: AA2,
        quote: "Another thing to note is that we are wasting a significant amount of \
                memory. Only half of the memory is used for storing tags, the rest of it is \
                wasted on the next pointers.",
        reading: "linked_nodes ({ tag, next } u32 nodes in one buffer) on tags-visit-all, \
                  heap bytes per 4-byte tag: \"only half\" read as at least 8 bytes per \
                  tag.",
        quantity: QuantitySpec::value(bytes_per_tag("linked_nodes", "tags-visit-all")),
        rule: Rule::AtLeast(8.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The measured bytes also hold the buffer's growth slack and the per-entity \
             head index, which the article's half does not count.",
        ),
    },
    ClaimSpec {
        id: "C4b",
        source: AA2,
        quote: "Using a single buffer rather than separate allocations gives us much \
                better cache locality, but the next references can still jump around \
                randomly in that buffer. So we can still get cache misses. If the buffer \
                is large, this can be as bad as using freely allocated nodes.",
        reading: "linked_nodes ÷ boxed_nodes, simulated D1 misses per tag visited on \
                  tags-visit-all (entities built interleaved, so each chain's nodes are n \
                  apart): \"as bad as\" read as within a factor of two, i.e. at least half \
                  the freely allocated nodes' misses.",
        quantity: QuantitySpec::ratio(
            d1("linked_nodes", "tags-visit-all"),
            d1("boxed_nodes", "tags-visit-all"),
        ),
        rule: Rule::AtLeast(0.5),
        sizes: Sizes::at_least(LARGE_STORE),
        by_construction: false,
        note: Some(
            "The claim is conditional on a large buffer, so it is judged from 10,000 \
             entities up (3 tags of 8-byte nodes each: about 240 KB, seven times a 32 KB \
             first-level cache). Below that the whole buffer can stay in the simulated \
             D1, where the article expects the single buffer to win.",
        ),
    },
    ClaimSpec {
        id: "C5a",
        source: AA2,
        quote: "However, if the nodes are not full we could be wasting even more memory \
                than before. If entities have three tags on average, then we are only \
                using 30 % of the memory to store tags.",
        reading: "linked_chunks_8 ({ n, tags: [u32; 8], next }: 40-byte chunks) on \
                  tags-visit-all (3 tags per entity), heap bytes per tag: 30% of the \
                  memory holding tags is 4 B ÷ 0.3 = 13.3 bytes per tag; read as at least \
                  that.",
        quantity: QuantitySpec::value(bytes_per_tag("linked_chunks_8", "tags-visit-all")),
        rule: Rule::AtLeast(13.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's 80% for full nodes is not tested: no workload gives every \
             entity a multiple of 8 tags.",
        ),
    },
    ClaimSpec {
        id: "C5b",
        source: AA2,
        quote: "This gives better cache performance because we can now process eight \
                tags at a time before we have to follow a next pointer and jump to a \
                different memory location.",
        reading: "linked_chunks_8 ÷ linked_nodes (one tag per node), simulated D1 misses \
                  per tag visited on tags-visit-all (3 tags per entity: one chunk against \
                  three nodes n apart): better cache performance read as fewer misses \
                  (≤ 1), in a store larger than the first-level cache, where following a \
                  next pointer to \"a different memory location\" can miss at all.",
        quantity: QuantitySpec::ratio(
            d1("linked_chunks_8", "tags-visit-all"),
            d1("linked_nodes", "tags-visit-all"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::at_least(LARGE_STORE),
        by_construction: false,
        note: Some(
            "Judged from 10,000 entities up, as C4b. In a store near the first-level \
             cache's size the comparison is of footprints, not of pointer jumps: a \
             40-byte chunk per entity outgrows the cache before three 8-byte nodes do.",
        ),
    },
    ClaimSpec {
        id: "C6",
        source: AA2,
        quote: "But we could sort the list \"incrementally\". Every time the list is \
                accessed, we do a little bit of sorting work. As long as the rate of \
                mutation is low compared to the rate of access, which you would expect in \
                most circumstances, our sorting should be able to keep up with the \
                mutations and keep the list \"mostly sorted\". … Two-way bubble sort \
                perhaps?",
        reading: "sorted_chunks_8_bubble (8-tag chunks sorted by the article's two-way \
                  bubble sort, one neighbour compare-and-swap per access) ÷ \
                  linked_chunks_8 (the same chunks unsorted), time per tag visited on \
                  tags-visit-all-heavy (1% of entities with 20-100 tags, so chains of up to \
                  13 chunks; all mutation in the interleaved build, none in the body): the \
                  sorting read as paying for itself in the walks it speeds up (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("sorted_chunks_8_bubble", "tags-visit-all-heavy"),
            time("linked_chunks_8", "tags-visit-all-heavy"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "No metric records how sorted the chains are, and the cache pass does not run \
             tags-visit-all-heavy, so the claim is judged by time. The sorted chunks are \
             doubly linked (48 bytes against 40). At 100,000 entities the body visits \
             every tag four times (64 at 1,000), so the sort has four steps per entity \
             to converge. The \
             mutation:access ratio is swept by tags-mutate-r0, -r1, -r16 and -r64 (and \
             tags-mutate at 4), but over 3-tag entities whose writes keep 2 to 4 tags: \
             one chunk each, never a new chunk, so there is no chain for the sort to \
             keep contiguous and the sweep does not test the claim. It needs the sweep \
             over heavy-tailed entities (multi-chunk chains) and a metric of how sorted \
             the chains are after the body.",
        ),
    },
    ClaimSpec {
        id: "C9a",
        source: AA2,
        quote: GROWTH_QUOTE,
        reading: "vec_of_vecs_grow_add16 (inner arrays grown by +16, reserve_exact) on \
                  tags-grow-long (n tags pushed onto 64 lists in turn, so the lists end \
                  n / 64 long): the exponent k of time per push ≈ c·N^k over the bench \
                  sizes and the sweep's. A copy of the whole list every 16 pushes is O(n) \
                  per push: read as k at least 0.5 (1 once the copy outweighs the push's \
                  own constant, which it does not at the smallest sizes).",
        quantity: QuantitySpec::exponent(time("vec_of_vecs_grow_add16", "tags-grow-long")),
        rule: Rule::AtLeast(0.5),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(GROWTH_NOTE),
    },
    ClaimSpec {
        id: "C9b",
        source: AA2,
        quote: GROWTH_QUOTE,
        reading: "vec_of_vecs_grow_x2 (doubling, reserve_exact) on tags-grow-long: the \
                  exponent k of time per push over the bench and sweep sizes. Amortized \
                  O(1): k at most 0.3 (time also grows a little as the lists outgrow the \
                  caches, which O-notation does not count).",
        quantity: QuantitySpec::exponent(time("vec_of_vecs_grow_x2", "tags-grow-long")),
        rule: Rule::AtMost(0.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(GROWTH_NOTE),
    },
    ClaimSpec {
        id: "C9c",
        source: AA2,
        quote: GROWTH_QUOTE,
        reading: "C9b for growth by ×1.5 (vec_of_vecs_grow_x1_5): any geometric growth is \
                  amortized O(1), k at most 0.3.",
        quantity: QuantitySpec::exponent(time("vec_of_vecs_grow_x1_5", "tags-grow-long")),
        rule: Rule::AtMost(0.3),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(GROWTH_NOTE),
    },
];

/// The catalogue's statements of the article that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "C5c",
        source: AA2,
        quote: "Memory use can also be better. If the nodes are full, we are using 80 % of \
                the memory for actual tags, rather than 50 % as we had before.",
        reason: "Full nodes need every entity to hold a multiple of 8 tags when the memory \
                 is measured. bytes_per_tag is taken after the setup, and every workload \
                 gives its entities 3 tags (tags-visit-all and the others) or a heavy \
                 tail of 1 to 4 and 20 to 100 (the -heavy ones); tags-grow-long fills its \
                 chunks, but in the body, after which no metric divides the bytes by the \
                 tags held. A test needs a tag-count distribution of multiples of 8 (or \
                 bytes per tag after the body).",
    },
    UntestedSpec {
        id: "C9d",
        source: AA2,
        quote: "Note that it is just on average that push is O(1). Every n pushes, you \
                will encounter a push that takes O(n) time. … If you have really big \
                vectors, that can cause an unacceptable hitch",
        reason: "The hitch is one push's worst case, on the push-heavy workload, growing \
                 with n. The latency pass does not run tags-grow-long (the family's latency \
                 workloads are tags-build, tags-has, tags-visit-entity and tags-churn), it \
                 times batches of 8 ops rather than single pushes, and it runs at two \
                 sizes, so no exponent of the slowest push can be fitted; on a shared \
                 machine the slowest batch also holds interrupts, which a rule cannot tell \
                 from a copy. A test needs the latency pass on tags-grow-long at the \
                 sweep's sizes, or a deterministic count of the bytes copied by the \
                 costliest push.",
    },
];

/// C9's quote: the growth policies of a pushed-to array.
const GROWTH_QUOTE: &str = "If we allocate 16 items at a time, then we need to allocate every \
     16th time we push, which means that push on average takes O(n)/16, which by the great laws \
     of O(n) notation is still O(n). Oops! But if we allocate 2*n items when we allocate, then we \
     only need to reallocate after we have pushed n more items, which means that push on average \
     takes O(n)/n. And O(n)/n is O(1), which is exactly what we wanted. Note that it is just on \
     average that push is O(1). Every n pushes, you will encounter a push that takes O(n) time.";

/// What C9's exponents are fitted on, and what the suite cannot show of the claim.
const GROWTH_NOTE: &str = "tags-grow-long is a scaling workload of the sweep pass (1K, 4K, \
     16K, 64K and 256K tags beside the bench's 1K and 100K), so a bench run without the sweep \
     has two sizes, short of the three a fit needs. The lists grow in turn, so another list's \
     array usually follows the one that grows. Rust's Vec grows through the global allocator's \
     realloc, which glibc satisfies in place when the array's chunk has room left (chunks are \
     rounded up to 16 bytes) or the chunk after it is free, and copies only otherwise; the \
     article's std::vector always allocates anew and copies. The hitch itself (one slow push \
     every n) is not judged: the latency pass times batches of 8 ops at two sizes, and on a \
     shared machine its slowest batch is set by interrupts as much as by a copy of a few KB.";
