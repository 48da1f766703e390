//! The families, as the harness sees the family list (`family_list::families!`). Every
//! consumer (the criterion driver, `dodbench list/gen/replay`, the measurement passes, the
//! tables of `docs/`) iterates over them with a [`FamilyVisitor`]; adding a family is a line in
//! the family list and its module `replay::<family>`, whose `Marker` is its [`Family`] (plus
//! its designs, op vocabulary and replayer, see ARCHITECTURE.md).

use workloads::AnyTrace;

use crate::replay::{External, ExtraDesigns, Family, HostsDesign, OpOf};

/// Something done once per family, e.g. "benchmark every workload" or "list the designs".
pub trait FamilyVisitor {
    /// Called once per family `F`, in list order.
    fn visit<F: Family>(&mut self);
}

/// Writes [`for_each_family`] from the family list.
macro_rules! visit_every_family {
    ($($(#[$doc:meta])* $variant:ident $module:ident,)*) => {
        /// Calls `visitor.visit::<F>()` for every family, in list order.
        pub fn for_each_family<V: FamilyVisitor>(visitor: &mut V) {
            $(visitor.visit::<crate::replay::$module::Marker>();)*
        }
    };
}

family_list::families!(visit_every_family);

/// Something done once per family of a [`DesignList`], with the extra designs `X` the list
/// adds to that family (the driver of `cargo bench` and of `dodbench::external`).
pub trait ListVisitor {
    /// Called once per family `F` of the list, whose replayers are `F`'s then `X`'s.
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self);
}

/// A list of families with, per family, extra designs: [`AllFamilies`] (every family, no
/// extra) or [`ExternalDesign`] (one family plus a user's design).
pub trait DesignList {
    /// Calls `visitor.visit::<F, X>()` once per family of the list.
    fn for_each<V: ListVisitor>(visitor: &mut V);
}

/// Every family of [`for_each_family`], with its registered designs only.
pub struct AllFamilies;

impl DesignList for AllFamilies {
    fn for_each<V: ListVisitor>(visitor: &mut V) {
        struct Each<'a, V>(&'a mut V);
        impl<V: ListVisitor> FamilyVisitor for Each<'_, V> {
            fn visit<F: Family>(&mut self) {
                self.0.visit::<F, ()>();
            }
        }
        for_each_family(&mut Each(visitor));
    }
}

/// Family `F` alone, with the user's design `D` beside its registered designs.
pub struct ExternalDesign<F, D>(std::marker::PhantomData<(F, D)>);

impl<D, F: HostsDesign<D>> DesignList for ExternalDesign<F, D> {
    fn for_each<V: ListVisitor>(visitor: &mut V) {
        visitor.visit::<F, External<D>>();
    }
}

/// The names of every family, in list order.
pub fn family_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl FamilyVisitor for Names {
        fn visit<F: Family>(&mut self) {
            self.0.push(F::NAME);
        }
    }
    let mut names = Names(Vec::new());
    for_each_family(&mut names);
    names.0
}

/// Checks that `name` is a family.
///
/// # Errors
/// It is not: the message lists the families.
pub fn check_family(name: &str) -> Result<(), String> {
    let names = family_names();
    if names.contains(&name) {
        Ok(())
    } else {
        Err(format!(
            "unknown family {name:?}; valid families: {}",
            names.join(", ")
        ))
    }
}

/// Something done with a trace once its family is known.
pub trait TraceVisitor {
    /// What it gives.
    type Output;
    /// Called with the trace as a trace of its family `F`.
    fn visit<F: Family>(self, trace: workloads::Trace<OpOf<F>>) -> Self::Output;
}

/// Hands `trace` to `visitor` as a trace of its family.
///
/// # Panics
/// If the trace's family is not in [`for_each_family`] (every op vocabulary of
/// `workloads::vocabularies` has a family here: a missing line is a bug, caught by
/// `every_workload_family_is_listed_and_dispatches` in this package's integration tests).
pub fn with_family<V: TraceVisitor>(trace: AnyTrace, visitor: V) -> V::Output {
    struct Dispatch<V: TraceVisitor> {
        trace: Option<AnyTrace>,
        visitor: Option<V>,
        output: Option<V::Output>,
    }
    impl<V: TraceVisitor> FamilyVisitor for Dispatch<V> {
        fn visit<F: Family>(&mut self) {
            if self.trace.as_ref().is_some_and(|t| t.family() == F::NAME) {
                let trace = self.trace.take().expect("checked above");
                let trace = trace
                    .into_family::<OpOf<F>>()
                    .expect("the family names match");
                let visitor = self.visitor.take().expect("visited once");
                self.output = Some(visitor.visit::<F>(trace));
            }
        }
    }
    let family = trace.family();
    let mut dispatch = Dispatch {
        trace: Some(trace),
        visitor: Some(visitor),
        output: None,
    };
    for_each_family(&mut dispatch);
    dispatch
        .output
        .unwrap_or_else(|| panic!("family {family} is not in bench_harness::families"))
}
