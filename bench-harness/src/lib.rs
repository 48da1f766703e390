//! dodbench's harness: joins designs (`impls`) and workloads (`workloads`), replays traces,
//! verifies every replay against a model, and measures.
#![deny(missing_docs)]
