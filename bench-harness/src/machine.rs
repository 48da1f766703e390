//! Probes the machine a run is measured on: CPU, core count and cache sizes read from sysfs,
//! into the plain [`Machine`] record of the results schema.
//!
//! Missing or odd files give `None` ("unknown" in reports), never an error: containers and
//! non-Linux systems often hide them.

use std::path::Path;

use results::machine::{CacheSizes, Machine};

/// Reads the machine this process runs on.
pub fn probe() -> Machine {
    let counters = crate::measure::counters::availability();
    Machine {
        name: machine_name(
            std::env::var("DODBENCH_MACHINE").ok(),
            std::fs::read_to_string("/etc/hostname").ok(),
        ),
        cpu_model: std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| cpu_model(&s))
            .unwrap_or_else(|| "unknown".to_string()),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        caches: read_cache_sizes(Path::new("/sys/devices/system/cpu/cpu0/cache")),
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        hw_counters_available: counters.is_ok(),
        hw_counters_reason: counters.err(),
    }
}

/// The machine's name: `DODBENCH_MACHINE` when set and not blank, else the host name, else
/// `unknown`.
fn machine_name(env: Option<String>, hostname: Option<String>) -> String {
    [env, hostname]
        .into_iter()
        .flatten()
        .map(|s| s.trim().to_string())
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Reads `index*/{level,type,size}` under `dir` (sysfs layout). Unreadable or unparsable
/// entries are skipped.
pub fn read_cache_sizes(dir: &Path) -> CacheSizes {
    let mut caches = CacheSizes::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return caches;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_index = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("index"));
        if !is_index {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(path.join(f)).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let Some(size) = parse_size(&size) else {
            continue;
        };
        let slot = match (level.trim(), kind.trim()) {
            ("1", "Data") => &mut caches.l1d,
            ("2", "Unified" | "Data") => &mut caches.l2,
            ("3", "Unified" | "Data") => &mut caches.l3,
            _ => continue,
        };
        *slot = Some(size);
    }
    caches
}

/// Parses sysfs sizes such as `48K`, `2048K`, `1M`, `32768`.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, mult) = match t.as_bytes().last()? {
        b'K' | b'k' => (&t[..t.len() - 1], 1 << 10),
        b'M' | b'm' => (&t[..t.len() - 1], 1 << 20),
        b'G' | b'g' => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(mult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_name_prefers_the_environment_then_the_host_name() {
        let s = |v: &str| Some(v.to_string());
        assert_eq!(machine_name(s("ci-runner"), s("box\n")), "ci-runner");
        assert_eq!(machine_name(s("  "), s("box\n")), "box");
        assert_eq!(machine_name(None, None), "unknown");
    }

    #[test]
    fn parses_sysfs_sizes() {
        assert_eq!(parse_size("48K\n"), Some(48 * 1024));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("32768"), Some(32768));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("K"), None);
    }

    #[test]
    fn reads_cache_dirs_and_skips_missing_or_odd_files() {
        let dir = tempfile::tempdir().unwrap();
        let mk = |name: &str, files: &[(&str, &str)]| {
            let d = dir.path().join(name);
            std::fs::create_dir_all(&d).unwrap();
            for (f, v) in files {
                std::fs::write(d.join(f), v).unwrap();
            }
        };
        mk(
            "index0",
            &[("level", "1\n"), ("type", "Data\n"), ("size", "48K\n")],
        );
        mk(
            "index1",
            &[
                ("level", "1\n"),
                ("type", "Instruction\n"),
                ("size", "64K\n"),
            ],
        );
        mk(
            "index2",
            &[
                ("level", "2\n"),
                ("type", "Unified\n"),
                ("size", "garbage\n"),
            ],
        );
        mk("index3", &[("level", "3\n"), ("type", "Unified\n")]);
        mk(
            "power",
            &[("level", "3\n"), ("type", "Unified\n"), ("size", "1M")],
        );
        let caches = read_cache_sizes(dir.path());
        assert_eq!(
            caches,
            CacheSizes {
                l1d: Some(48 * 1024),
                l2: None,
                l3: None
            }
        );
        assert_eq!(
            read_cache_sizes(&dir.path().join("absent")),
            CacheSizes::default()
        );
    }

    #[test]
    fn finds_the_cpu_model() {
        assert_eq!(
            cpu_model("processor\t: 0\nmodel name\t: Test CPU @ 3GHz\n").as_deref(),
            Some("Test CPU @ 3GHz")
        );
        assert_eq!(cpu_model("processor: 0\n"), None);
    }
}
