//! Working-set sweep: ns/op against N on a log scale from 1K to at least four times the
//! last-level cache, so a chart shows where each design falls off each cache level. Timed with
//! [`crate::timing::TimedReplay`] (verified replays), median of a few samples.

use workloads::{Payload, TraceStats};

use crate::measure::DesignMeasure;
use crate::replay::{Design, Family};
use crate::suite::PreparedTrace;
use crate::timing::{TimedReplay, median_and_range};
use crate::verify::Checked;
use results::CacheSizes;

/// Smallest N of a sweep.
pub const MIN_N: usize = 1 << 10;
/// Largest N whatever the caches say: 16M objects (512 MiB of payload) keeps a full sweep in
/// minutes. This host reports a 480 MiB L3 that is the whole host's; memory latency starts at
/// about 16-32 MiB.
pub const MAX_N: usize = 1 << 24;
/// Bytes an object costs at most in any design (the boxed map designs), for the memory cap.
pub const WORST_BYTES_PER_OBJECT: u64 = 128;
/// Bytes of one payload.
pub const PAYLOAD_BYTES: u64 = std::mem::size_of::<Payload>() as u64;

/// The sizes of a sweep and why it stops where it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepPlan {
    /// Live sizes, ascending.
    pub sizes: Vec<usize>,
    /// The largest size allowed.
    pub max_n: usize,
    /// Why `max_n`.
    pub cap: String,
}

/// Plans a sweep: powers of 4 from [`MIN_N`] (every other one in quick mode, up to 256K: the
/// ID tables' 1M point was most of a quick sweep's minutes in CI, and the full sweep is the
/// one that crosses the last-level cache) to
/// `4 × LLC / payload` objects, capped at [`MAX_N`] and at half of `mem_available` bytes.
pub fn plan(quick: bool, caches: &CacheSizes, mem_available: Option<u64>) -> SweepPlan {
    let llc = caches.l3.or(caches.l2);
    let want = llc.map_or(MAX_N as u64, |b| 4 * b / PAYLOAD_BYTES);
    let mut max_n = want.min(MAX_N as u64);
    let mut cap = match llc {
        Some(b) if want > MAX_N as u64 => format!(
            "4 x LLC ({} MiB) would be {want} objects; capped at {MAX_N} (time budget; the \
             reported LLC is a shared host cache)",
            b >> 20
        ),
        Some(b) => format!("4 x LLC ({} MiB) / {PAYLOAD_BYTES} B per object", b >> 20),
        None => format!("LLC unknown; capped at {MAX_N}"),
    };
    if let Some(mem) = mem_available {
        let fits = mem / 2 / WORST_BYTES_PER_OBJECT;
        if fits < max_n {
            max_n = fits;
            cap = format!(
                "half of available memory ({} MiB) at {WORST_BYTES_PER_OBJECT} B per object",
                mem >> 20
            );
        }
    }
    let max_n = (max_n as usize).max(MIN_N);
    let top = if quick { max_n.min(1 << 18) } else { max_n };
    let step = if quick { 16 } else { 4 };
    let mut sizes = Vec::new();
    let mut n = MIN_N;
    while n <= top {
        sizes.push(n);
        n *= step;
    }
    if quick && sizes.last() != Some(&top) && top > MIN_N {
        sizes.push(top);
    }
    SweepPlan { sizes, max_n, cap }
}

/// `MemAvailable` of `/proc/meminfo` text, in bytes.
pub fn mem_available(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// The sweep pass: `samples` timed body replays per point.
pub struct SweepPass {
    /// Timed replays per point (median taken).
    pub samples: usize,
}

impl DesignMeasure for SweepPass {
    type Output = f64;

    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        _checked: &Checked,
    ) -> Result<f64, String> {
        let ops = prepared.expected.stats.work_units().max(1) as f64;
        let mut timed = TimedReplay::new(design, &prepared.trace, &prepared.expected);
        let mut per_op = (0..self.samples.max(1))
            .map(|_| timed.run(1).map(|d| d.as_nanos() as f64 / ops))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(median_and_range(&mut per_op).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_from_caches_memory_and_mode() {
        let host = CacheSizes {
            l1d: Some(48 << 10),
            l2: Some(2 << 20),
            l3: Some(480 << 20),
        };
        let p = plan(false, &host, Some(22 << 30));
        assert_eq!(p.max_n, MAX_N);
        assert_eq!(p.sizes.first(), Some(&1024));
        assert_eq!(p.sizes.last(), Some(&MAX_N));
        assert!(p.cap.contains("capped"), "{}", p.cap);
        let q = plan(true, &host, Some(22 << 30));
        assert_eq!(q.sizes, vec![1024, 16384, 262144]);
        let small = CacheSizes {
            l3: Some(8 << 20),
            ..CacheSizes::default()
        };
        assert_eq!(plan(false, &small, None).max_n, 1 << 20);
        let low_mem = plan(false, &host, Some(256 << 20));
        assert_eq!(low_mem.max_n, 1 << 20);
        assert!(low_mem.cap.contains("memory"));
        assert_eq!(plan(false, &CacheSizes::default(), None).max_n, MAX_N);
    }

    #[test]
    fn reads_mem_available() {
        let m = "MemTotal:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(mem_available(m), Some(2 << 20));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
    }
}
