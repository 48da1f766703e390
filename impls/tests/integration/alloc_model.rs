//! The block-allocator family contract, checked once for every registered design, plus the
//! adversarial tests of the buddy designs.
//!
//! One generic model-based property test (random allocate/free/realloc sequences against a list
//! of live blocks) runs through [`for_each_alloc_design`], so a new design is tested by adding
//! its registry line and nothing else.

use crate::support;

use impls::alloc::buddy::Buddy;
use impls::alloc::{
    AllocDesignVisitor, AllocError, BadFreeDetection, BlockAllocator, DesignKind,
    for_each_alloc_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::ModelRun;

#[derive(Debug, Clone, Copy)]
enum TestOp {
    /// Allocate `size` bytes aligned to `1 << align_log2`.
    Alloc { size: usize, align_log2: u32 },
    /// Free the `pick`-th live block, with or without its size.
    Free { pick: usize, sized: bool },
    /// Resize the `pick`-th live block to `size`.
    Realloc { pick: usize, size: usize },
}

/// Mostly small sizes, some medium, a few large enough to exhaust small arenas.
fn size_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![
        6 => 1usize..=64,
        3 => 65usize..=700,
        1 => 701usize..=6000,
    ]
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    prop_oneof![
        5 => (size_strategy(), prop_oneof![4 => 0u32..=4, 1 => 5u32..=12])
            .prop_map(|(size, align_log2)| TestOp::Alloc { size, align_log2 }),
        3 => (any::<usize>(), any::<bool>()).prop_map(|(pick, sized)| TestOp::Free { pick, sized }),
        2 => (any::<usize>(), size_strategy()).prop_map(|(pick, size)| TestOp::Realloc { pick, size }),
    ]
}

#[derive(Debug, Clone, Copy)]
struct Live {
    offset: usize,
    size: usize,
    align: usize,
    /// Seed of the byte pattern written into the block.
    seed: u8,
}

fn pattern(seed: u8, i: usize) -> u8 {
    seed.wrapping_add((i as u8).wrapping_mul(31)) ^ (i >> 8) as u8
}

fn write_pattern<A: BlockAllocator>(a: &mut A, block: &Live) {
    for (i, b) in a.bytes_mut(block.offset, block.size).iter_mut().enumerate() {
        *b = pattern(block.seed, i);
    }
}

fn pattern_intact<A: BlockAllocator>(a: &A, block: &Live, len: usize) -> bool {
    a.bytes(block.offset, len)
        .iter()
        .enumerate()
        .all(|(i, &b)| b == pattern(block.seed, i))
}

/// The block a buddy design reserves for a request.
fn buddy_block(size: usize, align: usize, min_block: usize) -> usize {
    size.max(align).max(min_block).next_power_of_two()
}

/// The largest power of two a fresh `A` can allocate (found by trying).
fn largest_fresh_power_of_two<A: BlockAllocator>(total: usize, min_block: usize) -> usize {
    let mut a = A::with_arena(total, min_block).unwrap();
    let mut p = total.next_power_of_two();
    while p > 0 {
        if let Ok(offset) = a.allocate(p, 1) {
            a.free(offset).unwrap();
            return p;
        }
        p /= 2;
    }
    0
}

fn check_model<A: BlockAllocator>(
    a: &A,
    live: &[Live],
    min_block: usize,
    ctx: &dyn Fn(&str) -> String,
) -> Result<(), TestCaseError> {
    let info = A::INFO;
    if let Err(broken) = a.check_invariants() {
        prop_assert!(false, "{}", ctx(&format!("invariant broken: {broken}")));
    }
    let mut sorted: Vec<Live> = live.to_vec();
    sorted.sort_by_key(|b| b.offset);
    for pair in sorted.windows(2) {
        prop_assert!(
            pair[0].offset + pair[0].size <= pair[1].offset,
            "{}",
            ctx(&format!("blocks overlap: {:?} and {:?}", pair[0], pair[1]))
        );
    }
    for block in live {
        prop_assert!(
            block.offset + block.size <= a.arena_bytes(),
            "{}",
            ctx("block leaves the arena")
        );
        prop_assert_eq!(block.offset % block.align, 0, "{}", ctx("misaligned block"));
        prop_assert!(
            pattern_intact(a, block, block.size),
            "{}",
            ctx(&format!("contents of {block:?} changed"))
        );
    }
    let requested: usize = live.iter().map(|b| b.size).sum();
    prop_assert_eq!(
        a.bytes_requested_live(),
        requested,
        "{}",
        ctx("bytes_requested_live")
    );
    prop_assert!(
        a.bytes_reserved() >= requested,
        "{}",
        ctx("reserved < requested")
    );
    if info.power_of_two_blocks {
        let reserved: usize = live
            .iter()
            .map(|b| buddy_block(b.size, b.align, min_block))
            .sum();
        prop_assert_eq!(a.bytes_reserved(), reserved, "{}", ctx("bytes_reserved"));
    }
    if let Some(free) = a.free_bytes() {
        // Free, live and metadata bytes tile the arena (the buddy's unbacked tail and the
        // remainder below one leaf are neither, hence `<=`).
        prop_assert!(
            free + a.bytes_reserved() <= a.arena_bytes(),
            "{}",
            ctx(&format!("free {free} + reserved exceed the arena"))
        );
        if let Some(largest) = a.largest_free_block() {
            prop_assert!(
                largest <= free,
                "{}",
                ctx("largest free block > free bytes")
            );
        }
    }
    Ok(())
}

/// Replays `ops` on a fresh `A` and on the model, failing at the first disagreement.
#[expect(
    clippy::too_many_lines,
    reason = "the model interpreter: one arm per op of the test vocabulary, each checked against the model"
)]
fn run_against_model<A: BlockAllocator>(
    total: usize,
    min_block: usize,
    ops: &[TestOp],
) -> Result<(), TestCaseError> {
    let info = A::INFO;
    let probe = largest_fresh_power_of_two::<A>(total, min_block);
    let mut a = A::with_arena(total, min_block).unwrap();
    let initial_largest = a.largest_free_block();
    if let Some(largest) = initial_largest {
        prop_assert_eq!(
            largest,
            probe,
            "{}: largest_free_block at init",
            info.meta.name
        );
    }
    let mut live: Vec<Live> = Vec::new();
    let mut seed = 0u8;
    for (step, &op) in ops.iter().enumerate() {
        let ctx = |what: &str| {
            format!(
                "{}: arena {total}/{min_block}: step {step} {op:?}: {what}",
                info.meta.name
            )
        };
        match op {
            TestOp::Alloc { size, align_log2 } => {
                let align = (1usize << align_log2).min(info.max_align);
                match a.allocate(size, align) {
                    Ok(offset) => {
                        seed = seed.wrapping_add(1);
                        let block = Live {
                            offset,
                            size,
                            align,
                            seed,
                        };
                        write_pattern(&mut a, &block);
                        live.push(block);
                    }
                    Err(AllocError::OutOfMemory { .. } | AllocError::TooLarge { .. }) => {}
                    Err(e) => prop_assert!(false, "{}", ctx(&format!("unexpected error {e}"))),
                }
            }
            TestOp::Free { pick, sized } => {
                if live.is_empty() {
                    continue;
                }
                let block = live.swap_remove(pick % live.len());
                let freed = if sized {
                    a.free_sized(block.offset, block.size, block.align)
                } else {
                    a.free(block.offset)
                };
                prop_assert_eq!(freed, Ok(()), "{}", ctx("free"));
            }
            TestOp::Realloc { pick, size } => {
                if live.is_empty() {
                    continue;
                }
                let i = pick % live.len();
                let old = live[i];
                match a.realloc(old.offset, old.size, old.align, size) {
                    Ok(offset) => {
                        let moved = Live { offset, ..old };
                        prop_assert_eq!(offset % old.align, 0, "{}", ctx("realloc misaligned"));
                        prop_assert!(
                            pattern_intact(&a, &moved, old.size.min(size)),
                            "{}",
                            ctx("realloc lost the contents")
                        );
                        seed = seed.wrapping_add(1);
                        live[i] = Live {
                            offset,
                            size,
                            align: old.align,
                            seed,
                        };
                        write_pattern(&mut a, &live[i]);
                    }
                    Err(AllocError::OutOfMemory { .. } | AllocError::TooLarge { .. }) => {}
                    Err(e) => prop_assert!(false, "{}", ctx(&format!("unexpected error {e}"))),
                }
            }
        }
        check_model(&a, &live, min_block, &ctx)?;
    }
    for (i, block) in live.drain(..).enumerate() {
        let freed = if i % 2 == 0 {
            a.free(block.offset)
        } else {
            a.free_sized(block.offset, block.size, block.align)
        };
        prop_assert_eq!(
            freed,
            Ok(()),
            "{}: final free of {:?}",
            info.meta.name,
            block
        );
    }
    check_model(&a, &[], min_block, &|what| {
        format!("{}: after freeing all: {what}", info.meta.name)
    })?;
    prop_assert_eq!(
        a.bytes_reserved(),
        0,
        "{}: reserved after freeing all",
        info.meta.name
    );
    prop_assert_eq!(
        a.largest_free_block(),
        initial_largest,
        "{}: not merged back",
        info.meta.name
    );
    prop_assert!(
        a.allocate(probe, 1).is_ok(),
        "{}: {} bytes no longer fit after freeing all",
        info.meta.name,
        probe
    );
    Ok(())
}

/// The property test per design, through the shared seeded runner.
struct ModelTest(ModelRun);

impl AllocDesignVisitor for ModelTest {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        let arena = (
            600usize..20_000,
            prop_oneof![Just(8usize), Just(16), Just(32), Just(64)],
        );
        let ops = proptest::collection::vec(op_strategy(), 0..200);
        self.0.check(
            A::INFO.meta.name,
            (arena, ops),
            |((total, min_block), ops)| run_against_model::<A>(total, min_block, &ops),
        );
    }
}

support::every_design_agrees_with_the_model!(ModelTest, for_each_alloc_design, cases: 128);

/// Runs `test` on every registered design whose blocks are powers of two from our own buddy
/// core (the article design and its ablations).
fn for_each_buddy(test: &mut impl AllocDesignVisitor) {
    struct Filter<'a, V>(&'a mut V);
    impl<V: AllocDesignVisitor> AllocDesignVisitor for Filter<'_, V> {
        fn visit<A: BlockAllocator + 'static>(&mut self) {
            if A::INFO.power_of_two_blocks && !matches!(A::INFO.meta.kind, DesignKind::Peer { .. })
            {
                self.0.visit::<A>();
            }
        }
    }
    for_each_alloc_design(&mut Filter(test));
}

/// Allocates `min_block`-sized blocks until the arena is full; returns their offsets, sorted.
fn fill_with_leaves<A: BlockAllocator>(a: &mut A, min_block: usize) -> Vec<usize> {
    let mut offsets = Vec::new();
    loop {
        match a.allocate(min_block, 1) {
            Ok(offset) => offsets.push(offset),
            Err(AllocError::OutOfMemory {
                largest_free: 0, ..
            }) => break,
            Err(e) => panic!("{}: unexpected {e}", A::INFO.meta.name),
        }
    }
    offsets.sort_unstable();
    offsets
}

struct EveryOtherLeaf;

impl AllocDesignVisitor for EveryOtherLeaf {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        let name = A::INFO.meta.name;
        for (total, min_block) in [
            (1 << 16, 16),
            (10_000, 16),
            (3 * 4096 + 8, 8),
            (1 << 12, 64),
        ] {
            let mut a = A::with_arena(total, min_block).unwrap();
            let initial = a.largest_free_block().unwrap();
            let leaves = fill_with_leaves(&mut a, min_block);
            // Every leaf from the end of the metadata prefix to the last whole leaf is handed out.
            let first = leaves[0];
            assert!(first > 0, "{name}: the metadata prefix is marked allocated");
            let expected: Vec<usize> = (first..total / min_block * min_block)
                .step_by(min_block)
                .collect();
            assert_eq!(
                leaves, expected,
                "{name} {total}/{min_block}: leaves handed out"
            );
            assert_eq!(a.largest_free_block(), Some(0), "{name}: arena is full");
            for &o in leaves.iter().step_by(2) {
                a.free(o).unwrap();
            }
            a.check_invariants()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                a.largest_free_block(),
                Some(min_block),
                "{name} {total}/{min_block}: freed leaves alternate with live ones, nothing merges"
            );
            assert!(matches!(
                a.allocate(2 * min_block, 1),
                Err(AllocError::OutOfMemory { largest_free, .. }) if largest_free == min_block
            ));
            for &o in leaves.iter().skip(1).step_by(2) {
                a.free_sized(o, min_block, 1).unwrap();
            }
            a.check_invariants()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                a.largest_free_block(),
                Some(initial),
                "{name} {total}: full merge"
            );
            assert_eq!(a.bytes_reserved(), 0);
            let whole = a.allocate(initial, 1).unwrap();
            a.free(whole).unwrap();
        }
    }
}

#[test]
fn buddy_every_other_leaf_then_the_rest_merges_fully() {
    for_each_buddy(&mut EveryOtherLeaf);
}

struct NonPowerOfTwo;

impl AllocDesignVisitor for NonPowerOfTwo {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        let name = A::INFO.meta.name;
        for total in [1000, 4097, 12_345, 65_535, 100_000, (1 << 16) + 16] {
            let mut a = A::with_arena(total, 16).unwrap();
            a.check_invariants()
                .unwrap_or_else(|e| panic!("{name} {total}: {e}"));
            // The largest block is a power of two inside the arena, never the virtual tree.
            let largest = a.largest_free_block().unwrap();
            assert!(
                largest.is_power_of_two() && largest <= total,
                "{name} {total}: {largest}"
            );
            // Blocks of every size stay inside the backed bytes.
            let mut live = Vec::new();
            for size in [16, 48, 200, 1000, 16, 5000, 16, 3000] {
                if let Ok(o) = a.allocate(size, 1) {
                    assert!(
                        o + size <= total,
                        "{name} {total}: block {o}+{size} past the arena"
                    );
                    a.bytes_mut(o, size).fill(0xAB);
                    live.push(o);
                }
            }
            live.extend(fill_with_leaves(&mut a, 16));
            assert!(live.iter().all(|&o| o + 16 <= total));
            for o in live {
                a.free(o).unwrap();
            }
            a.check_invariants()
                .unwrap_or_else(|e| panic!("{name} {total}: {e}"));
            assert_eq!(
                a.largest_free_block(),
                Some(largest),
                "{name} {total}: merge"
            );
        }
    }
}

#[test]
fn buddy_totals_that_are_not_powers_of_two() {
    for_each_buddy(&mut NonPowerOfTwo);
}

struct TooLarge;

impl AllocDesignVisitor for TooLarge {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        let name = A::INFO.meta.name;
        let total = 10_000;
        let mut a = A::with_arena(total, 16).unwrap();
        for size in [total + 1, 1 << 20, usize::MAX / 2, usize::MAX] {
            let err = a.allocate(size, 1).unwrap_err();
            assert_eq!(
                err,
                AllocError::TooLarge {
                    requested: size,
                    arena: total
                },
                "{name}"
            );
            assert!(err.to_string().contains("can never fit"), "{name}: {err}");
        }
        // Alignment counts toward the size; a non-power-of-two alignment is refused.
        assert!(matches!(
            a.allocate(8, 1 << 20),
            Err(AllocError::BadAlignment { .. })
        ));
        assert!(matches!(
            a.allocate(8, 3),
            Err(AllocError::BadAlignment { .. })
        ));
        // The whole arena never fits: the metadata holds its first leaves.
        assert!(matches!(
            a.allocate(total, 1),
            Err(AllocError::TooLarge { .. })
        ));
        let o = a.allocate(16, 1).unwrap();
        assert!(matches!(
            a.realloc(o, 16, 1, total + 1),
            Err(AllocError::TooLarge { .. })
        ));
        a.free(o).unwrap();
        assert!(A::with_arena(8, 16).is_err(), "{name}: not even one leaf");
        assert!(
            A::with_arena(4096, 12).is_err(),
            "{name}: min_block not a power of two"
        );
    }
}

#[test]
fn buddy_allocation_larger_than_the_arena_is_a_clear_error() {
    for_each_buddy(&mut TooLarge);
}

#[cfg(debug_assertions)]
struct BadFrees;

#[cfg(debug_assertions)]
impl AllocDesignVisitor for BadFrees {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        let name = A::INFO.meta.name;
        let mut a = A::with_arena(1 << 14, 16).unwrap();
        let x = a.allocate(64, 1).unwrap();
        let y = a.allocate(16, 1).unwrap();
        a.free(y).unwrap();
        assert_eq!(
            a.free(y),
            Err(AllocError::DoubleFree { offset: y }),
            "{name}"
        );
        assert_eq!(
            a.free_sized(y, 16, 1),
            Err(AllocError::DoubleFree { offset: y }),
            "{name}"
        );
        let foreign = |offset| Err(AllocError::ForeignOffset { offset });
        assert_eq!(
            a.free(x + 16),
            foreign(x + 16),
            "{name}: inside a live block"
        );
        assert_eq!(a.free(x + 3), foreign(x + 3), "{name}: not a leaf");
        assert_eq!(a.free(0), foreign(0), "{name}: metadata");
        assert_eq!(a.free(1 << 14), foreign(1 << 14), "{name}: past the arena");
        assert_eq!(
            a.free(usize::MAX),
            foreign(usize::MAX),
            "{name}: far past the arena"
        );
        assert_eq!(a.free_sized(x, 16, 1), foreign(x), "{name}: wrong size");
        assert_eq!(
            a.realloc(x + 16, 16, 1, 32),
            Err(AllocError::ForeignOffset { offset: x + 16 }),
            "{name}: realloc inside"
        );
        a.check_invariants()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        a.free(x).unwrap();
        assert_eq!(a.bytes_reserved(), 0);
    }
}

#[cfg(debug_assertions)]
#[test]
fn buddy_double_free_and_foreign_offsets_are_detected_in_debug_builds() {
    for_each_buddy(&mut BadFrees);
}

#[test]
fn buddy_metadata_is_in_the_arena_and_marked_allocated() {
    let total = 1 << 16;
    let mut a = Buddy::with_arena(total, 16).unwrap();
    // 4096 leaves: 4095 split bits + 4095 pair bits + 13 list heads of 4 bytes, in whole leaves.
    let bits = 2 * 4095usize.div_ceil(8) + 13 * 4;
    assert_eq!(a.metadata_end(), bits.div_ceil(16) * 16);
    assert_eq!(
        a.metadata_bytes(),
        a.metadata_end(),
        "no metadata off the arena"
    );
    let leaves = fill_with_leaves(&mut a, 16);
    assert_eq!(
        leaves[0],
        a.metadata_end(),
        "the first user leaf follows the metadata"
    );
    assert_eq!(
        a.base_addr() % impls::alloc::arena::BASE_ALIGN,
        0,
        "arena base alignment"
    );
}

#[test]
fn buddy_realloc_grows_in_place_when_the_buddy_is_free() {
    let mut a = Buddy::with_arena(1 << 16, 16).unwrap();
    let x = a.allocate(16, 1).unwrap();
    let x = a.realloc(x, 16, 1, 32).unwrap();
    let grown = a.realloc(x, 32, 1, 64).unwrap();
    assert_eq!(grown, x, "the right buddy is free: grow in place");
    let y = a.allocate(64, 1).unwrap();
    assert_eq!(y, x + 64, "the next block is the buddy");
    a.bytes_mut(x, 64).fill(7);
    let moved = a.realloc(x, 64, 1, 128).unwrap();
    assert_ne!(moved, x, "buddy is live: the block moves");
    assert!(a.bytes(moved, 64).iter().all(|&b| b == 7));
    let shrunk = a.realloc(moved, 128, 1, 16).unwrap();
    assert_eq!(shrunk, moved, "shrinking stays in place");
    a.check_invariants().unwrap();
    assert_eq!(a.bytes_reserved(), 16 + 64);
}

struct PeerBadFrees;

impl AllocDesignVisitor for PeerBadFrees {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        if A::INFO.bad_free != BadFreeDetection::Always {
            return;
        }
        let name = A::INFO.meta.name;
        let mut a = A::with_arena(1 << 14, 16).unwrap();
        let x = a.allocate(64, 8).unwrap();
        a.free(x).unwrap();
        for offset in [x, x + 8, 1 << 20, usize::MAX] {
            assert!(
                a.free(offset).is_err(),
                "{name}: free({offset}) of no live block"
            );
            assert!(
                a.free_sized(offset, 64, 8).is_err(),
                "{name}: free_sized({offset})"
            );
            assert!(
                a.realloc(offset, 64, 8, 128).is_err(),
                "{name}: realloc({offset})"
            );
        }
        a.check_invariants()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Peers' own frees are `unsafe` on a bad pointer: their adapters must refuse bad offsets in
/// every build, before the crate sees them.
#[test]
fn peers_refuse_bad_offsets_in_every_build() {
    for_each_alloc_design(&mut PeerBadFrees);
}

#[test]
fn buddy_free_bytes_are_what_the_metadata_and_live_blocks_leave() {
    struct Check;
    impl AllocDesignVisitor for Check {
        fn visit<A: BlockAllocator + 'static>(&mut self) {
            let total = 1 << 16;
            let mut a = A::with_arena(total, 16).unwrap();
            let Some(free0) = a.free_bytes() else {
                return;
            };
            // Only the metadata (leaves at the arena's start) is not free in a fresh arena.
            assert_eq!(a.bytes_reserved(), 0);
            assert!(
                free0 < total && free0 >= total - a.metadata_bytes(),
                "{}",
                A::INFO.meta.name
            );
            let blocks: Vec<usize> = (0..10)
                .map(|i| a.allocate(16 << (i % 4), 16).unwrap())
                .collect();
            assert_eq!(
                a.free_bytes().unwrap(),
                free0 - a.bytes_reserved(),
                "{}",
                A::INFO.meta.name
            );
            for b in blocks {
                a.free(b).unwrap();
            }
            assert_eq!(a.free_bytes(), Some(free0), "{}", A::INFO.meta.name);
        }
    }
    for_each_buddy(&mut Check);
}
