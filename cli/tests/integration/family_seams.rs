//! A family is one abstraction: outside its own files, no source file names it. This test
//! derives each family's names from the family list itself (its results name, the modules and
//! types of its family marker, op vocabulary and replayers), so a new family is checked with no
//! edit here, and fails on any file outside the allowed set that names one:
//!
//! * its designs: `impls/src/<family>/` (the module of its replayers' designs);
//! * its workloads: `workloads/src/<family>/` (the module of its op vocabulary: the ops, the
//!   trace builder, the generators and their registry lines), and converters
//!   `workloads/src/convert/`; inside `workloads`, `crate::<family>::` names it too;
//! * its replayer: `bench-harness/src/replay/<family>.rs` or `replay/<family>/`;
//! * the family list `family-list/src/lib.rs`, the one file a new family edits outside its own
//!   folders besides the module declarations below (ARCHITECTURE.md, "A family"); and the two
//!   files that name the families of files written before a family was named in them: the
//!   default vocabulary of trace files without one (`workloads/src/vocabularies.rs`) and the
//!   families of results of schema 1 to 3 (`results/src/family.rs`);
//! * `pub mod` / `pub use` lines of `lib.rs` and `mod.rs` files (module declarations);
//! * a use of another family's files that is the point of the using file, one entry each in
//!   [`CROSS_FAMILY`] with why.
//!
//! Unit-test modules (`#[cfg(test)]` to the end of a file), code examples in doc comments (doc
//! tests) and `tests/` directories are not scanned: tests exercise concrete families by design.
//! The report's templates, `scripts/` and `.ci/run` are scanned too, for the family's name
//! quoted and, in templates, as a field.

use std::any::type_name;
use std::path::{Path, PathBuf};

use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::{Family, Replayer, ReplayerVisitor, Role};

/// One family's names and the files allowed to use them.
#[derive(Debug, Default)]
struct FamilyNames {
    name: &'static str,
    /// Words (identifiers, `a::b` paths, a quoted string) that name the family.
    tokens: Vec<String>,
    /// Words that name it inside the `workloads` crate only (`crate::<module>::`; in the other
    /// crates, `crate::` paths are their own modules).
    workloads_tokens: Vec<String>,
    /// Path prefixes (relative to the workspace root) allowed to use them.
    allowed: Vec<String>,
}

/// `a::b::C<x::Y>` → (`["a", "b"]`, `"C"`): the module path and the type's own name.
fn split_type(path: &str) -> (Vec<&str>, &str) {
    let outer = path.split('<').next().unwrap_or(path);
    let mut parts: Vec<&str> = outer.split("::").collect();
    let ty = parts.pop().unwrap_or("");
    (parts, ty)
}

struct Collect(Vec<FamilyNames>);

impl FamilyVisitor for Collect {
    fn visit<F: Family>(&mut self) {
        let mut names = FamilyNames {
            name: F::NAME,
            ..FamilyNames::default()
        };
        names.tokens.push(format!("\"{}\"", F::NAME));
        // The family marker: `bench_harness::replay::<family>::XFamily`.
        let (modules, ty) = split_type(type_name::<F>());
        names.tokens.push(ty.to_string());
        let replay_module = modules.last().copied().unwrap_or_default().to_string();
        names.tokens.push(format!("replay::{replay_module}"));
        names
            .allowed
            .push(format!("bench-harness/src/replay/{replay_module}"));
        // The op vocabulary: `workloads::<family module>::XOp`, its module the family's folder.
        let (modules, ty) = split_type(type_name::<F::Op>());
        names.tokens.push(ty.to_string());
        let op_module = modules.last().copied().unwrap_or_default().to_string();
        names.tokens.push(format!("workloads::{op_module}"));
        names.workloads_tokens.push(format!("crate::{op_module}::"));
        names.allowed.push(format!("workloads/src/{op_module}/"));
        // The replayers: `...::XReplay<impls::<family>::<design>::Design>`.
        struct Replayers<'a>(&'a mut FamilyNames);
        impl<F: Family> ReplayerVisitor<F> for Replayers<'_> {
            fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
                let full = type_name::<R>();
                let (_, ty) = split_type(full);
                if role == Role::Design {
                    push_unique(&mut self.0.tokens, ty.to_string());
                }
                if let Some(inner) = full.split_once('<').map(|(_, i)| i)
                    && let Some(rest) = inner.strip_prefix("impls::")
                {
                    let design_module = rest.split("::").next().unwrap_or_default();
                    push_unique(&mut self.0.tokens, format!("impls::{design_module}"));
                    push_unique(&mut self.0.allowed, format!("impls/src/{design_module}/"));
                }
            }
        }
        F::for_each_replayer(&mut Replayers(&mut names));
        self.0.push(names);
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Files every family may appear in (see the module doc): the family list a new family edits,
/// converters it may add to, and the two files that name families for older files. Keep it
/// short, and ARCHITECTURE.md's list true.
const SHARED_ALLOWED: &[&str] = &[
    "family-list/src/lib.rs",
    "workloads/src/vocabularies.rs",
    "workloads/src/convert/",
    "results/src/family.rs",
];

/// Files that use one other family's files on purpose: (file, family named, why).
const CROSS_FAMILY: &[(&str, &str, &str)] = &[(
    "workloads/src/relations/gen/tags.rs",
    "tags",
    "`idx-tags` asks the tag article's question of an index, so it draws its tags from the tag \
     workloads' own vocabulary (`tags::builder`)",
)];

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "tests" && name != "target" && name != "fixtures" {
                rust_sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The path of `file` below `root`, with `/` between its parts.
fn relative(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Whether `word` occurs in `line` delimited by non-identifier characters.
fn contains_word(line: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        let open_start = word.starts_with(|c: char| !is_ident(c));
        let open_end = word.ends_with(|c: char| !is_ident(c));
        (open_start || !before.is_some_and(is_ident)) && (open_end || !after.is_some_and(is_ident))
    })
}

#[test]
fn no_file_outside_a_familys_own_names_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut collect = Collect(Vec::new());
    for_each_family(&mut collect);
    let families = collect.0;
    assert!(families.len() >= 3, "{families:?}");
    // The family list, the two files that name families for older files, and converters: one
    // more would make a new family edit more files than ARCHITECTURE.md promises.
    assert!(SHARED_ALLOWED.len() <= 4, "{SHARED_ALLOWED:?}");
    let mut files = Vec::new();
    for krate in [
        "family-list",
        "impls",
        "workloads",
        "bench-harness",
        "results",
        "reports",
        "cli",
    ] {
        rust_sources(&root.join(krate).join("src"), &mut files);
        rust_sources(&root.join(krate).join("benches"), &mut files);
    }
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut violations = Vec::new();
    for file in &files {
        let rel = relative(&root, file);
        if SHARED_ALLOWED.iter().any(|a| rel.starts_with(a)) {
            continue;
        }
        let is_module_file = rel.ends_with("/lib.rs") || rel.ends_with("/mod.rs");
        let text = std::fs::read_to_string(file).unwrap();
        let mut in_doc_example = false;
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            // Code examples in doc comments are doc tests, exempt like the unit tests.
            let doc = line.trim_start();
            if (doc.starts_with("///") || doc.starts_with("//!"))
                && doc
                    .trim_start_matches('/')
                    .trim_start_matches('!')
                    .trim()
                    .starts_with("```")
            {
                in_doc_example = !in_doc_example;
                continue;
            }
            if in_doc_example {
                continue;
            }
            let declaration = line.trim_start().starts_with("pub mod ")
                || line.trim_start().starts_with("pub use ");
            if is_module_file && declaration {
                continue;
            }
            for f in &families {
                if f.allowed.iter().any(|a| rel.starts_with(a.as_str()))
                    || CROSS_FAMILY
                        .iter()
                        .any(|(file, family, _)| rel == *file && f.name == *family)
                {
                    continue;
                }
                let in_workloads = rel.starts_with("workloads/src/");
                let mut tokens = f
                    .tokens
                    .iter()
                    .chain(f.workloads_tokens.iter().filter(|_| in_workloads));
                if let Some(token) = tokens.find(|t| contains_word(line, t)) {
                    violations.push(format!(
                        "{rel}:{}: names family {} ({token}): {}",
                        number + 1,
                        f.name,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "{} lines name a family outside its own files (see ARCHITECTURE.md, \"Adding things\", \
         \"A family\"):\n{}",
        violations.len(),
        violations.join("\n")
    );
}

/// The report's templates, the scripts and the CI steps name no family either: the report's
/// family sections are built from the specs a run records, and `.ci/run` takes the family
/// list from `dodbench list --families`. Checked words: the family's name quoted (`"tags"`,
/// `'tags'`) and, in templates, a field of that name (`s.tags`).
#[test]
fn no_template_script_or_ci_step_names_a_family() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut collect = Collect(Vec::new());
    for_each_family(&mut collect);
    let mut files: Vec<PathBuf> = vec![root.join(".ci/run")];
    for dir in ["reports/templates", "scripts"] {
        let entries = std::fs::read_dir(root.join(dir)).unwrap();
        files.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_file()));
    }
    assert!(files.len() >= 8, "{files:?}");
    let mut violations = Vec::new();
    for file in &files {
        let rel = relative(&root, file);
        let template = rel.starts_with("reports/templates/");
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            for f in &collect.0 {
                let mut words = vec![format!("\"{}\"", f.name), format!("'{}'", f.name)];
                if template {
                    words.push(format!(".{}", f.name));
                }
                if let Some(word) = words.iter().find(|w| contains_word(line, w)) {
                    violations.push(format!(
                        "{rel}:{}: names family {} ({word}): {}",
                        number + 1,
                        f.name,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "{} lines of templates, scripts or CI steps name a family:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn the_word_matcher_respects_identifier_boundaries() {
    assert!(contains_word("use impls::tags::TagStore;", "impls::tags"));
    assert!(!contains_word("use impls::tags_extra;", "impls::tags"));
    assert!(contains_word("x(\"tags\")", "\"tags\""));
    assert!(!contains_word("MyTagStoreX", "TagStore"));
    assert!(contains_word(
        "workloads::tags::TagStats",
        "workloads::tags"
    ));
    assert!(!contains_word("workloads::tags_extra", "workloads::tags"));
    assert!(contains_word("use crate::tags::builder;", "crate::tags::"));
    assert!(contains_word("{% if s.tags %}", ".tags"));
    assert!(!contains_word("{% if s.tags_seen %}", ".tags"));
    assert!(contains_word("expected = {'alloc', 'tags'}", "'tags'"));
}
