//! The transform-hierarchy family's replay driver: applies [`TransformOp`] traces to any
//! [`TransformStore`] and digests the world matrices it read.
//!
//! Generic and monomorphised per design. Logical node handles map to the design's ids through
//! a flat `Vec` reserved before timing; `BatchLocal` entries gather in a `Vec` (reserved to the
//! longest batch of the trace) that `ApplyBatch` hands to `set_local_batch`. A pose becomes
//! its matrix with [`Affine::from_pose`] inside the timed loop (a few dozen flops per changed
//! node, the same for every design: the work of producing a new local transform).
//!
//! The digest is an order-independent wrapping sum, over every `GetWorld`, of the read
//! matrix's 12 bit patterns mixed with the handle ([`mix_world`]): reads happen only after
//! `EndFrame`, so immediate and deferred designs must give the same bits, and every world is
//! one `local * parent_world` product, so they do whatever order they update in.

mod claims;
mod metrics;
mod reference;

use impls::transforms::model::ModelTransforms;
use impls::transforms::{
    Affine, TransformDesignInfo, TransformDesignVisitor, TransformStore, UpdateStrategy,
    for_each_transform_design,
};
use serde::{Deserialize, Serialize};
use workloads::transforms::{NodeHandle, TransformStats};
use workloads::{Trace, TransformOp};

use super::contract::{Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes};
use super::glue::{
    family_marker, forward_design, forward_replay, hosts_design, merge_fields, visit_registry,
};
use super::metric_fields::ratio;
use super::resolved::{HandleIds, HandleMap};
pub use metrics::TransformMetrics;
use results::DesignRecord;

family_marker! {
    /// The transform hierarchies: [`TransformOp`] traces replayed on [`TransformStore`]s, checked
    /// against [`ModelTransforms`].
    TransformFamily
}

impl Family for TransformFamily {
    type Op = TransformOp;
    type Digest = TransformDigest;
    type Model = TransformReplay<ModelTransforms>;
    type Metrics = TransformMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "Transform hierarchies";
    /// The deferred update the article's earlier engines used (dirty flag, full scan): it runs
    /// every trace (the immediate designs have a cap on quadratic bodies), so every time has a
    /// reference.
    const REFERENCE_DESIGN: &'static str = "deferred_flag_scan";
    /// The article's claim about scanning: touching every node to check a flag when 1 % move,
    /// and random reads over the node arrays.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["xf-sparse-1pct", "xf-query"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["xf-reparent-churn"];
    const LATENCY_WORKLOADS: &'static [&'static str] =
        &["xf-sparse-1pct", "xf-reparent-churn", "xf-query"];
    /// 256K nodes: past the last-level cache (about 120 bytes per node) with sparse frames
    /// that stay well under a second.
    const SWEEP_MAX_N: usize = 1 << 18;

    /// 1K nodes quick; 1K and 64K by default; 1M added in the full matrix (a 1M-node
    /// benchmark needs a fresh setup per timed replay of a mutating body, seconds each).
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 65_536],
        full: &[1_000, 65_536, 1_048_576],
        passes_quick: &[1_000],
        passes: &[1_000, 65_536],
    };

    fn design_records() -> Vec<DesignRecord> {
        struct Records(Vec<DesignRecord>);
        impl TransformDesignVisitor for Records {
            fn visit<D: TransformStore + 'static>(&mut self) {
                self.0.push(design_record(&D::INFO, size_of::<D::Id>()));
            }
        }
        let mut records = Records(Vec::new());
        for_each_transform_design(&mut records);
        records.0
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, TransformFamily, for_each_transform_design, TransformDesignVisitor,
            [S: TransformStore + 'static] => TransformReplay<S>
        );
        visitor.visit_loop::<reference::DirectIndexTree>();
        visitor.visit_loop::<reference::DirectImmediateIterative>();
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`TransformReplay`] of it.
    TransformFamily,
    [D: TransformStore] => TransformReplay<D>,
    design_record(&D::INFO, size_of::<D::Id>())
);

/// The results record of a transform design whose id is `id_bytes` long.
pub fn design_record(info: &TransformDesignInfo, id_bytes: usize) -> DesignRecord {
    DesignRecord {
        id_bytes,
        detects_stale: info.detects_stale,
        limits: Some(
            match (info.strategy, info.product_cap) {
                (UpdateStrategy::Immediate, Some(cap)) => format!(
                    "immediate update; unsupported above {cap} world products per body (quadratic on moving chains)"
                ),
                (UpdateStrategy::Immediate, None) => "immediate update".to_string(),
                (UpdateStrategy::Deferred, _) => {
                    "deferred update: worlds current after end_frame".to_string()
                }
            } + if info.detects_stale {
                "; detects stale node IDs"
            } else {
                ""
            },
        ),
        contract_gaps: (!info.detects_stale)
            .then(|| crate::replay::GAP_NO_STALE_DETECTION.to_string())
            .into_iter()
            .collect(),
        ..crate::replay::design_record_of(TransformFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// Everything a transform replay observed, reduced to counts and a wrapping sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransformDigest {
    /// `GetWorld` ops.
    pub reads: u64,
    /// Wrapping sum of [`mix_world`] over every read.
    pub world_sum: u64,
    /// Live nodes after the replayed ops ([`TransformStore::len`]).
    pub live: u64,
}

impl ReplayDigest<TransformOp> for TransformDigest {
    /// Adds the counts and sums; `live` is the later replay's.
    fn merge(&mut self, later: &TransformDigest) {
        merge_fields!(self, later, add: [reads], wrapping: [world_sum], later: [live]);
    }

    /// One per op but `ApplyBatch`, as `TransformStats::work_units` counts them.
    fn work_units(&self, ops: &[TransformOp]) -> u64 {
        ops.iter()
            .filter(|op| !matches!(op, TransformOp::ApplyBatch))
            .count() as u64
    }
}

/// Mixes a read (handle, world matrix) into a digest sum: an FNV-style fold of the 12 bit
/// patterns seeded with the handle, so another node's matrix, one entry off by one bit or two
/// entries swapped all change it.
#[inline]
pub fn mix_world(handle: NodeHandle, world: &Affine) -> u64 {
    let mut h = u64::from(handle).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xCBF2_9CE4_8422_2325;
    for bits in world.bits() {
        h = (h ^ u64::from(bits)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A transform store plus the handle map and the batch buffer: the state a trace replays on.
pub struct TransformReplay<S: TransformStore> {
    /// The design under test.
    pub store: S,
    /// `nodes[k]` is the store's id for handle `k` (kept after `Destroy`, unused then).
    nodes: HandleMap<S::Id>,
    /// Entries queued by `BatchLocal` until `ApplyBatch`.
    batch: Vec<(S::Id, Affine)>,
}

/// The longest run of `BatchLocal` ops in `ops`.
fn longest_batch(ops: &[TransformOp]) -> usize {
    let (mut longest, mut run) = (0, 0);
    for op in ops {
        if matches!(op, TransformOp::BatchLocal { .. }) {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

impl<S: TransformStore> TransformReplay<S> {
    /// An empty store with room in the handle map and batch buffer for `trace`.
    pub fn for_trace(trace: &Trace<TransformOp>) -> Self {
        Self {
            store: S::new(),
            nodes: HandleMap::with_capacity(trace.handle_count()),
            batch: Vec::with_capacity(longest_batch(&trace.setup).max(longest_batch(&trace.body))),
        }
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// # Errors
    /// The store refused an op; the ops before it were applied.
    #[inline(never)]
    pub fn run<H: HandleIds<S::Id>>(
        &mut self,
        ops: &[TransformOp],
        nodes: &mut H,
    ) -> Result<TransformDigest, ReplayError> {
        let (mut reads, mut world_sum) = (0u64, 0u64);
        let store = &mut self.store;
        for (index, &op) in ops.iter().enumerate() {
            let refused = |error| ReplayError::at(index, op, error);
            match op {
                TransformOp::Create { parent, pose } => {
                    let parent = parent.map(|p| nodes.id(p));
                    let id = store
                        .create(parent, Affine::from_pose(pose))
                        .map_err(refused)?;
                    nodes
                        .created(id)
                        .map_err(|e| ReplayError::at(index, op, e))?;
                }
                TransformOp::Destroy(h) => store.destroy(nodes.id(h)).map_err(refused)?,
                TransformOp::SetParent { node, parent } => {
                    let parent = parent.map(|p| nodes.id(p));
                    store.set_parent(nodes.id(node), parent).map_err(refused)?;
                }
                TransformOp::SetLocal { node, pose } => store
                    .set_local(nodes.id(node), Affine::from_pose(pose))
                    .map_err(refused)?,
                TransformOp::BatchLocal { node, pose } => {
                    self.batch.push((nodes.id(node), Affine::from_pose(pose)));
                }
                TransformOp::ApplyBatch => {
                    store.set_local_batch(&self.batch).map_err(refused)?;
                    self.batch.clear();
                }
                TransformOp::EndFrame => store.end_frame(),
                TransformOp::GetWorld(h) => {
                    let world = store.world(nodes.id(h)).map_err(refused)?;
                    reads += 1;
                    world_sum = world_sum.wrapping_add(mix_world(h, &world));
                }
            }
        }
        Ok(TransformDigest {
            reads,
            world_sum,
            live: store.len() as u64,
        })
    }
}

impl<S: TransformStore + 'static> Replayer for TransformReplay<S> {
    type Family = TransformFamily;
    type Id = S::Id;

    fn design_name() -> &'static str {
        S::INFO.meta.name
    }

    fn unsupported_before(stats: &TransformStats) -> Option<String> {
        let cap = S::INFO.product_cap?;
        (stats.immediate_products > cap).then(|| {
            format!(
                "immediate update: the body moves subtrees totalling {} nodes (O(L²) per frame on chains), above the cap of {cap} world products per body",
                stats.immediate_products
            )
        })
    }

    forward_replay!(TransformReplay { for_trace, run }, handles: nodes);

    forward_design!(store, live: len);

    fn measure(
        trace: &Trace<TransformOp>,
        stats: &TransformStats,
    ) -> Result<Option<TransformMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let nodes_after_setup = state.store.len() as u64;
        let memory_after_setup = state.store.memory_bytes() as u64;
        let products_before = state.store.world_updates();
        state.replay(&trace.body)?;
        let products = state.store.world_updates() - products_before;
        Ok(Some(TransformMetrics {
            nodes_after_setup,
            bytes_per_node: ratio(memory_after_setup, nodes_after_setup),
            memory_bytes_after_body: state.store.memory_bytes() as u64,
            products_per_frame: ratio(products, stats.frames),
            products_per_set_local: ratio(products, stats.set_locals),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_units_of_a_digest_skip_apply_batch() {
        let ops = [
            TransformOp::BatchLocal { node: 0, pose: 1 },
            TransformOp::ApplyBatch,
            TransformOp::EndFrame,
        ];
        assert_eq!(TransformDigest::default().work_units(&ops), 2);
        assert_eq!(longest_batch(&ops), 1);
        assert_ne!(
            mix_world(1, &Affine::IDENTITY),
            mix_world(2, &Affine::IDENTITY)
        );
    }
}
