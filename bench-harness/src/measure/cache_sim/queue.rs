//! The designs of one trace queued for its servers, and the threads that run the servers: each
//! takes a free slot, starts a server there with its first design and hands it the next ones,
//! one child per design, until the queue is closed and empty.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

use super::SimError;
use super::slots::{SLOT_OUT, SLOT_STDERR, Slots, copy_into_slot, server_command};

/// What one child left: the digest line it printed and callgrind's output file.
pub(super) struct ChildOutput {
    pub(super) digest: String,
    pub(super) callgrind: String,
}

/// A design waiting for a server, and where its child's output goes.
pub(super) struct Job {
    pub(super) design: String,
    pub(super) answer: mpsc::Sender<Result<ChildOutput, String>>,
}

/// The designs of one trace not yet taken by a server.
#[derive(Default)]
pub(super) struct Queue {
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
    pub(super) fn push(&self, job: Job) {
        self.lock().jobs.push_back(job);
        self.changed.notify_one();
    }

    pub(super) fn close(&self) {
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

/// One server's thread: takes jobs from `queue` until it is closed and empty, starting the
/// server (in a slot taken from `slots`) with the first and again after a server failed.
pub(super) fn serve_queue(queue: &Queue, slots: &Slots, valgrind: &Path, trace_file: &Path) {
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
    ///
    /// [`SLOT_TRACE`]: super::SLOT_TRACE
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
