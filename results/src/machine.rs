//! What machine a run was measured on, as plain data: CPU, core count and cache sizes.
//!
//! The probing (reading `/proc/cpuinfo` and sysfs, opening hardware counters) lives in the
//! harness (`bench_harness::machine::probe`); this crate only stores and reads the result.
//! Unknown values are `None` or `unknown` ("unknown" in reports), never an error: containers
//! and non-Linux systems often hide them.

use serde::{Deserialize, Serialize};

/// Cache sizes in bytes of the first CPU, `None` when unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSizes {
    /// Level 1 data cache.
    pub l1d: Option<u64>,
    /// Level 2 (unified) cache.
    pub l2: Option<u64>,
    /// Level 3 (unified) cache; on shared hosts this is the whole socket's.
    pub l3: Option<u64>,
}

/// The machine section of `results.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// What the user calls the machine: `DODBENCH_MACHINE`, else the host name, else
    /// `unknown` (files written before the field read as `unknown`). Reports and exports tell
    /// machines apart by it.
    #[serde(default = "unknown")]
    pub name: String,
    /// CPU model name from `/proc/cpuinfo`, or `unknown`.
    pub cpu_model: String,
    /// Logical cores available to this process.
    pub cores: usize,
    /// Cache sizes from sysfs.
    pub caches: CacheSizes,
    /// `std::env::consts::OS` / `ARCH`.
    pub os: String,
    /// CPU architecture.
    pub arch: String,
    /// Whether hardware counters (`perf_event_open`) could be opened.
    #[serde(default)]
    pub hw_counters_available: bool,
    /// Why not, when they could not.
    #[serde(default)]
    pub hw_counters_reason: Option<String>,
}

fn unknown() -> String {
    "unknown".to_string()
}

impl Machine {
    /// A machine record for tests and results files made by hand: `name`, two cores, Linux on
    /// x86_64, unknown caches and no hardware counters.
    pub fn test_box(name: &str) -> Machine {
        Machine {
            name: name.into(),
            cpu_model: "test".into(),
            cores: 2,
            caches: CacheSizes::default(),
            os: "linux".into(),
            arch: "x86_64".into(),
            hw_counters_available: false,
            hw_counters_reason: None,
        }
    }
}
