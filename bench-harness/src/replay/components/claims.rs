//! The articles' claims this family's results answer (see `results::claim`): the cross-system
//! copy of seed 000's reader comments, seed 004's object-oriented baselines and seed 002's
//! "Part 2: Components".
//!
//! One file per article, each with its source, its quotes and its table of claims in catalogue
//! order: [`reader_comments`] (A13), [`oop_baselines`] (B), [`part2_components`] (G); this file
//! lists the tables in that order.

mod oop_baselines;
mod part2_components;
mod reader_comments;

use results::{ClaimSpec, UntestedSpec};

/// Every claim, in catalogue order: the articles' tables one after the other (a slice of
/// slices, since a constant cannot join slices into one).
pub(super) const CLAIMS_BY_ARTICLE: &[&[ClaimSpec]] = &[
    reader_comments::CLAIMS,
    oop_baselines::CLAIMS,
    part2_components::CLAIMS,
];

/// The catalogue's statements of these articles that no claim tests, in catalogue order.
pub(super) const UNTESTED: &[UntestedSpec] = part2_components::UNTESTED;
