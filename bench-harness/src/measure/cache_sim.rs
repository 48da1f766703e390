//! Simulated cache misses: the body of a replay under `valgrind --tool=callgrind
//! --cache-sim=yes` with a fixed hierarchy ([`I1`], [`D1`], [`LL`]), so the counts are the same
//! on every machine and every run of one binary.
//!
//! The parent (`dodbench cache`) writes the trace to a file and re-executes its own binary
//! under valgrind with the hidden `sim-child` subcommand. The child loads the trace, builds
//! the state and resolves the body uninstrumented (`--instr-atstart=no`, where
//! [`callgrind_request::AVAILABLE`]), starts the instrumentation where the simulated caches
//! should start ([`START_STATE`]), then replays the body inside [`dodbench_collected`], the one
//! function callgrind collects in (`--collect-atstart=no --toggle-collect=dodbench_collected`).
//! It prints the body's digest; the parent checks it against the model outside the
//! simulation, then parses callgrind's output file.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use workloads::{AnyTrace, Trace, TraceStats};

use crate::families::{TraceVisitor, with_family};
use crate::measure::{DesignMeasure, callgrind_request};
use crate::replay::{Family, OpOf, ReferenceLoop, Replayer, ReplayerVisitor, Role};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::{SimConfig, SimPerOp};

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
                fn visit<R: Replayer<Family = F>>(&mut self, _role: Role) {
                    if R::design_name() == self.design {
                        self.result =
                            Some(collected_replay::<R>(self.trace).and_then(|d| {
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
fn collected_replay<R: Replayer>(
    trace: &Trace<OpOf<R::Family>>,
) -> Result<<R::Family as Family>::Digest, String> {
    let (mut state, (body, _)) = crate::replay::shared::resolve_body::<R>(trace)?;
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
        state = R::after_setup(trace).map_err(|e| format!("setup {e}"))?;
    }
    let mut digest = None;
    dodbench_collected(&mut || digest = Some(state.replay_resolved(&trace.body, &body)));
    digest
        .expect("the collected closure ran")
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

/// Name of the child program inside each slot directory (see [`CacheSim::command`]).
pub const CHILD_PROGRAM: &str = "dodbench";
/// Name of the trace file inside each slot directory: the same for every child, so every
/// child's arguments have the same bytes and lengths.
pub const SLOT_TRACE: &str = "trace.bin";
/// Name of callgrind's output file inside each slot directory.
pub const SLOT_OUT: &str = "callgrind.out";

/// The parent's pass: one valgrind child per verified design, up to `jobs` of them at once.
///
/// Each running child owns a *slot*, a directory of the work directory holding a link to the
/// `dodbench` binary, the trace it replays and callgrind's output file. Every slot has the same
/// layout and every child the same relative arguments, so a child's counts do not depend on
/// which slot ran it or what ran beside it (each callgrind simulates its own caches).
pub struct CacheSim {
    /// The `dodbench` binary to re-execute.
    pub exe: PathBuf,
    /// The valgrind executable.
    pub valgrind: PathBuf,
    /// The simulated hierarchy, recorded with every result.
    pub config: SimConfig,
    /// A directory for the traces and the slots.
    pub work_dir: PathBuf,
    /// Free slot directories (as many as children may run at once).
    slots: Arc<Slots>,
    /// Traces written so far (each gets its own master file).
    traces_written: std::cell::Cell<u64>,
}

/// The free slot directories, shared with the threads that wait for children.
struct Slots {
    free: Mutex<Vec<PathBuf>>,
    returned: Condvar,
}

impl Slots {
    /// Takes a free slot, waiting for a child to finish while none is.
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

/// The number of children [`CacheSim::new`] runs at once by default: one per available core
/// (each child is single-threaded).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Which file of the `dodbench` binary the children run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChildProgram {
    /// A copy without its debug sections (`objcopy --strip-debug`), where `objcopy` is
    /// installed; the binary as built otherwise. valgrind reads every child's debug info at
    /// start-up: 1.2 s of a 72 MB release binary against 0.6 s stripped, where most children
    /// of a quick pass take 1.3-2.5 s in all. The code, the symbols and the loaded image are
    /// the same, so the counts are too (`cli/tests/cache_cli.rs` compares both).
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
    /// A simulator running up to `jobs` (at least 1) children of `exe` (as `program` says)
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
            traces_written: std::cell::Cell::new(0),
        })
    }

    /// The child's command: `valgrind <fixed options> ./dodbench sim-child --design D --trace
    /// trace.bin`, run in slot directory `slot` under an empty environment.
    ///
    /// Everything the child sees is the same on every machine and checkout: the environment
    /// (its size shifts stack addresses), and its arguments, which are relative (the program is
    /// a link to `exe` in the slot): an absolute path's length would change the size of the
    /// argument strings the child allocates, shift every later heap block, and so move D1/LL
    /// misses of cache-sized tables by more than the gate's tolerance (seen: +24% D1 misses
    /// between two checkouts).
    pub fn command(&self, slot: &Path, design: &str) -> Command {
        let mut cmd = Command::new(&self.valgrind);
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
            .args(["sim-child", "--design", design, "--trace", SLOT_TRACE]);
        cmd
    }

    /// Writes `prepared`'s trace to the work directory (once per trace, before its designs),
    /// under a name of its own, so children of an earlier trace still running are not
    /// disturbed.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn write_trace<F: Family>(&self, prepared: &PreparedTrace<F>) -> Result<PathBuf, SimError> {
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
        Ok(path)
    }

    /// Starts simulating design `design` on the trace in `trace_file` in a free slot (waiting
    /// for one while `jobs` children run); the returned [`PendingSim`] checks the child's digest
    /// against `expected` and gives the per-op figures for `ops` work units.
    pub fn launch<D>(&self, trace_file: &Path, design: &str, expected: D, ops: u64) -> PendingSim
    where
        D: SimDigest,
    {
        let slot = self.slots.take();
        let started = copy_into_slot(trace_file, &slot).map(|()| self.command(&slot, design));
        let slots = Arc::clone(&self.slots);
        let config = self.config.clone();
        let valgrind = self.valgrind.clone();
        let handle = std::thread::spawn(move || {
            let result = started.and_then(|mut cmd| {
                finish_child(&mut cmd, &valgrind, &slot, &expected, ops, config)
            });
            slots.give_back(slot);
            result.map_err(|e| e.to_string())
        });
        PendingSim(handle)
    }

    /// Simulates design `design` on the trace in `trace_file` and waits for the figures (see
    /// [`launch`](CacheSim::launch)).
    ///
    /// # Errors
    /// See [`SimError`], as text.
    pub fn simulate<D>(
        &self,
        trace_file: &Path,
        design: &str,
        expected: D,
        ops: u64,
    ) -> Result<SimPerOp, String>
    where
        D: SimDigest,
    {
        self.launch(trace_file, design, expected, ops).wait()
    }
}

/// What a child prints and the parent compares: a family's digest (sent to the thread that
/// waits for the child).
pub trait SimDigest:
    PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static
{
}
impl<D: PartialEq + serde::Serialize + serde::de::DeserializeOwned + Send + 'static> SimDigest
    for D
{
}

/// A simulation started by [`CacheSim::launch`], running in its own slot.
#[derive(Debug)]
pub struct PendingSim(std::thread::JoinHandle<Result<SimPerOp, String>>);

impl PendingSim {
    /// Waits for the child and returns its per-op figures.
    ///
    /// # Errors
    /// The child failed, its digest differs from the model's, or its output file is unreadable.
    pub fn wait(self) -> Result<SimPerOp, String> {
        self.0
            .join()
            .unwrap_or_else(|_| Err("the thread waiting for the simulation panicked".to_string()))
    }
}

/// Links (or, where links fail, copies) `exe` into `slot` as [`CHILD_PROGRAM`], so the child is
/// started by a relative path.
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

/// Puts the trace in `trace_file` into free slot `slot` as [`SLOT_TRACE`] (a hard link, or a
/// copy where links fail), and removes the previous child's output file.
fn copy_into_slot(trace_file: &Path, slot: &Path) -> Result<(), SimError> {
    let target = slot.join(SLOT_TRACE);
    let _ = std::fs::remove_file(&target);
    let _ = std::fs::remove_file(slot.join(SLOT_OUT));
    if std::fs::hard_link(trace_file, &target).is_err() {
        std::fs::copy(trace_file, &target).map_err(|source| SimError::Io {
            what: format!("copying {} to {}", trace_file.display(), target.display()),
            source,
        })?;
    }
    Ok(())
}

/// Runs the child `cmd` to its end, checks its digest against `expected` and reads the counts
/// callgrind wrote in `slot`.
fn finish_child<D: SimDigest>(
    cmd: &mut Command,
    valgrind: &Path,
    slot: &Path,
    expected: &D,
    ops: u64,
    config: SimConfig,
) -> Result<SimPerOp, SimError> {
    let output = cmd.output().map_err(|source| SimError::Io {
        what: format!("starting {}", valgrind.display()),
        source,
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(SimError::Child {
            status: output.status.to_string(),
            stderr: tail.into_iter().rev().collect::<Vec<_>>().join(" | "),
        });
    }
    let digest: D = serde_json::from_slice(&output.stdout).map_err(|e| {
        SimError::Parse(format!(
            "child printed no digest ({e}): {:?}",
            String::from_utf8_lossy(&output.stdout)
        ))
    })?;
    if digest != *expected {
        return Err(SimError::Digest(describe_mismatch(expected, &digest)));
    }
    let out_file = slot.join(SLOT_OUT);
    let text = std::fs::read_to_string(&out_file).map_err(|source| SimError::Io {
        what: format!("reading {}", out_file.display()),
        source,
    })?;
    Ok(parse_callgrind(&text)?.per_op(ops, config))
}

/// Prints the child's digest, one JSON line (what the parent reads).
///
/// # Errors
/// Standard output is closed.
pub fn print_digest(digest_json: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{digest_json}")
}

/// [`CacheSim`] as a pass over designs: the trace file must have been written by
/// [`CacheSim::write_trace`] for `prepared`. Each measurement starts a child and returns at
/// once (see [`CacheSim::launch`]); the pass's results wait for it.
pub struct CacheSimPass<'a> {
    /// The simulator.
    pub sim: &'a CacheSim,
    /// The trace file of the prepared trace.
    pub trace_file: PathBuf,
}

impl DesignMeasure for CacheSimPass<'_> {
    type Output = PendingSim;

    fn measure<R: Replayer>(
        &mut self,
        prepared: &PreparedTrace<R::Family>,
        _checked: &Checked,
    ) -> Result<PendingSim, String> {
        Ok(self.sim.launch(
            &self.trace_file,
            R::design_name(),
            prepared.expected.body,
            prepared.expected.stats.work_units(),
        ))
    }

    /// Simulates the loop like a design: the floor a replay's instructions are read against.
    fn measure_loop<L: ReferenceLoop>(
        &mut self,
        prepared: &PreparedTrace<L::Family>,
    ) -> Option<Result<PendingSim, String>> {
        Some(Ok(self.sim.launch(
            &self.trace_file,
            &L::name(),
            prepared.expected.body,
            prepared.expected.stats.work_units(),
        )))
    }
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
