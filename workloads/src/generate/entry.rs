//! A workload's registry entry ([`Entry`]: its constants and type-erased entry points), the
//! `entry!`, `variant!` and `preset!` macros each family's `gen/mod.rs` builds its list with, and what
//! dispatch by name can fail with ([`WorkloadError`]). The lists themselves are joined in
//! [`registry`](crate::registry).

use serde_json::Value;
use thiserror::Error;

use super::Params;
use crate::family::{AnyTrace, TraceOp};
use crate::trace::Trace;

/// Largest `n` a generator accepts (handles are `u32`, and `iterate-holes` adds up to `20 n`).
pub const MAX_N: usize = 1 << 26;

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

/// Why [`generate`](crate::registry::generate) could not produce a trace.
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
pub(crate) struct Entry {
    pub(crate) name: &'static str,
    pub(crate) recorded: bool,
    pub(crate) family: &'static str,
    pub(crate) description: &'static str,
    pub(crate) needs_stale_detection: bool,
    pub(crate) variant_of: Option<&'static str>,
    pub(crate) params: fn() -> Vec<ParamInfo>,
    pub(crate) generate: fn(usize, u64, Option<&Value>) -> Result<AnyTrace, WorkloadError>,
}

/// The family of a generator, from its return type.
pub(crate) const fn family_of<P, O: TraceOp>(
    _generate: fn(usize, u64, &P) -> Trace<O>,
) -> &'static str {
    O::FAMILY
}

/// The parameters of `generate`, their defaults changed by `overrides` (a JSON object
/// literal of a [`variant!`] or [`preset!`]).
pub(crate) fn params_of<P: Params, O>(
    _generate: fn(usize, u64, &P) -> Trace<O>,
    overrides: Option<&str>,
) -> Vec<ParamInfo> {
    let infos = param_infos::<P>();
    match overrides {
        Some(overrides) => with_overrides(infos, overrides),
        None => infos,
    }
}

/// What every registry entry's `generate` does: parses the caller's `json` as `generate`'s
/// parameters (over the defaults `overrides` changes), checks them with `check`, and
/// generates the trace at `n` from `seed`, its header naming workload `name`.
///
/// # Errors
/// [`WorkloadError::BadParams`] for parameters that do not parse or pass `check`.
pub(crate) fn run<P: Params, O: TraceOp>(
    generate: fn(usize, u64, &P) -> Trace<O>,
    check: fn(usize, &P) -> Result<(), String>,
    name: &'static str,
    overrides: Option<&str>,
    (n, seed, json): (usize, u64, Option<&Value>),
) -> Result<AnyTrace, WorkloadError> {
    let params: P = match overrides {
        Some(overrides) => parse_params(name, Some(&overridden(overrides, json)))?,
        None => parse_params(name, json)?,
    };
    check(n, &params).map_err(|message| WorkloadError::BadParams {
        workload: name,
        message,
    })?;
    let mut trace = generate(n, seed, &params);
    trace.header.generator = name.to_string();
    Ok(AnyTrace::new(trace))
}

/// Builds the entry of generator module `$module` (its `NAME`, `DESCRIPTION` and
/// `generate`, whose signature gives the parameter type): `stale` says whether the body relies
/// on stale-ID detection, `check` (optional) checks what the parameters' ranges cannot.
/// A macro rather than a function so each entry gets its own monomorphic `fn` pointers.
macro_rules! entry {
    ($module:ident, stale: $stale:expr $(, check: $check:expr)?) => {
        $crate::generate::entry!(
            @full $module, $module::NAME, $module::DESCRIPTION, None, None, $stale, false,
            $crate::generate::entry!(@check $($check)?)
        )
    };
    // A recorded trace replayed as it is: `n` is ignored.
    ($module:ident, recorded) => {
        $crate::generate::entry!(
            @full $module, $module::NAME, $module::DESCRIPTION, None, None, false, true,
            |_, _| Ok(())
        )
    };
    (@check) => {
        |_, _| Ok(())
    };
    (@check $check:expr) => {
        $check
    };
    (
        @full $module:ident, $name:expr, $description:expr, $overrides:expr, $variant_of:expr,
        $stale:expr, $recorded:expr, $check:expr
    ) => {
        $crate::generate::Entry {
            name: $name,
            recorded: $recorded,
            family: $crate::generate::family_of($module::generate),
            description: $description,
            needs_stale_detection: $stale,
            variant_of: $variant_of,
            params: || $crate::generate::params_of($module::generate, $overrides),
            generate: |n, seed, json| {
                $crate::generate::run($module::generate, $check, $name, $overrides, (n, seed, json))
            },
        }
    };
}

/// A point of a parameter sweep: generator `$module` named `$name`, its defaults changed by the
/// JSON object `$overrides` (the caller's parameters still win), the trace's header naming
/// `$name`. A macro for the same reason as [`entry!`].
macro_rules! variant {
    ($module:ident, $name:literal, $overrides:literal, $description:literal) => {
        $crate::generate::entry!(
            @full $module, $name, $description, Some($overrides), Some($module::NAME), false,
            false, |_, _| Ok(())
        )
    };
}

/// A workload of its own made as a [`variant!`] is (generator `$module` named `$name`, its
/// defaults changed by `$overrides`), for a workload that is another's generator and parameter
/// docs with other defaults: not a point of a sweep (`variant_of` stays `None`, so every run
/// includes it). `stale` and `check` as in [`entry!`].
macro_rules! preset {
    (
        $module:ident, $name:literal, $overrides:literal, $description:literal,
        stale: $stale:expr $(, check: $check:expr)?
    ) => {
        $crate::generate::entry!(
            @full $module, $name, $description, Some($overrides), None, $stale, false,
            $crate::generate::entry!(@check $($check)?)
        )
    };
}

pub(crate) use entry;
pub(crate) use preset;
pub(crate) use variant;

/// Deserialises and range-checks a workload's parameters.
pub(crate) fn parse_params<P: Params>(
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
pub(crate) fn with_overrides(mut infos: Vec<ParamInfo>, overrides: &str) -> Vec<ParamInfo> {
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
pub(crate) fn overridden(overrides: &str, json: Option<&Value>) -> Value {
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
pub(crate) fn param_infos<P: Params>() -> Vec<ParamInfo> {
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
