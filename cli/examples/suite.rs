//! The suite `cargo bench` runs, as a plain binary built by `cargo test` (the bench target
//! itself is built only by `cargo bench`, with fat LTO): `cli/tests/integration/readme_commands.rs` runs
//! it wherever the README or a page of `docs/` says `cargo bench`.

fn main() {
    dodbench::bench::main();
}
