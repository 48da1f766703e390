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
//!   only, on the arena built once). A body that changes the structure (`Create`, `Destroy`,
//!   `SetParent`: `xf-reparent-churn`) makes the crate calls the peer's adapter makes, on a
//!   copy of the arena made before each pass: `Create` by `Arena::new_node` (its world from
//!   the parent's) and `append` under the parent, `Destroy` by `children` gathered into a
//!   reused `Vec`, `detach_children`, each child's subtree recomputed as a root's (the
//!   family makes the children roots) and `remove`, `SetParent` by `append` (which detaches
//!   the node and refuses a cycle itself: the adapter's own ancestor walk and `detach` before
//!   it are the adapter's) or `detach` for a root, then the moved subtree recomputed. Each
//!   `append` is the `checked_append` that `append` wraps, so a refusal fails the pass where
//!   `append` would panic. Its node ids, the body's own too, are the peer's dry run's, and a
//!   pass fails if the crate hands a created node another id. A trace has a loop exactly
//!   where the peer's own replay runs it: both decline by the same
//!   [`Replayer::unsupported_before`], the immediate designs' cap of world products per body
//!   ([`IMMEDIATE_PRODUCT_CAP`](impls::transforms::IMMEDIATE_PRODUCT_CAP), which
//!   `xf-chain-all` and `xf-chain-all-1024` at 65,536 nodes exceed); such a cell ranks no
//!   peer and no design of ours with a loop, so it has no "called directly" ranking (a rule
//!   of `results::rank_called_directly`), not for want of a peer's loop.
//!   [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷ this
//!   loop) is what the replay driver and the adapter add to the crate. Verified: the reads,
//!   the wrapping sum of [`mix_world`] over them and the live nodes after the body must equal
//!   the model's.
//! * [`DirectDesign`] (`ref-direct-immediate_iterative`): the same bodies on our article
//!   design `immediate_iterative` (an immediate update like indextree's), its
//!   [`TransformStore`] methods called directly as an application holding the store calls
//!   them: `set_local` per edit, `set_local_batch` per batch (its entries gathered before
//!   timing), `end_frame`, `world` per read, and `create` (checked against the id its dry
//!   run handed out), `destroy` and `set_parent` for a body that changes the structure, over
//!   a plain `Vec` of the body's ops (the store's ids, poses). Its overhead is the replay
//!   driver's alone (no adapter), what every design of the family pays, so indextree's above
//!   it is its adapter's. Verified like the loop above.

use std::hint::black_box;
use std::time::Duration;

use impls::transforms::immediate_iterative::ImmediateIterative;
use impls::transforms::peers::indextree::{IndexTreePeer, TransformArena, Transforms};
use impls::transforms::{Affine, TransformStore, world_of};
use workloads::transforms::NodeHandle;
use workloads::{Trace, TransformOp};

use super::{TransformDigest, TransformFamily, TransformReplay, mix_world};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, runs_trace, sum_passes};

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

/// An op of a body that changes the structure, as the application holds it.
#[derive(Debug, Clone, Copy)]
enum TreeOp {
    /// A local edit or a read.
    Frame(FrameOp),
    /// A new node under the parent (a root for `None`) with the pose's local transform: the
    /// id the peer's dry run recorded for it, which the crate must hand out again.
    Create {
        parent: Option<NodeId>,
        pose: u32,
        id: NodeId,
    },
    /// The node removed, its children made roots.
    Destroy(NodeId),
    /// The node moved under the parent (a root for `None`).
    SetParent(NodeId, Option<NodeId>),
}

/// The body, pre-decoded.
enum Body {
    /// World reads only: run on the arena built once.
    Reads(Vec<(NodeHandle, NodeId)>),
    /// Local edits and reads: run on a fresh copy of the arena per pass.
    Frames(Vec<FrameOp>),
    /// Structure changes, local edits and reads: run on a fresh copy of the arena per pass.
    Tree(Vec<TreeOp>),
}

/// Whether `ops` create, destroy or move a node.
fn changes_structure(ops: &[TransformOp]) -> bool {
    ops.iter().any(|op| {
        matches!(
            op,
            TransformOp::Create { .. } | TransformOp::Destroy(_) | TransformOp::SetParent { .. }
        )
    })
}

/// The handles `ops` create (handle `k` is the `k`-th `Create` of the trace).
fn created(ops: &[TransformOp]) -> usize {
    ops.iter()
        .filter(|op| matches!(op, TransformOp::Create { .. }))
        .count()
}

/// The id of a new parent, `nodes[k]` that of handle `k`: `Some(None)` for a root, `None` if
/// the handle has no id.
fn parent_of<Id: Copy>(parent: Option<NodeHandle>, nodes: &[Id]) -> Option<Option<Id>> {
    match parent {
        None => Some(None),
        Some(p) => nodes.get(p as usize).copied().map(Some),
    }
}

/// Recomputes the worlds of `id`'s subtree as the crate's docs show a traversal:
/// `descendants` (pre-order, parents first) gathered into `order`, then each node's world
/// from its parent's.
#[inline(always)]
fn update_subtree(arena: &mut TransformArena, id: NodeId, order: &mut Vec<NodeId>) {
    order.clear();
    order.extend(id.descendants(arena));
    for &d in order.iter() {
        let parent_world = arena[d].parent().map(|p| arena[p].get().world);
        let node = arena[d].get_mut();
        node.world = world_of(&node.local, parent_world.as_ref());
    }
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
                update_subtree(arena, id, order);
            }
            FrameOp::GetWorld(h, id) => {
                reads += 1;
                sum = sum.wrapping_add(mix_world(h, &arena[id].get().world));
            }
        }
    }
    (reads, sum)
}

/// Runs a body that changes the structure on `arena`, with the calls the peer's adapter
/// makes: `Arena::new_node` (the world from the parent's) then `append` under the parent;
/// `children` gathered into `kids`, `detach_children`, each child's subtree recomputed as a
/// root's, then `remove`; `append` under the new parent (which detaches the node and refuses
/// a cycle) or `detach` for a root, then the moved subtree recomputed; edits and reads as
/// [`run_frames`]. The reads and their sum, or why an op failed: the crate handed out
/// another id than the dry run's, or refused an `append`.
#[inline(never)]
fn run_tree(
    arena: &mut TransformArena,
    ops: &[TreeOp],
    order: &mut Vec<NodeId>,
    kids: &mut Vec<NodeId>,
) -> Result<(u64, u64), String> {
    let (mut reads, mut sum) = (0u64, 0u64);
    for op in ops {
        match *op {
            TreeOp::Frame(FrameOp::SetLocal(id, pose)) => {
                arena[id].get_mut().local = Affine::from_pose(pose);
                update_subtree(arena, id, order);
            }
            TreeOp::Frame(FrameOp::GetWorld(h, id)) => {
                reads += 1;
                sum = sum.wrapping_add(mix_world(h, &arena[id].get().world));
            }
            TreeOp::Create { parent, pose, id } => {
                let local = Affine::from_pose(pose);
                let parent_world = parent.map(|p| arena[p].get().world);
                let made = arena.new_node(Transforms {
                    local,
                    world: world_of(&local, parent_world.as_ref()),
                });
                if made != id {
                    return Err(format!("created {made:?}, the dry run {id:?}"));
                }
                if let Some(p) = parent {
                    p.checked_append(made, arena)
                        .map_err(|e| format!("append {made:?} under {p:?}: {e}"))?;
                }
            }
            TreeOp::Destroy(id) => {
                kids.clear();
                kids.extend(id.children(arena));
                id.detach_children(arena);
                for &c in kids.iter() {
                    update_subtree(arena, c, order);
                }
                id.remove(arena);
            }
            TreeOp::SetParent(id, parent) => {
                match parent {
                    Some(p) => p
                        .checked_append(id, arena)
                        .map_err(|e| format!("append {id:?} under {p:?}: {e}"))?,
                    None => id.detach(arena),
                }
                update_subtree(arena, id, order);
            }
        }
    }
    Ok((reads, sum))
}

/// Decodes a body that changes the structure, its nodes the peer's: `nodes[k]` is the id of
/// handle `k` (the body's own included, from a dry run), `first` the first handle the body
/// creates. `None` if a handle has no id or a batch is left unapplied.
fn decode_tree(body: &[TransformOp], nodes: &[NodeId], first: usize) -> Option<Vec<TreeOp>> {
    let node = |h: NodeHandle| nodes.get(h as usize).copied();
    let (mut ops, mut batch) = (Vec::with_capacity(body.len()), Vec::new());
    let mut next = first;
    for &op in body {
        match op {
            TransformOp::Create { parent, pose } => {
                let parent = parent_of(parent, nodes)?;
                ops.push(TreeOp::Create {
                    parent,
                    pose,
                    id: *nodes.get(next)?,
                });
                next += 1;
            }
            TransformOp::Destroy(h) => ops.push(TreeOp::Destroy(node(h)?)),
            TransformOp::SetParent { node: h, parent } => {
                let parent = parent_of(parent, nodes)?;
                ops.push(TreeOp::SetParent(node(h)?, parent));
            }
            TransformOp::SetLocal { node: h, pose } => {
                ops.push(TreeOp::Frame(FrameOp::SetLocal(node(h)?, pose)));
            }
            TransformOp::BatchLocal { node: h, pose } => {
                batch.push(TreeOp::Frame(FrameOp::SetLocal(node(h)?, pose)));
            }
            TransformOp::ApplyBatch => ops.append(&mut batch),
            TransformOp::EndFrame => {}
            TransformOp::GetWorld(h) => ops.push(TreeOp::Frame(FrameOp::GetWorld(h, node(h)?))),
        }
    }
    batch.is_empty().then_some(ops)
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
    /// The largest subtree a local edit moves (for a body that changes the structure, the
    /// most nodes the arena can hold): the traversal buffers' capacity, reserved before
    /// timing.
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
    const MIRRORS: Option<&'static str> = Some(IndexTreePeer::INFO.meta.name);

    /// For any valid body; `None` exactly where the peer's own replay does not run the trace
    /// ([`Replayer::unsupported_before`]: its cap of world products), or if it refuses the
    /// setup or (a body that changes the structure) its dry run of the body.
    fn for_trace(trace: &Trace<TransformOp>, expected: &TransformDigest) -> Option<Self> {
        runs_trace::<TransformReplay<IndexTreePeer>>(trace)?;
        let mut peer = TransformReplay::<IndexTreePeer>::after_setup(trace).ok()?;
        let arena = peer.store.arena().clone();
        let expected = (expected.reads, expected.world_sum, expected.live);
        if changes_structure(&trace.body) {
            // Every handle's node, the body's own too, from an untimed replay of the body (a
            // pass checks that the crate hands out the same ids again).
            peer.replay(&trace.body).ok()?;
            let ops = decode_tree(&trace.body, peer.handles().ids(), created(&trace.setup))?;
            let most_nodes = arena.len() + created(&trace.body);
            return Some(Self {
                arena,
                body: Body::Tree(ops),
                largest_subtree: most_nodes,
                expected,
            });
        }
        let nodes = peer.handles().ids().to_vec();
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
                | TransformOp::SetParent { .. } => unreachable!("decoded by decode_tree"),
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
            expected,
        })
    }

    /// Times `iters` runs of the body (a body that writes on a copy of the arena made outside
    /// the timed region).
    ///
    /// # Errors
    /// The crate handed out another node id than its dry run or refused an `append`, or the
    /// reads, their sum or the live nodes after the body differ from the model's.
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
                Body::Tree(ops) => {
                    let mut arena = self.arena.clone();
                    let mut order = Vec::with_capacity(self.largest_subtree);
                    let mut kids = Vec::with_capacity(self.largest_subtree);
                    let start = Stopwatch::start();
                    let answers =
                        run_tree(black_box(&mut arena), black_box(ops), &mut order, &mut kids);
                    total += start.elapsed();
                    let answers = answers.map_err(|e| format!("indextree called directly: {e}"))?;
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
    /// `create` under the parent with the pose's local transform: the id the design's dry
    /// run recorded for it, which it must hand out again.
    Create {
        parent: Option<Id>,
        pose: u32,
        id: Id,
    },
    /// `destroy` of the node.
    Destroy(Id),
    /// `set_parent` of the node.
    SetParent(Id, Option<Id>),
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
            StoreOp::Create { parent, pose, id } => {
                let made = store
                    .create(*parent, Affine::from_pose(*pose))
                    .map_err(|e| e.to_string())?;
                if made != *id {
                    return Err(format!("created {made:?}, the dry run {id:?}"));
                }
            }
            StoreOp::Destroy(id) => store.destroy(*id).map_err(|e| e.to_string())?,
            StoreOp::SetParent(id, parent) => {
                store.set_parent(*id, *parent).map_err(|e| e.to_string())?;
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
    const MIRRORS: Option<&'static str> = Some(S::INFO.meta.name);

    /// For any valid body, as [`DirectIndexTree`]; `None` exactly where the design's own
    /// replay does not run the trace, or if it refuses the setup or (a body that changes the
    /// structure) its dry run of the body.
    fn for_trace(trace: &Trace<TransformOp>, expected: &TransformDigest) -> Option<Self> {
        runs_trace::<TransformReplay<S>>(trace)?;
        let mut replay = TransformReplay::<S>::after_setup(trace).ok()?;
        let store = if changes_structure(&trace.body) {
            // Every handle's id, the body's own too, from an untimed replay of the body on a
            // copy (a pass checks that the design hands out the same ids again).
            let store = replay.store.clone();
            replay.replay(&trace.body).ok()?;
            store
        } else {
            std::mem::replace(&mut replay.store, S::new())
        };
        let nodes = replay.handles().ids().to_vec();
        let node = |h: NodeHandle| nodes.get(h as usize).copied();
        let mut next = created(&trace.setup);
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
                TransformOp::Create { parent, pose } => {
                    let id = *nodes.get(next)?;
                    next += 1;
                    StoreOp::Create {
                        parent: parent_of(parent, &nodes)?,
                        pose,
                        id,
                    }
                }
                TransformOp::Destroy(h) => StoreOp::Destroy(node(h)?),
                TransformOp::SetParent { node: h, parent } => {
                    StoreOp::SetParent(node(h)?, parent_of(parent, &nodes)?)
                }
            });
        }
        if ops.is_empty() || !batch.is_empty() {
            return None;
        }
        let reads_only = ops
            .iter()
            .all(|op| matches!(op, StoreOp::GetWorld(..) | StoreOp::EndFrame));
        Some(Self {
            store,
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
        let mut kept = self.reads_only.then(|| self.store.clone());
        sum_passes(iters, || match kept.as_mut() {
            Some(store) => self.pass(store),
            None => self.pass(&mut self.store.clone()),
        })
    }
}

/// `ref-direct-immediate_iterative`: our article design called directly, the driver's share.
pub type DirectImmediateIterative = DirectDesign<ImmediateIterative>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::trace;
    use crate::verify::Expected;

    /// `ref-direct-indextree` and `ref-direct-immediate_iterative` read the model's worlds on
    /// every body (frames, reads, structure changes) over 2 then 3 passes, and fail a
    /// corrupted expectation.
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
            "xf-reparent-churn",
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
            assert_eq!(
                matches!(looped.body, Body::Tree(_)),
                workload == "xf-reparent-churn",
                "{workload}"
            );
            let own = DirectImmediateIterative::for_trace(&trace, &expected.body)
                .unwrap_or_else(|| panic!("no loop of our design for {workload}"));
            assert_eq!(own.reads_only, workload == "xf-query", "{workload}");
            for passes in [2, 3] {
                looped
                    .run(passes)
                    .unwrap_or_else(|e| panic!("{workload}: {e}"));
                own.run(passes)
                    .unwrap_or_else(|e| panic!("{workload}: {e}"));
            }
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
        assert_eq!(DirectIndexTree::MIRRORS, Some("indextree"));
        assert_eq!(
            DirectImmediateIterative::MIRRORS,
            Some("immediate_iterative")
        );
    }

    /// A created node that gets another id than the dry run's fails the pass, on both loops.
    #[test]
    fn a_created_node_with_another_id_fails() {
        let churn = trace("xf-reparent-churn");
        let expected = Expected::<TransformFamily>::of(&churn).unwrap();
        let mut looped = DirectIndexTree::for_trace(&churn, &expected.body).unwrap();
        let Body::Tree(ops) = &mut looped.body else {
            panic!("a body that changes the structure");
        };
        let (first, other) = {
            let mut ids = ops.iter().filter_map(|op| match *op {
                TreeOp::Create { id, .. } => Some(id),
                _ => None,
            });
            (ids.next().unwrap(), ids.next().unwrap())
        };
        for op in ops.iter_mut() {
            if let TreeOp::Create { id, .. } = op
                && *id == first
            {
                *id = other;
            }
        }
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("dry run"), "{error}");
        let mut own = DirectImmediateIterative::for_trace(&churn, &expected.body).unwrap();
        let creates: Vec<usize> = (0..own.ops.len())
            .filter(|&at| matches!(own.ops[at], StoreOp::Create { .. }))
            .collect();
        let StoreOp::Create { id: other, .. } = own.ops[creates[1]] else {
            unreachable!("a create")
        };
        let StoreOp::Create { id, .. } = &mut own.ops[creates[0]] else {
            unreachable!("a create")
        };
        *id = other;
        let error = own.run(1).unwrap_err();
        assert!(error.contains("dry run"), "{error}");
    }

    /// The loops decline a trace exactly where the designs' replays do: `xf-chain-all` and
    /// `xf-chain-all-1024` at 65,536 nodes are above the immediate designs' cap of world
    /// products (the loops stop before any replay, so no model runs here).
    #[test]
    fn chains_above_the_cap_have_no_loop_as_the_replays_run_none() {
        for workload in ["xf-chain-all", "xf-chain-all-1024"] {
            let chains =
                workloads::registry::generate_for::<TransformOp>(workload, 65_536, 7, None)
                    .unwrap();
            let stats = chains.validate().unwrap();
            let any = TransformDigest::default();
            assert!(TransformReplay::<IndexTreePeer>::unsupported_before(&stats).is_some());
            assert!(
                DirectIndexTree::for_trace(&chains, &any).is_none(),
                "{workload}"
            );
            assert!(TransformReplay::<ImmediateIterative>::unsupported_before(&stats).is_some());
            assert!(DirectImmediateIterative::for_trace(&chains, &any).is_none());
        }
    }
}
