//! Components: forged and foreign entities; point masses of extreme floats.

use super::*;

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
            let name = D::INFO.meta.name;
            let specs = matches!(
                D::INFO.meta.kind,
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
