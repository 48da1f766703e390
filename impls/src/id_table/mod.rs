//! The ID lookup table family: systems hand out IDs for their objects and resolve them later.
//!
//! From "Managing Decoupling Part 4: The ID Lookup Table" (BitSquid, 2011) and "Stable pointer
//! dynamic array" (Blue Moon Games). Requirements the article sets, which [`IdTable`] encodes:
//!
//! * a 1-1 mapping between live objects and IDs;
//! * an ID of a removed object is detected as stale ([`IdTable::get`] gives `None`), never
//!   resolved to another object (designs that cannot do this, or can only up to a horizon, say
//!   so in [`DesignInfo::stale`]);
//! * lookup is the most common operation and must be fast; add and remove fast too.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing [`IdTable`] (or,
//! for a variant of a shared algorithm, the part that varies: a [`dense::DenseIndex`], a
//! [`pool_table::FreeSlots`] policy, a [`parity::ParitySlot`] layout), then add its type
//! constructor to [`registry::ctors`] and one line to [`registry::for_each_design_ctor`].
//! Every benchmark, test and report picks it up.

pub(crate) mod bits;
#[cfg(test)]
pub(crate) mod checks;
pub mod dense;
pub mod holey;
pub mod holey32;
pub mod holey32_lifo;
pub mod holey_skip;
pub mod holey_tuned;
pub mod map;
pub mod model;
pub mod packed;
pub mod packed_boxed_handles;
pub mod packed_fixed;
pub mod packed_tuned;
pub mod parity;
pub mod peers;
pub mod pool;
pub mod pool_linked;
pub mod pool_lowest;
pub mod pool_sorted_vec;
pub mod pool_table;
pub mod pool_tuned;
pub mod registry;

pub use registry::{
    Design, DesignCtorVisitor, DesignVisitor, designs, for_each_design, for_each_design_ctor,
};

use crate::DesignMeta;
use crate::TableError;

pub use crate::kind::DesignKind;

/// What the registry and the reports know of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// Size in bytes of the design's ID type.
    pub id_bytes: usize,
    /// How long a stale ID (of a removed object, even after its slot was reused) is detected:
    /// never (`slab`: no generation), always (IDs are never reissued), or up to a stated bound
    /// after which an equal ID may be handed out again.
    pub stale: StaleDetection,
    /// The hazard the design exists to demonstrate (a design the article warns against), if
    /// any. Verification records a trace that triggers it as `unsupported`, with the stated
    /// failure as the reason, never as a broken design (see the ID-table replayer).
    pub demonstrates: Option<&'static str>,
    /// The most live objects the design can ever hold, if it is fixed-capacity.
    pub capacity: Option<usize>,
    /// For a design whose remove costs O(free slots) by design (`pool_sorted_vec`'s sorted
    /// free-index vector): the most free-index shifts a trace may bound, as the sum over its
    /// removes, setup's and body's, of the free slots there are when each runs, before the
    /// design reports the trace `unsupported` instead of spending seconds per build or body;
    /// `None` for every other design.
    pub remove_shift_cap: Option<u64>,
}

impl DesignInfo {
    /// A design named by `meta`, handing out IDs of type `I` and detecting stale ones up to
    /// `stale`, as most designs are: no capacity limit, no hazard to demonstrate, no cap on
    /// remove shifts. A design that departs from that states the fields that differ and takes
    /// the rest from here (`DesignInfo { capacity: Some(n), ..DesignInfo::new::<I>(..) }`).
    pub const fn new<I>(meta: DesignMeta, stale: StaleDetection) -> Self {
        Self {
            meta,
            id_bytes: id_bytes::<I>(),
            stale,
            demonstrates: None,
            capacity: None,
            remove_shift_cap: None,
        }
    }

    /// Whether stale IDs are detected at all (up to [`DesignInfo::stale`]'s bound).
    pub const fn detects_stale(&self) -> bool {
        !matches!(self.stale, StaleDetection::None)
    }
}

/// How long a design detects a stale ID: the horizon after which an ID equal to a removed
/// object's may be handed out again (and then resolves to the new object).
///
/// Bounds are worst cases over every op sequence, stated in the unit the design's mechanism
/// counts: removals of any objects since the stale ID's own removal (designs whose FIFO free
/// list spreads reuse over a reserve of holes), or reuses of the stale ID's slot (per-slot
/// generations with no control over how fast a slot is reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaleDetection {
    /// No generation: once its slot is reused a stale ID resolves to the new object.
    None,
    /// Never reissued: IDs are unique per creation, or a slot is retired when its generation
    /// would wrap.
    Never,
    /// Detected until this many further removals (of any objects) have happened since the
    /// stale ID's own; only an insert after them may hand out an equal ID.
    UntilRemovals(u64),
    /// Detected until its slot has been reused this many times: the `n`-th insert into the
    /// slot after the stale ID's removal may hand out an equal ID, no earlier one can.
    UntilSlotReuses(u64),
}

impl StaleDetection {
    /// `no`, `yes, never reissued`, `yes, until 2^31 reuses of its slot`, ...: the words
    /// every listing shows where it says whether a design detects stale IDs.
    pub fn label(self) -> String {
        match self {
            StaleDetection::None => "no".to_string(),
            StaleDetection::Never => "yes, never reissued".to_string(),
            StaleDetection::UntilRemovals(n) => format!("yes, until {} removals", count(n)),
            StaleDetection::UntilSlotReuses(n) => {
                format!("yes, until {} reuses of its slot", count(n))
            }
        }
    }

    /// The bound as a number, if the design has one.
    pub const fn bound(self) -> Option<u64> {
        match self {
            StaleDetection::UntilRemovals(n) | StaleDetection::UntilSlotReuses(n) => Some(n),
            StaleDetection::None | StaleDetection::Never => None,
        }
    }
}

/// `2^k` or `2^k − 1` for those (k ≥ 16), else the number with thousands separators.
fn count(n: u64) -> String {
    let wide = u128::from(n);
    for k in 16..=64u32 {
        if wide == 1u128 << k {
            return format!("2^{k}");
        }
        if wide == (1u128 << k) - 1 {
            return format!("2^{k} − 1");
        }
    }
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An ID lookup table: owns objects of type `T` (owned data: `T: 'static`), hands out an ID
/// per object.
///
/// # Contract (checked for every design by the property tests in `impls/tests/`)
/// * [`insert`](IdTable::insert) returns an ID that resolves to the inserted object until it is
///   removed; it fails only with a [`TableError`] (fixed capacity full, ID space exhausted).
/// * [`get`](IdTable::get)/[`get_mut`](IdTable::get_mut)/[`remove`](IdTable::remove) of an ID that
///   is stale (its object was removed) give `None` and change nothing, if
///   [`DesignInfo::detects_stale`], within [`DesignInfo::stale`]'s bound. A design that cannot detect stale IDs may resolve a stale ID
///   to the object now in its slot; callers must not pass stale IDs to such a design.
/// * [`iter`](IdTable::iter)/[`iter_mut`](IdTable::iter_mut) yield every live object exactly once,
///   in a design-defined order.
/// * [`len`](IdTable::len) is the number of live objects.
///
/// # Inlining
/// The replay compiles its loop once per source of IDs (uniform fast path, mixed ops, dry run),
/// so `insert`, `get` and `remove` have several call sites in one binary, and LLVM declines to
/// inline a bigger method into all of them: the timed loop then pays a call per op that an
/// application with one call site would not. Designs whose `insert`/`remove` callgrind showed
/// out of line in the `churn` loop mark them `#[inline(always)]`; the rest `#[inline]`.
pub trait IdTable<T: 'static>: Sized {
    /// The ID type handed out by [`insert`](IdTable::insert).
    type Id: Copy + Eq + std::hash::Hash + std::fmt::Debug + 'static;

    /// Name, kind and capabilities of this design.
    const INFO: DesignInfo;

    /// An empty table.
    fn new() -> Self;

    /// Stores `value` and returns its ID.
    ///
    /// # Errors
    /// [`TableError::Full`] for a fixed-capacity design at its capacity;
    /// [`TableError::IdSpaceExhausted`] when no fresh ID is left.
    fn insert(&mut self, value: T) -> Result<Self::Id, TableError>;

    /// The object named by `id`, or `None` if it was removed (or never existed).
    fn get(&self, id: Self::Id) -> Option<&T>;

    /// Mutable access to the object named by `id`, or `None` if it was removed.
    fn get_mut(&mut self, id: Self::Id) -> Option<&mut T>;

    /// Removes and returns the object named by `id`, or `None` if it was already removed.
    fn remove(&mut self, id: Self::Id) -> Option<T>;

    /// Whether `id` names a live object.
    fn contains(&self, id: Self::Id) -> bool {
        self.get(id).is_some()
    }

    /// Number of live objects.
    fn len(&self) -> usize;

    /// Whether the table holds no live objects.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every live object once.
    fn iter(&self) -> impl Iterator<Item = &T>;

    /// Every live object once, mutably.
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T>;

    /// Reorders the stored objects by ascending `key` (a consumer's sort key), if the design
    /// stores them in an order of its own: a packed design permutes its dense array and patches
    /// its index, so every ID still names its object and iteration then runs in key order.
    /// Returns whether it reordered. Designs whose object positions are fixed by their IDs
    /// (slots, boxes, maps) or that expose no way to permute (peer crates) keep the default,
    /// which does nothing: no answer of any op changes either way.
    fn sort_by_key(&mut self, key: impl FnMut(&T) -> u64) -> bool {
        let _ = key;
        false
    }

    /// Bytes of heap memory the table holds now (its own accounting: reserved capacity times
    /// element size, plus individually boxed objects). Excludes `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// Checks the design's internal invariants (free list threading, generation parity, dense
    /// and sparse arrays agreeing, ...). Called by the property tests after every operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Size in bytes of an ID type, for [`DesignInfo::id_bytes`].
pub const fn id_bytes<I>() -> usize {
    std::mem::size_of::<I>()
}

#[cfg(test)]
mod tests {
    use super::StaleDetection;

    #[test]
    fn bounds_read_as_powers_of_two_or_grouped_digits() {
        assert_eq!(
            StaleDetection::UntilSlotReuses(1 << 31).label(),
            "yes, until 2^31 reuses of its slot"
        );
        assert_eq!(
            StaleDetection::UntilSlotReuses(u64::from(u32::MAX)).label(),
            "yes, until 2^32 − 1 reuses of its slot"
        );
        assert_eq!(
            StaleDetection::UntilRemovals(1_049_599).label(),
            "yes, until 1,049,599 removals"
        );
        assert_eq!(
            StaleDetection::UntilRemovals(999).label(),
            "yes, until 999 removals"
        );
        assert_eq!(StaleDetection::None.label(), "no");
    }
}
