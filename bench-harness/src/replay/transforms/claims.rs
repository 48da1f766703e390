//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::claim_spec::{d1, family, instructions, time};
use results::{ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

const SOURCE: &str = "002 Part 3: The Transform Component";

/// World products (`local * parent_world`) per `EndFrame` of the body.
const fn products(design: &'static str, workload: &'static str) -> OperandSpec {
    family("products_per_frame", design, workload)
}

/// World products per `SetLocal` (and batch entry) of the body.
const fn products_per_set(design: &'static str, workload: &'static str) -> OperandSpec {
    family("products_per_set_local", design, workload)
}

/// `design`'s world products per `SetLocal` at the chain lengths 5, 64 and 1024 (every node
/// moving each frame), each with its length: the points of an exponent across the chains.
const fn across_chains(design: &'static str) -> [(OperandSpec, f64); 3] {
    [
        (products_per_set(design, "xf-chain-all-5"), 5.0),
        (products_per_set(design, "xf-chain-all"), 64.0),
        (products_per_set(design, "xf-chain-all-1024"), 1024.0),
    ]
}

/// F4d's points: the immediate update across the chain lengths.
const IMMEDIATE_ACROSS_CHAINS: [(OperandSpec, f64); 3] = across_chains("immediate_recursive");

/// F5b's points: the deferred update across the chain lengths.
const DEFERRED_ACROSS_CHAINS: [(OperandSpec, f64); 3] = across_chains("deferred_flag_scan");

/// The quote of F4a, F4b, F4c, F4d and F5b.
const CHAIN_QUOTE: &str = "With a deferred update, changing the local pose of every node will still just require O(n) computations to compute all the world transforms. With an immediate update, where we compute the world transforms of all children as soon as the parent transform changes, we will need O(n^2) computations.";

/// The note of F4a, F4b and F4c.
const CHAIN_NOTE: &str = "Per chain of L nodes all moving, the immediate update computes (L−1)(L+2)/2 world products whatever the order of the moves, the deferred one L−1 (a root's world is its local, no product): the ratio is (L+2)/2. The cap of 8,388,608 world products per body leaves the immediate designs unsupported on xf-chain-all and xf-chain-all-1024 at N = 65,536 (the default run's second size).";

/// The quote of F6a and F6b.
const ROOT_QUOTE: &str = "Note that the performance problems do not appear if it is just the root entity that is moving. In that case, both the immediate and the deferred update will be O(n).";

/// The quote of F8a and F8b.
const FLAG_QUOTE: &str = "Typically, in a scene, only a small percentage of the objects are moving at any one time (maybe as little as 1 %). So looping over all objects, even just to check a flag, can waste a lot of time. A better solution is to sort all the dirty objects to the end of the array, so we can loop over just them";

/// The note of F8a and F8b.
const FLAG_NOTE: &str = "Not a difference of setup but a finding: with different movers every frame (xf-sparse-1pct), the 5-frame eviction keeps every node moved in the last five frames on the list and recomputes it each frame, about five times the world products of the flag scan, which recomputes only this frame's movers, on top of the swaps; and the flag scan of 1K nodes is cheap (the points show the counts).";

/// The quote of F13a and F13b.
const ITERATIVE_QUOTE: &str = "Note: I’ve written this as a recursive function for easier reading, but you might want to rewrite it as an iterative function for better performance.";

/// The quote of F14a and F14b.
const BATCH_QUOTE: &str = "If we run into performance problems as a result of this, we can always create an API function that allows us to set multiple local transforms at once while doing a single world transform update, thus getting back the O(n) performance.";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "F4a",
        source: SOURCE,
        quote: CHAIN_QUOTE,
        reading: "immediate_recursive ÷ deferred_flag_scan, world products per frame on xf-chain-all-5 (chains of 5, the article's expected length, every node moving each frame). O(n²) against O(n): the ratio grows as n; read as at least n/4 = 1.25 here (the exact ratio is (n+2)/2 = 3.5; F4b and F4c at 64 and 1024 nodes per chain show the growth).",
        quantity: QuantitySpec::ratio(
            products("immediate_recursive", "xf-chain-all-5"),
            products("deferred_flag_scan", "xf-chain-all-5"),
        ),
        rule: Rule::AtLeast(1.25),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(CHAIN_NOTE),
    },
    ClaimSpec {
        id: "F4b",
        source: SOURCE,
        quote: CHAIN_QUOTE,
        reading: "F4a at another chain length: immediate_recursive ÷ deferred_flag_scan, world products per frame on xf-chain-all (chains of 64): at least n/4 = 16 (exactly (n+2)/2 = 33).",
        quantity: QuantitySpec::ratio(
            products("immediate_recursive", "xf-chain-all"),
            products("deferred_flag_scan", "xf-chain-all"),
        ),
        rule: Rule::AtLeast(16.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(CHAIN_NOTE),
    },
    ClaimSpec {
        id: "F4c",
        source: SOURCE,
        quote: CHAIN_QUOTE,
        reading: "immediate_recursive ÷ deferred_flag_scan, world products per frame on xf-chain-all-1024 (chains of 1024, every node moves each frame; at N = 1000, one chain of 1000). O(n²) against O(n) on a chain of n: the ratio grows as n; read as at least n/4 = 250 (the exact ratio is (n+2)/2 = 501 at n = 1000, so any O(n²) constant of at least 1/4 passes).",
        quantity: QuantitySpec::ratio(
            products("immediate_recursive", "xf-chain-all-1024"),
            products("deferred_flag_scan", "xf-chain-all-1024"),
        ),
        rule: Rule::AtLeast(250.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(CHAIN_NOTE),
    },
    ClaimSpec {
        id: "F4d",
        source: SOURCE,
        quote: CHAIN_QUOTE,
        reading: "The growth itself: the exponent k of immediate_recursive's world products per SetLocal ≈ c·L^k across the chain lengths L = 5, 64 and 1024 (xf-chain-all-5, xf-chain-all, xf-chain-all-1024; every node moves each frame), at each N. O(n²) per frame is O(n) per moved node: k within [0.8, 1.2].",
        quantity: QuantitySpec::exponent_across(&IMMEDIATE_ACROSS_CHAINS),
        rule: Rule::Between(0.8, 1.2),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The cap of 8,388,608 world products per body leaves the immediate designs unsupported on the long chains at N = 65,536, so the fit exists at N = 1,000 only.",
        ),
    },
    ClaimSpec {
        id: "F5a",
        source: SOURCE,
        quote: "Later, I would compute the world transforms of all the dirty nodes (and their children) as a single step. This has the advantage that we never have to compute the world transform of a node more than once.",
        reading: "deferred_flag_scan on xf-chain-all-1024, where every node moves once per frame: world products per SetLocal. Never more than once per node: at most 1.",
        quantity: QuantitySpec::value(products_per_set("deferred_flag_scan", "xf-chain-all-1024")),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F5b",
        source: SOURCE,
        quote: CHAIN_QUOTE,
        reading: "The deferred side's growth: the exponent k of deferred_flag_scan's world products per SetLocal ≈ c·L^k across the chain lengths L = 5, 64 and 1024, at each N. O(n) per frame is a constant per moved node: k within [-0.2, 0.2].",
        quantity: QuantitySpec::exponent_across(&DEFERRED_ACROSS_CHAINS),
        rule: Rule::Between(-0.2, 0.2),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F6a",
        source: SOURCE,
        quote: ROOT_QUOTE,
        reading: "immediate_recursive ÷ deferred_flag_scan, world products per frame on xf-root-move (a forest of depth ≤ 5 where only roots move). Both O(n): the same order, read as within a factor of 2.",
        quantity: QuantitySpec::ratio(
            products("immediate_recursive", "xf-root-move"),
            products("deferred_flag_scan", "xf-root-move"),
        ),
        rule: Rule::Between(0.5, 2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F6b",
        source: SOURCE,
        quote: ROOT_QUOTE,
        reading: "\"The performance problems do not appear\" in time: immediate_recursive ÷ deferred_flag_scan, time per op on xf-root-move, within a factor of 2.",
        quantity: QuantitySpec::ratio(
            time("immediate_recursive", "xf-root-move"),
            time("deferred_flag_scan", "xf-root-move"),
        ),
        rule: Rule::Between(0.5, 2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F8a",
        source: SOURCE,
        quote: FLAG_QUOTE,
        reading: "deferred_dirty_list (the article's dirty list by swapping, 5-frame eviction) ÷ deferred_flag_scan (a flag per node, every node scanned per frame), simulated instructions per op on xf-sparse-1pct (1% of the nodes move each frame). The better solution does less work: at most 1.",
        quantity: QuantitySpec::ratio(
            instructions("deferred_dirty_list", "xf-sparse-1pct"),
            instructions("deferred_flag_scan", "xf-sparse-1pct"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(FLAG_NOTE),
    },
    ClaimSpec {
        id: "F8b",
        source: SOURCE,
        quote: FLAG_QUOTE,
        reading: "F8a in time: deferred_dirty_list ÷ deferred_flag_scan, time per op on xf-sparse-1pct, at most 1.",
        quantity: QuantitySpec::ratio(
            time("deferred_dirty_list", "xf-sparse-1pct"),
            time("deferred_flag_scan", "xf-sparse-1pct"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(FLAG_NOTE),
    },
    ClaimSpec {
        id: "F9",
        source: SOURCE,
        quote: "We could clear the list every frame, but that might lead to a lot of swapping as items are moved in and out of the list. A better approach might be to check if an item hasn’t moved in five frames or so, and in that case we move it off the dirty list. This avoids swapping those items which are always moving.",
        reading: "deferred_dirty_list (evicted after 5 unmoved frames) ÷ deferred_dirty_list_clear (the list emptied every frame), time per op on xf-persistent-movers (the same 10% of the nodes move every frame). Better: at most 1.",
        quantity: QuantitySpec::ratio(
            time("deferred_dirty_list", "xf-persistent-movers"),
            time("deferred_dirty_list_clear", "xf-persistent-movers"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F10",
        source: SOURCE,
        quote: "When using the immediate update strategy, sorting the list is not as important, but we can employ similar swapping strategies to make sure that a parent node and its children are kept close together in the array, so that the immediate update is cache friendly.",
        reading: "immediate_local (swaps each updated subtree into consecutive slots) ÷ immediate_iterative (the same walk without the swaps), simulated D1 misses per op on xf-sparse-1pct. Cache friendlier: at most 1.",
        quantity: QuantitySpec::ratio(
            d1("immediate_local", "xf-sparse-1pct"),
            d1("immediate_iterative", "xf-sparse-1pct"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F13a",
        source: SOURCE,
        quote: ITERATIVE_QUOTE,
        reading: "immediate_iterative (explicit stack) ÷ immediate_recursive, time per op on xf-chain-all-1024, the deepest recursion the suite runs. Better performance: at most 1.",
        quantity: QuantitySpec::ratio(
            time("immediate_iterative", "xf-chain-all-1024"),
            time("immediate_recursive", "xf-chain-all-1024"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F13b",
        source: SOURCE,
        quote: ITERATIVE_QUOTE,
        reading: "immediate_iterative ÷ immediate_recursive, time per op on xf-sparse-1pct (a forest of depth ≤ 5, 1% moving: the article's expected scene), at most 1.",
        quantity: QuantitySpec::ratio(
            time("immediate_iterative", "xf-sparse-1pct"),
            time("immediate_recursive", "xf-sparse-1pct"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F14a",
        source: SOURCE,
        quote: BATCH_QUOTE,
        reading: "immediate_recursive on xf-chain-all-batch (xf-chain-all's chains of 64, each set through one set_local_batch per frame): world products per batch entry. O(n) regained: each node computed once, at most 1.",
        quantity: QuantitySpec::value(products_per_set(
            "immediate_recursive",
            "xf-chain-all-batch",
        )),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F14b",
        source: SOURCE,
        quote: BATCH_QUOTE,
        reading: "The O(n) performance in time: immediate_recursive ÷ deferred_flag_scan, time per op on xf-chain-all-batch. The same order as the deferred update: within a factor of 2.",
        quantity: QuantitySpec::ratio(
            time("immediate_recursive", "xf-chain-all-batch"),
            time("deferred_flag_scan", "xf-chain-all-batch"),
        ),
        rule: Rule::Between(0.5, 2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "F15",
        source: SOURCE,
        quote: "I think that with the decision to decouple the model scene graphs from the entity scene graphs the performance problems of immediate updates are a lot less serious. … I don’t expect there to be very long chains of entities (n <= 5 ???) and I don’t expect all of the objects in those chains to be moving simultaneously. So I have decided to go with immediate updates so that we always have accurate world transforms.",
        reading: "immediate_recursive (the article's choice: each SetLocal recomputes the node's subtree at once) ÷ deferred_flag_scan (each dirty node's world computed once per frame), world products per frame on xf-sparse-1pct (a forest whose chains are at most 5 nodes, the article's n <= 5, with 1% of the nodes moving each frame, so rarely all of a chain). The immediate update computes more only where a node and one of its ancestors move in the same frame; with at most 4 ancestors, each moving with probability 1%, that is at most about 4% of the movers: \"a lot less serious\" read as at most a tenth more products (≤ 1.1).",
        quantity: QuantitySpec::ratio(
            products("immediate_recursive", "xf-sparse-1pct"),
            products("deferred_flag_scan", "xf-sparse-1pct"),
        ),
        rule: Rule::AtMost(1.1),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The chain length is the author's guess about his levels, which no run can check; the claim tests the decision the guess supports, on a scene built to it.",
        ),
    },
];

/// The catalogue's statements of the article that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "F3",
        source: SOURCE,
        quote: "For the entity system I’ve decided to decouple these two concepts. The model scene graph won’t compute world space poses, instead it will compute poses relative to the entity pose. This means that we can evaluate the animations and compute the model pose without knowing anything about the entity pose.",
        reason: "About the engine's model scene graph (the nodes inside an entity, such as a character's bones), which no design or workload has: the family stores the entity graph only. A test needs a second, per-entity node graph posed relative to its entity, against one posed in world space after the entity graph, on a workload that animates both; the gain the article names, evaluating models without waiting for the entity graph, also needs a threaded pass the family lacks.",
    },
    UntestedSpec {
        id: "F12",
        source: SOURCE,
        quote: "This can get a little hairy, especially when you are changing references and trying to walk those lists of references at the same time. My suggestion when you want to swap two instances [A] and [B] is to use the element at the end of the array [size] as a temporary storage slot and instead of trying to do everything at once, use three steps",
        reason: "A statement about how easy the swap is to get right, not about a quantity. The designs that swap instances do it in the article's three steps through the spare slot [size] (impls/src/transforms/hierarchy.rs) and verify against the model on every trace; a one-step swap with the bugs the article warns of is no design, and no run counts the bugs a technique avoids.",
    },
];
