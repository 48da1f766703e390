//! The trace file format: round trips, and a specific error (never a panic) for every kind of
//! bad input.

use workloads::format::{self, FORMAT_VERSION, FormatError, MAGIC};
use workloads::registry::{self, workloads_of};
use workloads::trace::{InvalidTrace, Part};
use workloads::{IdTableOp, Trace, TraceOp};

const ID_TABLE: &str = <IdTableOp as TraceOp>::FAMILY;

/// The ID-table workloads (the tag family's are covered by `tests/tags_generators.rs`).
fn small_trace() -> Trace<IdTableOp> {
    let params = serde_json::json!({ "ops": 40 });
    registry::generate("article-mix", 10, 11, Some(&params)).unwrap()
}

/// FNV-1a 64, written out again so the tests do not trust the code under test.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// A file assembled by hand: `header` JSON, raw op bytes (end-of-part bytes included), and a
/// correct checksum, so checks after the checksum can be reached with bad content.
fn assemble(header: &serde_json::Value, ops: &[u8]) -> Vec<u8> {
    let json = serde_json::to_vec(header).unwrap();
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(ops);
    let checksum = fnv1a64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// The header of a 2-op setup and a `body_ops`-op body with the given stats.
fn header(setup_ops: u64, body_ops: u64, stats: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "format_version": 1, "generator": "hand", "n": 2, "seed": 0, "params": {},
        "setup_ops": setup_ops, "body_ops": body_ops, "body_stats": stats,
    })
}

fn stats(gets: u64) -> serde_json::Value {
    serde_json::json!({
        "adds": 0, "gets": gets, "stale_gets": 0, "removes": 0, "mutates": 0, "iterations": 0,
        "iterated_objects": 0, "live_at_start": 2, "peak_live": 2,
    })
}

#[test]
fn every_workload_round_trips_through_bytes_and_files() {
    let dir = tempfile::tempdir().unwrap();
    for w in workloads_of(ID_TABLE) {
        for n in [1, 1000] {
            let t = registry::generate(w.name, n, 8, None).unwrap();
            let mut bytes = Vec::new();
            format::save(&t, &mut bytes).unwrap();
            assert_eq!(
                format::load::<IdTableOp>(bytes.as_slice()).unwrap(),
                t,
                "{}",
                w.name
            );
            let path = dir.path().join(format!("{}-{n}.trace", w.name));
            std::fs::write(&path, format::to_bytes(&t).unwrap()).unwrap();
            assert_eq!(
                format::load_from_path::<IdTableOp>(&path).unwrap(),
                t,
                "{}",
                w.name
            );
        }
    }
}

#[test]
fn bad_magic_and_unsupported_version() {
    let mut bytes = format::to_bytes(&small_trace()).unwrap();
    let err = format::from_bytes::<IdTableOp>(b"GIF89a and more").unwrap_err();
    assert!(matches!(err, FormatError::BadMagic { .. }), "{err}");
    assert!(err.to_string().contains("not a dodbench trace file"));
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    let err = format::from_bytes::<IdTableOp>(&bytes).unwrap_err();
    assert!(
        matches!(err, FormatError::UnsupportedVersion { found: 99 }),
        "{err}"
    );
    assert!(err.to_string().contains("version 99"));
}

#[test]
fn truncation_at_every_offset_is_reported_as_truncation() {
    let bytes = format::to_bytes(&small_trace()).unwrap();
    for len in 0..bytes.len() {
        match format::from_bytes::<IdTableOp>(&bytes[..len]) {
            Err(FormatError::Truncated { len: at, .. }) => assert_eq!(at, len),
            other => panic!("truncated to {len} bytes: {other:?}"),
        }
    }
}

#[test]
fn any_changed_byte_is_an_error_never_a_panic() {
    let bytes = format::to_bytes(&small_trace()).unwrap();
    for offset in 0..bytes.len() {
        for mask in [0x01, 0x80, 0xff] {
            let mut corrupt = bytes.clone();
            corrupt[offset] ^= mask;
            assert!(
                format::from_bytes::<IdTableOp>(&corrupt).is_err(),
                "byte {offset} ^ {mask:#x} went unnoticed"
            );
        }
    }
}

#[test]
fn a_changed_header_value_is_a_checksum_mismatch() {
    let bytes = format::to_bytes(&small_trace()).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let at = text.find("\"seed\":11").unwrap() + "\"seed\":1".len();
    let mut corrupt = bytes.clone();
    corrupt[at] = b'2';
    let err = format::from_bytes::<IdTableOp>(&corrupt).unwrap_err();
    assert!(matches!(err, FormatError::ChecksumMismatch { .. }), "{err}");
    assert!(err.to_string().contains("corrupt"));
}

#[test]
fn trailing_bytes_unknown_tags_and_bad_json() {
    let mut bytes = format::to_bytes(&small_trace()).unwrap();
    bytes.push(0);
    let err = format::from_bytes::<IdTableOp>(&bytes).unwrap_err();
    assert!(
        matches!(err, FormatError::TrailingBytes { count: 1, .. }),
        "{err}"
    );

    let file = assemble(&header(2, 1, stats(1)), &[0, 0, 0xff, 9, 0xff]);
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(
        matches!(
            err,
            FormatError::UnknownTag {
                part: Part::Body,
                index: 0,
                tag: 9,
                ..
            }
        ),
        "{err}"
    );

    let mut file = MAGIC.to_vec();
    file.extend_from_slice(&1u32.to_le_bytes());
    file.extend_from_slice(&5u32.to_le_bytes());
    file.extend_from_slice(b"{nope");
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(matches!(err, FormatError::BadHeader(_)), "{err}");

    let mut h = header(2, 1, stats(1));
    h["format_version"] = 2.into();
    let err =
        format::from_bytes::<IdTableOp>(&assemble(&h, &[0, 0, 0xff, 1, 0, 0xff])).unwrap_err();
    assert!(
        matches!(
            err,
            FormatError::HeaderVersionMismatch {
                header: 2,
                binary: 1
            }
        ),
        "{err}"
    );
}

#[test]
fn op_counts_must_match_the_header() {
    let file = assemble(&header(3, 1, stats(1)), &[0, 0, 0xff, 1, 0, 0xff]);
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(
        matches!(
            err,
            FormatError::CountMismatch {
                part: Part::Setup,
                header: 3,
                actual: 2
            }
        ),
        "{err}"
    );
}

#[test]
fn a_hostile_op_count_does_not_allocate() {
    let file = assemble(
        &header(1 << 60, 1 << 60, stats(1)),
        &[0, 0, 0xff, 1, 0, 0xff],
    );
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(matches!(err, FormatError::CountMismatch { .. }), "{err}");
    // 64 adds and then the end of the file (no end-of-part byte, no checksum).
    let mut file = assemble(&header(1 << 60, 0, stats(0)), &[0; 64]);
    file.truncate(file.len() - 8);
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { .. }), "{err}");
}

#[test]
fn an_invalid_handle_names_the_part_and_op_index() {
    // Setup adds handles 0 and 1; body op 1 gets handle 5, never added.
    let file = assemble(&header(2, 2, stats(2)), &[0, 0, 0xff, 1, 0, 1, 5, 0xff]);
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(
        matches!(
            err,
            FormatError::Invalid(InvalidTrace::NotYetAdded {
                part: Part::Body,
                index: 1,
                handle: 5,
                ..
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("body op 1"), "{err}");
    // Saving refuses an invalid trace too.
    let mut t = small_trace();
    t.body.push(IdTableOp::Get(1_000_000));
    assert!(matches!(format::to_bytes(&t), Err(FormatError::Invalid(_))));
}

#[test]
fn header_stats_must_match_the_ops() {
    let file = assemble(&header(2, 1, stats(7)), &[0, 0, 0xff, 1, 0, 0xff]);
    let err = format::from_bytes::<IdTableOp>(&file).unwrap_err();
    assert!(matches!(err, FormatError::StatsMismatch { .. }), "{err}");
    // The same file with the right stats loads.
    let file = assemble(&header(2, 1, stats(1)), &[0, 0, 0xff, 1, 0, 0xff]);
    let t = format::from_bytes::<IdTableOp>(&file).unwrap();
    assert_eq!(t.body, vec![IdTableOp::Get(0)]);
}

#[test]
fn a_missing_file_names_its_path() {
    let err = format::load_from_path::<IdTableOp>("/nonexistent/dir/x.trace").unwrap_err();
    assert!(matches!(err, FormatError::PathIo { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/dir/x.trace"));
}
