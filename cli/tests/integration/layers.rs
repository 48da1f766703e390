//! The architecture's two structural invariants, checked on the source tree:
//!
//! * the crates are layers and every dependency points down (`family-list`, the one list of
//!   families, at the very bottom; `impls`, `workloads` and `results` above it; `bench-harness`
//!   joins them; `reports` reads `results` only; the
//!   `dodbench` crate, with the CLI and the criterion driver, on top);
//! * within each crate, the top-level modules import each other without a cycle (a child
//!   module using its parent's items is not an edge);
//! * no source file is longer than [`MOST_LINES`]: a longer one is split along its seams (a
//!   module's tests in `<module>/tests.rs`, a table of its own, a step of its own).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The workspace crates (directory, package name) and the workspace crates each may depend on
/// (normal, dev or build dependencies alike).
const LAYERS: &[(&str, &str, &[&str])] = &[
    ("family-list", "family-list", &[]),
    ("impls", "impls", &[]),
    ("workloads", "workloads", &["family-list"]),
    ("results", "results", &["family-list"]),
    (
        "bench-harness",
        "bench-harness",
        &["family-list", "impls", "workloads", "results"],
    ),
    ("reports", "reports", &["results"]),
    (
        "cli",
        "dodbench",
        &["impls", "workloads", "results", "bench-harness", "reports"],
    ),
];

/// The workspace crates a `Cargo.toml` names as path dependencies.
fn path_dependencies(manifest: &str) -> BTreeSet<String> {
    manifest
        .lines()
        .filter(|l| l.contains("path = \"../"))
        .filter_map(|l| {
            let name = l.split('=').next()?.trim();
            Some(name.trim_matches('"').to_string())
        })
        .collect()
}

#[test]
fn crate_dependencies_point_down() {
    let members: Vec<&str> = LAYERS.iter().map(|l| l.1).collect();
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for (dir, _, _) in LAYERS {
        assert!(
            workspace.contains(&format!("\"{dir}\"")),
            "{dir} is not a workspace member"
        );
    }
    for (dir, name, allowed) in LAYERS {
        let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
        for dep in path_dependencies(&manifest) {
            assert!(
                members.contains(&dep.as_str()),
                "{name} depends on {dep}, which is not a known layer"
            );
            assert!(
                allowed.contains(&dep.as_str()),
                "{name} depends on {dep}: an arrow that does not point down (allowed: {allowed:?})"
            );
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for the crate root).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let module = first.trim_end_matches(".rs").to_string();
    (module != "lib" && module != "main").then_some(module)
}

/// The top-level modules `text` refers to as `crate::m` (unit tests excluded).
fn crate_references(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&name) {
                refs.insert(name);
            } else if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a::X, b};`
                let group = group.split('}').next().unwrap_or("");
                for item in group.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if modules.contains(name) {
                        refs.insert(name.to_string());
                    }
                }
            }
        }
    }
    refs
}

/// A cycle in `graph`, if any, as a path of modules.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let start = stack.iter().position(|m| m == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node.as_str())
            && let Some(c) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn no_import_cycle_between_the_modules_of_a_crate() {
    for (dir, name, _) in LAYERS {
        let src = root().join(dir).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(&src, f)).collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let Some(from) = top_module(&src, file) else {
                continue;
            };
            let text = std::fs::read_to_string(file).unwrap();
            let edges = graph.entry(from.clone()).or_default();
            for to in crate_references(&text, &modules) {
                if to != from {
                    edges.insert(to);
                }
            }
        }
        if let Some(cycle) = find_cycle(&graph) {
            panic!(
                "crate {name}: modules import each other in a cycle: {}",
                cycle.join(" -> ")
            );
        }
    }
}

/// The most lines a Rust source file of the workspace has (its crates' `src/`, `tests/`,
/// `benches/` and the examples).
const MOST_LINES: usize = 800;

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let mut files = Vec::new();
    for (dir, _, _) in LAYERS {
        for part in ["src", "tests", "benches"] {
            let path = root().join(dir).join(part);
            if path.is_dir() {
                rust_files(&path, &mut files);
            }
        }
    }
    rust_files(&root().join("examples"), &mut files);
    assert!(files.len() > 100, "found only {} files", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).unwrap().lines().count();
            (lines > MOST_LINES).then(|| {
                let rel = f.strip_prefix(root()).unwrap_or(f);
                format!("{} ({lines} lines)", rel.display())
            })
        })
        .collect();
    assert!(long.is_empty(), "over {MOST_LINES} lines: {long:?}");
}

/// Calls that visit every family or every design of a family: each compiles the replays of all
/// the designs it can reach.
const EVERY_DESIGN: &[&str] = &[
    "for_each_family(",
    "with_family(",
    "for_each_replayer",
    "for_each_verified(",
    "run_child(",
];

/// The unit tests of `bench-harness` (its `#[cfg(test)]` modules) reach a few designs each, so
/// its unit-test build compiles little of the library's code again: a test that visits every
/// family or every design (the family list, a design picked by name) lives in the package's
/// integration tests, which link the library's replays instead of compiling them again (with
/// such tests the unit-test build compiled about as much code as the library itself; see
/// `cargo test --no-run --timings`).
#[test]
fn the_harness_unit_tests_visit_no_whole_family() {
    let mut files = Vec::new();
    rust_files(&root().join("bench-harness/src"), &mut files);
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let Some(at) = text.find("#[cfg(test)]") else {
            continue;
        };
        for call in unit_test_calls(&text[at..]) {
            let rel = file.strip_prefix(root()).unwrap_or(file);
            found.push(format!("{}: {call}", rel.display()));
        }
    }
    assert!(
        found.is_empty(),
        "unit tests that visit a whole family (move them to bench-harness/tests/integration): \
         {found:?}"
    );
}

/// The calls of [`EVERY_DESIGN`] in `tests` (comments left out).
fn unit_test_calls(tests: &str) -> Vec<&'static str> {
    let code = tests
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    EVERY_DESIGN
        .iter()
        .copied()
        .filter(|call| code.contains(call))
        .collect()
}

#[test]
fn the_checks_see_what_they_check() {
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let refs = crate_references(
        "use crate::a::X;\nuse crate::{b::Y, c};\n// crate::a\n#[cfg(test)]\nuse crate::z;",
        &modules,
    );
    assert_eq!(refs, modules);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(find_cycle(&graph).is_some());
    graph.insert("b".to_string(), BTreeSet::new());
    assert!(find_cycle(&graph).is_none());
    assert_eq!(
        path_dependencies("x = { path = \"../impls\" }\nimpls = { path = \"../impls\" }"),
        BTreeSet::from(["impls".to_string(), "x".to_string()])
    );
    assert_eq!(
        unit_test_calls("fn t() {\n    // for_each_family(\n    for_each_family(&mut v);\n}"),
        ["for_each_family("]
    );
    assert!(unit_test_calls("fn t() { family_names(); }").is_empty());
}
