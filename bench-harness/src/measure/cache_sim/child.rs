//! The child's work, in the process the server forks for one design: it builds the state and
//! resolves the body uninstrumented (`--instr-atstart=no`, where
//! [`callgrind_request::AVAILABLE`]), starts the instrumentation where the simulated caches
//! should start ([`START_STATE`]), then replays the body inside [`dodbench_collected`], the one
//! function callgrind collects in, and returns the body's digest for the parent to check.
//!
//! [`START_STATE`]: super::START_STATE

use workloads::{AnyTrace, Trace};

use crate::families::{TraceVisitor, with_family};
use crate::measure::callgrind_request;
use crate::replay::{Design, Family, OpOf, ReferenceLoop, ReplayerVisitor, Role};

/// Runs `body` where callgrind collects: the only code counted by `dodbench cache`.
///
/// Not generic and not mangled, so `--toggle-collect=dodbench_collected` names exactly this
/// function whatever design `body` replays.
#[unsafe(no_mangle)] // SAFETY: the name is unique in the binary (nothing else exports it).
#[inline(never)]
pub fn dodbench_collected(body: &mut dyn FnMut()) {
    body();
}

/// The child's work: replays `trace` on design `design` of the trace's family, collecting
/// only the body (see the module doc), and returns the body's digest as one line of JSON.
///
/// # Errors
/// Unknown design, or the design refused an op.
pub fn run_child(design: &str, trace: AnyTrace) -> Result<String, String> {
    crate::replay::set_repeatable(true);
    struct Child<'a> {
        design: &'a str,
    }
    impl TraceVisitor for Child<'_> {
        type Output = Result<String, String>;
        fn visit<F: Family>(self, trace: Trace<OpOf<F>>) -> Result<String, String> {
            struct Find<'a, F: Family> {
                design: &'a str,
                trace: &'a Trace<OpOf<F>>,
                result: Option<Result<String, String>>,
            }
            impl<F: Family> ReplayerVisitor<F> for Find<'_, F> {
                fn visit_design(&mut self, design: &'static dyn Design<F>, _role: Role) {
                    if design.name() == self.design {
                        self.result =
                            Some(collected_replay(design, self.trace).and_then(|d| {
                                serde_json::to_string(&d).map_err(|e| e.to_string())
                            }));
                    }
                }

                fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
                    if L::name() == self.design {
                        self.result =
                            Some(collected_loop::<L>(self.trace).and_then(|d| {
                                serde_json::to_string(&d).map_err(|e| e.to_string())
                            }));
                    }
                }
            }
            let mut find = Find {
                design: self.design,
                trace: &trace,
                result: None,
            };
            F::for_each_replayer(&mut find);
            find.result.unwrap_or_else(|| {
                Err(format!(
                    "unknown {} design {:?}; valid designs: {}",
                    F::NAME,
                    self.design,
                    crate::replay::replayer_names::<F>(None).join(", ")
                ))
            })
        }
    }
    with_family(trace, Child { design })
}

/// Builds the state and resolves the body (the dry run) uninstrumented, starts the
/// instrumentation ([`START_STATE`]: before one more replay of a read-only body, before a fresh
/// setup for a mutating one), and replays the resolved body inside [`dodbench_collected`], as
/// the timed replays run it.
///
/// [`START_STATE`]: super::START_STATE
fn collected_replay<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
) -> Result<F::Digest, String> {
    let (mut state, body, _) = crate::replay::shared::resolve_body(design, trace)?;
    if trace.body_is_read_only() {
        callgrind_request::start_instrumentation();
        state
            .replay_resolved(&trace.body, &body)
            .map_err(|e| format!("warm-up replay {e}"))?;
    } else {
        drop(state);
        callgrind_request::start_instrumentation();
        // The body's ops and recorded IDs, as the dry run left them in the caches, then the
        // fresh setup the body starts from.
        crate::replay::resolved::read_every_line(&trace.body);
        body.read_every_line();
        state = design
            .after_setup(trace)
            .map_err(|e| format!("setup {e}"))?;
    }
    state
        .replay_resolved_within(&trace.body, &body, &mut |replay| {
            dodbench_collected(replay);
        })
        .map_err(|e| format!("body {e}"))
}

/// Builds reference loop `L` for `trace` (the model's answers computed first, untimed), and
/// runs one verified pass of it inside [`dodbench_collected`]; returns the digest it
/// reproduced.
fn collected_loop<L: ReferenceLoop>(
    trace: &Trace<OpOf<L::Family>>,
) -> Result<<L::Family as Family>::Digest, String> {
    let expected = crate::verify::Expected::<L::Family>::of(trace).map_err(|e| e.to_string())?;
    callgrind_request::start_instrumentation();
    let reference = L::for_trace(trace, &expected.body)
        .ok_or_else(|| format!("{} does not apply to this trace", L::name()))?;
    let mut result = None;
    dodbench_collected(&mut || result = Some(reference.run(1)));
    result.expect("the collected closure ran")?;
    Ok(expected.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collected_fn_runs_its_body() {
        let mut ran = 0;
        dodbench_collected(&mut || ran += 1);
        assert_eq!(ran, 1);
    }
}
