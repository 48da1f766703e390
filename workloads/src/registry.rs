//! The one list of workload generators: names, descriptions, parameters with their defaults,
//! and dispatch from a name and JSON parameters to a trace. The CLI, the benches, the tests and
//! the report all read it; adding a workload is one file in `src/gen/` plus one line in
//! `ENTRIES`.

use serde_json::Value;
use thiserror::Error;

use crate::family::{AnyTrace, TraceOp};
use crate::generators::alloc_wee::WeeTraceParams;
use crate::generators::{self, Params};
use crate::trace::Trace;
use crate::vocabularies::DefaultOp;

/// Largest `n` a generator accepts (handles are `u32`, and `iterate-holes` adds up to `20 n`).
pub const MAX_N: usize = 1 << 26;

/// A workload as listed by `dodbench list`.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadInfo {
    /// Registry name, e.g. `lookup-zipf`.
    pub name: &'static str,
    /// Whether the trace is a recording (a real program's) that ignores `n`: benchmarks run
    /// it once, not once per size.
    pub recorded: bool,
    /// The family whose designs replay it ([`TraceOp::FAMILY`]: `id_table`, `tags`, `alloc`).
    pub family: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Whether the body relies on detecting stale IDs (`GetStale`), so designs that cannot
    /// detect them must report the workload as unsupported.
    pub needs_stale_detection: bool,
    /// The parameters, in declaration order.
    pub params: Vec<ParamInfo>,
    /// For a point of a parameter sweep, the workload it varies: the same generator with some
    /// defaults changed (shown in `params`), so a claim can follow a design's cost across the
    /// parameter. The bench runs sweep points in default and full runs, not quick ones.
    pub variant_of: Option<&'static str>,
}

/// One parameter of a workload.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    /// Field name in the params JSON.
    pub name: &'static str,
    /// The field's doc comment, joined into one paragraph.
    pub description: String,
    /// The default value, as JSON.
    pub default: Value,
}

/// Why [`generate`] could not produce a trace.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WorkloadError {
    /// No workload has that name.
    #[error("unknown workload `{name}`; valid workloads: {valid}")]
    UnknownWorkload {
        /// The name asked for.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// The parameters are not a JSON object of the workload's fields, or a value is out of
    /// range.
    #[error("bad parameters for workload `{workload}`: {message}")]
    BadParams {
        /// The workload.
        workload: &'static str,
        /// What is wrong, naming the field.
        message: String,
    },
    /// The workload is of another family than the caller asked for.
    #[error("workload `{workload}` is a `{family}` workload, not `{expected}`")]
    WrongFamily {
        /// The workload.
        workload: &'static str,
        /// Its family.
        family: &'static str,
        /// The family asked for.
        expected: &'static str,
    },
    /// `n` is zero or above [`MAX_N`].
    #[error("workload `{workload}`: n = {n} is outside 1..={max}", max = MAX_N)]
    BadN {
        /// The workload.
        workload: &'static str,
        /// The size asked for.
        n: usize,
    },
}

/// A registry entry: the workload's constants and its type-erased entry points.
struct Entry {
    name: &'static str,
    recorded: bool,
    family: &'static str,
    description: &'static str,
    needs_stale_detection: bool,
    variant_of: Option<&'static str>,
    params: fn() -> Vec<ParamInfo>,
    generate: fn(usize, u64, Option<&Value>) -> Result<AnyTrace, WorkloadError>,
}

/// The family of a generator, from its return type.
const fn family_of<P, O: TraceOp>(_generate: fn(usize, u64, &P) -> Trace<O>) -> &'static str {
    O::FAMILY
}

/// Builds an entry for a generator whose params type is `P`. A macro rather than a function
/// so each entry gets its own monomorphic `fn` pointers.
macro_rules! entry {
    ($module:ident, $params:ty, stale: $stale:expr) => {
        entry!($module, $params, stale: $stale, check: |_, _| Ok(()))
    };
    ($module:ident, $params:ty, stale: $stale:expr, check: $check:expr) => {
        entry!(@full $module, $params, $stale, $check, false)
    };
    // A recorded trace replayed as it is: `n` is ignored.
    ($module:ident, $params:ty, recorded) => {
        entry!(@full $module, $params, false, |_, _| Ok(()), true)
    };
    (@full $module:ident, $params:ty, $stale:expr, $check:expr, $recorded:expr) => {
        Entry {
            name: generators::$module::NAME,
            recorded: $recorded,
            family: family_of::<$params, _>(generators::$module::generate),
            description: generators::$module::DESCRIPTION,
            needs_stale_detection: $stale,
            variant_of: None,
            params: param_infos::<$params>,
            generate: |n, seed, json| {
                let name = generators::$module::NAME;
                let params: $params = parse_params(name, json)?;
                let check: fn(usize, &$params) -> Result<(), String> = $check;
                check(n, &params).map_err(|message| WorkloadError::BadParams {
                    workload: name,
                    message,
                })?;
                Ok(AnyTrace::new(generators::$module::generate(n, seed, &params)))
            },
        }
    };
}

/// A point of a parameter sweep: generator `$module` named `$name`, its defaults changed by the
/// JSON object `$overrides` (the caller's parameters still win), the trace's header naming
/// `$name`. A macro for the same reason as [`entry!`].
macro_rules! variant {
    ($module:ident, $params:ty, $name:literal, $overrides:literal, $description:literal) => {
        Entry {
            name: $name,
            recorded: false,
            family: family_of::<$params, _>(generators::$module::generate),
            description: $description,
            needs_stale_detection: false,
            variant_of: Some(generators::$module::NAME),
            params: || with_overrides(param_infos::<$params>(), $overrides),
            generate: |n, seed, json| {
                let merged = overridden($overrides, json);
                let params: $params = parse_params($name, Some(&merged))?;
                let mut trace = generators::$module::generate(n, seed, &params);
                trace.header.generator = $name.to_string();
                Ok(AnyTrace::new(trace))
            },
        }
    };
}

/// Every workload, in the order `dodbench list` shows them.
const ENTRIES: &[Entry] = &[
    entry!(fill, generators::fill::FillParams, stale: false),
    entry!(lookup_uniform, generators::lookup_uniform::LookupUniformParams, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(lookup_uniform_p8, generators::lookup_uniform_p8::LookupUniformP8Params, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(lookup_uniform_p128, generators::lookup_uniform_p128::LookupUniformP128Params, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(lookup_key_order, generators::lookup_key_order::LookupKeyOrderParams, stale: false),
    entry!(lookup_key_order_sorted, generators::lookup_key_order_sorted::LookupKeyOrderSortedParams, stale: false),
    entry!(lookup_zipf, generators::lookup_zipf::LookupZipfParams, stale: false),
    entry!(lookup_stale, generators::lookup_stale::LookupStaleParams, stale: true),
    entry!(lookup_stale_pass, generators::lookup_stale_pass::LookupStalePassParams, stale: true),
    entry!(lookup_stale_vacant, generators::lookup_stale_vacant::LookupStaleVacantParams, stale: true),
    entry!(remove_random, generators::remove_random::RemoveRandomParams, stale: false),
    entry!(iterate_full, generators::iterate_full::IterateFullParams, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(iterate_full_p8, generators::iterate_full_p8::IterateFullP8Params, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(iterate_full_p128, generators::iterate_full_p128::IterateFullP128Params, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(iterate_holes, generators::iterate_holes::IterateHolesParams, stale: false),
    entry!(churn, generators::churn::ChurnParams, stale: false),
    entry!(churn_hot, generators::churn_hot::ChurnHotParams, stale: false),
    entry!(churn_hot_stale, generators::churn_hot_stale::ChurnHotStaleParams, stale: true),
    entry!(frame, generators::frame::FrameParams, stale: false, check: generators::frame::check),
    entry!(article_mix, generators::article_mix::ArticleMixParams, stale: false),
    entry!(tags_build, generators::tags_build::TagsBuildParams, stale: false),
    entry!(tags_build_heavy, generators::tags_build_heavy::TagsBuildHeavyParams, stale: false),
    entry!(tags_visit_entity, generators::tags_visit_entity::TagsVisitEntityParams, stale: false),
    entry!(tags_visit_all, generators::tags_visit_all::TagsVisitAllParams, stale: false),
    entry!(
        tags_visit_all_heavy,
        generators::tags_visit_all_heavy::TagsVisitAllHeavyParams,
        stale: false
    ),
    entry!(
        tags_visit_all_fragmented,
        generators::tags_visit_all_fragmented::TagsVisitAllFragmentedParams,
        stale: false
    ),
    entry!(tags_has, generators::tags_has::TagsHasParams, stale: false),
    entry!(tags_mutate, generators::tags_mutate::TagsMutateParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        tags_mutate,
        generators::tags_mutate::TagsMutateParams,
        "tags-mutate-r0",
        r#"{"reads_per_write": 0}"#,
        "tags-mutate with writes only (the mutation-rate sweep)"
    ),
    variant!(
        tags_mutate,
        generators::tags_mutate::TagsMutateParams,
        "tags-mutate-r1",
        r#"{"reads_per_write": 1}"#,
        "tags-mutate with one read per write"
    ),
    variant!(
        tags_mutate,
        generators::tags_mutate::TagsMutateParams,
        "tags-mutate-r16",
        r#"{"reads_per_write": 16}"#,
        "tags-mutate with 16 reads per write"
    ),
    variant!(
        tags_mutate,
        generators::tags_mutate::TagsMutateParams,
        "tags-mutate-r64",
        r#"{"reads_per_write": 64}"#,
        "tags-mutate with 64 reads per write"
    ),
    entry!(tags_churn, generators::tags_churn::TagsChurnParams, stale: false),
    entry!(alloc_vector_doubling, generators::alloc_vector_doubling::VectorDoublingParams, stale: false),
    entry!(alloc_random_mix, generators::alloc_random_mix::RandomMixParams, stale: false, check: generators::alloc_random_mix::check),
    entry!(alloc_every_other_leaf, generators::alloc_every_other_leaf::EveryOtherLeafParams, stale: false),
    entry!(alloc_fixed_size, generators::alloc_fixed_size::FixedSizeParams, stale: false),
    entry!(comp_simulate, generators::comp_simulate::CompSimulateParams, stale: false),
    entry!(comp_simulate_sparse, generators::comp_simulate_sparse::CompSimulateSparseParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        comp_simulate_sparse,
        generators::comp_simulate_sparse::CompSimulateSparseParams,
        "comp-simulate-sparse-d100",
        r#"{"density": 1.0}"#,
        "comp-simulate-sparse with every entity holding a point mass (the density sweep)"
    ),
    variant!(
        comp_simulate_sparse,
        generators::comp_simulate_sparse::CompSimulateSparseParams,
        "comp-simulate-sparse-d50",
        r#"{"density": 0.5}"#,
        "comp-simulate-sparse at density 0.5"
    ),
    variant!(
        comp_simulate_sparse,
        generators::comp_simulate_sparse::CompSimulateSparseParams,
        "comp-simulate-sparse-d1",
        r#"{"density": 0.01}"#,
        "comp-simulate-sparse at density 0.01"
    ),
    entry!(comp_lookup, generators::comp_lookup::CompLookupParams, stale: false),
    entry!(comp_frame, generators::comp_frame::CompFrameParams, stale: false),
    entry!(comp_gc, generators::comp_gc::CompGcParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        comp_gc,
        generators::comp_gc::CompGcParams,
        "comp-gc-kill0",
        r#"{"kill_fraction": 0.0}"#,
        "comp-gc with no deaths: the GC steps alone (the kill-fraction sweep)"
    ),
    variant!(
        comp_gc,
        generators::comp_gc::CompGcParams,
        "comp-gc-kill0p1",
        r#"{"kill_fraction": 0.001}"#,
        "comp-gc with 0.1% of the entities killed per frame"
    ),
    variant!(
        comp_gc,
        generators::comp_gc::CompGcParams,
        "comp-gc-kill10",
        r#"{"kill_fraction": 0.1}"#,
        "comp-gc with 10% of the entities killed per frame"
    ),
    entry!(comp_sync, generators::comp_sync::CompSyncParams, stale: false),
    entry!(comp_sync_random, generators::comp_sync::CompSyncParams, stale: false),
    entry!(comp_multi, generators::comp_multi::CompMultiParams, stale: false),
    entry!(xf_chain_all, generators::xf_chain_all::XfChainAllParams, stale: false),
    entry!(xf_chain_all_5, generators::xf_chain_all_5::XfChainAll5Params, stale: false),
    entry!(xf_chain_all_1024, generators::xf_chain_all_1024::XfChainAll1024Params, stale: false),
    entry!(xf_chain_all_batch, generators::xf_chain_all_batch::XfChainAllBatchParams, stale: false),
    entry!(xf_root_move, generators::xf_root_move::XfRootMoveParams, stale: false),
    entry!(xf_sparse_1pct, generators::xf_sparse_1pct::XfSparse1pctParams, stale: false),
    entry!(xf_persistent_movers, generators::xf_persistent_movers::XfPersistentMoversParams, stale: false),
    entry!(xf_reparent_churn, generators::xf_reparent_churn::XfReparentChurnParams, stale: false),
    entry!(xf_query, generators::xf_query::XfQueryParams, stale: false),
    entry!(sp_uniform, generators::sp_uniform::SpUniformParams, stale: false),
    entry!(sp_large_radius, generators::sp_large_radius::SpLargeRadiusParams, stale: false),
    entry!(sp_clustered, generators::sp_clustered::SpClusteredParams, stale: false),
    entry!(sp_moving, generators::sp_moving::SpMovingParams, stale: false),
    entry!(sp_3d, generators::sp_3d::Sp3dParams, stale: false),
    entry!(spawn_level, generators::spawn_level::SpawnLevelParams, stale: false),
    entry!(spawn_prefab, generators::spawn_prefab::SpawnPrefabParams, stale: false),
    entry!(spawn_restart, generators::spawn_restart::SpawnRestartParams, stale: false),
    entry!(alloc_wee_cpp_demangle, WeeTraceParams, recorded),
    entry!(alloc_wee_dogfood, WeeTraceParams, recorded),
    entry!(alloc_wee_ffmpeg, WeeTraceParams, recorded),
    entry!(alloc_wee_find, WeeTraceParams, recorded),
    entry!(alloc_wee_grep, WeeTraceParams, recorded),
    entry!(alloc_wee_ls, WeeTraceParams, recorded),
    entry!(kv_sheet, generators::kv_sheet::KvSheetParams, stale: false),
    entry!(kv_health_only, generators::kv_health_only::KvHealthOnlyParams, stale: false),
    entry!(kv_keys_sweep, generators::kv_keys_sweep::KvKeysSweepParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k1",
        r#"{"keys": 1}"#,
        "kv-keys-sweep at keys = 1 (the key-count sweep: where linear search stops beating a map)"
    ),
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k2",
        r#"{"keys": 2}"#,
        "kv-keys-sweep at keys = 2"
    ),
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k4",
        r#"{"keys": 4}"#,
        "kv-keys-sweep at keys = 4"
    ),
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k16",
        r#"{"keys": 16}"#,
        "kv-keys-sweep at keys = 16"
    ),
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k32",
        r#"{"keys": 32}"#,
        "kv-keys-sweep at keys = 32"
    ),
    variant!(
        kv_keys_sweep,
        generators::kv_keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k64",
        r#"{"keys": 64}"#,
        "kv-keys-sweep at keys = 64"
    ),
    entry!(kv_grow_strings, generators::kv_grow_strings::KvGrowStringsParams, stale: false),
    entry!(kv_snapshot, generators::kv_snapshot::KvSnapshotParams, stale: false),
    entry!(kv_overrides, generators::kv_overrides::KvOverridesParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        kv_overrides,
        generators::kv_overrides::KvOverridesParams,
        "kv-overrides-o0",
        r#"{"override_percent": 0}"#,
        "kv-overrides with no field overridden (the override-percent sweep)"
    ),
    variant!(
        kv_overrides,
        generators::kv_overrides::KvOverridesParams,
        "kv-overrides-o50",
        r#"{"override_percent": 50}"#,
        "kv-overrides with half the fields overridden"
    ),
    variant!(
        kv_overrides,
        generators::kv_overrides::KvOverridesParams,
        "kv-overrides-o100",
        r#"{"override_percent": 100}"#,
        "kv-overrides with every field overridden"
    ),
    entry!(idx_build, generators::idx_build::IdxBuildParams, stale: false),
    entry!(idx_notify, generators::idx_notify::IdxNotifyParams, stale: false),
    entry!(idx_first, generators::idx_first::IdxFirstParams, stale: false),
    entry!(idx_star, generators::idx_star::IdxStarParams, stale: false),
    entry!(idx_entity_delete, generators::idx_entity_delete::IdxEntityDeleteParams, stale: false),
    entry!(idx_heavy_tail, generators::idx_heavy_tail::IdxHeavyTailParams, stale: false),
    entry!(idx_churn, generators::idx_churn::IdxChurnParams, stale: false),
    entry!(idx_tags, generators::idx_tags::IdxTagsParams, stale: false),
];

/// Every workload with its parameters and their defaults.
///
/// ```
/// let all = workloads::registry::workloads();
/// assert!(all.iter().any(|w| w.name == "lookup-stale" && w.needs_stale_detection));
/// ```
pub fn workloads() -> Vec<WorkloadInfo> {
    ENTRIES
        .iter()
        .map(|e| WorkloadInfo {
            name: e.name,
            recorded: e.recorded,
            family: e.family,
            description: e.description,
            needs_stale_detection: e.needs_stale_detection,
            params: (e.params)(),
            variant_of: e.variant_of,
        })
        .collect()
}

/// The workloads of one family (`id_table`, `tags`, `alloc`), in registry order.
pub fn workloads_of(family: &str) -> Vec<WorkloadInfo> {
    workloads()
        .into_iter()
        .filter(|w| w.family == family)
        .collect()
}

/// Whether the workload `name` relies on stale-ID detection; `false` for unknown names.
pub fn needs_stale_detection(name: &str) -> bool {
    ENTRIES
        .iter()
        .any(|e| e.name == name && e.needs_stale_detection)
}

/// Generates the trace of workload `name`, a workload of the default family ([`DefaultOp`],
/// the ID tables), at live size `n` from `seed`. `params` is a JSON
/// object of the workload's parameters; missing fields (or `None`, or `null`) take their
/// defaults. The trace header records the full parameters, defaults included.
///
/// ```
/// let params = serde_json::json!({ "ops": 250 });
/// let trace = workloads::registry::generate("lookup-uniform", 100, 1, Some(&params)).unwrap();
/// // Whole passes over the 100 live objects, as many as reach 250 lookups.
/// assert_eq!(trace.body.len(), 300);
/// assert_eq!(
///     trace.header.params,
///     serde_json::json!({ "ops": 250, "payload_bytes": 32 })
/// );
/// ```
///
/// # Errors
/// [`WorkloadError::UnknownWorkload`] listing the valid names; [`WorkloadError::BadN`];
/// [`WorkloadError::BadParams`] for unknown fields, wrong types or out-of-range values;
/// [`WorkloadError::WrongFamily`] for a workload of another family.
pub fn generate(
    name: &str,
    n: usize,
    seed: u64,
    params: Option<&Value>,
) -> Result<Trace<DefaultOp>, WorkloadError> {
    generate_for::<DefaultOp>(name, n, seed, params)
}

/// [`generate`] for a workload of family `O`.
///
/// # Errors
/// As [`generate_any`], plus [`WorkloadError::WrongFamily`] for a workload of another family.
pub fn generate_for<O: TraceOp>(
    name: &str,
    n: usize,
    seed: u64,
    params: Option<&Value>,
) -> Result<Trace<O>, WorkloadError> {
    let trace = generate_any(name, n, seed, params)?;
    let family = trace.family();
    trace
        .try_into_family()
        .map_err(|_| WorkloadError::WrongFamily {
            workload: ENTRIES
                .iter()
                .find(|e| e.name == name)
                .map_or("?", |e| e.name),
            family,
            expected: O::FAMILY,
        })
}

/// Generates the trace of workload `name` (of any family) at live size `n` from `seed`, as
/// [`generate`] describes.
///
/// # Errors
/// As [`generate`].
pub fn generate_any(
    name: &str,
    n: usize,
    seed: u64,
    params: Option<&Value>,
) -> Result<AnyTrace, WorkloadError> {
    let entry =
        ENTRIES
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| WorkloadError::UnknownWorkload {
                name: name.to_owned(),
                valid: ENTRIES
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
    if !(1..=MAX_N).contains(&n) {
        return Err(WorkloadError::BadN {
            workload: entry.name,
            n,
        });
    }
    (entry.generate)(n, seed, params)
}

/// Deserialises and range-checks a workload's parameters.
fn parse_params<P: Params>(
    workload: &'static str,
    json: Option<&Value>,
) -> Result<P, WorkloadError> {
    let bad = |message: String| WorkloadError::BadParams { workload, message };
    let params = match json {
        None | Some(Value::Null) => P::default(),
        Some(value) if !value.is_object() => {
            return Err(bad(format!(
                "parameters must be a JSON object of named fields, got {value}"
            )));
        }
        Some(value) => P::deserialize(value).map_err(|e| bad(name_bad_field::<P>(value, e)))?,
    };
    params.check().map_err(bad)?;
    Ok(params)
}

/// The deserialisation error `error`, prefixed with the field that causes it: serde's
/// message for a wrong type ("invalid type: string, expected usize") does not name it.
fn name_bad_field<P: Params>(value: &Value, error: serde_json::Error) -> String {
    let culprit = value.as_object().and_then(|object| {
        object.iter().find_map(|(key, field)| {
            let alone = Value::Object([(key.clone(), field.clone())].into_iter().collect());
            P::deserialize(&alone)
                .err()
                .map(|e| format!("parameter `{key}`: {e}"))
        })
    });
    culprit.unwrap_or_else(|| error.to_string())
}

/// `infos` with the defaults `overrides` (a JSON object literal of a [`variant!`]) changes.
fn with_overrides(mut infos: Vec<ParamInfo>, overrides: &str) -> Vec<ParamInfo> {
    let overrides: Value = serde_json::from_str(overrides).expect("a variant's overrides are JSON");
    for info in &mut infos {
        if let Some(v) = overrides.get(info.name) {
            info.default = v.clone();
        }
    }
    infos
}

/// A variant's parameters: its `overrides` under the caller's `json` (an object; anything else
/// is passed on for [`parse_params`] to refuse).
fn overridden(overrides: &str, json: Option<&Value>) -> Value {
    let mut merged: Value =
        serde_json::from_str(overrides).expect("a variant's overrides are JSON");
    match json {
        None | Some(Value::Null) => merged,
        Some(Value::Object(given)) => {
            if let Value::Object(m) = &mut merged {
                for (k, v) in given {
                    m.insert(k.clone(), v.clone());
                }
            }
            merged
        }
        Some(other) => other.clone(),
    }
}

/// The [`ParamInfo`]s of `P`, defaults taken from `P::default()`.
fn param_infos<P: Params>() -> Vec<ParamInfo> {
    let defaults = serde_json::to_value(P::default()).expect("parameter structs serialise");
    P::fields()
        .into_iter()
        .map(|field| ParamInfo {
            name: field.name,
            description: field
                .doc
                .iter()
                .map(|line| line.trim())
                .collect::<Vec<_>>()
                .join(" "),
            default: defaults.get(field.name).cloned().unwrap_or(Value::Null),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_param_has_a_description_and_default() {
        let all = workloads();
        let mut names: Vec<_> = all.iter().map(|w| w.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for w in &all {
            for p in &w.params {
                assert!(!p.description.is_empty(), "{}.{}", w.name, p.name);
                assert!(!p.default.is_null(), "{}.{}", w.name, p.name);
            }
        }
        assert!(needs_stale_detection("lookup-stale"));
        assert!(!needs_stale_detection("churn"));
    }

    /// A sweep point is its base workload with changed defaults: the same trace as the base
    /// given those parameters, its header naming the variant, the caller's parameters winning.
    #[test]
    fn variants_are_their_base_with_other_defaults() {
        let all = workloads();
        let variants: Vec<&WorkloadInfo> = all.iter().filter(|w| w.variant_of.is_some()).collect();
        assert!(variants.len() >= 10);
        for v in variants {
            let base = all
                .iter()
                .find(|w| Some(w.name) == v.variant_of)
                .expect("a variant's base is registered");
            assert_eq!(base.family, v.family);
            let changed: serde_json::Map<String, Value> = v
                .params
                .iter()
                .zip(&base.params)
                .filter(|(a, b)| a.default != b.default)
                .map(|(a, _)| (a.name.to_string(), a.default.clone()))
                .collect();
            assert!(!changed.is_empty(), "{} changes no default", v.name);
            let params = Value::Object(changed);
            let a = generate_any(v.name, 64, 3, None).unwrap();
            let b = generate_any(base.name, 64, 3, Some(&params)).unwrap();
            assert_eq!(a.header().generator, v.name);
            assert_eq!(a.header().params, b.header().params, "{}", v.name);
            assert_eq!(a.op_counts(), b.op_counts(), "{}", v.name);
        }
        let given = serde_json::json!({ "keys": 3 });
        let t = generate_any("kv-keys-sweep-k16", 64, 3, Some(&given)).unwrap();
        assert_eq!(t.header().params["keys"], 3, "the caller's parameters win");
        assert!(generate_any("kv-keys-sweep-k16", 64, 3, Some(&Value::from(3))).is_err());
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let err = generate("lookup-unifrom", 10, 0, None).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("lookup-unifrom") && msg.contains("fill, lookup-uniform, "),
            "{msg}"
        );
    }

    #[test]
    fn bad_params_name_the_field() {
        let cases = [
            (serde_json::json!({ "opz": 3 }), "opz"),
            (serde_json::json!({ "ops": "many" }), "ops"),
            (serde_json::json!({ "ops": 0 }), "ops"),
            (serde_json::json!({ "skew": -1.0 }), "skew"),
            (serde_json::json!([1, 2]), "JSON object"),
        ];
        for (json, needle) in cases {
            let err = generate("lookup-zipf", 10, 0, Some(&json)).unwrap_err();
            assert!(matches!(err, WorkloadError::BadParams { .. }), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
        let huge = serde_json::json!({ "frames": 100_000, "max_lookups": 1 << 28, "lookup_fraction": 100.0 });
        let err = generate("frame", 1 << 20, 0, Some(&huge)).unwrap_err();
        assert!(err.to_string().contains("body limit"), "{err}");
        assert!(matches!(
            generate("fill", 0, 0, None),
            Err(WorkloadError::BadN { n: 0, .. })
        ));
    }

    #[test]
    fn missing_fields_take_defaults_and_the_header_records_them_all() {
        let t = generate("lookup-zipf", 10, 0, Some(&serde_json::json!({ "ops": 5 }))).unwrap();
        assert_eq!(
            t.header.params,
            serde_json::json!({ "ops": 5, "skew": 1.0 })
        );
        assert_eq!(t.header.generator, "lookup-zipf");
        assert_eq!(t.body.len(), 5);
    }
}
