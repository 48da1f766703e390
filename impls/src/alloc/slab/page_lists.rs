//! `slab_alloc`'s free blocks: one list per page, threaded through the page's free blocks
//! (their first 4 bytes, a `u32` offset inside the page), plus a bump offset for blocks never
//! used yet. Pages of a class with a free block are on that class's doubly linked *partial*
//! list (page indices in the host-side page table), whose first page serves every allocation.
//!
//! A classic slab's lists: an allocation takes from one page until it is full, so a page's
//! blocks are reused together. The price shows on churn that keeps the pages nearly full: a
//! free into a full page links it and the allocation that fills it again unlinks it, a branch
//! each way that follows no pattern (`slab_class_lists` keeps no per-page list for this).

use super::{FreeLists, NONE, Page, SlabOf};
use crate::DesignMeta;
use crate::alloc::arena::BASE_ALIGN;
use crate::alloc::{AllocDesignInfo, AllocError, BadFreeDetection, DesignKind};

/// A free list per page and a partial list of pages per class.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageLists;

impl SlabOf<PageLists> {
    fn link(&mut self, p: usize) {
        let class = self.pages[p].class as usize;
        let head = self.heads[class];
        if head != NONE {
            self.pages[head as usize].prev = p as u32;
        }
        let page = &mut self.pages[p];
        page.listed = true;
        page.prev = NONE;
        page.next = head;
        self.heads[class] = p as u32;
    }

    fn unlink(&mut self, p: usize) {
        let Page {
            class, prev, next, ..
        } = self.pages[p];
        if prev == NONE {
            self.heads[class as usize] = next;
        } else {
            self.pages[prev as usize].next = next;
        }
        if next != NONE {
            self.pages[next as usize].prev = prev;
        }
        let page = &mut self.pages[p];
        page.listed = false;
        page.prev = NONE;
        page.next = NONE;
    }

    fn has_free(&self, page: &Page) -> bool {
        page.free_head != NONE || page.bump as usize + self.block_of(page.class) <= self.page
    }
}

impl FreeLists for PageLists {
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "slab_alloc",
            description: "slab allocator: 4 KiB pages of one power-of-two size class each, in-page free lists, runs of pages above half a page (fixed blocks from an array)",
            kind: DesignKind::Tuned,
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: false,
        bad_free: BadFreeDetection::Always,
        // Page indices are `u32`.
        max_arena: 1 << 44,
    };

    fn new(_classes: usize) -> Self {
        PageLists
    }

    /// From the first partial page: its free list, else its bump offset.
    #[inline]
    fn take(s: &mut SlabOf<Self>, class: u8, requested: usize) -> Result<usize, AllocError> {
        let block = s.block_of(class);
        let mut p = s.heads[class as usize];
        if p == NONE {
            let start = s.new_page(class, requested)?;
            s.link(start);
            p = start as u32;
        }
        let p = p as usize;
        let base = p << s.page_shift;
        let page = s.pages[p];
        let in_page = if page.free_head != NONE {
            let at = page.free_head;
            s.pages[p].free_head = s.mem.read_u32(base + at as usize);
            at
        } else {
            s.pages[p].bump += block as u32;
            page.bump
        };
        s.pages[p].count += 1;
        if !s.has_free(&s.pages[p]) {
            s.unlink(p);
        }
        Ok(base + in_page as usize)
    }

    /// On the page's own list; the page back on its partial list if it was full.
    #[inline]
    fn give(s: &mut SlabOf<Self>, _class: u8, p: usize, offset: usize) {
        let base = p << s.page_shift;
        s.mem.write_u32(offset, s.pages[p].free_head);
        s.pages[p].free_head = (offset - base) as u32;
        if !s.pages[p].listed {
            s.link(p);
        }
    }

    fn drop_page(s: &mut SlabOf<Self>, p: usize) {
        s.unlink(p);
    }

    fn check(s: &SlabOf<Self>) -> Result<(), String> {
        for (i, page) in s.pages.iter().enumerate() {
            if page.kind != super::PageKind::Slab {
                continue;
            }
            let block = s.block_of(page.class);
            let used = page.bump as usize / block;
            let mut on_list = 0;
            let mut at = page.free_head;
            while at != NONE {
                let a = at as usize;
                if a % block != 0 || a >= page.bump as usize || on_list > used {
                    return Err(format!("page {i}: bad free block {a}"));
                }
                on_list += 1;
                at = s.mem.read_u32((i << s.page_shift) + a);
            }
            if on_list + page.count as usize != used {
                return Err(format!(
                    "page {i}: {} live + {on_list} free != {used} used",
                    page.count
                ));
            }
            if page.listed != s.has_free(page) {
                return Err(format!("page {i}: listed {} wrongly", page.listed));
            }
        }
        for (class, &head) in s.heads.iter().enumerate() {
            let (mut prev, mut at) = (NONE, head);
            while at != NONE {
                let page = &s.pages[at as usize];
                if page.kind != super::PageKind::Slab
                    || page.class as usize != class
                    || page.prev != prev
                {
                    return Err(format!("class {class}: bad partial page {at}"));
                }
                (prev, at) = (at, page.next);
            }
        }
        Ok(())
    }
}
