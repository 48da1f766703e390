//! The README's design and workload tables are generated from the registries; this test keeps
//! them true. To refresh: `DODBENCH_BLESS=1 cargo test -p bench-harness --test readme_tables`,
//! which also adds the two sections of a new family (`## Designs (<Title>)` after the last
//! family's designs, `## Workloads (<Title>)` after the last family's workloads).

use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::Family;
use bench_harness::suite::{
    FAMILIES_TABLE_HEADER, designs_markdown, family_row_markdown, workloads_markdown,
};

/// `readme` with a new section `heading` + `table` before the first heading after the last
/// heading that starts with `kind` (`## Designs (`): a new family's section, in list order.
fn add_section(readme: &str, kind: &str, heading: &str, table: &str) -> String {
    let last = readme
        .rfind(kind)
        .unwrap_or_else(|| panic!("README has no {kind:?} section"));
    let next = readme[last + kind.len()..]
        .find("\n## ")
        .map_or(readme.len(), |i| last + kind.len() + i + 1);
    format!("{}{heading}\n{table}\n{}", &readme[..next], &readme[next..])
}

fn replace_section(readme: &str, heading: &str, table: &str) -> String {
    let Some(found) = readme.find(heading) else {
        let kind = &heading[..heading.find('(').map_or(heading.len(), |i| i + 1)];
        assert!(
            std::env::var_os("DODBENCH_BLESS").is_some(),
            "README lacks the heading {heading:?}: run DODBENCH_BLESS=1 cargo test -p \
             bench-harness --test readme_tables"
        );
        return add_section(readme, kind, heading, table);
    };
    let start = found + heading.len();
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

#[test]
fn a_new_familys_sections_go_after_the_last_of_their_kind() {
    let readme = "## Designs (A)\n\n| a |\n\n## Workloads (A)\n\n| w |\n\n## Adding\n";
    let with = add_section(readme, "## Designs (", "## Designs (B)\n", "| b |\n");
    let with = add_section(&with, "## Workloads (", "## Workloads (B)\n", "| v |\n");
    assert_eq!(
        with,
        "## Designs (A)\n\n| a |\n\n## Designs (B)\n\n| b |\n\n## Workloads (A)\n\n| w |\n\n\
         ## Workloads (B)\n\n| v |\n\n## Adding\n"
    );
    // The blessed section is then found and refreshed like any other.
    let again = replace_section(&with, "## Designs (B)\n", "| b2 |\n");
    assert!(
        again.contains("## Designs (B)\n\n| b2 |\n\n## Workloads (A)"),
        "{again}"
    );
}
