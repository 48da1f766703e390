//! The `wee_alloc` allocation trace format (the repository's `test/traces/*.trace`, recorded
//! from real programs under valgrind) into block-allocator traces.
//!
//! # The format
//! One operation per line: `Alloc(SIZE),` allocates `SIZE` bytes and gives the block the next
//! index (0, 1, 2, ... in order of allocation); `Free(I),` frees the block allocated `I`-th.
//! This reader tolerates blank lines, whitespace around and inside the parentheses, and a
//! missing trailing comma; anything else is an error naming the line.
//!
//! # Choices, the same for every converted trace
//! * **Handles.** Block `I` of the file is handle `I` of the trace: both count allocations.
//! * **Alignment.** The files record none; every block asks for [`ALIGN`] = 8 bytes, the
//!   minimum `malloc` alignment of the 32-bit targets `wee_alloc` is written for (and below the
//!   16 bytes of 64-bit glibc, which would only add rounding).
//! * **`Alloc(0)`** becomes a 1-byte request: `malloc(0)` returns a unique pointer the program
//!   may later free, so the block must exist, and our traces need a size of at least 1 (two
//!   occur in `grep-random-data.trace`).
//! * **Setup and body.** The whole recording is the body (timed); the setup is empty. The
//!   program's first allocations are part of what it does, and blocks it never frees simply
//!   stay live at the end.
//!
//! # Errors
//! [`ConvertError`]: a malformed line, a free of a block not yet allocated or already freed, a
//! size or block count above `u32::MAX`, an empty file; each names its 1-based line.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::alloc::AllocOp;
use crate::trace::{Trace, TraceHeader};

/// The alignment every converted block asks for.
pub const ALIGN: u32 = 8;

/// The `generator` of traces converted from a file by [`convert_file`].
pub const RECORDING: &str = "recording";

/// Why a `wee_alloc` trace could not be converted.
#[derive(Debug, Error)]
pub enum ConvertError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is neither `Alloc(SIZE),` nor `Free(INDEX),`.
    #[error("line {line}: {reason}: `{text}`")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The line, trimmed.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `Free(I)` of a block no `Alloc` has made yet.
    #[error("line {line}: Free({index}) of a block not allocated yet (only {allocated} so far)")]
    UnknownBlock {
        /// 1-based line number.
        line: usize,
        /// The index freed.
        index: u64,
        /// Blocks allocated before this line.
        allocated: u32,
    },
    /// `Free(I)` of a block already freed.
    #[error("line {line}: Free({index}) of a block already freed")]
    DoubleFree {
        /// 1-based line number.
        line: usize,
        /// The index freed.
        index: u32,
    },
    /// `Alloc(SIZE)` with `SIZE` above `u32::MAX`.
    #[error("line {line}: Alloc({size}) is above the largest size a trace holds (u32::MAX)")]
    SizeTooLarge {
        /// 1-based line number.
        line: usize,
        /// The size asked for.
        size: u64,
    },
    /// More than `u32::MAX` allocations.
    #[error("line {line}: more than 2^32 - 1 allocations")]
    TooManyBlocks {
        /// 1-based line number.
        line: usize,
    },
    /// No operations at all.
    #[error("the trace has no operations")]
    Empty,
}

/// Converts the text of a `wee_alloc` trace into a trace whose header names `generator` with
/// `n` = the recording's peak live blocks, seed 0 and `params`.
///
/// ```
/// use workloads::AllocOp;
/// let t = workloads::convert::wee_alloc::parse("Alloc(24),\nAlloc(0),\nFree(0),\n", "example", serde_json::json!({}))
///     .unwrap();
/// assert_eq!(t.body, vec![
///     AllocOp::Alloc { size: 24, align: 8 },
///     AllocOp::Alloc { size: 1, align: 8 },
///     AllocOp::Free(0),
/// ]);
/// assert_eq!(t.header.n, 2);
/// ```
///
/// # Errors
/// As the module doc says.
pub fn parse(
    text: &str,
    generator: &str,
    params: serde_json::Value,
) -> Result<Trace<AllocOp>, ConvertError> {
    // `live[i]`: whether block `i` is still live.
    let mut live: Vec<bool> = Vec::new();
    let (mut live_now, mut peak_live) = (0u64, 0u64);
    let mut body = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let text = raw.trim();
        if text.is_empty() {
            continue;
        }
        let malformed = |reason: &str| ConvertError::Malformed {
            line,
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let op = text.strip_suffix(',').unwrap_or(text).trim_end();
        let (name, rest) = op
            .split_once('(')
            .ok_or_else(|| malformed("expected `Alloc(SIZE),` or `Free(INDEX),`"))?;
        let inner = rest
            .strip_suffix(')')
            .ok_or_else(|| malformed("missing `)`"))?
            .trim();
        let number: u64 = inner
            .parse()
            .map_err(|_| malformed("the argument is not an unsigned integer"))?;
        match name.trim() {
            "Alloc" => {
                let size = u32::try_from(number)
                    .map_err(|_| ConvertError::SizeTooLarge { line, size: number })?;
                if live.len() >= u32::MAX as usize {
                    return Err(ConvertError::TooManyBlocks { line });
                }
                live.push(true);
                live_now += 1;
                peak_live = peak_live.max(live_now);
                body.push(AllocOp::Alloc {
                    size: size.max(1),
                    align: ALIGN,
                });
            }
            "Free" => {
                let allocated = live.len() as u32;
                let index = u32::try_from(number)
                    .ok()
                    .filter(|&index| index < allocated)
                    .ok_or(ConvertError::UnknownBlock {
                        line,
                        index: number,
                        allocated,
                    })?;
                if !std::mem::replace(&mut live[index as usize], false) {
                    return Err(ConvertError::DoubleFree { line, index });
                }
                live_now -= 1;
                body.push(AllocOp::Free(index));
            }
            _ => return Err(malformed("unknown operation (expected `Alloc` or `Free`)")),
        }
    }
    if body.is_empty() {
        return Err(ConvertError::Empty);
    }
    Ok(Trace {
        header: TraceHeader {
            generator: generator.to_owned(),
            n: peak_live,
            seed: 0,
            params,
        },
        setup: Vec::new(),
        body,
    })
}

/// Reads and converts the `wee_alloc` trace file at `path`, for `dodbench convert-wee-alloc`:
/// the header's generator is [`RECORDING`] and its params `{"source": "wee_alloc", "file":
/// <file name>}`.
///
/// # Errors
/// [`ConvertError::Io`] if the file cannot be read; otherwise as [`parse`].
pub fn convert_file(path: impl AsRef<Path>) -> Result<Trace<AllocOp>, ConvertError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| ConvertError::Io {
        path: path.to_owned(),
        source,
    })?;
    let file = path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    parse(
        &text,
        RECORDING,
        serde_json::json!({ "source": "wee_alloc", "file": file }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Trace<AllocOp>, ConvertError> {
        parse(text, "test", serde_json::json!({}))
    }

    #[test]
    fn tolerates_blank_lines_whitespace_and_a_missing_comma() {
        let t = parse_text("\n  Alloc( 10 ) ,\r\n\nAlloc(3)\n\tFree(1),  \nFree( 0 )").unwrap();
        use AllocOp::*;
        assert_eq!(
            t.body,
            vec![
                Alloc { size: 10, align: 8 },
                Alloc { size: 3, align: 8 },
                Free(1),
                Free(0),
            ]
        );
        assert!(t.setup.is_empty());
        assert_eq!(t.header.n, 2);
        t.validate().unwrap();
    }

    #[test]
    fn errors_name_the_line() {
        let cases: [(&str, &str); 9] = [
            ("Alloc(1),\nMalloc(3),", "line 2: unknown operation"),
            ("Alloc(1),\nAlloc 3,", "line 2: expected `Alloc(SIZE),`"),
            ("Alloc(1,", "line 1: missing `)`"),
            (
                "Alloc(-1),",
                "line 1: the argument is not an unsigned integer",
            ),
            (
                "Alloc(),",
                "line 1: the argument is not an unsigned integer",
            ),
            (
                "Alloc(1),\n\nFree(1),",
                "line 3: Free(1) of a block not allocated yet",
            ),
            (
                "Alloc(1),\nFree(0),\nFree(0),",
                "line 3: Free(0) of a block already freed",
            ),
            ("Alloc(4294967296),", "line 1: Alloc(4294967296) is above"),
            ("\n  \n", "no operations"),
        ];
        for (text, needle) in cases {
            let err = parse_text(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
        assert!(matches!(
            parse_text("Free(99999999999),"),
            Err(ConvertError::UnknownBlock {
                line: 1,
                index: 99_999_999_999,
                allocated: 0
            })
        ));
    }

    #[test]
    fn zero_sized_allocations_become_one_byte() {
        let t = parse_text("Alloc(0),\nFree(0),").unwrap();
        assert_eq!(t.body[0], AllocOp::Alloc { size: 1, align: 8 });
        let largest = parse_text("Alloc(4294967295),").unwrap();
        assert_eq!(
            largest.body[0],
            AllocOp::Alloc {
                size: u32::MAX,
                align: 8
            }
        );
    }

    #[test]
    fn convert_file_reads_and_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small.trace");
        std::fs::write(&path, "Alloc(8),\nFree(0),\n").unwrap();
        let t = convert_file(&path).unwrap();
        assert_eq!(t.header.generator, RECORDING);
        assert_eq!(t.header.params["file"], "small.trace");
        let err = convert_file(dir.path().join("missing.trace")).unwrap_err();
        assert!(matches!(err, ConvertError::Io { .. }), "{err}");
        assert!(err.to_string().contains("missing.trace"), "{err}");
    }
}
