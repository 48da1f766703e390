//! The workload generators, one file each, and what they share.
//!
//! A generator is a pure function `generate(n, seed, &Params) -> Trace`: `n` is the live size
//! the workload is about, the seed drives the one [`TraceRng`], and the
//! typed parameter struct (declared with [`workload_params!`](crate::workload_params)) holds everything else. The
//! [registry](crate::registry) lists them all.
//!
//! Generators append ops through their family's trace builder, which tracks the live objects:
//! `TraceBuilder` (below) for ID tables, `TagTraceBuilder` (`tags_builder.rs`),
//! `AllocTraceBuilder` (`alloc_builder.rs`) and one `<prefix>_builder.rs` per later family.
//! They are made of the same two pieces in `builder.rs`: `TraceParts` (setup, body, the header)
//! and `LiveHandles` (the live set).
//!
//! | workload         | setup (default params)            | body (default params)                            | body ops at n = 1K / 64K / 1M |
//! |------------------|-----------------------------------|--------------------------------------------------|-------------------------------|
//! | `fill`           | —                                 | `n` Add                                          | 1K / 64K / 1M                 |
//! | `lookup-uniform` | `n` Add                           | 100K uniform Get                                 | 100K                          |
//! | `lookup-zipf`    | `n` Add                           | 100K Zipf(1.0) Get, scattered hot set            | 100K                          |
//! | `lookup-stale`   | `n` Add, `n/2` Remove, `n/2` Add  | 100K GetStale of removed handles                 | 100K                          |
//! | `lookup-stale-pass` | as `lookup-stale`              | passes of GetStale over every removed handle, shuffled | 100K / 131K / 500K      |
//! | `lookup-stale-vacant` | `n` Add, `n/2` Remove        | as `lookup-stale-pass` (the slots stay free)     | 100K / 131K / 500K            |
//! | `remove-random`  | `n` Add                           | `n/2` Remove, random order                       | 500 / 32K / 512K              |
//! | `iterate-full`   | `n` Add                           | `clamp(ceil(1M/n), 1, 64)` Iterate               | 64 / 16 / 1 passes            |
//! | `iterate-holes`  | `2n` Add, `n` Remove              | as `iterate-full`                                | 64 / 16 / 1 passes            |
//! | `churn`          | `n` Add                           | 100K × (Remove random, Add)                      | 200K                          |
//! | `churn-hot`      | `n − 1` Add                       | 400K × (Add, Remove oldest of last 5)            | 800K                          |
//! | `frame`          | `n` Add                           | 10 × (IterateMut, `min(n/10, 10K)` Get, `n/100` Remove + Add) | 1.2K / 79K / 310K |
//! | `article-mix`    | `n` Add                           | 100K of 80% Get, 10% Remove, 10% Add             | 100K                          |
//!
//! The tag-store family ([`TagOp`](crate::TagOp) traces; `n` is the entity count). "Build"
//! is [`tags_builder`]'s interleaved build: entity `k` spawned with its first tag, then the
//! remaining tags in rounds over all entities in shuffled order. Tag counts are 3 per entity
//! (`constant-3`) or heavy-tailed (`heavy-tail`: 99% uniform 1..=4, 1% uniform 20..=100, mean
//! 3.075); work units count one per single-entity op and one per tag visited by `VisitAll`.
//!
//! | workload                    | setup (default params)                  | body (default params)                                  | body ops at n = 1K / 100K / 1M      |
//! |-----------------------------|-----------------------------------------|--------------------------------------------------------|-------------------------------------|
//! | `tags-build`                | —                                       | build `n` entities, 3 tags each                        | 4K / 400K / 4M                      |
//! | `tags-build-heavy`          | —                                       | build `n` entities, heavy tail                         | ≈ 4.1K / 408K / 4.1M                |
//! | `tags-visit-entity`         | build, 3 tags each                      | 100K VisitEntity of random entities                    | 100K                                |
//! | `tags-visit-all`            | build, 3 tags each                      | `clamp(ceil(1M/tags), 1, 64)` VisitAll                 | 64 / 4 / 1 passes (192K / 1.2M / 3M tags) |
//! | `tags-visit-all-heavy`      | build, heavy tail                       | as `tags-visit-all`                                    | 64 / 4 / 1 passes (≈ 197K / 1.2M / 3.1M tags) |
//! | `tags-visit-all-fragmented` | build, 3 tags each, amid `3n` Foreign (16..=256 B), ≈ half freed | as `tags-visit-all`                 | 64 / 4 / 1 passes                   |
//! | `tags-has`                  | build, 3 tags each                      | 100K HasTag, random entity, tag present half the time  | 100K                                |
//! | `tags-mutate`               | build, 3 tags each                      | 100K of 80% reads (HasTag, VisitEntity), 20% AddTag/RemoveTag | 100K                         |
//! | `tags-churn`                | build, 3 tags each                      | 50K × (Despawn random, Spawn, 3 AddTag)                | 250K                                |
//!
//! Block allocators ([`AllocOp`](crate::AllocOp); `n` is the number of live blocks or arrays):
//!
//! | workload                 | setup (default params)                          | body (default params)                                     | body ops at n = 1K / 64K / 1M |
//! |--------------------------|-------------------------------------------------|-----------------------------------------------------------|-------------------------------|
//! | `alloc-vector-doubling`  | `n` Alloc 16 B, each grown to a random stage     | 100K steps: double (Realloc 2x), 5% halve, restart at target | about 130K                 |
//! | `alloc-random-mix`       | `n` Alloc, log-uniform 16 B..1 KiB               | 100K of 40% Alloc, 40% Free, 20% Realloc                  | 100K                          |
//! | `alloc-every-other-leaf` | `n` Alloc 16 B                                   | `ceil(n/2)` Free (even handles), `ceil(n/2)` Alloc 32 B   | 1K / 64K / 1M                 |
//! | `alloc-fixed-size`       | `n` Alloc 24 B (`size`)                          | 100K random Free / Alloc of that size                     | 100K                          |
//! | `alloc-wee-*` (6)        | —                                                | a real program's recording (82 to 46K ops)                | n ignored                     |
//!
//! Transform hierarchies ([`TransformOp`](crate::TransformOp); `n` is the node count; 10
//! frames; the forests have depth ≤ 5, about one node in eight a root; work units are one per
//! op but `ApplyBatch`):
//!
//! | workload               | setup (default params)                        | body per frame (default params)                            |
//! |------------------------|-----------------------------------------------|------------------------------------------------------------|
//! | `xf-chain-all`         | chains of 64                                  | SetLocal every node root to leaf, EndFrame, read each leaf |
//! | `xf-chain-all-5`       | chains of 5                                   | as `xf-chain-all`                                          |
//! | `xf-chain-all-1024`    | chains of 1024                                | as `xf-chain-all`                                          |
//! | `xf-chain-all-batch`   | chains of 64                                  | one BatchLocal run + ApplyBatch per chain, EndFrame, leaves |
//! | `xf-root-move`         | forest                                        | SetLocal every root, EndFrame, read 1 % random             |
//! | `xf-sparse-1pct`       | forest + 6 warm-up frames                     | SetLocal 1 % random, EndFrame, read them                   |
//! | `xf-persistent-movers` | forest, fixed 10 % movers, 6 warm-up frames   | SetLocal the movers, EndFrame, read a tenth of them        |
//! | `xf-reparent-churn`    | forest                                        | 1 % of n: SetParent / Destroy+Create / SetLocal, EndFrame, read 1 % |
//! | `xf-query`             | forest, EndFrame                              | 100K random GetWorld (no frames)                           |
//! One-to-many indices ([`RelationOp`](crate::RelationOp); `n` is the number of relations).
//! "Sets" is [`idx_builder`]'s `build_sets`: keys `0..k` with drawn set sizes (uniform 1..=7
//! unless said), observers uniform over the same `k` entities, added in shuffled order.
//!
//! | workload            | setup (default params)          | body (default params)                                      |
//! |---------------------|---------------------------------|------------------------------------------------------------|
//! | `idx-build`         | —                               | sets: `n` Add                                              |
//! | `idx-notify`        | sets (`layout`: scattered)      | 100K of 80% VisitByA, 10% Add, 10% Remove                  |
//! | `idx-first`         | sets                            | 100K FirstByA                                              |
//! | `idx-star`          | `n` records of one key          | remove all `n` in random order                             |
//! | `idx-entity-delete` | sets                            | `min(10K, k/10)` RemoveEntity of distinct entities         |
//! | `idx-heavy-tail`    | sets, 1% of keys 100..=1000     | as `idx-notify`                                            |
//! | `idx-churn`         | sets                            | 50K × (Remove random, Add)                                 |
//! | `idx-tags`          | `n/3` entities × 3 Zipf tags    | VisitByA common / rare tags in turn, about 1M records      |
//!
//! Spatial indices ([`SpatialOp`](crate::SpatialOp); `n` is the number of points; see
//! [`sp_builder`] for the box: ~16 points per group of 2^n cells of side 2r, r = 4; work units
//! one per op):
//!
//! | workload          | setup (default params)              | body (default params)                              |
//! |-------------------|-------------------------------------|----------------------------------------------------|
//! | `sp-uniform`      | `n` uniform 2D points               | 1K queries at r, uniform centres                   |
//! | `sp-large-radius` | as `sp-uniform`                     | 1K queries at 10 r                                 |
//! | `sp-clustered`    | Gaussian clusters of 256, σ = 2 cells | 1K queries at r on random points                 |
//! | `sp-moving`       | as `sp-uniform`                     | 10 × (move 1% by ≤ r per axis, 100 queries at r)   |
//! | `sp-3d`           | `n` uniform 3D points (16 per 8 cells) | 1K queries at r                                 |
//!
//! Entity resources ([`SpawnOp`](crate::SpawnOp); `n` is the number of entities spawned; see
//! [`spawn_builder`] for the level; work units one per spawned entity):
//!
//! | workload        | setup (default params)                               | body (default params)                  |
//! |-----------------|------------------------------------------------------|----------------------------------------|
//! | `spawn-level`   | a level of `n` entities, Compile                     | Spawn once                             |
//! | `spawn-prefab`  | a 5-entity prefab (root + chain of 4), Compile       | Spawn it `n / 5` times                 |
//! | `spawn-restart` | as `spawn-level`                                     | Spawn, then 9 × (DespawnAll, Spawn)    |
//!
//! Every generator keeps the number of live objects (IDs, entities, blocks) at or below `n` at
//! all times, except the recorded `alloc-wee-*` (which ignore `n`) and `iterate-holes`, whose
//! point is `n` live objects spread over more slots (its peak is the slot count). `BodyStats::peak_live` reports the peak, so a harness can skip a fixed-capacity
//! design that cannot hold it.
//!
//! The module is `generators` because `gen` is a reserved keyword in Rust 2024; its files live
//! in `src/gen/`.

mod alloc_builder;
pub mod alloc_every_other_leaf;
pub mod alloc_fixed_size;
pub mod alloc_random_mix;
pub mod alloc_vector_doubling;
pub mod alloc_wee;
pub mod article_mix;
mod builder;
pub mod churn;
pub mod churn_hot;
pub mod churn_hot_stale;
mod comp_builder;
pub mod comp_frame;
pub mod comp_gc;
pub mod comp_lookup;
pub mod comp_multi;
pub mod comp_simulate;
pub mod comp_simulate_sparse;
pub mod comp_sync;
pub mod comp_sync_random;
pub mod fill;
pub mod frame;
pub mod idx_build;
mod idx_builder;
pub mod idx_churn;
pub mod idx_entity_delete;
pub mod idx_first;
pub mod idx_heavy_tail;
pub mod idx_notify;
pub mod idx_star;
pub mod idx_tags;
pub mod iterate_full;
pub mod iterate_full_p128;
pub mod iterate_full_p8;
pub mod iterate_holes;
mod kv_builder;
pub mod kv_grow_strings;
pub mod kv_health_only;
pub mod kv_keys_sweep;
pub mod kv_overrides;
pub mod kv_sheet;
pub mod kv_snapshot;
pub mod lookup_key_order;
pub mod lookup_key_order_sorted;
pub mod lookup_stale;
pub mod lookup_stale_pass;
pub mod lookup_stale_vacant;
pub mod lookup_uniform;
pub mod lookup_uniform_p128;
pub mod lookup_uniform_p8;
pub mod lookup_zipf;
pub mod remove_random;
pub mod sp_3d;
mod sp_builder;
pub mod sp_clustered;
pub mod sp_large_radius;
pub mod sp_moving;
pub mod sp_uniform;
mod spawn_builder;
pub mod spawn_level;
pub mod spawn_prefab;
pub mod spawn_restart;
pub mod tags_build;
pub mod tags_build_heavy;
pub mod tags_builder;
pub mod tags_churn;
pub mod tags_has;
pub mod tags_mutate;
pub mod tags_visit_all;
pub mod tags_visit_all_fragmented;
pub mod tags_visit_all_heavy;
pub mod tags_visit_entity;
pub mod xf_builder;
pub mod xf_chain_all;
pub mod xf_chain_all_1024;
pub mod xf_chain_all_5;
pub mod xf_chain_all_batch;
pub mod xf_persistent_movers;
pub mod xf_query;
pub mod xf_reparent_churn;
pub mod xf_root_move;
pub mod xf_sparse_1pct;

pub use alloc_wee::{
    alloc_wee_cpp_demangle, alloc_wee_dogfood, alloc_wee_ffmpeg, alloc_wee_find, alloc_wee_grep,
    alloc_wee_ls,
};

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::op::{Handle, Op};
use crate::rng::TraceRng;
use crate::trace::Trace;
use builder::{LiveHandles, TraceParts};

/// Largest count any parameter may ask for (ops, steps, frames × work): `2^28` ops already
/// take 2 GiB as `Vec<Op>`.
pub const MAX_OPS: usize = 1 << 28;

/// One field of a parameter struct: its name and doc comment lines, for `dodbench list`.
#[derive(Debug, Clone, Copy)]
pub struct FieldDoc {
    /// The field's name, as in the JSON.
    pub name: &'static str,
    /// The field's doc comment, one entry per line.
    pub doc: &'static [&'static str],
}

/// What every workload's parameter struct provides; implemented by [`workload_params!`](crate::workload_params).
pub trait Params: Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq {
    /// The fields, in declaration order, with their doc comments.
    fn fields() -> Vec<FieldDoc>;

    /// Checks every field against its declared range.
    ///
    /// # Errors
    /// A one-line message naming the first out-of-range field.
    fn check(&self) -> Result<(), String>;
}

/// Declares a workload's parameter struct: each field with its doc comment, default and allowed
/// range, written once. Expands to the struct (`Serialize`, `Deserialize` with
/// `#[serde(default, deny_unknown_fields)]` so missing fields take their defaults and typos are
/// errors, `Clone`, `Debug`, `PartialEq`), its `Default`, and its [`Params`] impl.
///
/// ```
/// workloads::workload_params! {
///     /// Parameters of an example workload.
///     pub struct ExampleParams {
///         /// Number of ops in the body.
///         pub ops: usize = 100, in 1..=1000,
///     }
/// }
/// use workloads::generators::Params;
/// assert_eq!(ExampleParams::default().ops, 100);
/// assert!(ExampleParams { ops: 0 }.check().is_err());
/// ```
#[macro_export]
macro_rules! workload_params {
    (
        $(#[doc = $struct_doc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                pub $field:ident : $ty:ty = $default:expr, in $range:expr
            ),* $(,)?
        }
    ) => {
        $(#[doc = $struct_doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $(
                $(#[doc = $field_doc])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        impl $crate::generators::Params for $name {
            fn fields() -> Vec<$crate::generators::FieldDoc> {
                vec![$($crate::generators::FieldDoc {
                    name: stringify!($field),
                    doc: &[$($field_doc),*],
                }),*]
            }

            fn check(&self) -> Result<(), String> {
                $(
                    let range = $range;
                    if !range.contains(&self.$field) {
                        return Err(format!(
                            "parameter `{}` = {:?} is outside {:?}",
                            stringify!($field),
                            self.$field,
                            range
                        ));
                    }
                )*
                Ok(())
            }
        }
    };
}

/// Builds an ID-table trace op by op while tracking which handles are live, so generators say
/// "remove a random live object" instead of keeping their own bookkeeping.
///
/// Invariant: `live` holds exactly the handles added and not removed by the ops in `parts`.
#[derive(Debug, Default)]
pub(crate) struct TraceBuilder {
    parts: TraceParts<Op>,
    live: LiveHandles,
}

impl TraceBuilder {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Ops from now on go to the body.
    pub(crate) fn start_body(&mut self) {
        self.parts.start_body();
    }

    /// Appends `op` as it is, with no live-handle bookkeeping: for ops that neither add nor
    /// remove (`Get`, `GetStale`, `Iterate`, `IterateMut`).
    pub(crate) fn push(&mut self, op: Op) {
        self.parts.push(op);
    }

    pub(crate) fn live_count(&self) -> usize {
        self.live.len()
    }

    /// Appends an `Add` and returns the handle it creates.
    pub(crate) fn add(&mut self) -> Handle {
        self.parts.push(Op::Add);
        self.live.insert_next()
    }

    /// A uniformly chosen live handle (no op appended).
    ///
    /// # Panics
    /// If nothing is live.
    pub(crate) fn random_live(&self, rng: &mut TraceRng) -> Handle {
        self.live.random(rng)
    }

    /// Appends a `Get` of a uniformly chosen live handle.
    pub(crate) fn get_random(&mut self, rng: &mut TraceRng) {
        let handle = self.random_live(rng);
        self.push(Op::Get(handle));
    }

    /// Appends a `Remove` of `handle`.
    ///
    /// # Panics
    /// If `handle` is not live.
    pub(crate) fn remove(&mut self, handle: Handle) {
        self.live.remove(handle);
        self.parts.push(Op::Remove(handle));
    }

    /// Appends a `Remove` of a uniformly chosen live handle and returns it.
    pub(crate) fn remove_random(&mut self, rng: &mut TraceRng) -> Handle {
        let handle = self.random_live(rng);
        self.remove(handle);
        handle
    }

    /// The finished trace, its header naming the generator and its resolved parameters.
    pub(crate) fn finish(
        self,
        generator: &str,
        n: usize,
        seed: u64,
        params: &impl Serialize,
    ) -> Trace<Op> {
        self.parts.finish(generator, n, seed, params)
    }
}

/// `round(n * fraction)` clamped to `min..=n` (a fraction of the objects, but at least `min`
/// when `n` allows).
pub(crate) fn fraction_of(n: usize, fraction: f64, min: usize) -> usize {
    ((n as f64 * fraction).round() as usize).clamp(min.min(n), n)
}

/// Iteration passes for `n` live objects: enough to visit about `target_visits` objects,
/// clamped to `1..=max_passes`, so small tables get enough work to time and large ones stay
/// quick.
pub(crate) fn iteration_passes(n: usize, target_visits: u64, max_passes: usize) -> usize {
    let n = n.max(1) as u64;
    usize::try_from(target_visits.div_ceil(n))
        .unwrap_or(usize::MAX)
        .clamp(1, max_passes.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_appends_the_ops_it_tracks() {
        let mut rng = TraceRng::new(2);
        let mut b = TraceBuilder::new();
        for _ in 0..3 {
            b.add();
        }
        b.start_body();
        let removed = b.remove_random(&mut rng);
        b.get_random(&mut rng);
        assert_eq!((b.add(), b.live_count()), (3, 3));
        let t = b.finish("test", 3, 2, &());
        assert_eq!(t.setup, vec![Op::Add; 3]);
        assert_eq!(t.body[0], Op::Remove(removed));
        assert!(matches!(t.body[1], Op::Get(h) if h != removed));
        assert_eq!(t.body[2], Op::Add);
        t.validate().unwrap();
    }

    #[test]
    fn passes_scale_with_n_within_bounds() {
        assert_eq!(iteration_passes(1_000, 1_000_000, 64), 64);
        assert_eq!(iteration_passes(65_536, 1_000_000, 64), 16);
        assert_eq!(iteration_passes(1 << 20, 1_000_000, 64), 1);
        assert_eq!(fraction_of(1, 0.5, 1), 1);
        assert_eq!(fraction_of(10, 0.5, 1), 5);
        assert_eq!(fraction_of(0, 0.5, 1), 0);
    }
}
