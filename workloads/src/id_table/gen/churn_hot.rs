//! `churn-hot`: the article's warning about a LIFO free list: "if you create and delete objects
//! in quick succession they will all be assigned to the same index slot which means you
//! quickly run out of inner_ids for that slot".
//!
//! The objects live only briefly: each step adds an object and then removes the oldest of the
//! `window + 1` short-lived objects, so each lives `window` steps. Under a LIFO free list the
//! next add takes the slot just freed, so only `window + 1` slots are ever reused, each once
//! every `window + 1` steps: with the defaults (400 000 steps, window 4) each is reused 80 000
//! times, more than a 16-bit generation (65 536) can count. A FIFO free list with many free
//! slots spreads the reuse and does not wrap.
//!
//! Setup: `n - 1` adds; the last `hot = min(window, n - 1)` of them are the first short-lived
//! objects, the rest background. Body: `steps` × (`Add`, `Remove` of the oldest short-lived
//! object). `n - 1` objects are live between steps and the peak is `n`.

use std::collections::VecDeque;

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// body of quick add/remove of short-lived objects (exhausts generations under a LIFO free
    /// list)
    pub struct ChurnHotParams for "churn-hot" {
        /// Number of steps; each is one `Add` then one `Remove`, so the body has `2 * steps`
        /// ops. The default makes each reused slot exceed 2^16 generations under a LIFO free
        /// list with the default window.
        pub steps: usize = 400_000, in 1..=(MAX_OPS / 2),
        /// How many steps a short-lived object survives (0: removed right after its add, the
        /// harshest case); capped at `n - 1`.
        pub window: usize = 4, in 0..=MAX_OPS,
    }
}

/// See the module doc. The seed is unused (the trace has no random choices).
pub fn generate(n: usize, seed: u64, params: &ChurnHotParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        let hot = params.window.min(n.saturating_sub(1));
        let background = n.saturating_sub(1) - hot;
        for _ in 0..background {
            b.add();
        }
        let mut short_lived: VecDeque<_> = (0..hot).map(|_| b.add()).collect();
        b.start_body();
        if n > 0 {
            for _ in 0..params.steps {
                short_lived.push_back(b.add());
                let oldest = short_lived.pop_front().expect("just pushed");
                b.remove(oldest);
            }
        }
    })
}
