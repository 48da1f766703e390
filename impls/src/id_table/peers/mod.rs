//! Thin adapters putting published crates behind [`IdTable`](super::IdTable), one file each.
