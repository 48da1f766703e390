//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p bench-harness --test integration MODULE`
//! runs one file's tests).

mod alloc_replay;
mod callgrind_parser;
mod components_replay;
mod criterion_output;
mod families;
mod locking_replay;
mod passes_on_designs;
mod readme_tables;
mod replay_matches_model;
mod resolved_bodies;
mod short_traces;
mod shrink;
mod spatial_replay;
mod spawn_replay;
mod support;
mod tags_replay;
