//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::claim_spec::{d1, family, instructions, time};
use results::{ClaimMetric, ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

use crate::replay::metric_fields::family_ratio;

const SOURCE: &str = "002 Allocation Adventures 1: The DataComponent";
const RESOURCES: &str = "002 Part 4: Entity Resources";

const LINEAR_QUOTE: &str = "Luckily, linear search is the best thing caches know and for \
                            reasonable sizes, the search will run faster than a std::map lookup.";

const BINARY_QUOTE: &str = "We could sort the entries and do a binary search, but since the \
                            number of entries will be small, it is probably not even worth \
                            bothering.";

/// How the article's small is read, closing the readings of D3e to D3j: a macro rather than a
/// `const` so that `concat!` joins it to each reading at compile time.
macro_rules! small {
    () => {
        "The article's small is read from its own example, the 5-key character \
         sheet, up to about twice its size: keys = 1, 2, 4 (and 8, D3b/D3d) should \
         win; keys = 16, 32, 64 (kv-keys-sweep-k16, -k32, -k64) are beyond it and \
         need not, so they carry no claim (they show where the crossover is)."
    };
}

/// The claims D3e to D3j, one per small key count `k` on kv-keys-sweep-k`k` (`k` float keys per
/// entity), each reading closed by `small!`: `linear` reads `LINEAR_QUOTE` as flat_aos's
/// linear search beating map_hashed's `BTreeMap`, `binary` reads `BINARY_QUOTE` as
/// flat_sorted's binary search gaining under 10% on flat_aos. A macro so that `concat!` builds
/// each reading and workload name from `k` at compile time.
macro_rules! small_keys_claim {
    (linear $id:literal, $k:literal $keys:literal) => {
        small_keys_claim!(
            $id, LINEAR_QUOTE, "flat_aos" / "map_hashed", $k, Rule::AtMost(1.0),
            "flat_aos (linear search of a Vec of entries) ÷ map_hashed (BTreeMap<u32, _>, \
             the article's std::map), time per Get on kv-keys-sweep-k", $k, " (", $k,
            " float ", $keys, " per entity, gets only): faster, at most 1. "
        )
    };
    (binary $id:literal, $k:literal $keys:literal) => {
        small_keys_claim!(
            $id, BINARY_QUOTE, "flat_sorted" / "flat_aos", $k, Rule::AtLeast(0.9),
            "flat_sorted (sorted entries, binary search) ÷ flat_aos (linear search), time \
             per Get on kv-keys-sweep-k", $k, " (", $k, " float ", $keys, " per entity): \
             \"not worth bothering\" read as the binary search gaining under 10%, at \
             least 0.9. "
        )
    };
    ($id:literal, $quote:expr, $num:literal / $den:literal, $k:literal, $rule:expr,
     $($reading:literal),+ $(,)?) => {
        ClaimSpec {
            id: $id,
            source: SOURCE,
            quote: $quote,
            reading: concat!($($reading,)+ small!()),
            quantity: QuantitySpec::ratio(
                time($num, concat!("kv-keys-sweep-k", $k)),
                time($den, concat!("kv-keys-sweep-k", $k)),
            ),
            rule: $rule,
            sizes: Sizes::EVERY,
            by_construction: false,
            note: None,
        }
    };
}

/// Allocator calls per work unit seen by the counting allocator (the memory pass).
const fn heap_calls(design: &'static str, workload: &'static str) -> OperandSpec {
    OperandSpec::new(ClaimMetric::AllocCallsPerOp, design, workload)
}

/// The design's own allocator calls (allocations, reallocations and frees) over setup and
/// body per entity spawned; checked equal to the counting allocator by
/// `impls/tests/integration/allocator_accounting.rs`.
const fn calls_per_entity(design: &'static str, workload: &'static str) -> OperandSpec {
    family(CALLS_PER_ENTITY, design, workload)
}

/// The family metric of [`calls_per_entity`], by its results.json name.
const CALLS_PER_ENTITY: &str = "alloc_calls_per_entity";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "D1",
        source: SOURCE,
        quote: "That doesn't look very fun at all. There are tons of allocations everywhere, both explicit (std::string *) and implicit (inside string, vector, and map).",
        reading: "tree_strings (string keys, boxed values) on kv-sheet, the 6-key character sheet: allocator calls per entity. \"Tons\" has no number; read as at least one call per key, 6 per entity.",
        quantity: QuantitySpec::value(calls_per_entity("tree_strings", "kv-sheet")),
        rule: Rule::AtLeast(6.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's naive tree nests an object map per sub-object (stats, status_effects); tree_strings is one level of string keys, so it allocates fewer than the article's tree would.",
        ),
    },
    ClaimSpec {
        id: "D2a",
        source: SOURCE,
        quote: "Great start. That's a lot of allocations already gone and as a bonus we also got rid of a lot of string comparisons.",
        reading: "map_hashed (u32 key hashes) ÷ tree_strings (string keys) on kv-sheet, allocator calls per entity. \"A lot … gone\" read as at least a quarter fewer (at most 0.75).",
        quantity: family_ratio(CALLS_PER_ENTITY, "map_hashed", "tree_strings", "kv-sheet"),
        rule: Rule::AtMost(0.75),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "tree_strings is a one-level tree (the article's nests sub-objects), so fewer allocations go away here than in the article.",
        ),
    },
    ClaimSpec {
        id: "D2b",
        source: SOURCE,
        quote: "Great start. That's a lot of allocations already gone and as a bonus we also got rid of a lot of string comparisons.",
        reading: "The string comparisons as work: instructions per op of map_hashed ÷ tree_strings on kv-sheet (90% Get). \"A lot\" read as at least a quarter fewer (at most 0.75).",
        quantity: QuantitySpec::ratio(
            instructions("map_hashed", "kv-sheet"),
            instructions("tree_strings", "kv-sheet"),
        ),
        rule: Rule::AtMost(0.75),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D3a",
        source: SOURCE,
        quote: "Luckily, linear search is the best thing caches know and for reasonable sizes, the search will run faster than a std::map lookup.",
        reading: "flat_aos (a linear search of a Vec of entries) ÷ map_hashed (BTreeMap<u32, _>, the std::map<unsigned, DataValue> of step 1), time per op on kv-sheet (6 keys, a reasonable size). Faster: at most 1.",
        quantity: QuantitySpec::ratio(time("flat_aos", "kv-sheet"), time("map_hashed", "kv-sheet")),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D3b",
        source: SOURCE,
        quote: "Luckily, linear search is the best thing caches know and for reasonable sizes, the search will run faster than a std::map lookup.",
        reading: "The key count up to which linear search wins, at keys = 8 (the sweep's base workload): flat_aos ÷ map_hashed, time per Get on kv-keys-sweep (8 float keys per entity, gets only). Faster: at most 1.",
        quantity: QuantitySpec::ratio(
            time("flat_aos", "kv-keys-sweep"),
            time("map_hashed", "kv-keys-sweep"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The other small counts are D3e to D3g (keys = 1, 2, 4). The sweep also runs keys = 16, 32 and 64 (kv-keys-sweep-k16, -k32, -k64), where the crossover is, but they are beyond the article's small and carry no claim.",
        ),
    },
    ClaimSpec {
        id: "D3c",
        source: SOURCE,
        quote: "We could sort the entries and do a binary search, but since the number of entries will be small, it is probably not even worth bothering.",
        reading: "flat_sorted (sorted entries, binary search) ÷ flat_aos (linear search), time per op on kv-sheet (6 keys). \"Not worth bothering\" read as the binary search gaining under 10%: at least 0.9.",
        quantity: QuantitySpec::ratio(
            time("flat_sorted", "kv-sheet"),
            time("flat_aos", "kv-sheet"),
        ),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D3d",
        source: SOURCE,
        quote: "We could sort the entries and do a binary search, but since the number of entries will be small, it is probably not even worth bothering.",
        reading: "flat_sorted ÷ flat_aos, time per Get on kv-keys-sweep (8 float keys: still small). \"Not worth bothering\" read as the binary search gaining under 10%: at least 0.9.",
        quantity: QuantitySpec::ratio(
            time("flat_sorted", "kv-keys-sweep"),
            time("flat_aos", "kv-keys-sweep"),
        ),
        rule: Rule::AtLeast(0.9),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The other small counts are D3h to D3j (keys = 1, 2, 4); keys = 16, 32 and 64 are run but beyond the article's small, so where binary search starts to pay carries no claim.",
        ),
    },
    small_keys_claim!(linear "D3e", 1 "key"),
    small_keys_claim!(linear "D3f", 2 "keys"),
    small_keys_claim!(linear "D3g", 4 "keys"),
    small_keys_claim!(binary "D3h", 1 "key"),
    small_keys_claim!(binary "D3i", 2 "keys"),
    small_keys_claim!(binary "D3j", 4 "keys"),
    ClaimSpec {
        id: "D4a",
        source: SOURCE,
        quote: "Now when searching for a particular key, we only need to load the keys table which means the cache only contains useful data.",
        reading: "flat_soa (keys, types and values in three Vecs) ÷ flat_aos (one Vec of entries), simulated D1 misses per op on kv-sheet (90% Get). Fewer: at most 1.",
        quantity: QuantitySpec::ratio(d1("flat_soa", "kv-sheet"), d1("flat_aos", "kv-sheet")),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "A Get also reads the found value (and its type), which SoA keeps in other arrays: the search itself loads only keys, the whole Get loads up to three arrays' lines against one or two entries' lines.",
        ),
    },
    ClaimSpec {
        id: "D4b",
        source: SOURCE,
        quote: "One thing that does slow the search for a particular key down is all the additional data we need to load into the cache to perform the search.",
        reading: "flat_soa ÷ flat_aos, time per Get on kv-keys-sweep (8 keys, gets only: the search dominates). SoA removes what slows the search: at most 1.",
        quantity: QuantitySpec::ratio(
            time("flat_soa", "kv-keys-sweep"),
            time("flat_aos", "kv-keys-sweep"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D5a",
        source: SOURCE,
        quote: "The arrays are also all reallocated at the same time. We can make use of this and instead of doing three separate allocations, we just allocate one big buffer and lay them out sequentially in that buffer",
        reading: "co_allocated (one header buffer) ÷ flat_soa (three Vecs), allocator calls per op seen by the counting allocator on kv-health-only (each entity one float: no string or array allocations). Three become one: a third, read as at most 0.35 for the store's own entity-table growth, which both share and the article does not count.",
        quantity: QuantitySpec::ratio(
            heap_calls("co_allocated", "kv-health-only"),
            heap_calls("flat_soa", "kv-health-only"),
        ),
        rule: Rule::AtMost(0.35),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D5b",
        source: SOURCE,
        quote: "The arrays are also all reallocated at the same time. We can make use of this and instead of doing three separate allocations, we just allocate one big buffer and lay them out sequentially in that buffer",
        reading: "D5a on the designs' own count (alloc_calls_per_entity, measured in every run, equal to the counting allocator's by impls/tests/integration/allocator_accounting.rs): co_allocated ÷ flat_soa on kv-health-only, at most 0.35 (a third plus the store's own table growth).",
        quantity: family_ratio(
            CALLS_PER_ENTITY,
            "co_allocated",
            "flat_soa",
            "kv-health-only",
        ),
        rule: Rule::AtMost(0.35),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D6",
        source: SOURCE,
        quote: "So, we just replace them with their non-STL equivalents … This actually bloats the size of the Value union from 64 to 128 bits, which is less than stellar, but have faith, we are going in the right direction.",
        reading: "value_buffer (steps 5 and 6: 128-bit values, a location, a size and a capacity) ÷ co_allocated (step 4: 64-bit values, a scalar or a string's or array's handle), heap bytes per key on kv-health-only (each entity one float: no strings or arrays, so value_buffer's value buffer stays empty and the header's slots are what differ). The bloat read as more bytes per key, strictly above 1 (1.01 excludes a tie).",
        quantity: family_ratio(
            "bytes_per_key",
            "value_buffer",
            "co_allocated",
            "kv-health-only",
        ),
        rule: Rule::AtLeast(1.01),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: Some(
            "The article's step 5 alone (the 128-bit union before the value buffer) is not a design: value_buffer is steps 5 and 6 together. Its per-entity record also holds the handle of a value buffer (empty here), which co_allocated's does not, so the ratio holds more than the slot's growth.",
        ),
    },
    ClaimSpec {
        id: "D8",
        source: SOURCE,
        quote: "Since all our value data are now allocated in a single buffer we can use the buffer offset rather than the pointer to refer to the data. This saves us memory (from 64 bits to 32 bits) and as an added bonus, it also allows us to relocate the buffer without having to do pointer patching.",
        reading: "slim_values (step 7: 32-bit values, a u16 offset and a u16 size) ÷ value_buffer (step 6: the same header and value buffers with 128-bit values), heap bytes per key on kv-health-only (one float per entity: only the header's slots differ). Saving memory read as fewer bytes per key, strictly below 1 (0.99 excludes a tie).",
        quantity: family_ratio(
            "bytes_per_key",
            "slim_values",
            "value_buffer",
            "kv-health-only",
        ),
        rule: Rule::AtMost(0.99),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: Some(
            "The quote's before is a 64-bit pointer; value_buffer's slot is the 128 bits step 5 left, so the saving measured is larger than 64 → 32. \"Half the size of the STL version\" (co_allocated's 64-bit slot) is not compared: co_allocated keeps one buffer per entity where slim_values keeps two, so their bytes differ in more than the slot. Relocating a buffer without pointer patching is not measured: no workload moves a buffer.",
        ),
    },
    ClaimSpec {
        id: "D9a",
        source: SOURCE,
        quote: "Now the headers and the values can share the same free space and we don't have to reallocate the buffer until they meet in the middle. Nice!",
        reading: "meet_in_middle (header up, values down, one free space) ÷ two_regions (each with its own free space, the rejected layout), allocator calls per op seen by the counting allocator on kv-grow-strings (strings and arrays growing by appends: the calls are the buffers' reallocations). Fewer reallocations: strictly below 1 (the counts are exact; 0.99 excludes a tie).",
        quantity: QuantitySpec::ratio(
            heap_calls("meet_in_middle", "kv-grow-strings"),
            heap_calls("two_regions", "kv-grow-strings"),
        ),
        rule: Rule::AtMost(0.99),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D9b",
        source: SOURCE,
        quote: "Now the headers and the values can share the same free space and we don't have to reallocate the buffer until they meet in the middle. Nice!",
        reading: "D9a on the designs' own count over setup and body (alloc_calls_per_entity, measured in every run): meet_in_middle ÷ two_regions on kv-grow-strings, strictly below 1.",
        quantity: family_ratio(
            CALLS_PER_ENTITY,
            "meet_in_middle",
            "two_regions",
            "kv-grow-strings",
        ),
        rule: Rule::AtMost(0.99),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D10",
        source: SOURCE,
        quote: "Since the data is stored in a single buffer and doesn't contain any pointers it is fully relocatable. We can move it around in memory as we please and make copies of it with a simple memcpy(). If we want to save the data to disk, as a static resource or as part of a saved game, we don't need any special serialization code. We can just write and read the data directly.",
        reading: "meet_in_middle (step 8: one buffer per entity, its snapshot one copy of the buffer's bytes) ÷ slim_values (step 7: header and value buffers, its snapshot serialised entry by entry), time per entity snapshotted on kv-snapshot (the 6-key sheet): a simple memcpy read as no slower than the serialisation it does away with (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("meet_in_middle", "kv-snapshot"),
            time("slim_values", "kv-snapshot"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "A snapshot is a copy into a byte vector (the bytes a save would write), not a write to disk. kv-snapshot is not a cache-pass workload, so the claim is judged by time.",
        ),
    },
    ClaimSpec {
        id: "D11a",
        source: SOURCE,
        quote: "Now we are down to just two buffers: one for the header (keys and types), and one for the values (strings and arrays). Wouldn't it be great if we could merge them to use just a single allocation?",
        reading: "The ladder's last step, many → 3 → 1 allocations per component, on the article's own case (kv-health-only: entities with one health float): meet_in_middle (one buffer) ÷ flat_soa (three Vecs), allocator calls per op seen by the counting allocator. Three become one: at most 0.35 (a third plus the store's own table growth).",
        quantity: QuantitySpec::ratio(
            heap_calls("meet_in_middle", "kv-health-only"),
            heap_calls("flat_soa", "kv-health-only"),
        ),
        rule: Rule::AtMost(0.35),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "With one float per entity the naive tree is not \"many\": tree_strings allocates one key string per entry plus B-tree nodes, flat_soa its three arrays per growth (the points show both counts); the many are in the character sheet (D1, D2a).",
        ),
    },
    ClaimSpec {
        id: "D11b",
        source: SOURCE,
        quote: "Now we are down to just two buffers: one for the header (keys and types), and one for the values (strings and arrays). Wouldn't it be great if we could merge them to use just a single allocation?",
        reading: "D11a on the designs' own count (alloc_calls_per_entity, measured in every run, equal to the counting allocator's by impls/tests/integration/allocator_accounting.rs): meet_in_middle ÷ flat_soa on kv-health-only, at most 0.35.",
        quantity: family_ratio(
            CALLS_PER_ENTITY,
            "meet_in_middle",
            "flat_soa",
            "kv-health-only",
        ),
        rule: Rule::AtMost(0.35),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "D11c",
        source: SOURCE,
        quote: "We might have 1000 entities, each with a DataComponent that stores a single health float. Even if each component uses a contiguous buffer, that's still a lot of individual memory allocations.",
        reading: "meet_in_middle (one contiguous buffer per component) on kv-health-only (the quote's case), allocator calls per entity: still one allocation per entity, at least 1.",
        quantity: QuantitySpec::value(calls_per_entity("meet_in_middle", "kv-health-only")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: None,
    },
    ClaimSpec {
        id: "D11d",
        source: SOURCE,
        quote: "We might have 1000 entities, each with a DataComponent that stores a single health float. Even if each component uses a contiguous buffer, that's still a lot of individual memory allocations.",
        reading: "The answer the article defers to its allocator posts, judged on the counting allocator (the memory pass sees every global allocation, the design's own accounting aside): buddy_arena (every entity's buffer carved from shared buddy-allocated arenas) ÷ meet_in_middle (one buffer per entity), allocator calls per op on kv-health-only. No longer one allocation per entity: at most 0.1 of meet_in_middle's.",
        quantity: QuantitySpec::ratio(
            heap_calls("buddy_arena", "kv-health-only"),
            heap_calls("meet_in_middle", "kv-health-only"),
        ),
        rule: Rule::AtMost(0.1),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "buddy_arena's own count agrees with the counting allocator's (impls/tests/integration/allocator_accounting.rs): it once built every rebuilt buffer in an uncounted scratch Vec.",
        ),
    },
    ClaimSpec {
        id: "E2a",
        source: RESOURCES,
        quote: "It can also save memory, because the instance data will only contain the things you actually override, not everything that potentially could be overridden. So if you have many instances that use the default values, you don't have to store any data for them.",
        reading: "meet_in_middle (the article's end-point store, holding each instance's overrides) on kv-overrides-o0 (a defaults entity with the 6-key sheet, no instance overriding anything), allocator calls per entity: no data stored for an instance read as no allocation for it; at most 0.1 leaves room for the entity table's doublings (about log2 n calls) and the defaults entity's own buffer.",
        quantity: QuantitySpec::value(calls_per_entity("meet_in_middle", "kv-overrides-o0")),
        rule: Rule::AtMost(0.1),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "E2b",
        source: RESOURCES,
        quote: "It can also save memory, because the instance data will only contain the things you actually override, not everything that potentially could be overridden. So if you have many instances that use the default values, you don't have to store any data for them.",
        reading: "meet_in_middle's heap bytes per entity on kv-overrides (each of the 6 fields overridden with 10% chance: about half the instances override nothing, the article's many instances on defaults) ÷ on kv-overrides-o100 (every field overridden: each instance holds everything that could be overridden): \"save memory\" read as fewer bytes (≤ 1).",
        quantity: QuantitySpec::ratio(
            family("bytes_per_entity", "meet_in_middle", "kv-overrides"),
            family("bytes_per_entity", "meet_in_middle", "kv-overrides-o100"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article compares the override store with hard-coded instance fields; no design stores hard-coded fields, so the store holding every field (o100) stands in for them. Its per-key header (key, type, slot) makes it larger than a hard-coded struct would be, so the ratio overstates the saving against the article's baseline. The article's drawback, the extra query on every access, is not tested: it is a cost against reading a hard-coded field, which no design or reference loop does.",
        ),
    },
];

/// The catalogue's statements of these articles that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "D7",
        source: SOURCE,
        quote: "But in our case it doesn't really matter. The number of items is small and we control the pointers to them, so we can easily move them around and defragment the buffer when necessary. But in fact, we don't even have to do that. If we get fragmentation we will eventually run out of space. This will reallocate the buffer which will also defragment it. This is enough for our purposes.",
        reason: "\"Enough\" names no quantity to bound. Judging it needs value buffers that treat their holes otherwise (defragmented whenever a value moves, or never) to weigh the article's compact-on-reallocation against, and a metric of the holes' share of a value buffer; value_buffer and slim_values both compact only on reallocation, and bytes per key mixes their holes with the buffers' growth slack.",
    },
    UntestedSpec {
        id: "E2c",
        source: RESOURCES,
        quote: "On the other hand, there are drawbacks to this approach. Accessing value becomes a lot more complicated and expensive, because we always need to perform an extra query to find out if the instance has overridden the default value or not.",
        reason: "The extra query is a cost against reading the resource's value directly (a hard-coded field), which no design or reference loop does: every GetOr on kv-overrides queries the instance first. Comparing the fall-through of kv-overrides-o0 with the direct hit of kv-overrides-o100 does not isolate it, since the two also differ in the instances' footprint (empty components against full sheets), and the cache pass does not run kv-overrides, so no count separates the second query's work. A test needs a reference loop reading the defaults' values without the instance query, on the same trace.",
    },
];
