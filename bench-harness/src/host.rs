//! What the host offers right now (as opposed to what it is, `machine`): the memory available
//! to new allocations, which bounds the arenas a replay may build, a fresh time slice of the
//! scheduler before a timed region, the stopwatch every timed region is read with (wall time
//! less the thread's waits for a processor), and whether a measurement pass is replaying
//! (which that stopwatch and the threaded families ask). A leaf module, so replay code and
//! reference loops can use it without importing the measuring code (`machine`, `timing`).

use std::time::{Duration, Instant};

/// Bytes of memory the kernel says are available to new allocations (`MemAvailable` of
/// `/proc/meminfo`); `None` where that is unknown (not Linux, no procfs).
pub fn available_memory() -> Option<u64> {
    mem_available(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Yields the processor before a timed region, so that on a busy machine the region starts on
/// a fresh time slice of the scheduler instead of at the end of one used up by the untimed
/// work before it (a rebuild of the design's state). Without it, on a busy machine with few
/// cores, a body after a long setup is preempted in most rounds and timed many times slow,
/// while a design with a short setup is not: a bias, not noise. With nothing else runnable it
/// returns at once.
pub fn fresh_time_slice() {
    std::thread::yield_now();
}

/// Whether a measurement pass is replaying ([`set_repeatable`]).
static REPEATABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a measurement pass is replaying: its counts (simulated instructions, allocator
/// calls) gate CI, so every replay must repeat them exactly. A family whose designs run on
/// worker threads runs them on the caller, one thread, while this holds (a simulated CPU runs
/// threads one at a time anyway, and a worker's spin before it sleeps would make the counts
/// vary from run to run); the bench's timed runs use the machine's threads.
pub fn repeatable() -> bool {
    REPEATABLE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets [`repeatable`] (the passes' driver and the cache pass's child process; re-exported
/// by `replay`) and returns the previous value.
pub fn set_repeatable(on: bool) -> bool {
    REPEATABLE.swap(on, std::sync::atomic::Ordering::Relaxed)
}

/// Times a region as wall time less the time the calling thread spent waiting for a processor
/// (its run-queue delay, Linux's `/proc/thread-self/schedstat`), so a sample that other work
/// on the machine preempted reads as it would have on a quiet one instead of as the sum of
/// its run and the other work's turn. Everything a preemption leaves behind still counts
/// (caches the other work evicted, which the paired rounds cancel in a ratio). A region that
/// hands its work to other threads is timed on the wall clock ([`Stopwatch::wall`]), and so is
/// every region where the delay cannot be read (not Linux, no procfs) and every region a
/// measurement pass replays ([`Stopwatch::start`]).
///
/// The delay is read outside the region, and a wait that began inside one of those two reads
/// is not the region's: of the delay counted between them, only what exceeds the reads' own
/// wall time is taken off, so a region is never timed shorter than it ran.
#[derive(Debug)]
pub struct Stopwatch {
    before: Instant,
    start: Instant,
    waited: Option<u64>,
}

impl Stopwatch {
    /// Starts timing a region run on the calling thread alone; on the wall clock while a
    /// measurement pass replays ([`repeatable`]): the passes count the
    /// instructions of the timed regions, and reading the delay added its own to the counts
    /// that gate CI (a reference loop's `ir` per op up 2.0-2.4% at 1,000 objects).
    pub fn start() -> Self {
        if repeatable() {
            return Self::wall();
        }
        let before = Instant::now();
        let waited = run_queue_wait_ns();
        Self {
            before,
            waited,
            start: Instant::now(),
        }
    }

    /// Starts timing on the wall clock alone, for a region whose work runs on other threads
    /// too: the caller's waits for a processor are not its workers', which ran meanwhile.
    pub fn wall() -> Self {
        let now = Instant::now();
        Self {
            before: now,
            start: now,
            waited: None,
        }
    }

    /// [`Stopwatch::wall`] for a region whose work runs `on_other_threads` too, else
    /// [`Stopwatch::start`].
    pub fn start_for(on_other_threads: bool) -> Self {
        if on_other_threads {
            Self::wall()
        } else {
            Self::start()
        }
    }

    /// The region's time since [`start`](Self::start): its wall time less the thread's wait
    /// for a processor within it.
    pub fn elapsed(&self) -> Duration {
        let end = Instant::now();
        let wall = end - self.start;
        let Some(waited_before) = self.waited else {
            return wall;
        };
        let Some(waited_after) = run_queue_wait_ns() else {
            return wall;
        };
        let reads = (self.start - self.before) + end.elapsed();
        let waited = Duration::from_nanos(waited_after.saturating_sub(waited_before));
        wall.saturating_sub(waited.saturating_sub(reads))
    }
}

#[cfg(target_os = "linux")]
thread_local! {
    /// This thread's `schedstat`, opened once: read again from its start it gives fresh counts.
    static SCHEDSTAT: Option<std::fs::File> = std::fs::File::open("/proc/thread-self/schedstat").ok();
}

/// Nanoseconds the calling thread has waited on a run queue so far (the second field of its
/// `schedstat`), or `None` where that is not available.
#[cfg(target_os = "linux")]
fn run_queue_wait_ns() -> Option<u64> {
    use std::os::unix::fs::FileExt;
    SCHEDSTAT.with(|file| {
        let mut buf = [0u8; 96];
        let len = file.as_ref()?.read_at(&mut buf, 0).ok()?;
        schedstat_wait(std::str::from_utf8(&buf[..len]).ok()?)
    })
}

#[cfg(not(target_os = "linux"))]
fn run_queue_wait_ns() -> Option<u64> {
    None
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn schedstat_wait(schedstat: &str) -> Option<u64> {
    schedstat.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24000000 kB\nMemAvailable:   2000 kB\n";
        assert_eq!(mem_available(meminfo), Some(2000 * 1024));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
        assert!(
            available_memory().is_some_and(|b| b > 0) || !std::path::Path::new("/proc").exists()
        );
    }

    #[test]
    fn the_run_queue_wait_is_the_second_field_of_schedstat() {
        assert_eq!(
            schedstat_wait("334441888 256812162 101\n"),
            Some(256_812_162)
        );
        assert_eq!(schedstat_wait("334441888\n"), None);
        assert_eq!(schedstat_wait("a b c"), None);
        if std::path::Path::new("/proc/thread-self/schedstat").exists() {
            assert!(
                run_queue_wait_ns().is_some(),
                "schedstat is there but unread"
            );
        }
    }

    #[test]
    fn a_stopwatch_never_reads_more_than_the_wall_time_around_it() {
        for spins in [0u64, 1_000, 100_000] {
            let outer = Instant::now();
            let watch = Stopwatch::start();
            let mut x = 0u64;
            for i in 0..spins {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
            let inside = watch.elapsed();
            assert!(
                inside <= outer.elapsed(),
                "{inside:?} for {spins} spins ({x})"
            );
        }
    }
}
