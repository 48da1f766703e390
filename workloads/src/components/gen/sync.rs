//! `comp-sync`: one system feeding another (000's reader comments 11 and 23): "for (i,tm) in
//! Bones: Node[bone_to_node[i]].tm = tm". Half the entities are bones, half nodes, all with a
//! point mass; each pass copies every bone's position to its node (`CopyPosition`), bones in
//! order. Here the mapping is **sorted** (bone `i`'s node increases with `i`: "if ... bone
//! list is sorted in the same order as the node list ... it would still be in-order access");
//! `comp-sync-random` maps to a random permutation of the nodes. Whether the node's data is
//! contiguous or boxed is the design's layout (the SoA designs vs the `oop_*` baselines).

use crate::components::ComponentOp;
use crate::components::builder::ComponentTraceBuilder;
use crate::generate::iteration_passes;
use crate::generate::parts::Recorder;
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// n/2 bones and n/2 nodes with a point mass; passes of CopyPosition(bone i -> node
    /// bone_to_node[i]), the mapping sorted
    pub struct CompSyncParams for "comp-sync" {
        // `comp-sync-random` has these parameters too.
        /// Copies the passes add up to: `clamp(ceil(visits / bones), 1, max_passes)` passes.
        pub visits: u64 = 500_000, in 1..=1u64 << 32,
        /// Most passes.
        pub max_passes: usize = 16, in 1..=4096,
    }
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &CompSyncParams) -> Trace<ComponentOp> {
    sync(NAME, n, seed, params, false)
}

/// Setup: `n / 2` bones (`Spawn`, `Attach` each), then the other `n - n / 2` nodes likewise.
/// The mapping: bone `i` → node `i * nodes / bones` (sorted) or the `i`-th of the nodes
/// shuffled (random, one `shuffle`). Body: the passes of `CopyPosition(bone i, node)` for `i`
/// in order.
pub(crate) fn sync(
    name: &str,
    n: usize,
    seed: u64,
    params: &CompSyncParams,
    random: bool,
) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(name, n, seed, params, |b, rng| {
        let (bones, nodes) = (n / 2, n - n / 2);
        let spawn_with_mass = |b: &mut ComponentTraceBuilder, rng: &mut TraceRng| {
            let h = b.spawn();
            b.attach(h, rng);
            h
        };
        let bone: Vec<u32> = (0..bones).map(|_| spawn_with_mass(b, rng)).collect();
        let mut node: Vec<u32> = (0..nodes).map(|_| spawn_with_mass(b, rng)).collect();
        let bone_to_node: Vec<u32> = if random {
            rng.shuffle(&mut node);
            node[..bones].to_vec()
        } else {
            (0..bones).map(|i| node[i * nodes / bones]).collect()
        };
        b.start_body();
        if bones > 0 {
            for _ in 0..iteration_passes(bones, params.visits, params.max_passes) {
                for (&from, &to) in bone.iter().zip(&bone_to_node) {
                    b.push(ComponentOp::CopyPosition(from, to));
                }
            }
        }
    })
}
