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
pub mod advise;
pub mod bench;
pub mod claims;
pub mod compare;
pub mod convert;
pub mod export;
pub mod external;
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
