//! `dodbench`: a benchmark suite of data-oriented storage designs, as a library.
//!
//! # Benchmark your own design
//!
//! One dependency, `dodbench`, gives a crate everything it needs to run its own type beside
//! every built-in design of a family (verified by the family's model checks, timed by the same
//! criterion driver, drawn in the same report) and to rank it on a recorded trace:
//!
//! * [`external`]: [`external::main`], the whole `main` of a `harness = false` bench;
//!   [`external::advise`], `dodbench advise` with the user's type included; the families'
//!   markers ([`external::replay`], one `<Name>Family` type each), the first type argument of
//!   both;
//! * [`impls`]: each family's design trait (`impls::<family>::<Trait>`, the second type
//!   argument's bound), its info type and [`impls::DesignKind::External`];
//! * [`workloads`]: the traces' types ([`workloads::Payload`], the object an ID table stores);
//! * [`results`]: the `results.json` a run writes (`results::Results`, `results::Status`).
//!
//! A crate's `benches/suite.rs` (`[[bench]] name = "suite"`, `harness = false`), with `MyTable`
//! its own ID table (the family's trait implemented, with an `INFO` of kind
//! `DesignKind::External`):
//!
//! ```no_run
//! # // The built-in `holey` design stands in for the user's type.
//! # mod my_crate { pub type MyTable<T> = dodbench::impls::id_table::holey::Holey<T>; }
//! use dodbench::external::replay::IdTableFamily;
//! use dodbench::workloads::Payload;
//!
//! fn main() {
//!     dodbench::external::main::<IdTableFamily, my_crate::MyTable<Payload>>();
//! }
//! ```
//!
//! `cargo bench` (`DODBENCH_QUICK=1` for the quick matrix) writes `results.json` and the report
//! under `$CARGO_TARGET_DIR/dodbench/`. `examples/external-design/` in dodbench's repository is
//! a complete such crate.
//!
//! # The rest: the `dodbench` binary's commands
//!
//! The public API is the list above and [`error_line`]. The `dodbench` binary's commands, one
//! module each (behind the thin `main.rs`: argument parsing and the counting global allocator),
//! and the criterion driver the binary runs for `benches/dodbench.rs` are modules of this crate
//! too, but implementation detail: `#[doc(hidden)] pub`, the idiom of divan's `__private`
//! rather than hecs's private modules, because the binary and the integration tests are other
//! crates that need them, and hidden modules keep those paths (`dodbench::bench::main`) while
//! the documentation shows one screen.
//!
//! Every command that runs designs is generic over the family: it visits
//! `bench_harness::families` and never names one. User mistakes (unknown names, bad files)
//! come back as errors for `main` to print as one line (exit status 2); `compare` can also
//! succeed with a failed gate (exit status 1).
#![deny(missing_docs)]

pub use impls;
pub use results;
pub use workloads;

pub mod external;

#[doc(hidden)]
pub mod ab;
#[doc(hidden)]
pub mod advise;
#[doc(hidden)]
pub mod bench;
#[doc(hidden)]
pub mod claims;
#[doc(hidden)]
pub mod compare;
#[doc(hidden)]
pub mod convert;
#[doc(hidden)]
pub mod docs;
#[doc(hidden)]
pub mod export;
#[doc(hidden)]
pub mod gen_trace;
#[doc(hidden)]
pub mod history;
#[doc(hidden)]
pub mod list;
#[doc(hidden)]
pub mod merge;
#[doc(hidden)]
pub mod passes;
#[doc(hidden)]
pub mod replay;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod shrink;

/// Outcome of a command that succeeded: `compare` can succeed and still fail the gate.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Nothing regressed (or the command has no gate).
    Pass,
    /// A deterministic metric or a verification regressed: exit status 1.
    Regressed,
}

/// The one line `main` prints for an error: its context chain joined by `: `, leaving out a
/// cause whose text an outer message already contains (errors that print their source, as
/// `thiserror` messages with `{source}` do, would otherwise print it twice).
///
/// ```
/// use std::fmt;
/// /// An error that prints its source, as `thiserror`'s `{source}` messages do.
/// #[derive(Debug)]
/// struct Read(std::io::Error);
/// impl fmt::Display for Read {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         write!(f, "cannot read x: {}", self.0)
///     }
/// }
/// impl std::error::Error for Read {
///     fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
///         Some(&self.0)
///     }
/// }
/// let io = std::io::Error::other("Is a directory");
/// let e = anyhow::Error::new(Read(io)).context("history h");
/// assert_eq!(dodbench::error_line(&e), "history h: cannot read x: Is a directory");
/// ```
pub fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}
