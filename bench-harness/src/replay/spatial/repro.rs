//! The standalone program `dodbench shrink` writes for the `kiddo` peer (`kiddo_repro.rs.in`, its
//! `@NAME@` fields filled in here)
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

use crate::replay::contract::StandaloneRepro;

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
    include_str!("kiddo_repro.rs.in")
        .replace("@VERSION@", version)
        .replace("@COUNT@", &count.to_string())
        .replace("@DIMS@", &dims.to_string())
        .replace("@SETUP_INSERTS@", &setup_inserts.to_string())
        .replace("@BUCKET@", &BUCKET.to_string())
        .replace("@OPS@", &ops)
}
