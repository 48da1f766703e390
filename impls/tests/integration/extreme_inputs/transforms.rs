//! Transforms: forged and foreign node ids; matrices of extreme floats.

use super::*;

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
            let name = D::INFO.meta.name;
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
