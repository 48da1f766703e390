//! Ablation of [`buddy`](super::buddy): the same buddy allocator with its free lists in `Vec`s on
//! the host heap instead of intrusive lists in the free blocks.
//!
//! Layout: one `Vec<u32>` of leaf numbers per level, plus a position map (`Vec<u32>`, one entry
//! per leaf: where a free block starting at that leaf sits in its level's `Vec`). Removing a
//! block whose buddy merges is `swap_remove` at the mapped position plus one map update: O(1),
//! no search. Split and pair bits stay in the arena as in the article design.
//!
//! Complexity as the article design. Trade-off: the free blocks' bytes are never touched (no
//! cache miss on a cold free block, and a block's contents survive being freed), at the price of
//! 4 bytes per leaf of position map plus the lists' capacity on the host heap
//! (`metadata_bytes` counts both), and `Vec` growth on the allocation path.

use super::arena::{Arena, BASE_ALIGN, zeroed_vec};
use super::buddy::{BuddyCore, Flavor, FreeLists};
use super::{AllocDesignInfo, AllocError, BadFreeDetection, DesignKind};
use crate::DesignMeta;

/// Per-level `Vec`s of free blocks with a position map for O(1) removal.
#[derive(Debug, Clone)]
pub struct VecLists {
    /// `lists[level]`: the leaf numbers of the free blocks of `level`, in no order.
    lists: Vec<Vec<u32>>,
    /// Invariant: for every free block starting at leaf `b` on level `l`,
    /// `lists[l][position[b]] == b`. Entries of other leaves are stale and never read.
    position: Vec<u32>,
}

impl FreeLists for VecLists {
    const ARENA_BYTES_PER_LEVEL: usize = 0;

    fn new(
        _mem: &mut Arena,
        levels: usize,
        leaves: usize,
        _heads: usize,
        _shift: u32,
    ) -> Result<Self, AllocError> {
        Ok(Self {
            lists: vec![Vec::new(); levels],
            position: zeroed_vec(leaves)?,
        })
    }

    #[inline]
    fn push(&mut self, _mem: &mut Arena, level: usize, leaf: u32) {
        let list = &mut self.lists[level];
        self.position[leaf as usize] = list.len() as u32;
        list.push(leaf);
    }

    #[inline]
    fn pop(&mut self, _mem: &mut Arena, level: usize) -> Option<u32> {
        self.lists[level].pop()
    }

    #[inline]
    fn remove(&mut self, _mem: &mut Arena, level: usize, leaf: u32) {
        let list = &mut self.lists[level];
        let at = self.position[leaf as usize] as usize;
        list.swap_remove(at);
        if let Some(&moved) = list.get(at) {
            self.position[moved as usize] = at as u32;
        }
    }

    #[inline]
    fn is_empty(&self, _mem: &Arena, level: usize) -> bool {
        self.lists[level].is_empty()
    }

    fn contains(&self, _mem: &Arena, level: usize, leaf: u32) -> bool {
        self.lists[level].contains(&leaf)
    }

    fn collect(&self, _mem: &Arena, level: usize) -> Result<Vec<u32>, String> {
        for (at, &leaf) in self.lists[level].iter().enumerate() {
            if self.position[leaf as usize] as usize != at {
                return Err(format!(
                    "level {level}: position map of leaf {leaf} is stale"
                ));
            }
        }
        Ok(self.lists[level].clone())
    }

    fn heap_bytes(&self) -> usize {
        let lists: usize = self.lists.iter().map(|l| l.capacity() * 4).sum();
        lists + self.lists.capacity() * size_of::<Vec<u32>>() + self.position.capacity() * 4
    }
}

/// Flavor of the `Vec`-lists ablation.
#[derive(Debug, Clone, Copy)]
pub struct VecListsFlavor;

impl Flavor for VecListsFlavor {
    type Lists = VecLists;
    const SCAN_FOR_BUDDY: bool = false;
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "buddy_vec_lists",
            description: "ablation of buddy: free lists as Vec<u32> per level on the host heap (swap_remove + position map), bits in the arena",
            kind: DesignKind::Tuned,
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: true,
        bad_free: BadFreeDetection::DebugOnly,
        max_arena: super::buddy::MAX_ARENA,
    };
}

/// The buddy allocator with non-intrusive `Vec` free lists.
pub type BuddyVecLists = BuddyCore<VecListsFlavor>;
