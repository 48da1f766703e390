//! The transform-hierarchy family contract, checked once for every registered design.
//!
//! One generic model-based property test (random op sequences, including reparenting, cycles
//! refused, destroying nodes with children, batches and frames, against [`ModelTransforms`],
//! with `check_invariants()` after every op) and deterministic tests of long chains and of the
//! dirty list's eviction, all through [`for_each_transform_design`], so a new design is tested
//! by adding its registry line.

use crate::support;

use impls::transforms::deferred_dirty_list::DeferredDirtyList;
use impls::transforms::model::ModelTransforms;
use impls::transforms::{
    Affine, TransformDesignVisitor, TransformStore, UpdateStrategy, XfError,
    for_each_transform_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[derive(Debug, Clone)]
enum TestOp {
    /// Parent: `None`, or a pick among live handles.
    Create(Option<usize>, u32),
    Destroy(usize),
    SetParent(usize, Option<usize>),
    SetLocal(usize, u32),
    Batch(Vec<(usize, u32)>),
    EndFrame,
    /// Destroys a node and uses its id at once (before any create could reuse it).
    UseDestroyed(usize),
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    let pick = any::<usize>();
    prop_oneof![
        8 => (proptest::option::weighted(0.8, pick), any::<u32>())
            .prop_map(|(p, pose)| TestOp::Create(p, pose)),
        2 => pick.prop_map(TestOp::Destroy),
        4 => (pick, proptest::option::weighted(0.8, pick))
            .prop_map(|(n, p)| TestOp::SetParent(n, p)),
        8 => (pick, any::<u32>()).prop_map(|(n, pose)| TestOp::SetLocal(n, pose)),
        2 => proptest::collection::vec((pick, any::<u32>()), 0..12).prop_map(TestOp::Batch),
        3 => Just(TestOp::EndFrame),
        1 => pick.prop_map(TestOp::UseDestroyed),
    ]
}

/// The design under test and the model side by side, with the handles each gave.
struct Pair<D: TransformStore> {
    store: D,
    model: ModelTransforms,
    /// `(design id, model id)` of each live node, in a stable order.
    live: Vec<(D::Id, u32)>,
}

impl<D: TransformStore> Pair<D> {
    fn pick(&self, k: usize) -> Option<(D::Id, u32)> {
        (!self.live.is_empty()).then(|| self.live[k % self.live.len()])
    }

    /// Every live node's world (after `end_frame`) and local agree bit for bit.
    fn compare_all(&self, what: &str) -> Result<(), TestCaseError> {
        for &(d, m) in &self.live {
            let want = self.model.world(m).unwrap();
            let got = self.store.world(d).unwrap();
            prop_assert!(
                got.same_bits(&want),
                "{}: {what}: world of {d:?} is {got:?}, want {want:?}",
                D::INFO.meta.name
            );
        }
        Ok(())
    }
}

fn same_kind(a: &Result<(), XfError>, b: &Result<(), XfError>) -> bool {
    std::mem::discriminant(&a.as_ref().err()) == std::mem::discriminant(&b.as_ref().err())
        && match (a, b) {
            (Err(x), Err(y)) => std::mem::discriminant(x) == std::mem::discriminant(y),
            _ => true,
        }
}

#[expect(
    clippy::too_many_lines,
    reason = "the model interpreter: one arm per op of the test vocabulary, each checked against the model"
)]
fn run_against_model<D: TransformStore>(ops: &[TestOp]) -> Result<(), TestCaseError> {
    let name = D::INFO.meta.name;
    let mut p = Pair::<D> {
        store: D::new(),
        model: ModelTransforms::new(),
        live: Vec::new(),
    };
    for (step, op) in ops.iter().enumerate() {
        let ctx = format!("{name}: step {step} {op:?}");
        match op {
            TestOp::Create(parent, pose) => {
                let parent = parent.and_then(|k| p.pick(k));
                let local = Affine::from_pose(*pose);
                let d = p.store.create(parent.map(|x| x.0), local);
                let m = p.model.create(parent.map(|x| x.1), local);
                prop_assert!(d.is_ok() && m.is_ok(), "{ctx}: create {d:?} {m:?}");
                p.live.push((d.unwrap(), m.unwrap()));
            }
            TestOp::Destroy(k) | TestOp::UseDestroyed(k) => {
                let Some((d, m)) = p.pick(*k) else { continue };
                prop_assert_eq!(p.store.destroy(d), Ok(()), "{}", ctx);
                p.model.destroy(m).unwrap();
                p.live.retain(|x| x.1 != m);
                if matches!(op, TestOp::UseDestroyed(_)) {
                    let refused =
                        |r: Result<(), XfError>| matches!(r, Err(XfError::NoSuchNode { .. }));
                    prop_assert!(
                        refused(p.store.set_local(d, Affine::IDENTITY)),
                        "{ctx}: set_local"
                    );
                    prop_assert!(refused(p.store.destroy(d)), "{ctx}: destroy twice");
                    prop_assert!(refused(p.store.set_parent(d, None)), "{ctx}: set_parent");
                    prop_assert!(p.store.world(d).is_err(), "{ctx}: world");
                    prop_assert!(
                        p.store.create(Some(d), Affine::IDENTITY).is_err(),
                        "{ctx}: create under"
                    );
                    if let Some((live, _)) = p.pick(0) {
                        prop_assert!(refused(p.store.set_parent(live, Some(d))), "{ctx}: parent");
                        prop_assert!(
                            refused(p.store.set_local_batch(&[
                                (live, Affine::IDENTITY),
                                (d, Affine::IDENTITY)
                            ])),
                            "{ctx}: batch"
                        );
                    }
                }
            }
            TestOp::SetParent(k, parent) => {
                let Some((d, m)) = p.pick(*k) else { continue };
                let parent = parent.and_then(|j| p.pick(j));
                let want = p.model.set_parent(m, parent.map(|x| x.1));
                let got = p.store.set_parent(d, parent.map(|x| x.0));
                prop_assert!(same_kind(&got, &want), "{ctx}: got {got:?}, want {want:?}");
            }
            TestOp::SetLocal(k, pose) => {
                let Some((d, m)) = p.pick(*k) else { continue };
                let local = Affine::from_pose(*pose);
                prop_assert_eq!(p.store.set_local(d, local), Ok(()), "{}", ctx);
                p.model.set_local(m, local).unwrap();
            }
            TestOp::Batch(entries) => {
                let mut db = Vec::new();
                for &(k, pose) in entries {
                    let Some((d, m)) = p.pick(k) else { continue };
                    let local = Affine::from_pose(pose);
                    db.push((d, local));
                    p.model.set_local(m, local).unwrap();
                }
                prop_assert_eq!(p.store.set_local_batch(&db), Ok(()), "{}", ctx);
            }
            TestOp::EndFrame => {
                p.store.end_frame();
                p.compare_all(&ctx)?;
            }
        }
        if D::INFO.strategy == UpdateStrategy::Immediate {
            p.compare_all(&ctx)?;
        }
        for &(d, m) in &p.live {
            prop_assert!(
                p.store
                    .local(d)
                    .unwrap()
                    .same_bits(&p.model.local(m).unwrap()),
                "{ctx}: local of {d:?}"
            );
        }
        prop_assert_eq!(p.store.len(), p.live.len(), "{}: len", ctx);
        if let Err(broken) = p.store.check_invariants() {
            prop_assert!(false, "{ctx}: invariant broken: {broken}");
        }
        if let Err(broken) = p.model.check_invariants() {
            prop_assert!(false, "{ctx}: model invariant broken: {broken}");
        }
    }
    p.store.end_frame();
    p.compare_all("final")?;
    prop_assert!(
        p.store.check_invariants().is_ok(),
        "{name}: final invariants"
    );
    Ok(())
}

support::every_design_agrees_with_the_model! {
    TransformDesignVisitor::visit<D: TransformStore>,
    for_each_transform_design,
    ops: 0..200,
    cases: 256,
}

/// Chains of 1500 (deeper than any benchmark): every node moved one by one, then by a batch,
/// then the chain is cut and re-rooted; worlds bit-identical to the model's.
struct LongChains;

impl TransformDesignVisitor for LongChains {
    fn visit<D: TransformStore + 'static>(&mut self) {
        let name = D::INFO.meta.name;
        let mut store = D::new();
        let mut model = ModelTransforms::new();
        let mut ids = Vec::new();
        for k in 0..1500u32 {
            let local = Affine::from_pose(k.wrapping_mul(0x9E37_79B9));
            let parent = ids.last().copied();
            let d = store
                .create(parent.map(|x: (D::Id, u32)| x.0), local)
                .unwrap();
            let m = model.create(parent.map(|x| x.1), local).unwrap();
            ids.push((d, m));
        }
        let check = |store: &D, model: &ModelTransforms, ids: &[(D::Id, u32)], what: &str| {
            let last = ids.len() - 1;
            for (k, &(d, m)) in ids
                .iter()
                .enumerate()
                .step_by(97)
                .chain([(last, &ids[last])])
            {
                assert!(
                    store.world(d).unwrap().same_bits(&model.world(m).unwrap()),
                    "{name}: {what}: node {k}"
                );
            }
            store
                .check_invariants()
                .unwrap_or_else(|e| panic!("{name}: {what}: {e}"));
        };
        store.end_frame();
        check(&store, &model, &ids, "built");
        for (k, &(d, m)) in ids.iter().enumerate() {
            let local = Affine::from_pose(k as u32 ^ 0x5555_aaaa);
            store.set_local(d, local).unwrap();
            model.set_local(m, local).unwrap();
        }
        store.end_frame();
        check(&store, &model, &ids, "all moved");
        let batch: Vec<(D::Id, Affine)> = ids
            .iter()
            .enumerate()
            .map(|(k, &(d, m))| {
                let local = Affine::from_pose(k as u32 ^ 0x1234_4321);
                model.set_local(m, local).unwrap();
                (d, local)
            })
            .collect();
        store.set_local_batch(&batch).unwrap();
        store.end_frame();
        check(&store, &model, &ids, "batch");
        assert!(matches!(
            store.set_parent(ids[10].0, Some(ids[700].0)),
            Err(XfError::Cycle { .. })
        ));
        store.destroy(ids[750].0).unwrap();
        model.destroy(ids[750].1).unwrap();
        store.set_parent(ids[0].0, Some(ids[1499].0)).unwrap();
        model.set_parent(ids[0].1, Some(ids[1499].1)).unwrap();
        ids.remove(750);
        store.end_frame();
        check(&store, &model, &ids, "cut and re-rooted");
    }
}

#[test]
fn long_chains_agree_with_the_model() {
    for_each_transform_design(&mut LongChains);
}

/// The dirty list evicts a node after five unmoved frames (and the clearing ablation after
/// none), and keeps persistent movers without swapping them out.
#[test]
fn dirty_list_evicts_after_five_unmoved_frames() {
    fn run<const E: u8>() -> Vec<usize> {
        let mut s = DeferredDirtyList::<E>::new();
        let roots: Vec<u32> = (0..10)
            .map(|k| s.create(None, Affine::from_pose(k)).unwrap())
            .collect();
        let mut dirty = Vec::new();
        s.end_frame();
        for frame in 0..8u32 {
            s.set_local(roots[0], Affine::from_pose(frame)).unwrap();
            if frame == 0 {
                s.set_local(roots[1], Affine::from_pose(frame)).unwrap();
            }
            s.end_frame();
            s.check_invariants().unwrap();
            dirty.push(s.dirty_len());
        }
        dirty
    }
    // Frame 0: the 10 new nodes' count is 5 already? No: they were created in the first
    // `end_frame`'s frame with count 0, so all ten stay for five frames, then only the mover.
    assert_eq!(run::<5>(), [10, 10, 10, 10, 2, 1, 1, 1]);
    assert_eq!(run::<0>(), [0; 8]);
}

/// Designs whose registry entry says `detects_stale` refuse a destroyed node's id even after a
/// new node took its place; the others are allowed to hand the old id to the new node.
struct StaleIds;

impl TransformDesignVisitor for StaleIds {
    fn visit<D: TransformStore + 'static>(&mut self) {
        let name = D::INFO.meta.name;
        let mut store = D::new();
        let root = store.create(None, Affine::from_pose(1)).unwrap();
        let old = store.create(Some(root), Affine::from_pose(2)).unwrap();
        store.destroy(old).unwrap();
        let new = store.create(Some(root), Affine::from_pose(3)).unwrap();
        store.end_frame();
        assert!(store.world(new).is_ok(), "{name}");
        if D::INFO.detects_stale {
            assert_ne!(old, new, "{name}: a stale-detecting design reused the id");
            assert!(
                matches!(store.world(old), Err(XfError::NoSuchNode { .. })),
                "{name}: the stale id still reads a world"
            );
            assert!(
                matches!(
                    store.set_local(old, Affine::from_pose(4)),
                    Err(XfError::NoSuchNode { .. })
                ),
                "{name}: the stale id still moves a node"
            );
            assert!(store.local(new).unwrap().same_bits(&Affine::from_pose(3)));
        }
        store.check_invariants().unwrap();
    }
}

#[test]
fn designs_that_detect_stale_ids_refuse_them_after_reuse() {
    for_each_transform_design(&mut StaleIds);
}
