//! The articles' claims this family's results answer (see `results::claim`): the cross-system
//! copy of seed 000's reader comments, seed 004's object-oriented baselines and seed 002's
//! "Part 2: Components".
//!
//! One file per article, each with its source, its quotes and its claims in catalogue order:
//! [`reader_comments`] (A13), [`oop_baselines`] (B), [`part2_components`] (G); this file
//! assembles them in that order and holds the operand helpers they share.

mod oop_baselines;
mod part2_components;
mod reader_comments;

use results::{Claim, Metric, Operand, Untested};

fn time(design: &str, workload: &str) -> Operand {
    Operand::new(Metric::Time, design, workload)
}

fn d1(design: &str, workload: &str) -> Operand {
    Operand::new(Metric::D1Misses, design, workload)
}

fn instructions(design: &str, workload: &str) -> Operand {
    Operand::new(Metric::Instructions, design, workload)
}

fn family(field: &str, design: &str, workload: &str) -> Operand {
    Operand::new(Metric::family(field), design, workload)
}

/// Every claim, in catalogue order.
pub(super) fn claims() -> Vec<Claim> {
    [
        reader_comments::claims(),
        oop_baselines::claims(),
        part2_components::claims(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The catalogue's statements of these articles that no claim tests, in catalogue order.
pub(super) fn untested() -> Vec<Untested> {
    part2_components::untested()
}
