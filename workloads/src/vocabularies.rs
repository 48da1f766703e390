//! The one list of op vocabularies (one family each) in this crate: adding a family is a few
//! lines here (its op type's `use`, a line in [`FAMILIES`], [`with_vocabulary`] and
//! [`WORKLOADS`]), besides its own module.
//!
//! Everything that must enumerate the families at run time lives here: their names, the
//! dispatch from a family name to its op type (used by [`format`](mod@crate::format) to decode
//! a file of any family), and the default family of trace files written before headers named
//! one. Only the layers above the vocabularies import this module (the file format, the
//! registry); the vocabularies, [`family`](crate::family), [`codec`](crate::codec) and
//! [`trace`](crate::trace) do not.

use crate::alloc::AllocOp;
use crate::components::ComponentOp;
use crate::data_component::DataOp;
use crate::family::TraceOp;
use crate::generate::Entry;
use crate::id_table::IdTableOp;
use crate::locking::LockingOp;
use crate::relations::RelationOp;
use crate::spatial::SpatialOp;
use crate::spawn::SpawnOp;
use crate::tags::TagOp;
use crate::transforms::TransformOp;

/// The family names of every vocabulary, in [`with_vocabulary`]'s order.
pub const FAMILIES: &[&str] = &[
    <IdTableOp as TraceOp>::FAMILY,
    <TagOp as TraceOp>::FAMILY,
    <AllocOp as TraceOp>::FAMILY,
    <ComponentOp as TraceOp>::FAMILY,
    <RelationOp as TraceOp>::FAMILY,
    <TransformOp as TraceOp>::FAMILY,
    <DataOp as TraceOp>::FAMILY,
    <SpatialOp as TraceOp>::FAMILY,
    <SpawnOp as TraceOp>::FAMILY,
    <LockingOp as TraceOp>::FAMILY,
];

/// Every family's workloads (its `gen/mod.rs`'s `ENTRIES`), one line per family, in the order
/// `dodbench list` and the bench show them; the registry reads them.
pub(crate) const WORKLOADS: &[&[Entry]] = &[
    crate::id_table::generators::ENTRIES,
    crate::tags::generators::ENTRIES,
    crate::alloc::generators::ENTRIES,
    crate::components::generators::ENTRIES,
    crate::transforms::generators::ENTRIES,
    crate::spatial::generators::ENTRIES,
    crate::spawn::generators::ENTRIES,
    crate::data_component::generators::ENTRIES,
    crate::relations::generators::ENTRIES,
    crate::locking::generators::ENTRIES,
];

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

/// Calls `visitor.visit::<O>()` with the vocabulary `O` of family `family`; `None` for a name
/// not in [`FAMILIES`].
pub fn with_vocabulary<V: VocabularyVisitor>(family: &str, visitor: V) -> Option<V::Output> {
    Some(match family {
        <IdTableOp as TraceOp>::FAMILY => visitor.visit::<IdTableOp>(),
        <TagOp as TraceOp>::FAMILY => visitor.visit::<TagOp>(),
        <AllocOp as TraceOp>::FAMILY => visitor.visit::<AllocOp>(),
        <ComponentOp as TraceOp>::FAMILY => visitor.visit::<ComponentOp>(),
        <RelationOp as TraceOp>::FAMILY => visitor.visit::<RelationOp>(),
        <TransformOp as TraceOp>::FAMILY => visitor.visit::<TransformOp>(),
        <DataOp as TraceOp>::FAMILY => visitor.visit::<DataOp>(),
        <SpatialOp as TraceOp>::FAMILY => visitor.visit::<SpatialOp>(),
        <SpawnOp as TraceOp>::FAMILY => visitor.visit::<SpawnOp>(),
        <LockingOp as TraceOp>::FAMILY => visitor.visit::<LockingOp>(),
        _ => return None,
    })
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
        assert!(FAMILIES.contains(&default_family().as_str()));
    }
}
