//! The bytes every op vocabulary needs to encode and decode its ops in trace files: the
//! fields of one op ([`OpFields`], unsigned LEB128 varints), the bounds-checked reader under
//! them, and [`FormatError`], the one error of saving and loading.
//!
//! This module knows no op vocabulary and no file layout, so each vocabulary (the
//! [`TraceOp`](crate::family::TraceOp) implementations) can depend on it while the file
//! format ([`format`](mod@crate::format), which re-exports these items) depends on the
//! vocabularies.
//!
//! # Varints
//! A field is an unsigned LEB128 varint: 7 bits per byte, low bits first, high bit set on all
//! but the last byte; 1 to 5 bytes, and the shortest encoding (no final `0x00` byte after a
//! continuation), so each op has exactly one encoding.

use std::path::PathBuf;

use thiserror::Error;

use crate::trace::{InvalidTrace, Part};

/// Declares a vocabulary's tag bytes as `mod tag`: one `u8` constant per op kind, numbered
/// from 0 in the order listed (the numbers the table of the vocabulary's module doc gives;
/// reordering the list changes the file format).
macro_rules! op_tags {
    ($($name:ident),+ $(,)?) => {
        mod tag {
            $crate::codec::op_tags!(@from 0; $($name),+);
        }
    };
    (@from $value:expr; $name:ident $(, $rest:ident)*) => {
        pub const $name: u8 = $value;
        $crate::codec::op_tags!(@from $value + 1; $($rest),*);
    };
    (@from $value:expr;) => {};
}
pub(crate) use op_tags;

/// The trace file format version this code writes and reads (the layout is in
/// [`format`](mod@crate::format)).
pub const FORMAT_VERSION: u32 = 1;

/// Why a trace could not be saved or loaded.
#[derive(Debug, Error)]
pub enum FormatError {
    /// Reading or writing the stream failed.
    #[error("trace I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// Reading or writing a file failed.
    #[error("trace file {path}: {source}")]
    PathIo {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`](crate::format::MAGIC).
    #[error("not a dodbench trace file (starts with {found:02x?}, expected \"DODTRACE\")")]
    BadMagic {
        /// The first bytes of the file (up to 8).
        found: Vec<u8>,
    },
    /// The version field is not one this code reads.
    #[error(
        "trace format version {found} is not supported (this build reads version {FORMAT_VERSION})"
    )]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The file ends before `what` is complete.
    #[error("trace file is truncated: it ends at byte {len} inside the {what}")]
    Truncated {
        /// The part being read: "magic", "header", "setup ops", ...
        what: &'static str,
        /// The file's length.
        len: usize,
    },
    /// The header is not JSON of the [`FileHeader`](crate::format::FileHeader) shape.
    #[error("trace header is not valid: {0}")]
    BadHeader(#[source] serde_json::Error),
    /// The header's `format_version` differs from the binary version field.
    #[error("trace header says format version {header} but the file says {binary}")]
    HeaderVersionMismatch {
        /// The JSON `format_version`.
        header: u32,
        /// The binary version field.
        binary: u32,
    },
    /// A tag byte is not one of the family's (nor the end-of-part byte).
    #[error("{part} op {index} at byte {offset} has unknown tag byte {tag:#04x}")]
    UnknownTag {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// Byte offset of the tag.
        offset: usize,
        /// The tag byte.
        tag: u8,
    },
    /// A handle varint is too long, overflows `u32`, or is not the shortest encoding.
    #[error("{part} op {index}: handle varint at byte {offset} {problem}")]
    BadHandle {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// Byte offset of the varint.
        offset: usize,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A part holds a different number of ops than the header says.
    #[error("trace {part} has {actual} ops but its header says {header}")]
    CountMismatch {
        /// Part of the trace.
        part: Part,
        /// The header's count.
        header: u64,
        /// Ops actually present.
        actual: u64,
    },
    /// The stored checksum differs from the computed one: the file is corrupt.
    #[error("trace file is corrupt: checksum {stored:#018x} stored, {computed:#018x} computed")]
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes read.
        computed: u64,
    },
    /// Bytes follow the checksum.
    #[error("trace file has {count} unexpected bytes after its checksum (at byte {offset})")]
    TrailingBytes {
        /// How many.
        count: usize,
        /// Offset of the first.
        offset: usize,
    },
    /// The trace uses a handle wrongly (saving refuses such a trace too).
    #[error("trace is invalid: {0}")]
    Invalid(#[from] InvalidTrace),
    /// The header's body stats differ from the ops' (a writer bug, or a hand-edited file).
    #[error("trace header body stats {header} differ from the ops' {actual}")]
    StatsMismatch {
        /// The header's stats, as `Debug` prints them.
        header: String,
        /// Recomputed from the ops.
        actual: String,
    },
    /// The header names no family this build knows.
    #[error("trace family `{found}` is unknown (known: {known})")]
    UnknownFamily {
        /// The header's family.
        found: String,
        /// The families this build knows, comma-separated.
        known: String,
    },
    /// The file holds a trace of another family than the caller asked for.
    #[error("trace file is of family `{found}`, expected `{expected}`")]
    WrongFamily {
        /// The header's family.
        found: String,
        /// The family asked for.
        expected: &'static str,
    },
    /// The header JSON is longer than `u32::MAX` bytes.
    #[error("trace header of {0} bytes does not fit the u32 length field")]
    HeaderTooLarge(usize),
}

/// The fields of one op being decoded: unsigned LEB128 varints read in order (see the module
/// doc), with errors naming the op.
pub struct OpFields<'r, 'a> {
    reader: &'r mut ByteReader<'a>,
    part: Part,
    index: usize,
    what: &'static str,
}

impl<'r, 'a> OpFields<'r, 'a> {
    /// The fields of op `index` of `part`, read from `reader` just after its tag byte; `what`
    /// names the part in [`FormatError::Truncated`].
    pub(crate) fn new(
        reader: &'r mut ByteReader<'a>,
        part: Part,
        index: usize,
        what: &'static str,
    ) -> Self {
        Self {
            reader,
            part,
            index,
            what,
        }
    }

    /// Reads the next field.
    ///
    /// # Errors
    /// [`FormatError::Truncated`] or [`FormatError::BadHandle`] (overlong, overflowing or
    /// non-shortest varint).
    pub fn u32(&mut self) -> Result<u32, FormatError> {
        self.reader.handle(self.part, self.index, self.what)
    }

    /// Appends `value` as a shortest unsigned LEB128 varint (the encoding [`u32`](Self::u32)
    /// reads).
    pub fn write_u32(out: &mut Vec<u8>, mut value: u32) {
        while value >= 0x80 {
            out.push((value as u8 & 0x7f) | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
    }

    /// Appends an op: its tag byte, then each field as [`write_u32`](Self::write_u32) writes
    /// it. What every vocabulary's [`TraceOp::encode`](crate::family::TraceOp::encode) ends
    /// with.
    pub fn write_op(out: &mut Vec<u8>, tag: u8, fields: impl IntoIterator<Item = u32>) {
        out.push(tag);
        for field in fields {
            Self::write_u32(out, field);
        }
    }
}

/// A bounds-checked cursor over the file bytes: every read is a `get`, so bad input gives a
/// [`FormatError::Truncated`], never a panic.
pub(crate) struct ByteReader<'a> {
    /// The whole file.
    pub(crate) bytes: &'a [u8],
    /// The next byte to read; never beyond `bytes.len()`.
    pub(crate) pos: usize,
}

impl<'a> ByteReader<'a> {
    pub(crate) fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], FormatError> {
        let end = self.pos.checked_add(len);
        let slice =
            end.and_then(|end| self.bytes.get(self.pos..end))
                .ok_or(FormatError::Truncated {
                    what,
                    len: self.bytes.len(),
                })?;
        self.pos += len;
        Ok(slice)
    }

    pub(crate) fn byte(&mut self, what: &'static str) -> Result<u8, FormatError> {
        Ok(self.take(1, what)?[0])
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    /// One LEB128 varint (see the module doc), rejecting overlong and non-shortest encodings.
    fn handle(&mut self, part: Part, index: usize, what: &'static str) -> Result<u32, FormatError> {
        let offset = self.pos;
        let bad = |problem| FormatError::BadHandle {
            part,
            index,
            offset,
            problem,
        };
        let mut value: u32 = 0;
        for i in 0..5 {
            let byte = self.byte(what)?;
            let bits = u32::from(byte & 0x7f);
            if i == 4 && (bits > 0x0f || byte & 0x80 != 0) {
                return Err(bad("overflows u32"));
            }
            value |= bits << (7 * i);
            if byte & 0x80 == 0 {
                if i > 0 && byte == 0 {
                    return Err(bad("is not the shortest encoding"));
                }
                return Ok(value);
            }
        }
        unreachable!("the fifth byte always returns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_every_length_boundary() {
        let values = [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            2_097_151,
            2_097_152,
            u32::MAX,
        ];
        for v in values {
            let mut out = Vec::new();
            OpFields::write_u32(&mut out, v);
            let mut r = ByteReader {
                bytes: &out,
                pos: 0,
            };
            assert_eq!(r.handle(Part::Body, 0, "body ops").unwrap(), v);
            assert_eq!(r.pos, out.len());
        }
    }

    #[test]
    fn varints_reject_overflow_overlong_and_non_shortest() {
        for bad in [
            &[0x80, 0x00][..],
            &[0xff, 0xff, 0xff, 0xff, 0x1f],
            &[0xff, 0xff, 0xff, 0xff, 0x8f, 0x00],
        ] {
            let mut r = ByteReader { bytes: bad, pos: 0 };
            assert!(
                matches!(
                    r.handle(Part::Setup, 3, "setup ops"),
                    Err(FormatError::BadHandle { index: 3, .. })
                ),
                "{bad:x?}"
            );
        }
    }
}
