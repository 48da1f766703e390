//! Snapshot-style tests of the report on a small fixed results file
//! (`tests/fixtures/small_results.json`): exact numbers, ratios, escaping, untimed designs,
//! chart files and series.

use std::path::{Path, PathBuf};

use bench_harness::results::Results;
use reports::palette::design_colour;

fn fixture() -> Results {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small_results.json");
    Results::load(&path).expect("fixture loads with the current schema")
}

fn rendered() -> (tempfile::TempDir, reports::RenderSummary) {
    let dir = tempfile::tempdir().unwrap();
    let summary = reports::render(&fixture(), dir.path(), &Default::default()).unwrap();
    (dir, summary)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// The `<tr>` of `design` inside the block `id="<anchor>"` of a family page.
fn row<'a>(html: &'a str, anchor: &str, design: &str) -> &'a str {
    let block = &html[html.find(&format!("id=\"{anchor}\"")).expect(anchor)..];
    let block = &block[..block[1..]
        .find("class=\"size\"")
        .map_or(block.len(), |e| e + 1)];
    let at = block.find(&format!("</span>{design}</td>")).expect(design);
    let start = block[..at].rfind("<tr").unwrap();
    let end = at + block[at..].find("</tr>").unwrap();
    &block[start..end]
}

#[test]
fn tables_show_exact_numbers_intervals_and_ratios_to_the_best() {
    let (_dir, s) = rendered();
    assert_eq!(s.family_pages.len(), 1);
    let page = read(&s.family_pages[0]);
    let holey = row(&page, "lookup-n1000", "holey");
    for cell in ["2.000", "[1.900, 2.100]", "500.0 M", "1.00×", "40.0"] {
        assert!(holey.contains(cell), "{cell} missing in {holey}");
    }
    assert!(row(&page, "lookup-n1000", "slotmap").contains("1.25×"));
    assert!(row(&page, "lookup-n1000", "packed").contains("1.50×"));
    let reference = row(&page, "lookup-n1000", "ref-vec");
    assert!(
        reference.contains("reference") && reference.contains("0.50×"),
        "{reference}"
    );
    // At N = 65536 packed is best and holey 1.25× slower.
    assert!(row(&page, "lookup-n65536", "packed").contains("1.00×"));
    assert!(row(&page, "lookup-n65536", "holey").contains("1.25×"));
    assert!(page.contains("Fastest: <strong>holey</strong> at 2.000 ns per work unit"));
    assert!(page.contains("runner-up <strong>slotmap</strong> is 1.25× slower"));
}

#[test]
fn failed_and_unsupported_designs_are_marked_with_their_reason() {
    let (_dir, s) = rendered();
    let page = read(&s.family_pages[0]);
    let failed = row(&page, "lookup-n65536", "slotmap");
    assert!(failed.contains("untimed"), "{failed}");
    assert!(failed.contains("failed: digest differs from the model: hits 3 != 4"));
    assert!(!failed.contains('×'), "no ratio for an untimed design");
    let unsupported = row(&page, "lookup-n1000", "packed_fixed");
    assert!(unsupported.contains("unsupported: fixed capacity 16 is below"));
    let chart = read(
        &s.index
            .parent()
            .unwrap()
            .join("charts/id_table-lookup-n65536-throughput.svg"),
    );
    assert!(
        chart.contains("failed: digest differs"),
        "the chart names the failure"
    );
    assert!(page.contains("2 designs not timed"));
}

#[test]
fn names_from_data_files_are_escaped_everywhere() {
    let (dir, s) = rendered();
    for page in std::iter::once(&s.index).chain(&s.family_pages) {
        let html = read(page);
        assert!(!html.contains("<script>alert"), "{}", page.display());
        assert!(!html.contains("<b>bold"));
        // Only our own script tag.
        assert_eq!(html.matches("<script").count(), 1, "{}", page.display());
    }
    let page = read(&s.family_pages[0]);
    assert!(page.contains("evil&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"));
    for chart in &s.charts {
        let svg = read(chart);
        assert!(!svg.contains("<script"), "{}", chart.display());
    }
    let throughput = read(
        &dir.path()
            .join("charts/id_table-lookup-n1000-throughput.svg"),
    );
    assert!(throughput.contains("evil&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn charts_exist_and_draw_one_series_per_measured_design() {
    let (dir, s) = rendered();
    let names: Vec<String> = s
        .charts
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in [
        "id_table-lookup-n1000-throughput.svg",
        "id_table-lookup-n1000-samples.svg",
        "id_table-lookup-n1000-memory.svg",
        "id_table-lookup-n1000-sim.svg",
        "id_table-lookup-scaling.svg",
        "id_table-lookup-working-set.svg",
        "id_table-churn-n1000-throughput.svg",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not in {names:?}"
        );
    }
    assert!(
        !names.iter().any(|n| n == "id_table-churn-scaling.svg"),
        "one N: no scaling chart"
    );
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    let throughput = read(
        &dir.path()
            .join("charts/id_table-lookup-n1000-throughput.svg"),
    );
    let drawn = (0..5).filter(|&i| throughput.contains(&colour(i))).count();
    assert_eq!(
        drawn, 4,
        "four timed designs; packed_fixed (index 4) has no bar"
    );
    assert!(
        throughput.contains("ref-vec 1.000 G"),
        "reference line labelled"
    );
    let scaling = read(&dir.path().join("charts/id_table-lookup-scaling.svg"));
    assert_eq!((0..5).filter(|&i| scaling.contains(&colour(i))).count(), 4);
    let sim = read(&dir.path().join("charts/id_table-lookup-n1000-sim.svg"));
    assert!(
        sim.contains("0.250") && sim.contains("0.500"),
        "D1 misses per op"
    );
    let ws = read(&dir.path().join("charts/id_table-lookup-working-set.svg"));
    assert!(ws.contains("L1d 48 KiB") && ws.contains("L2 2 MiB"));
    // Every <img> on every page points at a chart that exists.
    for page in std::iter::once(&s.index).chain(&s.family_pages) {
        for src in attribute_values(&read(page), "src=\"") {
            assert!(dir.path().join(&src).is_file(), "{}", src.display());
        }
    }
}

#[test]
fn index_has_summary_machine_and_reproduction() {
    let (_dir, s) = rendered();
    let index = read(&s.index);
    assert!(index.contains("<td><strong>holey</strong></td><td class=\"num\">2.000</td>"));
    assert!(index.contains("Test CPU @ 3.0GHz"));
    assert!(
        index.contains("48 KiB") && index.contains("unknown"),
        "L3 unknown"
    );
    assert!(index.contains("I1 32768,8,64, D1 32768,8,64, LL 8388608,16,64"));
    assert!(index.contains("0123456789abcdef0123456789abcdef01234567"));
    // The JSON is single-quoted for the shell (its own quote escaped) and HTML-escaped.
    assert!(
        index.contains("dodbench gen lookup --n 1000 --seed 7 --params &#x27;{&quot;note&quot;:&quot;it&#x27;\\&#x27;&#x27;s&quot;,&quot;ops&quot;:100}&#x27; -o lookup-1000.trace"),
        "{index}"
    );
    assert!(index.contains("dodbench replay lookup-1000.trace"));
}

#[test]
fn rerendering_replaces_old_charts() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("charts").join("old.svg");
    std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
    std::fs::write(&stale, "<svg/>").unwrap();
    reports::render(&fixture(), dir.path(), &Default::default()).unwrap();
    assert!(!stale.exists());
}

/// Values of `attr` (e.g. `src="`) in `html`, HTML entities for `/` decoded.
pub fn attribute_values(html: &str, attr: &str) -> Vec<PathBuf> {
    html.match_indices(attr)
        .map(|(i, _)| {
            let rest = &html[i + attr.len()..];
            PathBuf::from(rest[..rest.find('"').unwrap()].replace("&#x2f;", "/"))
        })
        .collect()
}
