//! The serialisation the designs without a single buffer write as their snapshot: per entry
//! the key (4 bytes), the type (1 byte), then a scalar's 4 bits or a length (4 bytes) and that
//! many bytes; all integers native-endian.

use super::{Key, SnapshotError, ValueRef, ValueType};

/// Appends one entry.
#[inline]
pub fn write_entry(out: &mut Vec<u8>, key: Key, value: ValueRef<'_>) {
    out.extend_from_slice(&key.to_ne_bytes());
    out.push(value.value_type() as u8);
    match value.bytes() {
        None => out.extend_from_slice(&value.scalar_bits().to_ne_bytes()),
        Some(bytes) => {
            out.extend_from_slice(&(bytes.len() as u32).to_ne_bytes());
            out.extend_from_slice(bytes);
        }
    }
}

/// Reads a native-endian `u32` at `at`.
#[inline]
pub fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Calls `f` for every entry of a serialised snapshot.
///
/// # Errors
/// A truncated entry or an unknown type byte.
pub fn visit(bytes: &[u8], mut f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
    let bad = |at: usize| SnapshotError(format!("truncated or bad entry at byte {at}"));
    let mut at = 0;
    while at < bytes.len() {
        let key = read_u32(bytes, at).ok_or_else(|| bad(at))?;
        let ty = bytes
            .get(at + 4)
            .copied()
            .and_then(ValueType::from_u8)
            .ok_or_else(|| bad(at))?;
        let word = read_u32(bytes, at + 5).ok_or_else(|| bad(at))?;
        let start = at + 9;
        let (value, next) = match ty {
            ValueType::Bool | ValueType::F32 => (ValueRef::from_parts(ty, word, &[]), start),
            ValueType::Str | ValueType::F32s => {
                let end = start + word as usize;
                let data = bytes.get(start..end).ok_or_else(|| bad(at))?;
                (ValueRef::from_parts(ty, 0, data), end)
            }
        };
        f(key, value);
        at = next;
    }
    Ok(())
}
