//! A cell's budget for its rounds ([`RoundsBudget`]: time, sample length, fewest and most
//! rounds, extra rounds, when a contestant may leave), one instance's share of it, and the
//! settings every scale shares ([`SETTLED_PRECISION`], [`LEAVE_SPENT_AFTER`]).

use std::time::Duration;

use results::stats::MIN_ROUNDS;

/// How long a cell's rounds may take, in time the process ran ([`Stopwatch`]: wall time less
/// the waits for a processor), so a busy machine runs a cell's rounds as a quiet one would, only
/// later, instead of fewer of them: counted in wall time, a busy machine's extra rounds run out
/// before a reference loop's `overhead` settles (`ref-direct-packed` on `lookup-zipf` at 65,536
/// objects, quick, which quiet runs put within 1% of 1).
///
/// [`Stopwatch`]: crate::host::Stopwatch
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundsBudget {
    /// Time per contestant (the cell's budget is this times its contestants), untimed
    /// rebuilds of a mutating body included.
    pub per_contestant: Duration,
    /// The shortest sample: a contestant's iterations per sample are chosen so its sample's
    /// timed part lasts at least this (unless its untimed rebuilds would overrun the budget).
    pub min_sample: Duration,
    /// Fewest rounds, even when a slow contestant overruns the budget (but see
    /// [`RoundsBudget::leave_spent_after`]).
    pub min_rounds: usize,
    /// Most rounds, however fast the cell, extra rounds included.
    pub max_rounds: usize,
    /// Time per contestant still in the extra rounds (the cell's extra budget is this times
    /// the contestants that enter them), untimed replays included.
    pub extra_per_contestant: Duration,
    /// A comparison is settled once its interval's upper bound over its lower is at most
    /// `1 + precision`, wherever it lies ([`settled`]).
    ///
    /// [`settled`]: super::settled
    pub precision: f64,
    /// `Some(k)`: from round `k` on, a contestant that has spent
    /// [`RoundsBudget::per_contestant`] (its rounds so far at its calibrated wall time per
    /// round) leaves the rounds as soon as none of its comparisons is open (a comparison
    /// settles over at least [`MIN_ROUNDS`] rounds, the cell's earlier instances included),
    /// so two contestants still pair the rounds both ran. `None`: every contestant runs every
    /// round (`dodbench advise`, whose rounds the user chose).
    pub leave_spent_after: Option<usize>,
}

impl RoundsBudget {
    /// One instance's share of this budget when a cell is timed as `instances` instances
    /// ([`crate::instance`]): the time, the most rounds, and the round from which a
    /// contestant that spent its budget may leave, divided among them, and a floor of 2
    /// rounds (every instance has a median of its own; the contestants of a comparison still
    /// open stay for more). The comparisons an instance settles pool the rounds of the
    /// instances before it ([`Roles::earlier`]), so a cell's slowest contestants run about as
    /// many rounds in all as one instance would run them.
    ///
    /// [`Roles::earlier`]: super::Roles::earlier
    pub fn per_instance(&self, instances: usize) -> RoundsBudget {
        let k = instances.max(1);
        if k == 1 {
            return *self;
        }
        RoundsBudget {
            per_contestant: self.per_contestant / k as u32,
            extra_per_contestant: self.extra_per_contestant / k as u32,
            min_rounds: 2,
            max_rounds: self.max_rounds.div_ceil(k).max(2),
            leave_spent_after: self.leave_spent_after.map(|after| after.div_ceil(k).max(2)),
            ..*self
        }
    }
}

/// The [`RoundsBudget::precision`] of every scale: a comparison whose interval reaches into its
/// band ([`settled`]) is settled when it spans at most 6% (a reference loop's `overhead` known
/// to about ±3%, which the 0.95-1.05 a replay driver is held to needs).
///
/// [`settled`]: super::settled
pub const SETTLED_PRECISION: f64 = 0.06;

/// The [`RoundsBudget::leave_spent_after`] of every scale: the fewest rounds whose
/// intervals [`settled`] reads ([`MIN_ROUNDS`]). A contestant that spent its budget in fewer
/// rounds than the cell runs (the scale's floor, [`RoundsBudget::min_rounds`]: 10 quick, 15
/// default, or more in a cell of cheaper contestants) leaves from here on once its comparisons
/// are settled.
///
/// [`settled`]: super::settled
pub const LEAVE_SPENT_AFTER: usize = MIN_ROUNDS as usize;
