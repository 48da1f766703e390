//! The trace file format: compact, self-describing, and checked end to end on load.
//!
//! # Layout (version 1)
//! All integers are little-endian.
//!
//! | offset        | size     | content                                                      |
//! |---------------|----------|--------------------------------------------------------------|
//! | 0             | 8        | magic `b"DODTRACE"`                                          |
//! | 8             | 4        | `u32` format version, `1`                                    |
//! | 12            | 4        | `u32` header length `L`                                      |
//! | 16            | `L`      | UTF-8 JSON [`FileHeader`]                                    |
//! | 16 + `L`      | variable | setup ops, then the end-of-part byte `0xFF`                  |
//! |               | variable | body ops, then the end-of-part byte `0xFF`                   |
//! | end − 8       | 8        | `u64` FNV-1a 64 checksum of every preceding byte (from 0)    |
//!
//! and nothing after the checksum.
//!
//! An op is one tag byte, followed for ops that name a handle by the handle as an unsigned
//! LEB128 varint (7 bits per byte, low bits first, high bit set on all but the last byte;
//! 1 to 5 bytes, and the shortest encoding: no final `0x00` byte after a continuation, so each
//! trace has exactly one encoding). Handles below 128 take one byte, below 16 384 two, below
//! 2 097 152 three, so a 1M-object trace averages about 4 bytes per op.
//!
//! | tag | op           | handle follows |
//! |-----|--------------|----------------|
//! | 0   | `Add`        | no             |
//! | 1   | `Get`        | yes            |
//! | 2   | `GetStale`   | yes            |
//! | 3   | `Remove`     | yes            |
//! | 4   | `Iterate`    | no             |
//! | 5   | `IterateMut` | no             |
//! | 6   | `Mutate`     | yes            |
//! | 7   | `Sort`       | no             |
//!
//! # What loading checks
//! In order: the magic, the version, that the header and every op are complete (truncation),
//! that the header is JSON of the expected shape with the same format version, every tag byte
//! and varint, that each part holds as many ops as the header says, the checksum (FNV-1a
//! changes whenever any single byte changes, since each step `h = (h ^ byte) * prime` is a
//! bijection of `h`), that no byte follows it, then [`Trace::validate`] (every handle used only
//! when live, or only when removed for `GetStale`) and that the header's body statistics
//! ([`TraceOp::Stats`]) equal the recomputed ones. Allocation is bounded by the bytes actually
//! present: a header claiming `2^60` ops makes the loader reserve at most one op per remaining
//! byte.
//!
//! The op fields' varints and [`FormatError`] are in [`codec`](crate::codec) (the op
//! vocabularies encode with them without depending on this module), re-exported here.
//!
//! This module produces and reads bytes; it writes no file. A trace file is written like every
//! file dodbench writes, through `results::write_atomically` and its one rule for symbolic
//! links, FIFOs, devices and `-` (`dodbench gen`, `convert-wee-alloc`, the cache pass), which
//! this crate, below `results`, cannot call: write [`to_bytes`] through it.

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::codec::ByteReader;
pub use crate::codec::{FORMAT_VERSION, FormatError, OpFields};
use crate::family::{AnyTrace, TraceOp};
use crate::trace::{Part, Trace, TraceHeader};
use crate::vocabularies::{self, DefaultOp, VocabularyVisitor};

/// The first 8 bytes of every trace file.
pub const MAGIC: [u8; 8] = *b"DODTRACE";

/// The byte that ends the setup and the body op lists (never a valid tag).
const END_OF_PART: u8 = 0xFF;

/// The JSON header of a trace file: the trace's provenance plus the counts a reader can use
/// without decoding the ops. `S` is the family's body statistics type
/// ([`TraceOp::Stats`]); readers first parse it as JSON, then as the family's type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    bound = "S: Serialize + serde::de::DeserializeOwned"
)]
pub struct FileHeader<S = <DefaultOp as TraceOp>::Stats> {
    /// Equal to the binary version field; [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The op vocabulary ([`TraceOp::FAMILY`], one of [`vocabularies::FAMILIES`]). Files
    /// written before families existed have no such field and are traces of
    /// [`DefaultOp`]'s family.
    #[serde(default = "vocabularies::default_family")]
    pub family: String,
    /// [`TraceHeader::generator`].
    pub generator: String,
    /// [`TraceHeader::n`].
    pub n: u64,
    /// [`TraceHeader::seed`].
    pub seed: u64,
    /// [`TraceHeader::params`].
    pub params: serde_json::Value,
    /// Number of setup ops.
    pub setup_ops: u64,
    /// Number of body ops.
    pub body_ops: u64,
    /// The body's counts, as [`Trace::validate`] computes them.
    pub body_stats: S,
}

/// FNV-1a 64 of `bytes`.
fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET_BASIS, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The trace file bytes of `trace`.
///
/// # Errors
/// [`FormatError::Invalid`] if the trace does not validate (a file is always a valid trace).
pub fn to_bytes<O: TraceOp>(trace: &Trace<O>) -> Result<Vec<u8>, FormatError> {
    let body_stats = trace.validate()?;
    let header = FileHeader {
        format_version: FORMAT_VERSION,
        family: O::FAMILY.to_owned(),
        generator: trace.header.generator.clone(),
        n: trace.header.n,
        seed: trace.header.seed,
        params: trace.header.params.clone(),
        setup_ops: trace.setup.len() as u64,
        body_ops: trace.body.len() as u64,
        body_stats,
    };
    let json = serde_json::to_vec(&header).expect("FileHeader serialises");
    let json_len =
        u32::try_from(json.len()).map_err(|_| FormatError::HeaderTooLarge(json.len()))?;
    let ops = trace.setup.len() + trace.body.len();
    let mut out = Vec::with_capacity(16 + json.len() + 4 * ops + 10);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&json_len.to_le_bytes());
    out.extend_from_slice(&json);
    for part in [&trace.setup, &trace.body] {
        for &op in part {
            op.encode(&mut out);
        }
        out.push(END_OF_PART);
    }
    let checksum = fnv1a64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    Ok(out)
}

/// Decodes and fully validates trace file bytes (see the module doc for every check).
///
/// # Errors
/// The first problem found, as the specific [`FormatError`] variant.
pub fn from_bytes<O: TraceOp>(bytes: &[u8]) -> Result<Trace<O>, FormatError> {
    from_bytes_any(bytes)?
        .try_into_family()
        .map_err(|other| FormatError::WrongFamily {
            found: other.family().to_owned(),
            expected: O::FAMILY,
        })
}

/// Decodes and fully validates trace file bytes of any family.
///
/// # Errors
/// As [`from_bytes`], plus [`FormatError::UnknownFamily`].
pub fn from_bytes_any(bytes: &[u8]) -> Result<AnyTrace, FormatError> {
    let header = read_header(bytes)?;
    let family = header.family.clone();
    struct Decode<'a> {
        bytes: &'a [u8],
        header: FileHeader<serde_json::Value>,
    }
    impl VocabularyVisitor for Decode<'_> {
        type Output = Result<AnyTrace, FormatError>;
        fn visit<O: TraceOp>(self) -> Result<AnyTrace, FormatError> {
            decode_family::<O>(self.bytes, self.header).map(AnyTrace::new)
        }
    }
    vocabularies::with_vocabulary(&family, Decode { bytes, header }).unwrap_or_else(|| {
        Err(FormatError::UnknownFamily {
            found: family.clone(),
            known: vocabularies::FAMILIES.join(", "),
        })
    })
}

/// Checks magic and version and parses the JSON header (its stats still as JSON).
fn read_header(bytes: &[u8]) -> Result<FileHeader<serde_json::Value>, FormatError> {
    let mut r = ByteReader { bytes, pos: 0 };
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(FormatError::BadMagic {
            found: bytes[..magic_len].to_vec(),
        });
    }
    r.take(MAGIC.len(), "magic")?;
    let version = r.u32("version field")?;
    if version != FORMAT_VERSION {
        return Err(FormatError::UnsupportedVersion { found: version });
    }
    let header_len = r.u32("header length field")? as usize;
    let header: FileHeader<serde_json::Value> =
        serde_json::from_slice(r.take(header_len, "header")?).map_err(FormatError::BadHeader)?;
    if header.format_version != version {
        return Err(FormatError::HeaderVersionMismatch {
            header: header.format_version,
            binary: version,
        });
    }
    Ok(header)
}

/// Decodes the ops of a file whose header says family `O` and validates the whole trace.
fn decode_family<O: TraceOp>(
    bytes: &[u8],
    header: FileHeader<serde_json::Value>,
) -> Result<Trace<O>, FormatError> {
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let mut r = ByteReader {
        bytes,
        pos: 16 + header_len,
    };
    let body_stats: O::Stats =
        serde_json::from_value(header.body_stats).map_err(FormatError::BadHeader)?;
    let setup = read_ops::<O>(&mut r, Part::Setup, header.setup_ops)?;
    let body = read_ops::<O>(&mut r, Part::Body, header.body_ops)?;
    let checked_len = r.pos;
    let stored = u64::from_le_bytes(r.take(8, "checksum")?.try_into().expect("8 bytes"));
    let computed = fnv1a64(&bytes[..checked_len]);
    if stored != computed {
        return Err(FormatError::ChecksumMismatch { stored, computed });
    }
    if r.pos < bytes.len() {
        return Err(FormatError::TrailingBytes {
            count: bytes.len() - r.pos,
            offset: r.pos,
        });
    }
    let trace = Trace {
        header: TraceHeader {
            generator: header.generator,
            n: header.n,
            seed: header.seed,
            params: header.params,
        },
        setup,
        body,
    };
    let actual = trace.validate()?;
    if actual != body_stats {
        return Err(FormatError::StatsMismatch {
            header: format!("{body_stats:?}"),
            actual: format!("{actual:?}"),
        });
    }
    Ok(trace)
}

/// The ops of `part` up to its end-of-part byte; `expected` is the header's count.
fn read_ops<O: TraceOp>(
    r: &mut ByteReader<'_>,
    part: Part,
    expected: u64,
) -> Result<Vec<O>, FormatError> {
    let what = match part {
        Part::Setup => "setup ops",
        Part::Body => "body ops",
    };
    // Each op takes at least one byte: never reserve more than the bytes left.
    let remaining = r.bytes.len() - r.pos;
    let mut ops = Vec::with_capacity(
        usize::try_from(expected)
            .unwrap_or(usize::MAX)
            .min(remaining),
    );
    loop {
        let offset = r.pos;
        let index = ops.len();
        let tag = r.byte(what)?;
        if tag == END_OF_PART {
            break;
        }
        let mut fields = OpFields::new(r, part, index, what);
        let op = O::decode(tag, &mut fields)?.ok_or(FormatError::UnknownTag {
            part,
            index,
            offset,
            tag,
        })?;
        ops.push(op);
    }
    if ops.len() as u64 != expected {
        return Err(FormatError::CountMismatch {
            part,
            header: expected,
            actual: ops.len() as u64,
        });
    }
    Ok(ops)
}

/// Writes `trace` to `writer` in the trace file format.
///
/// ```
/// use workloads::{format, registry};
/// let trace = registry::generate("churn", 100, 7, None).unwrap();
/// let mut file = Vec::new();
/// format::save(&trace, &mut file).unwrap();
/// assert_eq!(format::load::<workloads::IdTableOp>(file.as_slice()).unwrap(), trace);
/// ```
///
/// # Errors
/// [`FormatError::Invalid`] for an invalid trace, [`FormatError::Io`] if writing fails.
pub fn save<O: TraceOp>(trace: &Trace<O>, mut writer: impl Write) -> Result<(), FormatError> {
    writer.write_all(&to_bytes(trace)?)?;
    writer.flush()?;
    Ok(())
}

/// Reads a whole trace file from `reader` and validates it.
///
/// # Errors
/// [`FormatError::Io`] if reading fails; otherwise as [`from_bytes`].
pub fn load<O: TraceOp>(mut reader: impl Read) -> Result<Trace<O>, FormatError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    from_bytes(&bytes)
}

/// Loads and validates the trace file at `path`.
///
/// # Errors
/// [`FormatError::PathIo`] if the file cannot be read; otherwise as [`from_bytes`].
pub fn load_from_path<O: TraceOp>(path: impl AsRef<Path>) -> Result<Trace<O>, FormatError> {
    from_bytes(&read_path(path.as_ref())?)
}

/// Loads and validates the trace file at `path`, whatever its family.
///
/// # Errors
/// As [`load_from_path`], plus [`FormatError::UnknownFamily`].
pub fn load_any_from_path(path: impl AsRef<Path>) -> Result<AnyTrace, FormatError> {
    from_bytes_any(&read_path(path.as_ref())?)
}

fn read_path(path: &Path) -> Result<Vec<u8>, FormatError> {
    std::fs::read(path).map_err(|source| FormatError::PathIo {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::IdTableOp;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn encodes_the_documented_bytes() {
        let t = Trace::for_test(
            vec![IdTableOp::Add, IdTableOp::Add],
            vec![
                IdTableOp::Get(1),
                IdTableOp::Remove(0),
                IdTableOp::GetStale(0),
            ],
        );
        let bytes = to_bytes(&t).unwrap();
        assert_eq!(&bytes[..8], b"DODTRACE");
        assert_eq!(&bytes[8..12], &[1, 0, 0, 0]);
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let ops = &bytes[16 + len..bytes.len() - 8];
        assert_eq!(ops, &[0, 0, 0xff, 1, 1, 3, 0, 2, 0, 0xff]);
        let header: FileHeader = serde_json::from_slice(&bytes[16..16 + len]).unwrap();
        assert_eq!((header.setup_ops, header.body_ops), (2, 3));
        assert_eq!(header.body_stats.gets, 1);
    }
}
