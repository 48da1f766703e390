//! The spatial-index family contract, checked once for every registered design, in 2D and (where
//! supported) 3D.
//!
//! One generic model-based property test (a batch [`SpatialIndex::build`], then random
//! inserts, removes, moves and radius queries against [`ModelIndex`], query answers compared
//! as sorted ID lists, `check_invariants` after every op; a static design must refuse every
//! change with [`SpatialError::Unsupported`] after the checks every design makes). Coordinates are drawn half from multiples of 0.5 in [-8, 8] (every cell border of
//! every registered cell size at the test's design radius 1, negative ones included) and half
//! anywhere in [-20, 20] (beyond the declared bounds [-10, 10]); radii include 0, the design
//! radius, 10× it and one that covers every point (60). Two deterministic checks pin the article's
//! figures: 2^n cells per query at the design radius, and XOR's diagonal chain.

use crate::support;

use impls::spatial::fuzzy_hash::{FuzzyMix, FuzzyXor};
use impls::spatial::model::ModelIndex;
use impls::spatial::{
    MAX_POINT_ID, PointId, Space, SpatialDesignVisitor, SpatialError, SpatialIndex, check_id,
    check_point, for_each_spatial_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::{ModelRun, answer};

#[derive(Debug, Clone, Copy)]
enum TestOp<const D: usize> {
    Insert(PointId, [f32; D]),
    Remove(PointId),
    Move(PointId, [f32; D]),
    Query([f32; D], f32),
}

/// Mostly the world above; now and then an extreme of the contract's range (±`f32::MAX`, the
/// smallest normal and subnormal, 1e30) or a non-finite value (which inserts and moves must
/// refuse, and a query centre may be).
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        16 => (-16i32..=16).prop_map(|k| k as f32 * 0.5),
        16 => -20.0f32..20.0,
        3 => prop::sample::select(vec![
            f32::MAX,
            -f32::MAX,
            -3e38,
            f32::MIN_POSITIVE,
            -1e-45,
            1e30,
        ]),
        1 => prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY]),
    ]
}

fn point<const D: usize>() -> impl Strategy<Value = [f32; D]> {
    proptest::collection::vec(coord(), D).prop_map(|v| std::array::from_fn(|k| v[k]))
}

/// A point with finite coordinates only (the batch's, so most builds succeed).
fn finite_point<const D: usize>() -> impl Strategy<Value = [f32; D]> {
    point::<D>().prop_map(|p| p.map(|v| if v.is_finite() { v } else { 0.5 }))
}

/// The batch a design is built from: IDs 0, 1, 2, ... at finite points, and one time in four
/// one more point the build must refuse as insert would (a live ID, an ID above the limit, a
/// NaN coordinate), somewhere in the batch.
fn batch<const D: usize>() -> impl Strategy<Value = Vec<(PointId, [f32; D])>> {
    let bad = prop_oneof![
        3 => Just(None),
        1 => (0..3u8, any::<prop::sample::Index>()).prop_map(Some),
    ];
    (proptest::collection::vec(finite_point::<D>(), 0..30), bad).prop_map(|(points, bad)| {
        let mut v: Vec<(PointId, [f32; D])> = points
            .into_iter()
            .enumerate()
            .map(|(k, p)| (k as PointId, p))
            .collect();
        if let Some((kind, at)) = bad {
            let e = match kind {
                0 if !v.is_empty() => (v[0].0, [1.0; D]),
                1 => (MAX_POINT_ID + 1, [1.0; D]),
                _ => (v.len() as PointId, [f32::NAN; D]),
            };
            v.insert(at.index(v.len() + 1), e);
        }
        v
    })
}

/// Mostly around the design radius; now and then one the contract covers at its edges: a
/// square near or past `f32::MAX` (1.9e19 and up overflow), infinite, NaN, negative, tiny.
fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![
        1 => Just(0.0f32),
        6 => Just(1.0f32),
        2 => 0.0f32..3.0,
        1 => Just(10.0f32),
        1 => Just(60.0f32),
        1 => prop::sample::select(vec![
            1e19f32,
            1.9e19,
            3e38,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -3.0,
            1e-45,
        ]),
    ]
}

/// IDs from a small range, so inserts hit live IDs and removes hit dead ones.
fn op_strategy<const D: usize>() -> impl Strategy<Value = TestOp<D>> {
    prop_oneof![
        6 => (0..24u32, point::<D>()).prop_map(|(id, p)| TestOp::Insert(id, p)),
        2 => (0..24u32).prop_map(TestOp::Remove),
        3 => (0..24u32, point::<D>()).prop_map(|(id, p)| TestOp::Move(id, p)),
        5 => (point::<D>(), radius()).prop_map(|(c, r)| TestOp::Query(c, r)),
    ]
}

fn space<const D: usize>() -> Space<D> {
    Space {
        radius: 1.0,
        lo: [-10.0; D],
        hi: [10.0; D],
    }
}

/// What a static design must answer to a change: the checks every design makes (the ID,
/// then the position), else [`SpatialError::Unsupported`].
fn static_refusal<const D: usize>(
    id: PointId,
    p: Option<[f32; D]>,
    got: Result<(), SpatialError>,
) -> bool {
    let checked = match p {
        Some(p) => check_point(id, &p),
        None => check_id(id),
    };
    match checked {
        Err(e) => got == Err(e),
        Ok(()) => matches!(got, Err(SpatialError::Unsupported { id: i, .. }) if i == id),
    }
}

/// Builds `I` and the model from `initial`, then replays `ops` on both, failing at the first
/// disagreement. A failed build (both must refuse the same point) starts both empty.
fn run_against_model<const D: usize, I: SpatialIndex<D>>(
    initial: &[(PointId, [f32; D])],
    ops: &[TestOp<D>],
) -> Result<(), TestCaseError> {
    let name = I::INFO.meta.name;
    let (mut d, mut m) = match (
        I::build(&space(), initial),
        ModelIndex::<D>::build(&space(), initial),
    ) {
        (Ok(d), Ok(m)) => (d, m),
        (d, m) => {
            prop_assert_eq!(d.err(), m.err(), "{} {}D: build {:?}", name, D, initial);
            (I::new(&space()), ModelIndex::<D>::new(&space()))
        }
    };
    prop_assert_eq!(d.len(), m.len(), "{} {}D: len after build", name, D);
    if let Err(broken) = d.check_invariants() {
        prop_assert!(
            false,
            "{name} {D}D: after build: invariant broken: {broken}"
        );
    }
    let fixed = I::INFO.static_only;
    for (step, &op) in ops.iter().enumerate() {
        let ctx = |what: &str| format!("{name} {D}D: step {step} {op:?}: {what}");
        match op {
            TestOp::Insert(id, p) if fixed => {
                prop_assert!(
                    static_refusal(id, Some(p), d.insert(id, p)),
                    "{}",
                    ctx("insert")
                )
            }
            TestOp::Remove(id) if fixed => {
                prop_assert!(
                    static_refusal::<D>(id, None, d.remove(id)),
                    "{}",
                    ctx("remove")
                )
            }
            TestOp::Move(id, p) if fixed => {
                prop_assert!(
                    static_refusal(id, Some(p), d.move_to(id, p)),
                    "{}",
                    ctx("move")
                )
            }
            TestOp::Insert(id, p) => {
                prop_assert_eq!(d.insert(id, p), m.insert(id, p), "{}", ctx("insert"))
            }
            TestOp::Remove(id) => prop_assert_eq!(d.remove(id), m.remove(id), "{}", ctx("remove")),
            TestOp::Move(id, p) => {
                prop_assert_eq!(d.move_to(id, p), m.move_to(id, p), "{}", ctx("move"))
            }
            TestOp::Query(c, r) => {
                let want = m.scan(c, r);
                prop_assert_eq!(answer(&mut d, c, r), want, "{}", ctx("query"));
                if let Some(cost) = d.query_cost(c, r) {
                    prop_assert!(
                        cost.tested >= m.scan(c, r).len() as u64,
                        "{}",
                        ctx("tested fewer points than it found")
                    );
                }
            }
        }
        prop_assert_eq!(d.len(), m.len(), "{}", ctx("len"));
        if let Err(broken) = d.check_invariants() {
            prop_assert!(false, "{}", ctx(&format!("invariant broken: {broken}")));
        }
    }
    Ok(())
}

/// The property test of design `I` in `D` dimensions (labelled e.g. `grid (2D)`, so the two
/// dimensions get different seeds), through the shared seeded runner.
fn check<const D: usize, I: SpatialIndex<D>>(run: &mut ModelRun) {
    let ops = proptest::collection::vec(op_strategy::<D>(), 0..200);
    let design = format!("{} ({D}D)", I::INFO.meta.name);
    run.check(&design, (batch::<D>(), ops), |(initial, ops)| {
        run_against_model::<D, I>(&initial, &ops)
    });
}

/// The property test per design, in 2D and, where supported, 3D.
struct ModelTest(ModelRun);

impl SpatialDesignVisitor for ModelTest {
    fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self) {
        check::<2, I2>(&mut self.0);
        if I2::INFO.supports_3d {
            check::<3, I3>(&mut self.0);
        }
    }
}

support::every_design_agrees_with_the_model!(ModelTest, for_each_spatial_design, cases: 96);

#[test]
fn the_fuzzy_hash_visits_2_pow_n_cells_at_its_design_radius() {
    // Points in every cell around the queries, so the grid walks cells, not its keys.
    let mut g2 = FuzzyMix::<2>::new(&space());
    let mut g3 = FuzzyMix::<3>::new(&space());
    let mut id = 0;
    for x in -4..4 {
        for y in -4..4 {
            g2.insert(id, [x as f32 * 2.0 + 0.5, y as f32 * 2.0 + 0.5])
                .unwrap();
            for z in -4..4 {
                g3.insert(
                    id,
                    [
                        x as f32 * 2.0 + 0.5,
                        y as f32 * 2.0 + 0.5,
                        z as f32 * 2.0 + 0.5,
                    ],
                )
                .unwrap();
                id += 1;
            }
        }
    }
    assert_eq!(g2.query_cost([0.3, 0.7], 1.0).unwrap().cells, 4);
    assert_eq!(g2.query_cost([-0.3, -5.1], 1.0).unwrap().cells, 4);
    assert_eq!(g3.query_cost([0.3, 0.7, -1.2], 1.0).unwrap().cells, 8);
}

#[test]
fn xor_keys_chain_the_diagonal_and_mix_keys_do_not() {
    // One point in each diagonal cell (k, k) of cell size 2.
    let (mut mix, mut xor) = (FuzzyMix::<2>::new(&space()), FuzzyXor::<2>::new(&space()));
    for k in 0..50u32 {
        let p = [k as f32 * 2.0 + 1.0, k as f32 * 2.0 + 1.0];
        mix.insert(k, p).unwrap();
        xor.insert(k, p).unwrap();
    }
    assert_eq!(mix.longest_chain(), Some(1));
    assert_eq!(xor.longest_chain(), Some(50));
    let c = [11.0, 11.5];
    assert_eq!(answer(&mut mix, c, 1.0), answer(&mut xor, c, 1.0));
    assert!(xor.query_cost(c, 1.0).unwrap().tested >= 50);
    assert!(mix.query_cost(c, 1.0).unwrap().tested <= 2);
}
