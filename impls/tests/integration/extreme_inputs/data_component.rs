//! DataComponent: entity handles, keys, extreme floats, long values, forged snapshots.

use super::*;

#[test]
fn data_stores_take_extreme_values_and_reject_bad_input() {
    struct V;
    impl KvDesignVisitor for V {
        fn visit<D: DataStore + 'static>(&mut self) {
            let info = D::INFO;
            let name = info.meta.name;
            let json = name == "serde_json";
            let mut store = D::new();
            let e = store.create_entity().unwrap();
            store.set(e, u32::MAX, ValueRef::F32(1.5)).unwrap();
            store.set(e, 0, ValueRef::Str(b"x")).unwrap();

            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, e + 1, e + 4096] {
                let no = KvError::NoSuchEntity { entity: bad };
                let v = ValueRef::Bool(true);
                assert_eq!(store.set(bad, 1, v), Err(no.clone()), "{name}: set");
                assert_eq!(store.remove(bad, 1), Err(no.clone()), "{name}: remove");
                assert_eq!(store.get(bad, 1, |_| ()), Err(no.clone()), "{name}: get");
                let mut out = vec![1, 2, 3];
                assert_eq!(store.snapshot(bad, &mut out), Err(no.clone()), "{name}");
                assert_eq!(store.destroy_entity(bad), Err(no), "{name}: destroy");
                store.check_invariants().unwrap();
            }

            // Extreme floats: stored bit for bit, or refused by the JSON peer.
            for (k, &f) in EXTREME_F32.iter().enumerate() {
                let key = u32::MAX - 1 - k as u32;
                let got = store.set(e, key, ValueRef::F32(f));
                if json && !f.is_finite() {
                    assert!(
                        matches!(got, Err(KvError::Unrepresentable { .. })),
                        "{name}: {f}: {got:?}"
                    );
                    assert_eq!(store.get(e, key, |v| v.is_none()), Ok(true), "{name}");
                    continue;
                }
                got.unwrap();
                let bits = store.get(e, key, |v| v.map(|v| v.scalar_bits())).unwrap();
                if json {
                    // JSON numbers keep the value, not NaN payloads or the sign of zero.
                    assert!(bits.is_some(), "{name}");
                } else {
                    assert_eq!(bits, Some(f.to_bits()), "{name}: {f}");
                }
            }
            let array: Vec<u8> = [f32::MAX, f32::MIN, f32::from_bits(1), 0.5]
                .iter()
                .flat_map(|f| f.to_ne_bytes())
                .collect();
            store.set(e, 7, ValueRef::F32s(&array)).unwrap();
            let back = store
                .get(e, 7, |v| v.and_then(|v| v.bytes()).map(<[u8]>::to_vec))
                .unwrap();
            assert_eq!(back.as_deref(), Some(&array[..]), "{name}: f32 array");
            store.check_invariants().unwrap();

            // A value past the design's cap (or a big one, for uncapped designs) is refused
            // without a change, or stored whole.
            let keys = store.key_count();
            let long = vec![b'a'; info.bytes_per_entity_cap.unwrap_or(1 << 16) + 1];
            match store.set(e, 9, ValueRef::Str(&long)) {
                Ok(()) => {
                    assert!(info.bytes_per_entity_cap.is_none(), "{name}: past its cap");
                    let len = store.get(e, 9, |v| v.and_then(|v| v.bytes()).map(<[u8]>::len));
                    assert_eq!(len, Ok(Some(long.len())), "{name}");
                    assert_eq!(store.remove(e, 9), Ok(true), "{name}");
                }
                Err(KvError::TooLarge { .. }) => {
                    assert_eq!(
                        store.key_count(),
                        keys,
                        "{name}: TooLarge changed the store"
                    );
                    assert_eq!(store.get(e, 9, |v| v.is_none()), Ok(true), "{name}");
                }
                Err(other) => panic!("{name}: long value: {other:?}"),
            }
            store.check_invariants().unwrap();

            // Snapshots that no design wrote are refused, never trusted for a length.
            let mut snap = Vec::new();
            store.snapshot(e, &mut snap).unwrap();
            let mut forged_snapshots = vec![
                vec![0xFF; 64],
                vec![0xFF; 3],
                vec![0x7F; 17],
                u32::MAX.to_le_bytes().repeat(8),
                snap[..snap.len() / 2].to_vec(),
            ];
            let mut tail = snap.clone();
            tail.extend_from_slice(&[0xFF; 9]);
            forged_snapshots.push(tail);
            for (k, bytes) in forged_snapshots.iter().enumerate() {
                let mut pairs = 0usize;
                let _verdict = D::visit_snapshot(bytes, |_, _| pairs += 1);
                assert!(pairs <= bytes.len(), "{name}: forged snapshot {k}");
            }
            let mut pairs = 0;
            D::visit_snapshot(&snap, |_, _| pairs += 1).unwrap();
            assert_eq!(pairs, store.key_count(), "{name}: snapshot of the store");
            let f = store.create_entity().unwrap();
            store.set(f, u32::MAX, ValueRef::Bool(false)).unwrap();
            store.destroy_entity(f).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::data_component::for_each_kv_design(&mut V);
}
