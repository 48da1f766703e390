//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p workloads --test integration MODULE`
//! runs one file's tests).

mod alloc_generators;
mod format;
mod generators;
mod tags_generators;
