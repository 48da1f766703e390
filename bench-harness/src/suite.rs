//! The benchmark matrix shared by `cargo bench` and the CLI: which sizes and seed, which
//! traces, and the run metadata (designs, commit, toolchain) written to results.json.

use impls::alloc::{AllocDesignInfo, BadFreeDetection};
use impls::id_table::{DesignInfo, DesignKind};
use impls::tags::{TagDesignInfo, TagDesignKind};
use workloads::Trace;

use crate::replay::{Family, IdTableFamily, OpOf};
use crate::verify::Expected;
use results::{DesignRecord, Family as ResultsFamily};

/// Family of the ID lookup tables in results.
pub const ID_TABLE_FAMILY: ResultsFamily = ResultsFamily::IdTable;

/// Seed of every generated trace unless `DODBENCH_SEED` says otherwise.
pub const DEFAULT_SEED: u64 = 0xD0D_BE4C;

/// Live sizes of the ID-table matrix: 1K, 64K and 1M objects.
pub const DEFAULT_SIZES: [usize; 3] = [1_000, 65_536, 1_000_000];

/// Entity counts of the tag-store matrix: 1K, 100K (the size the closing notes tabulate) and,
/// outside quick mode, 1M.
pub const TAG_SIZES: [usize; 3] = [1_000, 100_000, 1_000_000];

/// Live block counts of the allocator matrix: 1K and 10K, in quick and full mode. Not 100K:
/// the designs whose free scans a free list for the buddy (`buddy_scan`,
/// `buddy_system_allocator`) take 2 to 9 s per replay there, and every timed replay of a
/// mutating body needs a fresh setup, so one such benchmark alone would take minutes.
pub const ALLOC_SIZES: [usize; 2] = [1_000, 10_000];

/// How a run is configured, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteConfig {
    /// `DODBENCH_QUICK=1`: the whole matrix with short measurement.
    pub quick: bool,
    /// Live sizes of the ID-table family (`DODBENCH_SIZES=1000,65536` overrides).
    pub sizes: Vec<usize>,
    /// Whether `DODBENCH_SIZES` set the sizes (then every family uses them).
    pub sizes_from_env: bool,
    /// Trace seed (`DODBENCH_SEED` overrides).
    pub seed: u64,
}

impl SuiteConfig {
    /// Reads `DODBENCH_QUICK`, `DODBENCH_SIZES` and `DODBENCH_SEED`.
    ///
    /// # Errors
    /// A variable is set but unparsable.
    pub fn from_env() -> Result<Self, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let quick = match var("DODBENCH_QUICK").as_deref().map(str::trim) {
            None | Some("0") | Some("false") => false,
            Some("1") | Some("true") => true,
            Some(other) => return Err(format!("DODBENCH_QUICK={other}: use 1 or 0")),
        };
        let sizes_from_env = var("DODBENCH_SIZES").is_some();
        let sizes = match var("DODBENCH_SIZES") {
            None => DEFAULT_SIZES.to_vec(),
            Some(list) => list
                .split(',')
                .map(|s| {
                    s.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("DODBENCH_SIZES: {s:?} is not a positive integer"))
                })
                .collect::<Result<_, _>>()?,
        };
        let seed = match var("DODBENCH_SEED") {
            None => DEFAULT_SEED,
            Some(s) => s
                .trim()
                .parse()
                .map_err(|_| format!("DODBENCH_SEED={s}: not an unsigned integer"))?,
        };
        Ok(Self {
            quick,
            sizes,
            sizes_from_env,
            seed,
        })
    }

    /// The sizes family `family` runs at: `DODBENCH_SIZES` if set, else the family's matrix
    /// ([`DEFAULT_SIZES`], [`TAG_SIZES`], [`ALLOC_SIZES`]; quick mode drops the 1M tag size to
    /// stay within its time budget).
    pub fn sizes_for(&self, family: &str) -> Vec<usize> {
        if self.sizes_from_env {
            return self.sizes.clone();
        }
        match family {
            workloads::family::TAGS if self.quick => TAG_SIZES[..2].to_vec(),
            workloads::family::TAGS => TAG_SIZES.to_vec(),
            workloads::family::ALLOC => ALLOC_SIZES.to_vec(),
            _ => self.sizes.clone(),
        }
    }

    /// `quick` or `full`, as stored in results.
    pub fn mode(&self) -> &'static str {
        if self.quick { "quick" } else { "full" }
    }
}

/// A generated, validated trace of family `F` with the model's answers.
pub struct PreparedTrace<F: Family = IdTableFamily> {
    /// Generator name.
    pub workload: String,
    /// Live size.
    pub n: usize,
    /// Seed.
    pub seed: u64,
    /// The trace.
    pub trace: Trace<OpOf<F>>,
    /// What a correct replay observes.
    pub expected: Expected<F>,
}

impl<F: Family> PreparedTrace<F> {
    /// Generates `workload` at size `n` with default parameters and computes its answers.
    ///
    /// # Errors
    /// Unknown workload, or a generator produced an invalid trace (a bug, reported clearly).
    pub fn generate(workload: &str, n: usize, seed: u64) -> Result<Self, String> {
        let trace = workloads::registry::generate_for::<OpOf<F>>(workload, n, seed, None)
            .map_err(|e| e.to_string())?;
        Self::from_trace(trace)
    }

    /// Wraps a trace loaded from a file or recorded.
    ///
    /// # Errors
    /// The trace is invalid.
    pub fn from_trace(trace: Trace<OpOf<F>>) -> Result<Self, String> {
        let expected = Expected::of(&trace)
            .map_err(|e| format!("trace of {} is invalid: {e}", trace.header.generator))?;
        Ok(Self {
            workload: trace.header.generator.clone(),
            n: trace.header.n as usize,
            seed: trace.header.seed,
            trace,
            expected,
        })
    }
}

/// The results record of a registry entry.
pub fn design_record(family: ResultsFamily, info: &DesignInfo) -> DesignRecord {
    DesignRecord {
        family,
        name: info.name.to_string(),
        description: info.description.to_string(),
        kind: info.kind.label().to_string(),
        crate_version: crate_version(info.kind),
        id_bytes: info.id_bytes,
        detects_stale: info.detects_stale,
        capacity: info.capacity,
        limits: None,
    }
}

/// `crate version` of a peer, `None` for our own designs.
fn crate_version(kind: DesignKind) -> Option<String> {
    match kind {
        DesignKind::Peer {
            crate_name,
            version,
        } => Some(format!("{crate_name} {version}")),
        _ => None,
    }
}

/// The results record of a tag-store design. Its "ID" is the `u32` entity handle, which
/// carries no generation.
pub fn tag_design_record(info: &TagDesignInfo) -> DesignRecord {
    DesignRecord {
        family: ResultsFamily::Tags,
        name: info.name.to_string(),
        description: info.description.to_string(),
        kind: info.kind.label().to_string(),
        crate_version: match info.kind {
            TagDesignKind::Peer {
                crate_name,
                version,
            } => Some(format!("{crate_name} {version}")),
            _ => None,
        },
        id_bytes: std::mem::size_of::<impls::tags::Entity>(),
        detects_stale: false,
        capacity: None,
        limits: Some(match info.tags_per_entity_cap {
            Some(cap) => format!("at most {cap} tags per entity"),
            None => "no cap on tags per entity".to_string(),
        }),
    }
}

/// The results record of a block-allocator design. Its "ID" is a `usize` offset.
pub fn alloc_design_record(info: &AllocDesignInfo) -> DesignRecord {
    DesignRecord {
        family: ResultsFamily::Alloc,
        name: info.name.to_string(),
        description: info.description.to_string(),
        kind: info.kind.label().to_string(),
        crate_version: crate_version(info.kind),
        id_bytes: std::mem::size_of::<usize>(),
        detects_stale: false,
        capacity: None,
        limits: Some(format!(
            "alignment up to {}; {}; bad frees {}",
            info.max_align,
            if info.power_of_two_blocks {
                "power-of-two blocks"
            } else {
                "blocks of any size class"
            },
            match info.bad_free {
                BadFreeDetection::DebugOnly => "detected in debug builds only",
                BadFreeDetection::Always => "always detected",
            }
        )),
    }
}

/// `git rev-parse HEAD` of the working tree (`-dirty` if it has uncommitted changes), from
/// `DODBENCH_COMMIT` if set, else `unknown` outside a git checkout.
pub fn current_commit() -> String {
    if let Ok(c) = std::env::var("DODBENCH_COMMIT") {
        return c;
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{head}-dirty") } else { head }
        }
        None => "unknown".to_string(),
    }
}

/// The compiler that built this crate.
pub fn toolchain() -> &'static str {
    env!("DODBENCH_RUSTC_VERSION")
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The README's table of ID-table designs, generated from the registry (a test keeps the
/// README equal to it).
pub fn designs_markdown() -> String {
    let mut out = String::from(
        "| design | kind | ID bytes | detects stale IDs | capacity | description |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for d in impls::id_table::designs() {
        let kind = match d.kind {
            DesignKind::Peer {
                crate_name,
                version,
            } => format!("peer (`{crate_name}` {version})"),
            k => k.label().to_string(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            d.name,
            kind,
            d.id_bytes,
            if d.detects_stale { "yes" } else { "**no**" },
            d.capacity.map_or("growable".to_string(), |c| c.to_string()),
            d.description
        ));
    }
    out
}

/// The README's table of the workloads of `family` and their parameters, generated from the
/// registry.
pub fn workloads_markdown(family: &str) -> String {
    let mut out = String::from(
        "| workload | what the timed body does | parameters (default) |\n| --- | --- | --- |\n",
    );
    for w in workloads::registry::workloads_of(family) {
        let params = w
            .params
            .iter()
            .map(|p| format!("`{}` ({})", p.name, p.default))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!(
            "| `{}` | {}{} | {} |\n",
            w.name,
            w.description,
            if w.needs_stale_detection {
                " (needs stale-ID detection)"
            } else {
                ""
            },
            if params.is_empty() {
                "-".to_string()
            } else {
                params
            }
        ));
    }
    out
}

/// The README's table of tag-store designs, generated from the registry.
pub fn tag_designs_markdown() -> String {
    let mut out =
        String::from("| design | kind | limits | description |\n| --- | --- | --- | --- |\n");
    for d in impls::tags::tag_designs() {
        let r = tag_design_record(&d);
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            r.name,
            kind_cell(&r),
            r.limits.unwrap_or_default(),
            r.description
        ));
    }
    out
}

/// The README's table of block-allocator designs, generated from the registry.
pub fn alloc_designs_markdown() -> String {
    let mut out =
        String::from("| design | kind | limits | description |\n| --- | --- | --- | --- |\n");
    for d in impls::alloc::alloc_designs() {
        let r = alloc_design_record(&d);
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            r.name,
            kind_cell(&r),
            r.limits.unwrap_or_default(),
            r.description
        ));
    }
    out
}

/// `peer (`crate` version)` or the kind label.
fn kind_cell(r: &DesignRecord) -> String {
    match &r.crate_version {
        Some(cv) => {
            let (name, version) = cv.split_once(' ').unwrap_or((cv, ""));
            format!("peer (`{name}` {version})")
        }
        None => r.kind.clone(),
    }
}
