//! The one callgrind client request the cache simulation uses: start instrumenting here.
//!
//! `dodbench cache` runs its children with `--instr-atstart=no` where this request exists
//! ([`AVAILABLE`]): loading the trace, the first setup and the dry run that resolves the body run
//! at valgrind's plain speed instead of under the cache simulator, and the child calls
//! [`start_instrumentation`] just before the part whose cache state the counts depend on (see
//! [`cache_sim::START_STATE`](super::cache_sim::START_STATE)). On a 262,144-object
//! `lookup-uniform` child the whole program is 178M instructions of which the body is 4.4M; the
//! child took 3.0 s instrumented from the start and 0.7 s with no instrumentation at all.
//! Instructions per op, the gated count, do not depend on when instrumentation starts.
//!
//! A client request is a no-op sequence of instructions that valgrind recognises: outside
//! valgrind it changes nothing and costs a few cycles. The sequence is valgrind's own
//! (`valgrind.h`, `VALGRIND_DO_CLIENT_REQUEST_EXPR` for amd64); on other architectures the
//! request is not compiled and the children are instrumented from the start, as before.

/// Whether this build can start callgrind's instrumentation itself (x86-64 only).
pub const AVAILABLE: bool = cfg!(target_arch = "x86_64");

/// `VG_USERREQ_TOOL_BASE('C', 'T')`: the first of callgrind's requests (`callgrind.h`).
const CALLGRIND_BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
/// `VG_USERREQ__START_INSTRUMENTATION`, the fifth of callgrind's requests.
const START_INSTRUMENTATION: u64 = CALLGRIND_BASE + 4;

/// Asks callgrind to start instrumenting (a no-op outside valgrind, or where instrumentation
/// already runs).
#[inline(never)]
pub fn start_instrumentation() {
    client_request(START_INSTRUMENTATION);
}

/// Issues valgrind client request `request` with no arguments; returns valgrind's answer, 0
/// outside valgrind.
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64) -> u64 {
    let args: [u64; 6] = [request, 0, 0, 0, 0, 0];
    let mut result: u64 = 0;
    // SAFETY: the four rotations of rdi add up to 128 bits, so rdi ends as it started; the
    // `xchg rbx, rbx` swaps rbx with itself. Outside valgrind the sequence therefore changes
    // nothing but the flags (not preserved, as the asm declares by default). Under valgrind it
    // is a client request: valgrind reads the six words at rax (a live local array) and writes
    // its answer to rdx, declared as an output. No stack is used.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            options(nostack),
        );
    }
    result
}

/// No client requests on this architecture.
#[cfg(not(target_arch = "x86_64"))]
fn client_request(_request: u64) -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_valgrind_the_request_changes_nothing_and_answers_zero() {
        let before = std::hint::black_box(vec![1u64, 2, 3]);
        start_instrumentation();
        assert_eq!(client_request(START_INSTRUMENTATION), 0);
        assert_eq!(std::hint::black_box(before), vec![1, 2, 3]);
        assert_eq!(START_INSTRUMENTATION, 0x4354_0004);
    }
}
