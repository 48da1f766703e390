//! Instances: a cell's work done in a process of its own, forked from the bench's coordinator,
//! which never runs a design itself.
//!
//! Two runs of one commit disagree far more than the rounds of one run say, because every
//! round of a run sees the same build of each design's state: the same heap layout and the
//! same physical pages, left where earlier cells' allocations put them. A design's ratio to
//! another then depends on which cells ran before it in the process (a run filtered to one
//! family reads otherwise than the full run) and on the draw of pages one run happened to get,
//! which no number of rounds samples. Following Kalibera and Jones ("Rigorous Benchmarking in
//! Reasonable Time", ISMM 2013: repeat at every level that varies) and Curtsinger and Berger
//! (Stabilizer, ASPLOS 2013: a layout is a random draw, so sample it), the bench times each
//! cell as several instances: each is a child forked from the coordinator, which never runs a
//! design, so no cell's designs inherit the heap, pages or threads earlier cells' designs left
//! (only what generating earlier traces left in the coordinator); each builds its designs on
//! pages of its own, after a random amount of heap padding ([`pad_heap`]) that shifts where
//! its small allocations land; the statistics then size the interval by the spread between
//! instances (`results::stats`).
//!
//! A child sends its answer back as one JSON document on a pipe and exits; a child that
//! panics or dies by a signal is an error of that instance. Forking is safe only from a
//! process with one thread (a child has only the forking thread, and a lock another thread
//! held would never be released in it): [`in_child`] runs the work in the calling process
//! instead when the process has more than one thread or is not on Linux, and says so.

use serde::{Serialize, de::DeserializeOwned};

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
