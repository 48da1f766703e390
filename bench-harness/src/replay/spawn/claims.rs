//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::{ClaimMetric, ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

const SOURCE: &str = "002 Part 4: Entity Resources";

/// `metric` of `design` on `spawn-level` (the article's level, spawned once).
const fn level(metric: ClaimMetric, design: &'static str) -> OperandSpec {
    OperandSpec::new(metric, design, "spawn-level")
}

/// `metric` of `num` ÷ `den` on `spawn-level`.
const fn level_ratio(metric: ClaimMetric, num: &'static str, den: &'static str) -> QuantitySpec {
    QuantitySpec::ratio(level(metric, num), level(metric, den))
}

/// The quote of E1a and E1b.
const E1_QUOTE: &str = "I’m a huge fan of compiling resources into big blobs of binary data that can be read directly into memory and used as-is without any need for “deserialization” or “reference patching”. … Initially, this approach can seem a bit complicated. But it is actually a lot simpler than messing around with deserialization and reference patching.";

/// The quote of E4a and E4b.
const E4_QUOTE: &str = "This may or may not matter in practice. … actually for our purposes we don’t need these lookup tables. We will just walk the memory from beginning to end, creating one component at a time.";

/// The quote of E7a and E7b.
const E7_QUOTE: &str = "Note how we are alternating between creating different kinds of components and entities. This not only messes with our instruction cache (because each component has its own code path), but with our data cache as well (because each component has its own data structures where the instances get inserted).";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "E1a",
        source: SOURCE,
        quote: E1_QUOTE,
        reading: "nested (the article's blob, walked in place, spawned entity by entity) ÷ bincode_owned (the same records deserialised into owned structs, then spawned entity by entity), simulated instructions per spawned entity on spawn-level. \"Simpler\" measured as the work it saves: no more than the deserialiser's, at most 1.",
        quantity: level_ratio(ClaimMetric::Instructions, "nested", "bincode_owned"),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E1b",
        source: SOURCE,
        quote: E1_QUOTE,
        reading: "E1a in time: nested ÷ bincode_owned, time per spawned entity on spawn-level, at most 1.",
        quantity: level_ratio(ClaimMetric::Time, "nested", "bincode_owned"),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E4a",
        source: SOURCE,
        quote: E4_QUOTE,
        reading: "nested_offsets (fixed fields first plus component and child offset tables) ÷ nested (the plain nested resource), simulated instructions per spawned entity on spawn-level, which walks the resource from beginning to end. The tables not being needed read as gaining under 10%: at least 0.9.",
        quantity: level_ratio(ClaimMetric::Instructions, "nested_offsets", "nested"),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E4b",
        source: SOURCE,
        quote: E4_QUOTE,
        reading: "E4a in time: nested_offsets ÷ nested, time per spawned entity on spawn-level, at least 0.9 (a gain under 10%).",
        quantity: level_ratio(ClaimMetric::Time, "nested_offsets", "nested"),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E7a",
        source: SOURCE,
        quote: E7_QUOTE,
        reading: "grouped_batched (create N entities, then one spawn function per component type) ÷ nested (entity by entity, types interleaved), simulated I1 misses per spawned entity on spawn-level (6 component types, each with its own code path). \"Messes with\" read as a visible effect: grouping removes at least a tenth of the I1 misses (at most 0.9).",
        quantity: level_ratio(ClaimMetric::I1Misses, "grouped_batched", "nested"),
        rule: Rule::AtMost(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The simulated I1 is 32 KiB; the suite's six spawn code paths are small, where the article's engine components are whole subsystems, so interleaving may not evict code here.",
        ),
    },
    ClaimSpec {
        id: "E7b",
        source: SOURCE,
        quote: E7_QUOTE,
        reading: "The data-cache half: grouped_batched ÷ nested, simulated D1 misses per spawned entity on spawn-level, at most 0.9 (a visible effect, as E7a).",
        quantity: level_ratio(ClaimMetric::D1Misses, "grouped_batched", "nested"),
        rule: Rule::AtMost(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E7c",
        source: SOURCE,
        quote: "A level can easily have 10 000 objects or more and sometimes you want to spawn them really fast … Much better. And we can go even further. Instead of telling the EntityManager to “create an entity” one hundred times, let’s just tell it to “create 100 entities”.",
        reading: "grouped_batched ÷ nested, time per spawned entity on spawn-level (1K, 10K: the article's 10 000, 100K entities). \"Much better\" read as at least a quarter faster (at most 0.75).",
        quantity: level_ratio(ClaimMetric::Time, "grouped_batched", "nested"),
        rule: Rule::AtMost(0.75),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "\"Much better\" is said of grouping the operations by type; grouped_batched also batches them (\"we can go even further\"). The suite has no design that groups without batching: grouped_single changes the resource layout only and keeps nested's spawn order.",
        ),
    },
];

/// The catalogue's statements of the article that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "E6",
        source: SOURCE,
        quote: "Well, not really. We are violating one of the fundamental principles of data-oriented design: Do similar things together. … Note that now when we are walking the format, we can skip all instances of an unknown component type with a single jump, instead of having to ignore them one by one. This doesn't matter that much",
        reason: "\"Do similar things together\" is the principle the pivot applies; what it predicts for spawning (fewer instruction- and data-cache misses, faster spawns) is judged as E7a to E7c, grouped_batched against nested. The pivot's own aside, that an unknown type is skipped with a single jump and that this does not matter much, needs two designs that differ only in how they skip unknown components: grouped_single against nested also changes the layout and the walk (one cursor per type), so no pair isolates the skip.",
    },
    UntestedSpec {
        id: "E8",
        source: SOURCE,
        quote: "Note that the compile function operates on a single component at a time, because we are not that concerned with compile time performance.",
        reason: "A statement of the author's priorities for the engine's resource compiler. Compiling is the untimed Compile op of each spawn trace's setup, and no metric records its time or work; even timed, the article gives no cost to hold it to.",
    },
];
