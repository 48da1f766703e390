//! `slab_class_lists`' free blocks: one doubly linked list per size class through the free
//! blocks of all the class's pages, most recently freed first. What it takes from
//! `buddy_alloc` (the peer `slab_alloc` trails on `alloc-fixed-size`): that crate keeps one
//! circular doubly linked list per order through its free blocks, so an allocation pops a list
//! and a free pushes one, whatever page or buddy the block sits in.
//!
//! A free block holds its links in its first 8 bytes: the next and the previous free block of
//! its class as `u32` block numbers (`offset / 8`, [`NONE`] at the ends), so an arena is at
//! most 32 GiB. With its list empty, a class carves its next never-used block from one page
//! (a bump offset, as `slab_alloc` does in each page), so a small trace touches only the
//! blocks it uses. A page whose last live block is freed takes the blocks it ever handed out
//! off the list (the back links make each removal O(1)) and goes back to the free pages, as in
//! `slab_alloc`.
//!
//! Against `slab_alloc`: the common path has no per-page list to keep, so no branch depends on
//! whether a page is full (`slab_alloc` links a full page on a free and unlinks it on the
//! allocation that fills it), at the cost of writing the neighbour's back link on every push
//! and pop, and of blocks handed out from any page of the class, most recently freed first.

use super::{FreeLists, NONE, SlabOf};
use crate::DesignMeta;
use crate::alloc::arena::BASE_ALIGN;
use crate::alloc::{AllocDesignInfo, AllocError, BadFreeDetection, DesignKind};

/// Bytes per unit of a block number: every block starts at a multiple of `min_block >= 8`.
const LINK_SHIFT: u32 = 3;

/// A doubly linked free list per size class, and the page each class carves fresh blocks
/// from.
#[derive(Debug, Clone, Default)]
pub struct ClassLists {
    /// Per class: the slab page whose blocks from its `bump` offset on were never handed out,
    /// `NONE` when the class has none.
    carving: Vec<u32>,
}

/// The block number of `offset`.
fn link(offset: usize) -> u32 {
    (offset >> LINK_SHIFT) as u32
}

/// The offset of block number `link`.
fn offset(link: u32) -> usize {
    (link as usize) << LINK_SHIFT
}

impl SlabOf<ClassLists> {
    /// The next never-used block of `class`'s carving page, taking a fresh page when it has
    /// none; the page stops carving once its last block is out.
    fn carve(&mut self, class: u8, requested: usize) -> Result<usize, AllocError> {
        let mut p = self.lists.carving[class as usize];
        if p == NONE {
            p = self.new_page(class, requested)? as u32;
            self.lists.carving[class as usize] = p;
        }
        let block = self.block_of(class);
        let page = &mut self.pages[p as usize];
        let at = ((p as usize) << self.page_shift) + page.bump as usize;
        page.bump += block as u32;
        page.count += 1;
        if page.bump as usize + block > self.page {
            self.lists.carving[class as usize] = NONE;
        }
        Ok(at)
    }

    /// Takes the free block at `at` off its class's list.
    fn unlink_block(&mut self, class: u8, at: usize) {
        let (next, prev) = (self.mem.read_u32(at), self.mem.read_u32(at + 4));
        if prev == NONE {
            self.heads[class as usize] = next;
        } else {
            self.mem.write_u32(offset(prev), next);
        }
        if next != NONE {
            self.mem.write_u32(offset(next) + 4, prev);
        }
    }
}

impl FreeLists for ClassLists {
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "slab_class_lists",
            description: "slab_alloc with one doubly linked free list per size class through the free blocks of all its pages (buddy_alloc's per-order lists) instead of one per page: no partial-page list to keep on the common path",
            kind: DesignKind::Tuned,
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: false,
        bad_free: BadFreeDetection::Always,
        // Links are `u32` block numbers of 8 bytes.
        max_arena: 1 << 35,
    };

    fn new(classes: usize) -> Self {
        ClassLists {
            carving: vec![NONE; classes],
        }
    }

    /// The class list's first block; with the list empty, the next never-used block of the
    /// class's carving page (a fresh page when it has none left).
    #[inline]
    fn take(s: &mut SlabOf<Self>, class: u8, requested: usize) -> Result<usize, AllocError> {
        let head = s.heads[class as usize];
        if head == NONE {
            return s.carve(class, requested);
        }
        let at = offset(head);
        let next = s.mem.read_u32(at);
        s.heads[class as usize] = next;
        if next != NONE {
            s.mem.write_u32(offset(next) + 4, NONE);
        }
        s.pages[at >> s.page_shift].count += 1;
        Ok(at)
    }

    /// At the head of its class's list.
    #[inline]
    fn give(s: &mut SlabOf<Self>, class: u8, _p: usize, at: usize) {
        let head = s.heads[class as usize];
        s.mem.write_u32(at, head);
        s.mem.write_u32(at + 4, NONE);
        if head != NONE {
            s.mem.write_u32(offset(head) + 4, link(at));
        }
        s.heads[class as usize] = link(at);
    }

    /// Its blocks below `bump` (the ones ever handed out, every one free now) off the list;
    /// no longer the class's carving page.
    fn drop_page(s: &mut SlabOf<Self>, p: usize) {
        let page = s.pages[p];
        let base = p << s.page_shift;
        let block = s.block_of(page.class);
        for at in (base..base + page.bump as usize).step_by(block) {
            s.unlink_block(page.class, at);
        }
        let carving = &mut s.lists.carving[page.class as usize];
        if *carving == p as u32 {
            *carving = NONE;
        }
    }

    /// Every class list runs forward and back over free blocks of its own class's slab pages,
    /// and holds exactly the blocks its pages do not hand out.
    fn check(s: &SlabOf<Self>) -> Result<(), String> {
        let mut on_lists = vec![0usize; s.pages.len()];
        for (class, &head) in s.heads.iter().enumerate() {
            let (mut prev, mut at) = (NONE, head);
            let mut steps = 0;
            while at != NONE {
                let o = offset(at);
                let p = o >> s.page_shift;
                let page = s
                    .pages
                    .get(p)
                    .ok_or(format!("class {class}: block {o} off the pages"))?;
                if page.kind != super::PageKind::Slab
                    || page.class as usize != class
                    || (o & (s.page - 1)) % s.block_of(page.class) != 0
                    || s.requested[o >> s.min_shift] != 0
                {
                    return Err(format!("class {class}: {o} is no free block of the class"));
                }
                if s.mem.read_u32(o + 4) != prev {
                    return Err(format!("class {class}: block {o}'s back link is wrong"));
                }
                steps += 1;
                if steps > s.requested.len() {
                    return Err(format!("class {class}: the list loops"));
                }
                on_lists[p] += 1;
                (prev, at) = (at, s.mem.read_u32(o));
            }
        }
        for (i, page) in s.pages.iter().enumerate() {
            let expected = match page.kind {
                super::PageKind::Slab => {
                    page.bump as usize / s.block_of(page.class) - page.count as usize
                }
                _ => 0,
            };
            if on_lists[i] != expected {
                return Err(format!(
                    "page {i}: {} blocks on the lists, {expected} free",
                    on_lists[i]
                ));
            }
        }
        Ok(())
    }
}
