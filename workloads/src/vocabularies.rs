//! The op vocabularies (one family each) and their workloads, as this crate sees the family
//! list (`family_list::families!`): adding a family is a line there and its own module here,
//! whose `Op` is its vocabulary and `generators::ENTRIES` its workloads.
//!
//! Everything that must enumerate the families at run time lives here: their names, the
//! dispatch from a family name to its op type (used by [`format`](mod@crate::format) to decode
//! a file of any family), and the default family of trace files written before headers named
//! one. Only the layers above the vocabularies import this module (the file format, the
//! registry); the vocabularies, [`family`](crate::family), [`codec`](crate::codec) and
//! [`trace`](crate::trace) do not.

use crate::family::TraceOp;
use crate::generate::Entry;
use crate::id_table::IdTableOp;

/// Writes the lists and the dispatch below from the family list.
macro_rules! vocabularies {
    ($($(#[$doc:meta])* $variant:ident $module:ident,)*) => {
        /// The family names of every vocabulary, in the family list's order.
        pub const FAMILIES: &[&str] = &[$(<crate::$module::Op as TraceOp>::FAMILY,)*];

        /// Every family's workloads (its `gen/mod.rs`'s `ENTRIES`), in the family list's order,
        /// the order `dodbench list` and the bench show them; the registry reads them.
        pub(crate) const WORKLOADS: &[&[Entry]] = &[$(crate::$module::generators::ENTRIES,)*];

        /// Calls `visitor.visit::<O>()` with the vocabulary `O` of family `family`; `None` for a
        /// name not in [`FAMILIES`].
        pub fn with_vocabulary<V: VocabularyVisitor>(family: &str, visitor: V) -> Option<V::Output> {
            $(
                if family == <crate::$module::Op as TraceOp>::FAMILY {
                    return Some(visitor.visit::<crate::$module::Op>());
                }
            )*
            None
        }

        /// The family list's module names, which trace headers and results use as the
        /// families' names (checked against [`FAMILIES`] by this module's tests).
        #[cfg(test)]
        const MODULES: &[&str] = &[$(stringify!($module),)*];
    };
}

family_list::families!(vocabularies);

/// The default vocabulary: the family of trace files written before the header named one
/// (the ID tables, the first family), and of [`registry::generate`](crate::registry::generate).
pub type DefaultOp = IdTableOp;

/// The family name of trace files whose header names none ([`DefaultOp`]'s), as the file
/// header's serde default.
pub(crate) fn default_family() -> String {
    <DefaultOp as TraceOp>::FAMILY.to_owned()
}

/// Something done with an op vocabulary chosen by name at run time ([`with_vocabulary`]), e.g.
/// decoding a trace file of that family.
pub trait VocabularyVisitor {
    /// What it gives.
    type Output;
    /// Called with the vocabulary `O`.
    fn visit<O: TraceOp>(self) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_family_dispatches_to_its_own_vocabulary() {
        struct Name;
        impl VocabularyVisitor for Name {
            type Output = &'static str;
            fn visit<O: TraceOp>(self) -> &'static str {
                O::FAMILY
            }
        }
        for &family in FAMILIES {
            assert_eq!(with_vocabulary(family, Name), Some(family));
        }
        assert_eq!(with_vocabulary("nope", Name), None);
        assert_eq!(FAMILIES, MODULES, "a family's name is its module's");
        assert!(FAMILIES.contains(&default_family().as_str()));
    }
}
