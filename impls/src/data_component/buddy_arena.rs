//! Step 9, tuned: the article's end point (step 8, `meet_in_middle`) with every entity's buffer
//! carved from store-wide arenas by our buddy allocator ([`Buddy`], "Allocation Adventures 3"),
//! the answer the article defers to a later post: "We might have 1000 entities, each with a
//! DataComponent that stores a single health float. Even if each component uses a contiguous
//! buffer, that's still a lot of individual memory allocations."
//!
//! What it changes: the buffer layout, growth and compaction are step 8's exactly
//! ([`single_buffer`](super::single_buffer) with the top-down flavor, whose buffers are powers
//! of two, the block sizes a buddy allocator serves without waste). Only where the bytes live
//! differs: an [`ArenaBuf`] names a block `{ pool, offset, len }` of one of the store's
//! [`BuddyPools`] (the `Component::Shared` state). A reallocation takes a new block, packs the
//! live values from the old block straight into it ([`BufStore::rebuild`]: no scratch buffer)
//! and frees the old one; a block is never moved otherwise.
//!
//! Growing: [`Buddy`] never grows its arena, and the shared state cannot reach the entities'
//! records to move them (unlike `tags/buddy_arrays`, which doubles and compacts one arena), so
//! when no pool has a block the store adds a pool twice the size of the last (the first is
//! [`FIRST_POOL`] bytes); requests go to the newest pool first. Pools never shrink.
//!
//! Accounting: `allocator_calls` counts the global allocations of each pool
//! ([`Buddy::HEAP_ALLOCATIONS`]: its arena and the requested-size table it keeps for the
//! benchmark) plus the pool list's and the entity slots' growth: per entity, amortised to
//! almost nothing, which is the point. A rebuild makes no global call (it packs the live
//! values straight into the new block, no scratch `Vec`); `impls/tests/integration/allocator_accounting.rs`
//! checks the count against a counting allocator.
//! `memory_bytes` counts every pool's whole arena (free space and the buddy's in-arena metadata
//! included) and the pool list, nothing per entity; like `tags/buddy_arrays`, not the table
//! [`Buddy`] keeps only for the benchmark and its tests. Trade-off: up to 50% of the newest
//! pool is unused, the smallest block is [`MIN_BLOCK`] bytes, a snapshot is still one `memcpy`
//! of the block, and free blocks of older pools are reused only by requests the newest pool
//! cannot serve.

use super::single_buffer::{BufStore, Flavor, MAX_BUFFER, SingleBuffer};
use super::{Entities, KvDesignInfo, KvDesignKind, push_counted};
use crate::DesignMeta;
use crate::alloc::buddy::Buddy;
use crate::alloc::{AllocError, BlockAllocator};

/// The buddy's leaf: the smallest step-8 buffer (a header of 4 entries, 52 bytes) rounded up.
pub const MIN_BLOCK: usize = 64;

/// The first pool's bytes: 1 024 leaves, enough for a thousand one-float entities.
pub const FIRST_POOL: usize = 64 * 1024;

/// Alignment asked of the buddy: the buffer's words are read byte-wise, so any would do.
const ALIGN: usize = 8;

/// Every entity's buffer lives in one of these arenas.
#[derive(Debug, Default)]
pub struct BuddyPools {
    /// Each pool twice the bytes of the one before; blocks of live buffers only.
    pools: Vec<Buddy>,
}

/// One entity's buffer: a block of a pool, or nothing (`len == 0`).
#[derive(Debug, Default)]
pub struct ArenaBuf {
    /// Index of the pool in [`BuddyPools::pools`].
    pool: u32,
    /// Offset of the block in its pool.
    offset: u32,
    /// Bytes of the buffer (the block may be larger only by the buddy's rounding, never here:
    /// buffers are powers of two of at least [`MIN_BLOCK`]).
    len: u32,
    /// The buffer's `count` word, kept so `len()` needs no arena.
    count: u32,
}

impl BuddyPools {
    /// A block of `len` bytes: its pool and offset, adding a pool if none has one.
    fn allocate(&mut self, len: usize, calls: &mut u64) -> (usize, usize) {
        for p in (0..self.pools.len()).rev() {
            match self.pools[p].allocate(len, ALIGN) {
                Ok(offset) => return (p, offset),
                Err(AllocError::OutOfMemory { .. } | AllocError::TooLarge { .. }) => {}
                Err(err) => unreachable!("an 8-aligned request of {len} bytes: {err}"),
            }
        }
        let total = self
            .pools
            .last()
            .map_or(FIRST_POOL, |p| 2 * p.arena_bytes())
            .max(4 * MAX_BUFFER.min(len.next_power_of_two()));
        let mut pool =
            Buddy::with_arena(total, MIN_BLOCK).expect("a power-of-two arena of 64 KiB or more");
        *calls += Buddy::HEAP_ALLOCATIONS;
        let offset = pool
            .allocate(len, ALIGN)
            .expect("a fresh pool of at least four times the request holds it");
        push_counted(&mut self.pools, pool, calls);
        (self.pools.len() - 1, offset)
    }

    /// The bytes of `old` (empty if it has no block) and, mutably, of `new`: two live blocks,
    /// so disjoint even in one pool.
    fn old_and_new(&mut self, old: &ArenaBuf, new: &ArenaBuf) -> (&[u8], &mut [u8]) {
        let (old_at, old_len) = (old.offset as usize, old.len as usize);
        let (new_at, new_len) = (new.offset as usize, new.len as usize);
        if old_len == 0 {
            return (
                &[],
                self.pools[new.pool as usize].bytes_mut(new_at, new_len),
            );
        }
        let (p, q) = (old.pool as usize, new.pool as usize);
        if p != q {
            let (low, high) = self.pools.split_at_mut(p.max(q));
            let (old_pool, new_pool) = if p < q {
                (&low[p], &mut high[0])
            } else {
                (&high[0], &mut low[q])
            };
            return (
                old_pool.bytes(old_at, old_len),
                new_pool.bytes_mut(new_at, new_len),
            );
        }
        // One pool: borrow the span covering both blocks and split it between them.
        let lo = old_at.min(new_at);
        let hi = (old_at + old_len).max(new_at + new_len);
        let span = self.pools[p].bytes_mut(lo, hi - lo);
        if old_at < new_at {
            let (first, second) = span.split_at_mut(new_at - lo);
            (&first[..old_len], &mut second[..new_len])
        } else {
            let (first, second) = span.split_at_mut(old_at - lo);
            (&second[..old_len], &mut first[..new_len])
        }
    }
}

impl BufStore for ArenaBuf {
    type Shared = BuddyPools;

    #[inline]
    fn bytes<'a>(&'a self, shared: &'a BuddyPools) -> &'a [u8] {
        if self.len == 0 {
            return &[];
        }
        shared.pools[self.pool as usize].bytes(self.offset as usize, self.len as usize)
    }

    #[inline]
    fn bytes_mut<'a>(&'a mut self, shared: &'a mut BuddyPools) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        shared.pools[self.pool as usize].bytes_mut(self.offset as usize, self.len as usize)
    }

    /// Packs into a new block of the pools: no global call unless a pool is added.
    fn rebuild(
        &mut self,
        shared: &mut BuddyPools,
        len: usize,
        build: impl FnOnce(&[u8], &mut [u8]),
        calls: &mut u64,
    ) {
        let (pool, offset) = shared.allocate(len, calls);
        let new = ArenaBuf {
            pool: pool as u32,
            offset: offset as u32,
            len: len as u32,
            count: self.count,
        };
        let (old_bytes, new_bytes) = shared.old_and_new(self, &new);
        // A freed block keeps its old bytes (and the buddy's free-list links).
        new_bytes.fill(0);
        build(old_bytes, new_bytes);
        std::mem::replace(self, new).free(shared);
    }

    fn count(&self) -> usize {
        self.count as usize
    }

    #[inline]
    fn note_count(&mut self, count: usize) {
        self.count = count as u32;
    }

    fn release(&mut self, shared: &mut BuddyPools, _: &mut u64) {
        std::mem::take(self).free(shared);
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn shared_memory_bytes(shared: &BuddyPools) -> usize {
        shared.pools.capacity() * size_of::<Buddy>()
            + shared.pools.iter().map(Buddy::arena_bytes).sum::<usize>()
    }

    fn check_shared<'a>(
        shared: &BuddyPools,
        live: impl Iterator<Item = &'a Self>,
    ) -> Result<(), String> {
        let mut blocks = vec![0usize; shared.pools.len()];
        let mut bytes = vec![0usize; shared.pools.len()];
        for b in live.filter(|b| b.len > 0) {
            let p = b.pool as usize;
            let size = shared
                .pools
                .get(p)
                .and_then(|pool| pool.live_block_size(b.offset as usize))
                .ok_or_else(|| format!("buffer {b:?} is not a live block"))?;
            if size < b.len as usize {
                return Err(format!("buffer {b:?} in a block of {size} bytes"));
            }
            blocks[p] += 1;
            bytes[p] += b.len as usize;
        }
        for (p, pool) in shared.pools.iter().enumerate() {
            pool.check_invariants()?;
            if pool.bytes_requested_live() != bytes[p] {
                return Err(format!(
                    "pool {p}: {} bytes live, buffers hold {} in {} blocks",
                    pool.bytes_requested_live(),
                    bytes[p],
                    blocks[p]
                ));
            }
        }
        Ok(())
    }
}

impl ArenaBuf {
    /// Frees the block, if any.
    fn free(self, shared: &mut BuddyPools) {
        if self.len > 0 {
            shared.pools[self.pool as usize]
                .free_sized(self.offset as usize, self.len as usize, ALIGN)
                .expect("the block of a live buffer");
        }
    }
}

/// Step 8's top-down flavor under its own name.
#[derive(Debug, Default)]
pub struct MeetInArena;

impl Flavor for MeetInArena {
    const TOP_DOWN: bool = true;
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "buddy_arena",
            description: "step 8's single buffer per entity, carved from shared arenas by the buddy allocator: no global allocation per entity (tuned: the article's 'where there is one, there are many')",
            kind: KvDesignKind::Tuned,
        },
        bytes_per_entity_cap: Some(MAX_BUFFER),
    };
}

/// Single buffers in buddy arenas.
pub type BuddyArena = Entities<SingleBuffer<MeetInArena, ArenaBuf>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_component::{DataStore, ValueRef};

    /// Enough entities to fill several pools; values, snapshots and invariants survive.
    #[test]
    fn pools_grow_and_blocks_stay_valid() {
        let mut store = BuddyArena::new();
        let n = 3000u32;
        for e in 0..n {
            assert_eq!(store.create_entity(), Ok(e));
            store.set(e, 1, ValueRef::F32(e as f32)).unwrap();
            if e % 3 == 0 {
                let name = format!("entity number {e}");
                store.set(e, 2, ValueRef::Str(name.as_bytes())).unwrap();
            }
        }
        for e in (0..n).step_by(2) {
            store.destroy_entity(e).unwrap();
        }
        store.check_invariants().unwrap();
        for e in (1..n).step_by(2) {
            let got = store.get(e, 1, |v| v == Some(ValueRef::F32(e as f32)));
            assert_eq!(got, Ok(true));
        }
        // One global allocation per pool and per growth of the slot and pool lists: far fewer
        // than one per entity.
        assert!(store.allocator_calls() < 40, "{}", store.allocator_calls());
    }
}
