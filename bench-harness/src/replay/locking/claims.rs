//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order; the
//! family's `Family::claims` converts them to the `results::Claim`s a run records.

use results::claim_spec::time;
use results::{ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes};

const SOURCE: &str = "002 Multithreaded Gameplay";

/// `lock-mixed` and the points of its script-work sweep, by the iterations of script work
/// between API calls.
const SCRIPT_WORK: [(&str, f64); 5] = [
    ("lock-mixed-c0", 0.0),
    ("lock-mixed", 64.0),
    ("lock-mixed-c128", 128.0),
    ("lock-mixed-c256", 256.0),
    ("lock-mixed-c1024", 1024.0),
];

/// Time per job of `num` ÷ `den` on each workload of [`SCRIPT_WORK`].
const fn across_script_work(
    num: &'static str,
    den: &'static str,
) -> [(OperandSpec, OperandSpec, f64); 5] {
    let mut out = [(time(num, ""), time(den, ""), 0.0); 5];
    let mut i = 0;
    while i < SCRIPT_WORK.len() {
        let (workload, x) = SCRIPT_WORK[i];
        out[i] = (time(num, workload), time(den, workload), x);
        i += 1;
    }
    out
}

/// What the sweep's `x` is.
const SCRIPT_WORK_PARAM: &str = "iterations of script work between API calls";

/// H2's ratios across the script's work.
const H2_ACROSS: [(OperandSpec, OperandSpec, f64); 5] =
    across_script_work("call_mutex", "single_thread");

/// H3's ratios across the script's work.
const H3_ACROSS: [(OperandSpec, OperandSpec, f64); 5] =
    across_script_work("api_batch", "call_mutex");

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
        reading: "call_mutex (one std::sync::Mutex taken by each of a job's 3-4 API calls) ÷ single_thread (every job on one thread, no lock), time per job on lock-mixed (gameplay: read, raycast, push itself, 5% push another unit), read across the script's own work between API calls (0 to 1,024 iterations of its loop; 64 in lock-mixed itself). \"Loose whatever performance we hoped to gain\" read as no speed-up left: at least 1. How much work a script does between calls decides it, so the answer is the crossover: the work below which per-call locks lose, and single_thread's time per job there.",
        quantity: QuantitySpec::RatioAcross {
            param: SCRIPT_WORK_PARAM,
            points: &H2_ACROSS,
        },
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(THREADS_NOTE),
    },
    ClaimSpec {
        id: "H3",
        source: SOURCE,
        quote: H3_QUOTE,
        reading: "api_batch (Physics read-locked and the written units' stripes write-locked once per batch of 16 jobs, in one global order) ÷ call_mutex (a lock per call), time per job on lock-mixed, read across the script's own work between API calls as H2 is. Synchronising at the level of the API instead of each call, read as faster: at most 1.",
        quantity: QuantitySpec::RatioAcross {
            param: SCRIPT_WORK_PARAM,
            points: &H3_ACROSS,
        },
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(THREADS_NOTE),
    },
];
