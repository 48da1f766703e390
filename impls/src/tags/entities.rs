//! Entity handles and the counts shared by every tag-store design, so that designs differ only
//! in how they store tags.
//!
//! A handle is a `u32` index into the design's per-entity array. Liveness is one bit per index;
//! destroyed handles go on a LIFO stack and are handed out again first, so the per-entity array
//! never has more slots than the peak number of live entities. [`Bookkeeping`] is the entity
//! set with the tag count and allocator calls every store keeps beside it, and the operations
//! on a design's per-entity array (a list, a chain head, a block per entity) that are the same
//! whatever the array holds.

use super::{Entity, TagError, index_below, push_counted};

/// Which handles are live, and which released ones to hand out next.
#[derive(Debug, Clone, Default)]
pub struct EntitySet {
    /// Bit `i` set iff entity `i` is live. Invariant: bits at or past `slots` are clear.
    live: Vec<u64>,
    /// Released handles, most recent last. Invariant: each is `< slots`, not live, and listed
    /// once; together with the live ones they are exactly `0..slots`.
    released: Vec<Entity>,
    /// Handles ever handed out: the length the designs' per-entity arrays must have.
    slots: usize,
    /// Live handles.
    live_count: usize,
}

/// What [`EntitySet::create`] did, so the design can size its per-entity array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    /// A released handle was reused: the design resets its slot `entity`.
    Reused(Entity),
    /// A new handle, equal to the previous slot count: the design appends a slot.
    Fresh(Entity),
}

impl EntitySet {
    /// An empty set with no heap memory.
    pub const fn new() -> Self {
        Self {
            live: Vec::new(),
            released: Vec::new(),
            slots: 0,
            live_count: 0,
        }
    }

    /// Hands out a handle below `limit` (the design's own index limit, at most `u32::MAX`).
    ///
    /// # Errors
    /// [`TagError::IndexSpaceExhausted`] when every handle below `limit` is live.
    pub fn create(&mut self, limit: u32, calls: &mut u64) -> Result<Created, TagError> {
        let created = if let Some(entity) = self.released.pop() {
            Created::Reused(entity)
        } else {
            let entity = index_below(self.slots, "entities", limit)?;
            if self.slots % 64 == 0 {
                push_counted(&mut self.live, 0, calls);
            }
            self.slots += 1;
            Created::Fresh(entity)
        };
        let (Created::Reused(e) | Created::Fresh(e)) = created;
        self.live[e as usize / 64] |= 1 << (e % 64);
        self.live_count += 1;
        Ok(created)
    }

    /// Hands out `n` fresh handles at once when no released handle waits (then `n` calls of
    /// [`create`](Self::create) would hand out exactly these, `slots..slots + n`): the
    /// liveness words grow once and are set a word at a time. `None`, changing nothing, when
    /// a released handle waits (the caller creates one by one).
    ///
    /// # Errors
    /// [`TagError::IndexSpaceExhausted`] when the last handle would reach `limit` (nothing
    /// changes).
    pub fn create_fresh_run(
        &mut self,
        n: usize,
        limit: u32,
        calls: &mut u64,
    ) -> Result<Option<std::ops::Range<Entity>>, TagError> {
        if !self.released.is_empty() {
            return Ok(None);
        }
        let (start, end) = (self.slots, self.slots + n);
        if end > limit as usize {
            return Err(TagError::IndexSpaceExhausted {
                what: "entities",
                limit: u64::from(limit),
            });
        }
        let before = self.live.capacity();
        self.live.resize(end.div_ceil(64), 0);
        super::count_capacity_change(before, self.live.capacity(), calls);
        let mut at = start;
        while at < end {
            let (word, bit) = (at / 64, at % 64);
            let take = (64 - bit).min(end - at);
            let ones = if take == 64 {
                u64::MAX
            } else {
                (1 << take) - 1
            };
            self.live[word] |= ones << bit;
            at += take;
        }
        self.slots = end;
        self.live_count += n;
        Ok(Some(start as Entity..end as Entity))
    }

    /// Whether `entity` is live.
    #[inline]
    pub fn is_live(&self, entity: Entity) -> bool {
        self.live
            .get(entity as usize / 64)
            .is_some_and(|word| word & (1 << (entity % 64)) != 0)
    }

    /// `Ok(())` if `entity` is live.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] otherwise.
    #[inline]
    pub fn check(&self, entity: Entity) -> Result<(), TagError> {
        if self.is_live(entity) {
            Ok(())
        } else {
            Err(TagError::NoSuchEntity { entity })
        }
    }

    /// Marks a live `entity` released.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] if it is not live (nothing changes).
    pub fn destroy(&mut self, entity: Entity, calls: &mut u64) -> Result<(), TagError> {
        self.check(entity)?;
        self.live[entity as usize / 64] &= !(1 << (entity % 64));
        push_counted(&mut self.released, entity, calls);
        self.live_count -= 1;
        Ok(())
    }

    /// Live handles.
    pub fn len(&self) -> usize {
        self.live_count
    }

    /// Whether no handle is live.
    pub fn is_empty(&self) -> bool {
        self.live_count == 0
    }

    /// Handles ever handed out (live or released).
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The released handles taken out of the set, most recently released last (the next
    /// [`create`](Self::create) hands out the last one): the free stack a reference loop that
    /// uses a design's vectors directly keeps.
    pub fn into_released(self) -> Vec<Entity> {
        self.released
    }

    /// Every live handle, ascending.
    pub fn iter_live(&self) -> impl Iterator<Item = Entity> + '_ {
        self.live.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w * 64) as u32 + b
                })
            })
        })
    }

    /// Heap bytes held (reserved capacity).
    pub fn memory_bytes(&self) -> usize {
        self.live.capacity() * size_of::<u64>() + self.released.capacity() * size_of::<Entity>()
    }

    /// Checks the invariants stated at the fields.
    ///
    /// # Errors
    /// A description of the first broken one.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.live.len() != self.slots.div_ceil(64) {
            return Err(format!(
                "{} liveness words for {} slots",
                self.live.len(),
                self.slots
            ));
        }
        let live: Vec<Entity> = self.iter_live().collect();
        if live.last().is_some_and(|&e| e as usize >= self.slots) {
            return Err("a liveness bit is set past the slot count".into());
        }
        if live.len() != self.live_count {
            return Err(format!(
                "live_count {} but {} bits set",
                self.live_count,
                live.len()
            ));
        }
        let mut seen = vec![false; self.slots];
        for &e in &self.released {
            let i = e as usize;
            if i >= self.slots || seen[i] || self.is_live(e) {
                return Err(format!(
                    "released handle {e} is out of range, repeated or live"
                ));
            }
            seen[i] = true;
        }
        if self.released.len() + self.live_count != self.slots {
            return Err(format!(
                "{} released + {} live != {} slots",
                self.released.len(),
                self.live_count,
                self.slots
            ));
        }
        Ok(())
    }
}

/// What every tag store keeps besides its tags: the entity set, the tag count and the
/// allocator calls, with the operations on the design's per-entity array (`records`, one entry
/// per handle ever handed out: a list, a chain head, a block) that do not depend on what an
/// entry holds.
#[derive(Debug, Clone, Default)]
pub struct Bookkeeping {
    /// Which handles are live, and which released ones to hand out next.
    pub(crate) entities: EntitySet,
    /// Tags over all live entities, each occurrence counted.
    pub(crate) tag_count: usize,
    /// Calls to the global allocator so far, by the store's own accounting (see
    /// [`TagStore::allocator_calls`](super::TagStore::allocator_calls)).
    pub(crate) allocator_calls: u64,
}

impl Bookkeeping {
    /// No entities, no tags, no heap memory.
    pub const fn new() -> Self {
        Self {
            entities: EntitySet::new(),
            tag_count: 0,
            allocator_calls: 0,
        }
    }

    /// Hands out a handle below `limit`: a released one, whose entry in `records` the design
    /// left empty, or a fresh one, for which `fresh()` is appended to `records` (its growth
    /// counted as an allocator call).
    ///
    /// # Errors
    /// [`TagError::IndexSpaceExhausted`] when every handle below `limit` is live.
    pub fn create<R>(
        &mut self,
        limit: u32,
        records: &mut Vec<R>,
        fresh: impl FnOnce() -> R,
    ) -> Result<Entity, TagError> {
        match self.entities.create(limit, &mut self.allocator_calls)? {
            Created::Reused(e) => Ok(e),
            Created::Fresh(e) => {
                push_counted(records, fresh(), &mut self.allocator_calls);
                Ok(e)
            }
        }
    }

    /// `entity`'s entry in `records`, if `entity` is live.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] otherwise.
    #[inline]
    pub fn record<'a, R>(&self, records: &'a [R], entity: Entity) -> Result<&'a R, TagError> {
        self.entities.check(entity)?;
        Ok(&records[entity as usize])
    }

    /// `entity`'s entry in `records`, mutably, if `entity` is live.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] otherwise.
    #[inline]
    pub fn record_mut<'a, R>(
        &self,
        records: &'a mut [R],
        entity: Entity,
    ) -> Result<&'a mut R, TagError> {
        self.entities.check(entity)?;
        Ok(&mut records[entity as usize])
    }

    /// Releases the live `entity`, whose tags the design has already freed, for reuse.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] if it is not live (nothing changes).
    pub fn release(&mut self, entity: Entity) -> Result<(), TagError> {
        self.entities.destroy(entity, &mut self.allocator_calls)
    }

    /// Heap bytes of the entity set and of the `records` buffer (not what entries point to).
    pub fn memory_bytes<R>(&self, records: &Vec<R>) -> usize {
        self.entities.memory_bytes() + records.capacity() * size_of::<R>()
    }

    /// Checks the entity set, and that `records` (the design's `what`) has one entry per
    /// handle ever handed out.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn check_records<R>(&self, records: &[R], what: &str) -> Result<(), String> {
        self.entities.check_invariants()?;
        if records.len() == self.entities.slots() {
            Ok(())
        } else {
            Err(format!(
                "{} {what} for {} entity slots",
                records.len(),
                self.entities.slots()
            ))
        }
    }

    /// Checks that no released entity's entry in `records` still `holds` tags or storage.
    ///
    /// # Errors
    /// The first released entity that does.
    pub fn check_released<R>(
        &self,
        records: &[R],
        holds: impl Fn(&R) -> bool,
    ) -> Result<(), String> {
        match records
            .iter()
            .enumerate()
            .find(|&(e, record)| !self.entities.is_live(e as Entity) && holds(record))
        {
            Some((e, _)) => Err(format!("released entity {e} still holds tags or storage")),
            None => Ok(()),
        }
    }

    /// Checks the tag count against the `total` the design counted in its storage.
    ///
    /// # Errors
    /// The two numbers, when they differ.
    pub fn check_tag_count(&self, total: usize) -> Result<(), String> {
        if total == self.tag_count {
            Ok(())
        } else {
            Err(format!("tag_count {} but {total} tags", self.tag_count))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_run_is_n_creates_and_waits_for_released_handles() {
        let (mut run, mut one_by_one) = (EntitySet::new(), EntitySet::new());
        let (mut a, mut b) = (0, 0);
        for (n, start) in [(3, 0), (130, 3), (0, 133), (61, 133)] {
            assert_eq!(
                run.create_fresh_run(n, u32::MAX, &mut a),
                Ok(Some(start..start + n as Entity))
            );
            for _ in 0..n {
                one_by_one.create(u32::MAX, &mut b).unwrap();
            }
            assert_eq!(format!("{run:?}"), format!("{one_by_one:?}"));
            run.check_invariants().unwrap();
        }
        assert!(matches!(
            run.create_fresh_run(7, 200, &mut a),
            Err(TagError::IndexSpaceExhausted { .. })
        ));
        run.destroy(5, &mut a).unwrap();
        assert_eq!(run.create_fresh_run(2, u32::MAX, &mut a), Ok(None));
        run.check_invariants().unwrap();
    }

    #[test]
    fn released_handles_are_reused_lifo() {
        let mut set = EntitySet::new();
        let mut calls = 0;
        for i in 0..70 {
            assert_eq!(set.create(u32::MAX, &mut calls), Ok(Created::Fresh(i)));
        }
        set.destroy(3, &mut calls).unwrap();
        set.destroy(65, &mut calls).unwrap();
        assert_eq!(
            set.destroy(65, &mut calls),
            Err(TagError::NoSuchEntity { entity: 65 })
        );
        assert_eq!(set.create(u32::MAX, &mut calls), Ok(Created::Reused(65)));
        assert_eq!(set.create(u32::MAX, &mut calls), Ok(Created::Reused(3)));
        assert_eq!(set.create(u32::MAX, &mut calls), Ok(Created::Fresh(70)));
        assert_eq!(set.len(), 71);
        assert_eq!(set.iter_live().count(), 71);
        set.check_invariants().unwrap();
    }

    #[test]
    fn limit_is_a_clear_error() {
        let mut set = EntitySet::new();
        let mut calls = 0;
        set.create(1, &mut calls).unwrap();
        assert_eq!(
            set.create(1, &mut calls),
            Err(TagError::IndexSpaceExhausted {
                what: "entities",
                limit: 1
            })
        );
        set.check_invariants().unwrap();
    }
}
