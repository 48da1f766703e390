//! Tags: entity handles are `u32` indices the caller passes; tags are any `u32`.

use super::*;

#[test]
fn tag_stores_reject_extreme_handles() {
    struct V;
    impl TagDesignVisitor for V {
        fn visit<D: TagStore + 'static>(&mut self) {
            let name = D::INFO.meta.name;
            let mut store = D::new();
            let e = store.create_entity().unwrap();
            store.add_tag(e, u32::MAX).unwrap();
            store.add_tag(e, 0).unwrap();
            for bad in [u32::MAX, u32::MAX - 1, 1 << 31, e + 1, e + 64, e + 4096] {
                let no = TagError::NoSuchEntity { entity: bad };
                assert_eq!(store.add_tag(bad, 1), Err(no.clone()), "{name}: add_tag");
                assert_eq!(store.remove_tag(bad, 1), Err(no.clone()), "{name}");
                assert_eq!(store.has_tag(bad, 1), Err(no.clone()), "{name}");
                let mut called = false;
                assert_eq!(
                    store.visit_entity(bad, |_| called = true),
                    Err(no.clone()),
                    "{name}"
                );
                assert!(!called, "{name}: visit_entity called f");
                assert_eq!(store.clear_entity(bad), Err(no.clone()), "{name}");
                assert_eq!(store.destroy_entity(bad), Err(no), "{name}");
                store.check_invariants().unwrap();
            }
            assert_eq!((store.entity_count(), store.tag_count()), (1, 2), "{name}");
            assert_eq!(store.has_tag(e, u32::MAX), Ok(true), "{name}");
            assert_eq!(store.remove_tag(e, u32::MAX), Ok(true), "{name}");
            let f = store.create_entity().unwrap();
            store.add_tag(f, u32::MAX).unwrap();
            store.check_invariants().unwrap();
        }
    }
    impls::tags::for_each_tag_design(&mut V);
}
