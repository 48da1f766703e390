//! The benchmark matrix shared by `cargo bench` and the CLI: which sizes and seed, which
//! traces, and the run metadata (designs, commit, toolchain) written to results.json.

use impls::id_table::{DesignInfo, DesignKind};
use workloads::Trace;

use crate::replay::{Family, IdTableFamily, OpOf};
use crate::results::DesignRecord;
use crate::verify::Expected;

/// Family name of the ID lookup tables in results.
pub const ID_TABLE_FAMILY: &str = "id_table";

/// Seed of every generated trace unless `DODBENCH_SEED` says otherwise.
pub const DEFAULT_SEED: u64 = 0xD0D_BE4C;

/// Live sizes of the default matrix: 1K, 64K and 1M objects.
pub const DEFAULT_SIZES: [usize; 3] = [1_000, 65_536, 1_000_000];

/// How a run is configured, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteConfig {
    /// `DODBENCH_QUICK=1`: the whole matrix with short measurement.
    pub quick: bool,
    /// Live sizes (`DODBENCH_SIZES=1000,65536` overrides).
    pub sizes: Vec<usize>,
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
        Ok(Self { quick, sizes, seed })
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
pub fn design_record(family: &str, info: &DesignInfo) -> DesignRecord {
    DesignRecord {
        family: family.to_string(),
        name: info.name.to_string(),
        description: info.description.to_string(),
        kind: info.kind.label().to_string(),
        crate_version: match info.kind {
            DesignKind::Peer {
                crate_name,
                version,
            } => Some(format!("{crate_name} {version}")),
            _ => None,
        },
        id_bytes: info.id_bytes,
        detects_stale: info.detects_stale,
        capacity: info.capacity,
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

/// The README's table of the ID-table workloads and their parameters, generated from the
/// registry (the tag and allocator families' workloads are not in it yet).
pub fn workloads_markdown() -> String {
    let mut out = String::from(
        "| workload | what the timed body does | parameters (default) |\n| --- | --- | --- |\n",
    );
    for w in workloads::registry::workloads_of(workloads::family::ID_TABLE) {
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
