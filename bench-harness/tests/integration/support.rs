//! What the families' test files share: the outcome of a design verified and timed, and the
//! checks every registered design passes on a prepared trace.

use bench_harness::replay::{Family, Replayer, ReplayerVisitor, Role};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Outcome, check_replayer};

/// Replayer `R`'s outcome on `p`: its verification and, once verified, two timed replays (the
/// timed path verifies its answers too, and its resolved IDs against the dry run's).
pub fn verify_and_time<R: Replayer>(p: &PreparedTrace<R::Family>) -> Outcome {
    let outcome = check_replayer::<R>(&p.trace, &p.expected).outcome;
    if !outcome.is_verified() {
        return outcome;
    }
    match TimedReplay::of::<R>(&p.trace, &p.expected).run(2) {
        Ok(_) => Outcome::Verified,
        Err(e) => Outcome::Failed(e),
    }
}

/// Notes `outcome`, replayer `R`'s on `p`, in `failures` (with the design and the workload)
/// unless it verified, and checks that `R` measures its family's metrics on `p`.
pub fn note_and_measure<R: Replayer>(
    p: &PreparedTrace<R::Family>,
    outcome: &Outcome,
    failures: &mut Vec<String>,
) {
    if !outcome.is_verified() {
        failures.push(format!(
            "{} on {}: {outcome:?}",
            R::design_name(),
            p.trace.header.generator
        ));
    }
    assert!(R::measure(&p.trace, &p.expected.stats).unwrap().is_some());
}

/// What every registered design of family `F` fails with on `p`: each verified and timed
/// ([`verify_and_time`]) and measured ([`note_and_measure`]); empty when all pass.
pub fn failures_of_every_design<F: Family>(p: &PreparedTrace<F>) -> Vec<String> {
    struct VerifyAll<'a, F: Family> {
        prepared: &'a PreparedTrace<F>,
        failures: Vec<String>,
    }
    impl<F: Family> ReplayerVisitor<F> for VerifyAll<'_, F> {
        fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
            if role == Role::Design {
                let outcome = verify_and_time::<R>(self.prepared);
                note_and_measure::<R>(self.prepared, &outcome, &mut self.failures);
            }
        }
    }
    let mut v = VerifyAll {
        prepared: p,
        failures: Vec::new(),
    };
    F::for_each_replayer(&mut v);
    v.failures
}
