//! The workloads of the spatial indices ([`SpatialOp`](crate::SpatialOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).
//!
//! Spatial indices ([`SpatialOp`](crate::SpatialOp); `n` is the number of points; see
//! `builder.rs` for the box: ~16 points per group of 2^n cells of side 2r, r = 4; work units
//! one per op):
//!
//! | workload          | setup (default params)              | body (default params)                              |
//! |-------------------|-------------------------------------|----------------------------------------------------|
//! | `sp-uniform`      | `n` uniform 2D points               | 1K queries at r, uniform centres                   |
//! | `sp-large-radius` | as `sp-uniform`                     | 1K queries at 10 r                                 |
//! | `sp-clustered`    | Gaussian clusters of 256, σ = 2 cells | 1K queries at r on random points                 |
//! | `sp-moving`       | as `sp-uniform`                     | 10 × (move 1% by ≤ r per axis, 100 queries at r)   |
//! | `sp-3d`           | `n` uniform 3D points (16 per 8 cells) | 1K queries at r                                 |

pub mod clustered;
pub mod large_radius;
pub mod moving;
pub mod uniform;
pub mod uniform_3d;

use crate::generate::{Entry, entry};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(uniform, stale: false),
    entry!(large_radius, stale: false),
    entry!(clustered, stale: false),
    entry!(moving, stale: false),
    entry!(uniform_3d, stale: false),
];
