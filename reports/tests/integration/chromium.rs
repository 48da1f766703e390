//! End to end: renders the fixture report, opens it in headless Chromium, and checks that the
//! screenshot is not blank, that the page logs no console errors, that it fetches nothing from
//! the network, that the optional script ran, and that every chart it embeds exists; then the
//! same for a report of two machines (`small_results.json` beside `small_results_laptop.json`),
//! where every time table of a family page must name both machines. The index's overview heat
//! maps must be drawn (coloured cells in the screenshot) with every cell's number in the DOM;
//! the claims page must show every claim's computed verdict, and the index its tally.
//!
//! Listed as ignored, with the reason, when no Chromium is installed (`reports/build.rs`),
//! unless `CI=true`, where a missing Chromium fails the test. `DODBENCH_CHROMIUM` names the
//! binary explicitly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use results::Results;

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DODBENCH_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|p| p.is_file())
}

/// Runs Chromium headless on `page` with a fresh profile and `extra` flags, killing it after
/// 90 s.
fn chromium(bin: &Path, page: &Path, extra: &[String]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,1600",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(90) {
            child.kill().ok();
            panic!("chromium did not finish within 90 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The pixels of the PNG at `png_path` and their channel count (3 or 4).
fn decode_png(png_path: &Path) -> (Vec<u8>, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert!(channels >= 3, "expected RGB(A), got {:?}", info.color_type);
    buf.truncate(info.buffer_size());
    (buf, channels)
}

/// Fraction of pixels that are not near-white, and the luminance variance.
fn ink_and_variance(png_path: &Path) -> (f64, f64) {
    let (pixels, channels) = decode_png(png_path);
    let lum: Vec<f64> = pixels
        .chunks(channels)
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .collect();
    let mean = lum.iter().sum::<f64>() / lum.len() as f64;
    let var = lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64;
    let ink = lum.iter().filter(|&&l| l < 200.0).count() as f64 / lum.len() as f64;
    (ink, var)
}

/// Fraction of pixels drawn in a saturated green-to-red hue, as the heat maps' cells are.
fn heat_fraction(png_path: &Path) -> f64 {
    let (buf, channels) = decode_png(png_path);
    let pixels: Vec<&[u8]> = buf.chunks(channels).collect();
    let heat = pixels
        .iter()
        .filter(|p| {
            let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
            // Light green to light red: blue well below the strongest of red and green.
            r.max(g) - b > 60
        })
        .count();
    heat as f64 / pixels.len() as f64
}

/// Every `src="..."` / `href="..."` value in `html` (entities for `/` decoded).
fn references(html: &str) -> Vec<String> {
    ["src=\"", "href=\""]
        .iter()
        .flat_map(|attr| {
            html.match_indices(attr).map(move |(i, _)| {
                let rest = &html[i + attr.len()..];
                rest[..rest.find('"').unwrap()].replace("&#x2f;", "/")
            })
        })
        .collect()
}

/// The tables of `html` that show time-derived numbers: a header names ns per unit, a latency
/// percentile or cycles.
fn time_tables(html: &str) -> Vec<&str> {
    html.split("<table")
        .skip(1)
        .map(|t| &t[..t.find("</table>").unwrap()])
        .filter(|t| {
            ["ns / unit", "p50 ns", "cycles"]
                .iter()
                .any(|h| t.contains(h))
        })
        .collect()
}

#[test]
#[cfg_attr(
    dodbench_no_chromium,
    ignore = "no chromium found when this test was built (apt-get install chromium)"
)]
fn report_opens_in_headless_chromium() {
    let Some(bin) = find_chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but no chromium found on PATH (install it, or set DODBENCH_CHROMIUM)");
        }
        eprintln!(
            "skipped: no chromium on PATH (apt-get install chromium); CI=true makes this fail"
        );
        return;
    };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut results = Results::load(&fixtures.join("small_results.json")).unwrap();
    declare_claims(&mut results);
    let out = tempfile::tempdir().unwrap();
    let summary = reports::render(&results, out.path(), &Default::default()).unwrap();
    let doms = check_pages(&bin, out.path(), &summary);
    check_heatmaps(&bin, &summary.index, &doms[0], &results);
    check_claims(doms.last().unwrap(), &doms[0], &results);

    // Two machines side by side: the same pages, and both machines in every time table.
    let laptop = Results::load(&fixtures.join("small_results_laptop.json")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let runs = [results, laptop];
    let summary = reports::render_machines(&runs, out.path(), &Default::default()).unwrap();
    let doms = check_pages(&bin, out.path(), &summary);
    let index = &doms[0];
    for name in ["ci-runner", "laptop", "Other CPU @ 1.5GHz"] {
        assert!(index.contains(name), "the index lists {name}");
    }
    // The family pages: between the index and the claims page.
    for dom in &doms[1..doms.len() - 1] {
        let tables = time_tables(dom);
        assert!(!tables.is_empty(), "a family page has time tables");
        for table in tables {
            for name in ["ci-runner", "laptop"] {
                assert!(
                    table.contains(&format!("<td>{name}</td>")),
                    "a time table lacks machine {name}: {table}"
                );
            }
        }
    }
}

/// The overview heat maps of the index at `index` (its DOM after the script ran: `dom`): the
/// screenshot shows coloured cells, and every cell of every map (rebuilt from the view model)
/// is in the DOM with its number or status.
fn check_heatmaps(bin: &Path, index: &Path, dom: &str, results: &Results) {
    let (view, _) = reports::view::build(std::slice::from_ref(results), "t", None, None).unwrap();
    let maps: Vec<&reports::view::HeatmapView> =
        view.heatmaps.iter().flat_map(|f| &f.maps).collect();
    assert!(!maps.is_empty(), "the fixture has heat maps");
    assert_eq!(
        dom.matches("<table class=\"heatmap\">").count(),
        maps.len(),
        "one table per heat map"
    );
    let mut cells = 0;
    for m in &maps {
        for row in &m.rows {
            for cell in &row.cells {
                assert!(
                    dom.contains(&format!(">{}</td>", cell.text)),
                    "cell {} of {} ({}) missing from the DOM",
                    cell.text,
                    row.design,
                    m.title
                );
                cells += 1;
            }
        }
    }
    assert!(
        maps.iter()
            .flat_map(|m| &m.rows)
            .flat_map(|r| &r.cells)
            .any(|c| c.class == "timed" && c.text != "1.00"),
        "the fixture's maps have a cell other than the best"
    );
    let shot = index.with_file_name("heat.png");
    chromium(bin, index, &[format!("--screenshot={}", shot.display())]);
    let heat = heat_fraction(&shot);
    assert!(
        heat > 0.002,
        "the heat map looks blank: {heat:.4} of the screenshot is coloured ({cells} cells)"
    );
    let _ = std::fs::remove_file(&shot);
}

/// Three claims on the fixture's numbers: a count, a time ratio and one on a design the run
/// lacks (its quote carries markup, which must come out as text).
fn declare_claims(results: &mut Results) {
    use results::{Claim, Metric, Operand, Quantity, Rule, Sizes};
    let claim = |id: &str, quote: &str, num: Operand, den: Operand, rule| Claim {
        id: id.into(),
        source: "000 test".into(),
        quote: quote.into(),
        reading: "packed ÷ holey".into(),
        quantity: Quantity::ratio(num, den),
        rule,
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some("a note".into()),
    };
    let record = results
        .families
        .iter_mut()
        .find(|f| f.family == results::Family::IdTable)
        .unwrap();
    record.claims = vec![
        claim(
            "T1",
            "packed does more work",
            Operand::new(Metric::Instructions, "packed", "lookup"),
            Operand::new(Metric::Instructions, "holey", "lookup"),
            Rule::AtLeast(1.0),
        ),
        claim(
            "T2",
            "packed is 100 times faster",
            Operand::new(Metric::Time, "packed", "lookup"),
            Operand::new(Metric::Time, "holey", "lookup"),
            Rule::AtMost(0.01),
        ),
        claim(
            "T3",
            "<b>never</b> measured",
            Operand::new(Metric::Time, "nowhere", "lookup"),
            Operand::new(Metric::Time, "holey", "lookup"),
            Rule::AtMost(1.0),
        ),
    ];
}

/// The claims page (its DOM: `dom`) shows every judgement's verdict, and the index links to it
/// with the tally.
fn check_claims(dom: &str, index: &str, results: &Results) {
    let judgements = results::verdict::judge_run(results);
    assert_eq!(judgements.len(), 3);
    for j in &judgements {
        let row = dom
            .split("<tr id=\"claim-")
            .find(|r| r.starts_with(&format!("{}\"", j.claim.id)))
            .unwrap_or_else(|| panic!("no row for claim {}", j.claim.id));
        assert!(
            row.contains(&format!(">{}</span>", j.verdict)),
            "claim {}: verdict {} not shown",
            j.claim.id,
            j.verdict
        );
    }
    assert!(
        dom.contains("&lt;b&gt;never&lt;/b&gt;"),
        "the quote is escaped"
    );
    assert!(
        index.contains("claims.html"),
        "the index links the claims page"
    );
    assert!(index.contains("3 claims of the articles</a>, judged on this run"));
}

/// Opens every page of `summary` (written to `out`) in Chromium and checks it; returns each
/// page's DOM after the script ran, index first.
fn check_pages(bin: &Path, out: &Path, summary: &reports::RenderSummary) -> Vec<String> {
    let pages: Vec<PathBuf> = std::iter::once(summary.index.clone())
        .chain(summary.family_pages.iter().cloned())
        .chain(std::iter::once(summary.claims_page.clone()))
        .collect();
    let mut doms = Vec::new();
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        // No network: every reference is a relative local file or an in-page anchor, and the
        // stylesheet loads nothing.
        for r in references(&html) {
            // A peer's documentation page is a link the reader may follow, never loaded.
            if r.starts_with("https://docs.rs/")
                && html.contains(&format!("<a href=\"{}\"", r.replace('/', "&#x2f;")))
            {
                continue;
            }
            assert!(
                !r.contains(':') && !r.starts_with("//"),
                "{}: external reference {r}",
                page.display()
            );
            let file = r.split('#').next().unwrap();
            if !file.is_empty() {
                assert!(out.join(file).is_file(), "{}: {r} missing", page.display());
            }
        }
        assert!(!html.contains("url("), "the stylesheet fetches nothing");

        // One run takes the screenshot and prints the DOM after the page's scripts ran.
        let shot = out.join("shot.png");
        let run = chromium(
            bin,
            page,
            &[
                format!("--screenshot={}", shot.display()),
                "--dump-dom".to_string(),
            ],
        );
        let log = String::from_utf8_lossy(&run.stderr);
        assert!(shot.is_file(), "no screenshot of {}: {log}", page.display());
        for line in log.lines() {
            assert!(
                !line.contains("CONSOLE") && !line.contains("Uncaught"),
                "{}: console message: {line}",
                page.display()
            );
            assert!(
                !line.contains("net::ERR_"),
                "{}: network error: {line}",
                page.display()
            );
        }
        let (ink, variance) = ink_and_variance(&shot);
        assert!(
            ink > 0.01 && variance > 100.0,
            "{}: screenshot looks blank (ink {ink:.4}, variance {variance:.1})",
            page.display()
        );

        let dom_html = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(
            dom_html.contains("</html>"),
            "no DOM for {}",
            page.display()
        );
        assert!(
            dom_html.contains("<form id=\"filters\" class=\"filters\">"),
            "{}: the filter script did not run",
            page.display()
        );
        for r in references(&dom_html)
            .iter()
            .filter(|r| r.starts_with("charts/"))
        {
            assert!(out.join(r).is_file(), "{r} missing");
        }
        let _ = std::fs::remove_file(&shot);
        doms.push(dom_html);
    }
    doms
}
