//! The one list of the suite's families. Each layer derives its own view of the families from
//! it: `workloads` its op vocabularies and workload lists (`vocabularies.rs`), `results` the
//! `Family` names results.json stores (`family.rs`), `bench-harness` the families every
//! consumer visits (`families.rs`). Adding a family is one line here, besides its own modules.
//!
//! A family is its results variant and its module: the module has the same name in every
//! layer (`workloads::<module>`, `bench_harness::replay::<module>`, `impls::<module>`) and is
//! the name trace headers, results and benchmark IDs use (each layer's tests check that its
//! own name for the family agrees). The order is the order lists, runs and pages show them.

/// Calls `$then! { $( #[doc = ...] Variant module, )* }` with every family, in list order:
/// `Variant` its `results::Family` variant, `module` its module and name, the docs its variant's.
///
/// Each layer defines the macro it passes, which writes that layer's list; so no layer keeps a
/// list of its own.
#[macro_export]
macro_rules! families {
    ($then:path) => {
        $then! {
            /// ID lookup tables (`impls::id_table`).
            IdTable id_table,
            /// Tag stores (`impls::tags`).
            Tags tags,
            /// Block allocators (`impls::alloc`).
            Alloc alloc,
            /// Component managers (`impls::components`).
            Components components,
            /// One-to-many indices (`impls::relations`).
            Relations relations,
            /// Transform hierarchies (`impls::transforms`).
            Transforms transforms,
            /// DataComponent stores, per-entity key-value data (`impls::data_component`).
            DataComponent data_component,
            /// Spatial indices, radius queries over points (`impls::spatial`).
            Spatial spatial,
            /// Entity resources and batched spawning (`impls::spawn`).
            Spawn spawn,
            /// Multithreaded gameplay: locks, actors and command buffers (`impls::locking`).
            Locking locking,
        }
    };
}
