//! Published crates behind thin [`SpatialIndex`](super::SpatialIndex) adapters, each used the
//! way its documentation shows (each file names the page): a point set known up front is
//! bulk-loaded ([`build`](super::SpatialIndex::build): `rstar`'s `bulk_load`, `kiddo`'s
//! `with_capacity` and `ImmutableKdTree::new_from_slice`), and a query takes the crate's own
//! answer, positions or distances included, instead of re-testing candidates against a side
//! array. Where the crate's test differs from the family's [`within`](super::within) (`<`
//! instead of `<=`, a pruning rounded in another order), the adapter widens the crate's radius
//! ([`search_radius`](super::search_radius)) and decides with the value the crate handed
//! back, computed bit for bit as the family computes it (each file says why it is).

pub mod flat_spatial;
pub mod kiddo;
pub mod kiddo_static;
pub mod rstar;
