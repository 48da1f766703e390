//! Converters from outside trace formats into dodbench traces, one module per format.
//!
//! * [`wee_alloc`]: the allocation traces of the `wee_alloc` repository (`Alloc(SIZE),` /
//!   `Free(I),` lines) into block-allocator traces ([`AllocOp`](crate::AllocOp)).

pub mod wee_alloc;
