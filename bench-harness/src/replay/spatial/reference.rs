//! The family's reference loops, verified like a replay:
//!
//! * [`DirectSpatial`] (`ref-direct-<peer>`, for `rstar`, `kiddo`, `kiddo_static` and
//!   `flat_spatial`): the query bodies written against the crate itself, no [`SpatialIndex`] in
//!   between: the crate's own index as the peer built it from the trace's setup (untimed, by the
//!   peer's replay: `rstar`'s `RTree::bulk_load`, `kiddo`'s `KdTree::with_capacity` + `add`,
//!   `ImmutableKdTree::new_from_slice`, `flat_spatial`'s `Grid::new` + `insert`), moved out of
//!   the adapter, and a plain `Vec` of the body's queries as the application holds them
//!   (centre, radius). Per query, the crate's call the peer's `INFO.idiom` names, each answer
//!   taken as the adapter takes it, so the answers are the family's [`within`] exactly:
//!   * `rstar`: `RTree::locate_within_distance(centre, r * r)`, every entry's `data` as is;
//!   * `kiddo`: `KdTree::within_unsorted::<SquaredEuclidean>(&centre, pruning_radius(r))`,
//!     each result kept when its own `distance <= r * r` (the adapter's widening: the crate's
//!     pruning can round a few ulps above a point exactly at `r`), its `item` the ID;
//!   * `kiddo_static`: the same call on the `ImmutableKdTree`, whose `item` is the point's
//!     index in the setup's slice, the ID itself (point `k` of every `sp-*` setup is ID `k`);
//!   * `flat_spatial`: `Grid::query_around(centre, search_radius(r))` (its test is strict,
//!     `<`), each `(handle, position)` it yields tested with [`within`] on that position, the
//!     ID read with `Grid::get(handle)`, as the crate's example does.
//!
//!   Covers the bodies of `Query` ops only: `sp-uniform`, `sp-clustered`, `sp-large-radius`
//!   and `sp-3d` (not `flat_spatial`, 2D only), at every size, run on the index built once.
//!   Also `sp-moving` (not `kiddo_static`, static): a simulation's frame loop is one loop an
//!   application writes over its own frames, each frame's moves then its queries, so it is
//!   covered as that loop, on the application's state made afresh before each timed pass
//!   (outside the timed region) from the peer's replay of the setup, as the replay of a
//!   moving body builds its state. A move is what the application does with the crate and the
//!   positions it keeps of its own points: `rstar` `remove(&GeomWithData::new(old, id))` then
//!   `insert(GeomWithData::new(new, id))`; `kiddo` `remove(&old, id)` then `add(&new, id)`;
//!   `flat_spatial` `set_position(handle, new)` per move and one `maintain()` after the
//!   frame's moves (the crate's lazy update, before the frame's queries).
//!
//!   `None` for bodies with `Insert` or `Remove` ops, setups with anything but the `Space` and
//!   its inserts, a query radius whose square overflows (the adapters' full-scan path, no
//!   application's loop; no workload has one), traces the peer does not run (by its limits, or
//!   refusing an op: `kiddo`'s 33rd point at one position), and a crate index that does not
//!   hold every point (`rstar`'s far list). [`ReferenceLoop::mirrors`] names the peer, so the
//!   results' `overhead` (replay ÷ this loop) is what the replay driver and the adapter add
//!   to the crate. Verified: the body's [`SpatialDigest`] (queries, points found, the wrapping
//!   sum of [`mix_query`] of each query's count and ID sum, moves, points held after) must
//!   equal the model's. `kiddo` 5.3.3's mutable tree fails it on `sp-clustered` at 100K points,
//!   as its replay does (a split defect of the crate, `impls/tests/integration/kiddo_split_defect.rs`):
//!   `run` returns an error naming the defect, and the suite reports the loop failed.

use std::hint::black_box;
use std::time::Duration;

use impls::spatial::peers::flat_spatial::{FlatSpatialGrid, PointGrid, PointGridHandle};
use impls::spatial::peers::kiddo::{KiddoTree, Metric, PointKdTree, pruning_radius};
use impls::spatial::peers::kiddo_static::{KiddoStatic, StaticKdTree};
use impls::spatial::peers::rstar::{PointEntry, PointTree, RStarTree};
use impls::spatial::{PointId, SpatialIndex, needs_full_scan, search_radius, within};
use workloads::Trace;
use workloads::spatial::SpatialOp;

use super::{Built, SpatialDigest, SpatialFamily, SpatialReplay, mix_query};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer};

/// A query as the application holds it: its centre and radius.
pub type Query<const D: usize> = ([f32; D], f32);

/// A move as the application holds it: the point's ID and its new position.
pub type Move<const D: usize> = (PointId, [f32; D]);

/// One query's answer folded into the running totals: points found and the wrapping sum of
/// [`mix_query`] (the replay's digest terms).
#[inline(always)]
fn answered(totals: &mut (u64, u64), count: u64, id_sum: u64) {
    totals.0 += count;
    totals.1 = totals.1.wrapping_add(mix_query(count, id_sum));
}

/// A peer whose crate the `ref-direct-<peer>` loop calls directly, in `D` dimensions: the
/// query (and move) loop as an application writes it with the crate.
pub trait DirectIndex<const D: usize>: SpatialIndex<D> + 'static {
    /// What the application holds: the crate's index, plus what it keeps to move its points
    /// (their positions, or the crate's handles).
    type App;

    /// A known defect of the crate that makes the loop disagree with the model on some
    /// traces, named in [`ReferenceLoop::run`]'s error.
    const DEFECT: Option<&'static str> = None;

    /// The application's state from the peer after the setup (the crate's index moved out)
    /// and the setup's positions by ID; `None` when the crate's index does not hold every
    /// point.
    fn app(self, positions: &[[f32; D]]) -> Option<Self::App>;

    /// Runs `queries` in order: the points found and the wrapping sum of [`mix_query`] of
    /// each query's count and ID sum. Out of line, so every call runs the same machine code
    /// whatever the caller.
    fn query_all(app: &Self::App, queries: &[Query<D>]) -> (u64, u64);

    /// Applies `moves` in order, then whatever the crate needs before the next queries.
    fn move_all(app: &mut Self::App, moves: &[Move<D>]);

    /// Points the crate's index holds.
    fn held(app: &Self::App) -> u64;
}

impl<const D: usize> DirectIndex<D> for RStarTree<D> {
    /// The tree and the application's positions of its points (`remove` takes the entry).
    type App = (PointTree<D>, Vec<[f32; D]>);

    fn app(self, positions: &[[f32; D]]) -> Option<Self::App> {
        Some((self.into_tree()?, positions.to_vec()))
    }

    /// `RTree::locate_within_distance(centre, r * r)` per query, every entry as is.
    #[inline(never)]
    fn query_all((tree, _): &Self::App, queries: &[Query<D>]) -> (u64, u64) {
        let mut totals = (0, 0);
        for &(c, r) in queries {
            let (mut count, mut sum) = (0u64, 0u64);
            for e in tree.locate_within_distance(c, r * r) {
                count += 1;
                sum = sum.wrapping_add(u64::from(e.data));
            }
            answered(&mut totals, count, sum);
        }
        totals
    }

    /// `RTree::remove` of the entry at the old position, `insert` at the new one.
    #[inline(never)]
    fn move_all((tree, positions): &mut Self::App, moves: &[Move<D>]) {
        for &(id, p) in moves {
            let old = &mut positions[id as usize];
            // A miss leaves the tree's size off the model's: verification reports it.
            let _ = tree.remove(&PointEntry::new(*old, id));
            tree.insert(PointEntry::new(p, id));
            *old = p;
        }
    }

    fn held((tree, _): &Self::App) -> u64 {
        tree.size() as u64
    }
}

impl<const D: usize> DirectIndex<D> for KiddoTree<D> {
    /// The tree and the application's positions of its points (`remove` takes the point).
    type App = (PointKdTree<D>, Vec<[f32; D]>);

    const DEFECT: Option<&'static str> = Some(
        "a wrong answer of kiddo 5.3.3's KdTree that this suite found, not of the loop: it \
         misplaces points when a full bucket splits on an axis where 17 or more of its 32 \
         points share the smallest value, so its queries miss them (sp-clustered at 100K \
         points; impls/tests/integration/kiddo_split_defect.rs), and the kiddo peer's replay fails there \
         too",
    );

    fn app(self, positions: &[[f32; D]]) -> Option<Self::App> {
        Some((self.into_tree(), positions.to_vec()))
    }

    /// `KdTree::within_unsorted::<SquaredEuclidean>(&centre, pruning_radius(r))` per query,
    /// each result kept by its own `distance <= r * r`.
    #[inline(never)]
    fn query_all((tree, _): &Self::App, queries: &[Query<D>]) -> (u64, u64) {
        let mut totals = (0, 0);
        for &(c, r) in queries {
            let rr = r * r;
            let (mut count, mut sum) = (0u64, 0u64);
            for n in tree.within_unsorted::<Metric>(&c, pruning_radius(r)) {
                if n.distance <= rr {
                    count += 1;
                    sum = sum.wrapping_add(u64::from(n.item));
                }
            }
            answered(&mut totals, count, sum);
        }
        totals
    }

    /// `KdTree::remove(&old, id)`, then `add(&new, id)`.
    #[inline(never)]
    fn move_all((tree, positions): &mut Self::App, moves: &[Move<D>]) {
        for &(id, p) in moves {
            let old = &mut positions[id as usize];
            // 0 when the crate's split defect misplaced the point: the tree keeps it, and
            // verification reports the size.
            tree.remove(old, id);
            tree.add(&p, id);
            *old = p;
        }
    }

    fn held((tree, _): &Self::App) -> u64 {
        u64::from(tree.size())
    }
}

impl<const D: usize> DirectIndex<D> for KiddoStatic<D> {
    /// The tree, whose items are the points' IDs.
    type App = StaticKdTree<D>;

    fn app(self, _positions: &[[f32; D]]) -> Option<Self::App> {
        self.into_tree()
    }

    /// `ImmutableKdTree::within_unsorted::<SquaredEuclidean>(&centre, pruning_radius(r))` per
    /// query, each result kept by its own `distance <= r * r`.
    #[inline(never)]
    fn query_all(tree: &Self::App, queries: &[Query<D>]) -> (u64, u64) {
        let mut totals = (0, 0);
        for &(c, r) in queries {
            let rr = r * r;
            let (mut count, mut sum) = (0u64, 0u64);
            for n in tree.within_unsorted::<Metric>(&c, pruning_radius(r)) {
                if n.distance <= rr {
                    count += 1;
                    sum = sum.wrapping_add(u64::from(n.item));
                }
            }
            answered(&mut totals, count, sum);
        }
        totals
    }

    /// Never called: the tree is static, and [`DirectSpatial::for_trace`] refuses bodies with
    /// moves for it (a call would leave the points where they are, and fail verification).
    fn move_all(_tree: &mut Self::App, _moves: &[Move<D>]) {}

    fn held(tree: &Self::App) -> u64 {
        tree.size() as u64
    }
}

impl<const D: usize> DirectIndex<D> for FlatSpatialGrid<D> {
    /// The grid and the crate's handle of each point, by ID.
    type App = (PointGrid, Vec<PointGridHandle>);

    fn app(self, _positions: &[[f32; D]]) -> Option<Self::App> {
        let (grid, handles) = self.into_grid();
        Some((grid, handles.into_iter().collect::<Option<Vec<_>>>()?))
    }

    /// `Grid::query_around(centre, search_radius(r))` per query, each yielded position tested
    /// with [`within`], the ID read with `Grid::get(handle)`.
    #[inline(never)]
    fn query_all((grid, _): &Self::App, queries: &[Query<D>]) -> (u64, u64) {
        let mut totals = (0, 0);
        for &(c, r) in queries {
            let c = [c[0], c[1]];
            let (mut count, mut sum) = (0u64, 0u64);
            for (h, p) in grid.query_around(c, search_radius(r) as f32) {
                if within(&p, &c, r)
                    && let Some((_, &id)) = grid.get(h)
                {
                    count += 1;
                    sum = sum.wrapping_add(u64::from(id));
                }
            }
            answered(&mut totals, count, sum);
        }
        totals
    }

    /// `Grid::set_position(handle, new)` per move, then one `maintain()`.
    #[inline(never)]
    fn move_all((grid, handles): &mut Self::App, moves: &[Move<D>]) {
        for &(id, p) in moves {
            grid.set_position(handles[id as usize], [p[0], p[1]]);
        }
        if !moves.is_empty() {
            grid.maintain();
        }
    }

    fn held((grid, _): &Self::App) -> u64 {
        grid.len() as u64
    }
}

/// One frame of a body: its moves, then its queries (a query-only body is one frame).
#[derive(Debug, Clone, Default)]
struct Frame<const D: usize> {
    moves: Vec<Move<D>>,
    queries: Vec<Query<D>>,
}

/// The body's ops as frames; `None` for an op other than `Move` and `Query`, a radius whose
/// square overflows, or an empty body.
fn frames<const D: usize>(body: &[SpatialOp]) -> Option<Vec<Frame<D>>> {
    let mut frames = vec![Frame::<D>::default()];
    for &op in body {
        let last = frames.last_mut()?;
        match op {
            SpatialOp::Move(h, c) if last.queries.is_empty() => last.moves.push((h, c.first())),
            SpatialOp::Move(h, c) => frames.push(Frame {
                moves: vec![(h, c.first())],
                queries: Vec::new(),
            }),
            SpatialOp::Query(c, r) if !needs_full_scan(r.get()) => {
                last.queries.push((c.first(), r.get()));
            }
            _ => return None,
        }
    }
    (!body.is_empty()).then_some(frames)
}

/// The application's state and its body in `D` dimensions.
struct Direct<const D: usize, I: DirectIndex<D>> {
    /// The application's state, for a body of queries only (every pass runs on it); `None`
    /// for a body that moves points (every pass runs on a state built afresh).
    app: Option<I::App>,
    /// The setup's positions by ID (what the application starts from).
    positions: Vec<[f32; D]>,
    frames: Vec<Frame<D>>,
    /// `Query` ops in the body.
    queries: u64,
    /// `Move` ops in the body.
    moves: u64,
}

impl<const D: usize, I: DirectIndex<D>> Direct<D, I> {
    /// From the peer after the setup, the setup's inserts (point `k` is ID `k`) and the body.
    fn new(index: I, inserts: &[SpatialOp], body: &[SpatialOp]) -> Option<Self> {
        let positions = inserts
            .iter()
            .map(|op| match *op {
                SpatialOp::Insert(c) => Some(c.first::<D>()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let frames = frames::<D>(body)?;
        let count = |f: fn(&Frame<D>) -> usize| frames.iter().map(f).sum::<usize>() as u64;
        let moves = count(|f| f.moves.len());
        // Checked even for a moving body, whose passes build it afresh.
        let app = index.app(&positions)?;
        Some(Self {
            app: (moves == 0).then_some(app),
            positions,
            queries: count(|f| f.queries.len()),
            moves,
            frames,
        })
    }

    /// One timed pass of the body, on `fresh` (the peer built afresh from the setup, outside
    /// the timed region, as the replay of a moving body is) or on the state built once: the
    /// time inside it and the body's digest.
    fn pass(&self, fresh: Option<I>) -> Result<(Duration, SpatialDigest), String> {
        let (elapsed, (found, query_sum), held) = match (&self.app, fresh) {
            (Some(app), _) => {
                let start = Stopwatch::start();
                let mut totals = (0u64, 0u64);
                for frame in black_box(&self.frames) {
                    let (f, s) = I::query_all(black_box(app), &frame.queries);
                    totals = (totals.0 + f, totals.1.wrapping_add(s));
                }
                (start.elapsed(), totals, I::held(app))
            }
            (None, Some(index)) => {
                let mut app = index
                    .app(&self.positions)
                    .ok_or("the peer's index rebuilt from the setup does not hold every point")?;
                let start = Stopwatch::start();
                let mut totals = (0u64, 0u64);
                for frame in black_box(&self.frames) {
                    I::move_all(black_box(&mut app), &frame.moves);
                    let (f, s) = I::query_all(&app, &frame.queries);
                    totals = (totals.0 + f, totals.1.wrapping_add(s));
                }
                (start.elapsed(), totals, I::held(&app))
            }
            (None, None) => return Err("a moving body needs a state built afresh".into()),
        };
        let digest = SpatialDigest {
            queries: self.queries,
            found,
            query_sum,
            updates: self.moves,
            points_held: held,
        };
        Ok((elapsed, digest))
    }
}

/// The body in the trace's dimension.
enum Dims<I2: DirectIndex<2>, I3: DirectIndex<3>> {
    Two(Direct<2, I2>),
    Three(Direct<3, I3>),
}

/// A query (or frame) body run by the crate of peer `I2` / `I3` directly
/// (`ref-direct-<peer>`, see the [module docs](self)).
pub struct DirectSpatial<I2: DirectIndex<2>, I3: DirectIndex<3>> {
    body: Dims<I2, I3>,
    /// For a body that moves points: the trace's setup (with no body), which the peer replays
    /// before every pass.
    rebuild: Option<Trace<SpatialOp>>,
    /// The model's body digest.
    expected: SpatialDigest,
}

impl<I2: DirectIndex<2>, I3: DirectIndex<3>> ReferenceLoop for DirectSpatial<I2, I3> {
    type Family = SpatialFamily;
    const MIRRORS: Option<&'static str> = Some(I2::INFO.meta.name);

    /// For a trace whose setup is its `Space` and inserts and whose body is `Query` ops, or
    /// frames of `Move`s then `Query`s; `None` otherwise, or if the peer cannot run the trace.
    fn for_trace(trace: &Trace<SpatialOp>, expected: &SpatialDigest) -> Option<Self> {
        type Peer<I2, I3> = SpatialReplay<I2, I3>;
        let stats = trace.validate().ok()?;
        if Peer::<I2, I3>::unsupported_before(&stats).is_some()
            || Peer::<I2, I3>::unsupported_trace(trace).is_some()
        {
            return None;
        }
        let inserts = trace.setup.get(1..)?;
        let moves = trace
            .body
            .iter()
            .any(|op| matches!(op, SpatialOp::Move(..)));
        if moves {
            // The peer must accept every move (kiddo refuses a 33rd point at one position,
            // where its `add` would panic).
            Peer::<I2, I3>::after_setup(trace)
                .ok()?
                .replay(&trace.body)
                .ok()?;
        }
        let body = match Peer::<I2, I3>::after_setup(trace).ok()?.index {
            Built::Two(index) => Dims::Two(Direct::new(index, inserts, &trace.body)?),
            Built::Three(index) => Dims::Three(Direct::new(index, inserts, &trace.body)?),
            Built::Empty => return None,
        };
        Some(Self {
            body,
            rebuild: moves.then(|| Trace {
                header: trace.header.clone(),
                setup: trace.setup.clone(),
                body: Vec::new(),
            }),
            expected: *expected,
        })
    }

    /// Times `iters` runs of the body (a moving body's each on the peer's state built afresh
    /// from the setup, outside the timed region).
    ///
    /// # Errors
    /// The body's digest differs from the model's (for `kiddo`, naming the crate's defect).
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let fresh = match &self.rebuild {
                Some(setup) => Some(
                    SpatialReplay::<I2, I3>::after_setup(setup)
                        .map_err(|e| e.to_string())?
                        .index,
                ),
                None => None,
            };
            let ((elapsed, digest), defect) = match (&self.body, fresh) {
                (Dims::Two(body), None) => (body.pass(None)?, I2::DEFECT),
                (Dims::Two(body), Some(Built::Two(index))) => (body.pass(Some(index))?, I2::DEFECT),
                (Dims::Three(body), None) => (body.pass(None)?, I3::DEFECT),
                (Dims::Three(body), Some(Built::Three(index))) => {
                    (body.pass(Some(index))?, I3::DEFECT)
                }
                _ => return Err("the setup rebuilt in another dimension".into()),
            };
            total += elapsed;
            let e = self.expected;
            if black_box(digest) != e {
                return Err(format!(
                    "{} called directly found {} points in {} queries (sum {:#x}) and held {} \
                     after {} moves; the model found {} points in {} queries (sum {:#x}) and \
                     held {} after {} moves{}",
                    I2::INFO.meta.name,
                    digest.found,
                    digest.queries,
                    digest.query_sum,
                    digest.points_held,
                    digest.updates,
                    e.found,
                    e.queries,
                    e.query_sum,
                    e.points_held,
                    e.updates,
                    defect.map_or(String::new(), |d| format!("; {d}")),
                ));
            }
        }
        Ok(total)
    }
}

/// `ref-direct-rstar`.
pub type DirectRStar = DirectSpatial<RStarTree<2>, RStarTree<3>>;
/// `ref-direct-kiddo`.
pub type DirectKiddo = DirectSpatial<KiddoTree<2>, KiddoTree<3>>;
/// `ref-direct-kiddo_static`.
pub type DirectKiddoStatic = DirectSpatial<KiddoStatic<2>, KiddoStatic<3>>;
/// `ref-direct-flat_spatial`.
pub type DirectFlatSpatial = DirectSpatial<FlatSpatialGrid<2>, FlatSpatialGrid<3>>;

#[cfg(test)]
mod tests {
    use workloads::spatial::Coords;

    use super::*;
    use crate::replay::testing::{check_mirroring_loop, expected_body, trace_with};
    use crate::suite::DEFAULT_SEED;
    use crate::verify::Expected;

    fn trace(workload: &str, n: usize) -> Trace<SpatialOp> {
        trace_with(workload, n, None)
    }

    /// Checks loop `L` on `workload`: `None` when `covered` is false; otherwise equal to the
    /// model, and a corrupted expectation fails.
    fn check<L: ReferenceLoop<Family = SpatialFamily>>(workload: &str, covered: bool) {
        let trace = trace(workload, 1_000);
        let looped = L::for_trace(&trace, &expected_body::<L>(&trace));
        assert_eq!(looped.is_some(), covered, "{} on {workload}", L::name());
        if covered {
            check_mirroring_loop::<L>(
                &trace,
                &[
                    |d| d.query_sum ^= 1,
                    |d| d.found += 1,
                    |d| d.points_held += 1,
                ],
                "called directly",
            );
        }
    }

    /// Every `ref-direct-<peer>` loop finds what the model finds on the query bodies it
    /// covers, and the frames of `sp-moving` where the peer moves points.
    #[test]
    fn direct_loops_answer_like_the_model() {
        for workload in [
            "sp-uniform",
            "sp-clustered",
            "sp-large-radius",
            "sp-3d",
            "sp-moving",
        ] {
            check::<DirectRStar>(workload, true);
            check::<DirectKiddo>(workload, true);
            check::<DirectKiddoStatic>(workload, workload != "sp-moving");
            check::<DirectFlatSpatial>(workload, workload != "sp-3d");
        }
        assert_eq!(DirectRStar::name(), "ref-direct-rstar");
        assert_eq!(DirectKiddoStatic::MIRRORS, Some("kiddo_static"));
        assert_eq!(DirectFlatSpatial::MIRRORS, Some("flat_spatial"));
    }

    /// Bodies with inserts or removes have no loop.
    #[test]
    fn other_bodies_have_no_loop() {
        let mut trace = trace("sp-uniform", 300);
        for op in [
            SpatialOp::Remove(3),
            SpatialOp::Insert(Coords::xy(1.0, 2.0)),
        ] {
            let mut other = trace.clone();
            other.body.push(op);
            let expected = Expected::<SpatialFamily>::of(&other).unwrap();
            assert!(DirectRStar::for_trace(&other, &expected.body).is_none());
            assert!(DirectFlatSpatial::for_trace(&other, &expected.body).is_none());
        }
        trace.body.clear();
        let expected = Expected::<SpatialFamily>::of(&trace).unwrap();
        assert!(DirectKiddo::for_trace(&trace, &expected.body).is_none());
    }

    /// The bench's own `sp-clustered` at 100K: the direct `kiddo` loop misses points as the
    /// crate's split defect makes it (an error naming the defect, no panic); the static tree
    /// finds them all.
    #[test]
    fn direct_kiddo_reports_the_crates_split_defect_on_sp_clustered_at_100k() {
        let trace = workloads::registry::generate_for::<SpatialOp>(
            "sp-clustered",
            100_000,
            DEFAULT_SEED,
            None,
        )
        .unwrap();
        let expected = Expected::<SpatialFamily>::of(&trace).unwrap();
        let error = DirectKiddo::for_trace(&trace, &expected.body)
            .expect("a query body")
            .run(1)
            .unwrap_err();
        println!("{error}");
        assert!(
            error.contains("found 8164 points") && error.contains("the model found 8167 points"),
            "{error}"
        );
        assert!(error.contains("kiddo_split_defect.rs"), "{error}");
        DirectKiddoStatic::for_trace(&trace, &expected.body)
            .expect("a query body")
            .run(1)
            .unwrap();
    }
}
