//! The relation-index family contract, checked once for every registered design.
//!
//! One generic model-based property test (random op sequences against [`ModelIndex`], visits
//! compared as sets, `check_invariants` after every op) and a deterministic star test (one key
//! holding every record, removed in random order), both run through
//! [`for_each_relation_design`], so a new design is tested by adding its registry line.

use crate::support;

use impls::relations::model::ModelIndex;
use impls::relations::{
    Key, Record, RecordId, RelationDesignVisitor, RelationError, RelationIndex,
    for_each_relation_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[derive(Debug, Clone, Copy)]
enum TestOp {
    Add(Key, Key, u32),
    /// Removes the ID `pick % (id_bound + 2)`: live, freed or never handed out.
    Remove(usize),
    VisitA(Key),
    VisitB(Key),
    First(Key),
    Count(Key),
    RemoveEntity(Key),
}

/// Few keys, so sets grow, entities appear on both sides and a record can have `a == b`.
fn key() -> impl Strategy<Value = Key> {
    prop_oneof![8 => 0..6u32, 1 => any::<u32>()]
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    prop_oneof![
        10 => (key(), key(), any::<u32>()).prop_map(|(a, b, p)| TestOp::Add(a, b, p)),
        5 => any::<usize>().prop_map(TestOp::Remove),
        3 => key().prop_map(TestOp::VisitA),
        2 => key().prop_map(TestOp::VisitB),
        2 => key().prop_map(TestOp::First),
        1 => key().prop_map(TestOp::Count),
        1 => key().prop_map(TestOp::RemoveEntity),
    ]
}

fn sorted(mut v: Vec<(RecordId, Record)>) -> Vec<(RecordId, Record)> {
    v.sort_unstable();
    v
}

fn by_a<D: RelationIndex>(d: &mut D, key: Key) -> Vec<(RecordId, Record)> {
    let mut v = Vec::new();
    d.visit_by_a(key, |id, r| v.push((id, r)));
    sorted(v)
}

fn by_b<D: RelationIndex>(d: &mut D, key: Key) -> Vec<(RecordId, Record)> {
    let mut v = Vec::new();
    d.visit_by_b(key, |id, r| v.push((id, r)));
    sorted(v)
}

/// Replays `ops` on a fresh `D` and on the model, failing at the first disagreement.
fn run_against_model<D: RelationIndex>(ops: &[TestOp]) -> Result<(), TestCaseError> {
    let name = D::INFO.meta.name;
    let mut d = D::new();
    let mut m = ModelIndex::new();
    for (step, &op) in ops.iter().enumerate() {
        let ctx = |what: &str| format!("{name}: step {step} {op:?}: {what}");
        match op {
            TestOp::Add(a, b, payload) => {
                let r = Record { a, b, payload };
                prop_assert_eq!(d.add(r), m.add(r), "{}", ctx("add"));
            }
            TestOp::Remove(pick) => {
                let id = (pick % (m.id_bound() + 2)) as RecordId;
                prop_assert_eq!(d.remove(id), m.remove(id), "{}", ctx("remove"));
                prop_assert_eq!(
                    d.remove(id),
                    Err(RelationError::NoSuchRecord { id }),
                    "{}",
                    ctx("remove twice")
                );
            }
            TestOp::VisitA(k) => {
                let want = m.scan_by_a(k);
                prop_assert_eq!(&by_a(&mut m, k), &want, "{}", ctx("model by a"));
                prop_assert_eq!(by_a(&mut d, k), want, "{}", ctx("visit_by_a"));
            }
            TestOp::VisitB(k) => {
                let want = m.scan_by_b(k);
                prop_assert_eq!(&by_b(&mut m, k), &want, "{}", ctx("model by b"));
                prop_assert_eq!(by_b(&mut d, k), want, "{}", ctx("visit_by_b"));
            }
            TestOp::First(k) => {
                let members = m.scan_by_a(k);
                match d.first_by_a(k) {
                    None => prop_assert!(members.is_empty(), "{}", ctx("first: none")),
                    Some(found) => {
                        prop_assert!(members.contains(&found), "{}", ctx("first: a member"))
                    }
                }
            }
            TestOp::Count(k) => {
                prop_assert_eq!(d.count_by_a(k), m.scan_by_a(k).len(), "{}", ctx("count"));
            }
            TestOp::RemoveEntity(k) => {
                let mut got = Vec::new();
                d.remove_entity(k, |id, r| got.push((id, r)));
                let mut want = Vec::new();
                m.remove_entity(k, |id, r| want.push((id, r)));
                prop_assert_eq!(sorted(got), sorted(want), "{}", ctx("remove_entity"));
            }
        }
        prop_assert_eq!(d.len(), m.len(), "{}", ctx("len"));
        support::invariants_hold(d.check_invariants(), m.check_invariants(), ctx)?;
    }
    // Every live record is found through its own keys.
    for (id, r) in m.all() {
        prop_assert!(by_a(&mut d, r.a).contains(&(id, r)), "{name}: final by a");
        prop_assert!(by_b(&mut d, r.b).contains(&(id, r)), "{name}: final by b");
    }
    Ok(())
}

support::every_design_agrees_with_the_model! {
    RelationDesignVisitor::visit<D: RelationIndex>,
    for_each_relation_design,
    ops: 0..300,
    cases: 256,
}

struct StarTest;

impl RelationDesignVisitor for StarTest {
    fn visit<D: RelationIndex + 'static>(&mut self) {
        let name = D::INFO.meta.name;
        let mut d = D::new();
        let n = 2000u32;
        let ids: Vec<RecordId> = (0..n)
            .map(|i| {
                d.add(Record {
                    a: 7,
                    b: i,
                    payload: i,
                })
                .unwrap()
            })
            .collect();
        assert_eq!(d.count_by_a(7), n as usize, "{name}");
        // Remove in a scrambled order (a bijection on 0..n since 7919 is coprime with 2000).
        for k in 0..n {
            let id = ids[(k as usize * 7919) % n as usize];
            let r = d.remove(id).unwrap();
            assert_eq!(r.a, 7, "{name}");
            if k % 500 == 0 {
                d.check_invariants()
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(d.count_by_a(7), (n - k - 1) as usize, "{name}");
            }
        }
        assert!(d.is_empty() && d.first_by_a(7).is_none(), "{name}");
        d.check_invariants().unwrap();
    }
}

#[test]
fn the_star_empties_cleanly_on_every_design() {
    for_each_relation_design(&mut StarTest);
}
