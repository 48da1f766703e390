//! `dodbench convert-wee-alloc`: an allocation trace in wee_alloc's text format into a
//! dodbench trace file.

use std::path::Path;

use anyhow::Result;
use workloads::convert::wee_alloc::ConvertError;

use crate::Gate;

/// Converts `input` and saves the trace to `output` (as [`crate::gen_trace::save_trace`]:
/// atomically, through symbolic links, FIFOs and devices, `-` for stdout).
///
/// # Errors
/// The input is unreadable or malformed (the error names the line), or the output cannot be
/// written.
pub fn wee_alloc(input: &Path, output: &Path) -> Result<Gate> {
    let trace = workloads::convert::wee_alloc::convert_file(input).map_err(|e| match e {
        // It names the file already.
        ConvertError::Io { .. } => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(format!("cannot convert {}", input.display())),
    })?;
    crate::gen_trace::save_trace(&trace, output)
}
