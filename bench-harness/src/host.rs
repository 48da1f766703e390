//! What the host offers right now (as opposed to what it is, `machine`): the memory available
//! to new allocations, which bounds the arenas a replay may build, and a fresh time slice of
//! the scheduler before a timed region. A leaf module, so replay code and reference loops can
//! use it without importing the measuring code (`machine`, `timing`).

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
/// work before it (a rebuild of the design's state). Without it, on a 2-core machine with two
/// other busy processes, the body after a long setup was preempted in 8 of 10 rounds and timed
/// 12× slow, while a design with a short setup was not: a bias, not noise. With nothing else
/// runnable it returns at once.
pub fn fresh_time_slice() {
    std::thread::yield_now();
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
}
