//! `dodbench merge` end to end: every shard of a run once gives one results file that the other
//! commands read; a missing, repeated or foreign shard exits 2 naming the problem and writes
//! nothing. (The shards themselves, from `DODBENCH_SHARD` runs of the bench, are checked against
//! an unsharded run in `examples/external-design/tests/run.rs`.)

use std::path::{Path, PathBuf};

use results::shards::{Shard, ShardRecord};
use results::{Family, Machine, Results, StepRecord};

use crate::support::{dodbench, text};

const DESIGNS: [&str; 4] = ["holey", "packed", "slab", "pool"];

/// Shard `index` of a two-shard run over [`DESIGNS`] at commit `commit`, written under `dir`.
fn shard_file(dir: &Path, index: u32, commit: &str) -> PathBuf {
    let machine = Machine::test_box(&format!("runner-{index}"));
    let mut r = Results::empty(machine, commit.into(), "rustc".into(), 1, "quick");
    let mine = &DESIGNS[(index as usize - 1) * 2..index as usize * 2];
    for design in mine {
        let b = r.entry(Family::IdTable, "churn", design, 1000, 10);
        b.verified = true;
        b.status = results::Status::Verified;
        b.memory_bytes = Some(4096);
    }
    let id = |d: &str| format!("id_table/churn/{d}/1000");
    r.steps.push(StepRecord::new(
        "bench",
        "scale quick",
        DESIGNS.map(id),
        mine.iter().map(|d| id(d)),
    ));
    r.shard = Some(ShardRecord {
        shard: Shard { index, count: 2 },
        // Each design counted as a cell of its own.
        selected: DESIGNS.len(),
        ran: mine.len(),
        plan: "one deal".into(),
    });
    let path = dir.join(format!("shard-{index}-{commit}.json"));
    r.save(&path).unwrap();
    path
}

#[test]
fn every_shard_once_merges_and_the_rest_exits_2_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let one = shard_file(dir.path(), 1, "abc");
    let two = shard_file(dir.path(), 2, "abc");
    let other = shard_file(dir.path(), 2, "def");
    let out = dir.path().join("merged.json");
    let arg = |p: &Path| p.to_str().unwrap().to_string();

    let refused: [(Vec<String>, &str); 3] = [
        (vec![arg(&one)], "shards 2 of 2 are missing"),
        (
            vec![arg(&one), arg(&two), arg(&two)],
            "shard 2/2 is given twice (files 2 and 3)",
        ),
        (
            vec![arg(&one), arg(&other)],
            "shard 2/2 is of another run than shard 1/2: commit abc (now def)",
        ),
    ];
    for (files, expected) in refused {
        let mut args = vec!["merge".to_string()];
        args.extend(files);
        args.extend(["-o".to_string(), arg(&out)]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = dodbench(&args);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "a refused merge wrote {}", out.display());
    }

    let run = dodbench(&["merge", &arg(&two), &arg(&one), "-o", &arg(&out)]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let merged = Results::load(&out).unwrap();
    assert_eq!(merged.benchmarks.len(), 4);
    assert_eq!(merged.shard, None);
    assert!(merged.steps[0].excluded.is_empty());
    // The merged file reads as any results file: the claims command takes it.
    let claims = dodbench(&["claims", &arg(&out)]);
    assert!(claims.status.success(), "{}", text(&claims.stderr));
}

/// A pass split with `--shard` over the shards' files merges into the figures the same pass
/// gives the whole run; a pass given another shard's file, or the sweep given a shard, exits 2.
#[test]
fn a_pass_split_over_the_shards_merges_into_the_whole_pass() {
    let dir = tempfile::tempdir().unwrap();
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    let files = [
        shard_file(dir.path(), 1, "abc"),
        shard_file(dir.path(), 2, "abc"),
    ];
    let whole = dir.path().join("whole.json");
    // Two cells (N = 1,000 and 2,000): one to each shard, whichever the deal gives it.
    let memory = |out: &Path, shard: Option<&str>| {
        let mut args = vec![
            "memory",
            "--quick",
            "--family",
            "id_table",
            "--workload",
            "churn",
        ];
        for d in DESIGNS {
            args.extend(["--design", d]);
        }
        args.extend(["--n", "1000", "--n", "2000"]);
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        let out = arg(out);
        args.extend(["--out", out.as_str()]);
        dodbench(&args)
    };
    // The bench's entries with the trace's work units, as a real bench writes them (a pass
    // divides its counts by them).
    let fresh = dir.path().join("fresh.json");
    assert!(memory(&fresh, None).status.success());
    let fresh = Results::load(&fresh).unwrap();
    for file in &files {
        let mut r = Results::load(file).unwrap();
        for b in &mut r.benchmarks {
            b.ops = fresh
                .benchmarks
                .iter()
                .find(|f| f.id() == b.id())
                .unwrap()
                .ops;
        }
        r.save(file).unwrap();
    }
    let merged_bench = dodbench(&[
        "merge",
        &arg(&files[0]),
        &arg(&files[1]),
        "-o",
        &arg(&whole),
    ]);
    assert!(
        merged_bench.status.success(),
        "{}",
        text(&merged_bench.stderr)
    );
    for (file, shard) in files.iter().zip(["1/2", "2/2"]) {
        let run = memory(file, Some(shard));
        assert!(run.status.success(), "{shard}: {}", text(&run.stderr));
    }
    let wrong = memory(&files[0], Some("2/2"));
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        text(&wrong.stderr).contains("the results file is shard 1/2 of its run"),
        "{}",
        text(&wrong.stderr)
    );
    let unsplit = memory(&whole, None);
    assert!(unsplit.status.success(), "{}", text(&unsplit.stderr));

    let merged = dir.path().join("merged.json");
    let run = dodbench(&[
        "merge",
        &arg(&files[0]),
        &arg(&files[1]),
        "-o",
        &arg(&merged),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let split = Results::load(&merged).unwrap();
    let whole = Results::load(&whole).unwrap();
    assert_eq!(split.benchmarks.len(), DESIGNS.len() * 2);
    for b in &whole.benchmarks {
        let calls = b
            .alloc_calls_per_op
            .expect("the whole pass measured every benchmark");
        let theirs = split.benchmarks.iter().find(|s| s.id() == b.id()).unwrap();
        assert_eq!(theirs.alloc_calls_per_op, Some(calls), "{}", b.id());
        assert_eq!(theirs.verified, b.verified, "{}", b.id());
    }
    let step = split.steps.iter().find(|s| s.step == "memory").unwrap();
    assert_eq!(step.shard, None);
    let whole_step = whole.steps.iter().find(|s| s.step == "memory").unwrap();
    assert_eq!(step.excluded, whole_step.excluded);

    let sweep = dodbench(&["sweep", "--quick", "--shard", "1/2"]);
    assert_eq!(sweep.status.code(), Some(2));
    assert!(text(&sweep.stderr).contains("the sweep is not split"));
}
