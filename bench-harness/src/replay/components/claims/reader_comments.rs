//! Seed 000's reader comments 11 and 23 on "The ID Lookup Table", copied across systems: bone
//! → node copies into one contiguous array in order against in random order (A13a), and in
//! random order into that array against into boxes all over memory (A13b).

use results::claim_spec::time;
use results::{ClaimSpec, QuantitySpec, Rule, Sizes};

const ID_TABLE_COMMENTS: &str = "000 The ID Lookup Table, reader comments 11 and 23";

/// The reader comments' claims, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "A13a",
        source: ID_TABLE_COMMENTS,
        quote: "for (i,tm) in Bones: Node[bone_to_node[i]].tm = tm … It is not complete \
                random access, because you could take steps to ensure that you bone list \
                is sorted in the same order as the node list and then it would still be \
                in-order access (just skipping the nodes that don't have associated \
                bones).",
        reading: "buffer_direct (instance data in one buffer indexed by the entity index: \
                  the comment's Node[...] array) on comp-sync (the bone → node mapping \
                  sorted) ÷ on comp-sync-random (the mapping a random permutation), time \
                  per copy: in-order access read as faster than random (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("buffer_direct", "comp-sync"),
            time("buffer_direct", "comp-sync-random"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The two workloads are timed in different cells, so the ratio is of medians, \
             not paired. Every node has a bone here (half the entities are bones, half \
             nodes), so the sorted walk skips no nodes.",
        ),
    },
    ClaimSpec {
        id: "A13b",
        source: ID_TABLE_COMMENTS,
        quote: "Even if you don't do that, random access in a small contiguous memory area \
                (the node matrix list) is still a lot better than random access all over \
                memory, because you will get fewer L2 cache misses.",
        reading: "On comp-sync-random (bone → node mapping random), buffer_direct (nodes' \
                  data contiguous, indexed by entity) ÷ oop_fields (each node's point \
                  mass a box reached from its game object, the boxes handed out in \
                  shuffled order: all over memory), time per copy: \"a lot better\" read \
                  as at least twice as fast (≤ 0.5).",
        quantity: QuantitySpec::ratio(
            time("buffer_direct", "comp-sync-random"),
            time("oop_fields", "comp-sync-random"),
        ),
        rule: Rule::AtMost(0.5),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The cache pass does not run comp-sync or comp-sync-random, so the comment's \
             L2 misses are not counted; the claim is judged by time. The scattered boxes \
             span a region that grows with the store (impls/src/components/\
             game_objects.rs), so \"all over memory\" is as large as the store, and is \
             largest at the largest size the suite runs.",
        ),
    },
];
