//! The articles' claims this family's results answer (see `results::claim`): seed 002's
//! "Allocation Adventures 2: Arrays of Arrays" on fixed-block allocators.
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order; the
//! family's `Family::claims` converts them to the `results::Claim`s a run records.

use results::claim_spec::time;
use results::{ClaimSpec, QuantitySpec, Rule, Sizes};

const AA2: &str = "002 Allocation Adventures 2: Arrays of Arrays";

const SLAB_QUOTE: &str = "The answer is that malloc() is a generic allocator that has to do \
                          well in a lot of different situations. If we have more detailed \
                          knowledge of how the allocator is used, we can write an allocator \
                          that is both simpler and performs better. For example, as seen \
                          above, when we know the allocations are fixed size we can make a \
                          very fast and simple allocator. System software typically uses \
                          such allocators (check out the slab allocator for instance) rather \
                          than relying on malloc().";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "C7a",
        source: AA2,
        quote: SLAB_QUOTE,
        reading: "slab_alloc (size-class pages with in-page free lists: fixed blocks from \
                  an array) ÷ system (the global allocator, malloc), time per op on \
                  alloc-fixed-size (random frees and allocations of one 24-byte size): \
                  \"performs better\" read as faster (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("slab_alloc", "alloc-fixed-size"),
            time("system", "alloc-fixed-size"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The malloc of 2015 the article argues against was a general allocator; \
             glibc's now has per-thread caches (tcache) that serve small fixed sizes from \
             free lists, a fixed-block allocator in front of the general one. Every design, \
             system included, has its blocks stamped on Alloc and read back on Free by \
             the replay.",
        ),
    },
    ClaimSpec {
        id: "C7b",
        source: AA2,
        quote: SLAB_QUOTE,
        reading: "slab_alloc ÷ rlsf (a general-purpose TLSF allocator on the same kind of \
                  arena: the generic allocator with the harness's costs equal), time per op \
                  on alloc-fixed-size: \"performs better\" read as faster (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("slab_alloc", "alloc-fixed-size"),
            time("rlsf", "alloc-fixed-size"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "\"Simpler\" is about code, not measured; the cache pass does not run \
             alloc-fixed-size, so instruction counts are not available for it. Both run \
             through the family's checked calls; rlsf's adapter also converts offsets to \
             pointers and back and counts reserved bytes, which the crate called directly \
             (ref-direct-rlsf) does not: rlsf's row shows that cost, and the verdict \
             against the crate alone can differ: the report ranks this workload's \
             designs called directly too (ref-direct-rlsf against ref-direct-slab_alloc).",
        ),
    },
];
