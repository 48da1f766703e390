//! The family's reference loops, verified like a replay:
//!
//! * [`DirectIndexTree`] (`ref-direct-indextree`): the frame bodies written against
//!   `indextree` itself, no [`TransformStore`] in between: the peer's `Arena` after the
//!   trace's setup (built untimed by the peer's replay, so the same nodes, links and
//!   transforms, with the crate's own `NodeId`s), over a plain `Vec` of the body's ops as the
//!   application holds them (node ids, poses). A local-transform edit writes
//!   `arena[id].get_mut().local` (the pose turned into its matrix inside the timed loop, as
//!   the replay does) and recomputes the moved subtree's worlds immediately, as the crate's
//!   docs show a traversal: `id.descendants(&arena)` gathered into a reused `Vec` (pre-order,
//!   parents first; the arena cannot be written while the iterator borrows it), then per node
//!   `arena[d].parent()`, the parent's world and `get_mut()` to store `local * parent_world`.
//!   A world read is `arena[id].get().world`. Covers bodies of `SetLocal`, `BatchLocal` /
//!   `ApplyBatch` (a batch applied entry by entry, as the adapter and the family's default
//!   `set_local_batch` do), `EndFrame` (nothing to do for an immediate update) and `GetWorld`:
//!   `xf-sparse-1pct`, `xf-root-move`, `xf-persistent-movers`, `xf-chain-all`,
//!   `xf-chain-all-5`, `xf-chain-all-1024`, `xf-chain-all-batch` (each run on a copy of the
//!   arena made before each timed pass, outside the timed region) and `xf-query` (reads
//!   only, on the arena built once); `None` for bodies that change the structure (`Create`,
//!   `Destroy`, `SetParent`: `xf-reparent-churn`) and for traces the peer does not run (above
//!   its cap of world products). [`ReferenceLoop::mirrors`] names the peer, so the results'
//!   `overhead` (replay ÷ this loop) is what the replay driver and the adapter add to the
//!   crate. Verified: the reads, the wrapping sum of [`mix_world`] over them and the live
//!   nodes after the body must equal the model's.

use std::hint::black_box;
use std::time::{Duration, Instant};

use impls::transforms::peers::indextree::{IndexTreePeer, TransformArena};
use impls::transforms::{Affine, TransformStore, world_of};
use workloads::transforms::NodeHandle;
use workloads::{Trace, TransformOp};

use super::{TransformDigest, TransformFamily, TransformReplay, mix_world};
use crate::replay::{ReferenceLoop, Replayer};

/// The crate's node id.
type NodeId = <IndexTreePeer as TransformStore>::Id;

/// An op of a frame body as the application holds it.
#[derive(Debug, Clone, Copy)]
enum FrameOp {
    /// A new local transform for the node (its pose), then the subtree's worlds.
    SetLocal(NodeId, u32),
    /// A world read: the handle (for the digest) and the node.
    GetWorld(NodeHandle, NodeId),
}

/// The body, pre-decoded.
enum Body {
    /// World reads only: run on the arena built once.
    Reads(Vec<(NodeHandle, NodeId)>),
    /// Local edits and reads: run on a fresh copy of the arena per pass.
    Frames(Vec<FrameOp>),
}

/// Runs a frame body on `arena`: the reads and the wrapping sum of [`mix_world`] over them.
/// `order` is the reused traversal buffer. Out of line, so every call runs the same machine
/// code whatever the caller.
#[inline(never)]
fn run_frames(arena: &mut TransformArena, ops: &[FrameOp], order: &mut Vec<NodeId>) -> (u64, u64) {
    let (mut reads, mut sum) = (0u64, 0u64);
    for op in ops {
        match *op {
            FrameOp::SetLocal(id, pose) => {
                arena[id].get_mut().local = Affine::from_pose(pose);
                order.clear();
                order.extend(id.descendants(arena));
                for &d in order.iter() {
                    let parent_world = arena[d].parent().map(|p| arena[p].get().world);
                    let node = arena[d].get_mut();
                    node.world = world_of(&node.local, parent_world.as_ref());
                }
            }
            FrameOp::GetWorld(h, id) => {
                reads += 1;
                sum = sum.wrapping_add(mix_world(h, &arena[id].get().world));
            }
        }
    }
    (reads, sum)
}

/// Runs a read body on `arena`: as [`run_frames`].
#[inline(never)]
fn run_reads(arena: &TransformArena, reads: &[(NodeHandle, NodeId)]) -> (u64, u64) {
    let mut sum = 0u64;
    for &(h, id) in reads {
        sum = sum.wrapping_add(mix_world(h, &arena[id].get().world));
    }
    (reads.len() as u64, sum)
}

/// Live nodes of `arena` (its count includes removed slots).
fn live_nodes(arena: &TransformArena) -> u64 {
    arena.iter().filter(|n| !n.is_removed()).count() as u64
}

/// A frame body run by `indextree` directly (`ref-direct-indextree`, see the
/// [module docs](self)).
pub struct DirectIndexTree {
    /// The peer's arena after the setup.
    arena: TransformArena,
    /// The body.
    body: Body,
    /// The largest subtree a local edit moves: the traversal buffer's capacity, reserved
    /// before timing.
    largest_subtree: usize,
    /// The model's reads, their sum and the live nodes after the body.
    expected: (u64, u64, u64),
}

impl DirectIndexTree {
    /// Checks one pass's answers and live nodes against the model's.
    fn check(&self, answers: (u64, u64), live: u64) -> Result<(), String> {
        let got = (answers.0, answers.1, live);
        if black_box(got) != self.expected {
            return Err(format!(
                "indextree called directly read {} worlds (sum {:#x}) with {} live nodes, the model {} (sum {:#x}) with {}",
                got.0, got.1, got.2, self.expected.0, self.expected.1, self.expected.2
            ));
        }
        Ok(())
    }
}

impl ReferenceLoop for DirectIndexTree {
    type Family = TransformFamily;

    fn name() -> String {
        format!("ref-direct-{}", IndexTreePeer::INFO.meta.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(IndexTreePeer::INFO.meta.name)
    }

    /// For a trace whose body is `SetLocal`, `BatchLocal`, `ApplyBatch`, `EndFrame` and
    /// `GetWorld` ops on live nodes; `None` otherwise, or if the peer cannot run the trace
    /// (its cap of world products) or refuses the setup.
    fn for_trace(trace: &Trace<TransformOp>, expected: &TransformDigest) -> Option<Self> {
        let stats = trace.validate().ok()?;
        if TransformReplay::<IndexTreePeer>::unsupported_before(&stats).is_some() {
            return None;
        }
        let mut peer = TransformReplay::<IndexTreePeer>::after_setup(trace).ok()?;
        let nodes = peer.handles().ids().to_vec();
        let arena = peer.store.arena().clone();
        drop(peer);
        let node = |h: NodeHandle| {
            let id = *nodes.get(h as usize)?;
            arena.get(id).filter(|n| !n.is_removed()).map(|_| id)
        };

        let (mut ops, mut batch) = (Vec::with_capacity(trace.body.len()), Vec::new());
        for &op in &trace.body {
            match op {
                TransformOp::SetLocal { node: h, pose } => {
                    ops.push(FrameOp::SetLocal(node(h)?, pose));
                }
                TransformOp::BatchLocal { node: h, pose } => {
                    batch.push(FrameOp::SetLocal(node(h)?, pose));
                }
                TransformOp::ApplyBatch => ops.append(&mut batch),
                TransformOp::EndFrame => {}
                TransformOp::GetWorld(h) => ops.push(FrameOp::GetWorld(h, node(h)?)),
                TransformOp::Create { .. }
                | TransformOp::Destroy(_)
                | TransformOp::SetParent { .. } => return None,
            }
        }
        if ops.is_empty() || !batch.is_empty() {
            return None;
        }
        let largest_subtree = ops
            .iter()
            .filter_map(|op| match *op {
                FrameOp::SetLocal(id, _) => Some(id.descendants(&arena).count()),
                FrameOp::GetWorld(..) => None,
            })
            .max()
            .unwrap_or(0);
        let body = if largest_subtree == 0 {
            Body::Reads(
                ops.iter()
                    .filter_map(|op| match *op {
                        FrameOp::GetWorld(h, id) => Some((h, id)),
                        FrameOp::SetLocal(..) => None,
                    })
                    .collect(),
            )
        } else {
            Body::Frames(ops)
        };
        Some(Self {
            arena,
            body,
            largest_subtree,
            expected: (expected.reads, expected.world_sum, expected.live),
        })
    }

    /// Times `iters` runs of the body (a body with local edits on a copy of the arena made
    /// outside the timed region).
    ///
    /// # Errors
    /// The reads, their sum or the live nodes after the body differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            match &self.body {
                Body::Reads(reads) => {
                    let start = Instant::now();
                    let answers = run_reads(black_box(&self.arena), black_box(reads));
                    total += start.elapsed();
                    self.check(answers, live_nodes(&self.arena))?;
                }
                Body::Frames(ops) => {
                    let mut arena = self.arena.clone();
                    let mut order = Vec::with_capacity(self.largest_subtree);
                    let start = Instant::now();
                    let answers = run_frames(black_box(&mut arena), black_box(ops), &mut order);
                    total += start.elapsed();
                    self.check(answers, live_nodes(&arena))?;
                }
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Expected;

    fn trace(workload: &str) -> Trace<TransformOp> {
        workloads::registry::generate_for::<TransformOp>(workload, 300, 7, None).unwrap()
    }

    /// `ref-direct-indextree` reads the model's worlds on every frame and read body, fails a
    /// corrupted expectation and has no loop for bodies that change the structure.
    #[test]
    fn direct_indextree_reads_the_models_worlds() {
        for workload in [
            "xf-sparse-1pct",
            "xf-root-move",
            "xf-persistent-movers",
            "xf-chain-all",
            "xf-chain-all-5",
            "xf-chain-all-1024",
            "xf-chain-all-batch",
            "xf-query",
        ] {
            let trace = trace(workload);
            let expected = Expected::<TransformFamily>::of(&trace).unwrap();
            let looped = DirectIndexTree::for_trace(&trace, &expected.body)
                .unwrap_or_else(|| panic!("no loop for {workload}"));
            assert_eq!(
                matches!(looped.body, Body::Reads(_)),
                workload == "xf-query",
                "{workload}"
            );
            looped.run(2).unwrap_or_else(|e| panic!("{workload}: {e}"));
            for k in 0..3 {
                let mut wrong = DirectIndexTree::for_trace(&trace, &expected.body).unwrap();
                match k {
                    0 => wrong.expected.0 += 1,
                    1 => wrong.expected.1 ^= 1,
                    _ => wrong.expected.2 += 1,
                }
                assert!(wrong.run(1).is_err(), "{workload}");
            }
        }
        assert_eq!(DirectIndexTree::mirrors(), Some("indextree"));
        let churn = trace("xf-reparent-churn");
        let expected = Expected::<TransformFamily>::of(&churn).unwrap();
        assert!(DirectIndexTree::for_trace(&churn, &expected.body).is_none());
    }

    /// A trace the peer does not run (above its cap of world products) has no loop.
    #[test]
    fn traces_beyond_the_peers_cap_have_no_loop() {
        let chains =
            workloads::registry::generate_for::<TransformOp>("xf-chain-all-1024", 20_000, 7, None)
                .unwrap();
        let expected = Expected::<TransformFamily>::of(&chains).unwrap();
        assert!(DirectIndexTree::for_trace(&chains, &expected.body).is_none());
    }
}
