//! What the host offers right now (as opposed to what it is, `machine`): the memory available
//! to new allocations, which bounds the arenas a replay may build. A leaf module, so replay
//! code can ask it without importing the measuring code `machine` probes with.

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
