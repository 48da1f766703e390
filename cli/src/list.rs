//! `dodbench list`: every family's designs (from its registry's results records) and metric
//! specs, and every workload with its parameters; `--families`: the family names alone.

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
            if let Some(adapter) = &r.adapter {
                println!("  {:<width$} {:<8} adapter adds: {adapter}", "", "");
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
        if let Some(section) = F::metric_section() {
            println!("  metrics beyond time ({}):", section.title);
            for m in &section.specs {
                let how = match (m.better, m.deterministic) {
                    (Some(d), true) => format!("{d:?} is better, gated by compare"),
                    (Some(d), false) => format!("{d:?} is better, shown"),
                    (None, _) => "fixed by the trace, shown".to_string(),
                };
                println!(
                    "    {:<32} {:<24} {}",
                    m.compare_name(),
                    m.label,
                    how.to_lowercase()
                );
            }
        }
        println!();
    }
}

/// Prints the family names, one per line (`dodbench list --families`, for scripts).
fn family_names() {
    for name in bench_harness::families::family_names() {
        println!("{name}");
    }
}

/// Prints the designs of every family with its metrics, then the workloads; with
/// `families_only`, the family names alone.
///
/// # Errors
/// Never (stdout errors panic as `println!` does).
pub fn run(families_only: bool) -> Result<Gate> {
    if families_only {
        family_names();
        return Ok(Gate::Pass);
    }
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
