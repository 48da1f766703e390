//! The bench's child processes: the one that lists what criterion's filter selects
//! ([`selected_by_criterion`]) and the one that runs the benchmarks while this process relays
//! its standard error ([`relay_run_child`]).

use std::collections::HashSet;
use std::process::Command;

use super::fail;

/// Set in the child that lists the benchmarks criterion selects.
pub(super) const LIST_CHILD: &str = "DODBENCH_LIST_CHILD";

/// Set in the child that runs the benchmarks while the parent relays its standard error
/// ([`relay_run_child`]).
pub(super) const RUN_CHILD: &str = "DODBENCH_RUN_CHILD";

/// A benchmark as criterion names it: (`family/workload`, design, n).
pub(super) type BenchKey = (String, String, String);

/// The first words of criterion's warning that a benchmark ran one iteration per sample
/// (printed for every body longer than the measurement time over the sample count, which
/// dodbench chooses on purpose for long bodies: nothing a user can act on).
const ONE_ITERATION_WARNING: &[u8] = b"Warning: Unable to complete ";

/// Runs this binary again as the bench ([`RUN_CHILD`]) and relays its standard error without
/// criterion's one-iteration-per-sample warnings ([`ONE_ITERATION_WARNING`]), which it counts
/// in one closing line instead; standard output is the child's own. Returns the child's exit
/// status.
pub(super) fn relay_run_child() -> i32 {
    use std::io::{BufRead, Write};
    let exe =
        std::env::current_exe().unwrap_or_else(|e| fail(&format!("cannot find this binary: {e}")));
    let mut child = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(RUN_CHILD, "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| fail(&format!("cannot start the bench: {e}")));
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut out = std::io::stderr().lock();
    let mut held_blank = false;
    let mut left_out = 0usize;
    for line in std::io::BufReader::new(stderr).split(b'\n') {
        let Ok(line) = line else { break };
        if line.starts_with(ONE_ITERATION_WARNING) {
            // Criterion starts the warning with a newline of its own: that blank line goes too.
            held_blank = false;
            left_out += 1;
            continue;
        }
        if std::mem::take(&mut held_blank) {
            let _ = out.write_all(b"\n");
        }
        if line.is_empty() {
            held_blank = true;
            continue;
        }
        let _ = out.write_all(&line);
        let _ = out.write_all(b"\n");
    }
    let status = child
        .wait()
        .unwrap_or_else(|e| fail(&format!("the bench did not finish: {e}")));
    if left_out > 0 {
        let _ = writeln!(
            out,
            "dodbench: {left_out} benchmarks ran one body replay per sample (a body longer than \
             the measurement time over the samples; criterion's warnings about it left out)"
        );
    }
    status.code().unwrap_or(1)
}

/// The benchmarks criterion selects with this process's arguments: this binary re-run with
/// `--list`, which prints `id: benchmark` for exactly the benchmarks its filter accepts.
pub(super) fn selected_by_criterion() -> Result<HashSet<BenchKey>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let output = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .arg("--list")
        .env(LIST_CHILD, "1")
        .output()
        .map_err(|e| format!("cannot list the benchmarks: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "criterion refused the arguments: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .filter_map(|id| {
            let mut parts = id.rsplitn(3, '/');
            let n = parts.next()?;
            let design = parts.next()?;
            let group = parts.next()?;
            Some((group.to_string(), design.to_string(), n.to_string()))
        })
        .collect())
}
