//! A benchmark's [`Status`] in a results file: verified, failed, unsupported or unmeasured.
//! Re-exported by [`crate::schema`].

use serde::{Deserialize, Serialize};

/// Whether a design was timed, and if not why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The replay gave the model's answers; the benchmark carries its measurements.
    Verified,
    /// The replay gave other answers, refused an op or broke an invariant: a bug, not timed.
    Failed,
    /// The design's documented limits exclude the trace (fixed capacity, no stale detection or
    /// a stale-ID horizon the trace passes, a tag cap, an alignment it cannot give); not timed.
    Unsupported,
    /// An entry created by a measurement pass before any verification.
    Unmeasured,
}

impl Status {
    /// The name results.json stores: `verified`, `failed`, `unsupported` or `unmeasured`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Failed => "failed",
            Status::Unsupported => "unsupported",
            Status::Unmeasured => "unmeasured",
        }
    }

    /// `true` for [`Status::Verified`].
    pub const fn is_verified(self) -> bool {
        matches!(self, Status::Verified)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
