//! dodbench's report: reads `target/dodbench/results.json` and renders charts and HTML.
//! It never runs a benchmark. (Filled by the report issue.)
#![deny(missing_docs)]
