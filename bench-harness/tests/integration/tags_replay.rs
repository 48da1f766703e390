//! The tag family's replay: every registered tag store on every `tags-*` workload gives the
//! model's answers (or is unsupported for its documented cap), timed replays verify, and a
//! wrong store is caught.

use impls::DesignMeta;
use std::time::Instant;

use crate::short_traces::short_trace;
use bench_harness::replay::{Replayer, TagFamily, TagReplay};
use bench_harness::suite::PreparedTrace;
use bench_harness::verify::{Outcome, check_replayer};
use impls::tags::vec_of_vecs::VecOfVecs;
use impls::tags::{
    Entity, Tag, TagDesignInfo, TagDesignVisitor, TagError, TagStore, find_tag_design,
    for_each_tag_design,
};
use workloads::{TagOp, TraceOp};

use crate::support::verify_and_time;

const TAGS: &str = <TagOp as TraceOp>::FAMILY;

fn tag_workloads() -> Vec<&'static str> {
    workloads::registry::workloads_of(TAGS)
        .iter()
        .map(|w| w.name)
        .collect()
}

/// Verifies, times twice and measures every design on one prepared trace.
struct VerifyAll<'a> {
    prepared: &'a PreparedTrace<TagFamily>,
    verdicts: Vec<(&'static str, Outcome)>,
}

impl TagDesignVisitor for VerifyAll<'_> {
    fn visit<S: TagStore + 'static>(&mut self) {
        let p = self.prepared;
        let outcome = verify_and_time::<TagReplay<S>>(p);
        if outcome.is_verified() {
            let metrics = TagReplay::<S>::measure(&p.trace, &p.expected.stats)
                .unwrap_or_else(|e| panic!("{}: measure: {e}", S::INFO.meta.name));
            let Some(m) = metrics else {
                panic!("{}: no tag metrics", S::INFO.meta.name);
            };
            assert_eq!(m.tags_after_setup, p.expected.stats.tags_at_start);
            assert_eq!(m.bytes_per_tag.is_some(), m.tags_after_setup > 0);
            assert!(m.alloc_calls_per_op >= 0.0);
        }
        self.verdicts.push((S::INFO.meta.name, outcome));
    }
}

#[test]
fn every_tag_design_gives_the_model_answers_on_every_tag_workload() {
    let workloads = tag_workloads();
    // Ten workloads and the four other points of tags-mutate's mutation-rate sweep.
    assert_eq!(workloads.len(), 14);
    for workload in workloads {
        for n in [1, 7, 300] {
            let prepared = short_trace::<TagFamily>(workload, n, 11);
            let mut all = VerifyAll {
                prepared: &prepared,
                verdicts: Vec::new(),
            };
            for_each_tag_design(&mut all);
            for (design, outcome) in all.verdicts {
                let info = find_tag_design(design).unwrap();
                let max = prepared.expected.stats.max_tags_per_entity;
                let over_cap = info.tags_per_entity_cap.is_some_and(|c| (c as u64) < max);
                match outcome {
                    Outcome::Verified => assert!(
                        !over_cap,
                        "{design} on {workload} n={n}: verified past its cap"
                    ),
                    Outcome::Refused(reason) => {
                        assert!(
                            over_cap,
                            "{design} on {workload} n={n}: unsupported: {reason}"
                        );
                        assert!(reason.contains("tags per entity"), "{reason}");
                    }
                    // Only a refusal before the replay is a documented limit here.
                    Outcome::Failed(reason) | Outcome::Unsupported(reason) => {
                        panic!("{design} on {workload} n={n}: failed: {reason}")
                    }
                }
            }
        }
    }
}

#[test]
fn the_capped_designs_are_unsupported_exactly_on_heavy_tails() {
    let capped: Vec<TagDesignInfo> = impls::tags::tag_designs()
        .into_iter()
        .filter(|d| d.tags_per_entity_cap.is_some())
        .collect();
    let names: Vec<&str> = capped.iter().map(|d| d.meta.name).collect();
    assert!(
        names.contains(&"fixed") && names.contains(&"arrayvec"),
        "{names:?}"
    );
    for workload in tag_workloads() {
        let prepared = PreparedTrace::<TagFamily>::generate(workload, 300, 2).unwrap();
        let heavy = prepared.expected.stats.max_tags_per_entity > 8;
        assert_eq!(heavy, workload.contains("heavy"), "{workload}");
    }
}

/// Which mistake a [`Wrong`] store makes.
#[derive(Debug, Clone, Copy)]
enum Mistake {
    /// Every 7th `add_tag` succeeds but stores nothing.
    DropsEvery7thAdd,
    /// `visit_all` visits its first pair twice.
    VisitsATagTwice,
    /// `visit_all` names entity `e ^ 1` instead of `e` (right tags, wrong entity).
    NamesTheWrongEntity,
}

/// `vec_of_vecs` with one mistake, chosen by `M`.
struct Wrong<const M: u8> {
    inner: VecOfVecs,
    adds: u64,
}

impl<const M: u8> Wrong<M> {
    const MISTAKE: Mistake = match M {
        0 => Mistake::DropsEvery7thAdd,
        1 => Mistake::VisitsATagTwice,
        _ => Mistake::NamesTheWrongEntity,
    };
}

impl<const M: u8> TagStore for Wrong<M> {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "wrong",
            ..<VecOfVecs>::INFO.meta
        },
        ..<VecOfVecs>::INFO
    };

    fn new() -> Self {
        Self {
            inner: VecOfVecs::new(),
            adds: 0,
        }
    }
    fn create_entity(&mut self) -> Result<Entity, TagError> {
        self.inner.create_entity()
    }
    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        self.adds += 1;
        if matches!(Self::MISTAKE, Mistake::DropsEvery7thAdd) && self.adds % 7 == 0 {
            return Ok(());
        }
        self.inner.add_tag(entity, tag)
    }
    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        self.inner.remove_tag(entity, tag)
    }
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        self.inner.has_tag(entity, tag)
    }
    fn visit_entity(&mut self, entity: Entity, f: impl FnMut(Tag)) -> Result<(), TagError> {
        self.inner.visit_entity(entity, f)
    }
    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        let mut first = true;
        self.inner.visit_all(|e, t| match Self::MISTAKE {
            Mistake::VisitsATagTwice if first => {
                first = false;
                f(e, t);
                f(e, t);
            }
            Mistake::NamesTheWrongEntity => f(e ^ 1, t),
            _ => f(e, t),
        });
    }
    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        self.inner.clear_entity(entity)
    }
    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        self.inner.destroy_entity(entity)
    }
    fn entity_count(&self) -> usize {
        self.inner.entity_count()
    }
    fn tag_count(&self) -> usize {
        self.inner.tag_count()
    }
    fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }
    fn allocator_calls(&self) -> u64 {
        self.inner.allocator_calls()
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.inner.check_invariants()
    }
}

fn outcome_of<S: TagStore + 'static>(workload: &str) -> Outcome {
    let p = PreparedTrace::<TagFamily>::generate(workload, 300, 5).unwrap();
    check_replayer::<TagReplay<S>>(&p.trace, &p.expected).outcome
}

#[test]
fn a_wrong_store_fails_verification() {
    for workload in [
        "tags-visit-all",
        "tags-visit-entity",
        "tags-has",
        "tags-churn",
    ] {
        let outcome = outcome_of::<Wrong<0>>(workload);
        assert!(
            matches!(&outcome, Outcome::Failed(r) if r.contains("digest")),
            "{workload}: {outcome:?}"
        );
    }
    for mistake in [
        outcome_of::<Wrong<1>>("tags-visit-all"),
        outcome_of::<Wrong<2>>("tags-visit-all"),
        outcome_of::<Wrong<2>>("tags-visit-all-heavy"),
    ] {
        assert!(
            matches!(&mistake, Outcome::Failed(r) if r.contains("visit")),
            "{mistake:?}"
        );
    }
    // The mistakes only show where the trace looks: the entity mix-up is invisible to HasTag.
    assert_eq!(outcome_of::<Wrong<2>>("tags-has"), Outcome::Verified);
}

/// Rough single-shot timings of one verification replay per workload and design at
/// n = 100K. Run with `cargo test --release -p bench-harness --test integration tags_replay -- --ignored
/// --nocapture`.
#[test]
#[ignore = "timing printout; run in release"]
fn print_verification_replay_times_at_100k() {
    struct Time<'a>(&'a PreparedTrace<TagFamily>, Vec<String>);
    impl TagDesignVisitor for Time<'_> {
        fn visit<S: TagStore + 'static>(&mut self) {
            let checked = check_replayer::<TagReplay<S>>(&self.0.trace, &self.0.expected);
            let cell = match (&checked.outcome, checked.setup_and_body_time) {
                (Outcome::Verified, Some((_, body))) => {
                    format!("{:.1}", body.as_secs_f64() * 1e3)
                }
                (outcome, _) => outcome.label().to_string(),
            };
            self.1.push(format!("{}={cell}", S::INFO.meta.name));
        }
    }
    for workload in tag_workloads() {
        let start = Instant::now();
        let prepared = PreparedTrace::<TagFamily>::generate(workload, 100_000, 1).unwrap();
        let prepare = start.elapsed();
        let mut time = Time(&prepared, Vec::new());
        for_each_tag_design(&mut time);
        println!(
            "{workload} (body {} ops, {} units; generate+model {:.0} ms): body ms {}",
            prepared.trace.body.len(),
            workloads::TraceStats::work_units(&prepared.expected.stats),
            prepare.as_secs_f64() * 1e3,
            time.1.join(" ")
        );
    }
}
