//! The README's design and workload tables are generated from the registries; this test keeps
//! them true. To refresh: `DODBENCH_BLESS=1 cargo test -p bench-harness --test readme_tables`.

use bench_harness::suite::{
    alloc_designs_markdown, designs_markdown, tag_designs_markdown, workloads_markdown,
};

fn replace_section(readme: &str, heading: &str, table: &str) -> String {
    let start = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README lacks {heading}"))
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
    let updated = replace_section(
        &readme,
        "## Designs (ID lookup tables)\n",
        &designs_markdown(),
    );
    let updated = replace_section(
        &updated,
        "## Workloads\n",
        &workloads_markdown(workloads::family::ID_TABLE),
    );
    let updated = replace_section(
        &updated,
        "## Designs (tag stores)\n",
        &tag_designs_markdown(),
    );
    let updated = replace_section(
        &updated,
        "## Designs (block allocators)\n",
        &alloc_designs_markdown(),
    );
    let updated = replace_section(
        &updated,
        "## Workloads (tag stores)\n",
        &workloads_markdown(workloads::family::TAGS),
    );
    let updated = replace_section(
        &updated,
        "## Workloads (block allocators)\n",
        &workloads_markdown(workloads::family::ALLOC),
    );
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
