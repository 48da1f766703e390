//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p reports --test integration MODULE`
//! runs one file's tests).

mod chromium;
mod families;
mod machines;
mod render;
mod support;
mod trend;
