//! [`AllocModel`], the reference every allocator's replay is checked against, and the replay of
//! blocks kept by handle ([`ByHandle`]) that it shares with the `system` time reference. The
//! designs' replay ([`AllocReplay`]) and the direct loops are separate code, so the model's
//! digest still checks them with a loop of its own.

use super::*;

/// Blocks a replay keeps by handle itself, so its [`Replayer::Id`] is `()` (nothing to
/// resolve): the model's bytes ([`AllocModel`]) and the global allocator's blocks
/// ([`SystemAlloc`](super::system::SystemAlloc)).
#[derive(Debug, Default)]
pub struct ByHandle<B> {
    /// `blocks[k]`: handle `k`'s block while live.
    blocks: Vec<Option<B>>,
    live: usize,
    /// Unused (no IDs to resolve).
    no_ids: HandleMap<()>,
}

impl<B> ByHandle<B> {
    /// Room for every handle of `trace`, none live.
    fn sized_for(trace: &Trace<AllocOp>) -> Self {
        Self {
            blocks: Vec::with_capacity(trace.handle_count()),
            live: 0,
            no_ids: HandleMap::default(),
        }
    }
}

/// A block a [`ByHandle`] replay keeps for a handle: bytes it makes and resizes its own way.
pub trait HeldBlock: Sized + 'static {
    /// The replay's design name in the results.
    const NAME: &'static str;

    /// A block of `size >= 1` bytes aligned to `align` (a power of two).
    fn new(size: usize, align: usize) -> Self;

    /// Resizes to `size >= 1` bytes with the same alignment, keeping the first
    /// `min(old, size)` bytes.
    fn resize(&mut self, size: usize);

    /// The block's bytes.
    fn bytes(&self) -> &[u8];

    /// The block's bytes, to write.
    fn bytes_mut(&mut self) -> &mut [u8];
}

/// The reference model: every block its own `Vec<u8>`, so contents cannot overlap or get lost.
/// It performs the same stamp writes and reads as the designs' replay, so its digest is the
/// expected one.
pub type AllocModel = ByHandle<Vec<u8>>;

impl HeldBlock for Vec<u8> {
    const NAME: &'static str = "model";

    /// Zeroed; the alignment is the global allocator's own (the model reads no address).
    fn new(size: usize, _align: usize) -> Self {
        vec![0u8; size]
    }

    fn resize(&mut self, size: usize) {
        Vec::resize(self, size, 0);
    }

    fn bytes(&self) -> &[u8] {
        self
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

impl<B: HeldBlock> Replayer for ByHandle<B> {
    type Family = AllocFamily;
    /// None: the replay keeps each handle's block itself.
    type Id = ();

    fn design_name() -> &'static str {
        B::NAME
    }

    fn for_trace(trace: &Trace<AllocOp>) -> Self {
        Self::sized_for(trace)
    }

    fn handles(&mut self) -> &mut HandleMap<()> {
        &mut self.no_ids
    }

    /// Out of line, as the designs' replay: `system`'s timed replays run it.
    #[inline(never)]
    fn run<H: HandleIds<()>>(
        &mut self,
        ops: &[AllocOp],
        _ids: &mut H,
    ) -> Result<AllocDigest, ReplayError> {
        let mut d = AllocDigest::default();
        let blocks = &mut self.blocks;
        for &op in ops {
            match op {
                AllocOp::Alloc { size, align } => {
                    let mut block = B::new(size as usize, align as usize);
                    write_stamps(block.bytes_mut(), blocks.len() as BlockHandle);
                    blocks.push(Some(block));
                    d.allocs += 1;
                }
                AllocOp::Free(h) => {
                    let block = blocks[h as usize].take().expect("a live block");
                    d.read(block.bytes());
                    drop(block);
                    d.frees += 1;
                }
                AllocOp::Realloc { block: h, size } => {
                    let block = blocks[h as usize].as_mut().expect("a live block");
                    d.read(block.bytes());
                    let kept = block.bytes().len().min(size as usize).min(8);
                    block.resize(size as usize);
                    d.resized(block.bytes(), kept);
                    write_stamps(block.bytes_mut(), h);
                }
            }
        }
        self.live = self.live + d.allocs as usize - d.frees as usize;
        Ok(d)
    }

    fn memory_bytes(&self) -> u64 {
        self.blocks
            .iter()
            .flatten()
            .map(|b| b.bytes().len() as u64)
            .sum()
    }

    fn live_count(&self) -> usize {
        self.live
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
