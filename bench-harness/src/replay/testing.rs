//! What the families' reference-loop tests share (`replay/<family>/reference*.rs`): the
//! traces they replay and the check every loop that mirrors a design passes, written once over
//! [`ReferenceLoop`] so each family's tests say only what is particular to its loops.

use workloads::{Trace, TraceOp};

use super::contract::{DigestOf, Family, OpOf, ReferenceLoop, Replayer};

/// `workload` generated at `n` live objects with seed 7 and `params` (the workload's defaults
/// for `None`).
pub(crate) fn trace_with<O: TraceOp>(
    workload: &str,
    n: usize,
    params: Option<&serde_json::Value>,
) -> Trace<O> {
    workloads::registry::generate_for::<O>(workload, n, 7, params).unwrap()
}

/// `workload` at 300 live objects with its default parameters: the loop tests' trace.
pub(crate) fn trace<O: TraceOp>(workload: &str) -> Trace<O> {
    trace_with(workload, 300, None)
}

/// The model's digest of `trace`'s body, as a loop expects it: the family's model replayed
/// after the setup.
pub(crate) fn expected_body<L: ReferenceLoop>(
    trace: &Trace<OpOf<L::Family>>,
) -> DigestOf<L::Family> {
    let mut model = <<L::Family as Family>::Model as Replayer>::after_setup(trace).unwrap();
    model.replay(&trace.body).unwrap()
}

/// Checks loop `L`, which mirrors a design, on `trace`: it is named `ref-direct-<design>`, has
/// a loop for the trace, and gives the model's digest over two then three passes (a state left
/// over from a pass would fail the third); expecting a digest that one of `corruptions`
/// altered, a pass fails with an error that contains `error_names`. Returns the loop.
pub(crate) fn check_mirroring_loop<L: ReferenceLoop>(
    trace: &Trace<OpOf<L::Family>>,
    corruptions: &[fn(&mut DigestOf<L::Family>)],
    error_names: &str,
) -> L {
    let (name, workload) = (L::name(), &trace.header.generator);
    let design = L::MIRRORS.unwrap_or_else(|| panic!("{name} mirrors no design"));
    assert_eq!(name, format!("ref-direct-{design}"));
    let expected = expected_body::<L>(trace);
    let looped =
        L::for_trace(trace, &expected).unwrap_or_else(|| panic!("{name}: no loop for {workload}"));
    for passes in [2, 3] {
        looped
            .run(passes)
            .unwrap_or_else(|e| panic!("{name} on {workload}: {e}"));
    }
    for corrupt in corruptions {
        let mut wrong = expected;
        corrupt(&mut wrong);
        let error = L::for_trace(trace, &wrong)
            .unwrap_or_else(|| panic!("{name}: no loop for {workload} expecting another digest"))
            .run(1)
            .unwrap_err();
        assert!(error.contains(error_names), "{name} on {workload}: {error}");
    }
    looped
}
