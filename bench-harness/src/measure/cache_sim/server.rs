//! The process the cache pass runs under valgrind: it loads one trace, then forks one child per
//! design it is asked for, so valgrind starts (0.6 s of a child's 1-2 s in a quick pass) and
//! the trace is read once per trace instead of once per design.
//!
//! Protocol, one line each way per design: the parent writes a design name; the server forks a
//! child, which replays the design ([`run_child`](super::run_child)) and prints its digest (one
//! JSON line) or its error (on standard error), and exits; valgrind writes the child's counts
//! to `callgrind.out.<pid>`. The server then prints `done <pid> exit <code>` (or `signal
//! <n>`). End of input ends the server.
//!
//! Every child starts from the same memory: the server allocates nothing between one fork and
//! the next (the design name is read into a buffer on the stack, the standard streams' buffers
//! exist before the first fork), so a design's heap layout, and with it its simulated misses,
//! do not depend on which designs were asked for before it, or in which order. Callgrind counts
//! nothing in the server (it never enters [`dodbench_collected`](super::dodbench_collected)
//! and never starts the instrumentation), so a child's counts are its own.

use std::io::{BufRead, Write};

use workloads::AnyTrace;

/// The longest design name the server reads; a longer line is an error.
pub const MAX_DESIGN_NAME: usize = 256;

/// Serves requests for designs on standard input, forking one child per design to replay
/// `trace` (see the module doc). Returns at the end of the input.
///
/// # Errors
/// Standard input or output failed, a name is not UTF-8 or longer than [`MAX_DESIGN_NAME`],
/// or the system refused a fork or a wait.
pub fn serve(trace: AnyTrace) -> std::io::Result<()> {
    let mut trace = Some(trace);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut name = [0u8; MAX_DESIGN_NAME];
    while let Some(len) = read_name(&mut input, &mut name)? {
        let design = std::str::from_utf8(&name[..len])
            .map_err(|_| std::io::Error::other("a design name is not UTF-8"))?;
        out.flush()?;
        // SAFETY: the server is single-threaded (nothing in this process starts a thread), so
        // the child, which has only the forking thread, holds no lock another thread held;
        // the child never returns into this loop: it replays and exits.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if pid == 0 {
            let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let Some(trace) = trace.take() else {
                    return 2;
                };
                match super::run_child(design, trace) {
                    Ok(digest) => match writeln!(out, "{digest}").and_then(|()| out.flush()) {
                        Ok(()) => 0,
                        Err(_) => 2,
                    },
                    Err(e) => {
                        eprintln!("dodbench: {e}");
                        2
                    }
                }
            }))
            .unwrap_or(101);
            std::process::exit(code);
        }
        let mut status = 0;
        // SAFETY: `pid` is this process's child, just forked and not yet waited for; `status`
        // is a live local the call writes.
        if unsafe { libc::waitpid(pid, &mut status, 0) } != pid {
            return Err(std::io::Error::last_os_error());
        }
        if libc::WIFEXITED(status) {
            writeln!(out, "done {pid} exit {}", libc::WEXITSTATUS(status))?;
        } else {
            writeln!(out, "done {pid} signal {}", libc::WTERMSIG(status))?;
        }
        out.flush()?;
    }
    Ok(())
}

/// Reads one line of `input` into `name` without allocating; `None` at the end of the input.
fn read_name(
    input: &mut impl BufRead,
    name: &mut [u8; MAX_DESIGN_NAME],
) -> std::io::Result<Option<usize>> {
    let mut len = 0;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return match len {
                0 => Ok(None),
                _ => Err(std::io::Error::other("the last design name has no newline")),
            };
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        let Some(slot) = name.get_mut(len..len + part.len()) else {
            return Err(std::io::Error::other(format!(
                "a design name is longer than {MAX_DESIGN_NAME} bytes"
            )));
        };
        slot.copy_from_slice(part);
        len += part.len();
        let used = newline.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_line_by_line_and_bounded() {
        let mut name = [0u8; MAX_DESIGN_NAME];
        let mut input = std::io::BufReader::with_capacity(4, &b"holey\nref-direct-packed\n"[..]);
        let len = read_name(&mut input, &mut name).unwrap().unwrap();
        assert_eq!(&name[..len], b"holey");
        let len = read_name(&mut input, &mut name).unwrap().unwrap();
        assert_eq!(&name[..len], b"ref-direct-packed");
        assert!(read_name(&mut input, &mut name).unwrap().is_none());

        let mut unterminated = &b"holey"[..];
        assert!(read_name(&mut unterminated, &mut name).is_err());
        let long = vec![b'x'; MAX_DESIGN_NAME + 1];
        assert!(read_name(&mut &long[..], &mut name).is_err());
        let exact = [vec![b'x'; MAX_DESIGN_NAME], vec![b'\n']].concat();
        assert_eq!(
            read_name(&mut &exact[..], &mut name).unwrap(),
            Some(MAX_DESIGN_NAME)
        );
    }
}
