//! `dodbench`'s commands, one module each, behind the thin `main.rs` (argument parsing and the
//! counting global allocator). The criterion driver (`benches/dodbench.rs`) lives in this crate
//! too, the top of the dependency graph.
//!
//! Every command that runs designs is generic over the family: it visits
//! `bench_harness::families` and never names one.
//!
//! User mistakes (unknown names, bad files) come back as errors for `main` to print as one line
//! (exit status 2); `compare` can also succeed with a failed gate (exit status 1).
#![deny(missing_docs)]

pub mod ab;
pub mod compare;
pub mod convert;
pub mod export;
pub mod gen_trace;
pub mod history;
pub mod list;
pub mod passes;
pub mod replay;
pub mod report;

/// Outcome of a command that succeeded: `compare` can succeed and still fail the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Nothing regressed (or the command has no gate).
    Pass,
    /// A deterministic metric or a verification regressed: exit status 1.
    Regressed,
}
