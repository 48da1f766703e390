//! `dodbench compare BASE NEW`: matches two runs' benchmarks by (family, workload, design, n)
//! and classifies every change as improved, regressed, unchanged, new or gone, with rules that
//! respect noise (see [`rules`]). A deterministic regression fails the CI gate; times are shown
//! with their noise and never fail it.
//!
//! * [`metrics`]: the metric table (name, unit, kind, direction, extractor);
//! * [`run`]: a run as compare sees it, read from results.json (any readable schema version);
//!   [`read`]: reads a file of either kind (results or baseline) as a run;
//! * [`error`]: why two runs could not be compared;
//! * [`reference`]: which design normalises each family's times;
//! * [`baseline`]: the committed baseline of deterministic metrics;
//! * [`rules`]: thresholds, verdicts and [`compare`](rules::compare);
//! * [`table`]: text and Markdown output.
//!
//! Submodules import downward only: `error`, `metrics` ← `run` ← `reference`, `baseline` ←
//! `read`, `rules` ← `table`.
//!
//! ```
//! use results::compare::{Rules, Run, compare};
//! # let text = r#"{"schema_version": 1, "commit": "c", "benchmarks": [{"family": "id_table",
//! #   "workload": "churn", "design": "pool", "n": 1000, "ops": 10, "status": "verified",
//! #   "sim": {"ir": 100.0}}]}"#;
//! let base = Run::from_json_str("base.json".as_ref(), text).unwrap();
//! let new = base.clone();
//! let c = compare(&base, &new, &Rules::default()).unwrap();
//! assert!(!c.gate_failed());
//! ```

pub mod baseline;
pub mod error;
pub mod metrics;
pub mod read;
pub mod reference;
pub mod rules;
pub mod run;
pub mod table;

pub use baseline::{Baseline, UpdatePermissions};
pub use error::CompareError;
pub use reference::References;
pub use rules::{Comparison, Row, Rules, Verdict, compare};
pub use run::{BenchKey, Run};
