//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p impls --test integration MODULE`
//! runs one file's tests).

mod alloc_model;
mod allocator_accounting;
mod components_model;
mod data_component_model;
mod extreme_inputs;
mod id_table_model;
mod kiddo_split_defect;
mod locking_model;
mod model_run;
mod peer_versions;
mod relations_model;
mod spatial_limits;
mod spatial_model;
mod spawn_model;
mod support;
mod tags_model;
mod transforms_model;
