//! Every design that reports its own allocator calls is checked against the allocator itself.
//!
//! Why: the families' `allocator_calls` are each design's own bookkeeping, and a design can
//! allocate behind it (the DataComponent `buddy_arena` once built every rebuilt buffer in an
//! uncounted scratch `Vec`, so it reported 0.011 calls per entity while the heap saw 2). This
//! binary installs a counting global allocator, runs a representative op sequence (inserts that
//! grow buffers, overwrites that rebuild them, removals, destruction, handle reuse) on every
//! design of the three families whose trait reports allocator calls (components, tags,
//! DataComponent; the other families report none), and asserts the design's count equals the
//! calls the allocator saw.
//!
//! What is counted: each family defines an allocator call as every allocation, reallocation
//! (growth) and free of a heap buffer, so the counter counts `alloc`, `alloc_zeroed`,
//! `realloc` and `dealloc` alike. Only the calls the test thread makes while a store method
//! runs are counted (a thread-local switch), so the test's own vectors and libtest's threads
//! do not mix in, and the tests may run in parallel.
//!
//! Skipped, each with its reason listed in [`skip_reason`]: the components peers, whose docs
//! state their allocator calls are not observable (they report 0).
//!
//! Exact only where the family's rule is: the DataComponent designs built on `BTreeMap`
//! (`tree_strings`, `map_hashed`, `serde_json`) count estimated B-tree nodes
//! (`heap_value::btree_nodes`), exact up to 11 keys (one node); the sequence keeps every entity
//! at 10 keys or fewer, so a mismatch there is a real miscount, not the estimate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use impls::components::{
    ComponentDesignKind, ComponentDesignVisitor, ComponentStore, PointMass,
    for_each_component_design,
};
use impls::data_component::{DataStore, KvDesignVisitor, ValueRef, for_each_kv_design};
use impls::tags::{TagDesignVisitor, TagStore, for_each_tag_design};

thread_local! {
    /// Whether this thread's allocator calls are being counted now.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// This thread's counted calls.
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting the calls of a thread that switched [`COUNTING`] on.
struct CountingAlloc;

fn note_call() {
    // `try_with`: during thread teardown the slots may be gone; nothing is counted then.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = CALLS.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every method forwards to `System` with its caller's arguments unchanged; the counter
// is a const-initialised thread-local `Cell` that never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_call();
        // SAFETY: forwarded from our caller, who upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_call();
        // SAFETY: forwarded from our caller, who upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_call();
        // SAFETY: forwarded from our caller, who upholds `dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_call();
        // SAFETY: forwarded from our caller, who upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// Runs `f` with this thread's allocator calls counted into `seen`.
fn counted<R>(seen: &mut u64, f: impl FnOnce() -> R) -> R {
    let before = CALLS.with(Cell::get);
    COUNTING.with(|on| on.set(true));
    let r = f();
    COUNTING.with(|on| on.set(false));
    *seen += CALLS.with(Cell::get) - before;
    r
}

/// The designs not checked, and why; `None` for a design that is checked.
fn skip_reason(kind: ComponentDesignKind) -> Option<&'static str> {
    matches!(kind, ComponentDesignKind::Peer { .. })
        .then_some("a components peer: its doc states allocator calls are not observable (0)")
}

/// One design's result: its own count and the allocator's, or why it was skipped.
struct Outcome {
    family: &'static str,
    design: &'static str,
    /// `(own, seen, entities)`, or the skip reason.
    result: Result<(u64, u64, u64), &'static str>,
}

/// Prints every outcome (per entity, so the numbers are comparable across designs) and
/// panics listing every design whose count is wrong.
fn report(outcomes: &[Outcome]) {
    let mut wrong = Vec::new();
    for o in outcomes {
        match o.result {
            Ok((own, seen, entities)) => {
                println!(
                    "{:>14} {:<28} own {own:>6} ({:.3}/entity), allocator {seen:>6} ({:.3}/entity)",
                    o.family,
                    o.design,
                    own as f64 / entities as f64,
                    seen as f64 / entities as f64
                );
                if own != seen {
                    wrong.push(format!(
                        "{} {}: reports {own}, the allocator saw {seen}",
                        o.family, o.design
                    ));
                }
            }
            Err(reason) => println!("{:>14} {:<28} skipped: {reason}", o.family, o.design),
        }
    }
    assert!(
        wrong.is_empty(),
        "allocator accounting wrong:\n{}",
        wrong.join("\n")
    );
}

impl Outcome {
    /// A checked design's outcome: its own count `own` beside the allocator's `seen`, over
    /// `entities` entities.
    fn measured(
        family: &'static str,
        design: &'static str,
        own: u64,
        seen: u64,
        entities: u64,
    ) -> Self {
        Outcome {
            family,
            design,
            result: Ok((own, seen, entities)),
        }
    }
}

/// Entities each sequence creates first.
const ENTITIES: u32 = 300;

/// Two rounds over [`ENTITIES`] new entities of `store`, every call counted into `seen`: each
/// round creates them (`create`), runs `each(store, seen, round, i, entity)` on the i-th, then
/// destroys every other one (every one in the second round), so the second round reuses the
/// first's handles. Returns how many entities it created.
fn two_rounds<S, E: Copy>(
    store: &mut S,
    seen: &mut u64,
    create: impl Fn(&mut S) -> E,
    mut each: impl FnMut(&mut S, &mut u64, u32, u32, E),
    destroy: impl Fn(&mut S, E),
) -> u64 {
    let mut created = 0u64;
    for round in 0..2u32 {
        let mut handles = Vec::with_capacity(ENTITIES as usize);
        for _ in 0..ENTITIES {
            handles.push(counted(seen, || create(store)));
            created += 1;
        }
        for (i, &e) in handles.iter().enumerate() {
            each(store, seen, round, i as u32, e);
        }
        for &e in handles.iter().step_by(2 - round as usize) {
            counted(seen, || destroy(store, e));
        }
    }
    created
}

/// Runs `each` in [`two_rounds`] on a new store of design `$design` (of a family whose stores
/// create and destroy entities, check themselves and report their calls alike: tags and
/// DataComponent) and records the store's own count beside the allocator's into `$run`.
macro_rules! entity_rounds {
    ($run:expr, $family:literal, $design:ty, $each:expr) => {{
        let mut seen = 0;
        let mut store = counted(&mut seen, <$design>::new);
        let created = two_rounds(
            &mut store,
            &mut seen,
            |s| s.create_entity().unwrap(),
            $each,
            |s, e| s.destroy_entity(e).unwrap(),
        );
        store.check_invariants().unwrap();
        $run.push(Outcome::measured(
            $family,
            <$design>::INFO.meta.name,
            store.allocator_calls(),
            seen,
            created,
        ));
    }};
}

struct KvRun(Vec<Outcome>);

impl KvDesignVisitor for KvRun {
    fn visit<D: DataStore + 'static>(&mut self) {
        let long = "a string long enough to outgrow the buffer it started in".repeat(3);
        let floats: Vec<u8> = (0..40u32).flat_map(|i| (i as f32).to_ne_bytes()).collect();
        let each = |store: &mut D, seen: &mut u64, _round: u32, i: u32, e| {
            let short = &long[..(i as usize % 7) + 1];
            let value = |k: u32| match (k + i) % 4 {
                0 => ValueRef::Bool(k % 2 == 0),
                1 => ValueRef::F32(k as f32),
                2 => ValueRef::Str(short.as_bytes()),
                _ => ValueRef::F32s(&floats[..4 * (k as usize % 9)]),
            };
            // Grows the header past its first capacity and fills the value space.
            for k in 0..(2 + i % 9) {
                counted(seen, || store.set(e, k, value(k))).unwrap();
            }
            // A value that outgrows its place (a hole, then a rebuild), an empty one, and a
            // type change.
            counted(seen, || store.set(e, 1, ValueRef::Str(long.as_bytes()))).unwrap();
            counted(seen, || store.set(e, 2, ValueRef::Str(b""))).unwrap();
            counted(seen, || store.set(e, 0, ValueRef::F32s(&floats))).unwrap();
            if i % 3 == 0 {
                counted(seen, || store.remove(e, 1)).unwrap();
                counted(seen, || store.remove(e, 0)).unwrap();
            }
        };
        entity_rounds!(self.0, "data_component", D, each);
    }
}

#[test]
fn data_component_designs_count_every_allocator_call() {
    let mut run = KvRun(Vec::new());
    for_each_kv_design(&mut run);
    report(&run.0);
}

struct TagRun(Vec<Outcome>);

impl TagDesignVisitor for TagRun {
    fn visit<D: TagStore + 'static>(&mut self) {
        let each = |store: &mut D, seen: &mut u64, round: u32, i: u32, e| {
            // From one tag to 40 (lists that grow past the chunked designs' chunks), within a
            // fixed-capacity design's cap.
            let cap = D::INFO.tags_per_entity_cap.unwrap_or(40).min(40) as u32;
            let n = 1 + i % cap;
            for t in 0..n {
                counted(seen, || store.add_tag(e, t * 7 + round)).unwrap();
            }
            for t in (0..n).step_by(3) {
                counted(seen, || store.remove_tag(e, t * 7 + round)).unwrap();
            }
            if i % 5 == 0 {
                counted(seen, || store.clear_entity(e)).unwrap();
                counted(seen, || store.add_tag(e, 1)).unwrap();
            }
        };
        entity_rounds!(self.0, "tags", D, each);
    }
}

#[test]
fn tag_designs_count_every_allocator_call() {
    let mut run = TagRun(Vec::new());
    for_each_tag_design(&mut run);
    report(&run.0);
}

struct ComponentRun(Vec<Outcome>);

impl ComponentDesignVisitor for ComponentRun {
    fn visit<D: ComponentStore + 'static>(&mut self) {
        if let Some(reason) = skip_reason(D::INFO.meta.kind) {
            self.0.push(Outcome {
                family: "components",
                design: D::INFO.meta.name,
                result: Err(reason),
            });
            return;
        }
        let mut seen = 0;
        let mut store = counted(&mut seen, D::new);
        let mut created = 0u64;
        let mass = |i: usize| PointMass {
            position: [i as f32, 0.0, 1.0],
            ..PointMass::default()
        };
        for round in 0..2 {
            let mut handles = Vec::with_capacity(ENTITIES as usize);
            for i in 0..ENTITIES as usize {
                let e = counted(&mut seen, || store.spawn()).unwrap();
                handles.push(e);
                created += 1;
                if i % 4 != 3 {
                    counted(&mut seen, || store.attach(e, mass(i))).unwrap();
                }
            }
            for (i, &e) in handles.iter().enumerate() {
                if i % 6 == 0 {
                    counted(&mut seen, || store.detach(e)).unwrap();
                }
                if i % 3 == 1 {
                    counted(&mut seen, || store.kill(e)).unwrap();
                }
            }
            counted(&mut seen, || store.destroy_step());
            if round == 1 {
                counted(&mut seen, || store.collect_all_garbage());
            }
        }
        store.check_invariants().unwrap();
        self.0.push(Outcome::measured(
            "components",
            D::INFO.meta.name,
            store.allocator_calls(),
            seen,
            created,
        ));
    }
}

#[test]
fn component_designs_count_every_allocator_call() {
    let mut run = ComponentRun(Vec::new());
    for_each_component_design(&mut run);
    report(&run.0);
}
