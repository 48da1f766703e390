//! `alloc-every-other-leaf`: the buddy allocator's worst case. Allocating `n` minimum-size
//! (16-byte) blocks in a row fills consecutive leaves; freeing every other one leaves `8 n`
//! free bytes in 16-byte holes whose buddies are all live, so no hole can merge and none can
//! serve anything larger than 16 bytes. The 32-byte blocks asked for next must all come from
//! fresh space (in a buddy allocator, and in any allocator whose smallest free chunk between
//! two live 16-byte blocks is below 32 usable bytes).
//!
//! * **Setup** (untimed): `n` × `Alloc { 16, 8 }` (handles `0..n`).
//! * **Body** (timed): `Free` of every even handle `0, 2, 4, ...` (`ceil(n/2)` frees, in
//!   order), then `ceil(n/2)` × `Alloc { 32, 8 }`.
//!
//! Live blocks: `n` after the setup, `floor(n/2)` after the frees, `n` again at the end; the
//! requested bytes peak at the end (`16 floor(n/2) + 32 ceil(n/2)`), so every request fits an
//! arena of twice the peak. No parameters, no randomness (the seed is recorded, not used).

use crate::alloc::AllocOp;
use crate::alloc::builder::AllocTraceBuilder;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

/// The smallest block: one 16-byte leaf.
const LEAF: u32 = 16;
/// Alignment of every block.
const ALIGN: u32 = 8;

crate::generate::workload! {
    /// n 16-byte blocks; body frees every other one (unmergeable holes), then allocates n/2 32-byte
    /// blocks from fresh space
    pub struct EveryOtherLeafParams for "alloc-every-other-leaf" {
        // None: the pattern is fixed by `n`.
    }
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &EveryOtherLeafParams) -> Trace<AllocOp> {
    AllocTraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        let handles: Vec<_> = (0..n).map(|_| b.alloc(LEAF, ALIGN)).collect();
        b.start_body();
        for &h in handles.iter().step_by(2) {
            b.free(h);
        }
        for _ in 0..n.div_ceil(2) {
            b.alloc(2 * LEAF, ALIGN);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frees_even_handles_then_allocates_32_byte_blocks() {
        let t = generate(5, 0, &EveryOtherLeafParams {});
        use AllocOp::*;
        assert_eq!(t.setup, vec![Alloc { size: 16, align: 8 }; 5]);
        assert_eq!(
            t.body,
            vec![
                Free(0),
                Free(2),
                Free(4),
                Alloc { size: 32, align: 8 },
                Alloc { size: 32, align: 8 },
                Alloc { size: 32, align: 8 },
            ]
        );
        let stats = t.validate().unwrap();
        assert_eq!(stats.peak_live, 5);
        assert_eq!(stats.peak_requested_bytes, 2 * 16 + 3 * 32);
        assert_eq!(generate(1, 0, &EveryOtherLeafParams {}).body.len(), 2);
    }
}
