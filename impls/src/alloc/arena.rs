//! The byte arena our own designs allocate from: one `Vec<u8>`, its start aligned to
//! [`BASE_ALIGN`] bytes in memory, accessed only through safe slices.

use super::AllocError;

/// Alignment in bytes of the arena's first byte (offset 0) in memory. An offset that is a
/// multiple of `a <= BASE_ALIGN` is therefore also `a`-aligned as an address; larger alignments
/// hold relative to the arena start only.
pub const BASE_ALIGN: usize = 4096;

/// Integer types whose all-zero bytes are a valid value, the element types [`zeroed_vec`]
/// hands out.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type.
pub unsafe trait ZeroBits: Copy {}

// SAFETY: every bit pattern of an integer type is a valid value, zero included.
unsafe impl ZeroBits for u8 {}
// SAFETY: as for `u8`.
unsafe impl ZeroBits for u32 {}
// SAFETY: as for `u8`.
unsafe impl ZeroBits for usize {}

/// `n` zeroed `T`s, allocated fallibly: what every design of the family sizes by the
/// caller's arena (the arena itself, per-leaf side arrays) is allocated through it, so an
/// arena the host cannot back is an error, never an abort of the process.
///
/// Like `vec![0; n]` the memory comes from `alloc_zeroed` (the OS hands out zero pages
/// lazily, so an arena costs no time or resident memory until it is touched).
///
/// # Errors
/// [`AllocError::HostOutOfMemory`] if `n` elements exceed `isize::MAX` bytes or the global
/// allocator refuses them.
pub fn zeroed_vec<T: ZeroBits>(n: usize) -> Result<Vec<T>, AllocError> {
    let too_large = || AllocError::HostOutOfMemory {
        bytes: n.saturating_mul(size_of::<T>()),
    };
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| too_large())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(too_large());
    }
    // SAFETY: `ptr` was allocated by the global allocator with `Layout::array::<T>(n)`, the
    // layout a `Vec<T>` of capacity `n` has; its `n` elements are initialised, because all
    // zero bytes are a valid `T` (`ZeroBits`). Reached by every `with_arena` of the family.
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// `len` bytes, the first of them at an address that is a multiple of [`BASE_ALIGN`].
#[derive(Debug, Clone)]
pub struct Arena {
    /// Over-allocated by up to `BASE_ALIGN - 1` bytes so an aligned window of `len` bytes fits;
    /// the arena is `buf[origin..origin + len]`.
    buf: Vec<u8>,
    origin: usize,
    len: usize,
}

impl Arena {
    /// A zeroed arena of `len` bytes.
    ///
    /// # Errors
    /// [`AllocError::HostOutOfMemory`] if the host cannot allocate it (see [`zeroed_vec`]).
    pub fn new(len: usize) -> Result<Self, AllocError> {
        let with_slack = len
            .checked_add(BASE_ALIGN - 1)
            .ok_or(AllocError::HostOutOfMemory { bytes: len })?;
        let buf = zeroed_vec::<u8>(with_slack)?;
        // `align_offset` on a `*const u8` is exact (never `usize::MAX`) for a power-of-two
        // alignment, and fits in the slack we allocated.
        let origin = buf.as_ptr().align_offset(BASE_ALIGN);
        debug_assert!(origin < BASE_ALIGN);
        Ok(Self { buf, origin, len })
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the arena has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of host memory held (the slack for alignment included).
    pub fn host_bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// `len` bytes from `offset`.
    ///
    /// # Panics
    /// If the range leaves the arena.
    pub fn bytes(&self, offset: usize, len: usize) -> &[u8] {
        assert!(
            offset + len <= self.len,
            "range {offset}+{len} leaves the arena"
        );
        &self.buf[self.origin + offset..self.origin + offset + len]
    }

    /// `len` bytes from `offset`, mutably.
    ///
    /// # Panics
    /// If the range leaves the arena.
    pub fn bytes_mut(&mut self, offset: usize, len: usize) -> &mut [u8] {
        assert!(
            offset + len <= self.len,
            "range {offset}+{len} leaves the arena"
        );
        &mut self.buf[self.origin + offset..self.origin + offset + len]
    }

    /// The little-endian `u32` at `offset`.
    #[inline]
    pub fn read_u32(&self, offset: usize) -> u32 {
        let at = self.origin + offset;
        u32::from_le_bytes(self.buf[at..at + 4].try_into().expect("4 bytes"))
    }

    /// Stores `value` little-endian at `offset`.
    #[inline]
    pub fn write_u32(&mut self, offset: usize, value: u32) {
        let at = self.origin + offset;
        self.buf[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// The byte at `offset`.
    #[inline]
    pub fn byte(&self, offset: usize) -> u8 {
        self.buf[self.origin + offset]
    }

    /// The byte at `offset`, mutably.
    #[inline]
    pub fn byte_mut(&mut self, offset: usize) -> &mut u8 {
        &mut self.buf[self.origin + offset]
    }

    /// Copies `len` bytes from `from` to `to` (the ranges may overlap).
    pub fn copy_within(&mut self, from: usize, to: usize, len: usize) {
        assert!(from + len <= self.len && to + len <= self.len);
        self.buf.copy_within(
            self.origin + from..self.origin + from + len,
            self.origin + to,
        );
    }

    /// Address of offset 0, for alignment checks in tests.
    pub fn base_addr(&self) -> usize {
        self.buf.as_ptr() as usize + self.origin
    }
}
