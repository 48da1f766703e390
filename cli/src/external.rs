//! The suite as a library: run a family's verified workloads on a design from another crate,
//! beside every built-in design of that family (the [crate docs](crate) list what else a user
//! needs: `dodbench::impls`, `dodbench::workloads`, `dodbench::results`).
//!
//! A user implements the family's design trait for their type (for ID tables `IdTable<Payload>`,
//! with an `INFO` whose kind is [`impls::DesignKind::External`]) and writes, in their crate's
//! `benches/x.rs` (`harness = false`), naming the family's marker from [`replay`]:
//!
//! ```no_run
//! # mod my_crate { pub type MyTable<T> = dodbench::impls::id_table::holey::Holey<T>; }
//! fn main() {
//!     use dodbench::external::replay::IdTableFamily;
//!     use dodbench::workloads::Payload;
//!     dodbench::external::main::<IdTableFamily, my_crate::MyTable<Payload>>();
//! }
//! ```
//!
//! `cargo bench` (or `DODBENCH_QUICK=1 cargo bench`) then runs the family's matrix through the
//! same generic driver as dodbench's own `cargo bench`: the user's design is verified against
//! the family's model like any other (a wrong one is `failed` with the reason, never a number),
//! timed by criterion, and written to `results.json` and the HTML report under
//! `$CARGO_TARGET_DIR/dodbench/` (dodbench's own `target/` when unset). [`advise`] ranks every
//! design, the user's included, on a recorded trace.
//!
//! A family runs a user's type `D` when it implements [`HostsDesign<D>`] (one impl next to its
//! replayer).

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use bench_harness::replay::OpOf;

pub use crate::shrink::Source as ShrinkSource;

pub use crate::advise::{Advice, AdviseOptions};
#[doc(hidden)]
pub use bench_harness::families::ExternalDesign;
/// The families' markers (one `<Name>Family` type each): the first type argument of [`main`]
/// and [`advise`]. The rest of the module is the replay machinery they are built on.
pub use bench_harness::replay;
pub use bench_harness::replay::HostsDesign;

/// Runs family `F`'s benchmark matrix on the registered designs and on `D`, writes results and
/// the report: the whole `main` of a user's `harness = false` bench. Reads the same
/// environment (`DODBENCH_QUICK`, `DODBENCH_SIZES`, ...) and criterion arguments as dodbench's
/// own `cargo bench`.
pub fn main<F: HostsDesign<D>, D>() {
    crate::bench::run::<ExternalDesign<F, D>>();
}

/// `dodbench advise` with `D` among family `F`'s designs: ranks every design on the trace at
/// `trace` (which must be a trace of family `F`) and writes the report under `options.out`;
/// [`Advice::summary`] is the printed ranking. Simulated cache misses are skipped
/// (with the reason in the summary).
///
/// # Errors
/// The trace cannot be read or is of another family; the report cannot be written.
pub fn advise<F: HostsDesign<D>, D>(
    trace: &Path,
    options: &AdviseOptions,
) -> anyhow::Result<Advice> {
    let options = AdviseOptions {
        cache: Err(
            "the cache pass replays designs in a `dodbench sim-server` process, which \
                    has no design from another crate"
                .to_string(),
        ),
        ..options.clone()
    };
    crate::advise::advise_with::<ExternalDesign<F, D>>(trace, &options)
}

/// `dodbench shrink` for `D`, a design of family `F` from another crate: reduces the trace of
/// `source` (a file, or a workload generated as `cargo bench` generates it), on which `D`
/// fails verification, to the smallest trace found within `time_limit` that `D` still fails the
/// same way, and writes it (`shrunk.trace`) and a one-page account (`failure.txt`) into the
/// directory `out`.
///
/// # Errors
/// The trace cannot be read or generated, is of another family, `D` does not fail on it, or
/// `out` cannot be written.
pub fn shrink<F: HostsDesign<D>, D>(
    source: ShrinkSource<'_>,
    out: &Path,
    time_limit: Duration,
) -> anyhow::Result<()> {
    let design = bench_harness::replay::design::<F::Replayer>();
    let job = crate::shrink::ShrinkFamily {
        source,
        design: design.name(),
        out,
        time_limit,
    };
    let trace = job
        .prepare()?
        .try_into_family::<OpOf<F>>()
        .map_err(|other| {
            anyhow::anyhow!(
                "the trace is of the {} family, not {}",
                other.family(),
                F::NAME
            )
        })
        .context("cannot shrink it")?;
    crate::shrink::shrink_into(&job, design, trace).map(|_| ())
}
