//! Keeps the registry's fairness labels true: every peer design names the crate version that
//! `Cargo.lock` actually resolves, so results never claim a version that was not measured.

use std::collections::HashMap;

use impls::id_table::{DesignKind, designs};

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

#[test]
fn every_peer_names_its_locked_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    let lock = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let locked = locked_versions(&lock);
    let mut peers = 0;
    for design in designs() {
        let DesignKind::Peer {
            crate_name,
            version,
        } = design.kind
        else {
            continue;
        };
        peers += 1;
        let versions = locked
            .get(crate_name)
            .unwrap_or_else(|| panic!("{}: crate {crate_name} is not in Cargo.lock", design.name));
        assert_eq!(
            versions,
            &[version.to_owned()],
            "{}: registry says {crate_name} {version}, Cargo.lock has {versions:?}",
            design.name
        );
    }
    assert!(peers > 0, "no peer designs registered");
}

#[test]
fn lock_parser_reads_names_and_versions() {
    let lock = "version = 4\n\n[[package]]\nname = \"slab\"\nversion = \"0.4.12\"\nsource = \"x\"\n\n[[package]]\nname = \"impls\"\nversion = \"0.1.0\"\ndependencies = [\n \"slab\",\n]\n";
    let locked = locked_versions(lock);
    assert_eq!(locked["slab"], ["0.4.12"]);
    assert_eq!(locked["impls"], ["0.1.0"]);
    assert_eq!(locked.len(), 2);
}
