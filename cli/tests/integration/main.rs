//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p dodbench --test integration MODULE`
//! runs one file's tests).

mod advise_cli;
mod cache_cli;
mod catalogue;
mod ci_workflow;
mod cli_basics;
mod compare_cli;
mod docs_blocks;
mod family_seams;
mod layers;
mod merge_cli;
mod output_paths;
mod passes_cli;
mod readme_commands;
mod report_cli;
mod shrink_cli;
mod support;
