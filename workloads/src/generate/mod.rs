//! What every workload generator shares: the parameter structs ([`Params`],
//! [`workload_params!`](crate::workload_params)), the limits, the pieces of every family's
//! trace builder (`parts.rs`) and a registry entry (`Entry`, built by `entry!`, `variant!` and `preset!`).
//! The generators themselves live in their family's folder, `src/<family>/gen/<workload>.rs`
//! (module `<family>::generators`), each family's `Entry` list in its `gen/mod.rs`.
//!
//! A generator is a pure function `generate(n, seed, &Params) -> Trace`: `n` is the live size
//! the workload is about, the seed drives the one [`TraceRng`](crate::rng::TraceRng), and the
//! typed parameter struct (declared with [`workload_params!`](crate::workload_params)) holds everything else. The
//! [registry](crate::registry) lists them all.
//!
//! Each generator's module declares its name, description and parameters with
//! `workload!`. Generators append ops through their family's
//! trace builder (`src/<family>/builder.rs`), which tracks the live objects. Every builder is
//! made of the same two pieces in `parts.rs`: `TraceParts` (setup, body, the header) and
//! `LiveHandles` (the live set); `Recorder::record` there runs a generator's ops on a builder
//! with the seed's rng and finishes the trace, the glue every generator shares.
//!
//! Every generator keeps the number of live objects (IDs, entities, blocks) at or below `n` at
//! all times, except the recorded `alloc-wee-*` (which ignore `n`) and `iterate-holes`, whose
//! point is `n` live objects spread over more slots (its peak is the slot count). `IdTableStats::peak_live` reports the peak, so a harness can skip a fixed-capacity
//! design that cannot hold it.

mod entry;
pub(crate) mod parts;

pub(crate) use entry::{Entry, entry, family_of, params_of, preset, run, variant};
pub use entry::{MAX_N, ParamInfo, WorkloadError};

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Largest count any parameter may ask for (ops, steps, frames × work): `2^28` ops already
/// take 2 GiB as a `Vec` of 8-byte ops.
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
/// use workloads::generate::Params;
/// assert_eq!(ExampleParams::default().ops, 100);
/// assert!(ExampleParams { ops: 0 }.check().is_err());
/// ```
#[macro_export]
macro_rules! workload_params {
    (
        $(#[$struct_attr:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                pub $field:ident : $ty:ty = $default:expr, in $range:expr
            ),* $(,)?
        }
    ) => {
        $(#[$struct_attr])*
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

        impl $crate::generate::Params for $name {
            fn fields() -> Vec<$crate::generate::FieldDoc> {
                vec![$($crate::generate::FieldDoc {
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

/// Declares a generator's registry identity and parameters in one place: `NAME` (the string
/// after `for`), `DESCRIPTION` (the doc comment above the struct, the one line `dodbench list`
/// shows: its lines joined by spaces) and the parameter struct, as
/// [`workload_params!`](crate::workload_params) declares it, documented as the parameters of
/// `NAME`. The registry's `entry!` reads the three from the generator's module.
macro_rules! workload {
    (
        $(#[doc = $description:literal])+
        pub struct $params:ident for $name:literal { $($fields:tt)* }
    ) => {
        /// Registry name.
        pub const NAME: &str = $name;
        /// One-line description for `dodbench list`.
        pub const DESCRIPTION: &str = $crate::generate::doc_text(concat!($($description),+));

        $crate::workload_params! {
            #[doc = concat!("Parameters of `", $name, "`.")]
            pub struct $params { $($fields)* }
        }
    };
}
pub(crate) use workload;

/// The text of a doc comment's lines joined by [`concat!`]: each `///` line's text starts with
/// the space after the slashes, so the lines come out joined by single spaces; this drops the
/// first line's.
///
/// # Panics
/// At compile time, for text that does not start with that space.
pub(crate) const fn doc_text(joined: &'static str) -> &'static str {
    match joined.as_bytes() {
        [b' ', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(text) => text,
            Err(_) => panic!("a doc comment is UTF-8"),
        },
        _ => panic!("a doc comment's text starts with a space"),
    }
}

/// `round(n * fraction)` clamped to `min..=n` (a fraction of the objects, but at least `min`
/// when `n` allows).
pub(crate) fn fraction_of(n: usize, fraction: f64, min: usize) -> usize {
    ((n as f64 * fraction).round() as usize).clamp(min.min(n), n)
}

/// The op choice of a steady mix (`article-mix`, `alloc-random-mix`): a fraction `other` of the
/// body ops neither adds nor removes (a lookup, a resize), the rest removes or adds with equal
/// chance, and the live count stays in `[n - slack, n]` with `slack = max(1, round(n *
/// size_slack))`: an add drawn at `n` live becomes a remove, a remove drawn at the lower
/// bound becomes an add, and an `other` op drawn with nothing live becomes an add.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SteadyMix {
    n: usize,
    min_live: usize,
    other: f64,
    remove_below: f64,
}

/// What one op of a [`SteadyMix`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MixOp {
    /// Neither adds nor removes (needs a live object).
    Other,
    /// Removes a live object.
    Remove,
    /// Adds an object.
    Add,
}

impl SteadyMix {
    /// The mix around `n` live objects with a fraction `other` of non-resizing ops.
    pub(crate) fn new(n: usize, other: f64, size_slack: f64) -> Self {
        let slack = ((n as f64 * size_slack).round() as usize).max(1);
        Self {
            n,
            min_live: n.saturating_sub(slack),
            other,
            remove_below: other + (1.0 - other) / 2.0,
        }
    }

    /// The op for a uniform `draw` in `[0, 1)` with `live` objects live.
    pub(crate) fn op(&self, draw: f64, live: usize) -> MixOp {
        if draw < self.other && live > 0 {
            MixOp::Other
        } else if (draw < self.remove_below && live > self.min_live) || live >= self.n {
            MixOp::Remove
        } else {
            MixOp::Add
        }
    }
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

/// The statistics of `generate`'s trace at `n` and `seed` with default parameters, checked
/// valid: what a generator's unit test starts from.
#[cfg(test)]
pub(crate) fn default_stats<P: Params, O: crate::family::TraceOp>(
    generate: fn(usize, u64, &P) -> crate::trace::Trace<O>,
    n: usize,
    seed: u64,
) -> O::Stats {
    generate(n, seed, &P::default())
        .validate()
        .expect("a generator's trace is valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn passes_scale_with_n_within_bounds() {
        assert_eq!(iteration_passes(1_000, 1_000_000, 64), 64);
        assert_eq!(iteration_passes(65_536, 1_000_000, 64), 16);
        assert_eq!(iteration_passes(1 << 20, 1_000_000, 64), 1);
        assert_eq!(fraction_of(1, 0.5, 1), 1);
        assert_eq!(fraction_of(10, 0.5, 1), 5);
        assert_eq!(fraction_of(0, 0.5, 1), 0);
    }

    #[test]
    fn doc_lines_join_into_one_description() {
        assert_eq!(
            doc_text(concat!(" n live objects;", " body of Gets")),
            "n live objects; body of Gets"
        );
    }
}
