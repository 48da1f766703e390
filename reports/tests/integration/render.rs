//! Snapshot-style tests of the report on a small fixed results file
//! (`tests/fixtures/small_results.json`): exact numbers, ratios, escaping, untimed designs,
//! chart files and series.

use std::path::Path;

use reports::palette::design_colour;
use results::Results;

use crate::support::{assert_only_schema_fields, attribute_values, read};

fn fixture() -> Results {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small_results.json");
    Results::load(&path).expect("fixture loads with the current schema")
}

fn rendered() -> (tempfile::TempDir, reports::RenderSummary) {
    let dir = tempfile::tempdir().unwrap();
    let summary = reports::render(&fixture(), dir.path(), &Default::default()).unwrap();
    (dir, summary)
}

/// The `<tr>` of `design` inside the block `id="<anchor>"` of a family page.
fn row<'a>(html: &'a str, anchor: &str, design: &str) -> &'a str {
    let block = &html[html.find(&format!("id=\"{anchor}\"")).expect(anchor)..];
    let block = &block[..block[1..]
        .find("class=\"size\"")
        .map_or(block.len(), |e| e + 1)];
    // The name ends its cell, or is followed by a note (a mirrored replay's overhead): the
    // first row of either form.
    let at = [
        format!("</span>{design}</td>"),
        format!("</span>{design} <small>"),
    ]
    .iter()
    .filter_map(|cell| block.find(cell.as_str()))
    .min()
    .expect(design);
    let start = block[..at].rfind("<tr").unwrap();
    let end = at + block[at..].find("</tr>").unwrap();
    &block[start..end]
}

/// The `<tr>` of `design` in the `table`-th (0-based) `details` table of block `anchor`.
fn detail_row<'a>(html: &'a str, anchor: &str, table: usize, design: &str) -> &'a str {
    let block = &html[html.find(&format!("id=\"{anchor}\"")).expect(anchor)..];
    let block = &block[..block[1..]
        .find("class=\"size\"")
        .map_or(block.len(), |e| e + 1)];
    let mut tables = block.match_indices("class=\"numbers details\"");
    let start = tables.nth(table).expect("details table").0;
    let t = &block[start..start + block[start..].find("</table>").unwrap()];
    let at = t.find(&format!("</span>{design}</td>")).expect(design);
    &t[t[..at].rfind("<tr").unwrap()..at + t[at..].find("</tr>").unwrap()]
}

fn assert_cells(row: &str, cells: &[&str]) {
    for cell in cells {
        assert!(
            row.contains(&format!(">{cell}</td>")),
            "{cell} missing in {row}"
        );
    }
}

#[test]
fn fixture_uses_only_fields_of_the_schema() {
    assert_only_schema_fields(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small_results.json"),
    );
}

#[test]
fn latency_memory_and_counter_numbers_appear_in_the_tables() {
    let (_dir, s) = rendered();
    let page = read(&s.family_pages[0]);
    // churn: percentiles, both bytes per object, peak, allocator calls per unit.
    assert_cells(
        detail_row(&page, "churn-n1000", 0, "holey"),
        &[
            "9.000", "40.00", "120.0", "2500", "40.0", "41.0", "8 KiB", "0.00600",
        ],
    );
    assert_cells(
        detail_row(&page, "churn-n1000", 0, "packed"),
        &[
            "11.00", "55.50", "300.0", "9000", "49.1", "16 KiB", "0.0200",
        ],
    );
    assert!(
        page.contains(
            "batches of 8 ops (62 batches per design); the clock overhead of 21.5–22.0 ns"
        ),
        "the latency method is stated from the data"
    );
    assert!(page.contains(
        "Hardware counters: none for this trace (hardware counters unavailable: perf_event_open"
    ));
    // lookup N = 1000: simulated counts with Ir, and holey's hardware counters.
    assert_cells(
        detail_row(&page, "lookup-n1000", 0, "holey"),
        &[
            "50.0", "10.0", "1.00", "0.250", "0.0100", "16.0", "45.0", "12.5", "0.300", "0.0200",
            "0.00100",
        ],
    );
    assert!(page.contains("<th class=\"num\">instructions (sim)</th>"));
    assert!(page.contains("<th class=\"num\">dTLB misses</th>"));
    // A design without hardware counters gets dashes, not blanks or zeros.
    let packed = detail_row(&page, "lookup-n1000", 0, "packed");
    assert!(
        packed.ends_with("<td class=\"num\">–</td>\n    "),
        "{packed}"
    );
    // lookup N = 65536 has none of these numbers: no details table there.
    let block = &page
        [page.find("id=\"lookup-n65536\"").unwrap()..page.find("id=\"id_table-churn\"").unwrap()];
    assert!(!block.contains("numbers details"));
}

#[test]
fn new_charts_draw_one_series_per_measured_design() {
    let (dir, s) = rendered();
    let chart = |name: &str| {
        assert!(
            s.charts.iter().any(|p| p.ends_with(name)),
            "{name} not written"
        );
        read(&dir.path().join("charts").join(name))
    };
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    let drawn = |svg: &str| {
        (0..5)
            .filter(|&i| svg.contains(&colour(i)))
            .collect::<Vec<_>>()
    };
    let percentiles = chart("id_table-churn-n1000-percentiles.svg");
    assert_eq!(drawn(&percentiles), [0, 1], "holey and packed");
    assert!(percentiles.contains("p99 40.0") && percentiles.contains("p99 55.5"));
    let over_time = chart("id_table-churn-n1000-memory-time.svg");
    assert_eq!(drawn(&over_time), [0, 1]);
    let calls = chart("id_table-churn-n1000-alloc-calls.svg");
    assert_eq!(drawn(&calls), [0, 1]);
    assert!(calls.contains("0.00600") && calls.contains("0.0200"));
    // Only where the data exists.
    assert!(
        !s.charts
            .iter()
            .any(|p| p.ends_with("id_table-lookup-n1000-percentiles.svg"))
    );
    assert!(
        !s.charts
            .iter()
            .any(|p| p.ends_with("id_table-lookup-n1000-memory-time.svg"))
    );
}

#[test]
fn working_set_chart_uses_the_sweep_and_states_its_cap() {
    let (dir, s) = rendered();
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    let lookup = read(&dir.path().join("charts/id_table-lookup-working-set.svg"));
    // The sweep has holey and packed only; the benchmarks would have drawn four designs.
    let drawn: Vec<usize> = (0..5).filter(|&i| lookup.contains(&colour(i))).collect();
    assert_eq!(drawn, [0, 1]);
    assert!(lookup.contains("sweep, N up to 4096"));
    let page = read(&s.family_pages[0]);
    assert!(page.contains(
        "From dodbench sweep (quick mode): N = 1000 to 4096 on this workload; the sweep&#x27;s cap is N = 4096 (quick mode stops at 4096 objects). Not drawn: packed_fixed (unsupported at 1 size)."
    ));
    // A workload only the sweep measured still gets its section and chart.
    assert!(page.contains("<h2>iterate-full</h2>"));
    assert!(
        dir.path()
            .join("charts/id_table-iterate-full-working-set.svg")
            .is_file()
    );
    // Without a sweep for the workload, the benchmarks' memory_bytes are the x axis.
    let churn = read(&dir.path().join("charts/id_table-churn-working-set.svg"));
    assert!(!churn.contains("sweep"));
    assert!(page.contains("dodbench sweep was not run on this workload"));
}

#[test]
fn a_memory_bound_workload_is_set_against_the_machines_limits() {
    let mut results = fixture();
    let point = |bytes| results::MemoryLimit {
        bytes,
        read_bytes_per_ns: 20.0,
        independent_load_ns: 1.0,
        dependent_load_ns: 4.0,
    };
    results.sweeps.as_mut().unwrap().memory_limits = Some(results::MemoryLimits {
        method: "test".into(),
        points: vec![point(16 << 10), point(64 << 10), point(256 << 10)],
    });
    for w in results
        .workloads
        .iter_mut()
        .filter(|w| w.workload == "lookup")
    {
        w.memory_bound = Some(results::MemoryBound::IndependentLoads);
    }
    let dir = tempfile::tempdir().unwrap();
    let s = reports::render(&results, dir.path(), &Default::default()).unwrap();
    let page = read(&s.family_pages[0]);
    // The fastest design of the block, holey at 2.0 ns on 40,000 bytes, against 1.0 ns.
    assert!(
        page.contains(
            "Against this machine&#x27;s memory limits (measured by dodbench sweep): holey \
             takes 2.000 ns per work unit, 2.00× one independent random load at its working \
             set of 39.1 KiB (1.00 ns)."
        ),
        "{}",
        &page[page.find("memory limits").unwrap_or(0)..][..300.min(page.len())]
    );
    let throughput = read(
        &dir.path()
            .join("charts/id_table-lookup-n1000-throughput.svg"),
    );
    assert!(throughput.contains("limit: one independent load"));
    let sweep = read(&dir.path().join("charts/id_table-lookup-working-set.svg"));
    assert!(sweep.contains("limit: one dependent load"));
    assert!(!sweep.contains("limit: reading"), "gets do not stream");
    // A workload without a declared bound gets no sentence.
    let churn = &page[page.find("<h2>churn</h2>").unwrap()..];
    let churn = &churn[..churn[4..].find("<h2>").map_or(churn.len(), |e| e + 4)];
    assert!(!churn.contains("memory limits"));
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

/// A peer's row in the designs table says how its crate is used, with the documentation page,
/// what the replay costs over the crate called directly beside the driver's own share (our
/// designs' loops) and what its adapter adds; its row in the cell that has the direct loop
/// gives that loop's ratio, and the loop's row names the peer.
#[test]
fn peers_show_their_idiom_and_their_cost_over_the_crate_called_directly() {
    let (_dir, s) = rendered();
    let page = read(&s.family_pages[0]);
    let designs = &page[page.find("id=\"designs\"").unwrap()..];
    let designs = &designs[..designs.find("</table>").unwrap()];
    let slotmap = &designs[designs.find("</span>slotmap</td>").unwrap()..];
    let slotmap = &slotmap[..slotmap.find("</tr>").unwrap()];
    assert!(
        slotmap.contains("Used as its documentation shows: SlotMap::get by &lt;DefaultKey&gt;"),
        "{slotmap}"
    );
    assert!(
        slotmap.contains(
            "href=\"https:&#x2f;&#x2f;docs.rs&#x2f;slotmap&#x2f;1.1.1&#x2f;slotmap&#x2f;struct.SlotMap.html\""
        ),
        "{slotmap}"
    );
    assert!(
        slotmap
            .contains("Replay ÷ the crate called directly: 1.04× in 1 cell (ref-direct-slotmap)"),
        "{slotmap}"
    );
    // The driver's own share, from the loops of our designs, and what the adapter adds.
    assert!(
        slotmap.contains(
            "our own designs' replay ÷ their loop, what every design of the family pays (the driver, the trait's checks): 0.98× in 1 cell (ref-direct-holey)"
        ),
        "{slotmap}"
    );
    assert!(
        slotmap
            .contains("The adapter adds: nothing beyond the idiom: IdTable::get is SlotMap::get"),
        "{slotmap}"
    );
    let holey = &designs[designs.find("</span>holey</td>").unwrap()..];
    let holey = &holey[..holey.find("</tr>").unwrap()];
    assert!(
        !holey.contains("Used as") && !holey.contains("adapter adds"),
        "{holey}"
    );
    assert!(
        holey.contains("Replay ÷ its hand-written loop: 0.98× in 1 cell (ref-direct-holey)")
            && !holey.contains("driver alone"),
        "{holey}"
    );
    let peer_row = row(&page, "lookup-n1000", "slotmap");
    assert!(
        peer_row.contains("replay = 1.04× ref-direct-slotmap"),
        "{peer_row}"
    );
    let loop_row = row(&page, "lookup-n1000", "ref-direct-slotmap");
    assert!(
        loop_row.contains("slotmap&#x27;s replay = 1.04× this loop"),
        "{loop_row}"
    );
    assert!(!row(&page, "lookup-n65536", "slotmap").contains("replay ="));
}

#[test]
fn failed_and_unsupported_designs_are_marked_with_their_reason() {
    let (_dir, s) = rendered();
    let page = read(&s.family_pages[0]);
    let failed = row(&page, "lookup-n65536", "slotmap");
    assert!(failed.contains("untimed"), "{failed}");
    assert!(failed.contains("failed: digest differs from the model: hits 3 != 4"));
    // The command as shown (the template escapes `/` as `&#x2f;`).
    assert!(
        failed.replace("&#x2f;", "/").contains(
            "<br>shrink it: <code>target/release/dodbench shrink --workload lookup --n 65536 \
             --seed 1 --design slotmap --out target/dodbench/shrink/slotmap-lookup-65536</code>"
        ),
        "{failed}"
    );
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
