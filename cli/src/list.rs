//! `dodbench list`: every family's designs (from its registry's results records) and every
//! workload with its parameters.

use anyhow::Result;
use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::{Family, Replayer, ReplayerVisitor, Role};

use crate::Gate;

/// Prints one family's designs.
struct ListFamily;

impl FamilyVisitor for ListFamily {
    fn visit<F: Family>(&mut self) {
        println!("{} (family {}):", F::TITLE, F::NAME);
        let records = F::design_records();
        let width = records
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(0)
            .max(20);
        for r in &records {
            let limits = match &r.limits {
                Some(l) => l.clone(),
                None => format!(
                    "{}B ID, stale IDs {}, capacity {}",
                    r.id_bytes,
                    if r.detects_stale {
                        "detected"
                    } else {
                        "NOT detected"
                    },
                    r.capacity.map_or("growable".to_string(), |c| c.to_string())
                ),
            };
            let reference = if r.name == F::REFERENCE_DESIGN {
                " [time reference]"
            } else {
                ""
            };
            let peer = r
                .crate_version
                .as_ref()
                .map_or(String::new(), |v| format!(" [{v}]"));
            println!(
                "  {:<width$} {:<8} {}{peer}{reference}\n  {:<width$} {:<8} {limits}",
                r.name, r.kind, r.description, "", ""
            );
            if let (Some(idiom), Some(docs)) = (&r.idiom, &r.docs) {
                println!("  {:<width$} {:<8} used as: {idiom}", "", "");
                println!("  {:<width$} {:<8} docs: {docs}", "", "");
            }
        }
        struct References;
        impl<F: Family> ReplayerVisitor<F> for References {
            fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
                if role == Role::Reference {
                    println!(
                        "  {:<20} reference (timed beside the designs, never ranked)",
                        R::design_name()
                    );
                }
            }
        }
        F::for_each_replayer(&mut References);
        println!();
    }
}

/// Prints the designs of every family, then the workloads.
///
/// # Errors
/// Never (stdout errors panic as `println!` does).
pub fn run() -> Result<Gate> {
    for_each_family(&mut ListFamily);
    println!("Workloads:");
    for w in workloads::registry::workloads() {
        let recorded = if w.recorded {
            " (recorded trace: n is ignored)"
        } else {
            ""
        };
        println!(
            "  {:<26} [{}] {}{recorded}",
            w.name, w.family, w.description
        );
        for p in &w.params {
            println!(
                "      {:<14} default {:<10} {}",
                p.name,
                p.default.to_string(),
                p.description
            );
        }
    }
    Ok(Gate::Pass)
}
