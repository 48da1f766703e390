//! The servers' slots: the directory each server runs in (a link to the `dodbench` binary, the
//! trace it replays, callgrind's output files, its standard error), the free ones shared by
//! the threads that run servers, and the server's command line, whose bytes are the same in
//! every slot and on every machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, PoisonError};

use super::{COLLECTED_FN, D1, I1, LL, SimError};
use crate::measure::callgrind_request;

/// Name of the server program inside each slot directory (see [`server_command`]).
pub const CHILD_PROGRAM: &str = "dodbench";
/// Name of the trace file inside each slot directory: the same for every server, so every
/// server's arguments have the same bytes and lengths.
pub const SLOT_TRACE: &str = "trace.bin";
/// Callgrind's output file of the child with process ID `%p`, inside its slot directory.
pub const SLOT_OUT: &str = "callgrind.out.%p";
/// The server's standard error inside its slot directory: valgrind's messages and the
/// children's errors, whose end a failure quotes.
pub const SLOT_STDERR: &str = "stderr.txt";

/// The free slot directories, shared with the threads that run servers.
pub(super) struct Slots {
    pub(super) free: Mutex<Vec<PathBuf>>,
    pub(super) returned: Condvar,
}

impl Slots {
    /// Takes a free slot, waiting for a server to finish while none is.
    pub(super) fn take(&self) -> PathBuf {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(slot) = free.pop() {
                return slot;
            }
            free = self
                .returned
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Returns a slot taken by [`take`](Slots::take).
    pub(super) fn give_back(&self, slot: PathBuf) {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(slot);
        self.returned.notify_one();
    }
}

/// Which file of the `dodbench` binary the servers run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChildProgram {
    /// A copy without its debug sections (`objcopy --strip-debug`), where `objcopy` is
    /// installed; the binary as built otherwise. valgrind reads a program's debug info at
    /// start-up: 1.2 s of a 72 MB release binary against 0.6 s stripped. The code, the symbols
    /// and the loaded image are the same, so the counts are too (`cli/tests/integration/cache_cli.rs`
    /// compares both).
    #[default]
    WithoutDebugInfo,
    /// The binary as built.
    AsBuilt,
}

impl ChildProgram {
    /// The program the slots link to: `exe`, or a copy of it without debug sections in
    /// `work_dir` (`exe` when `objcopy` is absent or fails).
    pub(super) fn prepare(self, exe: &Path, work_dir: &Path) -> PathBuf {
        if self == Self::AsBuilt {
            return exe.to_path_buf();
        }
        let stripped = work_dir.join("dodbench-without-debug-info");
        let made = Command::new("objcopy")
            .arg("--strip-debug")
            .arg(exe)
            .arg(&stripped)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if made { stripped } else { exe.to_path_buf() }
    }
}

/// The server's command: `valgrind <fixed options> ./dodbench sim-server --trace trace.bin`,
/// run in slot directory `slot` under an empty environment.
///
/// Everything the server and its children see is the same on every machine and checkout: the
/// environment (its size shifts stack addresses), and the arguments, which are relative (the
/// program is a link to the binary in the slot): an absolute path's length would change the
/// size of the argument strings the server allocates, shift every later heap block, and so move
/// D1/LL misses of cache-sized tables by more than the gate's tolerance (seen: +24% D1 misses
/// between two checkouts).
pub fn server_command(valgrind: &Path, slot: &Path) -> Command {
    let mut cmd = Command::new(valgrind);
    cmd.env_clear()
        .env("LC_ALL", "C")
        .current_dir(slot)
        .args([
            "--tool=callgrind",
            "--cache-sim=yes",
            &format!("--I1={I1}"),
            &format!("--D1={D1}"),
            &format!("--LL={LL}"),
            "--collect-atstart=no",
            if callgrind_request::AVAILABLE {
                "--instr-atstart=no"
            } else {
                "--instr-atstart=yes"
            },
            &format!("--toggle-collect={COLLECTED_FN}"),
            &format!("--callgrind-out-file={SLOT_OUT}"),
        ])
        .arg(Path::new(".").join(CHILD_PROGRAM))
        .args(["sim-server", "--trace", SLOT_TRACE]);
    cmd
}

/// Links (or, where links fail, copies) `exe` into `slot` as [`CHILD_PROGRAM`], so the server
/// is started by a relative path.
pub(super) fn place_child_program(exe: &Path, slot: &Path) -> Result<(), SimError> {
    let link = slot.join(CHILD_PROGRAM);
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(exe, &link).is_ok();
    #[cfg(not(unix))]
    let linked = false;
    if !linked {
        std::fs::copy(exe, &link).map_err(|source| SimError::Io {
            what: format!("copying {} to {}", exe.display(), link.display()),
            source,
        })?;
    }
    Ok(())
}

/// Puts the trace in `trace_file` into slot `slot` as [`SLOT_TRACE`] (a hard link, or a copy
/// where links fail).
pub(super) fn copy_into_slot(trace_file: &Path, slot: &Path) -> Result<(), SimError> {
    let target = slot.join(SLOT_TRACE);
    let _ = std::fs::remove_file(&target);
    if std::fs::hard_link(trace_file, &target).is_err() {
        std::fs::copy(trace_file, &target).map_err(|source| SimError::Io {
            what: format!("copying {} to {}", trace_file.display(), target.display()),
            source,
        })?;
    }
    Ok(())
}
