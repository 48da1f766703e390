//! Why two runs could not be compared.

use std::path::PathBuf;

/// Why two runs could not be compared (the CLI exits 2 on all of these).
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not JSON, or JSON without the fields every results file has.
    #[error("{path}: not a dodbench results or baseline file: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A schema version this dodbench does not read.
    #[error(
        "{path}: schema version {found}; compare reads results schema 1 to {} and baseline format 1",
        crate::schema::SCHEMA_VERSION
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// What the file says.
        found: String,
    },
    /// Simulated counts from different cache hierarchies.
    #[error(
        "simulated cache differs (base: {base}; new: {new}); regenerate the baseline with the new hierarchy"
    )]
    SimConfigMismatch {
        /// BASE's hierarchy.
        base: String,
        /// NEW's hierarchy.
        new: String,
    },
    /// The same benchmark on traces of different seeds.
    #[error(
        "{key}: trace seed {base} in base but {new} in new; compare runs with the same DODBENCH_SEED"
    )]
    SeedMismatch {
        /// The benchmark.
        key: String,
        /// BASE's seed.
        base: u64,
        /// NEW's seed.
        new: u64,
    },
    /// An explicit reference design that no benchmark of either run has.
    #[error(
        "reference design {name:?} is in neither run; designs in the runs: {}",
        designs.join(", ")
    )]
    UnknownReference {
        /// The name given.
        name: String,
        /// Every design name of the runs, sorted.
        designs: Vec<String>,
    },
    /// `--update-baseline` was pointed at something that is not a baseline.
    #[error("{path} is a results file, not a baseline; refusing to overwrite it")]
    NotABaseline {
        /// The file.
        path: PathBuf,
    },
    /// `--update-baseline` would lose benchmarks or record failures; the baseline is left
    /// untouched.
    #[error("refusing to update the baseline {path}: {reason}")]
    RefusedUpdate {
        /// The baseline.
        path: PathBuf,
        /// Why, and the flag that overrides it where one does.
        reason: String,
    },
}
