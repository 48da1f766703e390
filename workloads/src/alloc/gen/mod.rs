//! The workloads of the block allocators ([`AllocOp`](crate::AllocOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).
//!
//! Block allocators ([`AllocOp`](crate::AllocOp); `n` is the number of live blocks or arrays):
//!
//! | workload                 | setup (default params)                          | body (default params)                                     | body ops at n = 1K / 64K / 1M |
//! |--------------------------|-------------------------------------------------|-----------------------------------------------------------|-------------------------------|
//! | `alloc-vector-doubling`  | `n` Alloc 16 B, each grown to a random stage     | 100K steps: double (Realloc 2x), 5% halve, restart at target | about 130K                 |
//! | `alloc-random-mix`       | `n` Alloc, log-uniform 16 B..1 KiB               | 100K of 40% Alloc, 40% Free, 20% Realloc                  | 100K                          |
//! | `alloc-every-other-leaf` | `n` Alloc 16 B                                   | `ceil(n/2)` Free (even handles), `ceil(n/2)` Alloc 32 B   | 1K / 64K / 1M                 |
//! | `alloc-fixed-size`       | `n` Alloc 24 B (`size`)                          | 100K random Free / Alloc of that size                     | 100K                          |
//! | `alloc-wee-*` (6)        | —                                                | a real program's recording (82 to 46K ops)                | n ignored                     |

pub mod every_other_leaf;
pub mod fixed_size;
pub mod random_mix;
pub mod vector_doubling;
pub mod wee;

pub use wee::{
    alloc_wee_cpp_demangle, alloc_wee_dogfood, alloc_wee_ffmpeg, alloc_wee_find, alloc_wee_grep,
    alloc_wee_ls,
};

use crate::generate::{Entry, entry};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(vector_doubling, stale: false),
    entry!(random_mix, stale: false, check: random_mix::check),
    entry!(every_other_leaf, stale: false),
    entry!(fixed_size, stale: false),
    entry!(alloc_wee_cpp_demangle, recorded),
    entry!(alloc_wee_dogfood, recorded),
    entry!(alloc_wee_ffmpeg, recorded),
    entry!(alloc_wee_find, recorded),
    entry!(alloc_wee_grep, recorded),
    entry!(alloc_wee_ls, recorded),
];
