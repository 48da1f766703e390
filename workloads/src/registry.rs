//! The one list of workload generators: names, descriptions, parameters with their defaults,
//! and dispatch from a name and JSON parameters to a trace. The CLI, the benches, the tests and
//! the report all read it. Each family lists its own workloads (`src/<family>/gen/mod.rs`,
//! `ENTRIES`); adding a workload is one file in its family's `gen/` plus one line there, and
//! adding a family one line in [`WORKLOADS`](crate::vocabularies::WORKLOADS).

use serde_json::Value;

use crate::family::{AnyTrace, TraceOp};
use crate::generate::Entry;
pub use crate::generate::{MAX_N, ParamInfo, WorkloadError};
use crate::trace::Trace;
use crate::vocabularies::{DefaultOp, WORKLOADS};

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

/// Every workload, family by family.
fn entries() -> impl Iterator<Item = &'static Entry> {
    WORKLOADS.iter().flat_map(|list| list.iter())
}

/// Every workload with its parameters and their defaults.
///
/// ```
/// let all = workloads::registry::workloads();
/// assert!(all.iter().any(|w| w.name == "lookup-stale" && w.needs_stale_detection));
/// ```
pub fn workloads() -> Vec<WorkloadInfo> {
    entries()
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
    entries().any(|e| e.name == name && e.needs_stale_detection)
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
            workload: entries().find(|e| e.name == name).map_or("?", |e| e.name),
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
        entries()
            .find(|e| e.name == name)
            .ok_or_else(|| WorkloadError::UnknownWorkload {
                name: name.to_owned(),
                valid: entries().map(|e| e.name).collect::<Vec<_>>().join(", "),
            })?;
    if !(1..=MAX_N).contains(&n) {
        return Err(WorkloadError::BadN {
            workload: entry.name,
            n,
        });
    }
    (entry.generate)(n, seed, params)
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
