//! The history of runs: one JSON object per line, keyed by commit and date, appended by
//! `dodbench compare --history FILE` or `dodbench history append`. The report draws its trend
//! charts from [`load`].
//!
//! Appends are atomic for readers: each entry is one `write` of a whole line on a file opened
//! with `O_APPEND`, followed by `fsync`. A crash can at worst leave a partial *last* line;
//! [`load`] reports it as a [`CorruptLine`] and keeps every other entry, and the next
//! [`append`] starts on a fresh line so the partial one never swallows a good entry.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::compare::metrics::TIME_METRIC;
use crate::compare::rules::NoiseBand;
use crate::compare::{BenchKey, CompareError, References, Run};
use crate::family::Family;
use crate::files::{Destination, destination, write_atomically};
use crate::schema::Status;

/// Version of the line layout, stored in every line. (Per-family references, `references` and
/// each point's `reference`, were added within version 1 as optional fields; older lines have
/// one `reference` for every family.)
pub const HISTORY_VERSION: u32 = 1;

/// One run's summary: one line of the history file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// [`HISTORY_VERSION`] of the writer.
    pub history_version: u32,
    /// Commit of the measured tree (`-dirty` suffix when it had changes).
    pub commit: String,
    /// When the run finished, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// The same instant in seconds since the Unix epoch.
    pub created_unix: u64,
    /// `quick` or `full`, if known.
    pub mode: Option<String>,
    /// The machine the run was measured on (`machine.name` of the results; `unknown` for
    /// lines written before it was recorded). Trend charts draw one line per design and
    /// machine.
    #[serde(default = "unknown_machine")]
    pub machine: String,
    /// The one design every family's times were normalised by in
    /// [`HistoryPoint::time_vs_reference`]: an explicit override, or any line written before
    /// per-family references (`holey`). `None` when each family used its own (`references`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Family → the design its times were normalised by.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub references: BTreeMap<Family, String>,
    /// One point per benchmark.
    pub benchmarks: Vec<HistoryPoint>,
    /// The bench step's wall milliseconds per cell (`family/workload/n`), as the results file
    /// records them: what a later run split into shards deals its cells by
    /// (`DODBENCH_SHARD_TIMES` takes a history file too). Empty for runs that recorded none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cell_ms: BTreeMap<String, u64>,
}

/// One benchmark of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// Family.
    pub family: Family,
    /// Workload.
    pub workload: String,
    /// Design.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Whether the design was verified.
    pub status: Status,
    /// Metric name → value (see `compare::metrics::METRICS`), including `ns_per_op`'s median.
    pub metrics: BTreeMap<String, f64>,
    /// `ns_per_op` interval `[lower, upper]`, when timed.
    pub ns_per_op_interval: Option<[f64; 2]>,
    /// `ns_per_op` divided by the reference design's on the same workload and n, when both
    /// were timed: the number to chart across machines.
    pub time_vs_reference: Option<f64>,
    /// The design `time_vs_reference` was divided by (absent in older lines: see
    /// [`HistoryEntry::reference_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// A line [`load`] could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptLine {
    /// 1-based line number.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// Why the history could not be read or appended to.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// I/O on the history file.
    #[error("history {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl HistoryEntry {
    /// Summarises a run; times are normalised by each family's reference design (see
    /// [`References::resolve`]), or by `reference` in every family when given.
    ///
    /// # Errors
    /// [`CompareError::UnknownReference`] when `reference` names a design the run lacks.
    pub fn from_run(run: &Run, reference: Option<&str>) -> Result<Self, CompareError> {
        let references = References::resolve(None, run, reference)?;
        let created_unix = run.created_unix.unwrap_or_else(unix_now);
        let benchmarks = run
            .benchmarks
            .iter()
            .map(|b| {
                let time = b.metrics.get(TIME_METRIC);
                HistoryPoint {
                    family: b.key.family,
                    workload: b.key.workload.clone(),
                    design: b.key.design.clone(),
                    n: b.key.n,
                    status: b.status,
                    metrics: b
                        .metrics
                        .iter()
                        .map(|(k, m)| (k.clone(), m.value))
                        .collect(),
                    ns_per_op_interval: time.and_then(|t| Some([t.lower?, t.upper?])),
                    time_vs_reference: references.time_vs_reference(run, &b.key).map(|m| m.value),
                    reference: references.design_of(run, &b.key).map(str::to_string),
                }
            })
            .collect();
        Ok(Self {
            history_version: HISTORY_VERSION,
            commit: run.commit.clone(),
            date: utc_date(created_unix),
            created_unix,
            mode: run.mode.clone(),
            machine: run.machine.clone().unwrap_or_else(unknown_machine),
            reference: references.explicit().map(str::to_string),
            references: references.by_family().clone(),
            benchmarks,
            cell_ms: crate::step::bench_cell_ms(&run.steps),
        })
    }

    /// The design `point`'s `time_vs_reference` was divided by: the point's own, else its
    /// family's in this entry, else the entry's one reference (lines written before
    /// per-family references).
    pub fn reference_of<'a>(&'a self, point: &'a HistoryPoint) -> Option<&'a str> {
        point
            .reference
            .as_deref()
            .or_else(|| self.references.get(&point.family).map(String::as_str))
            .or(self.reference.as_deref())
    }
}

/// Runs of a history a noise band is learned from, the latest first.
pub const NOISE_RUNS: usize = 20;

/// Fewest runs a noise band needs; a benchmark with fewer keeps `compare`'s fixed threshold.
pub const MIN_NOISE_RUNS: usize = 5;

/// Each benchmark's time noise on `machine` in `mode`, learned from `entries` (a history, in
/// file order): the spread of its time over the reference design in its last [`NOISE_RUNS`]
/// runs there, `(largest - smallest) / median`, for a benchmark with at least
/// [`MIN_NOISE_RUNS`] of them. `compare` flags a time change only beyond its band
/// ([`Rules::noise`](crate::compare::Rules::noise)).
pub fn noise_bands(
    entries: &[HistoryEntry],
    machine: &str,
    mode: Option<&str>,
) -> BTreeMap<BenchKey, NoiseBand> {
    let mut times: BTreeMap<BenchKey, Vec<f64>> = BTreeMap::new();
    let same = entries
        .iter()
        .rev()
        .filter(|e| e.machine == machine && e.mode.as_deref() == mode);
    for entry in same {
        for p in &entry.benchmarks {
            let Some(t) = p.time_vs_reference.filter(|t| t.is_finite() && *t > 0.0) else {
                continue;
            };
            let key = BenchKey {
                family: p.family,
                workload: p.workload.clone(),
                design: p.design.clone(),
                n: p.n,
            };
            let runs = times.entry(key).or_default();
            if runs.len() < NOISE_RUNS {
                runs.push(t);
            }
        }
    }
    times
        .into_iter()
        .filter(|(_, t)| t.len() >= MIN_NOISE_RUNS)
        .map(|(key, mut t)| {
            t.sort_by(f64::total_cmp);
            let median = t[t.len() / 2];
            let spread = (t[t.len() - 1] - t[0]) / median;
            (
                key,
                NoiseBand {
                    runs: t.len(),
                    spread,
                },
            )
        })
        .collect()
}

/// The machine of lines written before the history recorded it.
fn unknown_machine() -> String {
    "unknown".to_string()
}

/// Seconds since the Unix epoch (for runs that do not record when they finished).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Appends one entry as one line, by the rule of [`crate::write_atomically`]: a symbolic
/// link is followed (the link stays, a dangling one's target is created), `-`, a FIFO or a
/// character device gets the line written through, a directory, block device or socket is
/// refused; a regular file (missing parent directories created) is appended to in place, not
/// replaced.
///
/// # Errors
/// [`HistoryError::Io`]; the earlier lines are never rewritten.
pub fn append(path: &Path, entry: &HistoryEntry) -> Result<(), HistoryError> {
    let io = |source| HistoryError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut line = Vec::new();
    serde_json::to_writer(&mut line, entry).expect("history entry serialises");
    line.push(b'\n');
    let file = match destination(path).map_err(io)? {
        Destination::File(file) => file,
        Destination::Stdout | Destination::Stream(_) => {
            return write_atomically(path, &line).map_err(io);
        }
    };
    if let Some(dir) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(&file)
        .map_err(io)?;
    if !ends_with_newline(&mut file).map_err(io)? {
        // A crash left a partial last line: end it so this entry stays readable.
        line.insert(0, b'\n');
    }
    file.write_all(&line).map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(())
}

/// Whether the file is empty or ends with `\n`.
fn ends_with_newline(file: &mut std::fs::File) -> std::io::Result<bool> {
    let len = file.seek(SeekFrom::End(0))?;
    if len == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Reads every entry, skipping (and reporting) lines that are not valid entries. A missing
/// file is an empty history.
///
/// # Errors
/// [`HistoryError::Io`] when the file exists but cannot be read.
pub fn load(path: &Path) -> Result<(Vec<HistoryEntry>, Vec<CorruptLine>), HistoryError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(source) => {
            return Err(HistoryError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mut entries = Vec::new();
    let mut corrupt = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<HistoryEntry>(line) {
            Ok(e) if e.history_version == HISTORY_VERSION => entries.push(e),
            Ok(e) => corrupt.push(CorruptLine {
                line: i + 1,
                reason: format!("history version {}", e.history_version),
            }),
            Err(e) => corrupt.push(CorruptLine {
                line: i + 1,
                reason: e.to_string(),
            }),
        }
    }
    Ok((entries, corrupt))
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time (proleptic Gregorian, UTC).
pub fn utc_date(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_written_before_per_family_references() {
        let line = r#"{"history_version":1,"commit":"c","date":"1970-01-01T00:00:00Z",
            "created_unix":0,"mode":null,"reference":"holey","benchmarks":[{"family":"tags",
            "workload":"w","design":"d","n":1,"status":"verified","metrics":{},
            "ns_per_op_interval":null,"time_vs_reference":1.5}]}"#;
        let e: HistoryEntry = serde_json::from_str(line).unwrap();
        assert_eq!(e.reference_of(&e.benchmarks[0]), Some("holey"));
        assert_eq!(e.benchmarks[0].family, Family::Tags);
        assert_eq!(
            e.machine, "unknown",
            "lines before machine names read as unknown"
        );
    }

    #[cfg(unix)]
    #[test]
    fn append_follows_a_symlink_and_refuses_a_directory() {
        let entry: HistoryEntry = serde_json::from_str(
            r#"{"history_version":1,"commit":"c","date":"1970-01-01T00:00:00Z",
            "created_unix":0,"mode":null,"benchmarks":[]}"#,
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("history.jsonl");
        std::os::unix::fs::symlink("kept/history.jsonl", &link).unwrap();
        append(&link, &entry).unwrap();
        // A partial line left by a crash is ended, not continued.
        let target = dir.path().join("kept/history.jsonl");
        let mut partial = std::fs::OpenOptions::new()
            .append(true)
            .open(&target)
            .unwrap();
        partial.write_all(b"{\"cut").unwrap();
        append(&link, &entry).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        let (entries, corrupt) = load(&link).unwrap();
        assert_eq!((entries.len(), corrupt.len()), (2, 1));
        let e = append(dir.path(), &entry).unwrap_err();
        assert!(e.to_string().ends_with(": Is a directory"), "{e}");
    }

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14T22:13:20Z");
    }
}
