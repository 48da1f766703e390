//! The articles' claims this family's results answer (see `results::claim`): seed 000/001 (the
//! ID lookup table) and seed 004's pool claims (the stable-pointer pools).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order, and
//! `UNTESTED` the catalogue's statements no claim tests (`results::UntestedSpec`); the
//! family's `Family::claims` and `Family::untested` convert them to what a run records.

use results::claim_spec::{d1, instructions, time, verified};
use results::{ClaimMetric, ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes, UntestedSpec};

const ID_TABLE: &str = "000 The ID Lookup Table";
const POOL: &str = "004 Stable pointer dynamic array, part 3";

const FIFO_QUOTE: &str = "To prevent that, you want to make sure that you always have a \
                          certain number of elements in the free list (allocate more if you run \
                          low) and rewrite it as a FIFO. If you always have N free objects and \
                          use a FIFO free list, then you are guaranteed that you won’t see an \
                          inner_id collision until you have created at least N * 64 K objects.";

const SPLIT_QUOTE: &str = "Of course you can slice and dice the 32 bits in other ways if you \
                           hare different limits on the maximum number of objects. You have to \
                           crunch the numbers for your particular case to see if you can get by \
                           with a 32 bit ID.";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "A1",
        source: ID_TABLE,
        quote: "All objects are allocated individually on the heap, which gives bad cache \
                behavior and the map lookup results in tree walking which is also bad for \
                the cache.",
        reading: "map-btree (the STL method: boxed objects behind an ordered map) against \
                  holey (the article's array with holes, its \"best possible cache \
                  behavior\") on lookup-uniform, in simulated D1 misses per lookup: \"bad \
                  cache behavior\" read as more misses per lookup than the array.",
        quantity: QuantitySpec::ratio(
            d1("map-btree", "lookup-uniform"),
            d1("holey", "lookup-uniform"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's std::map is a red-black tree, one node per entry; Rust's \
             BTreeMap keeps up to 11 keys per node, so its tree walk touches fewer lines \
             than the article's.",
        ),
    },
    ClaimSpec {
        id: "A2a",
        source: ID_TABLE,
        quote: "We can switch the map to a hash_map for slightly better performance, but \
                that still leaves a lot of unnecessary pointer chasing.",
        reading: "map-hash ÷ map-btree, time per op on article-mix (the suite's stand-in \
                  for the article's quick test: 80% Get, 10% Remove, 10% Add). \"Slightly \
                  better\" read as faster by less than 2×: a ratio within [0.5, 1].",
        quantity: QuantitySpec::ratio(
            time("map-hash", "article-mix"),
            time("map-btree", "article-mix"),
        ),
        rule: Rule::Between(0.5, 1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article compares std::map (red-black tree) with a pre-C++11 hash_map; \
             ours are std BTreeMap (B-tree) and std HashMap (SipHash-1-3, fixed keys), \
             both over individually boxed objects.",
        ),
    },
    ClaimSpec {
        id: "A2b",
        source: ID_TABLE,
        quote: "We can switch the map to a hash_map for slightly better performance, but \
                that still leaves a lot of unnecessary pointer chasing.",
        reading: "map-hash ÷ holey, simulated D1 misses per lookup on lookup-uniform: each \
                  pointer chased is a line the array does not touch; \"a lot\" read as at \
                  least twice the array's misses.",
        quantity: QuantitySpec::ratio(
            d1("map-hash", "lookup-uniform"),
            d1("holey", "lookup-uniform"),
        ),
        rule: Rule::AtLeast(2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "A3",
        source: ID_TABLE,
        quote: "This is a lot better than the STL solution. Insertion and removal is O(1). \
                Lookup is just array indexing, which means it is very fast. In a \
                quick-and-dirty-don't-take-it-too-seriously test this was 40 times faster \
                than the STL solution.",
        reading: "map-btree ÷ holey, time per op on article-mix: \"40 times faster\" read \
                  as 40 within a factor of four either way (10× to 160×). The author calls \
                  the test quick and dirty and gives neither its op mix, its sizes nor its \
                  object type, and the ratio of an ordered map to an array moves with the \
                  size, as the map's tree outgrows each cache level while the array's \
                  lookup stays one indexed load: a factor of four spans the sizes this \
                  workload runs (each size's value is shown), where \"at least 10×\" \
                  would accept any larger number and \"40 ± 10 %\" would test the \
                  article's unknown machine and size rather than its claim.",
        quantity: QuantitySpec::ratio(
            time("map-btree", "article-mix"),
            time("holey", "article-mix"),
        ),
        rule: Rule::Between(10.0, 160.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's test (op mix, sizes, object type) is unknown; article-mix is \
             lookup-heavy (\"the most common operation\") with steady adds and removes. \
             Its STL side is std::map over `new`ed objects; ours a BTreeMap over boxed \
             objects, and holey keeps a per-slot generation where the article uses one \
             global inner_id counter.",
        ),
    },
    ClaimSpec {
        id: "A5",
        source: ID_TABLE,
        quote: FIFO_QUOTE,
        reading: "holey32 (16-bit index + 16-bit generation, FIFO free list keeping \
                  N = 1,024 slots free) on churn-hot-stale (70,000 short-lived objects \
                  created and removed in quick succession, each looked up again, stale, \
                  65,536 steps after its add): the trace removes 70,000 objects, far \
                  below N × 64K, so no stale ID may resolve: verified (≥ 1).",
        quantity: QuantitySpec::value(verified("holey32", "churn-hot-stale")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The design's proven horizon is (N + 1) × 2^16 − 1 = 67,174,399 removals, the \
             article's N × 64K. At N = 65,536 live objects the design's capacity refuses \
             the trace before it runs, which is no answer to judge: with 1,024 slots \
             always free a 16-bit index holds at most 64,512 live objects. The article's premise (\"never more than 64 K objects live\") and \
             its N free slots share the same 64K indices; its arithmetic does not \
             subtract them.",
        ),
    },
    ClaimSpec {
        id: "A6",
        source: ID_TABLE,
        quote: "The code above uses a standard free list implementation that acts as a \
                LIFO stack. This means that if you create and delete objects in quick \
                succession they will all be assigned to the same index slot which means \
                you quickly run out of inner_ids for that slot.",
        reading: "holey32_lifo (16-bit index + 16-bit generation, LIFO free list) on \
                  churn-hot-stale (each short-lived object reuses the slot just freed, \
                  and the stale lookups are of objects added 65,536 reuses of that slot \
                  ago): running out of inner_ids read as a stale ID resolving to a live \
                  object, so the design fails verification (≤ 0).",
        quantity: QuantitySpec::value(verified("holey32_lifo", "churn-hot-stale")),
        rule: Rule::AtMost(0.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "A7a",
        source: ID_TABLE,
        quote: SPLIT_QUOTE,
        reading: "holey32_20_12 (20-bit index + 12-bit generation, FIFO with 1,024 free) \
                  on churn-hot-stale: crunching the numbers, its stale-ID horizon of \
                  (1,024 + 1) × 2^12 − 1 = 4,198,399 removals covers the trace's 70,000, \
                  so the split gets by: verified (≥ 1).",
        quantity: QuantitySpec::value(verified("holey32_20_12", "churn-hot-stale")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: None,
    },
    ClaimSpec {
        id: "A7b",
        source: ID_TABLE,
        quote: SPLIT_QUOTE,
        reading: "holey32_24_8 (24-bit index + 8-bit generation, FIFO with 1,024 free) on \
                  churn-hot-stale: its horizon of (1,024 + 1) × 2^8 − 1 = 262,399 removals \
                  still covers the trace's 70,000: verified (≥ 1).",
        quantity: QuantitySpec::value(verified("holey32_24_8", "churn-hot-stale")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: Some(
            "No workload removes more hot objects than a split's horizon with stale \
             lookups behind it (churn-hot's 400,000 removals have no stale lookups), so \
             the horizons are tested from below only.",
        ),
    },
    ClaimSpec {
        id: "A7c",
        source: ID_TABLE,
        quote: SPLIT_QUOTE,
        reading: "The capacity side: holey32_20_12 (capacity 2^20 − 1,024 = 1,047,552) on \
                  lookup-uniform, whose largest size holds 1,000,000 live objects (beyond \
                  the 16/16 split's 64,512, which refuses it): a different maximum number \
                  of objects, a different split that gets by: verified (≥ 1).",
        quantity: QuantitySpec::value(verified("holey32_20_12", "lookup-uniform")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: None,
    },
    ClaimSpec {
        id: "A7d",
        source: ID_TABLE,
        quote: SPLIT_QUOTE,
        reading: "holey32_24_8 (capacity 2^24 − 1,024 = 16,776,192) on iterate-holes, whose \
                  setup peaks at 2n live objects (2,000,000 at N = 1,000,000, beyond \
                  holey32_20_12's 1,047,552): verified (≥ 1).",
        quantity: QuantitySpec::value(verified("holey32_24_8", "iterate-holes")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: None,
    },
    ClaimSpec {
        id: "A8",
        source: ID_TABLE,
        quote: "On the other hand, the system objects are packed tight in memory which \
                means that they can be updated more efficiently.",
        reading: "packed (dense objects behind an index table) ÷ holey (the array with \
                  holes), time per visited object on iterate-holes (n live objects in 2n \
                  slots): \"more efficiently\" read as faster.",
        quantity: QuantitySpec::ratio(
            time("packed", "iterate-holes"),
            time("holey", "iterate-holes"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "A9",
        source: ID_TABLE,
        quote: "But if the array has 50 % objects and 50 % holes, the loop will touch \
                twice as much memory as necessary.",
        reading: "holey's simulated D1 misses per live object visited on iterate-holes (n \
                  live in 2n slots: 50% holes) ÷ the same on iterate-full (n live, no \
                  holes): a streaming loop misses once per line it touches, so the ratio \
                  is the memory touched; \"twice\" read as within [1.8, 2.2].",
        quantity: QuantitySpec::ratio(d1("holey", "iterate-holes"), d1("holey", "iterate-full")),
        rule: Rule::Between(1.8, 2.2),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "Callgrind's cache model has no prefetcher, so every line streamed counts as \
             a miss; a hardware prefetcher hides part of the cost in time, not the memory \
             touched. The object is 32 bytes (the payload's default); iterate-holes has \
             no 8- or 128-byte variant.",
        ),
    },
    ClaimSpec {
        id: "A10",
        source: ID_TABLE,
        quote: "This means that we pay the cost of an extra array lookup whenever we \
                resolve the ID.",
        reading: "packed ÷ holey, time per lookup on lookup-uniform (every live object \
                  looked up once per pass, in random order): the extra lookup in the \
                  index table read as any extra cost (≥ 1).",
        quantity: QuantitySpec::ratio(
            time("packed", "lookup-uniform"),
            time("holey", "lookup-uniform"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "A11",
        source: ID_TABLE,
        quote: "Note that the system update doesn't have to touch or care about the index \
                array. Whether this is a net win depends on how the system is used, but my \
                guess is that in most cases more items are touched internally than are \
                referenced externally.",
        reading: "packed ÷ holey, time per op on frame (each frame updates every object, \
                  looks up 10% of them by ID and despawns and spawns 1%: more items \
                  touched internally than referenced externally): the guess read as \
                  \"the packed array is a net win on such a frame\" (≤ 1).",
        quantity: QuantitySpec::ratio(time("packed", "frame"), time("holey", "frame")),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "frame's holes are only the 1% despawned per frame, and holey refills them, so \
             holey iterates an almost dense array here: the packed array's gain is the \
             skipped alive check, not skipped holes (iterate-holes is A8).",
        ),
    },
    ClaimSpec {
        id: "A12",
        source: ID_TABLE,
        quote: "One drawback with the approach sketched above is that since the index is \
                exposed externally, the system cannot reorganize its objects in memory for \
                maximum performance. (Reader comment 19: \"There can be a lookup array \
                that offers a level of indirection. That allows for resorting.\")",
        reading: "packed, whose index table lets it reorder its objects, on \
                  lookup-key-order-sorted (objects sorted by the consumer's key in the \
                  setup, then looked up in that key order) ÷ on lookup-key-order (same \
                  walk, objects unsorted), time per lookup: reorganising read as paying \
                  (≤ 1).",
        quantity: QuantitySpec::ratio(
            time("packed", "lookup-key-order-sorted"),
            time("packed", "lookup-key-order"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The two workloads are timed in different cells, so the ratio is of medians, \
             not paired round by round. holey cannot reorder (it runs the sorted workload \
             unsorted), which is the article's drawback itself, not a measurement.",
        ),
    },
    ClaimSpec {
        id: "B6a",
        source: POOL,
        quote: "amikor el szeretnénk érni az adott objektumhoz tartozó komponens(eke)t, \
                akkor ismét egy extra memóriaolvasásunk van (when we want to reach the \
                component(s) of an object, we again have an extra memory read): először \
                a pointerünk által tárolt adatot dereferáljuk, majd utána ugrunk a pool \
                tömbjének az adott elemére (first we dereference the data our pointer \
                holds, then jump to the element of the pool's array)",
        reading: "packed_boxed_handles (swap-remove dense array, each handle a \
                  heap-allocated index cell: the article's first version) ÷ pool (stable \
                  slots reached directly: its second version), simulated D1 misses per \
                  lookup on lookup-uniform: the extra read read as more misses (≥ 1).",
        quantity: QuantitySpec::ratio(
            d1("packed_boxed_handles", "lookup-uniform"),
            d1("pool", "lookup-uniform"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "B6b",
        source: POOL,
        quote: "ha csak simán létrehozzuk a mi kis stabil pointerünkhöz tartozó \
                objektumokat, akkor ismét sikerült az egyik problémát előidéznünk \
                (fragmentation) (if we just create the objects behind our little stable \
                pointer, we have brought back one of the problems: fragmentation)",
        reading: "packed_boxed_handles' allocator calls per added object on fill (the \
                  memory pass's counting allocator): one heap cell per object read as at \
                  least one allocation per add.",
        quantity: QuantitySpec::value(OperandSpec::new(
            ClaimMetric::AllocCallsPerOp,
            "packed_boxed_handles",
            "fill",
        )),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: None,
    },
    ClaimSpec {
        id: "B7a",
        source: POOL,
        quote: "az elemenként 2 extra pointer (lehetne mondjuk id is) minimum 8 byte-al \
                növelik a memóriaszükségletet (the 2 extra pointers per element (they \
                could be ids) grow the memory need by at least 8 bytes)",
        reading: "pool_linked (the vector + list hybrid: u32 prev/next per slot) ÷ pool \
                  (same slots without the links), heap bytes per object on iterate-full: \
                  at least 8 bytes more on pool's 48-byte slot (a 32-byte object, alive \
                  flag, generation and free link), i.e. ≥ 56/48; the bound is written \
                  1.16 to stay clear of rounding (7 bytes more would be 55/48 = 1.146).",
        quantity: QuantitySpec::ratio(
            OperandSpec::new(ClaimMetric::BytesPerObject, "pool_linked", "iterate-full"),
            OperandSpec::new(ClaimMetric::BytesPerObject, "pool", "iterate-full"),
        ),
        rule: Rule::AtLeast(1.16),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's links are pointers (8 bytes each on a 64-bit machine, 16 per \
             element); it names ids as the alternative, which pool_linked uses (2 × u32). \
             The claim's model has no difference of two operands, so the 8 bytes are \
             stated as a ratio on pool's documented 48-byte slot.",
        ),
    },
    ClaimSpec {
        id: "B7b",
        source: POOL,
        quote: "Ezeket a prev és next pointereket természetesen új elem beszúrásakor és \
                eltávolításakor is frissíteni kellett, viszont általuk a végigiterálás \
                könnyű volt (these prev and next pointers of course had to be updated on \
                every insert and removal too, but they made iteration easy)",
        reading: "pool_linked ÷ pool, simulated instructions per op on churn (remove a \
                  random object, add one): the link updates read as extra work on insert \
                  and remove (≥ 1).",
        quantity: QuantitySpec::ratio(
            instructions("pool_linked", "churn"),
            instructions("pool", "churn"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "B7c",
        source: POOL,
        quote: "Azt tapasztaltam a kezdeti mérések során, hogy ez az extra munka nem \
                feltétlen éri meg (I found in my first measurements that this extra work \
                is not necessarily worth it)",
        reading: "pool_linked ÷ pool, time per op on frame (update every object, look 10% \
                  up by ID, despawn and spawn 1%): \"not worth it\" read as the linked \
                  pool being no faster over a whole frame (≥ 1).",
        quantity: QuantitySpec::ratio(time("pool_linked", "frame"), time("pool", "frame")),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The author's measurements are not described. On iterate-holes, with half the \
             slots empty, following the live list can pay; a frame has few holes.",
        ),
    },
    ClaimSpec {
        id: "B9",
        source: POOL,
        quote: "feltehetjük, hogy az eltávolítás lehet egy lassabb művelet, amely még így \
                is csak O(log n) lenne, hiszen rendezett tömbben lehet bináris keresést \
                csinálni (we may assume that removal can be a slower operation, which \
                would still only be O(log n), since a sorted array can be binary-searched)",
        reading: "pool_sorted_vec (the article's free indices in a vector sorted high to \
                  low: lower_bound + insert on remove) ÷ pool (O(1) LIFO remove), time \
                  per remove on remove-random (the body removes half the objects, so the \
                  free list grows to n/2). O(log n) read generously: at most one extra \
                  probe per bit of the free list beyond pool's O(1) remove, 1 + \
                  log2(65,536) = 17× at every size the suite runs it at (N ≤ 65,536).",
        quantity: QuantitySpec::ratio(
            time("pool_sorted_vec", "remove-random"),
            time("pool", "remove-random"),
        ),
        rule: Rule::AtMost(17.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The binary search is O(log n), but the vector insert after it shifts every \
             smaller free index: a memmove of O(free) entries, so the remove is O(n) \
             (the catalogue's reading). At 1M objects the design refuses remove-random \
             (over 2^35 index shifts), so the suite has two sizes and no exponent can be \
             fitted; the test is the bound at each size, and how the ratio grows from \
             N = 1,000 to 65,536.",
        ),
    },
    ClaimSpec {
        id: "B10a",
        source: POOL,
        quote: "Természetesen mindennek ára van: sosem lesz olyan gyors, mint egy vector \
                … Amennyiben félre tudjuk tenni a stabilitást, úgy a legjobb választás \
                (nagyjából minden esetben) a vector (of course everything has its price: \
                it will never be as fast as a vector … if we can set stability aside, the \
                best choice (in nearly every case) is the vector)",
        reading: "pool ÷ ref-vec (a plain Vec of the live objects, the reference loop), \
                  time per visited object on iterate-full (no holes): \"never as fast\" \
                  read as slower (≥ 1).",
        quantity: QuantitySpec::ratio(
            time("pool", "iterate-full"),
            time("ref-vec", "iterate-full"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "B10b",
        source: POOL,
        quote: "sosem lesz olyan gyors, mint egy vector (it will never be as fast as a \
                vector)",
        reading: "pool ÷ ref-vec, time per visited live object on iterate-holes (n live \
                  objects left in 2n slots; the vector holds the n packed): slower \
                  (≥ 1).",
        quantity: QuantitySpec::ratio(
            time("pool", "iterate-holes"),
            time("ref-vec", "iterate-holes"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
];

/// The catalogue's statements of these articles that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = &[
    UntestedSpec {
        id: "A4",
        source: ID_TABLE,
        quote: "If you care about performance and use std::vector<T> you should make a \
                variant of it (call it array<T> for example) that doesn't call constructors \
                or initializes memory. … A dynamic vector<T> buffer that grows and shrinks a \
                lot can spend a huge amount of time doing completely unnecessary \
                constructor calls.",
        reason: "The cost is of C++'s std::vector, which constructs the elements it \
                 resizes to. Rust's Vec never does: reserve and push construct nothing, so \
                 every design already is the article's array<T>. A test needs a buffer that \
                 default-constructs on growth (a resize-with-default ablation of a design) \
                 beside one that does not, on a grow-and-shrink workload; the suite has \
                 neither the ablation nor a workload whose buffers shrink and regrow.",
    },
    UntestedSpec {
        id: "B8",
        source: POOL,
        quote: "Látszik, hogy nagy elemszám esetén ez igencsak lyukacsossá teheti a poolt, \
                ha az eltávolítás+hozzáadás egy megfelelően gyakori esemény (it shows that \
                with many elements this can make the pool very holey, if removal + addition \
                is a frequent enough event)",
        reason: "The LIFO free list differs from the lowest-hole-first pools (pool_lowest, \
                 pool_sorted_vec) only in which holes stay empty when fewer objects are \
                 added than were removed. The workloads that iterate after removals never \
                 add back (iterate-holes) or add back as many as they removed before the \
                 next pass (frame), and either way every free list leaves the same holes; \
                 churn and article-mix, where the holes can differ in between, never \
                 iterate. A test needs a workload that removes many objects, adds back part \
                 of them and then iterates, and a metric of how the live objects spread \
                 over the slots (the span from the first to the last live slot).",
    },
];
