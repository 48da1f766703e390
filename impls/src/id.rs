//! ID types handed out by the designs: an index plus a generation ("inner id" in the article).
//!
//! All bit packing lives here, behind named constants and methods, so no design sprinkles masks
//! through its code. A generation tells a live object's ID from a stale one that names the same
//! slot: the slot's generation changes on every removal, so an old ID no longer matches.

use std::fmt;

/// A 64-bit ID: a full 32-bit slot index and a 32-bit generation.
///
/// The article's first "array with holes" ID (`struct ID { unsigned index; unsigned inner_id; }`).
/// A stale ID can only match again after its slot has been reused 2^32 times.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id64 {
    index: u32,
    generation: u32,
}

impl Id64 {
    /// Makes an ID from its two halves.
    pub const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index.
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The slot's generation when the ID was handed out.
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

impl fmt::Debug for Id64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

/// A 64-bit ID for slots that tell occupied from vacant by their version's parity: a 32-bit
/// slot index and a 32-bit version that is always odd.
///
/// A slot's version is odd while it holds an object and even while it is vacant, and grows by
/// one on every insert and every removal, so "does this ID name the slot's live object?" is one
/// comparison `slot.version == id.version()`: it can only succeed for an occupied slot, because
/// no `ParityId` has an even version. The tuned designs rely on that to read the object out of
/// a union without a separate occupied flag, so the odd version is an invariant of the type:
/// [`ParityId::new`] sets the low bit whatever it is given (the tables' own constructor takes
/// versions they have just made odd).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParityId {
    index: u32,
    /// Always odd.
    version: u32,
}

impl ParityId {
    /// An ID of slot `index` with version `version | 1` (a version is odd by construction).
    #[inline]
    pub const fn new(index: u32, version: u32) -> Self {
        Self {
            index,
            version: version | 1,
        }
    }

    /// An ID of slot `index` with `version`, which the caller knows to be odd (a version it
    /// just made odd); saves `new`'s `| 1` on insert paths.
    #[inline]
    pub(crate) const fn from_odd(index: u32, version: u32) -> Self {
        debug_assert!(version & 1 == 1);
        Self { index, version }
    }

    /// The slot index.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The slot's (odd) version when the ID was handed out.
    #[inline]
    pub const fn version(self) -> u32 {
        self.version
    }
}

impl fmt::Debug for ParityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index, self.version)
    }
}

/// A 32-bit ID: `INDEX_BITS` low bits of slot index, the remaining high bits of generation.
///
/// The article's 32-bit variant uses 16/16 ("if you never have more than 64 K objects live at
/// the same time, you can get by with 16 bits for the index"). With `G = 32 - INDEX_BITS`
/// generation bits a slot's generation wraps after 2^G reuses, so a stale ID can match a new
/// object after that many reuses of its slot; the designs using this ID bound how fast a slot
/// is reused (a FIFO free list that keeps `MIN_FREE` slots free).
///
/// Invariant: `1 <= INDEX_BITS <= 31`, so there is at least one generation bit (checked at
/// compile time by [`Id32::GENERATION_BITS`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id32<const INDEX_BITS: u32 = 16>(u32);

impl<const INDEX_BITS: u32> Id32<INDEX_BITS> {
    /// Number of high bits holding the generation.
    pub const GENERATION_BITS: u32 = {
        assert!(
            INDEX_BITS >= 1 && INDEX_BITS <= 31,
            "Id32 needs 1..=31 index bits"
        );
        32 - INDEX_BITS
    };
    /// Number of distinct slot indices (`2^INDEX_BITS`).
    pub const INDEX_COUNT: u32 = 1 << INDEX_BITS;
    /// Number of distinct generations (`2^GENERATION_BITS`), as u64 because it can be 2^31.
    pub const GENERATION_COUNT: u64 = 1 << Self::GENERATION_BITS;
    const INDEX_MASK: u32 = Self::INDEX_COUNT - 1;
    const GENERATION_MASK: u32 = (Self::GENERATION_COUNT - 1) as u32;

    /// Packs an index and a generation. Both are reduced to their bit widths: callers keep the
    /// index below [`Self::INDEX_COUNT`] and may pass a generation that has wrapped.
    #[inline]
    pub const fn new(index: u32, generation: u32) -> Self {
        debug_assert!(index < Self::INDEX_COUNT);
        Self(((generation & Self::GENERATION_MASK) << INDEX_BITS) | (index & Self::INDEX_MASK))
    }

    /// The slot index.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 & Self::INDEX_MASK
    }

    /// The generation, `0..2^GENERATION_BITS`.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.0 >> INDEX_BITS
    }

    /// The next generation after `generation`, wrapping at `2^GENERATION_BITS`.
    #[inline]
    pub const fn next_generation(generation: u32) -> u32 {
        generation.wrapping_add(1) & Self::GENERATION_MASK
    }

    /// The raw 32 bits, e.g. to hand to a scripting language.
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// Rebuilds an ID from [`Self::to_bits`].
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits)
    }
}

impl<const INDEX_BITS: u32> fmt::Debug for Id32<INDEX_BITS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index(), self.generation())
    }
}

/// A slot's generation and whether the slot is occupied, in one `u32`, so that "does this ID
/// name the slot's live object?" is a single comparison with the ID's generation.
///
/// For designs whose slots cannot tell occupied from vacant by themselves (an index entry whose
/// other field is a dense position when occupied and a free-list link when vacant). Generations
/// of [`Id32`] are below 2^31, so the top bit is free to mark a vacant slot: a vacant slot's
/// version never equals any ID's generation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SlotVersion(u32);

impl SlotVersion {
    /// Set in vacant slots; never set in an [`Id32`] generation.
    const VACANT_FLAG: u32 = 1 << 31;

    /// An occupied slot whose object has `generation` (below 2^31).
    #[inline]
    pub const fn occupied(generation: u32) -> Self {
        debug_assert!(generation < Self::VACANT_FLAG);
        Self(generation)
    }

    /// A vacant slot remembering `generation` (below 2^31), e.g. the one its next object gets.
    #[inline]
    pub const fn vacant(generation: u32) -> Self {
        debug_assert!(generation < Self::VACANT_FLAG);
        Self(generation | Self::VACANT_FLAG)
    }

    /// Whether the slot is occupied by an object with exactly `generation`: one comparison,
    /// false for every vacant slot.
    #[inline]
    pub const fn is_occupied_by(self, generation: u32) -> bool {
        self.0 == generation
    }

    /// Whether the slot is occupied.
    #[inline]
    pub const fn is_occupied(self) -> bool {
        self.0 & Self::VACANT_FLAG == 0
    }

    /// The generation, occupied or not.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.0 & !Self::VACANT_FLAG
    }
}

impl fmt::Debug for SlotVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = if self.is_occupied() {
            "occupied"
        } else {
            "vacant"
        };
        write!(f, "{state}v{}", self.generation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id32_packs_and_unpacks_every_split() {
        fn check<const B: u32>() {
            let max_index = Id32::<B>::INDEX_COUNT - 1;
            let max_gen = (Id32::<B>::GENERATION_COUNT - 1) as u32;
            for (i, g) in [
                (0, 0),
                (max_index, 0),
                (0, max_gen),
                (max_index, max_gen),
                (1, 1),
            ] {
                let id = Id32::<B>::new(i, g);
                assert_eq!((id.index(), id.generation()), (i, g));
                assert_eq!(Id32::<B>::from_bits(id.to_bits()), id);
            }
            assert_eq!(Id32::<B>::next_generation(max_gen), 0);
        }
        check::<16>();
        check::<8>();
        check::<24>();
        check::<31>();
        check::<1>();
    }

    #[test]
    fn id32_generation_wraps_instead_of_spilling_into_index() {
        let id = Id32::<16>::new(7, 0x1_0003);
        assert_eq!(id.index(), 7);
        assert_eq!(id.generation(), 3);
    }

    #[test]
    fn slot_version_matches_only_its_occupied_generation() {
        let max_gen = (Id32::<1>::GENERATION_COUNT - 1) as u32;
        for g in [0, 1, 0xFFFF, max_gen] {
            let live = SlotVersion::occupied(g);
            let dead = SlotVersion::vacant(g);
            assert!(live.is_occupied() && !dead.is_occupied());
            assert_eq!((live.generation(), dead.generation()), (g, g));
            assert!(live.is_occupied_by(g));
            assert!(!dead.is_occupied_by(g));
            assert!(!live.is_occupied_by(g ^ 1));
        }
    }
}
