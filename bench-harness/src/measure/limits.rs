//! The machine's memory limits ([`results::MemoryLimits`]) at buffer sizes from the first-level
//! cache to beyond the last, measured by `dodbench sweep` beside the designs' points: what a
//! design of a memory-bound body could reach at most on this machine, so the report can state
//! how far each design is from it.
//!
//! Three kernels over one buffer of `u64` words per size, one thread:
//! * **sequential read**: the first word of each 64-byte line summed front to back, as many
//!   passes as make a run of [`RUN_BYTES`]: bytes per ns of lines brought in. One load per
//!   line measures how fast one core streams lines; summing every word adds loads and adds
//!   per line that a design reading one field of each object does not pay, and read below the
//!   ID tables' packed iteration (`iterate-full` at 1M) between the caches and memory;
//! * **independent loads**: one word per load at an address computed from the load's number
//!   alone (a multiplicative hash of a counter, so no load waits for another and the
//!   addresses follow no stride a prefetcher could learn), the words summed: ns per load, the
//!   cost a loop of gets by ID pays when each get is one load;
//! * **dependent loads**: a walk of one random cycle through the buffer's cache lines
//!   (Sattolo's shuffle), each line holding the index of the next: ns per load.
//!
//! Each kernel's answer is checked against a plain loop computing it another way, outside the
//! timing (each line's first word summed by index, times the passes; the words at the
//! addresses collected first, summed; the line reached by following the permutation itself),
//! so a kernel the compiler shortened fails instead of posting a limit. Each run is repeated and the
//! fastest kept: a limit is what the machine can do, and another job's load only ever makes a
//! run slower.

use std::hint::black_box;
use std::time::Instant;

use results::{MemoryLimit, MemoryLimits};
use workloads::rng::TraceRng;

/// The smallest buffer measured: inside any first-level data cache.
pub const MIN_BYTES: u64 = 16 << 10;
/// Bytes one sequential-read run reads (passes over a small buffer add up to it).
pub const RUN_BYTES: u64 = 256 << 20;
/// Loads of one independent-load run.
pub const INDEPENDENT_LOADS: usize = 1 << 22;
/// Loads of one dependent-load run (each waits for the one before: a memory-latency walk of
/// this many takes tens of ms).
pub const DEPENDENT_LOADS: usize = 1 << 19;
/// Words in a cache line of 64 bytes, the dependent walk's stride.
const LINE_WORDS: usize = 8;

/// From this size up, [`sizes`] doubles instead of quadrupling: past the second-level cache
/// the limits fall steeply at each cache boundary, and a report interpolates between sizes.
pub const FINE_FROM_BYTES: u64 = 1 << 20;

/// The buffer sizes of a measurement: powers of 4 bytes from [`MIN_BYTES`] to
/// [`FINE_FROM_BYTES`], then powers of 2 up to `max_bytes` (rounded down to a power of two).
pub fn sizes(max_bytes: u64) -> Vec<u64> {
    let top = if max_bytes < MIN_BYTES {
        MIN_BYTES
    } else {
        1 << (63 - max_bytes.leading_zeros())
    };
    let mut out = Vec::new();
    let mut bytes = MIN_BYTES;
    while bytes <= top {
        out.push(bytes);
        bytes *= if bytes < FINE_FROM_BYTES { 4 } else { 2 };
    }
    out
}

/// Measures the limits at each of `sizes` (bytes, powers of two), each kernel's run repeated
/// `repeats` times.
///
/// # Errors
/// A kernel's answer differs from its plain loop's (a measuring bug, never a slow machine).
pub fn measure(sizes: &[u64], repeats: usize) -> Result<MemoryLimits, String> {
    let repeats = repeats.max(1);
    let points = sizes
        .iter()
        .map(|&bytes| measure_at(bytes, repeats))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MemoryLimits {
        method: format!(
            "one thread, a fresh buffer of u64 words per size; sequential read: the first \
             word of each 64-byte line summed front to back, {} MiB per run; independent loads: {INDEPENDENT_LOADS} \
             loads of words at hashed addresses, summed; dependent loads: \
             {DEPENDENT_LOADS} steps of a random single cycle through the buffer's 64-byte \
             lines; each answer checked against a plain loop; the fastest of {repeats} runs \
             kept",
            RUN_BYTES >> 20
        ),
        points,
    })
}

/// The three limits at one buffer of `bytes`.
fn measure_at(bytes: u64, repeats: usize) -> Result<MemoryLimit, String> {
    let words = (bytes as usize / 8).next_power_of_two().max(2 * LINE_WORDS);
    let mut buffer: Vec<u64> = (0..words as u64).map(|i| i ^ (i << 29)).collect();
    let plain_sum = (0..words)
        .step_by(LINE_WORDS)
        .fold(0u64, |a, i| a.wrapping_add(buffer[i]));
    let passes = (RUN_BYTES / bytes).max(1);
    let read_ns = fastest(repeats, || {
        let sum = sequential_read(black_box(&buffer), passes);
        (sum == plain_sum.wrapping_mul(passes))
            .then_some(())
            .ok_or_else(|| {
                format!("sequential read of {bytes} B: sum differs from the plain loop's")
            })
    })?;
    let expected = plain_independent_sum(&buffer, INDEPENDENT_LOADS);
    let independent_ns = fastest(repeats, || {
        let sum = independent_loads(black_box(&buffer), INDEPENDENT_LOADS);
        (sum == expected).then_some(()).ok_or_else(|| {
            format!("independent loads on {bytes} B: sum differs from the plain loop's")
        })
    })?;
    let next = link_random_cycle(&mut buffer, bytes);
    let reached = plain_walk(&next, DEPENDENT_LOADS);
    let dependent_ns = fastest(repeats, || {
        let at = dependent_loads(black_box(&buffer), DEPENDENT_LOADS);
        (at == reached * LINE_WORDS).then_some(()).ok_or_else(|| {
            format!("dependent loads on {bytes} B: the walk ended elsewhere than the plain one")
        })
    })?;
    let bytes = (words * 8) as u64;
    Ok(MemoryLimit {
        bytes,
        read_bytes_per_ns: (bytes * passes) as f64 / read_ns,
        independent_load_ns: independent_ns / INDEPENDENT_LOADS as f64,
        dependent_load_ns: dependent_ns / DEPENDENT_LOADS as f64,
    })
}

/// The fastest of `repeats` runs of `run`, in ns; the first failed check ends it.
fn fastest(repeats: usize, mut run: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..repeats {
        let start = Instant::now();
        let checked = run();
        let ns = start.elapsed().as_nanos() as f64;
        checked?;
        best = best.min(ns.max(1.0));
    }
    Ok(best)
}

/// `passes` sums of the first word of each line of `words`, front to back.
#[inline(never)]
fn sequential_read(words: &[u64], passes: u64) -> u64 {
    let mut total = 0u64;
    for _ in 0..passes {
        // Opaque per pass: the compiler may not sum the buffer once and multiply.
        let words = black_box(words);
        let lines = words.chunks_exact(LINE_WORDS);
        total = total.wrapping_add(lines.fold(0u64, |a, line| a.wrapping_add(line[0])));
    }
    total
}

/// The word index of load `i` in a buffer of `mask + 1` words (a power of two): the product
/// of `i` and the golden ratio's 64-bit multiplier, its high bits folded onto its low ones.
/// One multiply per load keeps the kernel's own work below a load from the first-level
/// cache, and the fold breaks the product's constant stride (a prefetcher learns strides).
#[inline(always)]
fn hashed_index(i: u64, mask: usize) -> usize {
    let z = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (z ^ (z >> 29)) as usize & mask
}

/// The sum of `loads` words at [`hashed_index`] addresses.
#[inline(never)]
fn independent_loads(words: &[u64], loads: usize) -> u64 {
    let mask = words.len() - 1;
    let mut sum = 0u64;
    for i in 0..loads as u64 {
        sum = sum.wrapping_add(words[hashed_index(i, mask)]);
    }
    sum
}

/// [`independent_loads`]' answer, the addresses collected first.
fn plain_independent_sum(words: &[u64], loads: usize) -> u64 {
    let at: Vec<usize> = (0..loads as u64)
        .map(|i| hashed_index(i, words.len() - 1))
        .collect();
    at.iter().fold(0u64, |a, &i| a.wrapping_add(words[i]))
}

/// Links the buffer's lines into one random cycle: the first word of line `l` holds the word
/// index of the line after it. Returns the cycle as a permutation of line numbers (Sattolo's
/// shuffle of the identity, which leaves a single cycle), seeded by the buffer's size.
fn link_random_cycle(words: &mut [u64], seed: u64) -> Vec<u32> {
    let lines = words.len() / LINE_WORDS;
    let mut next: Vec<u32> = (0..lines as u32).collect();
    let mut rng = TraceRng::new(seed);
    for i in (1..lines).rev() {
        let j = rng.below(i as u64) as usize;
        next.swap(i, j);
    }
    for (line, &after) in next.iter().enumerate() {
        words[line * LINE_WORDS] = u64::from(after) * LINE_WORDS as u64;
    }
    next
}

/// The word index the walk reaches after `loads` steps from word 0.
#[inline(never)]
fn dependent_loads(words: &[u64], loads: usize) -> usize {
    let mut at = 0usize;
    for _ in 0..loads {
        at = words[at] as usize;
    }
    at
}

/// The line the cycle `next` reaches after `loads` steps from line 0.
fn plain_walk(next: &[u32], loads: usize) -> usize {
    (0..loads).fold(0usize, |line, _| next[line] as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_run_in_powers_of_four_then_two_to_the_top() {
        assert_eq!(sizes(1 << 20), vec![16 << 10, 64 << 10, 256 << 10, 1 << 20]);
        assert_eq!(
            sizes(5 << 20),
            vec![16 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20]
        );
        assert_eq!(sizes(100 << 10), vec![16 << 10, 64 << 10]);
        assert_eq!(sizes(1000), vec![16 << 10]);
    }

    #[test]
    fn the_walk_is_one_cycle_through_every_line() {
        let mut words = vec![0u64; 64 * LINE_WORDS];
        let next = link_random_cycle(&mut words, 7);
        let mut seen = vec![false; next.len()];
        let mut line = 0;
        for _ in 0..next.len() {
            assert!(
                !seen[line],
                "line {line} visited twice before the cycle closed"
            );
            seen[line] = true;
            line = next[line] as usize;
        }
        assert_eq!(line, 0);
        assert_eq!(
            dependent_loads(&words, 1000),
            plain_walk(&next, 1000) * LINE_WORDS
        );
    }

    #[test]
    fn kernels_agree_with_plain_loops_and_limits_are_positive() {
        let limits = measure(&[MIN_BYTES, 4 * MIN_BYTES], 1).unwrap();
        assert_eq!(limits.points.len(), 2);
        for p in &limits.points {
            assert!(
                p.read_bytes_per_ns > 0.0 && p.read_bytes_per_ns.is_finite(),
                "{p:?}"
            );
            assert!(p.independent_load_ns > 0.0, "{p:?}");
            assert!(p.dependent_load_ns > 0.0, "{p:?}");
        }
        assert!(limits.method.contains("fastest of 1"));
    }

    #[test]
    fn independent_addresses_spread_over_the_buffer() {
        let words = 1 << 12;
        let mut hit = vec![false; words];
        for i in 0..words as u64 {
            hit[hashed_index(i, words - 1)] = true;
        }
        let covered = hit.iter().filter(|&&h| h).count();
        assert!(covered > words / 2, "{covered} of {words}");
    }
}
