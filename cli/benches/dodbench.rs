//! `cargo bench`: the generic criterion driver over every family (see `dodbench::bench`).

fn main() {
    dodbench::bench::main();
}
