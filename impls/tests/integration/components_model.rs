//! The component-manager family contract, checked once for every registered design.
//!
//! One generic model-based property test: random op sequences (spawn, kill, attach, further
//! instances, detach, lookups, writes, position copies, runs of each, simulate, destroy
//! steps, full collections) replayed on a design and on the
//! reference model [`ModelStore`], answers compared bit for bit, invariants checked after
//! every op, live state compared after every full collection. It runs through
//! [`for_each_component_design`], so a new design is tested by adding its registry line.

use crate::support;

use impls::components::model::ModelStore;
use impls::components::{
    ComponentDesignVisitor, ComponentError, ComponentStore, CopyRun, Destruction, PointMass,
    PositionRun, VectorField, VelocityRun, for_each_component_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::ModelRun;

#[derive(Debug, Clone, Copy)]
enum TestOp {
    Spawn,
    /// `pick` chooses an entity ever spawned (live or dead): see [`pick`].
    Kill(usize),
    Attach(usize, u32),
    /// Another instance (designs without `several_per_entity` must refuse it as unsupported).
    AttachAnother(usize, u32),
    Detach(usize),
    /// Read the first's position, write it as the second's (`CopyPosition`).
    CopyPosition(usize, usize),
    Position(usize),
    SetVelocity(usize, u32),
    /// `spawn_with`: a spawn and an attach in one call.
    SpawnWith(u32),
    /// Three lookups in one `read_positions` run.
    Positions([usize; 3]),
    /// Two velocity writes in one `write_velocities` run.
    SetVelocities([(usize, u32); 2]),
    /// Three position copies in one `copy_positions` run.
    CopyPositions([(usize, usize); 3]),
    Simulate,
    DestroyStep,
    CollectAll,
}

fn pick_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(usize::MAX), 5 => any::<usize>()]
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    prop_oneof![
        6 => Just(TestOp::Spawn),
        3 => pick_strategy().prop_map(TestOp::Kill),
        6 => (pick_strategy(), any::<u32>()).prop_map(|(p, s)| TestOp::Attach(p, s)),
        3 => (pick_strategy(), any::<u32>()).prop_map(|(p, s)| TestOp::AttachAnother(p, s)),
        2 => (pick_strategy(), pick_strategy()).prop_map(|(a, b)| TestOp::CopyPosition(a, b)),
        1 => pick_strategy().prop_map(TestOp::Detach),
        3 => pick_strategy().prop_map(TestOp::Position),
        2 => (pick_strategy(), any::<u32>()).prop_map(|(p, s)| TestOp::SetVelocity(p, s)),
        3 => any::<u32>().prop_map(TestOp::SpawnWith),
        2 => [pick_strategy(), pick_strategy(), pick_strategy()].prop_map(TestOp::Positions),
        2 => [(pick_strategy(), any::<u32>()), (pick_strategy(), any::<u32>())]
            .prop_map(TestOp::SetVelocities),
        2 => [
            (pick_strategy(), pick_strategy()),
            (pick_strategy(), pick_strategy()),
            (pick_strategy(), pick_strategy()),
        ]
        .prop_map(TestOp::CopyPositions),
        2 => Just(TestOp::Simulate),
        2 => Just(TestOp::DestroyStep),
        1 => Just(TestOp::CollectAll),
    ]
}

/// A point mass from a seed: small exact values so sums stay finite.
fn init(seed: u32) -> PointMass {
    let f = |shift: u32| ((seed >> shift) & 0xFF) as f32 / 16.0 - 8.0;
    PointMass {
        mass: 1.0 + f(0).abs(),
        position: [f(0), f(4), f(8)],
        velocity: [f(12), f(16), f(20)],
        acceleration: [f(24), f(2), f(6)],
    }
}

fn pick(pick: usize, count: usize) -> Option<usize> {
    match (pick, count) {
        (_, 0) => None,
        (usize::MAX, c) => Some(c - 1),
        (p, c) => Some(p % c),
    }
}

/// A run of lookups or writes over given entities, collecting each answer in order.
struct Collect<T>(Vec<T>);

/// Each answer's `Ok` value (`None`: refused), `missed`'s for an entity `lookup` erred on.
impl<E: Copy> PositionRun<E> for Collect<E> {
    type Output = Vec<Option<Option<[f32; 3]>>>;
    fn run<Er, Em, L, M>(self, mut lookup: L, mut missed: M) -> Self::Output
    where
        L: FnMut(E) -> Result<Option<[f32; 3]>, Er>,
        M: FnMut(E) -> Result<Option<[f32; 3]>, Em>,
    {
        self.0
            .into_iter()
            .map(|e| lookup(e).ok().or_else(|| missed(e).ok()))
            .collect()
    }
}

impl<E: Copy> VelocityRun<E> for Collect<(E, [f32; 3])> {
    type Output = Vec<Option<bool>>;
    fn run<Er, W: FnMut(E, [f32; 3]) -> Result<bool, Er>>(self, mut write: W) -> Self::Output {
        self.0.into_iter().map(|(e, v)| write(e, v).ok()).collect()
    }
}

/// Each copy's answer (`None`: refused), `missed`'s for a pair `copy` erred on; the run goes
/// on past a refusal, which must change nothing.
impl<E: Copy> CopyRun<E> for Collect<(E, E)> {
    type Output = Vec<Option<bool>>;
    fn run<Er, Em, C, M>(self, mut copy: C, mut missed: M) -> Self::Output
    where
        C: FnMut(E, E) -> Result<bool, Er>,
        M: FnMut(Er) -> Result<bool, Em>,
    {
        self.0
            .into_iter()
            .map(|(from, to)| match copy(from, to) {
                Ok(copied) => Some(copied),
                Err(miss) => missed(miss).ok(),
            })
            .collect()
    }
}

fn sorted_bits(store: &impl ComponentStore) -> Vec<[u32; 10]> {
    let mut all = Vec::new();
    store.visit(|m| all.push(m.bits()));
    all.sort_unstable();
    all
}

#[expect(
    clippy::too_many_lines,
    reason = "the model interpreter: one arm per op of the test vocabulary, each checked against the model"
)]
fn run<D: ComponentStore>(ops: &[TestOp]) -> Result<(), TestCaseError> {
    let mut design = D::new();
    let mut model = ModelStore::new();
    let mut entities: Vec<(D::Entity, u64)> = Vec::new();
    const DT: f32 = 1.0 / 64.0;
    for (step, &op) in ops.iter().enumerate() {
        let at = |p| pick(p, entities.len()).map(|i| entities[i]);
        match op {
            TestOp::Spawn => {
                let d = design
                    .spawn()
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let m = model.spawn().expect("the model never refuses a spawn");
                entities.push((d, m));
            }
            TestOp::Kill(p) => {
                if let Some((d, m)) = at(p) {
                    prop_assert_eq!(design.kill(d).is_ok(), model.kill(m).is_ok(), "{:?}", op);
                }
            }
            TestOp::Attach(p, s) => {
                if let Some((d, m)) = at(p) {
                    let want = model.attach(m, init(s));
                    prop_assert_eq!(design.attach(d, init(s)).is_ok(), want.is_ok(), "{:?}", op);
                }
            }
            TestOp::AttachAnother(p, s) => {
                if let Some((d, m)) = at(p) {
                    let got = design.attach_another(d, init(s));
                    if D::INFO.several_per_entity {
                        let want = model.attach_another(m, init(s));
                        prop_assert_eq!(got.is_ok(), want.is_ok(), "{:?}", op);
                    } else {
                        prop_assert!(
                            matches!(got, Err(ComponentError::Unsupported { .. })),
                            "{:?}: {:?}",
                            op,
                            got
                        );
                    }
                }
            }
            TestOp::CopyPosition(a, b) => {
                if let (Some((da, ma)), Some((db, mb))) = (at(a), at(b)) {
                    let got = match design.position(da) {
                        Ok(Some(p)) => design.write(db, VectorField::Position, p).ok(),
                        other => other.ok().map(|_| false),
                    };
                    let want = match model.position(ma) {
                        Ok(Some(p)) => model.write(mb, VectorField::Position, p).ok(),
                        other => other.ok().map(|_| false),
                    };
                    prop_assert_eq!(got, want, "{:?}", op);
                }
            }
            TestOp::Detach(p) => {
                if let Some((d, m)) = at(p) {
                    prop_assert_eq!(design.detach(d).ok(), model.detach(m).ok(), "{:?}", op);
                }
            }
            TestOp::Position(p) => {
                if let Some((d, m)) = at(p) {
                    let bits = |r: Option<[f32; 3]>| r.map(|v| v.map(f32::to_bits));
                    prop_assert_eq!(
                        design.position(d).ok().map(bits),
                        model.position(m).ok().map(bits),
                        "{:?}",
                        op
                    );
                }
            }
            TestOp::SetVelocity(p, s) => {
                if let Some((d, m)) = at(p) {
                    let v = init(s).acceleration;
                    prop_assert_eq!(
                        design.write(d, VectorField::Velocity, v).ok(),
                        model.write(m, VectorField::Velocity, v).ok(),
                        "{:?}",
                        op
                    );
                }
            }
            TestOp::SpawnWith(s) => {
                let d = design
                    .spawn_with(init(s))
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let m = model.spawn_with(init(s)).expect("the model never refuses");
                entities.push((d, m));
            }
            TestOp::Positions(picks) => {
                let picked: Vec<_> = picks.iter().filter_map(|&p| at(p)).collect();
                // A run refuses exactly where `position` alone errs.
                let bits = |r: Option<Option<[f32; 3]>>| r.map(|p| p.map(|v| v.map(f32::to_bits)));
                let got: Vec<_> = design
                    .read_positions(Collect(picked.iter().map(|e| e.0).collect()))
                    .into_iter()
                    .map(bits)
                    .collect();
                let want: Vec<_> = picked
                    .iter()
                    .map(|e| bits(model.position(e.1).ok()))
                    .collect();
                prop_assert_eq!(got, want, "{:?}", op);
            }
            TestOp::SetVelocities(picks) => {
                let picked: Vec<_> = picks
                    .iter()
                    .filter_map(|&(p, s)| Some((at(p)?, init(s).acceleration)))
                    .collect();
                let got: Vec<_> = design
                    .write_velocities(Collect(picked.iter().map(|(e, v)| (e.0, *v)).collect()));
                let want: Vec<_> = picked
                    .iter()
                    .map(|(e, v)| model.write(e.1, VectorField::Velocity, *v).ok())
                    .collect();
                prop_assert_eq!(got, want, "{:?}", op);
            }
            TestOp::CopyPositions(picks) => {
                let picked: Vec<_> = picks
                    .iter()
                    .filter_map(|&(a, b)| Some((at(a)?, at(b)?)))
                    .collect();
                // A run refuses exactly where `copy_position` alone errs.
                let got: Vec<_> = design
                    .copy_positions(Collect(picked.iter().map(|(a, b)| (a.0, b.0)).collect()));
                let want: Vec<_> = picked
                    .iter()
                    .map(|(a, b)| model.copy_position(a.1, b.1).ok())
                    .collect();
                prop_assert_eq!(got, want, "{:?}", op);
            }
            TestOp::Simulate => {
                design.simulate(DT);
                model.simulate(DT);
            }
            TestOp::DestroyStep => {
                design.destroy_step();
                if D::INFO.destruction != Destruction::Gc {
                    prop_assert_eq!(
                        design.garbage(),
                        0,
                        "after a {:?} step",
                        D::INFO.destruction
                    );
                }
            }
            TestOp::CollectAll => {
                design.collect_all_garbage();
                prop_assert_eq!(design.garbage(), 0);
                prop_assert_eq!(design.instance_count(), model.instance_count());
                prop_assert_eq!(sorted_bits(&design), sorted_bits(&model));
            }
        }
        if let Err(broken) = design.check_invariants() {
            return Err(TestCaseError::fail(format!(
                "{}: invariant broken after op {step} {op:?}: {broken}",
                D::INFO.meta.name
            )));
        }
        prop_assert_eq!(design.entity_count(), model.entity_count());
        prop_assert!(design.instance_count() >= model.instance_count());
    }
    design.collect_all_garbage();
    prop_assert_eq!(sorted_bits(&design), sorted_bits(&model));
    Ok(())
}

/// The property test per design, through the shared seeded runner.
struct PropertyTest(ModelRun);

impl ComponentDesignVisitor for PropertyTest {
    fn visit<D: ComponentStore + 'static>(&mut self) {
        let ops = prop::collection::vec(op_strategy(), 0..300);
        self.0.check(D::INFO.meta.name, ops, |ops| run::<D>(&ops));
    }
}

#[test]
fn every_design_matches_the_model() {
    let mut test = PropertyTest(ModelRun::new(
        module_path!(),
        "every_design_matches_the_model",
        96,
    ));
    for_each_component_design(&mut test);
    test.0.finish();
}

/// Heavy churn with the GC: kill most entities, respawn (reusing indices), attach again (a
/// third of them a second instance too), step the GC for a while: the garbage drains and the state matches the model.
struct Churn;

impl ComponentDesignVisitor for Churn {
    fn visit<D: ComponentStore + 'static>(&mut self) {
        let mut ops = Vec::new();
        for round in 0..20u32 {
            for k in 0..50 {
                ops.push(TestOp::Spawn);
                ops.push(TestOp::Attach(usize::MAX, round * 100 + k));
                if k % 3 == 0 {
                    ops.push(TestOp::AttachAnother(usize::MAX, round * 100 + k + 50));
                }
            }
            for k in 0..40 {
                ops.push(TestOp::Kill(k * 7 + round as usize));
            }
            ops.push(TestOp::Simulate);
            ops.push(TestOp::DestroyStep);
        }
        ops.push(TestOp::CollectAll);
        run::<D>(&ops).unwrap_or_else(|e| panic!("{}: {e}", D::INFO.meta.name));
    }
}

#[test]
fn heavy_churn_matches_the_model() {
    for_each_component_design(&mut Churn);
}

/// A store with three entities holding point masses (0, 1, 2), one without (3) and one
/// killed (4), by the same calls for every design.
fn copy_case<S: ComponentStore>() -> (S, Vec<S::Entity>) {
    let mut store = S::new();
    let mut entities = Vec::new();
    for seed in [0x0123, 0x0456, 0x0789] {
        entities.push(store.spawn_with(init(seed)).expect("a spawn"));
    }
    entities.push(store.spawn().expect("a spawn"));
    let dead = store.spawn_with(init(0x0ABC)).expect("a spawn");
    store.kill(dead).expect("a live entity");
    entities.push(dead);
    (store, entities)
}

/// A hand-built run of copies on [`copy_case`]: onto itself, between two point masses, from
/// and to an entity without one, to a dead entity from one without (not refused: the target
/// is not looked at) and from one with (refused), from a dead entity (refused). Every design's
/// `copy_positions` (an ECS peer's view borrowed once) answers and leaves the positions as
/// `copy_position` op by op does on a twin store, and as the model does.
struct CopyRunLikeSingleOps;

impl ComponentDesignVisitor for CopyRunLikeSingleOps {
    fn visit<D: ComponentStore + 'static>(&mut self) {
        let name = D::INFO.meta.name;
        let pairs = [
            (0, 1),
            (2, 2),
            (3, 0),
            (0, 3),
            (3, 4),
            (1, 4),
            (4, 2),
            (1, 2),
            (0, 0),
        ];
        let (mut run, r) = copy_case::<D>();
        let (mut single, s) = copy_case::<D>();
        let (mut model, m) = copy_case::<ModelStore>();
        let got = run.copy_positions(Collect(pairs.iter().map(|&(a, b)| (r[a], r[b])).collect()));
        let alone: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| single.copy_position(s[a], s[b]).ok())
            .collect();
        let want: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| model.copy_position(m[a], m[b]).ok())
            .collect();
        assert_eq!(got, alone, "{name}: the run against op by op");
        assert_eq!(got, want, "{name}: the run against the model");
        let t = Some(true);
        let f = Some(false);
        assert_eq!(got, [t, t, f, f, f, None, None, t, t], "{name}");
        let bits = |p: Result<Option<[f32; 3]>, ComponentError>| {
            p.ok().flatten().map(|v| v.map(f32::to_bits))
        };
        for k in 0..4 {
            let after_run = bits(run.position(r[k]));
            assert_eq!(after_run, bits(single.position(s[k])), "{name}: entity {k}");
            assert_eq!(after_run, bits(model.position(m[k])), "{name}: entity {k}");
        }
        run.check_invariants()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        run.collect_all_garbage();
        model.collect_all_garbage();
        assert_eq!(sorted_bits(&run), sorted_bits(&model), "{name}");
    }
}

#[test]
fn a_run_of_copies_answers_like_single_copies() {
    for_each_component_design(&mut CopyRunLikeSingleOps);
}
