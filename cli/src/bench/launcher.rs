// The one name shared by the bench target (`benches/dodbench.rs`, which includes this file with
// `#[path]` so that it links no dodbench code) and the `dodbench` binary (`main.rs`).

/// Set by `cargo bench`'s target for the `dodbench` binary it runs: the binary is then the
/// criterion driver (`dodbench::bench::main`) with the bench's arguments, and the driver's own
/// child processes (`children.rs`), which run this binary again, inherit it.
pub const RUN_AS_BENCH: &str = "DODBENCH_RUN_AS_BENCH";
