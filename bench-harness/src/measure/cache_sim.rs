//! Simulated cache misses: the body of a replay under `valgrind --tool=callgrind
//! --cache-sim=yes` with a fixed hierarchy ([`I1`], [`D1`], [`LL`]), so the counts are the same
//! on every machine and every run of one binary.
//!
//! The parent (`dodbench cache`) writes the trace to a file and re-executes its own binary
//! under valgrind with the hidden `sim-server` subcommand ([`server`]): it loads the trace once
//! and forks one child per design the parent names. The child builds the state and resolves
//! the body uninstrumented (`--instr-atstart=no`, where [`callgrind_request::AVAILABLE`]),
//! starts the instrumentation where the simulated caches should start ([`START_STATE`]), then
//! replays the body inside [`dodbench_collected`], the one function callgrind collects in
//! (`--collect-atstart=no --toggle-collect=dodbench_collected`). It prints the body's digest;
//! the parent checks it against the model outside the simulation, then parses the child's
//! callgrind output file.
//!
//! The simulator ([`CacheSim`]) and its pass over one trace's designs ([`CacheSimPass`]) are
//! here. Beside them: `child.rs` (the child's replay inside [`dodbench_collected`]),
//! `callgrind_output.rs` (the totals of a callgrind output file), `slots.rs` (the directory
//! each server runs in and its command line), `queue.rs` (the designs queued for the servers,
//! and the threads that run the servers); [`server`]: the server process itself.
//!
//! [`callgrind_request::AVAILABLE`]: crate::measure::callgrind_request::AVAILABLE

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex, mpsc};

use workloads::TraceStats;

use crate::measure::DesignMeasure;
use crate::replay::{Design, Family, ReferenceLoop};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::{SimConfig, SimPerOp};

mod callgrind_output;
mod child;
mod queue;
#[cfg(unix)]
pub mod server;
mod slots;

pub use callgrind_output::{CallgrindTotals, parse_callgrind};
pub use child::{dodbench_collected, run_child};
#[cfg(unix)]
pub use server::serve;
pub use slots::{CHILD_PROGRAM, ChildProgram, SLOT_OUT, SLOT_STDERR, SLOT_TRACE, server_command};

use queue::{ChildOutput, Job, Queue, serve_queue};
use slots::{Slots, place_child_program};

/// Simulated L1 instruction cache: 32 KiB, 8-way, 64-byte lines.
pub const I1: &str = "32768,8,64";
/// Simulated L1 data cache: 32 KiB, 8-way, 64-byte lines.
pub const D1: &str = "32768,8,64";
/// Simulated last-level cache: 8 MiB, 16-way, 64-byte lines (pinned: auto-detection would read
/// the host's shared L3).
pub const LL: &str = "8388608,16,64";
/// Line size of [`D1`] in bytes.
pub const LINE_BYTES: u64 = 64;
/// The function callgrind collects in.
pub const COLLECTED_FN: &str = "dodbench_collected";
/// What the simulated caches hold when collection starts.
pub const START_STATE: &str = "read-only bodies (lookups, iterations, tag visits): what one \
     uncollected replay of the body left (steady state); mutating bodies (churn, fills, \
     allocations): the body's ops read once, then the setup that builds the measured state, the \
     body collected on its first replay right after it; reference loops: their setup (the \
     simulation starts there; the trace's loading and the dry run are not simulated)";

/// Why a simulation could not give counts.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// valgrind is not on `PATH`.
    #[error("valgrind not found: install it with apt-get install valgrind")]
    ValgrindMissing,
    /// A process could not be started or a file written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The child exited with an error.
    #[error("simulated replay failed ({status}): {stderr}")]
    Child {
        /// Exit status.
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// The callgrind output file could not be understood.
    #[error("callgrind output: {0}")]
    Parse(String),
    /// The simulated replay gave other answers than the model.
    #[error("simulated replay digest differs from the model's: {0}")]
    Digest(String),
}

/// The `valgrind` executable on `PATH`.
///
/// # Errors
/// [`SimError::ValgrindMissing`] when there is none.
pub fn find_valgrind() -> Result<PathBuf, SimError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("valgrind"))
        .find(|p| p.is_file())
        .ok_or(SimError::ValgrindMissing)
}

/// The simulated hierarchy with `valgrind --version` of `valgrind`.
pub fn sim_config(valgrind: &Path) -> SimConfig {
    let version = Command::new(valgrind)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    SimConfig {
        i1: I1.to_string(),
        d1: D1.to_string(),
        ll: LL.to_string(),
        valgrind: version,
        start_state: START_STATE.to_string(),
    }
}

/// The parent's pass: for each trace, up to `jobs` [`server`]s at once, each a valgrind process
/// that reads the trace once and forks one child per design.
///
/// Each server owns a *slot*, a directory of the work directory holding a link to the
/// `dodbench` binary, the trace it replays and callgrind's output files. Every slot has the
/// same layout and every server the same relative arguments, so a child's counts do not depend
/// on which slot ran it or what ran beside it (each callgrind simulates its own caches).
pub struct CacheSim {
    /// The `dodbench` binary to re-execute.
    pub exe: PathBuf,
    /// The valgrind executable.
    pub valgrind: PathBuf,
    /// The simulated hierarchy, recorded with every result.
    pub config: SimConfig,
    /// A directory for the traces and the slots.
    pub work_dir: PathBuf,
    /// Free slot directories (as many as servers may run at once).
    slots: Arc<Slots>,
    /// How many servers may run at once.
    jobs: usize,
    /// Traces written so far (each gets its own master file).
    traces_written: std::cell::Cell<u64>,
}

/// The number of servers [`CacheSim::new`] runs at once by default: one per available core
/// (each server, and each of its children, is single-threaded).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl CacheSim {
    /// A simulator running up to `jobs` (at least 1) servers of `exe` (as `program` says)
    /// under `valgrind` at once, with its slots in `work_dir`.
    ///
    /// # Errors
    /// A slot directory or the link (or copy) of `exe` in it could not be made.
    pub fn new(
        exe: PathBuf,
        program: ChildProgram,
        valgrind: PathBuf,
        work_dir: PathBuf,
        jobs: usize,
    ) -> Result<Self, SimError> {
        let _ = std::fs::create_dir_all(&work_dir);
        let program = program.prepare(&exe, &work_dir);
        let mut slots = Vec::new();
        for i in 0..jobs.max(1) {
            // Same name length for every slot (children never see the name, but keep it plain).
            let slot = work_dir.join(format!("slot{i:03}"));
            std::fs::create_dir_all(&slot).map_err(|source| SimError::Io {
                what: format!("creating {}", slot.display()),
                source,
            })?;
            place_child_program(&program, &slot)?;
            slots.push(slot);
        }
        slots.reverse();
        Ok(Self {
            config: sim_config(&valgrind),
            exe,
            valgrind,
            work_dir,
            slots: Arc::new(Slots {
                free: Mutex::new(slots),
                returned: Condvar::new(),
            }),
            jobs: jobs.max(1),
            traces_written: std::cell::Cell::new(0),
        })
    }

    /// Writes `prepared`'s trace to the work directory under a name of its own (servers of an
    /// earlier trace still running are not disturbed) and returns the pass that simulates
    /// designs on it. The trace's servers start with its first designs and end when the pass
    /// is dropped.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn for_trace<F: Family>(
        &self,
        prepared: &PreparedTrace<F>,
    ) -> Result<CacheSimPass<'_>, SimError> {
        let k = self.traces_written.get();
        self.traces_written.set(k + 1);
        let path = self.work_dir.join(format!("trace-{k}.bin"));
        let io = |source| SimError::Io {
            what: format!("writing {}", path.display()),
            source,
        };
        let bytes = workloads::format::to_bytes(&prepared.trace)
            .map_err(|e| io(std::io::Error::other(e.to_string())))?;
        results::write_atomically(&path, &bytes).map_err(io)?;
        Ok(CacheSimPass {
            sim: self,
            trace_file: path,
            queue: Arc::new(Queue::default()),
            servers: Vec::new(),
        })
    }
}

/// What a child prints and the parent compares: a family's digest.
pub trait SimDigest:
    PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static
{
}
impl<D: PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static> SimDigest
    for D
{
}

/// [`CacheSim`] as a pass over the designs of one trace (made by [`CacheSim::for_trace`]).
/// Each measurement queues its design and returns at once (the pass's results wait for it);
/// up to `jobs` servers take the queued designs, each started in a free slot with its first
/// design. Dropping the pass ends its servers once the queue is empty.
pub struct CacheSimPass<'a> {
    sim: &'a CacheSim,
    trace_file: PathBuf,
    queue: Arc<Queue>,
    servers: Vec<std::thread::JoinHandle<()>>,
}

impl CacheSimPass<'_> {
    /// Queues design `design` (a design or a reference loop of the trace's family); the
    /// returned [`PendingSim`] checks its child's digest against `expected` and gives the
    /// per-op figures for `ops` work units.
    pub fn launch<D: SimDigest>(&mut self, design: &str, expected: D, ops: u64) -> PendingSim {
        let (answer, answered) = mpsc::channel();
        self.queue.push(Job {
            design: design.to_string(),
            answer,
        });
        if self.servers.len() < self.sim.jobs {
            let queue = Arc::clone(&self.queue);
            let slots = Arc::clone(&self.sim.slots);
            let valgrind = self.sim.valgrind.clone();
            let trace_file = self.trace_file.clone();
            self.servers.push(std::thread::spawn(move || {
                serve_queue(&queue, &slots, &valgrind, &trace_file);
            }));
        }
        let config = self.sim.config.clone();
        PendingSim {
            answered,
            finish: Box::new(move |output| finish_child(&output, &expected, ops, config)),
        }
    }
}

impl Drop for CacheSimPass<'_> {
    fn drop(&mut self) {
        self.queue.close();
        for server in self.servers.drain(..) {
            let _ = server.join();
        }
    }
}

impl DesignMeasure for CacheSimPass<'_> {
    type Output = PendingSim;

    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        _checked: &Checked,
    ) -> Result<PendingSim, String> {
        Ok(self.launch(
            design.name(),
            prepared.expected.body,
            prepared.expected.stats.work_units(),
        ))
    }

    /// Simulates the loop like a design: the floor a replay's instructions are read against.
    fn measure_loop<L: ReferenceLoop>(
        &mut self,
        prepared: &PreparedTrace<L::Family>,
    ) -> Option<Result<PendingSim, String>> {
        Some(Ok(self.launch(
            &L::name(),
            prepared.expected.body,
            prepared.expected.stats.work_units(),
        )))
    }
}

/// A simulation queued by [`CacheSimPass::launch`].
pub struct PendingSim {
    answered: mpsc::Receiver<Result<ChildOutput, String>>,
    finish: Box<dyn FnOnce(ChildOutput) -> Result<SimPerOp, SimError> + Send>,
}

impl std::fmt::Debug for PendingSim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingSim").finish_non_exhaustive()
    }
}

impl PendingSim {
    /// Waits for the child and returns its per-op figures.
    ///
    /// # Errors
    /// The child failed, its digest differs from the model's, or its output file is unreadable.
    pub fn wait(self) -> Result<SimPerOp, String> {
        let output = self.answered.recv().unwrap_or_else(|_| {
            Err("the thread running the simulation ended without an answer".to_string())
        })?;
        (self.finish)(output).map_err(|e| e.to_string())
    }
}

/// Checks a child's digest against `expected` and reads its counts.
fn finish_child<D: SimDigest>(
    output: &ChildOutput,
    expected: &D,
    ops: u64,
    config: SimConfig,
) -> Result<SimPerOp, SimError> {
    let digest: D = serde_json::from_str(&output.digest).map_err(|e| {
        SimError::Parse(format!(
            "child printed no digest ({e}): {:?}",
            output.digest
        ))
    })?;
    if digest != *expected {
        return Err(SimError::Digest(describe_mismatch(expected, &digest)));
    }
    Ok(parse_callgrind(&output.callgrind)?.per_op(ops, config))
}
