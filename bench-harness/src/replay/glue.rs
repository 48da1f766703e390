//! The glue every family's module (`replay/<family>/mod.rs`) declares alike, written once as
//! macros over the traits of [`contract`](super::contract): its marker type
//! ([`family_marker!`]), the bridge from the family's registry to its replayers
//! ([`visit_registry!`]), its [`HostsDesign`](super::HostsDesign)
//! impl for a user's design ([`hosts_design!`]), and the [`Replayer`](super::Replayer) items
//! its replay type forwards ([`forward_replay!`]) and answers from its design
//! ([`forward_design!`]), and its digest's merge from each field's rule ([`merge_fields!`]).

/// Visits every design of a family's registry in `impls` (its `for_each_*` function and
/// visitor trait, whose bound is the family's design trait) as the family's replayer of that
/// design, with role [`Role::Design`](super::Role::Design): the one bridge from a registry's visitor to
/// [`ReplayerVisitor`](super::ReplayerVisitor), which each [`Family::for_each_replayer`](super::Family::for_each_replayer) starts with. The bracket
/// holds the registry visitor's type parameters as its trait declares them, then `=>` the
/// replayer of them:
///
/// ```text
/// visit_registry!(visitor, TagFamily, for_each_tag_design, TagDesignVisitor,
///     [S: TagStore + 'static] => TagReplay<S>);
/// ```
macro_rules! visit_registry {
    ($visitor:expr, $family:ty, $for_each:path, $registry_visitor:path,
     [$($params:tt)*] => $replayer:ty) => {{
        struct Designs<'a, V>(&'a mut V);
        impl<V: $crate::replay::contract::ReplayerVisitor<$family>> $registry_visitor
            for Designs<'_, V>
        {
            fn visit<$($params)*>(&mut self) {
                self.0
                    .visit::<$replayer>($crate::replay::contract::Role::Design);
            }
        }
        $for_each(&mut Designs($visitor));
    }};
}
pub(crate) use visit_registry;

/// Implements [`HostsDesign`](super::HostsDesign) for a family: a design type `D` from another crate, bound by the
/// family's design trait, runs as the family's replayer of it, and its results record is the
/// family's record of it. The bracket holds `D` and its bound, then `=>` the replayer, then
/// the record (doc comments before the family pass to the impl):
///
/// ```text
/// hosts_design!(TagFamily, [D: TagStore] => TagReplay<D>, design_record(&D::INFO));
/// ```
macro_rules! hosts_design {
    ($(#[$attr:meta])* $family:ty, [$d:ident: $bound:path] => $replayer:ty, $record:expr) => {
        $(#[$attr])*
        impl<$d: $bound + 'static> $crate::replay::contract::HostsDesign<$d> for $family {
            type Replayer = $replayer;

            fn design_record() -> results::DesignRecord {
                $record
            }
        }
    };
}
pub(crate) use hosts_design;

/// The [`Replayer`](super::Replayer) items a family's replay forwards: `run` to the replay type's own `run` (the
/// family's loop, written once on the type), `for_trace` to its own `for_trace` where listed,
/// and `handles` to its handle map, the field named after `handles:`.
///
/// ```text
/// forward_replay!(TagReplay { for_trace, run }, handles: entities);
/// ```
macro_rules! forward_replay {
    ($replay:ident { for_trace, run }, handles: $handles:ident) => {
        fn for_trace(trace: &workloads::Trace<$crate::replay::contract::OpOf<Self::Family>>) -> Self {
            $replay::for_trace(trace)
        }

        forward_replay!($replay { run }, handles: $handles);
    };
    ($replay:ident { run }, handles: $handles:ident) => {
        fn handles(&mut self) -> &mut $crate::replay::resolved::HandleMap<Self::Id> {
            &mut self.$handles
        }

        fn run<H: $crate::replay::resolved::HandleIds<Self::Id>>(
            &mut self,
            ops: &[$crate::replay::contract::OpOf<Self::Family>],
            ids: &mut H,
        ) -> Result<$crate::replay::contract::DigestOf<Self::Family>, $crate::replay::contract::ReplayError> {
            $replay::run(self, ops, ids)
        }
    };
}
pub(crate) use forward_replay;

/// Declares a family's marker, the type its [`Family`](super::Family) impl is for, and
/// `Marker`, the name the family list gives every family's marker ([`crate::families`]); doc
/// comments before the name pass to the type.
///
/// ```text
/// family_marker! {
///     /// The tag stores.
///     TagFamily
/// }
/// ```
macro_rules! family_marker {
    ($(#[$attr:meta])* $family:ident) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $family;

        /// The family's marker, under the name the family list gives every family's
        /// ([`crate::families`]).
        pub type Marker = $family;
    };
}
pub(crate) use family_marker;

/// The [`Replayer`](super::Replayer) items a family's replay answers from its design, the field
/// named first: `memory_bytes` and `check_invariants` are the design's own, `live_count` the
/// design's method named after `live:`.
///
/// ```text
/// forward_design!(store, live: entity_count);
/// ```
macro_rules! forward_design {
    ($design:ident, live: $live:ident) => {
        fn memory_bytes(&self) -> u64 {
            self.$design.memory_bytes() as u64
        }

        fn live_count(&self) -> usize {
            self.$design.$live()
        }

        fn check_invariants(&self) -> Result<(), String> {
            self.$design.check_invariants()
        }
    };
}
pub(crate) use forward_design;

/// The body of a digest's [`ReplayDigest::merge`](super::ReplayDigest::merge) from each
/// field's rule: `add` fields (counts) add the later replay's, `wrapping` fields (sums of mixed
/// terms) add it wrapping, `later` fields (a state read once after the loop) take the later
/// replay's. The digest and the later one are named first.
///
/// ```text
/// merge_fields!(self, later, add: [queries, found], wrapping: [query_sum], later: [points_held]);
/// ```
macro_rules! merge_fields {
    ($digest:ident, $later:ident, add: [$($add:ident),* $(,)?]
     $(, wrapping: [$($wrap:ident),* $(,)?])? $(, later: [$($last:ident),* $(,)?])? $(,)?) => {
        $($digest.$add += $later.$add;)*
        $($($digest.$wrap = $digest.$wrap.wrapping_add($later.$wrap);)*)?
        $($($digest.$last = $later.$last;)*)?
    };
}
pub(crate) use merge_fields;
