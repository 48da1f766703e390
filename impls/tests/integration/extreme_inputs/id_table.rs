//! ID tables: IDs come from the table, so the hazard is a forged or foreign ID.

use super::*;

#[test]
fn id_tables_reject_forged_and_foreign_ids() {
    struct V(Vec<&'static str>);
    impl DesignVisitor<u64> for V {
        fn visit<D: IdTable<u64> + 'static>(&mut self) {
            let name = D::INFO.meta.name;
            let mut table = D::new();
            let ids: Vec<D::Id> = (0..3).map(|k| table.insert(k).unwrap()).collect();
            let mut other = D::new();
            let foreign: Vec<D::Id> = (0..40).map(|k| other.insert(k).unwrap()).collect();
            let forged_ids = forged::<D::Id>();
            if forged_ids.is_empty() {
                self.0.push(name);
            }
            let bad = bad_ids(forged_ids.into_iter().chain(foreign[3..].iter().copied()));
            for id in bad {
                assert_eq!(table.get(id), None, "{name}: get({id:?})");
                assert_eq!(table.get_mut(id), None, "{name}: get_mut({id:?})");
                assert!(!table.contains(id), "{name}: contains({id:?})");
                assert_eq!(table.remove(id), None, "{name}: remove({id:?})");
                table.check_invariants().unwrap();
            }
            assert_eq!(table.len(), 3, "{name}");
            for (k, &id) in ids.iter().enumerate() {
                assert_eq!(table.get(id), Some(&(k as u64)), "{name}");
            }
            let id = table.insert(u64::MAX).unwrap();
            assert_eq!(table.remove(id), Some(u64::MAX), "{name}");
            table.check_invariants().unwrap();
        }
    }
    let mut v = V(Vec::new());
    impls::id_table::for_each_design::<u64, _>(&mut v);
    // Every design's ID type is forgeable here, so each got the `u32::MAX`-index IDs, not only
    // foreign ones; a new ID type belongs in `forged_candidates`.
    assert!(
        v.0.is_empty(),
        "no forged candidates of these designs' ID types: {:?}",
        v.0
    );
}
