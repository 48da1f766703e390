//! The tag-store family contract, checked once for every registered design.
//!
//! One generic model-based property test (random op sequences against `Vec<Option<Vec<u32>>>`,
//! compared as multisets per entity) and a deterministic heavy-churn test, both run through
//! [`for_each_tag_design`], so a new design is tested by adding its registry line.

use impls::tags::{Entity, Tag, TagDesignVisitor, TagError, TagStore, for_each_tag_design};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

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

/// The model: `lists[e]` is `Some(tags)` while entity `e` is live.
#[derive(Default)]
struct Model {
    lists: Vec<Option<Vec<Tag>>>,
    last_created: Option<Entity>,
}

impl Model {
    fn pick(&self, pick: usize) -> Entity {
        match pick {
            usize::MAX => self.last_created.unwrap_or(0),
            p if p == usize::MAX - 1 => self.lists.len() as Entity + 3,
            p if self.lists.is_empty() => p as Entity % 4,
            p => (p % self.lists.len()) as Entity,
        }
    }

    fn list(&mut self, e: Entity) -> Result<&mut Vec<Tag>, TagError> {
        self.lists
            .get_mut(e as usize)
            .and_then(Option::as_mut)
            .ok_or(TagError::NoSuchEntity { entity: e })
    }

    fn live(&self) -> usize {
        self.lists.iter().flatten().count()
    }

    fn tags(&self) -> usize {
        self.lists.iter().flatten().map(Vec::len).sum()
    }

    fn pairs(&self) -> Vec<(Entity, Tag)> {
        let mut pairs: Vec<(Entity, Tag)> = self
            .lists
            .iter()
            .enumerate()
            .filter_map(|(e, l)| Some((e, l.as_ref()?)))
            .flat_map(|(e, l)| l.iter().map(move |&t| (e as Entity, t)))
            .collect();
        pairs.sort_unstable();
        pairs
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
        let ctx = |what: &str| format!("{}: step {step} {op:?}: {what}", info.name);
        match op {
            TestOp::Create => {
                let e = store.create_entity();
                let e = e.map_err(|err| TestCaseError::fail(ctx(&format!("create: {err}"))))?;
                let i = e as usize;
                let fresh = i == model.lists.len();
                let reused = model.lists.get(i).is_some_and(Option::is_none);
                prop_assert!(
                    fresh || reused,
                    "{}",
                    ctx("handle is neither new nor released")
                );
                if fresh {
                    model.lists.push(None);
                }
                model.lists[i] = Some(Vec::new());
                model.last_created = Some(e);
            }
            TestOp::Add(p, tag) => {
                let e = model.pick(p);
                let want = model.list(e).and_then(|l| match info.tags_per_entity_cap {
                    Some(cap) if l.len() == cap => {
                        Err(TagError::CapacityExceeded { entity: e, cap })
                    }
                    _ => {
                        l.push(tag);
                        Ok(())
                    }
                });
                prop_assert_eq!(store.add_tag(e, tag), want, "{}", ctx("add_tag"));
            }
            TestOp::Remove(p, tag) => {
                let e = model.pick(p);
                let want = model
                    .list(e)
                    .map(|l| match l.iter().position(|&t| t == tag) {
                        Some(i) => {
                            l.swap_remove(i);
                            true
                        }
                        None => false,
                    });
                prop_assert_eq!(store.remove_tag(e, tag), want, "{}", ctx("remove_tag"));
            }
            TestOp::Has(p, tag) => {
                let e = model.pick(p);
                let want = model.list(e).map(|l| l.contains(&tag));
                prop_assert_eq!(store.has_tag(e, tag), want, "{}", ctx("has_tag"));
            }
            TestOp::VisitEntity(p) => {
                let e = model.pick(p);
                let want = model.list(e).map(|l| {
                    let mut l = l.clone();
                    l.sort_unstable();
                    l
                });
                prop_assert_eq!(sorted_entity(&mut store, e), want, "{}", ctx("visit"));
            }
            TestOp::VisitAll => {
                prop_assert_eq!(sorted_pairs(&mut store), model.pairs(), "{}", ctx("all"));
            }
            TestOp::Clear(p) => {
                let e = model.pick(p);
                let want = model.list(e).map(Vec::clear);
                prop_assert_eq!(store.clear_entity(e), want, "{}", ctx("clear_entity"));
            }
            TestOp::Destroy(p) => {
                let e = model.pick(p);
                let want = model.list(e).map(|_| ());
                if want.is_ok() {
                    model.lists[e as usize] = None;
                }
                prop_assert_eq!(store.destroy_entity(e), want, "{}", ctx("destroy_entity"));
            }
        }
        prop_assert_eq!(
            store.entity_count(),
            model.live(),
            "{}",
            ctx("entity_count")
        );
        prop_assert_eq!(store.tag_count(), model.tags(), "{}", ctx("tag_count"));
        if let Err(broken) = store.check_invariants() {
            prop_assert!(false, "{}", ctx(&format!("invariant broken: {broken}")));
        }
    }
    prop_assert_eq!(
        sorted_pairs(&mut store),
        model.pairs(),
        "{}: final",
        info.name
    );
    Ok(())
}

struct ModelTest;

impl TagDesignVisitor for ModelTest {
    fn visit<D: TagStore + 'static>(&mut self) {
        let mut runner = TestRunner::new(Config {
            cases: 256,
            failure_persistence: None,
            ..Config::default()
        });
        let ops = proptest::collection::vec(op_strategy(), 0..400);
        if let Err(e) = runner.run(&ops, |ops| run_against_model::<D>(&ops)) {
            panic!("design {} disagrees with the model: {e}", D::INFO.name);
        }
    }
}

#[test]
fn every_design_agrees_with_the_model() {
    for_each_tag_design(&mut ModelTest);
}

/// A small deterministic PRNG so the churn test needs no extra dependency.
struct XorShift(u64);
impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

struct ChurnTest;

impl TagDesignVisitor for ChurnTest {
    fn visit<D: TagStore + 'static>(&mut self) {
        let name = D::INFO.name;
        let cap = D::INFO.tags_per_entity_cap.unwrap_or(usize::MAX);
        let mut store = D::new();
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        // `model[i]`: the handle and tags of the i-th live entity.
        let mut model: Vec<(Entity, Vec<Tag>)> = (0..400)
            .map(|_| (store.create_entity().unwrap(), Vec::new()))
            .collect();
        let mut refused = 0;
        for round in 0..40_000 {
            let i = rng.below(model.len());
            let (e, tags) = &mut model[i];
            let e = *e;
            match rng.below(100) {
                // Refill: a few entities grow long (20..60 tags), past any cap.
                0..=64 => {
                    let target = if i % 17 == 0 { 60 } else { 6 };
                    let tag = rng.below(target) as Tag;
                    let got = store.add_tag(e, tag);
                    if tags.len() < cap {
                        assert_eq!(got, Ok(()), "{name}: round {round} add");
                        tags.push(tag);
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
                    let present = tags.iter().position(|&t| t == tag);
                    if let Some(p) = present {
                        tags.swap_remove(p);
                    }
                    assert_eq!(
                        store.remove_tag(e, tag),
                        Ok(present.is_some()),
                        "{name}: round {round} remove"
                    );
                }
                90..=95 => {
                    store.clear_entity(e).unwrap();
                    tags.clear();
                }
                _ => {
                    store.destroy_entity(e).unwrap();
                    assert_eq!(
                        store.has_tag(e, 0),
                        Err(TagError::NoSuchEntity { entity: e })
                    );
                    model[i] = (store.create_entity().unwrap(), Vec::new());
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
        let mut want: Vec<(Entity, Tag)> = model
            .iter()
            .flat_map(|(e, tags)| tags.iter().map(move |&t| (*e, t)))
            .collect();
        want.sort_unstable();
        assert_eq!(store.tag_count(), want.len(), "{name}: tag_count");
        assert_eq!(store.entity_count(), model.len(), "{name}: entity_count");
        assert_eq!(
            sorted_pairs(&mut store),
            want,
            "{name}: visit_all after churn"
        );
        for (e, tags) in &model {
            let mut tags = tags.clone();
            tags.sort_unstable();
            assert_eq!(
                sorted_entity(&mut store, *e),
                Ok(tags),
                "{name}: entity {e}"
            );
        }
    }
}

#[test]
fn visit_all_yields_exactly_the_model_pairs_after_heavy_churn() {
    for_each_tag_design(&mut ChurnTest);
}

/// Peers name the crate version `Cargo.lock` resolves, so results never claim a version that
/// was not measured.
#[test]
fn every_peer_names_its_locked_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    let lock = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let mut peers = 0;
    for design in impls::tags::tag_designs() {
        if let impls::tags::TagDesignKind::Peer {
            crate_name,
            version,
        } = design.kind
        {
            peers += 1;
            let entry = format!("name = \"{crate_name}\"\nversion = \"{version}\"\n");
            assert!(
                lock.contains(&entry),
                "{}: Cargo.lock does not resolve {crate_name} {version}",
                design.name
            );
        }
    }
    assert!(peers > 0, "no peer designs registered");
}

/// `sorted_chunks`: after churn has fragmented the chains, accesses alone (one sort step each)
/// make every entity's chain contiguous within two sweeps of the buffer.
fn chains_become_contiguous_after_accesses<const K: usize>() {
    use impls::tags::sorted_chunks::SortedChunks;
    let mut store = SortedChunks::<K>::new();
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
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
