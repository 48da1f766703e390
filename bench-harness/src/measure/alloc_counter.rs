//! A counting global allocator: live bytes, peak live bytes and calls, in relaxed atomics.
//!
//! The `dodbench` binary installs it (`#[global_allocator] static A: CountingAlloc`; `cargo
//! bench` runs its criterion driver in that binary), but it counts only while a [`Counting`]
//! guard lives ([`count`]): otherwise each call forwards to the system allocator behind one
//! relaxed load and a branch, so the timed replays of the bench, `latency`, `sweep` and
//! `advise` and the simulated counts of `cache` pay no atomic read-modify-write per
//! allocation, and all of them run the same allocator. The memory measurement
//! counts over its own replay (`measure::memory`). The counts are process-wide: measure on one
//! thread.
//!
//! Live and peak bytes are signed: memory allocated while not counting and freed while
//! counting takes its size off the live bytes without having added it, so only differences
//! between two snapshots taken under one guard mean anything (which is how `measure::memory`
//! reads them).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// [`Counting`] guards alive: calls are counted while there is one.
static GUARDS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

/// The system allocator plus counts, while a [`Counting`] guard lives.
pub struct CountingAlloc;

/// The counts at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocSnapshot {
    /// Bytes allocated and not yet freed since counting started (negative when more was freed
    /// than allocated since then: see the module doc).
    pub live: i64,
    /// Highest `live` since the last [`reset_peak`].
    pub peak: i64,
    /// alloc, realloc and dealloc calls so far.
    pub calls: u64,
}

impl AllocSnapshot {
    /// Bytes live now beyond `earlier`'s live bytes (0 when fewer).
    pub fn live_since(&self, earlier: i64) -> u64 {
        u64::try_from(self.live - earlier).unwrap_or(0)
    }

    /// Peak bytes beyond `earlier`'s live bytes (0 when fewer).
    pub fn peak_since(&self, earlier: i64) -> u64 {
        u64::try_from(self.peak - earlier).unwrap_or(0)
    }
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

/// Counting while it lives ([`count`]); dropping it stops the counting.
#[must_use = "the counting stops when the guard is dropped"]
pub struct Counting(());

impl Drop for Counting {
    fn drop(&mut self) {
        GUARDS.fetch_sub(1, Relaxed);
    }
}

/// Counts until the returned guard is dropped; `None` (and nothing counted) when
/// [`CountingAlloc`] is not this process's global allocator.
pub fn count() -> Option<Counting> {
    GUARDS.fetch_add(1, Relaxed);
    let guard = Counting(());
    let before = CALLS.load(Relaxed);
    let probe = std::hint::black_box(Box::new(0u64));
    drop(probe);
    (CALLS.load(Relaxed) != before).then_some(guard)
}

/// Whether [`CountingAlloc`] is this process's global allocator (counting is left as it was).
pub fn is_installed() -> bool {
    count().is_some()
}

fn counting() -> bool {
    GUARDS.load(Relaxed) != 0
}

fn grew(bytes: usize) {
    let bytes = bytes as i64;
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes as i64, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so `System`'s
// guarantees hold; the counters are plain atomics and never touch the memory. Reached by every
// allocation of the `dodbench` binary, and counting by `counts_live_bytes_peak_and_calls`.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded from our caller, who upholds `alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if counting() {
            CALLS.fetch_add(1, Relaxed);
            if !p.is_null() {
                grew(layout.size());
            }
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded from our caller, who upholds `alloc_zeroed`'s contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if counting() {
            CALLS.fetch_add(1, Relaxed);
            if !p.is_null() {
                grew(layout.size());
            }
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if counting() {
            CALLS.fetch_add(1, Relaxed);
            shrank(layout.size());
        }
        // SAFETY: forwarded from our caller: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded from our caller, who upholds `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if counting() {
            CALLS.fetch_add(1, Relaxed);
            if !p.is_null() {
                shrank(layout.size());
                grew(new_size);
            }
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
        let counting = count().expect("installed in this test binary");
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
        assert_eq!(after.live_since(after.live + 1), 0);
        assert_eq!(
            during.live_since(before.live),
            (during.live - before.live) as u64
        );
        // Other tests of this binary may hold guards of their own: check the nesting only.
        let nested = count().expect("installed");
        drop(counting);
        assert!(super::counting(), "a guard still alive keeps counting");
        drop(nested);
        assert!(is_installed());
    }
}
