//! [`AllocModel`], the reference every allocator's replay is checked against.

use super::*;

/// Blocks a replay keeps by handle itself, so its [`Replayer::Id`] is `()` (nothing to
/// resolve): the model's bytes ([`AllocModel`]) and the global allocator's blocks
/// ([`SystemAlloc`](super::system::SystemAlloc)).
#[derive(Debug, Default)]
pub struct ByHandle<B> {
    /// `blocks[k]`: handle `k`'s block while live.
    pub(super) blocks: Vec<Option<B>>,
    pub(super) live: usize,
    /// Unused (no IDs to resolve).
    no_ids: HandleMap<()>,
}

impl<B> ByHandle<B> {
    /// Room for every handle of `trace`, none live.
    pub(super) fn sized_for(trace: &Trace<AllocOp>) -> Self {
        Self {
            blocks: Vec::with_capacity(trace.handle_count()),
            live: 0,
            no_ids: HandleMap::default(),
        }
    }

    /// The unused handle map a [`Replayer`] hands out.
    pub(super) fn no_ids(&mut self) -> &mut HandleMap<()> {
        &mut self.no_ids
    }
}

/// The reference model: every block its own `Vec<u8>`, so contents cannot overlap or get lost.
/// It performs the same stamp writes and reads as the designs' replay, so its digest is the
/// expected one.
pub type AllocModel = ByHandle<Vec<u8>>;

impl Replayer for AllocModel {
    type Family = AllocFamily;
    /// None: the replay keeps each handle's block itself (see [`ByHandle`]).
    type Id = ();

    fn design_name() -> &'static str {
        "model"
    }

    fn for_trace(trace: &Trace<AllocOp>) -> Self {
        Self::sized_for(trace)
    }

    fn handles(&mut self) -> &mut HandleMap<()> {
        self.no_ids()
    }

    fn run<H: HandleIds<()>>(
        &mut self,
        ops: &[AllocOp],
        _ids: &mut H,
    ) -> Result<AllocDigest, ReplayError> {
        let mut d = AllocDigest::default();
        for &op in ops {
            match op {
                AllocOp::Alloc { size, .. } => {
                    let mut block = vec![0u8; size as usize];
                    write_stamps(&mut block, self.blocks.len() as BlockHandle);
                    self.blocks.push(Some(block));
                    self.live += 1;
                    d.allocs += 1;
                }
                AllocOp::Free(h) => {
                    let block = self.blocks[h as usize].take().expect("a live block");
                    d.stamp_sum = d.stamp_sum.wrapping_add(read_stamps(&block));
                    self.live -= 1;
                    d.frees += 1;
                }
                AllocOp::Realloc { block: h, size } => {
                    let block = self.blocks[h as usize].as_mut().expect("a live block");
                    d.stamp_sum = d.stamp_sum.wrapping_add(read_stamps(block));
                    let kept = block.len().min(size as usize).min(8);
                    block.resize(size as usize, 0);
                    d.kept_sum = d.kept_sum.wrapping_add(read_head(block, kept));
                    write_stamps(block, h);
                    d.reallocs += 1;
                }
            }
        }
        Ok(d)
    }

    fn memory_bytes(&self) -> u64 {
        self.blocks.iter().flatten().map(|b| b.len() as u64).sum()
    }

    fn live_count(&self) -> usize {
        self.live
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
