//! The op vocabulary of the block-allocator family ("Allocation Adventures 2/3"), its
//! validation and its bytes in trace files.
//!
//! Block handle `k` names the block made by the trace's `k`-th [`AllocOp::Alloc`]; a
//! `Realloc` keeps the handle (the block may move). Handles are never reused by a trace. The
//! replayer decides the arena size from [`AllocStats`] (the peak of live bytes), so a trace
//! states only what a program asked for.
//!
//! Work units: one per op (`Alloc`, `Free`, `Realloc`).
//!
//! | tag | op        | fields                 |
//! |-----|-----------|------------------------|
//! | 0   | `Alloc`   | size, align            |
//! | 1   | `Free`    | block                  |
//! | 2   | `Realloc` | block, new size        |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;
pub mod wee_alloc;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// A block handle: handle `k` is the `k`-th `Alloc` of the trace.
pub type BlockHandle = u32;

/// The block size a buddy allocator with 16-byte leaves reserves for a request: the figure
/// [`AllocStats::peak_pow2_bytes`] sums.
pub const fn pow2_block(size: u32, align: u32) -> u64 {
    let want = if size > align { size } else { align };
    let want = if want < 16 { 16 } else { want as u64 };
    want.next_power_of_two()
}

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = AllocOp;

/// One operation on a block allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllocOp {
    /// Allocate `size` bytes (at least 1) aligned to `align` (a power of two); the next handle.
    Alloc {
        /// Bytes requested.
        size: u32,
        /// Alignment requested.
        align: u32,
    },
    /// Free a live block.
    Free(BlockHandle),
    /// Resize a live block to `size` bytes (at least 1), keeping its contents.
    Realloc {
        /// The block.
        block: BlockHandle,
        /// The new size.
        size: u32,
    },
}

/// Counts of an allocator trace's body (and peaks over the whole trace), from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocStats {
    /// `Alloc` ops in the body.
    pub allocs: u64,
    /// `Free` ops in the body.
    pub frees: u64,
    /// `Realloc` ops in the body.
    pub reallocs: u64,
    /// Live blocks after the setup.
    pub live_at_start: u64,
    /// Bytes requested by the live blocks after the setup.
    pub requested_at_start: u64,
    /// Most live blocks at any point.
    pub peak_live: u64,
    /// Most bytes requested by live blocks at any point.
    pub peak_requested_bytes: u64,
    /// Most bytes live blocks would reserve in a buddy allocator with 16-byte leaves
    /// ([`pow2_block`] summed) at any point: a lower bound on the arena a buddy needs.
    pub peak_pow2_bytes: u64,
    /// Largest size requested.
    pub max_size: u64,
    /// Largest alignment requested.
    pub max_align: u64,
}

trace_stats!(AllocStats: allocs, frees, reallocs);

crate::codec::op_tags! { ALLOC, FREE, REALLOC }

impl TraceOp for AllocOp {
    const FAMILY: &'static str = "alloc";
    type Stats = AllocStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<AllocStats, InvalidTrace> {
        // `blocks[k]` is `Some((size, align))` while block `k` is live.
        let mut blocks: Vec<Option<(u32, u32)>> = Vec::new();
        let (mut live, mut requested, mut pow2) = (0u64, 0u64, 0u64);
        let mut stats = AllocStats::default();
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            if part == Part::Body {
                stats.live_at_start = live;
                stats.requested_at_start = requested;
            }
            let in_body = part == Part::Body;
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                let live_block = |blocks: &mut Vec<Option<(u32, u32)>>, h: BlockHandle| match blocks
                    .get(h as usize)
                {
                    Some(Some(b)) => Ok(*b),
                    Some(None) => Err(bad(format!("uses block {h}, which was freed"))),
                    None => Err(bad(format!("uses block {h}, not allocated yet"))),
                };
                match op {
                    AllocOp::Alloc { size, align } => {
                        if size == 0 {
                            return Err(bad("asks for 0 bytes".into()));
                        }
                        if !align.is_power_of_two() {
                            return Err(bad(format!("alignment {align} is not a power of two")));
                        }
                        if blocks.len() > u32::MAX as usize {
                            return Err(bad("allocates more than 2^32 blocks".into()));
                        }
                        blocks.push(Some((size, align)));
                        live += 1;
                        requested += u64::from(size);
                        pow2 += pow2_block(size, align);
                        stats.allocs += u64::from(in_body);
                        stats.max_size = stats.max_size.max(u64::from(size));
                        stats.max_align = stats.max_align.max(u64::from(align));
                    }
                    AllocOp::Free(h) => {
                        let (size, align) = live_block(&mut blocks, h)?;
                        blocks[h as usize] = None;
                        live -= 1;
                        requested -= u64::from(size);
                        pow2 -= pow2_block(size, align);
                        stats.frees += u64::from(in_body);
                    }
                    AllocOp::Realloc { block, size } => {
                        let (old, align) = live_block(&mut blocks, block)?;
                        if size == 0 {
                            return Err(bad("resizes to 0 bytes (use Free)".into()));
                        }
                        blocks[block as usize] = Some((size, align));
                        requested = requested - u64::from(old) + u64::from(size);
                        pow2 = pow2 - pow2_block(old, align) + pow2_block(size, align);
                        stats.reallocs += u64::from(in_body);
                        stats.max_size = stats.max_size.max(u64::from(size));
                    }
                }
                stats.peak_live = stats.peak_live.max(live);
                stats.peak_requested_bytes = stats.peak_requested_bytes.max(requested);
                stats.peak_pow2_bytes = stats.peak_pow2_bytes.max(pow2);
            }
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, AllocOp::Alloc { .. })
    }

    fn is_read_only(self) -> bool {
        false
    }

    const RENAMES_HANDLES: bool = true;

    /// A free or realloc of a block that no longer exists is dropped.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            AllocOp::Free(h) => AllocOp::Free(rename(h)?),
            AllocOp::Realloc { block, size } => AllocOp::Realloc {
                block: rename(block)?,
                size,
            },
            AllocOp::Alloc { .. } => self,
        })
    }

    fn touches(self) -> Option<u32> {
        match self {
            AllocOp::Free(h) | AllocOp::Realloc { block: h, .. } => Some(h),
            AllocOp::Alloc { .. } => None,
        }
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, a, b) = match self {
            AllocOp::Alloc { size, align } => (tag::ALLOC, size, Some(align)),
            AllocOp::Free(h) => (tag::FREE, h, None),
            AllocOp::Realloc { block, size } => (tag::REALLOC, block, Some(size)),
        };
        OpFields::write_op(out, tag, std::iter::once(a).chain(b));
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::ALLOC => AllocOp::Alloc {
                size: f.u32()?,
                align: f.u32()?,
            },
            tag::FREE => AllocOp::Free(f.u32()?),
            tag::REALLOC => AllocOp::Realloc {
                block: f.u32()?,
                size: f.u32()?,
            },
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    #[test]
    fn tracks_peaks_and_counts() {
        use AllocOp::*;
        let t = Trace::for_test(
            vec![
                Alloc {
                    size: 100,
                    align: 8,
                },
                Alloc {
                    size: 10,
                    align: 64,
                },
            ],
            vec![
                Realloc {
                    block: 0,
                    size: 300,
                },
                Free(1),
                Alloc { size: 1, align: 1 },
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.live_at_start, s.requested_at_start), (2, 110));
        assert_eq!(s.peak_requested_bytes, 310);
        assert_eq!(s.peak_pow2_bytes, 512 + 64);
        assert_eq!(s.work_units(), 3);
        assert_eq!((s.max_size, s.max_align), (300, 64));
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<AllocOp>(&bytes).unwrap(), t);
    }

    #[test]
    fn rejects_bad_blocks_sizes_and_alignments() {
        use AllocOp::*;
        for (body, needle) in [
            (vec![Free(0), Free(0)], "freed"),
            (vec![Free(5)], "not allocated"),
            (vec![Alloc { size: 0, align: 1 }], "0 bytes"),
            (vec![Alloc { size: 4, align: 3 }], "power of two"),
            (vec![Realloc { block: 0, size: 0 }], "0 bytes"),
        ] {
            Trace::assert_invalid(vec![Alloc { size: 8, align: 8 }], body, needle);
        }
    }
}
