//! Starts or extends `results.json` for the machine and tree being measured: what the schema
//! crate (`results`) cannot know by itself (the probed machine, the commit, the compiler).

use std::path::Path;

use results::{Results, ResultsError};

use crate::suite::{current_commit, toolchain, unix_now};

/// An empty run measured on this machine, at the current commit, in `mode` (`quick` or
/// `full`).
pub fn new_results(mode: &str) -> Results {
    Results::empty(
        crate::machine::probe(),
        current_commit(),
        toolchain().to_string(),
        unix_now(),
        mode,
    )
}

/// Loads `path` if it exists, else starts [`new_results`], so a measurement pass can merge
/// its fields into whatever `cargo bench` wrote.
///
/// # Errors
/// The file exists but cannot be read or is of an unreadable version.
pub fn load_or_new(path: &Path, mode: &str) -> Result<Results, ResultsError> {
    Results::load_or(path, || new_results(mode))
}
