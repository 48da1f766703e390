//! The generated tables of `docs/families.md` (what each family runs, and its designs) and of
//! `docs/workloads.md` (each family's workloads) come from the registries; this test keeps them
//! true. To refresh: `DODBENCH_BLESS=1 cargo test -p bench-harness --test integration readme_tables`,
//! which also adds the two sections of a new family (`## Designs (<Title>)` after the last
//! family's designs in `docs/families.md`, `## Workloads (<Title>)` after the last family's
//! workloads in `docs/workloads.md`).

use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::Family;
use bench_harness::suite::{
    FAMILIES_TABLE_HEADER, designs_markdown, family_row_markdown, workloads_markdown,
};

/// The page that holds the families table and every family's designs table.
const DESIGNS_PAGE: &str = "docs/families.md";

/// The page that holds every family's workloads table.
const WORKLOADS_PAGE: &str = "docs/workloads.md";

/// The heading of the families table on [`DESIGNS_PAGE`].
const FAMILIES_HEADING: &str = "## What each family runs\n";

/// `readme` (a page) with a new section `heading` + `table` before the first heading after the
/// last heading that starts with `kind` (`## Designs (`): a new family's section, in list order.
fn add_section(readme: &str, kind: &str, heading: &str, table: &str) -> String {
    let last = readme
        .rfind(kind)
        .unwrap_or_else(|| panic!("the page has no {kind:?} section"));
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
            "the page lacks the heading {heading:?}: run DODBENCH_BLESS=1 cargo test -p \
             bench-harness --test integration readme_tables"
        );
        return add_section(readme, kind, heading, table);
    };
    let start = found + heading.len();
    let body_start = start
        + readme[start..]
            .find("\n|")
            .expect("a table after the heading")
        + 1;
    // The table ends at the first blank line, or with the page.
    let body_end = readme[body_start..]
        .find("\n\n")
        .map_or(readme.len(), |i| body_start + i + 1);
    format!("{}{}{}", &readme[..body_start], table, &readme[body_end..])
}

/// A page of the repository, by its path from the root.
fn page_path(page: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(page)
}

#[test]
fn readme_tables_match_the_registries() {
    let read = |page: &str| {
        std::fs::read_to_string(page_path(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
    };
    let designs_page = read(DESIGNS_PAGE);
    let workloads_page = read(WORKLOADS_PAGE);
    // The designs page, the workloads page and the families table, as they are being updated.
    struct Tables {
        designs: String,
        workloads: String,
        families: String,
    }
    impl FamilyVisitor for Tables {
        fn visit<F: Family>(&mut self) {
            self.families.push_str(&family_row_markdown::<F>());
            let designs = format!("## Designs ({})\n", F::TITLE);
            self.designs = replace_section(&self.designs, &designs, &designs_markdown::<F>());
            let workloads = format!("## Workloads ({})\n", F::TITLE);
            self.workloads =
                replace_section(&self.workloads, &workloads, &workloads_markdown::<F>());
        }
    }
    let mut tables = Tables {
        designs: designs_page.clone(),
        workloads: workloads_page.clone(),
        families: FAMILIES_TABLE_HEADER.to_string(),
    };
    for_each_family(&mut tables);
    let updated_designs = replace_section(&tables.designs, FAMILIES_HEADING, &tables.families);
    let pages = [
        (DESIGNS_PAGE, designs_page, updated_designs),
        (WORKLOADS_PAGE, workloads_page, tables.workloads),
    ];
    if std::env::var_os("DODBENCH_BLESS").is_some() {
        for (page, _, updated) in &pages {
            std::fs::write(page_path(page), updated).unwrap();
        }
        return;
    }
    for (page, current, updated) in &pages {
        assert!(
            current == updated,
            "{page}'s generated tables are out of date with the registries; run \
             DODBENCH_BLESS=1 cargo test -p bench-harness --test integration readme_tables"
        );
    }
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
