//! Reads a file given to `compare`, `export`, `history` or `ab-report`: a results file (any
//! schema version [`crate::schema::READABLE_VERSIONS`] lists) or a baseline, told apart by the baseline's `format` marker.

use std::path::Path;

use serde_json::Value;

use super::baseline::{BASELINE_FORMAT, Baseline};
use super::error::CompareError;
use super::run::Run;

impl Run {
    /// Reads a results file (any readable schema version) or a baseline file.
    ///
    /// # Errors
    /// [`CompareError::Io`] (missing file), [`CompareError::Corrupt`] (not JSON, or JSON
    /// without the core fields), [`CompareError::Version`] (another schema version).
    pub fn load(path: &Path) -> Result<Self, CompareError> {
        let text = std::fs::read_to_string(path).map_err(|source| CompareError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_json_str(path, &text)
    }

    /// Parses the text of a results or baseline file; `path` only names it in errors.
    ///
    /// # Errors
    /// As [`Run::load`], except I/O.
    pub fn from_json_str(path: &Path, text: &str) -> Result<Self, CompareError> {
        let value: Value = serde_json::from_str(text).map_err(|e| CompareError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        if value.get("format").and_then(Value::as_str) == Some(BASELINE_FORMAT) {
            return Baseline::from_value(path, value).map(|b| b.into_run(path.to_path_buf()));
        }
        Self::from_results_value(path, value)
    }
}
