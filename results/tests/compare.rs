//! `compare`, the baseline, the history and the exports on the fixture files in
//! `tests/fixtures/` (schema 1 and 2 results, with and without per-benchmark `sim` blocks;
//! schema 3 with every family) and on the committed `reports/baseline/baseline.json`.

use std::path::{Path, PathBuf};

use results::compare::metrics::MetricKind;
use results::compare::table::{Format, render};
use results::compare::{Baseline, CompareError, Rules, Run, Verdict, compare};
use results::history::{self, HistoryEntry};
use results::{Family, Results, Status, export};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

fn load(name: &str) -> Run {
    Run::load(&fixture(name)).unwrap()
}

#[test]
fn identical_runs_have_no_changes() {
    let base = load("results_v2_base.json");
    let c = compare(&base, &base, &Rules::default()).unwrap();
    assert!(!c.gate_failed());
    assert!(
        c.rows.iter().all(|r| r.verdict == Verdict::Unchanged),
        "{c:#?}"
    );
    // Deterministic metrics of every verified benchmark were compared, time too.
    let ir_rows = c.rows.iter().filter(|r| r.metric == "ir").count();
    assert_eq!(ir_rows, 4);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn a_ten_percent_instruction_regression_fails_the_gate_and_is_named() {
    let c = compare(
        &load("results_v2_base.json"),
        &load("results_v2_ir_regression.json"),
        &Rules::default(),
    )
    .unwrap();
    assert!(c.gate_failed());
    let regressed: Vec<String> = c
        .regressions()
        .map(|r| format!("{} {}", r.key, r.metric))
        .collect();
    assert_eq!(regressed, ["id_table/churn/pool/1000 ir"]);
    let text = render(&c, Format::Text, false);
    assert!(text.contains("id_table/churn/pool/1000"), "{text}");
    assert!(text.contains("+10.0%"), "{text}");
    assert!(text.contains("FAIL"), "{text}");
    let md = render(&c, Format::Markdown, false);
    assert!(
        md.contains("| id_table/churn/pool/1000 | ir | det |"),
        "{md}"
    );
    // A looser tolerance accepts it.
    let loose = Rules {
        threshold_det: 0.15,
        ..Rules::default()
    };
    let c = compare(
        &load("results_v2_base.json"),
        &load("results_v2_ir_regression.json"),
        &loose,
    )
    .unwrap();
    assert!(!c.gate_failed());
}

#[test]
fn a_time_change_inside_the_noise_is_not_flagged() {
    let c = compare(
        &load("results_v2_base.json"),
        &load("results_v2_time_noise.json"),
        &Rules::default(),
    )
    .unwrap();
    assert!(!c.gate_failed());
    assert_eq!(c.count(Verdict::Regressed, MetricKind::Time), 0);
    let pool = c
        .rows
        .iter()
        .find(|r| r.metric == "ns_per_op" && r.key.design == "pool")
        .unwrap();
    assert!(pool.change.unwrap() > 0.10, "{pool:?}");
    assert!(pool.note.contains("within noise"), "{pool:?}");
    // A tight-interval version of the same change is flagged, as information only.
    let mut noisy = load("results_v2_time_noise.json");
    let pool = noisy
        .benchmarks
        .iter_mut()
        .find(|b| b.key.design == "pool")
        .unwrap();
    let t = pool.metrics.get_mut("ns_per_op").unwrap();
    t.lower = Some(t.value - 0.1);
    t.upper = Some(t.value + 0.1);
    let holey = noisy
        .benchmarks
        .iter_mut()
        .find(|b| b.key.design == "holey")
        .unwrap();
    let t = holey.metrics.get_mut("ns_per_op").unwrap();
    t.lower = Some(t.value - 0.1);
    t.upper = Some(t.value + 0.1);
    let c = compare(&load("results_v2_base.json"), &noisy, &Rules::default()).unwrap();
    assert_eq!(c.count(Verdict::Regressed, MetricKind::Time), 1);
    assert!(!c.gate_failed());
}

#[test]
fn schema_1_and_2_compare_across_the_rename() {
    let c = compare(
        &load("results_v1.json"),
        &load("results_v2_base.json"),
        &Rules::default(),
    )
    .unwrap();
    assert!(!c.gate_failed());
    assert!(
        c.rows
            .iter()
            .any(|r| r.metric == "bytes_per_object" && r.verdict == Verdict::Unchanged)
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("metric ir only in NEW")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn unusable_inputs_are_clear_errors() {
    let e = Run::load(&fixture("results_v99.json")).unwrap_err();
    assert!(matches!(e, CompareError::Version { .. }));
    assert!(e.to_string().contains("schema version 99"), "{e}");
    let e = Run::load(&fixture("results_corrupt.json")).unwrap_err();
    assert!(matches!(e, CompareError::Corrupt { .. }), "{e}");
    let e = Run::load(&fixture("missing.json")).unwrap_err();
    assert!(matches!(e, CompareError::Io { .. }), "{e}");
    let e = Run::from_json_str(
        Path::new("x"),
        r#"{"schema_version": 2, "benchmarks": [{}]}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("benchmarks[0]"), "{e}");
}

#[test]
fn a_different_simulated_cache_or_seed_is_not_comparable() {
    let base = load("results_v2_base.json");
    let mut other = base.clone();
    other.sim.as_mut().unwrap().d1 = "65536,8,64".into();
    let e = compare(&base, &other, &Rules::default()).unwrap_err();
    assert!(matches!(e, CompareError::SimConfigMismatch { .. }), "{e}");
    let mut other = base.clone();
    other.benchmarks[0].seed = Some(8);
    let e = compare(&base, &other, &Rules::default()).unwrap_err();
    assert!(e.to_string().contains("seed"), "{e}");
}

#[test]
fn baseline_keeps_deterministic_metrics_only_and_round_trips() {
    let run = load("results_v2_base.json");
    let baseline = Baseline::from_run(&run);
    assert!(
        baseline
            .benchmarks
            .iter()
            .all(|b| !b.metrics.contains_key("ns_per_op"))
    );
    let pool = baseline
        .benchmarks
        .iter()
        .find(|b| b.design == "pool")
        .unwrap();
    assert_eq!(pool.metrics["ir"], 61.5);
    assert_eq!(pool.metrics["bytes_per_object"], 48.0);
    assert_eq!(baseline.sim.as_ref().unwrap().ll, "8388608,16,64");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("baseline").join("baseline.json");
    baseline.save(&path).unwrap();
    let loaded = Run::load(&path).unwrap();
    assert!(loaded.is_baseline);
    assert_eq!(Baseline::from_run(&loaded), baseline);

    // Against the baseline: same run passes, the regression fails, times are not compared.
    let c = compare(&loaded, &run, &Rules::default()).unwrap();
    assert!(!c.gate_failed());
    assert!(c.rows.iter().all(|r| r.metric != "ns_per_op"));
    let c = compare(
        &loaded,
        &load("results_v2_ir_regression.json"),
        &Rules::default(),
    )
    .unwrap();
    assert!(c.gate_failed());
}

#[test]
fn history_survives_a_crash_in_the_middle_of_an_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.jsonl");
    let runs = [
        load("results_v1.json"),
        load("results_v2_base.json"),
        load("results_v2_ir_regression.json"),
    ];
    for run in &runs {
        history::append(&path, &HistoryEntry::from_run(run, None).unwrap()).unwrap();
    }
    // A crash mid-write: half of a fourth line, no newline.
    let whole =
        serde_json::to_string(&HistoryEntry::from_run(&runs[1], Some("holey")).unwrap()).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&whole.as_bytes()[..whole.len() / 2]);
    std::fs::write(&path, &bytes).unwrap();

    let (entries, corrupt) = history::load(&path).unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(corrupt.len(), 1);
    assert_eq!(corrupt[0].line, 4);
    assert_eq!(entries[0].commit, runs[0].commit);
    assert_eq!(entries[1].date, "2023-11-14T22:13:20Z");
    let pool = entries[1]
        .benchmarks
        .iter()
        .find(|b| b.design == "pool")
        .unwrap();
    assert_eq!(pool.metrics["ir"], 61.5);
    assert!((pool.time_vs_reference.unwrap() - 1.2).abs() < 1e-12);
    assert_eq!(entries[1].reference_of(pool), Some("holey"));

    // The next append starts a fresh line: the partial one stays the only casualty.
    history::append(&path, &HistoryEntry::from_run(&runs[2], None).unwrap()).unwrap();
    let (entries, corrupt) = history::load(&path).unwrap();
    assert_eq!(entries.len(), 4);
    assert_eq!(corrupt.len(), 1);
    assert_eq!(entries[3].commit, runs[2].commit);

    // A corrupt line in the middle is skipped too.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("{", "{{", 1);
    std::fs::write(&path, text).unwrap();
    let (entries, corrupt) = history::load(&path).unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(corrupt.iter().map(|c| c.line).collect::<Vec<_>>(), [1, 4]);

    let (entries, corrupt) = history::load(&dir.path().join("none.jsonl")).unwrap();
    assert!(entries.is_empty() && corrupt.is_empty());
}

/// The documented BMF shape: an object of benchmarks, each an object of measures, each an
/// object with a numeric `value` and optional numeric `lower_value`/`upper_value`, nothing else.
fn assert_bmf_shape(v: &Value) {
    let benchmarks = v.as_object().expect("BMF is an object");
    assert!(!benchmarks.is_empty());
    for (name, measures) in benchmarks {
        assert!(!name.is_empty());
        let measures = measures
            .as_object()
            .expect("benchmark is an object of measures");
        for (slug, metric) in measures {
            assert!(!slug.is_empty() && slug.len() <= 64, "{slug}");
            let metric = metric.as_object().expect("metric is an object");
            assert!(metric["value"].is_number(), "{name} {slug}");
            for (k, x) in metric {
                assert!(
                    ["value", "lower_value", "upper_value"].contains(&k.as_str()),
                    "{k}"
                );
                assert!(x.is_number(), "{name} {slug} {k}");
            }
        }
    }
}

/// The documented customSmallerIsBetter shape: an array of objects with string `name` and
/// `unit`, numeric `value`, optional string `range` and `extra`, nothing else.
fn assert_gab_shape(v: &Value) {
    let entries = v.as_array().expect("an array");
    assert!(!entries.is_empty());
    for e in entries {
        let e = e.as_object().expect("entry is an object");
        assert!(e["name"].is_string() && e["unit"].is_string() && e["value"].is_number());
        for (k, x) in e {
            match k.as_str() {
                "name" | "unit" | "value" => {}
                "range" | "extra" => assert!(x.is_string(), "{k}"),
                other => panic!("unexpected key {other}"),
            }
        }
    }
}

#[test]
fn exports_have_the_documented_shapes() {
    let run = load("results_v2_base.json");
    let bmf = serde_json::to_value(export::bmf(&run)).unwrap();
    assert_bmf_shape(&bmf);
    let pool = &bmf["id_table/churn/pool/1000"];
    assert_eq!(pool["latency"]["value"], 12.0);
    assert_eq!(pool["latency"]["lower_value"], 11.6);
    assert_eq!(pool["instructions"]["value"], 61.5);
    assert!(pool["instructions"].get("lower_value").is_none());
    let tp = &pool["throughput"];
    assert!(tp["lower_value"].as_f64() < tp["value"].as_f64());
    assert!(
        bmf.get("id_table/churn/packed_fixed/1000").is_none(),
        "unsupported benchmarks have no numbers"
    );

    let gab = serde_json::to_value(export::github_action_benchmark(&run)).unwrap();
    assert_gab_shape(&gab);
    let time = gab
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "id_table/churn/pool/1000 [unknown]")
        .unwrap();
    assert_eq!(time["unit"], "ns/op");
    assert_eq!(time["range"], "± 0.400");
    assert!(
        gab.as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "id_table/churn/pool/1000 - ir [unknown]" && e["value"] == 61.5)
    );
    // The machine is the testbed: its name ends every entry's name.
    let mut named = run.clone();
    named.machine = Some("ci-runner".into());
    let gab = export::github_action_benchmark(&named);
    assert!(gab.iter().all(|e| e.name.ends_with(" [ci-runner]")));
    assert!(
        gab.iter()
            .all(|e| e.extra.as_ref().unwrap().contains("machine ci-runner"))
    );
    // A schema-1 file exports too (time and memory only).
    assert_bmf_shape(&serde_json::to_value(export::bmf(&load("results_v1.json"))).unwrap());
}

#[test]
fn reads_the_simulated_hierarchy_where_the_harness_writes_it() {
    // The harness nests the hierarchy under `sim.config`; a baseline made from such a file
    // must record it, so runs simulated with another hierarchy are refused.
    let text = std::fs::read_to_string(fixture("results_v2_base.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for b in v["benchmarks"].as_array_mut().unwrap() {
        if let Some(sim) = b.get_mut("sim").and_then(|s| s.as_object_mut()) {
            let d1 = sim.remove("d1").unwrap();
            let ll = sim.remove("ll").unwrap();
            sim.insert(
                "config".into(),
                serde_json::json!({"d1": d1, "ll": ll, "i1": "32768,8,64"}),
            );
        }
    }
    let run = Run::from_json_str(Path::new("nested"), &v.to_string()).unwrap();
    let sim = run.sim.expect("hierarchy found under sim.config");
    assert_eq!(sim.d1, "32768,8,64");
}

#[test]
fn layout_sensitive_miss_counts_are_shown_but_never_gate() {
    let text = std::fs::read_to_string(fixture("results_v2_base.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let mut bumped = 0;
    for b in v["benchmarks"].as_array_mut().unwrap() {
        if let Some(d1) = b.pointer_mut("/sim/d1_miss") {
            *d1 = serde_json::json!(d1.as_f64().unwrap() * 1.3 + 0.1);
            bumped += 1;
        }
    }
    assert!(bumped > 0, "the fixture has sim blocks");
    let base = load("results_v2_base.json");
    let new = Run::from_json_str(Path::new("d1+30%"), &v.to_string()).unwrap();
    let c = compare(&base, &new, &Rules::default()).unwrap();
    assert!(
        c.rows
            .iter()
            .any(|r| r.metric == "d1_miss" && r.verdict == Verdict::Regressed),
        "the change is shown as a regression row"
    );
    assert!(
        !c.gate_failed(),
        "but D1 misses depend on heap layout and never gate"
    );
}

#[test]
fn reads_what_the_current_harness_writes() {
    // A results file of the current schema, with a benchmark of every family, as `cargo bench`
    // writes it: compare must read it (the CI gate runs on exactly this file).
    let mut results = Results::from_value(
        serde_json::to_value(Results::load(&fixture("results_v3.json")).unwrap()).unwrap(),
    )
    .unwrap();
    results.benchmarks.clear();
    for family in Family::ALL {
        let b = results.entry(family, "w", "d", 1000, 10);
        b.verified = true;
        b.status = Status::Verified;
        b.bytes_per_object = Some(12.5);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.json");
    results.save(&path).unwrap();
    let run = Run::load(&path).unwrap();
    assert_eq!(run.benchmarks.len(), Family::ALL.len());
    assert_eq!(run.schema_version, u64::from(results::SCHEMA_VERSION));
    assert_eq!(run.families, results.families);
}

#[test]
fn schema_3_files_read_with_every_familys_metrics_and_reference() {
    let r = Results::load(&fixture("results_v3.json")).unwrap();
    assert_eq!(r.schema_version, results::SCHEMA_VERSION);
    let metrics_of = |design: &str| {
        r.benchmarks
            .iter()
            .find(|b| b.design == design)
            .unwrap()
            .metrics
            .clone()
    };
    let tags = metrics_of("sparse_set").unwrap();
    assert_eq!(
        (tags.family, tags.number("bytes_per_tag")),
        (Family::Tags, Some(8.0))
    );
    let alloc = metrics_of("buddy").unwrap();
    assert_eq!(
        (alloc.family, alloc.number("utilization_at_peak")),
        (Family::Alloc, Some(0.75))
    );
    assert_eq!(metrics_of("pool_lowest"), None);
    assert_eq!(metrics_of("holey"), None);
    let refs: Vec<(Family, &str)> = r
        .families
        .iter()
        .map(|f| (f.family, f.reference_design.as_str()))
        .collect();
    // A schema 3 file records no families: every built-in one is assumed.
    assert_eq!(
        refs[..3],
        [
            (Family::IdTable, "holey"),
            (Family::Tags, "vec_of_vecs"),
            (Family::Alloc, "buddy")
        ]
    );
    assert_eq!(refs.len(), results::FamilyRecord::builtin_all().len());
}

/// The time row of `design` comparing the v3 fixture with itself after `slower` scaled that
/// design's times (tight intervals).
fn time_row_after(design: &str, slower: f64, rules: &Rules) -> results::compare::Row {
    let base = load("results_v3.json");
    let mut new = base.clone();
    let b = new
        .benchmarks
        .iter_mut()
        .find(|b| b.key.design == design)
        .unwrap();
    let t = b.metrics.get_mut("ns_per_op").unwrap();
    t.value *= slower;
    t.lower = Some(t.value * 0.999);
    t.upper = Some(t.value * 1.001);
    compare(&base, &new, rules)
        .unwrap()
        .rows
        .into_iter()
        .find(|r| r.metric == "ns_per_op" && r.key.design == design)
        .unwrap()
}

#[test]
fn each_family_is_normalised_by_its_own_reference_design() {
    let rules = Rules::default();
    let sparse = time_row_after("sparse_set", 1.5, &rules);
    assert_eq!(sparse.note, "vs vec_of_vecs");
    assert_eq!(sparse.verdict, Verdict::Regressed);
    assert!(
        (sparse.base.unwrap().value - 0.5).abs() < 1e-12,
        "{sparse:?}"
    );
    // The system allocator, a reference loop on an allocator workload, against `buddy`.
    let system = time_row_after("system", 1.5, &rules);
    assert_eq!(system.note, "vs buddy");
    assert!(
        (system.base.unwrap().value - 2.0).abs() < 1e-12,
        "{system:?}"
    );
    let ref_vec = time_row_after("ref-vec", 1.0, &rules);
    assert_eq!(ref_vec.note, "vs holey");
    let buddy = time_row_after("buddy", 1.5, &rules);
    assert_eq!(buddy.note, "reference design: raw time, not judged");
    assert_eq!(buddy.verdict, Verdict::Unchanged);
    let c = compare(
        &load("results_v3.json"),
        &load("results_v3.json"),
        &Rules::default(),
    )
    .unwrap();
    let text = render(&c, Format::Text, false);
    assert!(
        text.contains("id_table: holey; tags: vec_of_vecs; alloc: buddy"),
        "{text}"
    );
}

#[test]
fn an_explicit_reference_overrides_every_family_and_must_exist() {
    let rules = Rules {
        reference: Some("holey".into()),
        ..Rules::default()
    };
    let sparse = time_row_after("sparse_set", 1.5, &rules);
    assert_eq!(
        sparse.note,
        "not judged: no holey time on this workload and n"
    );
    let packed = time_row_after("packed", 1.5, &rules);
    assert_eq!(packed.note, "vs holey");
    let rules = Rules {
        reference: Some("hooley".into()),
        ..Rules::default()
    };
    let run = load("results_v3.json");
    let e = compare(&run, &run, &rules).unwrap_err();
    assert!(matches!(e, CompareError::UnknownReference { .. }), "{e}");
    let e = e.to_string();
    assert!(e.contains("\"hooley\""), "{e}");
    assert!(e.contains("buddy, holey, packed"), "{e}");
    let e = HistoryEntry::from_run(&run, Some("hooley")).unwrap_err();
    assert!(matches!(e, CompareError::UnknownReference { .. }), "{e}");
}

#[test]
fn the_committed_baseline_still_loads_and_compares() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/baseline/baseline.json");
    let baseline = Run::load(&path).unwrap();
    assert!(baseline.is_baseline);
    // Every family the baseline records that files before schema 4 could hold is described
    // as the built-in records describe it (its claims are the run's, which built-in records
    // do not carry).
    assert!(!baseline.families.is_empty());
    for f in &baseline.families {
        if let Some(builtin) = results::FamilyRecord::builtin(f.family) {
            let described = (&f.family, &f.title, &f.reference_design);
            assert_eq!(
                described,
                (&builtin.family, &builtin.title, &builtin.reference_design)
            );
        }
    }
    assert!(
        baseline.families.iter().all(|f| !f.claims.is_empty()),
        "the baseline's run declared every family's claims"
    );
    assert!(
        baseline
            .benchmarks
            .iter()
            .any(|b| b.key.family == Family::Reference)
    );
    let c = compare(&baseline, &baseline, &Rules::default()).unwrap();
    assert!(!c.gate_failed());
    // A v3 results file against it: the baseline's benchmarks it lacks are gone (a v3 file
    // records no selection that would explain them) and fail the gate; the rest compare
    // without a regression.
    let c = compare(&baseline, &load("results_v3.json"), &Rules::default()).unwrap();
    assert!(c.gate_failed());
    assert!(
        c.regressions().all(|r| r.verdict == Verdict::Gone),
        "{}",
        render(&c, Format::Text, false)
    );
}

#[test]
fn baselines_store_the_runs_families() {
    let mut run = load("results_v3.json");
    run.families[1].reference_design = "sparse_set".into();
    let baseline = Baseline::from_run(&run);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("baseline.json");
    baseline.save(&path).unwrap();
    let loaded = Run::load(&path).unwrap();
    assert_eq!(loaded.families, run.families);
    // Statuses and families are written with their schema names.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""status": "unsupported""#), "{text}");
    assert!(text.contains(r#""family": "reference""#), "{text}");
}

#[test]
fn hostile_names_are_escaped_in_markdown() {
    let mut base = load("results_v2_base.json");
    let hostile = "x|y <img src=x onerror=alert(1)> `rm -rf` [link](http://e) *b*\nnew row";
    base.benchmarks[0].key.design = hostile.to_string();
    base.commit = "c0mmit<b>|".to_string();
    let new = load("results_v2_base.json");
    let c = compare(&base, &new, &Rules::default()).unwrap();
    let md = render(&c, Format::Markdown, true);
    assert!(!md.contains('<') && !md.contains('`'), "{md}");
    assert!(!md.contains("[link](") && !md.contains("*b*"), "{md}");
    assert!(md.contains("\\[link\\]"), "{md}");
    // Every table line has exactly the 9 column separators of its 8 cells.
    let unescaped_pipes = |line: &str| {
        let b = line.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
            .count()
    };
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert!(table.len() > 2, "{md}");
    for line in table {
        assert_eq!(unescaped_pipes(line), 9, "{line}");
    }
    assert!(md.contains("x\\|y &lt;img"), "{md}");
}

/// A schema 7 run of the v3 fixture's benchmarks whose tag stores carry `metrics` and whose
/// `tags` record declares them: bytes per tag gated (deterministic, lower is better), tags
/// after the setup shown only (the trace fixes it). `bytes_per_tag` of `sparse_set` is scaled
/// by `scale`, `tags_after_setup` of every design by `tags_scale`.
fn run_with_tag_metrics(scale: f64, tags_scale: f64) -> Run {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("results_v3.json")).unwrap())
            .unwrap();
    v["schema_version"] = 7.into();
    v["families"] = serde_json::json!([{
        "family": "tags", "title": "Tag stores", "reference_design": "vec_of_vecs",
        "metrics": {
            "title": "Tag-store memory", "rank_by": "bytes_per_tag",
            "specs": [
                {"name": "tags_after_setup", "label": "tags", "description": "tags held",
                 "unit": "count", "better": null, "deterministic": true, "scope": "trace",
                 "chart": null},
                {"name": "bytes_per_tag", "label": "B / tag", "description": "bytes per tag",
                 "unit": "number", "better": "lower", "deterministic": true, "scope": "design",
                 "chart": {"kind": "bars"}}
            ]
        }
    }]);
    for b in v["benchmarks"].as_array_mut().unwrap() {
        let Some(mut tags) = b.as_object_mut().unwrap().remove("tags") else {
            continue;
        };
        if tags.is_null() {
            continue;
        }
        if b["design"] == "sparse_set" {
            tags["bytes_per_tag"] = (tags["bytes_per_tag"].as_f64().unwrap() * scale).into();
        }
        tags["tags_after_setup"] = (tags["tags_after_setup"].as_f64().unwrap() * tags_scale).into();
        tags["kind"] = "tags".into();
        b["metrics"] = tags;
        b.as_object_mut().unwrap().remove("alloc");
    }
    Run::from_results_value(Path::new("tags.json"), v).unwrap()
}

#[test]
fn a_family_metric_the_family_declares_deterministic_gates_like_the_shared_counts() {
    let base = run_with_tag_metrics(1.0, 1.0);
    let same = compare(&base, &base, &Rules::default()).unwrap();
    assert!(!same.gate_failed(), "{same:#?}");
    assert!(
        same.rows
            .iter()
            .any(|r| r.metric == "metrics.bytes_per_tag"),
        "family metrics are compared: {same:#?}"
    );
    // 8 -> 12 bytes per tag on one design: a regression of its own metric fails the gate.
    let worse = compare(&base, &run_with_tag_metrics(1.5, 1.0), &Rules::default()).unwrap();
    assert!(worse.gate_failed());
    let regressed: Vec<String> = worse
        .regressions()
        .map(|r| format!("{} {}", r.key, r.metric))
        .collect();
    assert_eq!(
        regressed,
        ["tags/tags-churn/sparse_set/1000 metrics.bytes_per_tag"]
    );
    // Fewer bytes is an improvement, not a failure.
    let better = compare(&base, &run_with_tag_metrics(0.5, 1.0), &Rules::default()).unwrap();
    assert!(!better.gate_failed());
    // A metric without a better direction (fixed by the trace) is shown as changed: never
    // gated, never called better or worse.
    let moved = compare(&base, &run_with_tag_metrics(1.0, 2.0), &Rules::default()).unwrap();
    assert!(!moved.gate_failed(), "{moved:#?}");
    assert!(
        moved
            .rows
            .iter()
            .any(|r| r.metric == "metrics.tags_after_setup"
                && r.kind == MetricKind::Shown
                && r.verdict == Verdict::Changed)
    );
    let text = render(&moved, Format::Text, false);
    assert!(text.contains("changed"), "{text}");
    // The baseline keeps the gated family metric, not the shown one.
    let baseline = Baseline::from_run(&base);
    let kept: Vec<&String> = baseline
        .benchmarks
        .iter()
        .flat_map(|b| b.metrics.keys())
        .filter(|k| k.starts_with("metrics."))
        .collect();
    assert!(
        !kept.is_empty() && kept.iter().all(|k| *k == "metrics.bytes_per_tag"),
        "{kept:?}"
    );
}

/// A history of 20 runs of the v3 fixture in which `packed`'s time over its reference moved by
/// at most 0.3% and `sparse_set`'s by up to 10%: each benchmark's noise band is learned from
/// it, so a 5% slowdown (beyond the quiet one's band, within the noisy one's, and below the
/// fixed 10% threshold) is flagged on `packed` alone.
#[test]
fn a_history_flags_a_change_beyond_each_benchmarks_own_noise() {
    let base = load("results_v3.json");
    let entries: Vec<HistoryEntry> = (0..20)
        .map(|i| {
            let wobble = [-1.0, 1.0, 0.0, 0.5][i % 4];
            let mut run = base.clone();
            for b in &mut run.benchmarks {
                let spread = match b.key.design.as_str() {
                    "packed" => 0.003,
                    "sparse_set" => 0.10,
                    _ => continue,
                };
                let t = b.metrics.get_mut("ns_per_op").unwrap();
                t.value *= 1.0 + spread * wobble;
            }
            HistoryEntry::from_run(&run, None).unwrap()
        })
        .collect();
    let machine = entries[0].machine.clone();
    let bands = history::noise_bands(&entries, &machine, base.mode.as_deref());
    let band = |design: &str| {
        bands
            .iter()
            .find(|(k, _)| k.design == design)
            .map(|(_, b)| *b)
            .unwrap()
    };
    assert_eq!(band("packed").runs, history::NOISE_RUNS);
    // (largest - smallest) / median, the median of the 20 runs being a `1 + spread / 2` one.
    let expected = |s: f64| 2.0 * s / (1.0 + 0.5 * s);
    assert!(
        (band("packed").spread - expected(0.003)).abs() < 1e-9,
        "{bands:?}"
    );
    assert!(
        (band("sparse_set").spread - expected(0.10)).abs() < 1e-9,
        "{bands:?}"
    );
    // Another machine's or mode's runs teach nothing.
    assert!(history::noise_bands(&entries, "elsewhere", base.mode.as_deref()).is_empty());
    assert!(history::noise_bands(&entries[..4], &machine, base.mode.as_deref()).is_empty());

    let learned = Rules {
        noise: bands,
        ..Rules::default()
    };
    let quiet = time_row_after("packed", 1.05, &learned);
    assert_eq!(quiet.verdict, Verdict::Regressed, "{quiet:?}");
    assert_eq!(quiet.note, "vs holey; noise 0.6% over its last 20 runs");
    let noisy = time_row_after("sparse_set", 1.05, &learned);
    assert_eq!(noisy.verdict, Verdict::Unchanged, "{noisy:?}");
    assert_eq!(
        noisy.note,
        "vs vec_of_vecs; noise 19.0% over its last 20 runs"
    );
    // Without a history both are within the fixed 10%.
    let fixed = Rules::default();
    assert_eq!(
        time_row_after("packed", 1.05, &fixed).verdict,
        Verdict::Unchanged
    );
    // Times never fail the gate, learned or not.
    assert!(!quiet.fails_gate());
}
