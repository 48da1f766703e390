//! What the transform-hierarchy generators (`xf-*`) share: `XfTraceBuilder`, which tracks each
//! node's parent and children so a generator can say "reparent without a cycle" or "destroy
//! and re-root the children", and the two starting shapes every `xf-*` workload builds:
//! chains ([`XfTraceBuilder::build_chains`]) and a shallow forest
//! ([`XfTraceBuilder::build_forest`]).
//!
//! Poses are 32-bit draws ([`TraceRng::next_u64`] truncated); replayers turn each into a rigid
//! transform.

use serde::Serialize;

use crate::rng::TraceRng;
use crate::trace::Trace;
use crate::transforms::{NodeHandle, TransformOp};

use crate::generate::parts::Recorder;
use crate::generate::parts::{LiveHandles, TraceParts};

/// Frames in the body of every `xf-*` workload by default.
pub const DEFAULT_FRAMES: usize = 10;

/// Frames replayed in the setup of the sparse workloads before the body, so the dirty list
/// starts in its steady state (its eviction delay is 5 frames).
pub const WARMUP_FRAMES: usize = 6;

/// Deepest forest the `xf-*` forests build (the article: "n <= 5").
pub const FOREST_DEPTH: u8 = 5;

/// Builds a transform trace op by op while tracking the tree.
///
/// Invariant: `parent`, `children` and `depth` describe the tree the ops in `parts` leave
/// (depth as at creation, for the forest's shape only); `live` holds the live handles.
#[derive(Debug, Default)]
pub struct XfTraceBuilder {
    parts: TraceParts<TransformOp>,
    live: LiveHandles,
    parent: Vec<Option<NodeHandle>>,
    children: Vec<Vec<NodeHandle>>,
    depth: Vec<u8>,
}

crate::generate::parts::recorder!(XfTraceBuilder: TransformOp, live: live);

/// A random pose: one `next_u64` draw, truncated.
pub fn random_pose(rng: &mut TraceRng) -> u32 {
    rng.next_u64() as u32
}

impl XfTraceBuilder {
    /// `Create` under `parent`; returns the new handle.
    pub fn create(&mut self, parent: Option<NodeHandle>, rng: &mut TraceRng) -> NodeHandle {
        let pose = random_pose(rng);
        self.parts.push(TransformOp::Create { parent, pose });
        let h = self.live.insert_next();
        self.parent.push(parent);
        self.children.push(Vec::new());
        let depth = parent.map_or(1, |p| self.depth[p as usize].saturating_add(1));
        self.depth.push(depth);
        if let Some(p) = parent {
            self.children[p as usize].push(h);
        }
        h
    }

    /// `Destroy`; the node's children become roots.
    pub fn destroy(&mut self, h: NodeHandle) {
        self.parts.push(TransformOp::Destroy(h));
        for c in std::mem::take(&mut self.children[h as usize]) {
            self.parent[c as usize] = None;
        }
        self.detach(h);
        self.live.remove(h);
    }

    fn detach(&mut self, h: NodeHandle) {
        if let Some(p) = self.parent[h as usize].take() {
            let siblings = &mut self.children[p as usize];
            if let Some(k) = siblings.iter().position(|&c| c == h) {
                siblings.swap_remove(k);
            }
        }
    }

    /// Whether `parent` is `node` or in its subtree (so `SetParent` would close a cycle).
    pub fn would_cycle(&self, node: NodeHandle, parent: NodeHandle) -> bool {
        let mut cur = Some(parent);
        while let Some(a) = cur {
            if a == node {
                return true;
            }
            cur = self.parent[a as usize];
        }
        false
    }

    /// `SetParent`; the caller checked [`would_cycle`](Self::would_cycle).
    pub fn set_parent(&mut self, node: NodeHandle, parent: Option<NodeHandle>) {
        self.parts.push(TransformOp::SetParent { node, parent });
        self.detach(node);
        self.parent[node as usize] = parent;
        if let Some(p) = parent {
            self.children[p as usize].push(node);
        }
    }

    /// `SetLocal` with a random pose.
    pub fn set_local(&mut self, node: NodeHandle, rng: &mut TraceRng) {
        let pose = random_pose(rng);
        self.parts.push(TransformOp::SetLocal { node, pose });
    }

    /// `BatchLocal` with a random pose.
    pub fn batch_local(&mut self, node: NodeHandle, rng: &mut TraceRng) {
        let pose = random_pose(rng);
        self.parts.push(TransformOp::BatchLocal { node, pose });
    }

    /// `ApplyBatch`.
    pub fn apply_batch(&mut self) {
        self.parts.push(TransformOp::ApplyBatch);
    }

    /// `EndFrame`.
    pub fn end_frame(&mut self) {
        self.parts.push(TransformOp::EndFrame);
    }

    /// `GetWorld` (after `end_frame`).
    pub fn get_world(&mut self, node: NodeHandle) {
        self.parts.push(TransformOp::GetWorld(node));
    }

    /// `n` nodes as chains of `len` (root first; the last chain may be shorter), built chain by
    /// chain; returns the chains.
    pub fn build_chains(
        &mut self,
        n: usize,
        len: usize,
        rng: &mut TraceRng,
    ) -> Vec<Vec<NodeHandle>> {
        let mut chains = Vec::new();
        let mut built = 0;
        while built < n {
            let l = len.min(n - built);
            let mut chain = Vec::with_capacity(l);
            for _ in 0..l {
                let parent = chain.last().copied();
                chain.push(self.create(parent, rng));
            }
            built += l;
            chains.push(chain);
        }
        chains
    }

    /// [`build_forest`](Self::build_forest), then `EndFrame`: the setup every forest workload
    /// starts from. Returns the roots.
    pub fn forest_frame(&mut self, n: usize, rng: &mut TraceRng) -> Vec<NodeHandle> {
        let roots = self.build_forest(n, rng);
        self.end_frame();
        roots
    }

    /// `n` nodes as a forest of depth at most [`FOREST_DEPTH`]: node `k` is a root with
    /// probability 1/8 (node 0 always), else the child of a uniformly random earlier node of
    /// depth below the limit, so children land far from their parents in creation order.
    /// Returns the roots.
    pub fn build_forest(&mut self, n: usize, rng: &mut TraceRng) -> Vec<NodeHandle> {
        let mut roots = Vec::new();
        let mut open: Vec<NodeHandle> = Vec::new();
        for k in 0..n {
            let parent = if k == 0 || open.is_empty() || rng.below(8) == 0 {
                None
            } else {
                Some(open[rng.index(open.len())])
            };
            let h = self.create(parent, rng);
            if parent.is_none() {
                roots.push(h);
            }
            if self.depth[h as usize] < FOREST_DEPTH {
                open.push(h);
            }
        }
        roots
    }

    /// `count` distinct uniformly random live nodes.
    pub fn distinct_live(&self, count: usize, rng: &mut TraceRng) -> Vec<NodeHandle> {
        let mut all: Vec<NodeHandle> = (0..self.parent.len() as NodeHandle)
            .filter(|&h| self.live.contains(h))
            .collect();
        let count = count.min(all.len());
        for i in 0..count {
            let j = i + rng.index(all.len() - i);
            all.swap(i, j);
        }
        all.truncate(count);
        all
    }
}

/// The `xf-chain-all*` traces: `n` nodes as chains of `chain_len`; each of `frames` frames
/// sets every node's local, root to leaf (one `SetLocal` each, or one batch per chain with
/// `batch`), ends the frame and reads every chain's leaf (whose world is the product of its
/// whole chain).
pub fn chain_all(
    name: &str,
    n: usize,
    seed: u64,
    chain_len: usize,
    frames: usize,
    batch: bool,
    params: &impl Serialize,
) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(name, n, seed, params, |b, rng| {
        let chains = b.build_chains(n, chain_len, rng);
        b.end_frame();
        b.start_body();
        for _ in 0..frames {
            for chain in &chains {
                for &node in chain {
                    if batch {
                        b.batch_local(node, rng);
                    } else {
                        b.set_local(node, rng);
                    }
                }
                if batch {
                    b.apply_batch();
                }
            }
            b.end_frame();
            for chain in &chains {
                b.get_world(*chain.last().expect("chains are not empty"));
            }
        }
    })
}

/// One frame of the forest workloads: `SetLocal` on each of `movers`, `EndFrame`, then
/// `GetWorld` of each of `reads`.
pub fn move_frame(
    b: &mut XfTraceBuilder,
    movers: &[NodeHandle],
    reads: &[NodeHandle],
    rng: &mut TraceRng,
) {
    for &m in movers {
        b.set_local(m, rng);
    }
    b.end_frame();
    for &r in reads {
        b.get_world(r);
    }
}

/// `max(1, n * percent / 100)`.
pub fn percent_of(n: usize, percent: f64) -> usize {
    ((n as f64 * percent / 100.0) as usize).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forests_stay_shallow_and_chains_cover_n() {
        let t = XfTraceBuilder::default().record("test", 6000, 3, &(), |b, rng| {
            let roots = b.build_forest(5000, rng);
            assert!(roots.len() > 400 && roots.len() < 900, "{}", roots.len());
            assert!(b.depth.iter().all(|&d| d <= FOREST_DEPTH));
            let chains = b.build_chains(1000, 64, rng);
            assert_eq!(chains.iter().map(Vec::len).sum::<usize>(), 1000);
            assert_eq!(chains.last().unwrap().len(), 1000 % 64);
        });
        assert_eq!(t.validate().unwrap().max_depth, 64);
    }
}
