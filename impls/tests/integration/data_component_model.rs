//! The DataComponent family contract, checked once for every registered design: random op
//! sequences against the reference model [`ModelStore`], with `check_invariants` after every
//! op, exact round trips of strings and arrays (empty and long ones included), snapshots decoded
//! and compared with the model's entries, and handles past the end or destroyed.

use crate::support;

use impls::data_component::model::{ModelStore, OwnedValue};
use impls::data_component::{
    DataStore, Entity, Key, KvDesignVisitor, KvError, ValueRef, for_each_kv_design,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A value as the test generates it.
#[derive(Debug, Clone)]
enum TestValue {
    Bool(bool),
    F32(f32),
    Str(Vec<u8>),
    F32s(Vec<f32>),
}

impl TestValue {
    fn with<R>(&self, f: impl FnOnce(ValueRef<'_>) -> R) -> R {
        match self {
            TestValue::Bool(b) => f(ValueRef::Bool(*b)),
            TestValue::F32(x) => f(ValueRef::F32(*x)),
            TestValue::Str(s) => f(ValueRef::Str(s)),
            TestValue::F32s(a) => {
                let bytes: Vec<u8> = a.iter().flat_map(|x| x.to_ne_bytes()).collect();
                f(ValueRef::F32s(&bytes))
            }
        }
    }
}

#[derive(Debug, Clone)]
enum TestOp {
    Create,
    Destroy(usize),
    Set(usize, Key, TestValue),
    Get(usize, Key),
    Remove(usize, Key),
    Snapshot(usize),
}

fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0f32),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE),
        (-1e6f32..1e6f32),
    ]
}

fn value_strategy() -> impl Strategy<Value = TestValue> {
    prop_oneof![
        2 => any::<bool>().prop_map(TestValue::Bool),
        3 => finite_f32().prop_map(TestValue::F32),
        3 => prop_oneof![
            4 => proptest::collection::vec(b'a'..=b'z', 0..24),
            1 => proptest::collection::vec(b' '..=b'~', 100..600),
        ].prop_map(TestValue::Str),
        2 => prop_oneof![
            4 => proptest::collection::vec(finite_f32(), 0..8),
            1 => proptest::collection::vec(finite_f32(), 60..200),
        ].prop_map(TestValue::F32s),
    ]
}

/// Few distinct keys so replacements and removals of present keys are common, plus any key.
fn key_strategy() -> impl Strategy<Value = Key> {
    prop_oneof![8 => 0..12u32, 1 => any::<u32>()]
}

/// Mostly the most recent entity, else any handle ever handed out, or one never handed out.
fn pick_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(usize::MAX), 4 => any::<usize>(), 1 => Just(usize::MAX - 1)]
}

fn op_strategy() -> impl Strategy<Value = TestOp> {
    prop_oneof![
        2 => Just(TestOp::Create),
        1 => pick_strategy().prop_map(TestOp::Destroy),
        10 => (pick_strategy(), key_strategy(), value_strategy())
            .prop_map(|(p, k, v)| TestOp::Set(p, k, v)),
        6 => (pick_strategy(), key_strategy()).prop_map(|(p, k)| TestOp::Get(p, k)),
        3 => (pick_strategy(), key_strategy()).prop_map(|(p, k)| TestOp::Remove(p, k)),
        2 => pick_strategy().prop_map(TestOp::Snapshot),
    ]
}

fn owned(v: Option<ValueRef<'_>>) -> Option<OwnedValue> {
    v.map(OwnedValue::new)
}

/// The decoded entries of a design's snapshot, sorted by key.
fn decoded<D: DataStore>(bytes: &[u8]) -> Result<Vec<(Key, OwnedValue)>, String> {
    let mut out = Vec::new();
    D::visit_snapshot(bytes, |k, v| out.push((k, OwnedValue::new(v))))
        .map_err(|e| e.to_string())?;
    out.sort_by_key(|(k, _)| *k);
    Ok(out)
}

fn run_against_model<D: DataStore>(ops: &[TestOp]) -> Result<(), TestCaseError> {
    let name = D::INFO.meta.name;
    let mut store = D::new();
    let mut model = ModelStore::new();
    // `handles[i]`: the store's entity for the model's entity `i`.
    let mut handles: Vec<Entity> = Vec::new();
    let mut last: Option<usize> = None;
    let mut buf = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        let ctx = format!("{name}: step {step} {op:?}");
        // The model's entity and the store's, for a pick.
        let pick = |p: usize, handles: &[Entity]| -> (Entity, Entity) {
            let slots = handles.len();
            let m = match p {
                usize::MAX => last.unwrap_or(0),
                p if p == usize::MAX - 1 => slots + 3,
                p if slots == 0 => p % 4,
                p => p % slots,
            };
            let s = handles.get(m).copied().unwrap_or(m as Entity + 1000);
            (m as Entity, s)
        };
        match op {
            TestOp::Create => {
                let m = model.create_entity().unwrap();
                let s = store.create_entity();
                prop_assert!(s.is_ok(), "{}", ctx);
                if m as usize == handles.len() {
                    handles.push(s.unwrap());
                } else {
                    handles[m as usize] = s.unwrap();
                }
                last = Some(m as usize);
            }
            TestOp::Destroy(p) => {
                let (m, s) = pick(*p, &handles);
                let want = model.destroy_entity(m).is_ok();
                let got = store.destroy_entity(s);
                prop_assert_eq!(got.is_ok(), want, "{}", ctx);
                if !want {
                    prop_assert_eq!(got, Err(KvError::NoSuchEntity { entity: s }), "{}", ctx);
                }
            }
            TestOp::Set(p, k, v) => {
                let (m, s) = pick(*p, &handles);
                let got = v.with(|v| store.set(s, *k, v));
                match got {
                    Err(KvError::TooLarge { .. }) => {
                        prop_assert!(D::INFO.bytes_per_entity_cap.is_some(), "{}", ctx);
                    }
                    got => {
                        let want = v.with(|v| model.set(m, *k, v));
                        prop_assert_eq!(got.is_ok(), want.is_ok(), "{}", ctx);
                    }
                }
            }
            TestOp::Get(p, k) => {
                let (m, s) = pick(*p, &handles);
                let want = model.get(m, *k, owned);
                let got = store.get(s, *k, owned);
                prop_assert_eq!(got.ok(), want.ok(), "{}", ctx);
            }
            TestOp::Remove(p, k) => {
                let (m, s) = pick(*p, &handles);
                let want = model.remove(m, *k);
                prop_assert_eq!(store.remove(s, *k).ok(), want.ok(), "{}", ctx);
            }
            TestOp::Snapshot(p) => {
                let (m, s) = pick(*p, &handles);
                let want = model.snapshot(m, &mut buf).is_ok();
                let got = store.snapshot(s, &mut buf);
                prop_assert_eq!(got.is_ok(), want, "{}", ctx);
                if want {
                    let entries = decoded::<D>(&buf);
                    prop_assert_eq!(entries, Ok(model.entries(m)), "{}: snapshot", ctx);
                }
            }
        }
        prop_assert_eq!(
            store.entity_count(),
            model.entity_count(),
            "{}: entities",
            ctx
        );
        prop_assert_eq!(store.key_count(), model.key_count(), "{}: keys", ctx);
        if let Err(broken) = store.check_invariants() {
            prop_assert!(false, "{}: invariant broken: {}", ctx, broken);
        }
    }
    // Every live entity's every key, read back at the end.
    for m in 0..model.slots() as Entity {
        let s = handles[m as usize];
        for (k, v) in model.entries(m) {
            prop_assert_eq!(store.get(s, k, owned), Ok(Some(v)), "{}: final get", name);
        }
    }
    Ok(())
}

support::every_design_agrees_with_the_model! {
    KvDesignVisitor::visit<D: DataStore>,
    for_each_kv_design,
    ops: 0..300,
    cases: 200,
}

/// Designs with narrow offsets refuse data past their cap with a clear error and stay usable.
struct CapTest;

impl KvDesignVisitor for CapTest {
    fn visit<D: DataStore + 'static>(&mut self) {
        let mut store = D::new();
        let e = store.create_entity().unwrap();
        let big = vec![b'x'; 40_000];
        let mut refused = false;
        for k in 0..4 {
            match store.set(e, k, ValueRef::Str(&big)) {
                Ok(()) => {}
                Err(KvError::TooLarge { .. }) => refused = true,
                Err(other) => panic!("{}: {other}", D::INFO.meta.name),
            }
            store.check_invariants().unwrap();
        }
        assert_eq!(
            refused,
            D::INFO.bytes_per_entity_cap.is_some(),
            "{}",
            D::INFO.meta.name
        );
        store.set(e, 99, ValueRef::F32(1.5)).unwrap();
        assert_eq!(
            store.get(e, 99, owned),
            Ok(Some(OwnedValue::new(ValueRef::F32(1.5))))
        );
    }
}

#[test]
fn capped_designs_refuse_oversized_data_cleanly() {
    for_each_kv_design(&mut CapTest);
}

/// The first `n` whole numbers as an array value.
fn counting_f32s(n: usize) -> TestValue {
    TestValue::F32s((0..n).map(|i| i as f32).collect())
}

/// A value at key 6 overwritten by an empty one (`empty`), then the buffer reallocated by more
/// keys: the sequence that lost `two_regions`' empty string (its slot kept an offset into the
/// old, longer buffer). Every op targets the first entity; a second one is created midway.
fn empty_value_sequence(before: TestValue, empty: TestValue) -> Vec<TestOp> {
    let str_value = |s: &[u8]| TestValue::Str(s.to_vec());
    vec![
        TestOp::Create,
        TestOp::Set(0, 8, counting_f32s(5)),
        TestOp::Set(0, 10, counting_f32s(197)),
        TestOp::Set(0, 6, before),
        TestOp::Set(0, 10, str_value(b"rhyltyrrfczzwgnkyihmjz")),
        TestOp::Create,
        TestOp::Set(0, 6, empty),
        TestOp::Set(0, 7, str_value(b"ogpkpqa")),
        TestOp::Set(0, 4, str_value(b"zufgctxbusrbrptaennsvzp")),
        TestOp::Get(0, 6),
        TestOp::Snapshot(0),
    ]
}

/// Runs fixed op sequences on every design; collects every design's disagreement.
struct FixedSequences(Vec<Vec<TestOp>>, Vec<String>);

impl KvDesignVisitor for FixedSequences {
    fn visit<D: DataStore + 'static>(&mut self) {
        for ops in &self.0 {
            if let Err(e) = run_against_model::<D>(ops) {
                self.1.push(e.to_string());
            }
        }
    }
}

#[test]
fn empty_values_survive_overwrites_and_reallocation() {
    let mut run = FixedSequences(
        vec![
            empty_value_sequence(TestValue::Str(b"lcc".to_vec()), TestValue::Str(Vec::new())),
            empty_value_sequence(counting_f32s(3), TestValue::F32s(Vec::new())),
            empty_value_sequence(TestValue::Str(b"lcc".to_vec()), TestValue::F32s(Vec::new())),
        ],
        Vec::new(),
    );
    for_each_kv_design(&mut run);
    assert!(run.1.is_empty(), "{}", run.1.join("\n"));
}
