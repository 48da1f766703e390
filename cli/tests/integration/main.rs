//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p dodbench --test integration MODULE`
//! runs one file's tests).
//!
//! libtest starts the tests in the order of their names, as many at once as the machine has
//! cores, so a long test named late runs alone at the end while the other cores idle. The
//! longest, `documented_commands` (one command after another), is named to start early; to
//! see a module's share, `cargo nextest run -p dodbench --test integration` prints each
//! test's time.

mod advise_cli;
mod cache_cli;
mod catalogue;
mod ci_workflow;
mod cli_basics;
mod compare_cli;
mod docs_blocks;
mod documented_commands;
mod family_seams;
mod layers;
mod merge_cli;
mod output_paths;
mod passes_cli;
mod report_cli;
mod shrink_cli;
mod support;
