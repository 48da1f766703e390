//! Keeps the registries' fairness labels true: every peer design of every family (ID tables,
//! tag stores, block allocators, component managers) names the crate version that `Cargo.lock` actually resolves,
//! and the lock resolves only that version, so results never claim a version that was not
//! measured.

use std::collections::HashMap;

use impls::alloc::alloc_designs;
use impls::components::component_designs;
use impls::id_table::{DesignKind, designs};
use impls::tags::{TagDesignKind, tag_designs};

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

/// `(family, design name, crate name, version)` of every peer design in every registry.
fn peers() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let id_tables = designs().into_iter().filter_map(|d| match d.kind {
        DesignKind::Peer {
            crate_name,
            version,
        } => Some(("id_table", d.name, crate_name, version)),
        _ => None,
    });
    let tags = tag_designs().into_iter().filter_map(|d| match d.kind {
        TagDesignKind::Peer {
            crate_name,
            version,
        } => Some(("tags", d.name, crate_name, version)),
        _ => None,
    });
    let allocs = alloc_designs().into_iter().filter_map(|d| match d.kind {
        DesignKind::Peer {
            crate_name,
            version,
        } => Some(("alloc", d.name, crate_name, version)),
        _ => None,
    });
    let components = component_designs()
        .into_iter()
        .filter_map(|d| match d.kind {
            DesignKind::Peer {
                crate_name,
                version,
            } => Some(("components", d.name, crate_name, version)),
            _ => None,
        });
    id_tables
        .chain(tags)
        .chain(allocs)
        .chain(components)
        .collect()
}

#[test]
fn every_peer_names_its_locked_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    let lock = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let locked = locked_versions(&lock);
    let peers = peers();
    for family in ["id_table", "tags", "alloc", "components"] {
        assert!(
            peers.iter().any(|p| p.0 == family),
            "no {family} peer designs registered"
        );
    }
    for (family, name, crate_name, version) in peers {
        let versions = locked
            .get(crate_name)
            .unwrap_or_else(|| panic!("{family}/{name}: crate {crate_name} is not in Cargo.lock"));
        assert_eq!(
            versions,
            &[version.to_owned()],
            "{family}/{name}: registry says {crate_name} {version}, Cargo.lock has {versions:?}"
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
}
