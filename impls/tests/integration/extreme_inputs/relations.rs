//! Relations: record IDs are `u32`s the caller passes back; keys and payloads are any `u32`.

use super::*;

#[test]
fn relation_indices_take_extreme_keys_and_reject_extreme_ids() {
    struct V;
    impl RelationDesignVisitor for V {
        fn visit<D: RelationIndex + 'static>(&mut self) {
            let name = D::INFO.meta.name;
            let mut index = D::new();
            let max = Record {
                a: u32::MAX,
                b: u32::MAX,
                payload: u32::MAX,
            };
            let r0 = index.add(max).unwrap();
            let r1 = index
                .add(Record {
                    a: u32::MAX,
                    b: 0,
                    payload: 7,
                })
                .unwrap();
            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, r1 + 1, r1 + 4096] {
                assert_eq!(
                    index.remove(bad),
                    Err(RelationError::NoSuchRecord { id: bad }),
                    "{name}"
                );
                index.check_invariants().unwrap();
            }
            assert_eq!(index.len(), 2, "{name}");
            assert_eq!(index.count_by_a(u32::MAX), 2, "{name}");
            let mut by_b = Vec::new();
            index.visit_by_b(u32::MAX, |id, r| by_b.push((id, r)));
            assert_eq!(by_b, [(r0, max)], "{name}");
            assert!(index.first_by_a(u32::MAX - 1).is_none(), "{name}");
            let mut removed = Vec::new();
            index.remove_entity(u32::MAX, |id, _| removed.push(id));
            removed.sort_unstable();
            assert_eq!(removed, [r0, r1], "{name}");
            assert!(index.is_empty(), "{name}");
            index.check_invariants().unwrap();
        }
    }
    impls::relations::for_each_relation_design(&mut V);
}
