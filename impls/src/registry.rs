//! What every family's registry (`<family>/registry.rs`) shares, written once: the
//! [`design_registry!`] macro that turns a family's list of design types into its visitor
//! trait, `for_each_*` function, list of infos, lookup by name and the test of its names.

/// Declares a family's registry from its list of designs. For a family whose trait is
/// `TagStore` and whose info type is `TagDesignInfo`:
///
/// ```text
/// design_registry! {
///     /// Something done once per tag-store design, e.g. "run the property test".
///     pub trait TagDesignVisitor { fn visit<D: TagStore>; }
///     pub fn for_each_tag_design;
///     pub fn tag_designs -> TagDesignInfo;
///     pub fn find_tag_design;
///     designs {
///         vec_of_vecs::VecOfVecs;
///         #[cfg(feature = "bevy")]
///         peers::bevy::BevySpawn;
///     }
/// }
/// ```
///
/// generates
/// * the visitor trait, `fn visit<D: TagStore + 'static>(&mut self)`, doc comments before
///   `fn visit` adding to its generated doc (a design given as several types, `A, B;`, for a
///   `visit` with several type parameters, e.g. the spatial family's 2D and 3D types);
/// * `for_each_tag_design(&mut visitor)`, calling `visit` once per listed design, in order
///   (attributes such as `#[cfg(..)]` apply to their line);
/// * `tag_designs() -> Vec<TagDesignInfo>`, the first type parameter's `INFO` of each (or an
///   expression written after the info type: `pub fn designs -> DesignInfo =
///   <D::Table<u64> as IdTable<u64>>::INFO;`);
/// * `find_tag_design(name)`;
/// * the unit test `names_are_unique_and_well_formed` ([`check_names`]).
macro_rules! design_registry {
    (
        $(#[$visitor_doc:meta])*
        pub trait $Visitor:ident {
            $(#[$visit_doc:meta])*
            fn visit<$P0:ident: $B0:path $(, $P:ident: $B:path)*>;
        }
        pub fn $for_each:ident;
        pub fn $all:ident -> $Info:ty;
        pub fn $find:ident;
        designs { $($designs:tt)* }
    ) => {
        $crate::registry::design_registry! {
            $(#[$visitor_doc])*
            pub trait $Visitor {
                $(#[$visit_doc])*
                fn visit<$P0: $B0 $(, $P: $B)*>;
            }
            pub fn $for_each;
            pub fn $all -> $Info = $P0::INFO;
            pub fn $find;
            designs { $($designs)* }
        }
    };
    (
        $(#[$visitor_doc:meta])*
        pub trait $Visitor:ident {
            $(#[$visit_doc:meta])*
            fn visit<$P0:ident: $B0:path $(, $P:ident: $B:path)*>;
        }
        pub fn $for_each:ident;
        pub fn $all:ident -> $Info:ty = $info:expr;
        pub fn $find:ident;
        designs { $( $(#[$attr:meta])* $($design:ty),+ ; )* }
    ) => {
        $(#[$visitor_doc])*
        pub trait $Visitor {
            #[doc = concat!(
                "Called once per registered design; `", stringify!($info), "` describes it."
            )]
            $(#[$visit_doc])*
            fn visit<$P0: $B0 + 'static $(, $P: $B + 'static)*>(&mut self);
        }

        #[doc = concat!(
            "Calls `visitor.visit::<..>()` for every registered design, in registry order: the ",
            "one list of this family's designs."
        )]
        pub fn $for_each<V: $Visitor>(visitor: &mut V) {
            $(
                $(#[$attr])*
                visitor.visit::<$($design),+>();
            )*
        }

        #[doc = concat!(
            "The [`", stringify!($Info), "`] of every registered design, in registry order."
        )]
        pub fn $all() -> Vec<$Info> {
            struct Collect(Vec<$Info>);
            impl $Visitor for Collect {
                fn visit<$P0: $B0 + 'static $(, $P: $B + 'static)*>(&mut self) {
                    self.0.push($info);
                }
            }
            let mut collect = Collect(Vec::new());
            $for_each(&mut collect);
            collect.0
        }

        /// The design called `name`, if registered.
        pub fn $find(name: &str) -> Option<$Info> {
            $all().into_iter().find(|d| d.meta.name == name)
        }

        #[cfg(test)]
        #[test]
        fn names_are_unique_and_well_formed() {
            $crate::registry::check_names($all().iter().map(|d| &d.meta));
        }
    };
}
pub(crate) use design_registry;

/// Panics unless every registered design's name is lowercase ASCII letters, digits, `_` and
/// `-`, and unique in its family, its description is not empty, and its kind is one of ours or
/// a peer (`External` is the user's type, never registered).
#[cfg(test)]
pub(crate) fn check_names<'a>(designs: impl IntoIterator<Item = &'a crate::DesignMeta>) {
    let mut seen: Vec<&str> = Vec::new();
    for &crate::DesignMeta {
        name,
        description,
        kind,
    } in designs
    {
        assert!(
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || b == b'_'
                    || b == b'-'),
            "bad design name {name:?}"
        );
        assert!(!description.is_empty(), "{name} has no description");
        assert_ne!(
            kind,
            crate::DesignKind::External,
            "{name} is registered as external"
        );
        assert!(!seen.contains(&name), "duplicate design name {name}");
        seen.push(name);
    }
}
