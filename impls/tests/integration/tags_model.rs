//! The tag-store family contract, checked once for every registered design.
//!
//! One generic model-based property test (random op sequences against the reference model
//! [`ModelStore`], compared as multisets per entity) and a deterministic heavy-churn test, both run through
//! [`for_each_tag_design`], so a new design is tested by adding its registry line.

use crate::support;

use impls::tags::model::ModelStore;
use impls::tags::{Entity, Tag, TagDesignVisitor, TagError, TagStore, for_each_tag_design};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[derive(Debug, Clone, Copy)]
enum TestOp {
    Create,
    /// `pick` chooses a handle: see [`Model::pick`].
    Add(usize, Tag),
    Remove(usize, Tag),
    Has(usize, Tag),
    VisitEntity(usize),
    VisitAll,
    Clear(usize),
    Destroy(usize),
}

/// Handles: mostly the most recent entity (so lists grow past the caps), else any handle ever
/// handed out (live or destroyed), or one never handed out.
fn pick_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => Just(usize::MAX),
        4 => any::<usize>(),
        1 => Just(usize::MAX - 1),
    ]
}

/// Few distinct tags so duplicates and removals of present tags are common.
fn tag_strategy() -> impl Strategy<Value = Tag> {
    prop_oneof![
        8 => 0..6u32,
        1 => any::<u32>(),
    ]
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    prop_oneof![
        2 => Just(TestOp::Create),
        10 => (pick_strategy(), tag_strategy()).prop_map(|(p, t)| TestOp::Add(p, t)),
        4 => (pick_strategy(), tag_strategy()).prop_map(|(p, t)| TestOp::Remove(p, t)),
        2 => (pick_strategy(), tag_strategy()).prop_map(|(p, t)| TestOp::Has(p, t)),
        2 => pick_strategy().prop_map(TestOp::VisitEntity),
        1 => Just(TestOp::VisitAll),
        1 => pick_strategy().prop_map(TestOp::Clear),
        1 => pick_strategy().prop_map(TestOp::Destroy),
    ]
}

/// The reference model and the test's handle choice.
#[derive(Default)]
struct Model {
    store: ModelStore,
    last_created: Option<Entity>,
}

impl Model {
    fn pick(&self, pick: usize) -> Entity {
        let slots = self.store.slots();
        match pick {
            usize::MAX => self.last_created.unwrap_or(0),
            p if p == usize::MAX - 1 => slots as Entity + 3,
            p if slots == 0 => p as Entity % 4,
            p => (p % slots) as Entity,
        }
    }
}

fn sorted_entity<D: TagStore>(store: &mut D, e: Entity) -> Result<Vec<Tag>, TagError> {
    let mut tags = Vec::new();
    store.visit_entity(e, |t| tags.push(t))?;
    tags.sort_unstable();
    Ok(tags)
}

fn sorted_pairs<D: TagStore>(store: &mut D) -> Vec<(Entity, Tag)> {
    let mut pairs = Vec::new();
    store.visit_all(|e, t| pairs.push((e, t)));
    pairs.sort_unstable();
    pairs
}

/// Replays `ops` on a fresh `D` and on the model, failing at the first disagreement.
fn run_against_model<D: TagStore>(ops: &[TestOp]) -> Result<(), TestCaseError> {
    let info = D::INFO;
    let mut store = D::new();
    let mut model = Model::default();
    for (step, &op) in ops.iter().enumerate() {
        let ctx = |what: &str| format!("{}: step {step} {op:?}: {what}", info.meta.name);
        let m = &mut model.store;
        match op {
            TestOp::Create => {
                // Every design hands out handles by the family's rule (released ones first,
                // most recent first), as the model does.
                let want = m.create_entity();
                prop_assert_eq!(store.create_entity(), want.clone(), "{}", ctx("create"));
                model.last_created = want.ok();
            }
            TestOp::Add(p, tag) => {
                let e = model.pick(p);
                let m = &mut model.store;
                let full = info
                    .tags_per_entity_cap
                    .filter(|&cap| m.tags(e).is_some_and(|l| l.len() == cap));
                let want = match full {
                    Some(cap) => Err(TagError::CapacityExceeded { entity: e, cap }),
                    None => m.add_tag(e, tag),
                };
                prop_assert_eq!(store.add_tag(e, tag), want, "{}", ctx("add_tag"));
            }
            TestOp::Remove(p, tag) => {
                let e = model.pick(p);
                let want = model.store.remove_tag(e, tag);
                prop_assert_eq!(store.remove_tag(e, tag), want, "{}", ctx("remove_tag"));
            }
            TestOp::Has(p, tag) => {
                let e = model.pick(p);
                let want = model.store.has_tag(e, tag);
                prop_assert_eq!(store.has_tag(e, tag), want, "{}", ctx("has_tag"));
            }
            TestOp::VisitEntity(p) => {
                let e = model.pick(p);
                let want = sorted_entity(&mut model.store, e);
                prop_assert_eq!(sorted_entity(&mut store, e), want, "{}", ctx("visit"));
            }
            TestOp::VisitAll => {
                let want = sorted_pairs(m);
                prop_assert_eq!(sorted_pairs(&mut store), want, "{}", ctx("all"));
            }
            TestOp::Clear(p) => {
                let e = model.pick(p);
                let want = model.store.clear_entity(e);
                prop_assert_eq!(store.clear_entity(e), want, "{}", ctx("clear_entity"));
            }
            TestOp::Destroy(p) => {
                let e = model.pick(p);
                let want = model.store.destroy_entity(e);
                prop_assert_eq!(store.destroy_entity(e), want, "{}", ctx("destroy_entity"));
            }
        }
        let m = &model.store;
        prop_assert_eq!(
            store.entity_count(),
            m.entity_count(),
            "{}",
            ctx("entity_count")
        );
        prop_assert_eq!(store.tag_count(), m.tag_count(), "{}", ctx("tag_count"));
        support::invariants_hold(store.check_invariants(), m.check_invariants(), ctx)?;
    }
    let want = sorted_pairs(&mut model.store);
    prop_assert_eq!(sorted_pairs(&mut store), want, "{}: final", info.meta.name);
    Ok(())
}

support::every_design_agrees_with_the_model! {
    TagDesignVisitor::visit<D: TagStore>,
    for_each_tag_design,
    ops: 0..400,
    cases: 256,
}

struct ChurnTest;

impl TagDesignVisitor for ChurnTest {
    fn visit<D: TagStore + 'static>(&mut self) {
        let name = D::INFO.meta.name;
        let cap = D::INFO.tags_per_entity_cap.unwrap_or(usize::MAX);
        let mut store = D::new();
        let mut rng = impls::xorshift::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut model = ModelStore::new();
        // `live[i]`: the handle of the i-th live entity, the same in the store and the model.
        let mut live: Vec<Entity> = (0..400)
            .map(|_| {
                let e = store.create_entity().unwrap();
                assert_eq!(model.create_entity(), Ok(e), "{name}: create");
                e
            })
            .collect();
        let mut refused = 0;
        for round in 0..40_000 {
            let i = rng.below(live.len());
            let e = live[i];
            match rng.below(100) {
                // Refill: a few entities grow long (20..60 tags), past any cap.
                0..=64 => {
                    let target = if i % 17 == 0 { 60 } else { 6 };
                    let tag = rng.below(target) as Tag;
                    let got = store.add_tag(e, tag);
                    if model.tags(e).unwrap().len() < cap {
                        assert_eq!(got, Ok(()), "{name}: round {round} add");
                        model.add_tag(e, tag).unwrap();
                    } else {
                        refused += 1;
                        assert_eq!(
                            got,
                            Err(TagError::CapacityExceeded { entity: e, cap }),
                            "{name}: round {round} add past cap"
                        );
                    }
                }
                65..=89 => {
                    let tag = rng.below(8) as Tag;
                    assert_eq!(
                        store.remove_tag(e, tag),
                        model.remove_tag(e, tag),
                        "{name}: round {round} remove"
                    );
                }
                90..=95 => {
                    store.clear_entity(e).unwrap();
                    model.clear_entity(e).unwrap();
                }
                _ => {
                    store.destroy_entity(e).unwrap();
                    model.destroy_entity(e).unwrap();
                    assert_eq!(
                        store.has_tag(e, 0),
                        Err(TagError::NoSuchEntity { entity: e })
                    );
                    live[i] = store.create_entity().unwrap();
                    assert_eq!(model.create_entity(), Ok(live[i]), "{name}: re-create");
                }
            }
            if round % 5000 == 0 {
                store
                    .check_invariants()
                    .unwrap_or_else(|err| panic!("{name}: round {round}: {err}"));
            }
        }
        store
            .check_invariants()
            .unwrap_or_else(|err| panic!("{name}: after churn: {err}"));
        assert_eq!(
            refused > 0,
            cap < usize::MAX,
            "{name}: the churn must (only) hit a fixed cap"
        );
        assert_eq!(store.tag_count(), model.tag_count(), "{name}: tag_count");
        assert_eq!(store.entity_count(), live.len(), "{name}: entity_count");
        assert_eq!(
            sorted_pairs(&mut store),
            sorted_pairs(&mut model),
            "{name}: visit_all after churn"
        );
        for &e in &live {
            assert_eq!(
                sorted_entity(&mut store, e),
                sorted_entity(&mut model, e),
                "{name}: entity {e}"
            );
        }
    }
}

#[test]
fn visit_all_yields_exactly_the_model_pairs_after_heavy_churn() {
    for_each_tag_design(&mut ChurnTest);
}

/// `sorted_chunks`: after churn has fragmented the chains, accesses alone (one sort step each)
/// make every entity's chain contiguous within two sweeps of the buffer.
fn chains_become_contiguous_after_accesses<const K: usize>() {
    use impls::tags::sorted_chunks::SortedChunks;
    let mut store = SortedChunks::<K>::new();
    let mut rng = impls::xorshift::XorShift(0x2545_F491_4F6C_DD1D);
    let entities: Vec<Entity> = (0..300).map(|_| store.create_entity().unwrap()).collect();
    // Interleaved growth and shrinking: chains of 1..10 chunks spread over the buffer.
    for _ in 0..30_000 {
        let e = entities[rng.below(entities.len())];
        match rng.below(10) {
            0..=6 => store.add_tag(e, rng.below(50) as Tag).unwrap(),
            7..=8 => {
                store.remove_tag(e, rng.below(50) as Tag).unwrap();
            }
            _ => store.clear_entity(e).unwrap(),
        }
    }
    store.check_invariants().unwrap();
    let fragmented = store.out_of_place_links();
    assert!(
        fragmented > 0,
        "K = {K}: churn left the chains sorted; the test shows nothing"
    );
    let mut want: Vec<Vec<Tag>> = Vec::new();
    for &e in &entities {
        want.push(sorted_entity(&mut store, e).unwrap());
    }
    // Two sweeps: the rest of the current one, then a full one.
    for _ in 0..2 * store.chunk_slots() {
        let e = entities[rng.below(entities.len())];
        store.has_tag(e, 7).unwrap();
        if store.out_of_place_links() == 0 {
            break;
        }
    }
    assert_eq!(
        store.out_of_place_links(),
        0,
        "K = {K}: chains still fragmented"
    );
    store.check_invariants().unwrap();
    for (&e, tags) in entities.iter().zip(&want) {
        assert_eq!(
            &sorted_entity(&mut store, e).unwrap(),
            tags,
            "K = {K}: entity {e}"
        );
    }
}

#[test]
fn sorted_chunks_chains_become_contiguous_after_enough_accesses() {
    chains_become_contiguous_after_accesses::<8>();
    chains_become_contiguous_after_accesses::<13>();
}
