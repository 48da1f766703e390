//! The README's design and workload tables are generated from the registries; this test keeps
//! them true. To refresh: `DODBENCH_BLESS=1 cargo test -p bench-harness --test readme_tables`.

use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::Family;
use bench_harness::suite::{
    FAMILIES_TABLE_HEADER, designs_markdown, family_row_markdown, workloads_markdown,
};

fn replace_section(readme: &str, heading: &str, table: &str) -> String {
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README lacks the heading {heading:?} (add it, then bless)"))
        + heading.len();
    let body_start = start
        + readme[start..]
            .find("\n|")
            .expect("a table after the heading")
        + 1;
    let body_end = body_start
        + readme[body_start..]
            .find("\n\n")
            .unwrap_or(readme.len() - body_start)
        + 1;
    format!("{}{}{}", &readme[..body_start], table, &readme[body_end..])
}

#[test]
fn readme_tables_match_the_registries() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    struct Tables(String, String);
    impl FamilyVisitor for Tables {
        fn visit<F: Family>(&mut self) {
            self.1.push_str(&family_row_markdown::<F>());
            let designs = format!("## Designs ({})\n", F::TITLE);
            self.0 = replace_section(&self.0, &designs, &designs_markdown::<F>());
            let workloads = format!("## Workloads ({})\n", F::TITLE);
            self.0 = replace_section(&self.0, &workloads, &workloads_markdown::<F>());
        }
    }
    let mut tables = Tables(readme.clone(), FAMILIES_TABLE_HEADER.to_string());
    for_each_family(&mut tables);
    let updated = replace_section(&tables.0, "## Families\n", &tables.1);
    if std::env::var_os("DODBENCH_BLESS").is_some() {
        std::fs::write(&path, &updated).unwrap();
        return;
    }
    assert!(
        readme == updated,
        "README.md's design/workload tables are out of date with the registries; run \
         DODBENCH_BLESS=1 cargo test -p bench-harness --test readme_tables"
    );
}
