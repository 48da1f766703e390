//! Extreme caller inputs, for every registered design of every family but spatial (issue 31,
//! item 2): `u32::MAX`-class IDs, sizes and counts, forged or foreign IDs, and `f32::MAX`,
//! infinite and NaN floats. Each must give the family's error (or its documented behaviour),
//! never a panic, an abort or a hang, and leave the structure unchanged and usable
//! (`check_invariants` passes, a normal op still works).
//!
//! Nothing here allocates much: sizes that a design would have to back with memory are either
//! above a documented limit (refused before anything is allocated) or beyond any host's address
//! space (refused by the fallible allocation), never a size a big machine could satisfy.

use std::any::Any;

use impls::alloc::{AllocDesignVisitor, AllocError, BadFreeDetection, BlockAllocator};
use impls::components::{ComponentDesignVisitor, ComponentStore, PointMass, VectorField};
use impls::data_component::{DataStore, KvDesignVisitor, KvError, ValueRef};
use impls::id::{Id32, Id64, ParityId};
use impls::id_table::{DesignVisitor, IdTable};
use impls::relations::{Record, RelationDesignVisitor, RelationError, RelationIndex};
use impls::spawn::{
    ComponentKind, Level, LevelComponent, LevelEntity, SpawnDesignVisitor, SpawnWorld, Spawner,
};
use impls::tags::{TagDesignVisitor, TagError, TagStore};
use impls::transforms::{Affine, TransformDesignVisitor, TransformStore, XfError};

/// `f32` values at the edges: the largest finite, infinities, NaN (quiet, with payload and
/// negative), the smallest subnormal, negative zero.
const EXTREME_F32: [f32; 8] = [
    f32::MAX,
    f32::MIN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -f32::NAN,
    f32::from_bits(1),
    -0.0,
];

/// Extreme candidates for a design's ID type: every forgeable ID type of the crate and of the
/// peers, at the top of its index range. A design takes the ones of its own type
/// ([`forged`]).
fn forged_candidates() -> Vec<Box<dyn Any>> {
    vec![
        Box::new(u32::MAX),
        Box::new(u32::MAX - 1),
        Box::new(u64::MAX),
        Box::new(usize::MAX),
        Box::new(Id64::new(u32::MAX, 0)),
        Box::new(Id64::new(u32::MAX, u32::MAX)),
        Box::new(Id64::new(u32::MAX - 1, 1)),
        Box::new(ParityId::new(u32::MAX, 1)),
        Box::new(ParityId::new(u32::MAX, u32::MAX)),
        Box::new(Id32::<16>::new((1 << 16) - 1, 0)),
        Box::new(Id32::<16>::new((1 << 16) - 1, u32::MAX)),
        Box::new(Id32::<20>::new((1 << 20) - 1, 0)),
        Box::new(Id32::<22>::new((1 << 22) - 1, 0)),
        Box::new(Id32::<22>::new((1 << 22) - 1, u32::MAX)),
        Box::new(Id32::<24>::new((1 << 24) - 1, 0)),
        Box::new(slotmap::DefaultKey::from(slotmap::KeyData::from_ffi(
            u64::MAX,
        ))),
        Box::new(slotmap::DefaultKey::from(slotmap::KeyData::from_ffi(
            (1 << 32) | u64::from(u32::MAX - 1),
        ))),
        Box::new(generational_arena::Index::from_raw_parts(
            usize::MAX,
            u64::MAX,
        )),
        Box::new(generational_arena::Index::from_raw_parts(
            u32::MAX as usize,
            0,
        )),
        Box::new(thunderdome::Index::from_bits((1 << 32) | u64::from(u32::MAX)).unwrap()),
        Box::new(hecs::Entity::from_bits((1 << 32) | u64::from(u32::MAX)).unwrap()),
        Box::new(shipyard::EntityId::from_inner(u64::MAX >> 1).unwrap()),
    ]
}

/// The candidates of type `I`.
fn forged<I: Copy + 'static>() -> Vec<I> {
    forged_candidates()
        .iter()
        .filter_map(|c| c.downcast_ref::<I>().copied())
        .collect()
}

/// IDs a design cannot have handed out: forged ones of its type, plus those a second instance
/// of the design handed out beyond the first's (foreign IDs, for ID types nobody can forge).
fn bad_ids<I: Copy + 'static>(foreign: impl IntoIterator<Item = I>) -> Vec<I> {
    let mut ids = forged::<I>();
    ids.extend(foreign);
    ids
}

/// `f`'s bits, every NaN as the one quiet NaN: Rust leaves the sign and payload of a NaN that
/// arithmetic produces unspecified (they depend on operand order, which the compiler may
/// commute), so a family's "bit for bit" agreement holds up to them.
fn canonical_bits(f: f32) -> u32 {
    if f.is_nan() {
        f32::NAN.to_bits()
    } else {
        f.to_bits()
    }
}

// ---------------------------------------------------------------------------------------------
// ID tables: IDs come from the table, so the hazard is a forged or foreign ID.

#[test]
fn id_tables_reject_forged_and_foreign_ids() {
    struct V(Vec<&'static str>);
    impl DesignVisitor<u64> for V {
        fn visit<D: IdTable<u64> + 'static>(&mut self) {
            let name = D::INFO.name;
            let mut table = D::new();
            let ids: Vec<D::Id> = (0..3).map(|k| table.insert(k).unwrap()).collect();
            let mut other = D::new();
            let foreign: Vec<D::Id> = (0..40).map(|k| other.insert(k).unwrap()).collect();
            let forged_ids = forged::<D::Id>();
            if forged_ids.is_empty() {
                self.0.push(name);
            }
            let bad = bad_ids(forged_ids.into_iter().chain(foreign[3..].iter().copied()));
            for id in bad {
                assert_eq!(table.get(id), None, "{name}: get({id:?})");
                assert_eq!(table.get_mut(id), None, "{name}: get_mut({id:?})");
                assert!(!table.contains(id), "{name}: contains({id:?})");
                assert_eq!(table.remove(id), None, "{name}: remove({id:?})");
                table.check_invariants().unwrap();
            }
            assert_eq!(table.len(), 3, "{name}");
            for (k, &id) in ids.iter().enumerate() {
                assert_eq!(table.get(id), Some(&(k as u64)), "{name}");
            }
            let id = table.insert(u64::MAX).unwrap();
            assert_eq!(table.remove(id), Some(u64::MAX), "{name}");
            table.check_invariants().unwrap();
        }
    }
    let mut v = V(Vec::new());
    impls::id_table::for_each_design::<u64, _>(&mut v);
    // Every design's ID type is forgeable here, so each got the `u32::MAX`-index IDs, not only
    // foreign ones; a new ID type belongs in `forged_candidates`.
    assert!(
        v.0.is_empty(),
        "no forged candidates of these designs' ID types: {:?}",
        v.0
    );
}

// ---------------------------------------------------------------------------------------------
// Tags: entity handles are `u32` indices the caller passes; tags are any `u32`.

#[test]
fn tag_stores_reject_extreme_handles() {
    struct V;
    impl TagDesignVisitor for V {
        fn visit<D: TagStore + 'static>(&mut self) {
            let name = D::INFO.name;
            let mut store = D::new();
            let e = store.create_entity().unwrap();
            store.add_tag(e, u32::MAX).unwrap();
            store.add_tag(e, 0).unwrap();
            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, e + 1, e + 64, e + 4096] {
                let no = TagError::NoSuchEntity { entity: bad };
                assert_eq!(store.add_tag(bad, 1), Err(no.clone()), "{name}: add_tag");
                assert_eq!(store.remove_tag(bad, 1), Err(no.clone()), "{name}");
                assert_eq!(store.has_tag(bad, 1), Err(no.clone()), "{name}");
                let mut called = false;
                assert_eq!(
                    store.visit_entity(bad, |_| called = true),
                    Err(no.clone()),
                    "{name}"
                );
                assert!(!called, "{name}: visit_entity called f");
                assert_eq!(store.clear_entity(bad), Err(no.clone()), "{name}");
                assert_eq!(store.destroy_entity(bad), Err(no), "{name}");
                store.check_invariants().unwrap();
            }
            assert_eq!((store.entity_count(), store.tag_count()), (1, 2), "{name}");
            assert_eq!(store.has_tag(e, u32::MAX), Ok(true), "{name}");
            assert_eq!(store.remove_tag(e, u32::MAX), Ok(true), "{name}");
            let f = store.create_entity().unwrap();
            store.add_tag(f, u32::MAX).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::tags::for_each_tag_design(&mut V);
}

// ---------------------------------------------------------------------------------------------
// Block allocators: the arena size, `min_block`, sizes, alignments and offsets are the
// caller's.

/// Arena sizes no host can back: the fallible allocation (or a documented limit) refuses them.
const IMPOSSIBLE_ARENAS: [usize; 5] = [
    usize::MAX,
    usize::MAX - 4095,
    usize::MAX / 2 + 1,
    1 << 62,
    1 << 56,
];

#[test]
fn allocators_refuse_extreme_arenas_sizes_and_alignments() {
    struct V;
    impl AllocDesignVisitor for V {
        fn visit<A: BlockAllocator + 'static>(&mut self) {
            let info = A::INFO;
            let name = info.name;
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

// ---------------------------------------------------------------------------------------------
// Relations: record IDs are `u32`s the caller passes back; keys and payloads are any `u32`.

#[test]
fn relation_indices_take_extreme_keys_and_reject_extreme_ids() {
    struct V;
    impl RelationDesignVisitor for V {
        fn visit<D: RelationIndex + 'static>(&mut self) {
            let name = D::INFO.name;
            let mut index = D::new();
            let max = Record {
                a: u32::MAX,
                b: u32::MAX,
                payload: u32::MAX,
            };
            let r0 = index.add(max).unwrap();
            let r1 = index
                .add(Record {
                    a: u32::MAX,
                    b: 0,
                    payload: 7,
                })
                .unwrap();
            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, r1 + 1, r1 + 4096] {
                assert_eq!(
                    index.remove(bad),
                    Err(RelationError::NoSuchRecord { id: bad }),
                    "{name}"
                );
                index.check_invariants().unwrap();
            }
            assert_eq!(index.len(), 2, "{name}");
            assert_eq!(index.count_by_a(u32::MAX), 2, "{name}");
            let mut by_b = Vec::new();
            index.visit_by_b(u32::MAX, |id, r| by_b.push((id, r)));
            assert_eq!(by_b, [(r0, max)], "{name}");
            assert!(index.first_by_a(u32::MAX - 1).is_none(), "{name}");
            let mut removed = Vec::new();
            index.remove_entity(u32::MAX, |id, _| removed.push(id));
            removed.sort_unstable();
            assert_eq!(removed, [r0, r1], "{name}");
            assert!(index.is_empty(), "{name}");
            index.check_invariants().unwrap();
        }
    }
    impls::relations::for_each_relation_design(&mut V);
}

// ---------------------------------------------------------------------------------------------
// Components: forged and foreign entities; point masses of extreme floats.

/// Sorted bit patterns of every instance a store holds (the designs' visit order differs).
fn instance_bits<S: ComponentStore>(store: &S) -> Vec<[u32; 10]> {
    let mut out = Vec::new();
    store.visit(|m| out.push(m.bits().map(|b| canonical_bits(f32::from_bits(b)))));
    out.sort_unstable();
    out
}

/// The extreme point masses: one per extreme float, in every field.
fn extreme_masses() -> Vec<PointMass> {
    EXTREME_F32
        .iter()
        .enumerate()
        .map(|(k, &f)| {
            let g = EXTREME_F32[(k + 3) % EXTREME_F32.len()];
            PointMass {
                mass: f,
                position: [f, g, 1.0],
                velocity: [g, f, -1.0],
                acceleration: [f, f, g],
            }
        })
        .collect()
}

/// Spawns one entity per extreme mass, attaches it, writes extreme values, simulates with
/// extreme time steps and collects garbage, on any store: the model and every design must end
/// bit-identical.
fn component_run<S: ComponentStore>(store: &mut S) -> Vec<S::Entity> {
    let mut entities = Vec::new();
    for m in extreme_masses() {
        let e = store.spawn().unwrap();
        store.attach(e, m).unwrap();
        entities.push(e);
    }
    store
        .write(entities[0], VectorField::Position, [f32::MAX; 3])
        .unwrap();
    store
        .write(
            entities[1],
            VectorField::Velocity,
            [f32::NAN, f32::INFINITY, f32::MIN],
        )
        .unwrap();
    for dt in [1.0, f32::MAX, f32::INFINITY, f32::NAN, f32::MIN, 0.0] {
        store.simulate(dt);
        store.destroy_step();
    }
    store.kill(entities[2]).unwrap();
    store.simulate(f32::MAX);
    store.destroy_step();
    store.collect_all_garbage();
    entities
}

#[test]
fn component_stores_take_extreme_floats_and_reject_bad_entities() {
    let mut model = impls::components::model::ModelStore::new();
    component_run(&mut model);
    let want = instance_bits(&model);

    struct V(Vec<[u32; 10]>);
    impl ComponentDesignVisitor for V {
        fn visit<D: ComponentStore + 'static>(&mut self) {
            let name = D::INFO.name;
            let specs = matches!(
                D::INFO.kind,
                impls::kind::DesignKind::Peer {
                    crate_name: "specs",
                    ..
                }
            );
            let mut store = D::new();
            let entities = component_run(&mut store);
            assert_eq!(
                instance_bits(&store),
                self.0,
                "{name}: differs from the model"
            );
            store.check_invariants().unwrap();
            // Bit-exact reads of the extreme positions.
            let p = store.position(entities[0]).unwrap().unwrap();
            let mut in_model = None;
            let mut m = impls::components::model::ModelStore::new();
            let model_entities = component_run(&mut m);
            if let Ok(Some(q)) = m.position(model_entities[0]) {
                in_model = Some(q.map(canonical_bits));
            }
            assert_eq!(Some(p.map(canonical_bits)), in_model, "{name}: position");

            let mut other = D::new();
            let foreign: Vec<D::Entity> = (0..64).map(|_| other.spawn().unwrap()).collect();
            let dead = entities[2];
            let bad = bad_ids(
                foreign[entities.len()..]
                    .iter()
                    .copied()
                    .chain(std::iter::once(dead)),
            );
            let (count, instances) = (store.entity_count(), store.instance_count());
            let bits = instance_bits(&store);
            for e in bad {
                let m = PointMass::default();
                assert!(store.kill(e).is_err(), "{name}: kill({e:?})");
                assert!(store.attach(e, m).is_err(), "{name}: attach({e:?})");
                assert!(
                    store.attach_another(e, m).is_err(),
                    "{name}: attach_another"
                );
                assert!(store.detach(e).is_err(), "{name}: detach({e:?})");
                // The specs peer's lookups answer "no instance" for an index its world never
                // handed out (specs' own liveness test; see the peer's module docs).
                let position = store.position(e);
                assert!(
                    position.is_err() || (specs && position == Ok(None)),
                    "{name}: position({e:?}) gave {position:?}"
                );
                let write = store.write(e, VectorField::Velocity, [f32::NAN; 3]);
                assert!(
                    write.is_err() || (specs && write == Ok(false)),
                    "{name}: write({e:?}) gave {write:?}"
                );
                store.check_invariants().unwrap();
            }
            assert_eq!(
                (
                    store.entity_count(),
                    store.instance_count(),
                    instance_bits(&store)
                ),
                (count, instances, bits),
                "{name}: a refused op changed the store"
            );
            let e = store.spawn().unwrap();
            store.attach(e, PointMass::default()).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::components::for_each_component_design(&mut V(want));
}

// ---------------------------------------------------------------------------------------------
// Transforms: forged and foreign node ids; matrices of extreme floats.

/// An affine transform whose every entry is `f` (`g` in the translation).
fn extreme_affine(f: f32, g: f32) -> Affine {
    let mut m = [f; 12];
    m[9..].fill(g);
    Affine { m }
}

/// A node's world matrix as [`canonical_bits`].
fn world_bits<S: TransformStore>(store: &S, id: S::Id) -> [u32; 12] {
    store.world(id).unwrap().m.map(canonical_bits)
}

/// A small hierarchy with extreme matrices, re-parented and updated; the worlds of every node,
/// as bits, in creation order.
fn transform_run<S: TransformStore>(store: &mut S) -> (Vec<S::Id>, Vec<[u32; 12]>) {
    let mut ids = Vec::new();
    let root = store
        .create(None, extreme_affine(f32::MAX, f32::MIN))
        .unwrap();
    ids.push(root);
    for (k, &f) in EXTREME_F32.iter().enumerate() {
        let parent = ids[k / 2];
        let g = EXTREME_F32[(k + 5) % EXTREME_F32.len()];
        ids.push(store.create(Some(parent), extreme_affine(f, g)).unwrap());
    }
    store.end_frame();
    store
        .set_local(ids[1], extreme_affine(f32::NAN, f32::INFINITY))
        .unwrap();
    store.set_parent(ids[3], Some(ids[2])).unwrap();
    store
        .set_local_batch(&[
            (ids[4], extreme_affine(f32::INFINITY, f32::NAN)),
            (ids[0], extreme_affine(-0.0, f32::MAX)),
        ])
        .unwrap();
    store.end_frame();
    let worlds = ids.iter().map(|&id| world_bits(&*store, id)).collect();
    (ids, worlds)
}

/// Whether `r` is the refusal of an id that names no live node.
fn no_such<T>(r: Result<T, XfError>) -> bool {
    matches!(r, Err(XfError::NoSuchNode { .. }))
}

#[test]
fn transform_stores_take_extreme_floats_and_reject_bad_ids() {
    let mut model = impls::transforms::model::ModelTransforms::new();
    let (_, want) = transform_run(&mut model);

    struct V(Vec<[u32; 12]>);
    impl TransformDesignVisitor for V {
        fn visit<D: TransformStore + 'static>(&mut self) {
            let name = D::INFO.name;
            let mut store = D::new();
            let (ids, worlds) = transform_run(&mut store);
            assert_eq!(worlds, self.0, "{name}: worlds differ from the model");
            store.check_invariants().unwrap();

            let mut other = D::new();
            let mut foreign = vec![other.create(None, Affine::IDENTITY).unwrap()];
            for _ in 0..63 {
                let id = other
                    .create(foreign.last().copied(), Affine::IDENTITY)
                    .unwrap();
                foreign.push(id);
            }
            let bad = bad_ids(foreign[ids.len()..].iter().copied());
            let (len, updates) = (store.len(), store.world_updates());
            let some = Affine::IDENTITY;
            for id in bad {
                assert!(
                    no_such(store.create(Some(id), some)),
                    "{name}: create({id:?})"
                );
                assert!(no_such(store.set_parent(id, None)), "{name}: set_parent");
                assert!(no_such(store.set_parent(ids[1], Some(id))), "{name}");
                assert!(no_such(store.set_local(id, some)), "{name}: set_local");
                assert!(
                    no_such(store.set_local_batch(&[(ids[0], some), (id, some)])),
                    "{name}: set_local_batch"
                );
                assert!(no_such(store.world(id)), "{name}: world({id:?})");
                assert!(no_such(store.local(id)), "{name}: local({id:?})");
                assert!(no_such(store.destroy(id)), "{name}: destroy({id:?})");
                store.check_invariants().unwrap();
            }
            assert_eq!(
                (store.len(), store.world_updates()),
                (len, updates),
                "{name}: a refused op changed the store"
            );
            store.end_frame();
            let after: Vec<_> = ids.iter().map(|&id| world_bits(&store, id)).collect();
            assert_eq!(after, self.0, "{name}: worlds changed by refused ops");
            let id = store.create(Some(ids[0]), Affine::IDENTITY).unwrap();
            store.destroy(id).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::transforms::for_each_transform_design(&mut V(want));
}

// ---------------------------------------------------------------------------------------------
// DataComponent: entity handles, keys, extreme floats, long values, forged snapshots.

#[test]
fn data_stores_take_extreme_values_and_reject_bad_input() {
    struct V;
    impl KvDesignVisitor for V {
        fn visit<D: DataStore + 'static>(&mut self) {
            let info = D::INFO;
            let name = info.name;
            let json = name == "serde_json";
            let mut store = D::new();
            let e = store.create_entity().unwrap();
            store.set(e, u32::MAX, ValueRef::F32(1.5)).unwrap();
            store.set(e, 0, ValueRef::Str(b"x")).unwrap();

            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, e + 1, e + 4096] {
                let no = KvError::NoSuchEntity { entity: bad };
                let v = ValueRef::Bool(true);
                assert_eq!(store.set(bad, 1, v), Err(no.clone()), "{name}: set");
                assert_eq!(store.remove(bad, 1), Err(no.clone()), "{name}: remove");
                assert_eq!(store.get(bad, 1, |_| ()), Err(no.clone()), "{name}: get");
                let mut out = vec![1, 2, 3];
                assert_eq!(store.snapshot(bad, &mut out), Err(no.clone()), "{name}");
                assert_eq!(store.destroy_entity(bad), Err(no), "{name}: destroy");
                store.check_invariants().unwrap();
            }

            // Extreme floats: stored bit for bit, or refused by the JSON peer.
            for (k, &f) in EXTREME_F32.iter().enumerate() {
                let key = u32::MAX - 1 - k as u32;
                let got = store.set(e, key, ValueRef::F32(f));
                if json && !f.is_finite() {
                    assert!(
                        matches!(got, Err(KvError::Unrepresentable { .. })),
                        "{name}: {f}: {got:?}"
                    );
                    assert_eq!(store.get(e, key, |v| v.is_none()), Ok(true), "{name}");
                    continue;
                }
                got.unwrap();
                let bits = store.get(e, key, |v| v.map(|v| v.scalar_bits())).unwrap();
                if json {
                    // JSON numbers keep the value, not NaN payloads or the sign of zero.
                    assert!(bits.is_some(), "{name}");
                } else {
                    assert_eq!(bits, Some(f.to_bits()), "{name}: {f}");
                }
            }
            let array: Vec<u8> = [f32::MAX, f32::MIN, f32::from_bits(1), 0.5]
                .iter()
                .flat_map(|f| f.to_ne_bytes())
                .collect();
            store.set(e, 7, ValueRef::F32s(&array)).unwrap();
            let back = store
                .get(e, 7, |v| v.and_then(|v| v.bytes()).map(<[u8]>::to_vec))
                .unwrap();
            assert_eq!(back.as_deref(), Some(&array[..]), "{name}: f32 array");
            store.check_invariants().unwrap();

            // A value past the design's cap (or a big one, for uncapped designs) is refused
            // without a change, or stored whole.
            let keys = store.key_count();
            let long = vec![b'a'; info.bytes_per_entity_cap.unwrap_or(1 << 16) + 1];
            match store.set(e, 9, ValueRef::Str(&long)) {
                Ok(()) => {
                    assert!(info.bytes_per_entity_cap.is_none(), "{name}: past its cap");
                    let len = store.get(e, 9, |v| v.and_then(|v| v.bytes()).map(<[u8]>::len));
                    assert_eq!(len, Ok(Some(long.len())), "{name}");
                    assert_eq!(store.remove(e, 9), Ok(true), "{name}");
                }
                Err(KvError::TooLarge { .. }) => {
                    assert_eq!(
                        store.key_count(),
                        keys,
                        "{name}: TooLarge changed the store"
                    );
                    assert_eq!(store.get(e, 9, |v| v.is_none()), Ok(true), "{name}");
                }
                Err(other) => panic!("{name}: long value: {other:?}"),
            }
            store.check_invariants().unwrap();

            // Snapshots that no design wrote are refused, never trusted for a length.
            let mut snap = Vec::new();
            store.snapshot(e, &mut snap).unwrap();
            let mut forged_snapshots = vec![
                vec![0xFF; 64],
                vec![0xFF; 3],
                vec![0x7F; 17],
                u32::MAX.to_le_bytes().repeat(8),
                snap[..snap.len() / 2].to_vec(),
            ];
            let mut tail = snap.clone();
            tail.extend_from_slice(&[0xFF; 9]);
            forged_snapshots.push(tail);
            for (k, bytes) in forged_snapshots.iter().enumerate() {
                let mut pairs = 0usize;
                let _verdict = D::visit_snapshot(bytes, |_, _| pairs += 1);
                assert!(pairs <= bytes.len(), "{name}: forged snapshot {k}");
            }
            let mut pairs = 0;
            D::visit_snapshot(&snap, |_, _| pairs += 1).unwrap();
            assert_eq!(pairs, store.key_count(), "{name}: snapshot of the store");
            let f = store.create_entity().unwrap();
            store.set(f, u32::MAX, ValueRef::Bool(false)).unwrap();
            store.destroy_entity(f).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::data_component::for_each_kv_design(&mut V);
}

// ---------------------------------------------------------------------------------------------
// Spawn: a level is the caller's; a bad parent link must be refused before `compile`, and
// extreme data words (tag counts, NaN point masses) must spawn as the model says.

#[test]
fn spawners_refuse_bad_levels_and_spawn_extreme_data() {
    let component = |kind, data| LevelComponent { kind, data };
    let nan = f32::NAN.to_bits();
    let good = Level {
        entities: vec![
            LevelEntity {
                parent: None,
                components: vec![
                    component(ComponentKind::Transform, [u32::MAX; 4]),
                    component(
                        ComponentKind::PointMass,
                        [nan, f32::MAX.to_bits(), u32::MAX, 0],
                    ),
                    component(ComponentKind::Tags, [u32::MAX, 1, 2, 3]),
                    component(ComponentKind::Mesh, [u32::MAX; 4]),
                    component(ComponentKind::UnknownB, [u32::MAX; 4]),
                ],
            },
            LevelEntity {
                parent: Some(0),
                components: vec![component(ComponentKind::Tags, [u32::MAX - 1, 9, 9, 9])],
            },
        ],
    };
    good.check().unwrap();
    let bad_levels = [
        vec![(None, 0), (Some(u32::MAX), 0)],
        vec![(Some(0), 0)],
        vec![(None, 0), (Some(1), 0)],
        vec![(None, 0), (None, 0), (Some(0), 0)],
    ];

    struct V {
        good: Level,
        bad: Vec<Level>,
    }
    impl SpawnDesignVisitor for V {
        fn visit<S: Spawner + 'static>(&mut self) {
            let name = S::INFO.name;
            for level in &self.bad {
                let got = impls::spawn::compile_checked::<S>(level).map(|_| ());
                assert!(
                    matches!(got, Err(impls::spawn::SpawnError::BadLevel { .. })),
                    "{name}: {level:?} gave {got:?}"
                );
            }
            let blob = impls::spawn::compile_checked::<S>(&self.good).unwrap();
            let mut world = S::World::default();
            let spawned = S::spawn(&blob, &mut world);
            assert_eq!(spawned.len(), 2, "{name}");
            world.check_invariants().unwrap();
            let mut tags = Vec::new();
            world.visit(|_, c| {
                if let impls::spawn::ComponentRef::Tags(t) = c {
                    tags.push(t.len());
                }
            });
            tags.sort_unstable();
            assert_eq!(tags, [3, 3], "{name}: tag counts are clamped to MAX_TAGS");
        }
    }
    let bad = bad_levels
        .iter()
        .map(|entities| Level {
            entities: entities
                .iter()
                .map(|&(parent, _)| LevelEntity {
                    parent,
                    components: Vec::new(),
                })
                .collect(),
        })
        .collect();
    impls::spawn::for_each_spawn_design(&mut V { good, bad });
}
