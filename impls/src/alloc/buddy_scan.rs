//! Ablation of [`buddy`](super::buddy): no pair bits; to learn whether a block's buddy is free,
//! `free` walks the buddy's level free list looking for it. This is how
//! `buddy_system_allocator` merges (its `dealloc` iterates the level's list), kept here on our
//! own core so only that one choice differs from the article design.
//!
//! Layout: as the article design (intrusive doubly linked lists, split bits and list heads in
//! the arena) minus the pair-bit array, so 1 bit per leaf of metadata instead of 2.
//!
//! Complexity: allocate O(L); free O(L * F) where F is the length of the free lists walked: each
//! merge step scans one level's list (reading each free block's link from the arena, a likely
//! cache miss per entry), and the last step scans the whole list to find the buddy absent.
//! Trade-off: half the metadata bits for a free cost that grows with fragmentation; the
//! every-other-leaf pattern makes it quadratic.

use super::arena::BASE_ALIGN;
use super::buddy::{BuddyCore, Flavor, IntrusiveLists};
use super::{AllocDesignInfo, BadFreeDetection, DesignKind};
use crate::DesignMeta;

/// Flavor of the list-scanning ablation.
#[derive(Debug, Clone, Copy)]
pub struct ScanFlavor;

impl Flavor for ScanFlavor {
    type Lists = IntrusiveLists;
    const SCAN_FOR_BUDDY: bool = true;
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "buddy_scan",
            description: "ablation of buddy: no pair bits, free scans the level's intrusive free list for the buddy (buddy_system_allocator's approach)",
            kind: DesignKind::Tuned,
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: true,
        bad_free: BadFreeDetection::DebugOnly,
        max_arena: super::buddy::MAX_ARENA,
    };
}

/// The buddy allocator that finds buddies by scanning its free lists.
pub type BuddyScan = BuddyCore<ScanFlavor>;
