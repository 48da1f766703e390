//! dodbench's report: reads `target/dodbench/results.json` and renders charts and HTML.
//! It never runs a benchmark.
#![deny(missing_docs)]

pub mod charts;
pub mod format;
pub mod palette;
