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

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex, PoisonError, mpsc};

use workloads::{AnyTrace, Trace, TraceStats};

use crate::families::{TraceVisitor, with_family};
use crate::measure::{DesignMeasure, callgrind_request};
use crate::replay::{Design, Family, OpOf, ReferenceLoop, ReplayerVisitor, Role};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::{SimConfig, SimPerOp};

#[cfg(unix)]
pub mod server;
#[cfg(unix)]
pub use server::serve;

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

/// Runs `body` where callgrind collects: the only code counted by `dodbench cache`.
///
/// Not generic and not mangled, so `--toggle-collect=dodbench_collected` names exactly this
/// function whatever design `body` replays.
#[unsafe(no_mangle)] // SAFETY: the name is unique in the binary (nothing else exports it).
#[inline(never)]
pub fn dodbench_collected(body: &mut dyn FnMut()) {
    body();
}

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

/// The event totals of one callgrind output file: event names from its `events:` line, values
/// from `totals:` (or `summary:`), trailing omitted columns read as zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallgrindTotals {
    /// Event names, e.g. `Ir`, `Dr`, `D1mr`.
    pub events: Vec<String>,
    /// One value per event.
    pub values: Vec<u64>,
}

impl CallgrindTotals {
    /// The total of event `name`, zero if the file does not list it.
    pub fn get(&self, name: &str) -> u64 {
        self.events
            .iter()
            .position(|e| e == name)
            .map_or(0, |i| self.values[i])
    }

    /// Figures per op for `ops` work units.
    pub fn per_op(&self, ops: u64, config: SimConfig) -> SimPerOp {
        let per = |v: u64| v as f64 / ops.max(1) as f64;
        let d1 = self.get("D1mr") + self.get("D1mw");
        SimPerOp {
            ir: per(self.get("Ir")),
            data_reads: per(self.get("Dr")),
            data_writes: per(self.get("Dw")),
            d1_miss: per(d1),
            ll_miss: per(self.get("DLmr") + self.get("DLmw")),
            d1_read_miss: per(self.get("D1mr")),
            ll_read_miss: per(self.get("DLmr")),
            i1_miss: Some(per(self.get("I1mr"))),
            bytes_streamed: per(d1 * LINE_BYTES),
            ops,
            config,
        }
    }
}

/// Parses a callgrind output file's `events:` header and `totals:` line (falling back to
/// `summary:`).
///
/// # Errors
/// No `events:` line, no totals, a non-number, or more values than events.
pub fn parse_callgrind(text: &str) -> Result<CallgrindTotals, SimError> {
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
    };
    let events: Vec<String> = field("events:")
        .ok_or_else(|| SimError::Parse("no `events:` line".into()))?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if events.is_empty() {
        return Err(SimError::Parse("empty `events:` line".into()));
    }
    let totals = field("totals:")
        .or_else(|| field("summary:"))
        .ok_or_else(|| SimError::Parse("no `totals:` or `summary:` line".into()))?;
    let mut values = totals
        .split_whitespace()
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| SimError::Parse(format!("total {v:?} is not a count")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if values.len() > events.len() {
        return Err(SimError::Parse(format!(
            "{} totals for {} events",
            values.len(),
            events.len()
        )));
    }
    values.resize(events.len(), 0);
    Ok(CallgrindTotals { events, values })
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

/// The child's work: replays `trace` on design `design` of the trace's family, collecting
/// only the body (see the module doc), and returns the body's digest as one line of JSON.
///
/// # Errors
/// Unknown design, or the design refused an op.
pub fn run_child(design: &str, trace: AnyTrace) -> Result<String, String> {
    crate::replay::set_repeatable(true);
    struct Child<'a> {
        design: &'a str,
    }
    impl TraceVisitor for Child<'_> {
        type Output = Result<String, String>;
        fn visit<F: Family>(self, trace: Trace<OpOf<F>>) -> Result<String, String> {
            struct Find<'a, F: Family> {
                design: &'a str,
                trace: &'a Trace<OpOf<F>>,
                result: Option<Result<String, String>>,
            }
            impl<F: Family> ReplayerVisitor<F> for Find<'_, F> {
                fn visit_design(&mut self, design: &'static dyn Design<F>, _role: Role) {
                    if design.name() == self.design {
                        self.result =
                            Some(collected_replay(design, self.trace).and_then(|d| {
                                serde_json::to_string(&d).map_err(|e| e.to_string())
                            }));
                    }
                }

                fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
                    if L::name() == self.design {
                        self.result =
                            Some(collected_loop::<L>(self.trace).and_then(|d| {
                                serde_json::to_string(&d).map_err(|e| e.to_string())
                            }));
                    }
                }
            }
            let mut find = Find {
                design: self.design,
                trace: &trace,
                result: None,
            };
            F::for_each_replayer(&mut find);
            find.result.unwrap_or_else(|| {
                Err(format!(
                    "unknown {} design {:?}; valid designs: {}",
                    F::NAME,
                    self.design,
                    crate::replay::replayer_names::<F>(None).join(", ")
                ))
            })
        }
    }
    with_family(trace, Child { design })
}

/// Builds the state and resolves the body (the dry run) uninstrumented, starts the
/// instrumentation ([`START_STATE`]: before one more replay of a read-only body, before a fresh
/// setup for a mutating one), and replays the resolved body inside [`dodbench_collected`], as
/// the timed replays run it.
fn collected_replay<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
) -> Result<F::Digest, String> {
    let (mut state, body, _) = crate::replay::shared::resolve_body(design, trace)?;
    if trace.body_is_read_only() {
        callgrind_request::start_instrumentation();
        state
            .replay_resolved(&trace.body, &body)
            .map_err(|e| format!("warm-up replay {e}"))?;
    } else {
        drop(state);
        callgrind_request::start_instrumentation();
        // The body's ops and recorded IDs, as the dry run left them in the caches, then the
        // fresh setup the body starts from.
        crate::replay::resolved::read_every_line(&trace.body);
        body.read_every_line();
        state = design
            .after_setup(trace)
            .map_err(|e| format!("setup {e}"))?;
    }
    state
        .replay_resolved_within(&trace.body, &body, &mut |replay| {
            dodbench_collected(replay);
        })
        .map_err(|e| format!("body {e}"))
}

/// Builds reference loop `L` for `trace` (the model's answers computed first, untimed), and
/// runs one verified pass of it inside [`dodbench_collected`]; returns the digest it
/// reproduced.
fn collected_loop<L: ReferenceLoop>(
    trace: &Trace<OpOf<L::Family>>,
) -> Result<<L::Family as Family>::Digest, String> {
    let expected = crate::verify::Expected::<L::Family>::of(trace).map_err(|e| e.to_string())?;
    callgrind_request::start_instrumentation();
    let reference = L::for_trace(trace, &expected.body)
        .ok_or_else(|| format!("{} does not apply to this trace", L::name()))?;
    let mut result = None;
    dodbench_collected(&mut || result = Some(reference.run(1)));
    result.expect("the collected closure ran")?;
    Ok(expected.body)
}

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

/// The free slot directories, shared with the threads that run servers.
struct Slots {
    free: Mutex<Vec<PathBuf>>,
    returned: Condvar,
}

impl Slots {
    /// Takes a free slot, waiting for a server to finish while none is.
    fn take(&self) -> PathBuf {
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
    fn give_back(&self, slot: PathBuf) {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(slot);
        self.returned.notify_one();
    }
}

/// The number of servers [`CacheSim::new`] runs at once by default: one per available core
/// (each server, and each of its children, is single-threaded).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
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
    fn prepare(self, exe: &Path, work_dir: &Path) -> PathBuf {
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

/// What a child prints and the parent compares: a family's digest.
pub trait SimDigest:
    PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static
{
}
impl<D: PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static> SimDigest
    for D
{
}

/// What one child left: the digest line it printed and callgrind's output file.
struct ChildOutput {
    digest: String,
    callgrind: String,
}

/// A design waiting for a server, and where its child's output goes.
struct Job {
    design: String,
    answer: mpsc::Sender<Result<ChildOutput, String>>,
}

/// The designs of one trace not yet taken by a server.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

#[derive(Default)]
struct QueueState {
    jobs: std::collections::VecDeque<Job>,
    /// No more jobs will come: a server finding the queue empty ends.
    closed: bool,
}

impl Queue {
    fn push(&self, job: Job) {
        self.lock().jobs.push_back(job);
        self.changed.notify_one();
    }

    fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// The next job, waiting for one while the queue is open; `None` once it is closed and
    /// empty.
    fn next(&self) -> Option<Job> {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
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

/// One server's thread: takes jobs from `queue` until it is closed and empty, starting the
/// server (in a slot taken from `slots`) with the first and again after a server failed.
fn serve_queue(queue: &Queue, slots: &Slots, valgrind: &Path, trace_file: &Path) {
    let mut slot = None;
    let mut server: Option<Server> = None;
    while let Some(job) = queue.next() {
        let slot = slot.get_or_insert_with(|| slots.take());
        let running = match server.take() {
            Some(running) => Ok(running),
            None => Server::start(valgrind, slot, trace_file),
        };
        let answer = running.and_then(|mut running| {
            let output = running.simulate(&job.design);
            // A server that broke is not reused; a child's failure leaves it running.
            if !matches!(output, Err(Failure::Server(_))) {
                server = Some(running);
            }
            output.map_err(Failure::into_error)
        });
        let _ = job.answer.send(answer.map_err(|e| e.to_string()));
    }
    if let Some(running) = server {
        running.finish();
    }
    if let Some(slot) = slot {
        slots.give_back(slot);
    }
}

/// A running server: valgrind on `dodbench sim-server` in a slot.
struct Server {
    process: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    slot: PathBuf,
}

/// Why a design got no figures: its child failed (the server goes on), or the server did.
enum Failure {
    Child(SimError),
    Server(SimError),
}

impl Failure {
    fn into_error(self) -> SimError {
        match self {
            Failure::Child(e) | Failure::Server(e) => e,
        }
    }
}

impl Server {
    /// Starts the server on `trace_file` (put in `slot` as [`SLOT_TRACE`]).
    fn start(valgrind: &Path, slot: &Path, trace_file: &Path) -> Result<Self, SimError> {
        copy_into_slot(trace_file, slot)?;
        let io = |what: String| move |source| SimError::Io { what, source };
        let stderr = std::fs::File::create(slot.join(SLOT_STDERR))
            .map_err(io(format!("creating {}", slot.join(SLOT_STDERR).display())))?;
        let mut process = server_command(valgrind, slot)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(io(format!("starting {}", valgrind.display())))?;
        let (Some(input), Some(output)) = (process.stdin.take(), process.stdout.take()) else {
            unreachable!("both streams were piped");
        };
        Ok(Self {
            process,
            input,
            output: std::io::BufReader::new(output),
            slot: slot.to_path_buf(),
        })
    }

    /// Has the server fork a child for `design` and returns what the child left.
    fn simulate(&mut self, design: &str) -> Result<ChildOutput, Failure> {
        use std::io::BufRead as _;
        let broken = |what: &str, server: &Self| {
            Failure::Server(SimError::Child {
                status: format!("simulation server {what}"),
                stderr: server.stderr_tail(),
            })
        };
        if writeln!(self.input, "{design}")
            .and_then(|()| self.input.flush())
            .is_err()
        {
            return Err(broken("stopped reading", self));
        }
        let mut digest = None;
        let (pid, status) = loop {
            let mut line = String::new();
            match self.output.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(broken("ended", self)),
                Ok(_) => {}
            }
            let line = line.trim_end();
            match line.strip_prefix("done ").and_then(|r| r.split_once(' ')) {
                Some((pid, status)) => break (pid.to_string(), status.to_string()),
                None => digest = Some(line.to_string()),
            }
        };
        let out_file = self.slot.join(SLOT_OUT.replace("%p", &pid));
        let callgrind = std::fs::read_to_string(&out_file);
        let _ = std::fs::remove_file(&out_file);
        if status != "exit 0" {
            return Err(Failure::Child(SimError::Child {
                status,
                stderr: self.stderr_tail(),
            }));
        }
        let digest = digest.ok_or_else(|| {
            Failure::Child(SimError::Parse("the child printed no digest".to_string()))
        })?;
        let callgrind = callgrind.map_err(|source| {
            Failure::Child(SimError::Io {
                what: format!("reading {}", out_file.display()),
                source,
            })
        })?;
        Ok(ChildOutput { digest, callgrind })
    }

    /// The last lines of the server's standard error.
    fn stderr_tail(&self) -> String {
        let text = std::fs::read_to_string(self.slot.join(SLOT_STDERR)).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(6).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
    }

    /// Ends the server (end of its input) and waits for it.
    fn finish(self) {
        let Self {
            mut process, input, ..
        } = self;
        drop(input);
        let _ = process.wait();
    }
}

/// Links (or, where links fail, copies) `exe` into `slot` as [`CHILD_PROGRAM`], so the server
/// is started by a relative path.
fn place_child_program(exe: &Path, slot: &Path) -> Result<(), SimError> {
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
fn copy_into_slot(trace_file: &Path, slot: &Path) -> Result<(), SimError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collected_fn_runs_its_body() {
        let mut ran = 0;
        dodbench_collected(&mut || ran += 1);
        assert_eq!(ran, 1);
    }

    #[test]
    fn child_replays_and_rejects_unknown_designs() {
        let p = PreparedTrace::<crate::replay::IdTableFamily>::generate("lookup-uniform", 100, 1)
            .unwrap();
        let any = || AnyTrace::new(p.trace.clone());
        let digest = run_child("holey", any()).unwrap();
        assert_eq!(digest, serde_json::to_string(&p.expected.body).unwrap());
        assert!(run_child("nope", any()).unwrap_err().contains("unknown"));
    }

    #[test]
    fn parser_fills_omitted_columns_and_rejects_garbage() {
        let t = parse_callgrind("events: Ir Dr Dw D1mr\nfoo\ntotals: 10 4\n").unwrap();
        assert_eq!(t.get("Ir"), 10);
        assert_eq!(t.get("Dr"), 4);
        assert_eq!(t.get("D1mr"), 0);
        assert_eq!(t.get("DLmr"), 0);
        let t = parse_callgrind("events: Ir\nsummary: 7\n").unwrap();
        assert_eq!(t.get("Ir"), 7);
        for bad in [
            "totals: 1\n",
            "events: Ir\n",
            "events: Ir\ntotals: x\n",
            "events: Ir\ntotals: 1 2\n",
            "events:\ntotals: 1\n",
        ] {
            assert!(
                matches!(parse_callgrind(bad), Err(SimError::Parse(_))),
                "{bad:?}"
            );
        }
    }
}
