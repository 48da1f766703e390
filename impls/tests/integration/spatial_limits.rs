//! The spatial family's contract at its edges, checked for every registered design in 2D and
//! (where supported) 3D: IDs above `MAX_POINT_ID` and non-finite positions are refused and
//! change nothing; queries with huge, infinite, NaN and negative radii, and centres and points
//! out at ±`f32::MAX` and down at subnormals, give exactly the brute-force model's answer
//! (`within`, overflow of `r * r` included); and no such query hangs (each design's queries
//! run on a thread that must finish in [`HANG_GUARD`]).
//!
//! Every design also builds from any [`Space`] (zero, negative, NaN or infinite radius,
//! non-finite bounds: a hint only) and answers as the model does.
//!
//! Points go in through [`SpatialIndex::build`] (the batch entry point, so static designs take
//! part); a static design's moves are checked to be refused instead.
//!
//! The random-op property test of the same contract is `spatial_model.rs`; this file pins the
//! cases a random draw could miss (an `r * r` overflow and a `flat_spatial` hang among them).

use std::sync::mpsc;
use std::time::Duration;

use crate::support::answer;

use impls::spatial::model::ModelIndex;
use impls::spatial::{
    MAX_POINT_ID, PointId, Space, SpatialDesignVisitor, SpatialError, SpatialIndex,
    for_each_spatial_design,
};

/// How long one design's whole set of extreme queries may take before the test calls it a
/// hang: generous, as the machine is shared and a test run may share it with a build or a
/// cache simulation (20 s was exceeded under such load); a hang lasts until the guard, as in
/// `spatial_replay.rs`.
const HANG_GUARD: Duration = Duration::from_secs(120);

const MAX: f32 = f32::MAX;
const TINY: f32 = f32::MIN_POSITIVE;
/// The smallest subnormal.
const SUB: f32 = 1e-45;

/// The extreme values each axis of the extreme points takes.
const EXTREMES: [f32; 9] = [-MAX, -3e38, -TINY, -SUB, 0.0, SUB, TINY, 1e30, MAX];

/// Radii the contract covers: zero, ordinary, tiny, negative, huge-but-finite square, squares
/// that overflow (1.9e19 and up), infinities and NaN.
const RADII: [f32; 14] = [
    0.0,
    1.0,
    60.0,
    SUB,
    TINY,
    -5.0,
    1e19,
    1.9e19,
    3e38,
    MAX,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -MAX,
];

fn space<const D: usize>() -> Space<D> {
    Space {
        radius: 1.0,
        lo: [-50.0; D],
        hi: [50.0; D],
    }
}

/// `v` in the first two axes, `z` in the third (3D only).
fn at<const D: usize>(x: f32, y: f32, z: f32) -> [f32; D] {
    std::array::from_fn(|k| [x, y, z][k])
}

/// 100 points on a grid in the ±50 world, then every pair of [`EXTREMES`] on x and y (with a
/// z from them too in 3D): 181 distinct points, none sharing a position.
fn points<const D: usize>() -> Vec<[f32; D]> {
    let mut out = Vec::new();
    for k in 0..100 {
        let (x, y) = ((k % 10) as f32 * 10.0 - 45.0, (k / 10) as f32 * 10.0 - 45.0);
        out.push(at(x, y, x * 0.5));
    }
    for (a, &x) in EXTREMES.iter().enumerate() {
        for (b, &y) in EXTREMES.iter().enumerate() {
            out.push(at(x, y, EXTREMES[(a + 2 * b) % EXTREMES.len()]));
        }
    }
    out
}

/// Query centres: the origin, the `r * r` overflow's corner, every other corner, a subnormal
/// one, and non-finite ones (the contract takes any centre).
fn centres<const D: usize>() -> Vec<[f32; D]> {
    vec![
        at(0.0, 0.0, 0.0),
        at(MAX, -MAX, 0.0),
        at(-MAX, MAX, MAX),
        at(MAX, MAX, -MAX),
        at(SUB, -TINY, SUB),
        at(1e30, 0.0, -3e38),
        at(f32::INFINITY, 0.0, 0.0),
        at(f32::NAN, 0.0, 0.0),
    ]
}

/// [`points`] with their IDs, 0, 1, 2, ...
fn batch<const D: usize>() -> Vec<(PointId, [f32; D])> {
    (0..).zip(points::<D>()).collect()
}

/// A design and the model holding the same [`points`], built for `space`.
fn filled_in<const D: usize, I: SpatialIndex<D>>(space: &Space<D>) -> (I, ModelIndex<D>) {
    let d = I::build(space, &batch())
        .unwrap_or_else(|e| panic!("{} {D}D: build: {e}", I::INFO.meta.name));
    (d, ModelIndex::<D>::build(space, &batch()).unwrap())
}

/// A design and the model holding the same [`points`].
fn filled<const D: usize, I: SpatialIndex<D>>() -> (I, ModelIndex<D>) {
    filled_in(&space())
}

/// Every [`centres`] × [`RADII`] query against the model, plus one whose `r * r` overflows.
fn extreme_queries<const D: usize, I: SpatialIndex<D>>() {
    let name = I::INFO.meta.name;
    let (mut d, m) = filled::<D, I>();
    for c in centres::<D>() {
        for r in RADII {
            let want = m.scan(c, r);
            assert_eq!(
                answer(&mut d, c, r),
                want,
                "{name} {D}D: query c={c:?} r={r}"
            );
            if let Some(cost) = d.query_cost(c, r) {
                assert!(
                    cost.tested >= want.len() as u64,
                    "{name} {D}D: c={c:?} r={r}: tested {} < found {}",
                    cost.tested,
                    want.len()
                );
            }
        }
    }
    // r * r overflows, so every point is within.
    let all: Vec<PointId> = (0..points::<D>().len() as PointId).collect();
    let c = at(3.402_823_5e38, -3.402_823_5e38, 0.0);
    assert_eq!(answer(&mut d, c, 3e38), all, "{name} {D}D: c={c:?} r=3e38");
    // After moves out to the corners and back the answers still agree (a static design
    // refuses the moves and keeps its answers).
    let mut m = m;
    for id in (0..all.len() as PointId).step_by(7) {
        let p = at(-MAX, MAX, TINY);
        if I::INFO.static_only {
            assert!(
                matches!(d.move_to(id, p), Err(SpatialError::Unsupported { .. })),
                "{name} {D}D: a static design moved {id}"
            );
            continue;
        }
        d.move_to(id, p).unwrap();
        m.move_to(id, p).unwrap();
    }
    for c in centres::<D>() {
        for r in [MAX, 1e19, 2.0e19, 1.0, f32::NAN] {
            assert_eq!(
                answer(&mut d, c, r),
                m.scan(c, r),
                "{name} {D}D: after moves: query c={c:?} r={r}"
            );
        }
    }
    d.check_invariants()
        .unwrap_or_else(|e| panic!("{name} {D}D: {e}"));
}

/// Runs `check` on its own thread and fails if it has not finished within [`HANG_GUARD`].
fn without_hanging(what: String, check: fn()) {
    let (done, finished) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        check();
        let _ = done.send(());
    });
    match finished.recv_timeout(HANG_GUARD) {
        Ok(()) => worker.join().unwrap(),
        // The worker panicked: re-raise its message.
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(e) = worker.join() {
                std::panic::resume_unwind(e);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: still running after {HANG_GUARD:?} (a hang)")
        }
    }
}

/// IDs above the limit are refused by every method, and nothing changes.
fn id_limit<const D: usize, I: SpatialIndex<D>>() {
    let name = I::INFO.meta.name;
    let (mut d, _) = filled::<D, I>();
    let (len, before) = (d.len(), answer(&mut d, at(0.0, 0.0, 0.0), MAX));
    for id in [MAX_POINT_ID + 1, u32::MAX] {
        let too_large = Err(SpatialError::IdTooLarge {
            id,
            max: MAX_POINT_ID,
        });
        assert_eq!(
            d.insert(id, at(1.0, 2.0, 3.0)),
            too_large,
            "{name} {D}D insert"
        );
        assert_eq!(
            d.move_to(id, at(1.0, 2.0, 3.0)),
            too_large,
            "{name} {D}D move"
        );
        assert_eq!(d.remove(id), too_large, "{name} {D}D remove");
        // The ID check comes first: a bad ID with a bad position is still IdTooLarge.
        assert_eq!(
            d.insert(id, at(f32::NAN, 0.0, 0.0)),
            too_large,
            "{name} {D}D"
        );
    }
    assert_eq!(d.len(), len, "{name} {D}D");
    assert_eq!(
        answer(&mut d, at(0.0, 0.0, 0.0), MAX),
        before,
        "{name} {D}D"
    );
    d.check_invariants()
        .unwrap_or_else(|e| panic!("{name} {D}D: {e}"));
}

/// Non-finite positions are refused by insert and move, and nothing changes.
fn non_finite<const D: usize, I: SpatialIndex<D>>() {
    let name = I::INFO.meta.name;
    let (mut d, mut m) = filled::<D, I>();
    let fresh = points::<D>().len() as PointId;
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for axis in 0..D {
            let mut p = [1.0f32; D];
            p[axis] = bad;
            let refused = |id| Err(SpatialError::NotFinite { id });
            assert_eq!(
                d.insert(fresh, p),
                refused(fresh),
                "{name} {D}D insert {p:?}"
            );
            assert_eq!(d.move_to(3, p), refused(3), "{name} {D}D move {p:?}");
            assert_eq!(m.insert(fresh, p), refused(fresh), "model");
        }
    }
    // A dead ID with a bad position: the position check comes before the state check.
    assert_eq!(
        d.move_to(fresh, [f32::NAN; D]),
        Err(SpatialError::NotFinite { id: fresh }),
        "{name} {D}D"
    );
    assert_eq!(d.len(), m.len(), "{name} {D}D");
    for c in centres::<D>() {
        assert_eq!(answer(&mut d, c, MAX), m.scan(c, MAX), "{name} {D}D");
        assert_eq!(answer(&mut d, c, 5.0), m.scan(c, 5.0), "{name} {D}D");
    }
    d.check_invariants()
        .unwrap_or_else(|e| panic!("{name} {D}D: {e}"));
}

/// The largest ID itself is accepted, by build and by insert (2D only: its side arrays take
/// up to ~350 MB in 3D).
fn largest_id_accepted<I: SpatialIndex<2>>() {
    let name = I::INFO.meta.name;
    let mut d = I::build(&space(), &[(MAX_POINT_ID, [1.0, 1.0])])
        .unwrap_or_else(|e| panic!("{name}: build: {e}"));
    assert_eq!(
        answer(&mut d, [0.0, 0.0], 2.0),
        vec![MAX_POINT_ID],
        "{name}"
    );
    if I::INFO.static_only {
        return;
    }
    let mut d = I::new(&space());
    assert_eq!(d.insert(MAX_POINT_ID, [1.0, 1.0]), Ok(()), "{name}");
    assert_eq!(
        answer(&mut d, [0.0, 0.0], 2.0),
        vec![MAX_POINT_ID],
        "{name}"
    );
    assert_eq!(d.move_to(MAX_POINT_ID, [-MAX, MAX]), Ok(()), "{name}");
    assert_eq!(
        answer(&mut d, [0.0, 0.0], MAX),
        vec![MAX_POINT_ID],
        "{name}"
    );
    assert_eq!(d.remove(MAX_POINT_ID), Ok(()), "{name}");
    assert!(d.is_empty(), "{name}");
}

/// Spaces no workload declares but a library caller may pass: zero, negative, NaN, infinite
/// and subnormal radii, NaN and infinite bounds, bounds the wrong way round.
fn odd_spaces<const D: usize>() -> Vec<Space<D>> {
    let mut out = Vec::new();
    for radius in [
        0.0,
        -0.0,
        -1.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        SUB,
        3e38,
    ] {
        out.push(Space { radius, ..space() });
    }
    for (lo, hi) in [
        (f32::NAN, f32::NAN),
        (f32::NEG_INFINITY, f32::INFINITY),
        (f32::INFINITY, f32::NEG_INFINITY),
        (-MAX, MAX),
        (50.0, -50.0),
    ] {
        out.push(Space {
            radius: f32::NAN,
            lo: [lo; D],
            hi: [hi; D],
        });
        out.push(Space {
            radius: 1.0,
            lo: [lo; D],
            hi: [hi; D],
        });
    }
    out
}

/// Every [`odd_spaces`] space: the design builds (by `new` and by `build`) and answers as the
/// model does, ordinary and extreme queries alike.
fn any_space<const D: usize, I: SpatialIndex<D>>() {
    let name = I::INFO.meta.name;
    for s in odd_spaces::<D>() {
        let mut empty = I::new(&s);
        assert!(
            answer(&mut empty, at(0.0, 0.0, 0.0), 5.0).is_empty(),
            "{name} {D}D {s:?}"
        );
        let (mut d, m) = filled_in::<D, I>(&s);
        for c in centres::<D>() {
            for r in [0.0, 1.0, 10.0, 60.0, 1e19, MAX] {
                assert_eq!(
                    answer(&mut d, c, r),
                    m.scan(c, r),
                    "{name} {D}D {s:?}: query c={c:?} r={r}"
                );
            }
        }
        d.check_invariants()
            .unwrap_or_else(|e| panic!("{name} {D}D {s:?}: {e}"));
    }
}

/// One check, named for its failure message.
type Check = (String, fn());

/// Every design's checks, 2D and (where supported) 3D, by kind.
#[derive(Default)]
struct Checks {
    extremes: Vec<Check>,
    ids: Vec<Check>,
    non_finite: Vec<Check>,
    spaces: Vec<Check>,
}

impl SpatialDesignVisitor for Checks {
    fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self) {
        let name = I2::INFO.meta.name;
        self.extremes
            .push((format!("{name} 2D"), extreme_queries::<2, I2>));
        self.ids.push((format!("{name} 2D"), id_limit::<2, I2>));
        self.ids
            .push((format!("{name} largest ID"), largest_id_accepted::<I2>));
        self.non_finite
            .push((format!("{name} 2D"), non_finite::<2, I2>));
        self.spaces.push((format!("{name} 2D"), any_space::<2, I2>));
        if I2::INFO.supports_3d {
            self.spaces.push((format!("{name} 3D"), any_space::<3, I3>));
            self.extremes
                .push((format!("{name} 3D"), extreme_queries::<3, I3>));
            self.ids.push((format!("{name} 3D"), id_limit::<3, I3>));
            self.non_finite
                .push((format!("{name} 3D"), non_finite::<3, I3>));
        }
    }
}

fn checks() -> Checks {
    let mut c = Checks::default();
    for_each_spatial_design(&mut c);
    c
}

#[test]
fn every_design_follows_within_at_the_extremes_without_hanging() {
    for (what, check) in checks().extremes {
        without_hanging(what, check);
    }
}

#[test]
fn every_design_refuses_ids_above_the_limit_and_changes_nothing() {
    for (what, check) in checks().ids {
        without_hanging(what, check);
    }
}

#[test]
fn every_design_refuses_non_finite_positions_and_changes_nothing() {
    for (what, check) in checks().non_finite {
        without_hanging(what, check);
    }
}

#[test]
fn every_design_builds_from_any_space_and_answers_as_the_model() {
    for (what, check) in checks().spaces {
        without_hanging(what, check);
    }
}

/// `flat_spatial` caps the box `centre ± r` it hands the crate: uncapped, the crate would walk
/// every cell of it. One query at `r = f32::MAX` on the ±50 world must return.
#[test]
fn a_huge_radius_returns_promptly_on_flat_spatial() {
    use impls::spatial::peers::flat_spatial::FlatSpatialGrid;
    without_hanging("flat_spatial r = f32::MAX".into(), || {
        let mut g = FlatSpatialGrid::<2>::new(&space());
        for k in 0..1000u32 {
            let p = [(k % 100) as f32 - 50.0, (k / 10) as f32 - 50.0];
            g.insert(k, p).unwrap();
        }
        for r in [1e4, 1e19, MAX, f32::INFINITY] {
            assert_eq!(answer(&mut g, [0.0, 0.0], r).len(), 1000, "r = {r}");
        }
    });
}
