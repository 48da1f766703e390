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
    let machine = Machine {
        name: format!("runner-{index}"),
        cpu_model: "test".into(),
        cores: 2,
        caches: Default::default(),
        os: "linux".into(),
        arch: "x86_64".into(),
        hw_counters_available: false,
        hw_counters_reason: None,
    };
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
