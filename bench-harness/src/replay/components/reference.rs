//! The family's reference loop: the article's `simulate` over a plain `Vec<PointMass>` of the
//! live instances ([`VecSimulate`], `ref-vec-simulate`), timed beside every design on a body
//! of `Simulate` ops (`comp-simulate`, `comp-simulate-sparse`): the loop an application writes
//! with no component manager at all (no entity map, no holes, no garbage, one contiguous AoS
//! array, the same f32 operation order as every design). It is not a floor: the SoA designs
//! beat it (their x/y/z arrays vectorise; measured: `split_xyz_hash` 0.49 and `buffer_hash`
//! 0.85 ns per instance against the loop's 1.19 at 1K), which is the article's argument for
//! SoA, shown against the simplest alternative. Verified like a replay: the instances updated
//! and the final state's hash must equal the model's.

use std::time::{Duration, Instant};

use impls::components::model::ModelStore;
use impls::components::{ComponentStore, PointMass};
use workloads::Trace;
use workloads::component_op::ComponentOp;

use super::{ComponentDigest, ComponentFamily, ComponentReplay, DT, StateHash};
use crate::replay::{ReferenceLoop, Replayer};

/// `simulate` over a plain `Vec` of the instances live after the setup, once per `Simulate`.
pub struct VecSimulate {
    /// The instances after the setup, in the model's order (copied before each timed run).
    instances: Vec<PointMass>,
    /// `Simulate` ops in the body.
    passes: usize,
    /// Instances updated over the body, the model's [`ComponentDigest::simulated`].
    expected_simulated: u64,
    /// The model's state digest after the body.
    expected_state: u64,
}

impl ReferenceLoop for VecSimulate {
    type Family = ComponentFamily;

    fn name() -> String {
        "ref-vec-simulate".to_string()
    }

    /// For a trace whose body is only `Simulate` ops; `None` otherwise or if the model refuses
    /// the trace.
    fn for_trace(trace: &Trace<ComponentOp>, expected: &ComponentDigest) -> Option<Self> {
        if trace.body.is_empty() || trace.body.iter().any(|op| *op != ComponentOp::Simulate) {
            return None;
        }
        let mut model = ComponentReplay::<ModelStore>::for_trace(trace);
        model.replay(&trace.setup).ok()?;
        let mut instances = Vec::with_capacity(model.store.instance_count());
        model.store.visit(|m| instances.push(*m));
        model.replay(&trace.body).ok()?;
        Some(Self {
            instances,
            passes: trace.body.len(),
            expected_simulated: expected.simulated,
            expected_state: model.state_digest()?,
        })
    }

    /// Times `iters` runs of all passes, each on a fresh copy of the instances (copied
    /// outside the timed region).
    ///
    /// # Errors
    /// The instances updated or the final state differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let mut instances = self.instances.clone();
            let start = Instant::now();
            let mut simulated = 0u64;
            for _ in 0..self.passes {
                let instances = std::hint::black_box(&mut instances);
                simulated += instances.len() as u64;
                for m in instances.iter_mut() {
                    PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, DT);
                }
            }
            total += start.elapsed();
            if std::hint::black_box(simulated) != self.expected_simulated {
                return Err(format!(
                    "the plain Vec simulated {simulated} instances, the model {}",
                    self.expected_simulated
                ));
            }
            let mut hash = StateHash::default();
            instances.iter().for_each(|m| hash.add(m));
            if hash.finish() != self.expected_state {
                return Err("the plain Vec's state after the body differs from the model's".into());
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::ComponentFamily;
    use crate::verify::Expected;

    fn trace(workload: &str) -> Trace<ComponentOp> {
        workloads::registry::generate_for::<ComponentOp>(workload, 300, 7, None).unwrap()
    }

    #[test]
    fn simulates_like_the_model_and_refuses_other_bodies() {
        let trace = trace("comp-simulate");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let looped = VecSimulate::for_trace(&trace, &expected.body).expect("a simulate body");
        assert!(looped.expected_simulated > 0);
        looped.run(2).unwrap();
        assert!(VecSimulate::for_trace(&self::trace("comp-lookup"), &expected.body).is_none());
    }

    #[test]
    fn a_wrong_state_fails_verification() {
        let trace = trace("comp-simulate");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let mut looped = VecSimulate::for_trace(&trace, &expected.body).unwrap();
        looped.instances[0].velocity[0] += 1.0;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("differs from the model"), "{error}");
        looped.instances.pop();
        assert!(looped.run(1).unwrap_err().contains("simulated"));
    }
}
