//! Block allocators: the arena size, `min_block`, sizes, alignments and offsets are the
//! caller's.

use super::*;

/// Arena sizes no host can back: the fallible allocation (or a documented limit) refuses them.
const IMPOSSIBLE_ARENAS: [usize; 5] = [
    usize::MAX,
    usize::MAX - 4095,
    usize::MAX / 2 + 1,
    1 << 62,
    1 << 56,
];

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one visitor over every allocator, one block per kind of extreme input"
)]
fn allocators_refuse_extreme_arenas_sizes_and_alignments() {
    struct V;
    impl AllocDesignVisitor for V {
        fn visit<A: BlockAllocator + 'static>(&mut self) {
            let info = A::INFO;
            let name = info.meta.name;
            for total in IMPOSSIBLE_ARENAS {
                let got = A::with_arena(total, 16).map(|_| ());
                assert!(
                    matches!(
                        got,
                        Err(AllocError::InvalidArena { .. } | AllocError::HostOutOfMemory { .. })
                    ),
                    "{name}: with_arena({total}) gave {got:?}"
                );
            }
            if info.max_arena < usize::MAX {
                let got = A::with_arena(info.max_arena + 1, 16).map(|_| ());
                assert!(
                    matches!(got, Err(AllocError::InvalidArena { .. })),
                    "{name}: with_arena(max_arena + 1) gave {got:?}"
                );
            }
            // A `min_block` that is no power of two, or larger than the arena: refused, or
            // ignored by the designs without a block granularity (their documented choice).
            for min_block in [0, 3, 1 << 63, usize::MAX] {
                match A::with_arena(64 << 10, min_block) {
                    Ok(mut a) => {
                        a.check_invariants().unwrap();
                        let block = a.allocate(64, 16).unwrap();
                        a.free(block).unwrap();
                    }
                    Err(e) => assert!(
                        matches!(e, AllocError::InvalidArena { .. }),
                        "{name}: with_arena(64 KiB, min_block {min_block}) gave {e:?}"
                    ),
                }
            }

            let mut a = A::with_arena(64 << 10, 16).unwrap();
            let live = a.allocate(100, 16).unwrap();
            a.bytes_mut(live, 100).fill(0xA5);
            let before = (a.bytes_requested_live(), a.bytes_reserved(), a.free_bytes());
            for (size, align) in [
                (usize::MAX, 1),
                (usize::MAX, 16),
                (usize::MAX - 15, 16),
                (usize::MAX / 2 + 1, 8),
                (1 << 40, 16),
                (64 << 10, 16),
                (1, 1 << 63),
                (1, 3),
                (1, 0),
                (1, info.max_align * 2),
                (usize::MAX, usize::MAX),
            ] {
                let got = a.allocate(size, align);
                assert!(
                    matches!(
                        got,
                        Err(AllocError::TooLarge { .. }
                            | AllocError::OutOfMemory { .. }
                            | AllocError::BadAlignment { .. })
                    ),
                    "{name}: allocate({size}, {align}) gave {got:?}"
                );
                a.check_invariants().unwrap();
            }
            for new_size in [usize::MAX, usize::MAX - 15, 1 << 40, 64 << 10] {
                let got = a.realloc(live, 100, 16, new_size);
                assert!(
                    matches!(
                        got,
                        Err(AllocError::TooLarge { .. } | AllocError::OutOfMemory { .. })
                    ),
                    "{name}: realloc to {new_size} gave {got:?}"
                );
                a.check_invariants().unwrap();
            }
            // A `realloc` naming an alignment the block cannot have: refused, or ignored by
            // the designs that record every live block's alignment (the peers' tables).
            for align in [0, 3, 1 << 63] {
                let mut b = A::with_arena(64 << 10, 16).unwrap();
                let block = b.allocate(100, 16).unwrap();
                match b.realloc(block, 100, align, 200) {
                    Ok(moved) => {
                        assert_eq!(info.bad_free, BadFreeDetection::Always, "{name}: {align}");
                        b.free(moved).unwrap();
                    }
                    Err(e) => {
                        assert!(
                            matches!(
                                e,
                                AllocError::BadAlignment { .. } | AllocError::TooLarge { .. }
                            ),
                            "{name}: realloc with align {align} gave {e:?}"
                        );
                        b.free(block).unwrap();
                    }
                }
                b.check_invariants().unwrap();
            }
            // A bad offset: refused in every build by designs that say so, in debug builds
            // (these tests) by the others.
            if info.bad_free == BadFreeDetection::Always || cfg!(debug_assertions) {
                for offset in [usize::MAX, usize::MAX - 15, 1 << 40, 64 << 10, live + 16] {
                    let got = a.free(offset);
                    assert!(
                        matches!(
                            got,
                            Err(AllocError::ForeignOffset { .. } | AllocError::DoubleFree { .. })
                        ),
                        "{name}: free({offset}) gave {got:?}"
                    );
                    let got = a.free_sized(offset, 16, 16);
                    assert!(got.is_err(), "{name}: free_sized({offset}) gave {got:?}");
                    let got = a.realloc(offset, 16, 16, 32);
                    assert!(got.is_err(), "{name}: realloc({offset}) gave {got:?}");
                    a.check_invariants().unwrap();
                }
            }
            assert_eq!(
                (a.bytes_requested_live(), a.bytes_reserved(), a.free_bytes()),
                before,
                "{name}: a refused request changed the allocator"
            );
            assert!(a.bytes(live, 100).iter().all(|&b| b == 0xA5), "{name}");
            // Ranges the caller has not checked: refused, never a panic.
            let arena = a.arena_bytes();
            for (offset, len) in [(usize::MAX, 1), (1, usize::MAX), (arena, 1), (0, arena + 1)] {
                assert!(
                    a.checked_bytes(offset, len).is_none(),
                    "{name}: {offset}+{len}"
                );
                assert!(
                    a.checked_bytes_mut(offset, len).is_none(),
                    "{name}: {offset}+{len}"
                );
            }
            assert_eq!(
                a.checked_bytes(live, 100),
                Some(a.bytes(live, 100)),
                "{name}"
            );
            let other = a.allocate(1000, 16).unwrap();
            a.free(other).unwrap();
            a.free(live).unwrap();
            a.check_invariants().unwrap();
        }
    }
    impls::alloc::for_each_alloc_design(&mut V);
}
