//! The workloads of the component managers ([`ComponentOp`](crate::ComponentOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).

pub mod frame;
pub mod gc;
pub mod lookup;
pub mod multi;
pub mod simulate;
pub mod simulate_sparse;
pub mod sync;
pub mod sync_random;

use crate::generate::{Entry, entry, variant};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(simulate, stale: false),
    entry!(simulate_sparse, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        simulate_sparse,
        "comp-simulate-sparse-d100",
        r#"{"density": 1.0}"#,
        "comp-simulate-sparse with every entity holding a point mass (the density sweep)"
    ),
    variant!(
        simulate_sparse,
        "comp-simulate-sparse-d50",
        r#"{"density": 0.5}"#,
        "comp-simulate-sparse at density 0.5"
    ),
    variant!(
        simulate_sparse,
        "comp-simulate-sparse-d1",
        r#"{"density": 0.01}"#,
        "comp-simulate-sparse at density 0.01"
    ),
    entry!(lookup, stale: false),
    entry!(frame, stale: false),
    entry!(gc, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        gc,
        "comp-gc-kill0",
        r#"{"kill_fraction": 0.0}"#,
        "comp-gc with no deaths: the GC steps alone (the kill-fraction sweep)"
    ),
    variant!(
        gc,
        "comp-gc-kill0p1",
        r#"{"kill_fraction": 0.001}"#,
        "comp-gc with 0.1% of the entities killed per frame"
    ),
    variant!(
        gc,
        "comp-gc-kill10",
        r#"{"kill_fraction": 0.1}"#,
        "comp-gc with 10% of the entities killed per frame"
    ),
    entry!(sync, stale: false),
    entry!(sync_random, stale: false),
    entry!(multi, stale: false),
];
