//! Converters from outside trace formats into dodbench traces, one module per format.
//!
//! * [`wee_alloc`]: the allocation traces of the `wee_alloc` repository (`Alloc(SIZE),` /
//!   `Free(I),` lines) into block-allocator traces ([`AllocOp`](crate::AllocOp)). It lives with
//!   its family's files (`src/alloc/wee_alloc.rs`), whose recorded workloads it builds.

pub use crate::alloc::wee_alloc;
