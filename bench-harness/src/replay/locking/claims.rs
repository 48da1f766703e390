//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order; the
//! family's `Family::claims` converts them to the `results::Claim`s a run records.

use results::claim_spec::time;
use results::{ClaimSpec, QuantitySpec, Rule, Sizes};

const SOURCE: &str = "002 Multithreaded Gameplay";

/// Time per job of `num` ÷ `den` on `workload`.
const fn time_ratio(num: &'static str, den: &'static str, workload: &'static str) -> QuantitySpec {
    QuantitySpec::ratio(time(num, workload), time(den, workload))
}

/// The quote of H2.
const H2_QUOTE: &str = "We could try to make the entire script API thread-safe. For example, we could put a critical section in each API call. But that is unlikely to make anyone happy. With so many critical sections, we will probably loose whatever performance we hoped to gain from multithreading.";

/// The quote of H3.
const H3_QUOTE: &str = "Instead of synchronizing at each function call, what if we did it at the level of the API: Unit = LuaThreads.lock_api(\"Unit\", player, LockType.WRITE) … Unit.set_position(0, Vector3(0,0,0)) … LuaThreads.unlock_api(Unit)";

/// The note of H2 and H3.
const THREADS_NOTE: &str = "Timed at the bench's thread count (the machine's available parallelism, at most 64): on a 2-core machine that is 2 threads, where a lock's cost and contention are smallest; the verdict may change with cores.";

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "H2",
        source: SOURCE,
        quote: H2_QUOTE,
        reading: "call_mutex (one std::sync::Mutex taken by each of a job's 3-4 API calls) ÷ single_thread (every job on one thread, no lock), time per job on lock-mixed (gameplay: read, raycast, push itself, 5% push another unit). \"Loose whatever performance we hoped to gain\" read as no speed-up left: at least 1.",
        quantity: time_ratio("call_mutex", "single_thread", "lock-mixed"),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(THREADS_NOTE),
    },
    ClaimSpec {
        id: "H3",
        source: SOURCE,
        quote: H3_QUOTE,
        reading: "api_batch (Physics read-locked and the written units' stripes write-locked once per batch of 16 jobs, in one global order) ÷ call_mutex (a lock per call), time per job on lock-mixed. Synchronising at the level of the API instead of each call, read as faster: at most 1.",
        quantity: time_ratio("api_batch", "call_mutex", "lock-mixed"),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(THREADS_NOTE),
    },
];
