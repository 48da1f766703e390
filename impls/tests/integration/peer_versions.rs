//! Keeps the registries' fairness labels true: every peer design of every family names the
//! crate version that `Cargo.lock` actually resolves,
//! and the lock resolves only that version, so results never claim a version that was not
//! measured.

use std::collections::HashMap;

use impls::DesignMeta;
use impls::alloc::alloc_designs;
use impls::id_table::{DesignKind, designs};
use impls::relations::relation_designs;
use impls::tags::tag_designs;
use impls::transforms::transform_designs;

/// `name -> versions` of every `[[package]]` in a `Cargo.lock` (v3/v4 format: `name = "..."`
/// followed by `version = "..."` in each package table).
fn locked_versions(lock: &str) -> HashMap<String, Vec<String>> {
    fn quoted<'a>(line: &'a str, key: &str) -> Option<&'a str> {
        line.strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?
            .trim()
            .strip_prefix('"')?
            .strip_suffix('"')
    }
    let mut versions: HashMap<String, Vec<String>> = HashMap::new();
    for package in lock.split("[[package]]").skip(1) {
        let mut name = None;
        let mut version = None;
        for line in package.lines().map(str::trim) {
            name = name.or_else(|| quoted(line, "name"));
            version = version.or_else(|| quoted(line, "version"));
        }
        if let (Some(name), Some(version)) = (name, version) {
            versions
                .entry(name.to_owned())
                .or_default()
                .push(version.to_owned());
        }
    }
    versions
}

/// The `dependencies` entries (`name` or, where the lock holds several versions, `name
/// version`) of package `package` in a `Cargo.lock`.
fn dependencies_of(lock: &str, package: &str) -> Vec<String> {
    let Some(table) = lock.split("[[package]]").find(|t| {
        t.lines()
            .any(|l| l.trim() == format!("name = \"{package}\""))
    }) else {
        return Vec::new();
    };
    let Some((_, deps)) = table.split_once("dependencies = [") else {
        return Vec::new();
    };
    deps.split(']')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|d| d.trim().trim_matches('"').to_owned())
        .filter(|d| !d.is_empty())
        .collect()
}

/// Every family's designs, as the `DesignMeta` each family's design info starts with.
fn registries() -> Vec<(&'static str, Vec<DesignMeta>)> {
    macro_rules! metas {
        ($designs:expr) => {
            $designs.iter().map(|d| d.meta).collect()
        };
    }
    vec![
        ("id_table", metas!(designs())),
        ("tags", metas!(tag_designs())),
        ("alloc", metas!(alloc_designs())),
        ("components", metas!(impls::components::component_designs())),
        ("relations", metas!(relation_designs())),
        ("transforms", metas!(transform_designs())),
        (
            "data_component",
            metas!(impls::data_component::kv_designs()),
        ),
        ("spatial", metas!(impls::spatial::spatial_designs())),
        ("spawn", metas!(impls::spawn::spawn_designs())),
        ("locking", metas!(impls::locking::locking_designs())),
    ]
}

/// Every family with peers, and the peers of each.
fn peers_by_family() -> Vec<(&'static str, Vec<Peer>)> {
    registries()
        .into_iter()
        .map(|(family, metas)| {
            let peers = metas
                .into_iter()
                .filter_map(|d| match d.kind {
                    DesignKind::Peer {
                        crate_name,
                        version,
                        ..
                    } => Some((family, d.name, crate_name, version)),
                    _ => None,
                })
                .collect();
            (family, peers)
        })
        .collect()
}

/// `(family, design name, crate name, version)`.
type Peer = (&'static str, &'static str, &'static str, &'static str);

/// Every peer design in every registry.
fn peers() -> Vec<Peer> {
    peers_by_family()
        .into_iter()
        .flat_map(|(_, peers)| peers)
        .collect()
}

#[test]
fn every_peer_names_its_locked_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    let lock = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let locked = locked_versions(&lock);
    for (family, peers) in peers_by_family() {
        assert!(!peers.is_empty(), "no {family} peer designs registered");
    }
    let peers = peers();
    let impls_deps = dependencies_of(&lock, "impls");
    for (family, name, crate_name, version) in peers {
        // The standard library comes with the toolchain, which results record.
        if crate_name == "std" {
            assert_eq!(version, "toolchain", "{family}/{name}");
            continue;
        }
        let versions = locked
            .get(crate_name)
            .unwrap_or_else(|| panic!("{family}/{name}: crate {crate_name} is not in Cargo.lock"));
        if versions.len() == 1 {
            assert_eq!(
                versions,
                &[version.to_owned()],
                "{family}/{name}: registry says {crate_name} {version}, Cargo.lock has {versions:?}"
            );
        } else {
            // Another crate pulls a second version; the lock then names the one `impls` (the
            // measured code) links as `name version` in its dependency list.
            let pinned = format!("{crate_name} {version}");
            assert!(
                impls_deps.contains(&pinned),
                "{family}/{name}: registry says {pinned}, but impls links another of \
                 {versions:?}"
            );
        }
    }
}

/// Every peer says how it uses its crate (the fairness rule: as its documentation shows),
/// and the page it follows is that crate's documentation at the measured version.
#[test]
fn every_peer_names_its_idiom_and_documentation_page() {
    let all: Vec<_> = registries()
        .into_iter()
        .flat_map(|(_, metas)| metas)
        .filter_map(|d| Some((d.name, d.kind, d.kind.usage()?)))
        .collect();
    assert_eq!(
        all.len(),
        peers().len(),
        "every peer has a usage, nothing else has one"
    );
    for (name, kind, (idiom, docs)) in all {
        let DesignKind::Peer {
            crate_name,
            version,
            ..
        } = kind
        else {
            unreachable!("only peers have a usage")
        };
        assert!(
            idiom.len() >= 20,
            "{name}: idiom {idiom:?} names no API calls"
        );
        let page = match crate_name {
            "std" => "https://doc.rust-lang.org/std/".to_owned(),
            _ => format!("https://docs.rs/{crate_name}/{version}/"),
        };
        assert!(
            docs.starts_with(&page),
            "{name}: the documentation page {docs} is not under {page}"
        );
    }
}

#[test]
fn lock_parser_reads_names_and_versions() {
    let lock = "version = 4\n\n[[package]]\nname = \"slab\"\nversion = \"0.4.12\"\nsource = \"x\"\n\n[[package]]\nname = \"impls\"\nversion = \"0.1.0\"\ndependencies = [\n \"slab\",\n]\n";
    let locked = locked_versions(lock);
    assert_eq!(locked["slab"], ["0.4.12"]);
    assert_eq!(locked["impls"], ["0.1.0"]);
    assert_eq!(locked.len(), 2);
    assert_eq!(dependencies_of(lock, "impls"), ["slab"]);
    assert!(dependencies_of(lock, "slab").is_empty());
}

/// The spawn family's baselines are our code over a published format (kind `tuned`), so the
/// version they name lives in their description, `baseline (<crate> <version>...`: it must be
/// the locked one too.
#[test]
fn every_baseline_names_its_locked_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    let lock = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let locked = locked_versions(&lock);
    let baselines: Vec<_> = impls::spawn::spawn_designs()
        .into_iter()
        .filter_map(|d| Some((d.meta.name, d.meta.description.strip_prefix("baseline (")?)))
        .collect();
    assert!(baselines.len() >= 2, "{baselines:?}");
    for (name, rest) in baselines {
        let mut words = rest.split([' ', ',', ')']).filter(|w| !w.is_empty());
        let (crate_name, version) = (words.next().unwrap(), words.next().unwrap());
        let versions = locked
            .get(crate_name)
            .unwrap_or_else(|| panic!("{name}: crate {crate_name} is not in Cargo.lock"));
        assert!(
            versions.iter().any(|v| v == version),
            "{name}: description says {crate_name} {version}, Cargo.lock has {versions:?}"
        );
    }
}
