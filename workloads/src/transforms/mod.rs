//! The op vocabulary of the transform-hierarchy family ("Building a Data-Oriented Entity
//! System Part 3: The Transform Component"), its validation and its bytes in trace files.
//!
//! Node handle `k` names the node made by the trace's `k`-th [`TransformOp::Create`]; handles
//! are never reused by a trace. A transform is named by a 32-bit `pose` that every replayer
//! turns into the same matrix (`impls::transforms::Affine::from_pose`), so traces stay small
//! and exact. `Destroy` makes the node's children roots (the family's rule).
//!
//! Rules checked by [`validate`](TraceOp::validate): handles live; `SetParent` never closes a
//! cycle; `BatchLocal` entries are followed by an `ApplyBatch` before any other op; `GetWorld`
//! only after `EndFrame` with no change since (deferred designs may hold stale worlds before),
//! and a trace ends with no open batch.
//!
//! Work units: one per op but `ApplyBatch` (its entries are counted), so a frame through the
//! batch API and the same frame through `SetLocal` have equal units.
//!
//! | tag | op           | fields                               |
//! |-----|--------------|--------------------------------------|
//! | 0   | `Create`     | parent + 1 (0 for a root), pose      |
//! | 1   | `Destroy`    | node                                 |
//! | 2   | `SetParent`  | node, parent + 1 (0 for a root)      |
//! | 3   | `SetLocal`   | node, pose                           |
//! | 4   | `BatchLocal` | node, pose                           |
//! | 5   | `ApplyBatch` | -                                    |
//! | 6   | `EndFrame`   | -                                    |
//! | 7   | `GetWorld`   | node                                 |

pub mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// A node handle: handle `k` is the `k`-th `Create` of the trace.
pub type NodeHandle = u32;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = TransformOp;

/// One operation on a transform store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransformOp {
    /// Create a node (the next handle) under `parent` (a root for `None`).
    Create {
        /// The parent, a live node.
        parent: Option<NodeHandle>,
        /// Its local transform.
        pose: u32,
    },
    /// Destroy a live node; its children become roots.
    Destroy(NodeHandle),
    /// Move a node under another (or make it a root), never under its own subtree.
    SetParent {
        /// The node.
        node: NodeHandle,
        /// The new parent, `None` for a root.
        parent: Option<NodeHandle>,
    },
    /// Set a node's local transform.
    SetLocal {
        /// The node.
        node: NodeHandle,
        /// The new local transform.
        pose: u32,
    },
    /// Queue a local transform for the next `ApplyBatch`.
    BatchLocal {
        /// The node.
        node: NodeHandle,
        /// The new local transform.
        pose: u32,
    },
    /// Apply the queued entries through the batch API (`set_local_batch`).
    ApplyBatch,
    /// End the frame (deferred designs compute their worlds).
    EndFrame,
    /// Read a node's world transform (only after `EndFrame`).
    GetWorld(NodeHandle),
}

/// Counts of a transform trace's body (and a few of the whole trace), from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransformStats {
    /// `Create` ops in the body.
    pub creates: u64,
    /// `Destroy` ops in the body.
    pub destroys: u64,
    /// `SetParent` ops in the body.
    pub reparents: u64,
    /// `SetLocal` ops and `BatchLocal` entries in the body.
    pub set_locals: u64,
    /// `ApplyBatch` ops in the body.
    pub batches: u64,
    /// `EndFrame` ops in the body.
    pub frames: u64,
    /// `GetWorld` ops in the body.
    pub reads: u64,
    /// Live nodes after the setup.
    pub live_at_start: u64,
    /// Most live nodes at any point.
    pub peak_live: u64,
    /// Most nodes on the root path of a node when it is created or reparented (its depth,
    /// counting itself).
    pub max_depth: u64,
    /// World products an immediate design computes for the body: per `SetLocal`, `SetParent`
    /// and child of a `Destroy`, the size of the subtree it moves; per batch, the subtrees of
    /// its entries whose parent is not in the same batch. What the immediate designs' cap is
    /// checked against.
    pub immediate_products: u64,
}

trace_stats!(TransformStats: creates, destroys, reparents, set_locals, frames, reads);

crate::codec::op_tags! {
    CREATE, DESTROY, SET_PARENT, SET_LOCAL, BATCH_LOCAL, APPLY_BATCH, END_FRAME, GET_WORLD
}

/// What validation knows of one handle.
#[derive(Debug, Clone, Copy)]
struct NodeState {
    live: bool,
    parent: Option<NodeHandle>,
    /// Nodes in its subtree, itself included.
    size: u64,
    /// The batch it was last queued in (0: none).
    batch: u64,
    /// Child links, so `Destroy` finds the children in O(children).
    first_child: Option<NodeHandle>,
    next_sibling: Option<NodeHandle>,
    prev_sibling: Option<NodeHandle>,
}

/// The tree as validation tracks it.
#[derive(Default)]
struct Forest {
    nodes: Vec<NodeState>,
    live: u64,
}

impl Forest {
    fn live(&self, h: NodeHandle) -> Result<NodeState, String> {
        match self.nodes.get(h as usize) {
            Some(n) if n.live => Ok(*n),
            Some(_) => Err(format!("uses node {h}, which was destroyed")),
            None => Err(format!("uses node {h}, not created yet")),
        }
    }

    /// Adds `delta` to the subtree sizes of `from` and its ancestors; returns the path length.
    fn add_up(&mut self, from: Option<NodeHandle>, delta: i64) -> u64 {
        let (mut cur, mut steps) = (from, 0);
        while let Some(a) = cur {
            let n = &mut self.nodes[a as usize];
            n.size = n.size.wrapping_add_signed(delta);
            cur = n.parent;
            steps += 1;
        }
        steps
    }

    /// Makes root `h` the first child of `parent` (nothing for `None`).
    fn link(&mut self, h: NodeHandle, parent: Option<NodeHandle>) {
        self.nodes[h as usize].parent = parent;
        let Some(p) = parent else { return };
        let first = self.nodes[p as usize].first_child;
        self.nodes[h as usize].next_sibling = first;
        if let Some(f) = first {
            self.nodes[f as usize].prev_sibling = Some(h);
        }
        self.nodes[p as usize].first_child = Some(h);
    }

    /// Takes `h` out of its parent's children: a root.
    fn unlink(&mut self, h: NodeHandle) {
        let n = self.nodes[h as usize];
        match n.prev_sibling {
            Some(prev) => self.nodes[prev as usize].next_sibling = n.next_sibling,
            None => {
                if let Some(p) = n.parent {
                    self.nodes[p as usize].first_child = n.next_sibling;
                }
            }
        }
        if let Some(next) = n.next_sibling {
            self.nodes[next as usize].prev_sibling = n.prev_sibling;
        }
        let n = &mut self.nodes[h as usize];
        (n.parent, n.prev_sibling, n.next_sibling) = (None, None, None);
    }

    /// An error if `parent` names a node that is not live (`None`, a root, is fine).
    fn check_parent(&self, parent: Option<NodeHandle>) -> Result<(), String> {
        if let Some(p) = parent {
            self.live(p).map_err(|e| format!("parent: {e}"))?;
        }
        Ok(())
    }

    /// Checks and applies a `Create` under `parent`; `in_body` (0 or 1) weighs its counts.
    fn create(
        &mut self,
        parent: Option<NodeHandle>,
        stats: &mut TransformStats,
        in_body: u64,
    ) -> Result<(), String> {
        self.check_parent(parent)?;
        if self.nodes.len() >= u32::MAX as usize - 1 {
            return Err("creates more than 2^32 - 2 nodes".into());
        }
        self.nodes.push(NodeState {
            live: true,
            parent: None,
            size: 1,
            batch: 0,
            first_child: None,
            next_sibling: None,
            prev_sibling: None,
        });
        let h = (self.nodes.len() - 1) as NodeHandle;
        self.link(h, parent);
        let depth = 1 + self.add_up(parent, 1);
        stats.max_depth = stats.max_depth.max(depth);
        self.live += 1;
        stats.creates += in_body;
        Ok(())
    }

    /// Applies a `Destroy` of live node `h`, its children becoming roots.
    fn destroy(&mut self, h: NodeHandle, stats: &mut TransformStats, in_body: u64) {
        let n = self.nodes[h as usize];
        self.add_up(n.parent, -(n.size as i64));
        while let Some(c) = self.nodes[h as usize].first_child {
            self.unlink(c);
            stats.immediate_products += in_body * self.nodes[c as usize].size;
        }
        self.unlink(h);
        self.nodes[h as usize].live = false;
        self.live -= 1;
        stats.destroys += in_body;
    }

    /// Checks and applies a `SetParent` of live `node`, rejecting a cycle.
    fn reparent(
        &mut self,
        node: NodeHandle,
        parent: Option<NodeHandle>,
        stats: &mut TransformStats,
        in_body: u64,
    ) -> Result<(), String> {
        self.check_parent(parent)?;
        if let Some(p) = parent {
            let mut cur = Some(p);
            while let Some(a) = cur {
                if a == node {
                    return Err(format!(
                        "makes {p} the parent of {node}, its own descendant or itself"
                    ));
                }
                cur = self.nodes[a as usize].parent;
            }
        }
        let n = self.nodes[node as usize];
        self.add_up(n.parent, -(n.size as i64));
        self.unlink(node);
        self.link(node, parent);
        self.add_up(parent, n.size as i64);
        stats.max_depth = stats.max_depth.max(self.depth(node));
        stats.immediate_products += in_body * n.size;
        stats.reparents += in_body;
        Ok(())
    }

    fn depth(&self, h: NodeHandle) -> u64 {
        let (mut cur, mut d) = (Some(h), 0);
        while let Some(a) = cur {
            cur = self.nodes[a as usize].parent;
            d += 1;
        }
        d
    }
}

impl TransformOp {
    /// The node the op names, if any (not the parent).
    pub const fn node(self) -> Option<NodeHandle> {
        match self {
            TransformOp::Destroy(n)
            | TransformOp::SetParent { node: n, .. }
            | TransformOp::SetLocal { node: n, .. }
            | TransformOp::BatchLocal { node: n, .. }
            | TransformOp::GetWorld(n) => Some(n),
            TransformOp::Create { .. } | TransformOp::ApplyBatch | TransformOp::EndFrame => None,
        }
    }
}

impl TraceOp for TransformOp {
    const FAMILY: &'static str = "transforms";
    type Stats = TransformStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<TransformStats, InvalidTrace> {
        let mut f = Forest::default();
        let mut stats = TransformStats::default();
        let mut flushed = true;
        // Entries queued since the last `ApplyBatch`, and the batch number they carry.
        let (mut open_batch, mut batch_id) = (false, 1u64);
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            if part == Part::Body {
                stats.live_at_start = f.live;
            }
            let in_body = u64::from(part == Part::Body);
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                if open_batch
                    && !matches!(op, TransformOp::BatchLocal { .. } | TransformOp::ApplyBatch)
                {
                    return Err(bad(
                        "comes inside an open batch (BatchLocal without ApplyBatch)".into(),
                    ));
                }
                if let Some(h) = op.node() {
                    f.live(h).map_err(bad)?;
                }
                match op {
                    TransformOp::Create { parent, pose: _ } => {
                        f.create(parent, &mut stats, in_body).map_err(bad)?;
                        flushed = false;
                    }
                    TransformOp::Destroy(h) => {
                        f.destroy(h, &mut stats, in_body);
                        flushed = false;
                    }
                    TransformOp::SetParent { node, parent } => {
                        f.reparent(node, parent, &mut stats, in_body).map_err(bad)?;
                        flushed = false;
                    }
                    TransformOp::SetLocal { node, .. } => {
                        stats.immediate_products += in_body * f.nodes[node as usize].size;
                        stats.set_locals += in_body;
                        flushed = false;
                    }
                    TransformOp::BatchLocal { node, .. } => {
                        open_batch = true;
                        let n = f.nodes[node as usize];
                        let parent_in_batch = n
                            .parent
                            .is_some_and(|p| f.nodes[p as usize].batch == batch_id);
                        if !parent_in_batch && n.batch != batch_id {
                            stats.immediate_products += in_body * n.size;
                        }
                        f.nodes[node as usize].batch = batch_id;
                        stats.set_locals += in_body;
                        flushed = false;
                    }
                    TransformOp::ApplyBatch => {
                        open_batch = false;
                        batch_id += 1;
                        stats.batches += in_body;
                    }
                    TransformOp::EndFrame => {
                        flushed = true;
                        stats.frames += in_body;
                    }
                    TransformOp::GetWorld(_) => {
                        if !flushed {
                            return Err(bad(
                                "reads a world before EndFrame (deferred designs may be stale)"
                                    .into(),
                            ));
                        }
                        stats.reads += in_body;
                    }
                }
                stats.peak_live = stats.peak_live.max(f.live);
            }
        }
        if open_batch {
            return Err(InvalidTrace::BadOp {
                part: Part::Body,
                index: body.len(),
                op: "end of trace".into(),
                reason: "a batch is still open (BatchLocal without ApplyBatch)".into(),
            });
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, TransformOp::Create { .. })
    }

    fn is_read_only(self) -> bool {
        matches!(self, TransformOp::GetWorld(_))
    }

    const RENAMES_HANDLES: bool = true;

    /// A node created under, or re-parented to, a parent that no longer exists becomes a root;
    /// any other op on a node that no longer exists is dropped.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            TransformOp::Create { parent, pose } => TransformOp::Create {
                parent: parent.and_then(rename),
                pose,
            },
            TransformOp::Destroy(h) => TransformOp::Destroy(rename(h)?),
            TransformOp::SetParent { node, parent } => TransformOp::SetParent {
                node: rename(node)?,
                parent: parent.and_then(rename),
            },
            TransformOp::SetLocal { node, pose } => TransformOp::SetLocal {
                node: rename(node)?,
                pose,
            },
            TransformOp::BatchLocal { node, pose } => TransformOp::BatchLocal {
                node: rename(node)?,
                pose,
            },
            TransformOp::GetWorld(h) => TransformOp::GetWorld(rename(h)?),
            TransformOp::ApplyBatch | TransformOp::EndFrame => self,
        })
    }

    fn touches(self) -> Option<u32> {
        self.node()
    }

    fn encode(self, out: &mut Vec<u8>) {
        let parent_field = |p: Option<NodeHandle>| p.map_or(0, |p| p + 1);
        let (tag, fields): (u8, [Option<u32>; 2]) = match self {
            TransformOp::Create { parent, pose } => {
                (tag::CREATE, [Some(parent_field(parent)), Some(pose)])
            }
            TransformOp::Destroy(n) => (tag::DESTROY, [Some(n), None]),
            TransformOp::SetParent { node, parent } => {
                (tag::SET_PARENT, [Some(node), Some(parent_field(parent))])
            }
            TransformOp::SetLocal { node, pose } => (tag::SET_LOCAL, [Some(node), Some(pose)]),
            TransformOp::BatchLocal { node, pose } => (tag::BATCH_LOCAL, [Some(node), Some(pose)]),
            TransformOp::ApplyBatch => (tag::APPLY_BATCH, [None, None]),
            TransformOp::EndFrame => (tag::END_FRAME, [None, None]),
            TransformOp::GetWorld(n) => (tag::GET_WORLD, [Some(n), None]),
        };
        OpFields::write_op(out, tag, fields.into_iter().flatten());
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        let parent = |v: u32| v.checked_sub(1);
        Ok(Some(match tag {
            tag::CREATE => TransformOp::Create {
                parent: parent(f.u32()?),
                pose: f.u32()?,
            },
            tag::DESTROY => TransformOp::Destroy(f.u32()?),
            tag::SET_PARENT => TransformOp::SetParent {
                node: f.u32()?,
                parent: parent(f.u32()?),
            },
            tag::SET_LOCAL => TransformOp::SetLocal {
                node: f.u32()?,
                pose: f.u32()?,
            },
            tag::BATCH_LOCAL => TransformOp::BatchLocal {
                node: f.u32()?,
                pose: f.u32()?,
            },
            tag::APPLY_BATCH => TransformOp::ApplyBatch,
            tag::END_FRAME => TransformOp::EndFrame,
            tag::GET_WORLD => TransformOp::GetWorld(f.u32()?),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;
    use TransformOp::*;

    fn chain3() -> Vec<TransformOp> {
        vec![
            Create {
                parent: None,
                pose: 1,
            },
            Create {
                parent: Some(0),
                pose: 2,
            },
            Create {
                parent: Some(1),
                pose: 3,
            },
            EndFrame,
        ]
    }

    #[test]
    fn counts_products_and_round_trips() {
        let t = Trace::for_test(
            chain3(),
            vec![
                SetLocal { node: 0, pose: 9 },
                SetLocal { node: 1, pose: 9 },
                SetLocal { node: 2, pose: 9 },
                BatchLocal { node: 0, pose: 5 },
                BatchLocal { node: 1, pose: 5 },
                ApplyBatch,
                EndFrame,
                GetWorld(2),
                SetParent {
                    node: 2,
                    parent: None,
                },
                Destroy(0),
                EndFrame,
            ],
        );
        let s = t.validate().unwrap();
        // 3 + 2 + 1 moved by SetLocal, 3 by the batch (node 1's parent is in it), 1 by
        // SetParent, 1 (node 1's subtree) by Destroy.
        assert_eq!(s.immediate_products, 6 + 3 + 1 + 1);
        assert_eq!((s.set_locals, s.batches, s.frames, s.reads), (5, 1, 2, 1));
        assert_eq!(s.work_units(), 5 + 2 + 1 + 1 + 1);
        assert_eq!((s.max_depth, s.live_at_start, s.peak_live), (3, 3, 3));
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<TransformOp>(&bytes).unwrap(), t);
    }

    #[test]
    fn rejects_cycles_stale_reads_open_batches_and_dead_nodes() {
        for (body, needle) in [
            (
                vec![SetParent {
                    node: 0,
                    parent: Some(2),
                }],
                "descendant",
            ),
            (
                vec![SetLocal { node: 1, pose: 0 }, GetWorld(1)],
                "before EndFrame",
            ),
            (
                vec![BatchLocal { node: 1, pose: 0 }, EndFrame],
                "open batch",
            ),
            (vec![BatchLocal { node: 1, pose: 0 }], "still open"),
            (vec![Destroy(1), GetWorld(1)], "destroyed"),
            (
                vec![Create {
                    parent: Some(7),
                    pose: 0,
                }],
                "not created",
            ),
        ] {
            Trace::assert_invalid(chain3(), body, needle);
        }
    }
}
