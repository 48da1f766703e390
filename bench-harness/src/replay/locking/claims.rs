//! The articles' claims this family's results answer (see `results::claim`).

use results::{Claim, Metric, Operand, Quantity, Rule, Sizes};

const SOURCE: &str = "002 Multithreaded Gameplay";

/// Time per job of `num` ÷ `den` on `workload`.
fn time_ratio(num: &str, den: &str, workload: &str) -> Quantity {
    Quantity::ratio(
        Operand::new(Metric::Time, num, workload),
        Operand::new(Metric::Time, den, workload),
    )
}

/// Every claim, in catalogue order.
pub(super) fn claims() -> Vec<Claim> {
    let h2_quote = "We could try to make the entire script API thread-safe. For example, we could put a critical section in each API call. But that is unlikely to make anyone happy. With so many critical sections, we will probably loose whatever performance we hoped to gain from multithreading.";
    let h3_quote = "Instead of synchronizing at each function call, what if we did it at the level of the API: Unit = LuaThreads.lock_api(\"Unit\", player, LockType.WRITE) … Unit.set_position(0, Vector3(0,0,0)) … LuaThreads.unlock_api(Unit)";
    let threads_note = "Timed at the bench's thread count (the machine's available parallelism, at most 64): on a 2-core machine that is 2 threads, where a lock's cost and contention are smallest; the verdict may change with cores.";
    vec![
        Claim {
            id: "H2".into(),
            source: SOURCE.into(),
            quote: h2_quote.into(),
            reading: "call_mutex (one std::sync::Mutex taken by each of a job's 3-4 API calls) ÷ single_thread (every job on one thread, no lock), time per job on lock-mixed (gameplay: read, raycast, push itself, 5% push another unit). \"Loose whatever performance we hoped to gain\" read as no speed-up left: at least 1.".into(),
            quantity: time_ratio("call_mutex", "single_thread", "lock-mixed"),
            rule: Rule::AtLeast(1.0),
            sizes: Sizes::EVERY,
            by_construction: false,
            note: Some(threads_note.into()),
        },
        Claim {
            id: "H3".into(),
            source: SOURCE.into(),
            quote: h3_quote.into(),
            reading: "api_batch (Physics read-locked and the written units' stripes write-locked once per batch of 16 jobs, in one global order) ÷ call_mutex (a lock per call), time per job on lock-mixed. Synchronising at the level of the API instead of each call, read as faster: at most 1.".into(),
            quantity: time_ratio("api_batch", "call_mutex", "lock-mixed"),
            rule: Rule::AtMost(1.0),
            sizes: Sizes::EVERY,
            by_construction: false,
            note: Some(threads_note.into()),
        },
    ]
}
