use super::*;
use crate::family::Family;
use crate::step::StepRecord;

/// The designs of the whole run: one cell per design of the `churn` workload at N = 10.
const DESIGNS: [&str; 6] = ["holey", "packed", "slab", "pool", "slotmap", "thunderdome"];

fn id(design: &str) -> String {
    format!("id_table/churn/{design}/10")
}

/// Shard `index` of `count` of the run over [`DESIGNS`], holding `designs`, measured on a
/// machine named `name`; its record counts each design as a cell of its own.
fn shard(index: u32, count: u32, designs: &[&str], name: &str) -> Results {
    let machine = Machine::test_box(name);
    let mut r = Results::empty(machine, "abc".into(), "rustc".into(), 1, "quick");
    for design in designs {
        let b = r.entry(Family::IdTable, "churn", design, 10, 10);
        b.verified = true;
        b.memory_bytes = Some(design.len() as u64);
    }
    r.steps.push(StepRecord::new(
        "bench",
        "scale quick",
        DESIGNS.map(id),
        designs.iter().map(|d| id(d)),
    ));
    r.shard = Some(ShardRecord {
        shard: Shard { index, count },
        selected: DESIGNS.len(),
        ran: designs.len(),
        plan: "same".into(),
    });
    r
}

fn three() -> Vec<Results> {
    vec![
        shard(1, 3, &["holey", "packed"], "runner-a"),
        shard(2, 3, &["slab", "pool"], "runner-b"),
        shard(3, 3, &["slotmap", "thunderdome"], "runner-c"),
    ]
}

#[test]
fn a_shard_is_k_of_n() {
    assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
    assert_eq!(" 1 / 1 ".parse(), Ok(Shard { index: 1, count: 1 }));
    for bad in ["0/3", "4/3", "3", "a/b", "1/257", "", "-1/2"] {
        let err = bad.parse::<Shard>().unwrap_err();
        assert!(err.contains("is not K/N"), "{bad}: {err}");
    }
}

#[test]
fn cells_are_dealt_longest_first_whatever_their_order() {
    let cells: Vec<(String, f64)> = [9.0, 1.0, 4.0, 4.0, 3.0, 7.0, 2.0, 5.0]
        .iter()
        .enumerate()
        .map(|(i, &t)| (format!("cell{i}"), t))
        .collect();
    let shard_of = assign(&cells, 3);
    let load = |k: usize| -> f64 {
        (0..cells.len())
            .filter(|&i| shard_of[i] == k)
            .map(|i| cells[i].1)
            .sum()
    };
    // 35 s over three shards: 12, 12 and 11, every shard within a cell of the others.
    let loads = [load(0), load(1), load(2)];
    assert_eq!(loads.iter().sum::<f64>(), 35.0);
    assert!(
        loads.iter().all(|&l| (11.0..=12.0).contains(&l)),
        "{loads:?}"
    );
    let mut reversed = cells.clone();
    reversed.reverse();
    let again = assign(&reversed, 3);
    for (i, (name, _)) in cells.iter().enumerate() {
        let j = reversed.iter().position(|(n, _)| n == name).unwrap();
        assert_eq!(shard_of[i], again[j], "{name}");
    }
}

#[test]
fn a_plan_digest_depends_on_the_deal_not_on_the_order() {
    let d = plan_digest(&["a/1", "b/1", "c/1"], &[0, 1, 0]);
    assert_eq!(d, plan_digest(&["c/1", "a/1", "b/1"], &[0, 0, 1]));
    assert_ne!(d, plan_digest(&["a/1", "b/1", "c/1"], &[0, 1, 1]));
    assert_ne!(d, plan_digest(&["a/1", "b/1", "d/1"], &[0, 1, 0]));
    assert_eq!(d.len(), 16);
}

#[test]
fn the_shards_of_a_run_merge_into_the_whole_run() {
    let mut files = three();
    files.rotate_left(1);
    let merged = merge_shards(files).unwrap();
    let mut ids: Vec<String> = merged.benchmarks.iter().map(|b| b.id()).collect();
    ids.sort();
    let mut all = DESIGNS.map(id).to_vec();
    all.sort();
    assert_eq!(ids, all);
    let bench = &merged.steps[0];
    assert!(bench.excluded.is_empty(), "{:?}", bench.excluded);
    assert_eq!(bench.selection, "scale quick");
    assert_eq!(merged.shard, None);
    assert_eq!(merged.machine.name, "runner-a+runner-b+runner-c");
    let memory = |d: &str| {
        merged
            .benchmarks
            .iter()
            .find(|b| b.design == d)
            .and_then(|b| b.memory_bytes)
    };
    assert_eq!(memory("thunderdome"), Some(11));
}

#[test]
fn an_incomplete_or_mixed_set_of_shards_is_refused_naming_the_problem() {
    let cases: Vec<(Vec<Results>, &str)> = vec![
        (three()[..2].to_vec(), "shards 3 of 3 are missing"),
        (
            vec![three()[0].clone(), three()[1].clone(), three()[1].clone()],
            "shard 2/3 is given twice (files 2 and 3)",
        ),
        (
            {
                let mut f = three();
                f[2].commit = "def".into();
                f
            },
            "shard 3/3 is of another run than shard 1/3: commit abc (now def)",
        ),
        (
            {
                let mut f = three();
                f[1].mode = "default".into();
                f
            },
            "shard 2/3 is of another run than shard 1/3: mode quick (now default)",
        ),
        (
            {
                let mut f = three();
                f[1].machine.cpu_model = "other".into();
                f
            },
            "shard 2/3 ran on another kind of machine than shard 1/3 (CPU test and other)",
        ),
        (
            {
                let mut f = three();
                f[2].steps[0].selection = "scale quick; arguments ^id_table/".into();
                f
            },
            "shard 3/3 ran another selection than shard 1/3",
        ),
        (
            vec![
                shard(1, 2, &["holey", "packed", "slab"], "a"),
                shard(2, 2, &["slab", "pool", "slotmap", "thunderdome"], "b"),
            ],
            "benchmark id_table/churn/slab/10 is in shards 1/2 and 2/2",
        ),
        (
            vec![three()[0].clone(), shard(2, 2, &["slab"], "b")],
            "file 2 is shard 2/2, but file 1 is of 3 shards",
        ),
        (
            {
                let mut f = three();
                f[1].shard = None;
                f
            },
            "file 2 is not a shard",
        ),
        (
            {
                let mut f = three();
                f[1].shard.as_mut().unwrap().plan = "other".into();
                f
            },
            "shard 2/3 dealt the selection's cells otherwise than shard 1/3 (plan other, not same)",
        ),
        (
            vec![
                shard(1, 2, &["holey", "packed", "slab"], "a"),
                shard(2, 2, &["pool", "slotmap"], "b"),
            ],
            "the shards ran 5 cells of the selection's 6",
        ),
        (Vec::new(), "no shard to merge"),
    ];
    for (files, expected) in cases {
        let err = merge_shards(files).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}\nexpected: {expected}");
    }
}

/// `r` after a `memory --shard` pass that measured `designs` (adding the entries its bench
/// did not run), its part `ran` of `selected` cells.
fn with_memory_pass(mut r: Results, designs: &[&str], ran: usize, selected: usize) -> Results {
    let shard = r.shard.as_ref().unwrap().shard;
    for design in designs {
        r.entry(Family::IdTable, "churn", design, 10, 10)
            .alloc_calls_per_op = Some(2.0);
    }
    let mut step = StepRecord::new(
        "memory",
        "--quick",
        DESIGNS.map(id),
        designs.iter().map(|d| id(d)),
    );
    step.shard = Some(ShardRecord {
        shard,
        selected,
        ran,
        plan: "memory-deal".into(),
    });
    r.steps.push(step);
    r
}

#[test]
fn a_pass_split_over_the_shards_joins_the_benchs_entries() {
    // The pass dealt its cells apart from the bench: shard 1's pass measured slotmap, which
    // shard 3's bench ran, and shard 3's measured holey, which shard 1's bench ran.
    let mut files = three();
    files[0] = with_memory_pass(files[0].clone(), &["slotmap", "packed"], 2, 6);
    files[1] = with_memory_pass(files[1].clone(), &["slab", "pool"], 2, 6);
    files[2] = with_memory_pass(files[2].clone(), &["holey", "thunderdome"], 2, 6);
    let merged = merge_shards(files).unwrap();
    assert_eq!(merged.benchmarks.len(), DESIGNS.len());
    for b in &merged.benchmarks {
        assert_eq!(b.alloc_calls_per_op, Some(2.0), "{}", b.id());
        // The bench's entry, with the bench's figures.
        assert_eq!(b.memory_bytes, Some(b.design.len() as u64), "{}", b.id());
    }
    let memory = merged.steps.iter().find(|s| s.step == "memory").unwrap();
    assert!(memory.excluded.is_empty(), "{:?}", memory.excluded);
    assert_eq!(memory.shard, None);
    assert_eq!(memory.selection, "--quick");
}

#[test]
fn a_pass_split_otherwise_or_not_whole_is_refused() {
    let split = |parts: [(&[&str], usize); 3]| {
        let mut files = three();
        for (file, (designs, ran)) in files.iter_mut().zip(parts) {
            *file = with_memory_pass(file.clone(), designs, ran, 6);
        }
        files
    };
    let cases: Vec<(Vec<Results>, &str)> = vec![
        (
            split([(&["holey", "packed"], 2), (&["slab"], 1), (&["slotmap"], 1)]),
            "the shards' memory passes ran 4 cells of its selection's 6",
        ),
        (
            {
                let mut f = split([(&["holey"], 2), (&["slab"], 2), (&["pool"], 2)]);
                f[2].steps.retain(|s| s.step != "memory");
                f
            },
            "shard 3/3 ran the memory pass on another part than shard 1/3 (plan none",
        ),
        (
            {
                let mut f = split([(&["holey"], 2), (&["slab"], 2), (&["pool"], 2)]);
                f[1].steps[1].shard.as_mut().unwrap().plan = "other".into();
                f
            },
            "(plan other, not memory-deal)",
        ),
        (
            split([
                (&["holey", "packed"], 2),
                (&["slab", "pool"], 2),
                (&["holey"], 2),
            ]),
            "benchmark id_table/churn/holey/10 is in shards 1/3 and 3/3 with the same \
             measurement",
        ),
    ];
    for (files, expected) in cases {
        let err = merge_shards(files).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}\nexpected: {expected}");
    }
}
