//! The standalone program `dodbench shrink` writes for the `kiddo` peer
//! ([`Family::standalone_repro`](crate::replay::Family::standalone_repro)): the shrunk trace's
//! points and ops as Rust data, replayed on `kiddo`'s mutable `KdTree` with exactly the calls the
//! peer makes (`impls/src/spatial/peers/kiddo.rs`: `with_capacity` for the setup's inserts,
//! `add`, `remove(point, id)`, a move as remove then add, `within_unsorted` at the peer's
//! widened radius keeping each result by its own `distance`), and compared with a brute-force
//! scan of the live points by the family's distance. It prints every query whose answer
//! differs and every removal that found nothing, and exits with status 1 if there was one.
//!
//! `docs/upstream/kiddo-split/` holds the program generated from the kiddo failure on
//! `sp-clustered`; `cli/tests/integration/shrink_cli.rs` keeps it equal to what this writes.

use impls::DesignKind;
use impls::spatial::SpatialIndex;
use impls::spatial::peers::kiddo::{BUCKET, KiddoTree};
use workloads::Trace;
use workloads::spatial::{Coords, SpatialOp};

use crate::replay::StandaloneRepro;

/// The program for design `design` on `trace`, if `design` is the `kiddo` peer.
pub(super) fn standalone_repro(design: &str, trace: &Trace<SpatialOp>) -> Option<StandaloneRepro> {
    let info = <KiddoTree<2> as SpatialIndex<2>>::INFO;
    if design != info.meta.name {
        return None;
    }
    let DesignKind::Peer {
        crate_name,
        version,
        ..
    } = info.meta.kind
    else {
        return None;
    };
    let dims = trace
        .setup
        .iter()
        .chain(&trace.body)
        .find_map(|op| match op {
            SpatialOp::Space { dims, .. } => Some(*dims as usize),
            _ => None,
        })?;
    Some(StandaloneRepro {
        cargo_toml: cargo_toml(crate_name, version),
        main_rs: main_rs(trace, dims, version),
    })
}

fn cargo_toml(crate_name: &str, version: &str) -> String {
    format!(
        "[package]\n\
         name = \"{crate_name}-repro\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         {crate_name} = \"={version}\"\n\
         \n\
         # Its own workspace, so the program builds wherever it is copied.\n\
         [workspace]\n"
    )
}

/// A coordinate as Rust source that reads back to the same bits.
fn float(v: f32) -> String {
    if v.is_finite() {
        format!("{v:?}")
    } else {
        format!("f32::from_bits({:#010x})", v.to_bits())
    }
}

fn point(c: Coords, dims: usize) -> String {
    let p = c.get();
    let parts: Vec<String> = p[..dims].iter().map(|&v| float(v)).collect();
    format!("[{}]", parts.join(", "))
}

/// The trace's ops after its `Space`, one Rust `Op` per line.
fn ops_source(trace: &Trace<SpatialOp>, dims: usize) -> String {
    let mut out = String::new();
    for op in trace.setup.iter().chain(&trace.body) {
        let line = match *op {
            SpatialOp::Space { .. } => continue,
            SpatialOp::Insert(c) => format!("Insert({})", point(c, dims)),
            SpatialOp::Remove(h) => format!("Remove({h})"),
            SpatialOp::Move(h, c) => format!("Move({h}, {})", point(c, dims)),
            SpatialOp::Query(c, r) => format!("Query({}, {})", point(c, dims), float(r.get())),
        };
        out.push_str("    ");
        out.push_str(&line);
        out.push_str(",\n");
    }
    out
}

fn main_rs(trace: &Trace<SpatialOp>, dims: usize, version: &str) -> String {
    let setup_inserts = trace
        .setup
        .iter()
        .filter(|op| matches!(op, SpatialOp::Insert(_)))
        .count();
    let ops = ops_source(trace, dims);
    let count = trace.setup.len() + trace.body.len() - 1;
    format!(
        r#"//! kiddo {version}: its mutable `KdTree` gives wrong answers on the {count} ops below, a trace
//! dodbench shrank from a failed verification (`dodbench shrink`). The ops are replayed with
//! exactly the calls dodbench's kiddo peer makes, and every query is compared with a
//! brute-force scan of the live points. Run it with `cargo run --release`: it prints each
//! query whose answer differs and each removal that found nothing, and exits with status 1
//! if there was one.
//!
//! Point IDs are the order of the inserts (the first insert is point 0). A move is a remove
//! then an add, as the peer does it. A query keeps the tree's results whose own `distance`
//! is at most `r * r` (kiddo's `SquaredEuclidean` sums `(a - b) * (a - b)` from 0 in axis order
//! in `f32`, the same sum as `dist2` below), after asking the tree for a radius widened by a
//! few ulps, because kiddo's pruning sums the offsets in another order.

use kiddo::SquaredEuclidean;
use kiddo::float::kdtree::KdTree;

const D: usize = {dims};
/// Inserts before the first other op: the tree is made `with_capacity` for them.
const SETUP_INSERTS: usize = {setup_inserts};

#[allow(dead_code)] // a trace may not use every kind of op
#[derive(Debug, Clone, Copy)]
enum Op {{
    Insert([f32; D]),
    Remove(u32),
    Move(u32, [f32; D]),
    Query([f32; D], f32),
}}
use Op::*;

const OPS: &[Op] = &[
{ops}];

fn dist2(a: &[f32; D], b: &[f32; D]) -> f32 {{
    let mut sum = 0.0f32;
    for (x, y) in a.iter().zip(b) {{
        let d = x - y;
        sum += d * d;
    }}
    sum
}}

/// The squared radius the tree is asked for: `r` widened by 2^-20 of itself and 1e-20, squared
/// in `f64`, plus 1e-6 of that.
fn pruning_radius(r: f32) -> f32 {{
    let w = f64::from(r).abs() * (1.0 + 1.0 / (1u64 << 20) as f64) + 1e-20;
    (w * w) as f32 * (1.0 + 1e-6)
}}

fn main() {{
    let mut tree: KdTree<f32, u32, D, {BUCKET}, u32> = KdTree::with_capacity(SETUP_INSERTS);
    let mut live: Vec<Option<[f32; D]>> = Vec::new();
    let mut wrong = 0;
    for (i, op) in OPS.iter().enumerate() {{
        match *op {{
            Insert(p) => {{
                tree.add(&p, live.len() as u32);
                live.push(Some(p));
            }}
            Remove(id) | Move(id, _) => {{
                let old = live[id as usize].take().expect("the trace removes live points only");
                let removed = tree.remove(&old, id);
                if removed != 1 {{
                    println!("op {{i}}: remove(point {{id}} at {{old:?}}) removed {{removed}} entries, expected 1");
                    wrong += 1;
                }}
                if let Move(_, p) = *op {{
                    tree.add(&p, id);
                    live[id as usize] = Some(p);
                }}
            }}
            Query(center, r) => {{
                let rr = r * r;
                let mut found: Vec<u32> = tree
                    .within_unsorted::<SquaredEuclidean>(&center, pruning_radius(r))
                    .into_iter()
                    .filter(|n| n.distance <= rr)
                    .map(|n| n.item)
                    .collect();
                found.sort_unstable();
                let within: Vec<u32> = (0..live.len() as u32)
                    .filter(|&id| live[id as usize].is_some_and(|p| dist2(&p, &center) <= rr))
                    .collect();
                if found != within {{
                    let missed: Vec<(u32, [f32; D])> = within
                        .iter()
                        .filter(|id| found.binary_search(id).is_err())
                        .map(|&id| (id, live[id as usize].unwrap()))
                        .collect();
                    let extra: Vec<&u32> =
                        found.iter().filter(|id| within.binary_search(id).is_err()).collect();
                    println!(
                        "op {{i}}: within_unsorted of {{center:?}}, r = {{r}}: kiddo found {{}} points, {{}} are within; missed {{missed:?}}; extra {{extra:?}}",
                        found.len(),
                        within.len()
                    );
                    wrong += 1;
                }}
            }}
        }}
    }}
    if wrong > 0 {{
        println!("kiddo {version}: {{wrong}} wrong answers over {{}} ops", OPS.len());
        std::process::exit(1);
    }}
    println!("kiddo {version}: all {{}} ops answered as the brute-force scan", OPS.len());
}}
"#
    )
}
