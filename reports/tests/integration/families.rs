//! The family-metrics section of the report on a fixed results file with a `tags` and an
//! `alloc` family beside `id_table` (`tests/fixtures/families_results.json`, whose family
//! records declare the two sections as the harness does): the generic section built from
//! those declarations, with the exact numbers of the tag-store and allocator tables, their
//! ranking in either direction, the trace's figures, their charts, rows without metrics (a
//! failed design, the `system` allocator timed only), an external fragmentation the design
//! cannot tell (`–`), a design name that is markup, and the index's links to every family
//! page. A copy with the passes' fields on tag stores and allocators
//! (`families_passes_results.json`: `sim`, `latency`, `memory`, sweep points, and no declared
//! sections) checks that the generic charts and columns appear on every family's page, not
//! only the ID tables', and that a file without declarations still shows every number.

use std::path::{Path, PathBuf};

use reports::palette::design_colour;
use results::Results;

use crate::support::{assert_only_schema_fields, attribute_values, read};

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/families_results.json")
}

fn passes_fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/families_passes_results.json")
}

fn rendered() -> (tempfile::TempDir, reports::RenderSummary) {
    render_fixture(&fixture_path())
}

fn render_fixture(path: &Path) -> (tempfile::TempDir, reports::RenderSummary) {
    let results = Results::load(path).expect("fixture loads with the current schema");
    let dir = tempfile::tempdir().unwrap();
    let summary = reports::render(&results, dir.path(), &Default::default()).unwrap();
    (dir, summary)
}

/// A page with `/` as written (the templates escape it as `&#x2f;`, harmless in a browser
/// and unreadable in an assertion); `<`, `>` and `&` stay escaped.
fn page(dir: &Path, name: &str) -> String {
    read(&dir.join(name)).replace("&#x2f;", "/")
}

/// The block `id="<anchor>"` of a family page, up to the next block.
fn block<'a>(html: &'a str, anchor: &str) -> &'a str {
    let block = &html[html.find(&format!("id=\"{anchor}\"")).expect(anchor)..];
    &block[..block[1..]
        .find("class=\"size\"")
        .map_or(block.len(), |e| e + 1)]
}

/// The `<table class="numbers <class>">` of block `anchor`.
fn table<'a>(html: &'a str, anchor: &str, class: &str) -> &'a str {
    let b = block(html, anchor);
    let start = b
        .find(&format!("<table class=\"numbers {class}\">"))
        .unwrap_or_else(|| panic!("no {class} table in {anchor}"));
    &b[start..start + b[start..].find("</table>").unwrap()]
}

/// The `<tr>` of `design` in `table`.
fn row<'a>(table: &'a str, design: &str) -> &'a str {
    let at = table
        .find(&format!("</span>{design}</td>"))
        .unwrap_or_else(|| panic!("{design} not in {table}"));
    let start = table[..at].rfind("<tr").unwrap();
    &table[start..at + table[at..].find("</tr>").unwrap()]
}

/// The row's cells after the design, in order.
fn cells(row: &str) -> Vec<&str> {
    row.split("<td")
        .skip(2)
        .map(|c| {
            let c = &c[c.find('>').unwrap() + 1..];
            &c[..c.find("</td>").unwrap()]
        })
        .collect()
}

/// Designs of `table` in row order.
fn designs(table: &str) -> Vec<&str> {
    table
        .match_indices("</span>")
        .map(|(i, _)| {
            let rest = &table[i + "</span>".len()..];
            &rest[..rest.find("</td>").unwrap()]
        })
        .collect()
}

const EVIL: &str = "evil&lt;script&gt;alert(2)&lt;/script&gt;";

#[test]
fn fixture_uses_only_fields_of_the_schema() {
    assert_only_schema_fields(&fixture_path());
    assert_only_schema_fields(&passes_fixture_path());
}

/// The legend of block `anchor`: the `<dl class="metrics">` of its family section, up to
/// its table.
fn legend<'a>(html: &'a str, anchor: &str, table: &str) -> &'a str {
    let b = block(html, anchor);
    &b[b.find("<dl class=\"metrics\">").expect("legend")..b.find(table).unwrap()]
}

#[test]
fn tag_store_table_has_exact_numbers_smallest_bytes_per_tag_first() {
    let (dir, _s) = rendered();
    let html = page(dir.path(), "tags.html");
    let t = table(&html, "tags-build-n1000", "tags");
    assert_eq!(
        designs(t),
        ["fixed", EVIL, "vec_of_vecs", "sorted_chunks8"],
        "by bytes per tag, then the design without metrics"
    );
    assert!(t.contains(
        "<caption>tags-build, N = 1000: tag-store memory and allocator traffic, smallest \
         B / tag first</caption>"
    ));
    assert!(t.contains(
        "<th>design</th><th class=\"num\">B / tag</th><th class=\"num\">after body</th>\
         <th class=\"num\">setup calls / tag</th><th class=\"num\">body calls / unit</th>\
         <th class=\"num\">ns / unit</th><th class=\"num\">× best</th>"
    ));
    // B / tag, after body, setup calls / tag, body calls / unit, ns / unit, × best.
    assert_eq!(
        cells(row(t, "fixed")),
        ["8.00", "32 KiB", "0.000500", "0", "20.00", "1.00×"]
    );
    assert_eq!(
        cells(row(t, EVIL)),
        ["12.5", "47.9 KiB", "–", "1.50", "45.00", "2.25×"]
    );
    assert_eq!(
        cells(row(t, "vec_of_vecs")),
        ["26.5", "108 KiB", "0.250", "0", "30.00", "1.50×"]
    );
    // A failed design says why across the metric cells and has no time.
    assert_eq!(
        cells(row(t, "sorted_chunks8")),
        [
            "failed: digest differs from the model: tags 3 != 4",
            "–",
            "–"
        ]
    );
    assert!(row(t, "sorted_chunks8").contains("colspan=\"4\" class=\"unmeasured\""));
    // One legend line per shown metric, and the trace's tag count above the table.
    let b = block(&html, "tags-build-n1000");
    assert!(b.contains("<h4>Tag-store memory and allocator traffic</h4>"));
    let notes = legend(&html, "tags-build-n1000", t);
    for term in [
        "tags after the setup",
        "B / tag",
        "after body",
        "setup calls / tag",
        "body calls / unit",
        "ns / unit, × best",
    ] {
        assert!(notes.contains(&format!("<dt>{term}</dt>")), "{term}");
    }
    assert!(notes.contains(
        "<dd>heap bytes the design holds after the setup (its own accounting) divided by the \
         tags it then holds.</dd>"
    ));
    assert!(notes.contains("<p class=\"note\">tags after the setup: 4000</p>"));
    // A workload whose benchmarks carry no tag metrics gets no family section.
    assert!(!block(&html, "tags-has-n1000").contains("family-metrics"));
    assert!(!html.contains("numbers alloc"));
}

#[test]
fn allocator_table_has_exact_numbers_unknowns_and_time_only_rows() {
    let (dir, _s) = rendered();
    let html = page(dir.path(), "alloc.html");
    let t = table(&html, "alloc-random-mix-n64", "alloc");
    assert_eq!(
        designs(t),
        ["rlsf", "buddy", "buddy_scan", "system"],
        "by utilization at peak, highest first, then the design without metrics"
    );
    assert!(t.contains(
        "<caption>alloc-random-mix, N = 64: allocator space use, highest use at peak \
         first</caption>"
    ));
    // use at peak, mean use, internal, external, largest free ÷ arena, metadata bits, live at
    // first failure, ns / unit, × best.
    assert_eq!(
        cells(row(t, "rlsf")),
        [
            "0.969", "0.900", "0.0300", "0", "0.0200", "96.0", "–", "18.00", "1.20×"
        ]
    );
    assert_eq!(
        cells(row(t, "buddy")),
        [
            "0.750", "0.625", "0.250", "0.125", "0.375", "2.00", "0.500", "25.00", "1.67×"
        ]
    );
    // buddy_scan cannot tell its largest free block: its external fragmentation and largest
    // free block are not measured.
    assert_eq!(
        cells(row(t, "buddy_scan")),
        [
            "0.700", "0.600", "0.300", "–", "–", "1.00", "0.400", "30.00", "2.00×"
        ]
    );
    assert_eq!(cells(row(t, "system")), ["time only", "15.00", "1.00×"]);
    let notes = legend(&html, "alloc-random-mix-n64", t);
    for term in [
        "arena",
        "use at peak",
        "mean use",
        "internal frag.",
        "external frag.",
        "largest free ÷ arena",
        "metadata bits / block",
        "live at first failure",
        "ns / unit, × best",
    ] {
        assert!(notes.contains(&format!("<dt>{term}</dt>")), "{term}");
    }
    assert!(notes.contains("empty where the design cannot tell its largest free block."));
    // The arena is the trace's: one line, not a column.
    assert!(notes.contains("<p class=\"note\">arena: 1 MiB</p>"));
    assert!(!t.contains(">arena<"));
    // The generic timing table still ranks every timed row, the system allocator included.
    let b = block(&html, "alloc-random-mix-n64");
    assert!(b.contains("Fastest: <strong>system</strong> at 15.00 ns per work unit"));
    assert!(!html.contains("numbers tags"));
}

#[test]
fn family_charts_are_linked_written_and_draw_the_measured_designs() {
    let (dir, s) = rendered();
    let charts = dir.path().join("charts");
    let tags_html = page(dir.path(), "tags.html");
    let alloc_html = page(dir.path(), "alloc.html");
    let bytes = "tags-tags-build-n1000-bytes_per_tag.svg";
    let utilization = "alloc-alloc-random-mix-n64-arena_use.svg";
    assert!(block(&tags_html, "tags-build-n1000").contains(&format!("src=\"charts/{bytes}\"")));
    assert!(
        block(&alloc_html, "alloc-random-mix-n64")
            .contains(&format!("src=\"charts/{utilization}\""))
    );
    for name in [bytes, utilization] {
        assert!(s.charts.iter().any(|p| p.ends_with(name)), "{name}");
    }
    assert!(
        !s.charts
            .iter()
            .any(|p| p.to_string_lossy().contains("tags-has-n1000-bytes")),
        "no tag metrics, no chart"
    );
    // Bars and grouped charts are the only ones declared: one chart per block.
    let family_charts = |anchor: &str| {
        s.charts
            .iter()
            .filter(|p| p.to_string_lossy().contains(anchor))
            .count()
    };
    assert_eq!(family_charts("tags-build-n1000-bytes_per_tag"), 1);
    assert_eq!(family_charts("alloc-random-mix-n64-arena_use"), 1);
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    // Palette indices are positions in results.designs: tags 1..=4, alloc 5..=8.
    let svg = read(&charts.join(bytes));
    for label in ["8.00", "12.5", "26.5"] {
        assert!(svg.contains(&format!("\n{label}\n")), "{label}");
    }
    assert!(svg.contains("\nB / tag (lower is better)\n"));
    assert!(svg.contains("evil&lt;script&gt;alert(2)&lt;/script&gt;"));
    let drawn: Vec<usize> = (1..=4).filter(|&i| svg.contains(&colour(i))).collect();
    assert_eq!(drawn, [1, 2, 3], "sorted_chunks8 failed: no bar");
    let svg = read(&charts.join(utilization));
    for label in ["0.969", "0.750", "0.700", "0.625", "0.500", "0.400"] {
        assert!(svg.contains(&format!("\n{label}\n")), "{label}");
    }
    for caption in ["use at peak", "mean use", "live at first failure"] {
        assert!(
            svg.contains(&format!("alloc-random-mix, N = 64: {caption}")),
            "{caption}"
        );
        assert!(
            svg.contains(&format!("\n{caption} (higher is better)\n")),
            "{caption}"
        );
    }
    assert!(svg.contains("\nnot measured\n"), "rlsf's live fraction");
    let drawn: Vec<usize> = (5..=8).filter(|&i| svg.contains(&colour(i))).collect();
    assert_eq!(drawn, [5, 6, 7], "system has no allocator metrics: no bar");
    // Every <img> on every page points at a chart that exists.
    for p in std::iter::once(&s.index).chain(&s.family_pages) {
        for src in attribute_values(&read(p), "src=\"") {
            assert!(dir.path().join(&src).is_file(), "{}", src.display());
        }
    }
}

#[test]
fn a_results_file_without_declared_sections_shows_every_number_by_name() {
    let (dir, s) = render_fixture(&passes_fixture_path());
    let html = page(dir.path(), "tags.html");
    let t = table(&html, "tags-build-n1000", "tags");
    assert!(t.contains(
        "<caption>tags-build, N = 1000: family metrics, in the order of the table above \
         (this results file does not declare them)</caption>"
    ));
    assert!(t.contains(
        "<th>design</th><th class=\"num\">alloc_calls_per_op</th>\
         <th class=\"num\">bytes_per_tag</th><th class=\"num\">memory_bytes_after_body</th>\
         <th class=\"num\">setup_alloc_calls_per_tag</th><th class=\"num\">tags_after_setup</th>\
         <th class=\"num\">ns / unit</th>"
    ));
    // The main table's order: fastest first, then the failed design.
    assert_eq!(designs(t), ["fixed", "vec_of_vecs", EVIL, "sorted_chunks8"]);
    assert_eq!(
        cells(row(t, "fixed")),
        ["0", "8.00", "32768", "0.000500", "4000", "20.00", "1.00×"]
    );
    assert_eq!(
        cells(row(t, EVIL)),
        ["1.50", "12.5", "49000", "–", "4000", "45.00", "2.25×"]
    );
    let b = block(&html, "tags-build-n1000");
    assert!(b.contains("<h4>Family metrics</h4>"));
    let notes = legend(&html, "tags-build-n1000", t);
    assert_eq!(
        notes.matches("<dt>").count(),
        1,
        "only the time columns: {notes}"
    );
    // No chart without a declaration.
    assert!(!s.charts.iter().any(|p| {
        let p = p.to_string_lossy();
        p.contains("bytes_per_tag") || p.contains("arena_use")
    }));
    let alloc = page(dir.path(), "alloc.html");
    let t = table(&alloc, "alloc-random-mix-n64", "alloc");
    // Designs with metrics in the order of the table above, then the others.
    assert_eq!(designs(t), ["rlsf", "buddy", "buddy_scan", "system"]);
    assert_eq!(cells(row(t, "system")), ["time only", "15.00", "1.00×"]);
    assert!(
        row(t, "system").contains("colspan=\"8\""),
        "one column per stored name"
    );
}

#[test]
fn index_links_every_family_page() {
    let (dir, s) = rendered();
    let names: Vec<String> = s
        .family_pages
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["id_table.html", "tags.html", "alloc.html"]);
    let index = read(&s.index);
    for (family, workload, link, winner) in [
        ("id_table", "lookup", "id_table.html#lookup-n1000", "holey"),
        ("tags", "tags-build", "tags.html#tags-build-n1000", "fixed"),
        ("tags", "tags-has", "tags.html#tags-has-n1000", "fixed"),
        (
            "alloc",
            "alloc-random-mix",
            "alloc.html#alloc-random-mix-n64",
            "system",
        ),
    ] {
        let at = index
            .find(&format!("<a href=\"{link}\">details</a>"))
            .unwrap_or_else(|| panic!("{link}"));
        let tr = &index[index[..at].rfind("<tr").unwrap()..at];
        assert!(
            tr.contains(&format!("<td>{family}</td><td>{workload}</td>")),
            "{tr}"
        );
        assert!(tr.contains(&format!("<strong>{winner}</strong>")), "{tr}");
        let anchor = &link[link.find('#').unwrap() + 1..];
        let target = page(dir.path(), &link[..link.find('#').unwrap()]);
        assert!(target.contains(&format!("id=\"{anchor}\"")), "{link}");
    }
    for family in ["tags", "alloc"] {
        assert!(index.contains(&format!("<li><a href=\"{family}.html\">{family}</a>")));
        assert!(index.contains(&format!("<a href=\"{family}.html\">{family}</a>")));
    }
}

#[test]
fn markup_in_a_design_name_is_escaped_everywhere() {
    let (_dir, s) = rendered();
    for p in std::iter::once(&s.index).chain(&s.family_pages) {
        let html = read(p);
        assert!(!html.contains("<script>alert"), "{}", p.display());
        assert_eq!(html.matches("<script").count(), 1, "{}", p.display());
    }
    let tags = read(&s.family_pages[1]).replace("&#x2f;", "/");
    assert!(tags.contains(EVIL));
    for chart in &s.charts {
        assert!(!read(chart).contains("<script"), "{}", chart.display());
    }
}

#[test]
fn designs_tables_show_limits_for_families_that_state_them() {
    let (dir, _) = rendered();
    let tags_html = page(dir.path(), "tags.html");
    let designs = &tags_html[tags_html.find("id=\"designs\"").expect("designs section")..];
    let designs = &designs[..designs.find("</table>").expect("designs table")];
    assert!(designs.contains("<th>limits</th>"), "{designs}");
    assert!(!designs.contains("ID bytes"), "{designs}");
    assert!(designs.contains("at most 8 tags per entity"), "{designs}");
    let id_html = page(dir.path(), "id_table.html");
    let designs = &id_html[id_html.find("id=\"designs\"").expect("designs section")..];
    let designs = &designs[..designs.find("</table>").expect("designs table")];
    assert!(designs.contains("ID bytes") && !designs.contains("<th>limits</th>"));
}

#[test]
fn passes_charts_and_columns_appear_on_every_family_page() {
    let (dir, s) = render_fixture(&passes_fixture_path());
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    // (page, block, workload, designs with sim and latency by palette index).
    for (page_name, anchor, workload, measured) in [
        ("tags.html", "tags-build-n1000", "tags-build", [1, 2]),
        (
            "alloc.html",
            "alloc-random-mix-n64",
            "alloc-random-mix",
            [5, 7],
        ),
    ] {
        let family = &page_name[..page_name.find('.').unwrap()];
        let html = page(dir.path(), page_name);
        let b = block(&html, anchor);
        let sim = format!("{family}-{anchor}-sim.svg");
        let percentiles = format!("{family}-{anchor}-percentiles.svg");
        let working_set = format!("{family}-{workload}-working-set.svg");
        for (name, linked_in) in [(&sim, b), (&percentiles, b), (&working_set, html.as_str())] {
            assert!(
                linked_in.contains(&format!("src=\"charts/{name}\"")),
                "{page_name}: {name} not linked"
            );
            assert!(
                s.charts.iter().any(|p| p.ends_with(name)),
                "{name} not written"
            );
            assert!(dir.path().join("charts").join(name).is_file(), "{name}");
        }
        // One bar or line per design that carries the field, in the design's colour.
        for name in [&sim, &percentiles, &working_set] {
            let svg = read(&dir.path().join("charts").join(name));
            for i in measured {
                assert!(svg.contains(&colour(i)), "{name}: design {i} not drawn");
            }
        }
        // The working-set chart comes from the sweep, not from the benchmarks' memory_bytes.
        assert!(
            html.contains(&format!(
                "{workload}: ns per work unit vs working set (sweep, N up to 4096)"
            )),
            "{page_name}"
        );
        assert!(html.contains("From dodbench sweep (quick mode): N = 256 to 4096"));
        // The details tables carry the latency and simulated-counter columns.
        assert!(b.contains("<th class=\"num\">p50 ns</th>"), "{page_name}");
        assert!(
            b.contains("<th class=\"num\">instructions (sim)</th>"),
            "{page_name}"
        );
        assert!(b.contains("Timed by dodbench latency in batches of 8 ops"));
    }
    let alloc_html = page(dir.path(), "alloc.html");
    assert!(alloc_html.contains("Not drawn: system (unsupported at 1 size)."));
    // rlsf's memory metrics give the memory column group on the allocator page.
    let b = block(&alloc_html, "alloc-random-mix-n64");
    assert!(b.contains("<th class=\"num\">peak in body</th>"));
    // The family sections (undeclared in this file) are still there beside the generic ones.
    assert!(block(&page(dir.path(), "tags.html"), "tags-build-n1000").contains("numbers tags"));
    assert!(b.contains("numbers alloc"));
    // The ID-table page, without these fields, gets none of these charts.
    let id_html = page(dir.path(), "id_table.html");
    assert!(!id_html.contains("-sim.svg") && !id_html.contains("-percentiles.svg"));
}

#[test]
fn summary_names_the_best_design_of_each_kind_with_its_ratio_to_the_winner() {
    let (_dir, s) = rendered();
    let index = read(&s.index);
    // Expected from the fixture's medians: the fastest verified design of each kind, over the
    // winner's median, kinds in the order article, tuned, peer (a failed design never counts).
    for (link, kinds) in [
        (
            "alloc.html#alloc-random-mix-n64",
            "<span class=\"kind-best\">article: buddy 1.67×</span> · \
             <span class=\"kind-best\">tuned: buddy_scan 2.00×</span> · \
             <span class=\"kind-best\">peer: system 1.00×</span>",
        ),
        (
            "tags.html#tags-build-n1000",
            "<span class=\"kind-best\">article: fixed 1.00×</span> · \
             <span class=\"kind-best\">tuned: evil&lt;script&gt;alert(2)&lt;&#x2f;script&gt; 2.25×</span>",
        ),
        (
            "tags.html#tags-has-n1000",
            "<td class=\"kinds\"><span class=\"kind-best\">article: fixed 1.00×</span></td>",
        ),
    ] {
        let at = index
            .find(&format!("<a href=\"{link}\">details</a>"))
            .unwrap_or_else(|| panic!("{link}"));
        let tr = &index[index[..at].rfind("<tr").unwrap()..at];
        assert!(tr.contains(kinds), "{link}: {tr}");
    }
}
