//! Slab allocators: fixed-size blocks carved from pages of the arena, one size class per page.
//!
//! The article's "very simple kind of custom memory allocator: one that just allocates fixed
//! blocks from an array" ("Allocation Adventures 2", `shared/seeds/002_*`, "check out the slab
//! allocator"), generalised the way a slab allocator does so it runs every trace (tuned
//! designs: the article states the idea, never builds it as a general allocator). Two designs
//! share this module and differ only in where a size class keeps its free blocks
//! ([`FreeLists`]):
//!
//! * `slab_alloc` ([`Slab`], [`PageLists`]): one free list per page, as a classic slab
//!   allocator keeps them (blocks of one page reused together).
//! * `slab_class_lists` ([`SlabClassLists`], [`ClassLists`]): one doubly linked free list per
//!   size class through the free blocks of all its pages, as `buddy_alloc` keeps one per
//!   order (registered as a peer).
//!
//! (The ID-table family's `slab` is the `slab` crate, an unrelated design.)
//!
//! Layout: the arena is cut into pages of [`PAGE`] bytes (smaller for tiny arenas: a quarter
//! of the arena, at least `min_block`). Size classes are the powers of two from `min_block` to
//! half a page; a page handed to a class holds `page / block` blocks of that one size. Requests
//! above half a page take a run of whole pages (first fit over the page table). A page whose
//! last block is freed goes back to the free pages, so all space merges back once everything
//! is freed.
//!
//! Cost: allocate and free of a class-sized block are O(1); a new page or a run is a first-fit
//! scan of the page table from the lowest possibly free page, O(pages) in the worst case.
//! Trade-off: on fixed-size traces every block is exactly its class, with no header and no
//! splitting or merging (the article's "both simpler and performs better"); internal
//! fragmentation is the power-of-two rounding, as in the buddy designs, and a page partly used
//! by one class cannot serve another, so mixed sizes strand free blocks (external
//! fragmentation), and runs are page-granular.
//!
//! Metadata: the page table on the host heap (24 bytes per page) and a list head per class. A
//! host table of requested sizes (one entry per `min_block`, as in [`buddy`](super::buddy))
//! keeps `bytes_requested_live` exact for `free(offset)` and detects bad frees in every build;
//! it is benchmark accounting, not counted as metadata.

mod class_lists;
mod page_lists;

use super::arena::{Arena, zeroed_vec};
use super::{AllocDesignInfo, AllocError, BlockAllocator};
pub use class_lists::ClassLists;
pub use page_lists::PageLists;

/// Page size for arenas of at least 16 KiB.
pub const PAGE: usize = 4096;

/// No block / no page.
const NONE: u32 = u32::MAX;

/// `slab_alloc`: a free list per page.
pub type Slab = SlabOf<PageLists>;

/// `slab_class_lists`: a free list per size class.
pub type SlabClassLists = SlabOf<ClassLists>;

/// Where a slab keeps the free blocks of its size classes: the one thing its two designs do
/// differently. Each method gets the whole slab (the page table, the arena, the class heads).
pub trait FreeLists: Sized + 'static {
    /// The design's registry entry.
    const INFO: AllocDesignInfo;

    /// The lists' own state beside the class heads, for `classes` size classes.
    fn new(classes: usize) -> Self;

    /// A free block of `class`, from a fresh page ([`SlabOf::new_page`]) when the class has
    /// none, counted on its page; `requested` only for the out-of-memory error.
    ///
    /// # Errors
    /// [`AllocError::OutOfMemory`] when the class has no free block and no page is free.
    fn take(s: &mut SlabOf<Self>, class: u8, requested: usize) -> Result<usize, AllocError>;

    /// Puts the block at `offset` of slab page `p` back on its class's free blocks (the
    /// page's count is already lowered).
    fn give(s: &mut SlabOf<Self>, class: u8, p: usize, offset: usize);

    /// Takes slab page `p`'s free blocks off the lists: every block of it is free and the page
    /// goes back to the free pages next.
    fn drop_page(s: &mut SlabOf<Self>, p: usize);

    /// Checks the lists against the page table.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check(s: &SlabOf<Self>) -> Result<(), String>;
}

/// What a page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageKind {
    /// On no list: free for a class or a run.
    Free,
    /// Blocks of one size class.
    Slab,
    /// The first page of a run of `run` pages.
    RunHead,
    /// A later page of a run.
    RunBody,
}

/// One page's entry in the host-side page table. `listed`, `free_head`, `prev` and `next` are
/// [`PageLists`]' (they stay at their `FREE` values under [`ClassLists`]).
#[derive(Debug, Clone, Copy)]
struct Page {
    kind: PageKind,
    /// Size class (for `Slab`): blocks of `min_block << class` bytes.
    class: u8,
    /// Whether the page is on its class's partial list. Invariant: iff `Slab` with a free
    /// block.
    listed: bool,
    /// Live blocks (`Slab`); pages in the run (`RunHead`).
    count: u32,
    /// In-page offset of the first free block (`Slab`), `NONE` if none.
    free_head: u32,
    /// In-page offset of the first block never handed out (`Slab`).
    bump: u32,
    /// Partial-list neighbours (page indices), `NONE` at the ends.
    prev: u32,
    next: u32,
}

const _: () = assert!(size_of::<Page>() == 24);

impl Page {
    const FREE: Page = Page {
        kind: PageKind::Free,
        class: 0,
        listed: false,
        count: 0,
        free_head: NONE,
        bump: 0,
        prev: NONE,
        next: NONE,
    };
}

/// Size-class pages over one arena, their free blocks kept as `L` keeps them.
#[derive(Debug, Clone)]
pub struct SlabOf<L> {
    mem: Arena,
    /// Bytes per page: a power of two, `min_block <= page <= PAGE`.
    page: usize,
    page_shift: u32,
    min_block: usize,
    min_shift: u32,
    /// One entry per page; `pages.len() * page <= mem.len()` (the remainder is never used).
    pages: Vec<Page>,
    /// `pages.len() * page`, the first offset past the last page.
    page_bytes: usize,
    /// Each class's list head, as `L` defines it (`NONE` if empty). `heads.len()` is the
    /// number of classes (`min_block << c <= page / 2`).
    heads: Vec<u32>,
    /// No page below this index is `Free`.
    free_hint: usize,
    /// Free pages.
    free_pages: usize,
    /// Sum of the blocks / runs of live allocations.
    reserved: usize,
    requested_live: usize,
    /// `requested size + 1` of the live block starting at `offset / min_block`, 0 if none.
    requested: Vec<usize>,
    lists: L,
}

impl<L: FreeLists> SlabOf<L> {
    /// Bytes the pages cover (`pages.len() * page`).
    #[inline]
    fn page_bytes(&self) -> usize {
        self.page_bytes
    }

    fn block_of(&self, class: u8) -> usize {
        self.min_block << class
    }

    /// Blocks a page of `class` holds.
    fn blocks_per_page(&self, class: u8) -> usize {
        self.page / self.block_of(class)
    }

    /// The first free run of `k` pages whose start is a multiple of `align_pages`.
    fn find_run(&self, k: usize, align_pages: usize) -> Option<usize> {
        let mut start = self.free_hint.next_multiple_of(align_pages);
        while start + k <= self.pages.len() {
            match (start..start + k).find(|&i| self.pages[i].kind != PageKind::Free) {
                None => return Some(start),
                Some(busy) => start = (busy + 1).next_multiple_of(align_pages),
            }
        }
        None
    }

    /// Marks pages `start..start + k` taken (their kinds are set by the caller).
    fn take_pages(&mut self, start: usize, k: usize) {
        self.free_pages -= k;
        if start == self.free_hint {
            self.free_hint = start + k;
            while self
                .pages
                .get(self.free_hint)
                .is_some_and(|p| p.kind != PageKind::Free)
            {
                self.free_hint += 1;
            }
        }
    }

    fn release_pages(&mut self, start: usize, k: usize) {
        for p in &mut self.pages[start..start + k] {
            *p = Page::FREE;
        }
        self.free_pages += k;
        self.free_hint = self.free_hint.min(start);
    }

    fn out_of_memory(&self, requested: usize) -> AllocError {
        AllocError::OutOfMemory {
            requested,
            largest_free: 0,
        }
    }

    /// A free page made a slab page of `class` with no block handed out.
    ///
    /// # Errors
    /// [`AllocError::OutOfMemory`] for `requested` when no page is free.
    fn new_page(&mut self, class: u8, requested: usize) -> Result<usize, AllocError> {
        let start = self
            .find_run(1, 1)
            .ok_or_else(|| self.out_of_memory(requested))?;
        self.take_pages(start, 1);
        self.pages[start] = Page {
            kind: PageKind::Slab,
            class,
            ..Page::FREE
        };
        Ok(start)
    }

    /// A run of whole pages for a request of `need` bytes aligned to `align`.
    fn allocate_run(&mut self, need: usize, align: usize) -> Result<usize, AllocError> {
        let k = need.div_ceil(self.page);
        let start = self
            .find_run(k, (align / self.page).max(1))
            .ok_or_else(|| self.out_of_memory(need))?;
        self.take_pages(start, k);
        self.pages[start] = Page {
            kind: PageKind::RunHead,
            count: k as u32,
            ..Page::FREE
        };
        for p in &mut self.pages[start + 1..start + k] {
            p.kind = PageKind::RunBody;
        }
        self.reserved += k * self.page;
        Ok(start << self.page_shift)
    }

    /// The requested size of the live block at `offset`.
    #[inline(always)]
    fn live_size(&self, offset: usize) -> Result<usize, AllocError> {
        // `min_block` is a power of two: a mask, not a division, on every free.
        if offset >= self.page_bytes() || offset & (self.min_block - 1) != 0 {
            return Err(AllocError::ForeignOffset { offset });
        }
        match self.requested[offset >> self.min_shift] {
            0 => {
                // A freed block's start (on a slab page, or a page freed since) is a double
                // free; anything else was never a block's start.
                let page = &self.pages[offset >> self.page_shift];
                let block_start = match page.kind {
                    PageKind::Free => true,
                    PageKind::Slab => (offset & (self.page - 1)) % self.block_of(page.class) == 0,
                    PageKind::RunHead | PageKind::RunBody => false,
                };
                Err(if block_start {
                    AllocError::DoubleFree { offset }
                } else {
                    AllocError::ForeignOffset { offset }
                })
            }
            n => Ok(n - 1),
        }
    }

    /// The block size (class size or run bytes) of the live block at `offset`.
    fn block_size(&self, offset: usize) -> usize {
        let page = &self.pages[offset >> self.page_shift];
        match page.kind {
            PageKind::Slab => self.block_of(page.class),
            _ => page.count as usize * self.page,
        }
    }

    /// Checks the page table: runs well formed, free pages above the hint, slab pages with a
    /// live block, and the counters; then `L`'s lists.
    fn check_pages(&self) -> Result<(), String> {
        let (mut free_pages, mut reserved) = (0, 0);
        let mut i = 0;
        while i < self.pages.len() {
            let page = &self.pages[i];
            match page.kind {
                PageKind::Free => {
                    if i < self.free_hint {
                        return Err(format!("free page {i} below the hint {}", self.free_hint));
                    }
                    free_pages += 1;
                }
                PageKind::Slab => {
                    if page.count == 0 {
                        return Err(format!("slab page {i} holds no live block"));
                    }
                    reserved += page.count as usize * self.block_of(page.class);
                }
                PageKind::RunHead => {
                    let k = page.count as usize;
                    if k == 0 || i + k > self.pages.len() {
                        return Err(format!("run at {i} of {k} pages"));
                    }
                    if let Some(j) =
                        (i + 1..i + k).find(|&j| self.pages[j].kind != PageKind::RunBody)
                    {
                        return Err(format!("run at {i}: page {j} is not its body"));
                    }
                    reserved += k * self.page;
                    i += k;
                    continue;
                }
                PageKind::RunBody => return Err(format!("page {i}: run body without a head")),
            }
            i += 1;
        }
        if (free_pages, reserved) != (self.free_pages, self.reserved) {
            return Err(format!(
                "counted free pages, reserved {:?}, kept {:?}",
                (free_pages, reserved),
                (self.free_pages, self.reserved)
            ));
        }
        let requested: usize = self.requested.iter().map(|&n| n.saturating_sub(1)).sum();
        if requested != self.requested_live {
            return Err(format!(
                "requested live {} but the table sums to {requested}",
                self.requested_live
            ));
        }
        L::check(self)
    }
}

impl<L: FreeLists> BlockAllocator for SlabOf<L> {
    const INFO: AllocDesignInfo = L::INFO;

    fn with_arena(total: usize, min_block: usize) -> Result<Self, AllocError> {
        if !min_block.is_power_of_two() || min_block < 8 {
            return Err(AllocError::InvalidArena {
                reason: "min_block must be a power of two of at least 8 bytes",
            });
        }
        if total > Self::INFO.max_arena {
            return Err(AllocError::InvalidArena {
                reason: "the arena is larger than the design's links can reach",
            });
        }
        let page = PAGE.min(prev_power_of_two(total / 4)).max(min_block);
        if total < page {
            return Err(AllocError::InvalidArena {
                reason: "the arena cannot hold one page",
            });
        }
        let count = total / page;
        let classes = (0..).take_while(|&c| min_block << c <= page / 2).count();
        let mut pages = Vec::new();
        pages
            .try_reserve_exact(count)
            .map_err(|_| AllocError::HostOutOfMemory {
                bytes: count.saturating_mul(size_of::<Page>()),
            })?;
        pages.resize(count, Page::FREE);
        Ok(Self {
            mem: Arena::new(total)?,
            page,
            page_shift: page.trailing_zeros(),
            min_block,
            min_shift: min_block.trailing_zeros(),
            pages,
            page_bytes: count * page,
            heads: vec![NONE; classes],
            free_hint: 0,
            free_pages: count,
            reserved: 0,
            requested_live: 0,
            requested: zeroed_vec(count * page / min_block)?,
            lists: L::new(classes),
        })
    }

    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError> {
        if !align.is_power_of_two() || align > Self::INFO.max_align {
            return Err(AllocError::BadAlignment { align });
        }
        let need = size.max(align).max(self.min_block);
        if need > self.page_bytes() {
            return Err(AllocError::TooLarge {
                requested: need,
                arena: self.mem.len(),
            });
        }
        let block = need.next_power_of_two();
        let offset = if block <= self.page / 2 {
            let class = (block >> self.min_shift).trailing_zeros() as u8;
            let offset = L::take(self, class, need)?;
            self.reserved += block;
            offset
        } else {
            self.allocate_run(need, align)?
        };
        self.requested[offset >> self.min_shift] = size + 1;
        self.requested_live += size;
        Ok(offset)
    }

    fn free(&mut self, offset: usize) -> Result<(), AllocError> {
        let size = self.live_size(offset)?;
        let p = offset >> self.page_shift;
        let page = self.pages[p];
        match page.kind {
            PageKind::Slab => {
                self.reserved -= self.block_of(page.class);
                self.pages[p].count -= 1;
                L::give(self, page.class, p, offset);
                if page.count == 1 {
                    L::drop_page(self, p);
                    self.release_pages(p, 1);
                }
            }
            PageKind::RunHead => {
                let k = page.count as usize;
                self.reserved -= k * self.page;
                self.release_pages(p, k);
            }
            PageKind::Free | PageKind::RunBody => {
                return Err(AllocError::ForeignOffset { offset });
            }
        }
        self.requested[offset >> self.min_shift] = 0;
        self.requested_live -= size;
        Ok(())
    }

    fn realloc(
        &mut self,
        offset: usize,
        old_size: usize,
        align: usize,
        new_size: usize,
    ) -> Result<usize, AllocError> {
        self.live_size(offset)?;
        // Refused before the block-size arithmetic below, which would overflow.
        if !align.is_power_of_two() || align > Self::INFO.max_align {
            return Err(AllocError::BadAlignment { align });
        }
        if new_size > self.mem.len() {
            return Err(AllocError::TooLarge {
                requested: new_size,
                arena: self.mem.len(),
            });
        }
        let fits = new_size.max(align).max(self.min_block);
        let block = self.block_size(offset);
        // In place when the new size needs the very same block: its class, or a run of as
        // many pages (so a shrinking block moves to its own class).
        let same_block = if block <= self.page / 2 {
            fits.next_power_of_two() == block
        } else {
            fits.next_power_of_two() > self.page / 2
                && fits.div_ceil(self.page) * self.page == block
                && offset % align == 0
        };
        if same_block {
            let entry = &mut self.requested[offset >> self.min_shift];
            self.requested_live = self.requested_live - (*entry - 1) + new_size;
            *entry = new_size + 1;
            return Ok(offset);
        }
        let to = self.allocate(new_size, align)?;
        self.mem.copy_within(offset, to, old_size.min(new_size));
        self.free(offset)?;
        Ok(to)
    }

    arena_accessors!(arena: mem, requested_live: requested_live);

    fn bytes_reserved(&self) -> usize {
        self.reserved
    }

    /// The free pages and every slab page's free blocks (a walk of the page table).
    fn free_bytes(&self) -> Option<usize> {
        let in_slabs: usize = self
            .pages
            .iter()
            .filter(|p| p.kind == PageKind::Slab)
            .map(|p| (self.blocks_per_page(p.class) - p.count as usize) * self.block_of(p.class))
            .sum();
        Some(self.free_pages * self.page + in_slabs)
    }

    fn metadata_bytes(&self) -> usize {
        self.pages.capacity() * size_of::<Page>() + self.heads.capacity() * size_of::<u32>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.check_pages()
    }
}

/// The largest power of two `<= n` (1 for 0).
fn prev_power_of_two(n: usize) -> usize {
    if n == 0 { 1 } else { 1 << n.ilog2() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_size_blocks_fill_pages_and_are_reused_last_freed_first() {
        let mut a = Slab::with_arena(64 << 10, 16).unwrap();
        // 24-byte requests are 32-byte blocks: 128 per 4 KiB page, back to back.
        let blocks: Vec<usize> = (0..200).map(|_| a.allocate(24, 8).unwrap()).collect();
        assert_eq!(blocks[1] - blocks[0], 32);
        assert_eq!(blocks[128], PAGE, "the 129th block opens the second page");
        assert_eq!(a.bytes_reserved(), 200 * 32);
        a.free(blocks[5]).unwrap();
        a.free(blocks[7]).unwrap();
        assert_eq!(a.allocate(20, 8), Ok(blocks[7]));
        assert_eq!(a.allocate(20, 8), Ok(blocks[5]));
        a.check_invariants().unwrap();
    }

    #[test]
    fn class_lists_reuse_the_last_freed_block_of_any_page_and_return_emptied_pages() {
        let mut a = SlabClassLists::with_arena(64 << 10, 16).unwrap();
        // 24-byte requests are 32-byte blocks carved back to back: 128 per 4 KiB page.
        let blocks: Vec<usize> = (0..200).map(|_| a.allocate(24, 8).unwrap()).collect();
        assert_eq!(blocks[1] - blocks[0], 32);
        assert_eq!(blocks[128], PAGE, "the 129th block opens the second page");
        a.free(blocks[5]).unwrap();
        a.free(blocks[150]).unwrap();
        assert_eq!(
            a.allocate(20, 8),
            Ok(blocks[150]),
            "last freed first, across pages"
        );
        assert_eq!(a.allocate(20, 8), Ok(blocks[5]));
        a.check_invariants().unwrap();
        // Emptying the second page takes its blocks off the list and frees the page, which a
        // run can then take.
        for &b in &blocks[128..] {
            a.free(b).unwrap();
        }
        a.check_invariants().unwrap();
        assert_eq!(a.free_bytes(), Some(15 * PAGE));
        assert_eq!(a.allocate(3 * PAGE, 8), Ok(PAGE));
        a.check_invariants().unwrap();
    }

    #[test]
    fn bad_frees_are_refused_in_every_build() {
        let mut a = Slab::with_arena(64 << 10, 16).unwrap();
        let x = a.allocate(100, 8).unwrap();
        let big = a.allocate(10_000, 8).unwrap();
        assert_eq!(
            a.free(x + 16),
            Err(AllocError::ForeignOffset { offset: x + 16 })
        );
        let body = big + PAGE;
        assert_eq!(
            a.free(body),
            Err(AllocError::ForeignOffset { offset: body })
        );
        assert_eq!(
            a.free(1 << 20),
            Err(AllocError::ForeignOffset { offset: 1 << 20 })
        );
        a.free(x).unwrap();
        assert_eq!(a.free(x), Err(AllocError::DoubleFree { offset: x }));
        a.free(big).unwrap();
        a.check_invariants().unwrap();
        assert_eq!(a.free_bytes(), Some(16 * PAGE));
    }
}
