//! A counting global allocator: live bytes, peak live bytes and calls, in relaxed atomics.
//!
//! Installed by the `dodbench` binary only (`#[global_allocator] static A: CountingAlloc`),
//! never by the criterion driver, so timings stay unperturbed. The counts are process-wide:
//! measure on one thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

static LIVE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

/// The system allocator plus counts.
pub struct CountingAlloc;

/// The counts at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocSnapshot {
    /// Bytes allocated and not yet freed.
    pub live: u64,
    /// Highest `live` since the last [`reset_peak`].
    pub peak: u64,
    /// alloc, realloc and dealloc calls so far.
    pub calls: u64,
}

/// The counts now.
pub fn snapshot() -> AllocSnapshot {
    AllocSnapshot {
        live: LIVE.load(Relaxed),
        peak: PEAK.load(Relaxed),
        calls: CALLS.load(Relaxed),
    }
}

/// Starts a new peak at the current live bytes.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// Whether [`CountingAlloc`] is this process's global allocator (an allocation is counted).
pub fn is_installed() -> bool {
    let before = CALLS.load(Relaxed);
    let probe = std::hint::black_box(Box::new(0u64));
    drop(probe);
    CALLS.load(Relaxed) != before
}

fn grew(bytes: u64) {
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so `System`'s
// guarantees hold; the counters are plain atomics and never touch the memory.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        // SAFETY: forwarded from our caller, who upholds `alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size() as u64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        // SAFETY: forwarded from our caller, who upholds `alloc_zeroed`'s contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size() as u64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CALLS.fetch_add(1, Relaxed);
        LIVE.fetch_sub(layout.size() as u64, Relaxed);
        // SAFETY: forwarded from our caller: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        // SAFETY: forwarded from our caller, who upholds `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size() as u64, Relaxed);
            grew(new_size as u64);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static COUNTING: CountingAlloc = CountingAlloc;

    #[test]
    fn counts_live_bytes_peak_and_calls() {
        assert!(is_installed());
        // Other test threads allocate too: only check what cannot be disturbed by them much.
        let before = snapshot();
        let mut v: Vec<u8> = Vec::with_capacity(1 << 20);
        v.push(1);
        let during = snapshot();
        assert!(during.calls > before.calls);
        assert!(during.peak >= 1 << 20);
        v.reserve_exact(1 << 21);
        let zeroed = vec![0u8; 1 << 20];
        assert!(snapshot().calls >= during.calls + 2);
        drop(zeroed);
        drop(v);
        reset_peak();
        let after = snapshot();
        assert!(after.peak >= after.live);
    }
}
