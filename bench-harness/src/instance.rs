//! Instances: a cell's work done in a process of its own, which the bench's coordinator starts
//! and which never runs a design itself.
//!
//! Two runs of one commit disagree far more than the rounds of one run say, because every
//! round of a run sees the same build of each design's state: the same heap layout and the
//! same physical pages, left where earlier cells' allocations put them, and the same
//! randomized placement of the program's code, stack and mappings (address-space layout
//! randomization, drawn once per program start). A design's ratio to another then depends on
//! which cells ran before it in the process (a run filtered to one family reads otherwise than
//! the full run) and on the layout one run happened to draw, which no number of rounds
//! samples. Following Kalibera and Jones ("Rigorous Benchmarking in Reasonable Time", ISMM
//! 2013: repeat at every level that varies) and Curtsinger and Berger (Stabilizer, ASPLOS 2013:
//! a layout is a random draw, so sample it), the bench times each cell as several instances,
//! each this program started again for it ([`in_new_process`]): no cell's designs inherit the
//! heap, pages or threads earlier cells' designs left, each instance draws its own code and
//! stack placement where the system randomizes them, and builds its designs on pages of its
//! own after a random amount of heap padding ([`pad_heap`]) that shifts where its small
//! allocations land; the statistics then size the interval by the spread between instances
//! (`results::stats`). A forked child would share the coordinator's code and stack placement,
//! one draw for the whole run.
//!
//! An instance reads its request as one JSON document on standard input and writes its answer
//! as one on standard output ([`serve`]); one that panics, dies by a signal or outlives its
//! deadline is an error of that instance. The verification of a cell's designs needs no draw
//! of its own and runs in a child forked from the coordinator ([`in_child`]). Forking is safe
//! only from a process with one thread (a child has only the forking thread, and a lock another
//! thread held would never be released in it): [`in_child`] runs the work in the calling
//! process instead when the process has more than one thread or is not on Linux, and says so.

use std::time::{Duration, Instant};

use serde::{Serialize, de::DeserializeOwned};

/// Set in a process started to time one instance of a cell ([`in_new_process`]): the cell, as
/// `family/workload/n`.
pub const INSTANCE_OF: &str = "DODBENCH_INSTANCE_OF";

/// The cell this process was started to time an instance of ([`INSTANCE_OF`]), if it was.
pub fn started_for() -> Option<String> {
    std::env::var(INSTANCE_OF).ok()
}

/// Why an instance started by [`in_new_process`] gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstanceError {
    /// It could not be started, panicked, died by a signal or sent no readable answer.
    Failed(String),
    /// It was still running at its deadline and was stopped.
    OverDeadline(Duration),
}

impl std::fmt::Display for InstanceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InstanceError::Failed(why) => f.write_str(why),
            InstanceError::OverDeadline(deadline) => write!(
                f,
                "its process was still running after {} s of wall time and was stopped",
                deadline.as_secs()
            ),
        }
    }
}

/// Runs this program again, with this process's arguments and environment and [`INSTANCE_OF`]
/// set to `cell`, hands it `request` on standard input and returns the answer it writes on
/// standard output ([`serve`]); its standard error is this process's. A process still running
/// after `deadline` (wall time) is killed.
///
/// # Errors
/// The program could not be started, panicked, died by a signal, exited without an answer, or
/// outlived `deadline`.
pub fn in_new_process<Q: Serialize, A: DeserializeOwned>(
    cell: &str,
    request: &Q,
    deadline: Duration,
) -> Result<A, InstanceError> {
    let exe = std::env::current_exe()
        .map_err(|e| InstanceError::Failed(format!("cannot find this program: {e}")))?;
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    in_program(&exe, &args, cell, request, deadline)
}

/// [`in_new_process`] with program `exe` and its arguments `args`.
fn in_program<Q: Serialize, A: DeserializeOwned>(
    exe: &std::path::Path,
    args: &[std::ffi::OsString],
    cell: &str,
    request: &Q,
    deadline: Duration,
) -> Result<A, InstanceError> {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};

    let failed = |why: String| InstanceError::Failed(why);
    let request =
        serde_json::to_vec(request).map_err(|e| failed(format!("cannot write a request: {e}")))?;
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args(args)
        .env(INSTANCE_OF, cell)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot start an instance: {e}")))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    // The answer is read on a thread of its own while this one watches the deadline; the
    // scope joins it before returning, so this process is back to one thread for its next
    // fork ([`can_fork`]).
    let (status, answer) = std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut answer = Vec::new();
            stdout.read_to_end(&mut answer).map(|_| answer)
        });
        // A process that died before reading its request closes its end: its status says why.
        let _ = stdin.write_all(&request);
        drop(stdin);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if started.elapsed() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(InstanceError::OverDeadline(deadline));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => break Err(failed(format!("cannot wait for an instance: {e}"))),
            }
        };
        (status, reader.join())
    });
    let status = status?;
    let answer = match answer {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => return Err(failed(format!("cannot read an instance's answer: {e}"))),
        Err(_) => return Err(failed("the reader of an instance's answer panicked".into())),
    };
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return Err(failed(format!(
            "an instance's process died by signal {signal}"
        )));
    }
    match status.code() {
        Some(0) => {
            // The answer is the last line: anything a design printed comes before it.
            let text = String::from_utf8_lossy(&answer);
            let last = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            serde_json::from_str(last)
                .map_err(|e| failed(format!("an instance's answer cannot be read: {e}")))
        }
        Some(101) => Err(failed(
            "an instance's process panicked (its message is above)".into(),
        )),
        Some(code) => Err(failed(format!(
            "an instance's process exited with status {code} without an answer"
        ))),
        None => Err(failed(
            "an instance's process ended without a status".into(),
        )),
    }
}

/// In a process [`in_new_process`] started: reads the request from standard input, runs
/// `work` on it and writes its answer to standard output as one line, then exits (status 0; 2
/// with the reason on standard error when the request cannot be read or `work` refuses it).
pub fn serve<Q: DeserializeOwned, A: Serialize>(work: impl FnOnce(Q) -> Result<A, String>) -> ! {
    use std::io::{Read, Write};
    let refuse = |why: &str| -> ! {
        eprintln!(
            "dodbench: instance {}: {why}",
            started_for().unwrap_or_default()
        );
        std::process::exit(2)
    };
    let mut request = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut request) {
        refuse(&format!("cannot read its request: {e}"));
    }
    let request = serde_json::from_slice(&request)
        .unwrap_or_else(|e| refuse(&format!("its request cannot be read: {e}")));
    let answer = work(request).unwrap_or_else(|why| refuse(&why));
    let mut line = serde_json::to_vec(&answer)
        .unwrap_or_else(|e| refuse(&format!("cannot write its answer: {e}")));
    line.push(b'\n');
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(&line).and_then(|()| out.flush()) {
        refuse(&format!("cannot send its answer: {e}"));
    }
    std::process::exit(0)
}

/// Where a piece of a cell's work ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a child forked for it.
    Child,
    /// In the calling process: it has other threads, or it cannot fork here.
    InProcess,
}

/// Runs `work` in a child process forked from this one and returns its answer; where this
/// process cannot fork safely ([`can_fork`]), runs it here. Standard output and error are
/// flushed before the fork, so the child does not repeat what this process buffered.
///
/// # Errors
/// The pipe or the fork failed, the child panicked, died by a signal, or sent no answer.
pub fn in_child<T, W>(work: W) -> Result<(T, Place), String>
where
    T: Serialize + DeserializeOwned,
    W: FnOnce() -> T,
{
    if !can_fork() {
        return Ok((work(), Place::InProcess));
    }
    fork_and_run(work).map(|t| (t, Place::Child))
}

/// Whether this process may fork a child that runs arbitrary code: Linux, where the number of
/// threads can be read, and only the calling thread.
pub fn can_fork() -> bool {
    cfg!(target_os = "linux") && threads() == Some(1)
}

/// The threads of this process (`/proc/self/task`), where the system says.
fn threads() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

#[cfg(unix)]
fn fork_and_run<T, W>(work: W) -> Result<T, String>
where
    T: Serialize + DeserializeOwned,
    W: FnOnce() -> T,
{
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, OwnedFd};

    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` is a live array of two descriptors, which the call fills.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(format!(
            "cannot open a pipe to an instance: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: both descriptors were just opened by `pipe` and are owned by nothing else.
    let (read_end, write_end) =
        unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: the process has one thread (`can_fork`, checked by the caller), so the child
    // holds no lock another thread held; the child never returns from this function: it runs
    // `work`, writes its answer and leaves with `_exit`, running no destructor and no exit
    // handler of this process twice.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!(
            "cannot fork an instance: {}",
            std::io::Error::last_os_error()
        ));
    }
    if pid == 0 {
        drop(read_end);
        let mut out = std::fs::File::from(write_end);
        let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
            Ok(answer) => match serde_json::to_writer(&mut out, &answer) {
                Ok(()) => 0,
                Err(_) => 3,
            },
            Err(_) => 101,
        };
        drop(out);
        let _ = std::io::stderr().flush();
        // SAFETY: `_exit` ends the child at once; nothing after it runs.
        unsafe { libc::_exit(code) };
    }
    drop(write_end);
    let mut answer = Vec::new();
    let read = std::fs::File::from(read_end).read_to_end(&mut answer);
    let status = wait_for(pid)?;
    read.map_err(|e| format!("cannot read an instance's answer: {e}"))?;
    if libc::WIFSIGNALED(status) {
        return Err(format!(
            "an instance's process died by signal {}",
            libc::WTERMSIG(status)
        ));
    }
    match libc::WEXITSTATUS(status) {
        0 => serde_json::from_slice(&answer)
            .map_err(|e| format!("an instance's answer cannot be read: {e}")),
        101 => Err("an instance's process panicked (its message is above)".into()),
        code => Err(format!(
            "an instance's process exited with status {code} without an answer"
        )),
    }
}

/// Waits for child `pid`, retrying when a signal interrupts the wait.
#[cfg(unix)]
fn wait_for(pid: libc::pid_t) -> Result<libc::c_int, String> {
    loop {
        let mut status = 0;
        // SAFETY: `pid` is this process's child, forked and not yet waited for; `status` is a
        // live local the call writes.
        let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
        if waited == pid {
            return Ok(status);
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("cannot wait for an instance: {e}"));
        }
    }
}

#[cfg(not(unix))]
fn fork_and_run<T, W>(work: W) -> Result<T, String>
where
    T: Serialize + DeserializeOwned,
    W: FnOnce() -> T,
{
    Ok(work())
}

/// The most heap padding an instance takes before it builds its designs ([`pad_heap`]).
pub const MAX_PADDING: usize = 64 * 1024;

/// Allocates a block of a size drawn from `draw` (a multiple of 64 bytes up to
/// [`MAX_PADDING`]) and returns it, so the allocations made while it lives start at a
/// different offset in the heap than another instance's: which cache sets and pages a
/// design's small allocations share is drawn anew per instance instead of fixed for the run.
/// Large allocations come from fresh pages of the child anyway.
pub fn pad_heap(draw: u64) -> Vec<u8> {
    let lines = (draw % (MAX_PADDING / 64 + 1) as u64) as usize;
    let mut pad = vec![0u8; lines * 64];
    // Touched, so the padding is really part of the heap, not a promise of zero pages.
    for byte in pad.iter_mut().step_by(64) {
        *byte = 1;
    }
    std::hint::black_box(&pad);
    pad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_comes_back_from_the_child() {
        let (answer, place) = in_child(|| (0..10u64).sum::<u64>()).unwrap();
        assert_eq!(answer, 45);
        // The test harness runs tests on threads of its own: the work may have run here.
        assert!(place == Place::Child || !can_fork());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_that_panics_or_dies_is_an_error_and_this_process_goes_on() {
        // Forked directly (the harness's threads make `in_child` stay in the process). The
        // child takes no lock another test thread may hold: it unwinds without the panic hook
        // (which would write to standard error), raises a signal, or allocates (the C
        // library's allocator is made safe across a fork).
        let panicked =
            fork_and_run(|| -> u64 { std::panic::resume_unwind(Box::new("planted")) }).unwrap_err();
        assert!(panicked.contains("panicked"), "{panicked}");
        let killed = fork_and_run(|| -> u64 {
            // SAFETY: raising a signal in the child only ends the child.
            unsafe { libc::raise(libc::SIGKILL) };
            0
        })
        .unwrap_err();
        assert!(killed.contains("signal 9"), "{killed}");
        let answered = fork_and_run(|| vec!["a".to_string(); 20_000]).unwrap();
        assert_eq!(
            answered.len(),
            20_000,
            "an answer longer than a pipe's buffer"
        );
    }

    /// What the instances of [`a_new_process_draws_its_own_layout_and_answers`] do: this test
    /// binary started again for one test, [`INSTANCE_OF`] naming what to do.
    fn serve_as_instance(what: &str) -> ! {
        match what {
            "answer" => serve(|x: u64| Ok((image_address(), x + 1))),
            "sleep" => serve(|x: u64| {
                std::thread::sleep(Duration::from_secs(60));
                Ok(x)
            }),
            "refuse" => serve(|_: u64| -> Result<u64, String> { Err("planted".into()) }),
            _ => serve(|_: u64| -> Result<u64, String> { panic!("planted") }),
        }
    }

    /// Where this program's image was placed: the address of a static of its own (a function's
    /// address would do as well, but a function may have several copies, and a static has one).
    fn image_address() -> usize {
        static PLACED: u8 = 0;
        std::ptr::from_ref(&PLACED) as usize
    }

    /// Whether the system places a new program's code at a random address: the kernel's
    /// setting, and no `setarch -R` (`ADDR_NO_RANDOMIZE`, inherited by children) on this one.
    #[cfg(target_os = "linux")]
    fn layout_is_randomized() -> Result<(), String> {
        const ADDR_NO_RANDOMIZE: u32 = 0x0040000;
        let setting = std::fs::read_to_string("/proc/sys/kernel/randomize_va_space")
            .map_err(|e| format!("cannot read randomize_va_space: {e}"))?;
        if setting.trim() == "0" {
            return Err("address-space layout randomization is off (randomize_va_space 0)".into());
        }
        let personality = std::fs::read_to_string("/proc/self/personality")
            .map_err(|e| format!("cannot read this process's personality: {e}"))?;
        let flags = u32::from_str_radix(personality.trim(), 16).unwrap_or(0);
        if flags & ADDR_NO_RANDOMIZE != 0 {
            return Err("this process runs without address randomization (setarch -R)".into());
        }
        Ok(())
    }

    /// An instance started anew answers its request, draws a code placement of its own where
    /// the system randomizes it (a forked child shares its parent's), and an instance that
    /// refuses, panics or outlives its deadline is an error of its own kind.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_process_draws_its_own_layout_and_answers() {
        if let Some(what) = started_for() {
            serve_as_instance(&what);
        }
        let exe = std::env::current_exe().unwrap();
        let args: Vec<std::ffi::OsString> = [
            "instance::tests::a_new_process_draws_its_own_layout_and_answers",
            "--exact",
            "--nocapture",
        ]
        .map(Into::into)
        .to_vec();
        let minute = Duration::from_secs(60);
        let placements: Vec<usize> = (0..3)
            .map(|k| {
                let (at, answer): (usize, u64) =
                    in_program(&exe, &args, "answer", &k, minute).unwrap();
                assert_eq!(answer, k + 1);
                at
            })
            .collect();
        match layout_is_randomized() {
            Ok(()) => assert!(
                placements.iter().any(|&at| at != image_address()),
                "every instance placed its image where this process has it: {placements:x?}"
            ),
            Err(why) => eprintln!("not checking that instances draw their own layout: {why}"),
        }
        let forked = fork_and_run(image_address).unwrap();
        assert_eq!(
            forked,
            image_address(),
            "a forked child shares the placement"
        );
        let refused = in_program::<u64, u64>(&exe, &args, "refuse", &0, minute).unwrap_err();
        assert!(matches!(&refused, InstanceError::Failed(why) if why.contains("status 2")));
        let panicked = in_program::<u64, u64>(&exe, &args, "panic", &0, minute).unwrap_err();
        assert!(panicked.to_string().contains("panicked"), "{panicked}");
        let slow = Duration::from_millis(300);
        let stopped = in_program::<u64, u64>(&exe, &args, "sleep", &0, slow).unwrap_err();
        assert_eq!(stopped, InstanceError::OverDeadline(slow));
    }

    #[test]
    fn the_padding_is_a_multiple_of_a_line_within_the_bound() {
        for draw in [0, 1, 1024, 1025, u64::MAX] {
            let pad = pad_heap(draw);
            assert_eq!(pad.len() % 64, 0);
            assert!(pad.len() <= MAX_PADDING);
        }
        assert_ne!(pad_heap(3).len(), pad_heap(4).len());
    }
}
