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
//! * [`DirectDesign`] (`ref-direct-immediate_iterative`): the same bodies on our article
//!   design `immediate_iterative` (an immediate update like indextree's), its
//!   [`TransformStore`] methods called directly as an application holding the store calls
//!   them: `set_local` per edit, `set_local_batch` per batch (its entries gathered before
//!   timing), `end_frame`, `world` per read, over a plain `Vec` of the body's ops (the store's
//!   ids, poses). Its overhead is the replay driver's alone (no adapter), what every design of
//!   the family pays, so indextree's above it is its adapter's. Verified like the loop above.

use std::hint::black_box;
use std::time::Duration;

use impls::transforms::immediate_iterative::ImmediateIterative;
use impls::transforms::peers::indextree::{IndexTreePeer, TransformArena};
use impls::transforms::{Affine, TransformStore, world_of};
use workloads::transforms::NodeHandle;
use workloads::{Trace, TransformOp};

use super::{TransformDigest, TransformFamily, TransformReplay, mix_world};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer};

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
                    let start = Stopwatch::start();
                    let answers = run_reads(black_box(&self.arena), black_box(reads));
                    total += start.elapsed();
                    self.check(answers, live_nodes(&self.arena))?;
                }
                Body::Frames(ops) => {
                    let mut arena = self.arena.clone();
                    let mut order = Vec::with_capacity(self.largest_subtree);
                    let start = Stopwatch::start();
                    let answers = run_frames(black_box(&mut arena), black_box(ops), &mut order);
                    total += start.elapsed();
                    self.check(answers, live_nodes(&arena))?;
                }
            }
        }
        Ok(total)
    }
}

/// An op of a frame body as an application holding a [`TransformStore`] holds it.
#[derive(Debug, Clone)]
enum StoreOp<Id> {
    /// `set_local` of the node's new pose.
    SetLocal(Id, u32),
    /// `set_local_batch` of the entries (poses turned into matrices inside the timed loop).
    Batch(Vec<(Id, u32)>),
    /// `end_frame`.
    EndFrame,
    /// `world` of the node: the handle (for the digest) and the node.
    GetWorld(NodeHandle, Id),
}

/// Runs a body on `store` through its own methods: the reads and the wrapping sum of
/// [`mix_world`] over them, or the first refusal. `batch` is the reused buffer a batch's
/// matrices go to. Out of line, as [`run_frames`].
#[inline(never)]
fn run_store<S: TransformStore>(
    store: &mut S,
    ops: &[StoreOp<S::Id>],
    batch: &mut Vec<(S::Id, Affine)>,
) -> Result<(u64, u64), String> {
    let (mut reads, mut sum) = (0u64, 0u64);
    for op in ops {
        match op {
            StoreOp::SetLocal(id, pose) => store
                .set_local(*id, Affine::from_pose(*pose))
                .map_err(|e| e.to_string())?,
            StoreOp::Batch(entries) => {
                batch.clear();
                batch.extend(
                    entries
                        .iter()
                        .map(|&(id, pose)| (id, Affine::from_pose(pose))),
                );
                store.set_local_batch(batch).map_err(|e| e.to_string())?;
            }
            StoreOp::EndFrame => store.end_frame(),
            StoreOp::GetWorld(h, id) => {
                let world = store.world(*id).map_err(|e| e.to_string())?;
                reads += 1;
                sum = sum.wrapping_add(mix_world(*h, &world));
            }
        }
    }
    Ok((reads, sum))
}

/// A frame body run on design `S` through its own methods (`ref-direct-<design>`, see the
/// [module docs](self)).
pub struct DirectDesign<S: TransformStore> {
    /// The design after the setup (copied before each pass of a body that writes).
    store: S,
    /// The body, decoded.
    ops: Vec<StoreOp<S::Id>>,
    /// Whether the body only reads (then it runs on `store` itself).
    reads_only: bool,
    /// The longest batch: the matrix buffer's capacity, reserved before timing.
    longest_batch: usize,
    /// The model's reads, their sum and the live nodes after the body.
    expected: (u64, u64, u64),
}

impl<S: TransformStore + Clone + 'static> DirectDesign<S> {
    /// One pass on `store`: its answers checked against the model's, and the time of the body.
    fn pass(&self, store: &mut S) -> Result<Duration, String> {
        let mut batch = Vec::with_capacity(self.longest_batch);
        let start = Stopwatch::start();
        let answers = run_store(black_box(store), black_box(&self.ops), &mut batch);
        let elapsed = start.elapsed();
        let (reads, sum) = answers.map_err(|e| format!("{} refused: {e}", S::INFO.meta.name))?;
        let got = (reads, sum, store.len() as u64);
        if black_box(got) != self.expected {
            return Err(format!(
                "{} called directly read {} worlds (sum {:#x}) with {} live nodes, the model {} (sum {:#x}) with {}",
                S::INFO.meta.name,
                got.0,
                got.1,
                got.2,
                self.expected.0,
                self.expected.1,
                self.expected.2
            ));
        }
        Ok(elapsed)
    }
}

impl<S: TransformStore + Clone + 'static> ReferenceLoop for DirectDesign<S> {
    type Family = TransformFamily;

    fn name() -> String {
        format!("ref-direct-{}", S::INFO.meta.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(S::INFO.meta.name)
    }

    /// For a trace whose body is `SetLocal`, `BatchLocal`, `ApplyBatch`, `EndFrame` and
    /// `GetWorld` ops, as [`DirectIndexTree`]; `None` otherwise, or if the design cannot run
    /// the trace or refuses the setup.
    fn for_trace(trace: &Trace<TransformOp>, expected: &TransformDigest) -> Option<Self> {
        let stats = trace.validate().ok()?;
        if TransformReplay::<S>::unsupported_before(&stats).is_some() {
            return None;
        }
        let mut replay = TransformReplay::<S>::after_setup(trace).ok()?;
        let nodes = replay.handles().ids().to_vec();
        let node = |h: NodeHandle| nodes.get(h as usize).copied();
        let (mut ops, mut batch) = (Vec::with_capacity(trace.body.len()), Vec::new());
        let mut longest_batch = 0;
        for &op in &trace.body {
            ops.push(match op {
                TransformOp::SetLocal { node: h, pose } => StoreOp::SetLocal(node(h)?, pose),
                TransformOp::BatchLocal { node: h, pose } => {
                    batch.push((node(h)?, pose));
                    continue;
                }
                TransformOp::ApplyBatch => {
                    longest_batch = longest_batch.max(batch.len());
                    StoreOp::Batch(std::mem::take(&mut batch))
                }
                TransformOp::EndFrame => StoreOp::EndFrame,
                TransformOp::GetWorld(h) => StoreOp::GetWorld(h, node(h)?),
                TransformOp::Create { .. }
                | TransformOp::Destroy(_)
                | TransformOp::SetParent { .. } => return None,
            });
        }
        if ops.is_empty() || !batch.is_empty() {
            return None;
        }
        let reads_only = ops
            .iter()
            .all(|op| matches!(op, StoreOp::GetWorld(..) | StoreOp::EndFrame));
        Some(Self {
            store: std::mem::replace(&mut replay.store, S::new()),
            ops,
            reads_only,
            longest_batch,
            expected: (expected.reads, expected.world_sum, expected.live),
        })
    }

    /// Times `iters` passes of the body (a body that writes on a copy of the store made
    /// outside the timed region; a read-only one on a copy made once).
    ///
    /// # Errors
    /// The design refused an op, or the reads, their sum or the live nodes after the body
    /// differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        let mut kept = self.reads_only.then(|| self.store.clone());
        for _ in 0..iters {
            total += match kept.as_mut() {
                Some(store) => self.pass(store)?,
                None => self.pass(&mut self.store.clone())?,
            };
        }
        Ok(total)
    }
}

/// `ref-direct-immediate_iterative`: our article design called directly, the driver's share.
pub type DirectImmediateIterative = DirectDesign<ImmediateIterative>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Expected;

    fn trace(workload: &str) -> Trace<TransformOp> {
        workloads::registry::generate_for::<TransformOp>(workload, 300, 7, None).unwrap()
    }

    /// `ref-direct-indextree` and `ref-direct-immediate_iterative` read the model's worlds on
    /// every frame and read body, fail a corrupted expectation and have no loop for bodies
    /// that change the structure.
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
            let own = DirectImmediateIterative::for_trace(&trace, &expected.body)
                .unwrap_or_else(|| panic!("no loop of our design for {workload}"));
            assert_eq!(own.reads_only, workload == "xf-query", "{workload}");
            own.run(2).unwrap_or_else(|e| panic!("{workload}: {e}"));
            for k in 0..3 {
                let mut wrong =
                    DirectImmediateIterative::for_trace(&trace, &expected.body).unwrap();
                match k {
                    0 => wrong.expected.0 += 1,
                    1 => wrong.expected.1 ^= 1,
                    _ => wrong.expected.2 += 1,
                }
                assert!(wrong.run(1).is_err(), "{workload}");
            }
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
        assert_eq!(
            DirectImmediateIterative::mirrors(),
            Some("immediate_iterative")
        );
        let churn = trace("xf-reparent-churn");
        let expected = Expected::<TransformFamily>::of(&churn).unwrap();
        assert!(DirectIndexTree::for_trace(&churn, &expected.body).is_none());
        assert!(DirectImmediateIterative::for_trace(&churn, &expected.body).is_none());
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
