//! The per-entity wrapper most designs share: a [`Component`] per live entity in one `Vec`,
//! released handles on a LIFO stack, so designs differ only in how one entity's data is laid
//! out (the article's DataComponent is per entity).

use super::{
    DataStore, Entity, Key, KvDesignInfo, KvError, SnapshotError, ValueRef, fresh_entity,
    push_counted,
};

/// One entity's data in one design: what a step of the article's ladder changes.
///
/// `Shared` is state every component of a store uses (a store-wide table or arena); `()` for
/// most designs. Methods count their allocator calls into `calls`.
pub trait Component: Default + Sized {
    /// Store-wide state the components share.
    type Shared: Default;
    /// Name, kind and limits of the design.
    const INFO: KvDesignInfo;

    /// Inserts or replaces `key`.
    ///
    /// # Errors
    /// [`KvError::TooLarge`] or [`KvError::Unrepresentable`] (with `entity` for the message);
    /// the component is then unchanged.
    fn set(
        &mut self,
        shared: &mut Self::Shared,
        entity: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError>;

    /// Calls `f` with the value of `key` (borrowed, or converted into a scratch buffer by a
    /// design that does not keep the value's bytes) and returns what `f` returns.
    fn read<R>(
        &self,
        shared: &Self::Shared,
        key: Key,
        f: impl FnOnce(Option<ValueRef<'_>>) -> R,
    ) -> R;

    /// Removes `key`; whether it was there.
    fn remove(&mut self, shared: &mut Self::Shared, key: Key, calls: &mut u64) -> bool;

    /// Frees everything (the entity is destroyed).
    fn release(&mut self, shared: &mut Self::Shared, calls: &mut u64);

    /// Keys held.
    fn len(&self) -> usize;

    /// Whether no key is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes this component holds (not counting `size_of::<Self>()`).
    fn memory_bytes(&self, shared: &Self::Shared) -> usize;

    /// Heap bytes the shared state holds.
    fn shared_memory_bytes(shared: &Self::Shared) -> usize {
        let _ = shared;
        0
    }

    /// Appends the relocatable copy of the data to `out` (empty on entry).
    fn snapshot(&self, shared: &Self::Shared, out: &mut Vec<u8>);

    /// Decodes a snapshot written by [`snapshot`](Component::snapshot).
    ///
    /// # Errors
    /// Malformed bytes.
    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError>;

    /// Checks the component's invariants.
    ///
    /// # Errors
    /// The first broken one.
    fn check_invariants(&self, shared: &Self::Shared) -> Result<(), String>;

    /// Checks the shared state's invariants, given every live component.
    ///
    /// # Errors
    /// The first broken one.
    fn check_shared(shared: &Self::Shared, live: &[&Self]) -> Result<(), String> {
        let _ = (shared, live);
        Ok(())
    }
}

/// One entity's data in a design with no store-wide state whose errors never name the entity
/// (most designs): a [`Component`] without those two parameters. Every such type is a
/// `Component` with `Shared = ()`, the methods forwarded.
pub trait LocalComponent: Default + Sized {
    /// Name, kind and limits of the design.
    const INFO: KvDesignInfo;

    /// Inserts or replaces `key` (see [`Component::set`]).
    ///
    /// # Errors
    /// [`KvError::TooLarge`] or [`KvError::Unrepresentable`]; the component is then unchanged.
    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError>;

    /// Calls `f` with the value of `key` (see [`Component::read`]).
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R;

    /// Removes `key`; whether it was there.
    fn remove(&mut self, key: Key, calls: &mut u64) -> bool;

    /// Frees everything (the entity is destroyed).
    fn release(&mut self, calls: &mut u64);

    /// Keys held.
    fn len(&self) -> usize;

    /// Whether no key is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes this component holds (not counting `size_of::<Self>()`).
    fn memory_bytes(&self) -> usize;

    /// Appends the relocatable copy of the data to `out` (empty on entry).
    fn snapshot(&self, out: &mut Vec<u8>);

    /// Decodes a snapshot written by [`snapshot`](LocalComponent::snapshot).
    ///
    /// # Errors
    /// Malformed bytes.
    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError>;

    /// Checks the component's invariants.
    ///
    /// # Errors
    /// The first broken one.
    fn check_invariants(&self) -> Result<(), String>;
}

impl<C: LocalComponent> Component for C {
    type Shared = ();
    const INFO: KvDesignInfo = <C as LocalComponent>::INFO;

    #[inline]
    fn set(
        &mut self,
        _: &mut (),
        _: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError> {
        LocalComponent::set(self, key, value, calls)
    }

    #[inline]
    fn read<R>(&self, _: &(), key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        LocalComponent::read(self, key, f)
    }

    #[inline]
    fn remove(&mut self, _: &mut (), key: Key, calls: &mut u64) -> bool {
        LocalComponent::remove(self, key, calls)
    }

    #[inline]
    fn release(&mut self, _: &mut (), calls: &mut u64) {
        LocalComponent::release(self, calls);
    }

    #[inline]
    fn len(&self) -> usize {
        LocalComponent::len(self)
    }

    fn memory_bytes(&self, _: &()) -> usize {
        LocalComponent::memory_bytes(self)
    }

    fn snapshot(&self, _: &(), out: &mut Vec<u8>) {
        LocalComponent::snapshot(self, out);
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        <C as LocalComponent>::visit_snapshot(bytes, f)
    }

    fn check_invariants(&self, _: &()) -> Result<(), String> {
        LocalComponent::check_invariants(self)
    }
}

/// A store of one [`Component`] per entity.
#[derive(Debug, Default)]
pub struct Entities<C: Component> {
    /// `slots[e]` is `Some` exactly while `e` is live.
    slots: Vec<Option<C>>,
    /// Released handles, most recent last; exactly the `None` slots, once each.
    released: Vec<Entity>,
    /// Live entities.
    live: usize,
    /// Keys over all live components.
    keys: usize,
    shared: C::Shared,
    allocator_calls: u64,
}

impl<C: Component> Entities<C> {
    fn component(&self, entity: Entity) -> Result<&C, KvError> {
        self.slots
            .get(entity as usize)
            .and_then(Option::as_ref)
            .ok_or(KvError::NoSuchEntity { entity })
    }

    /// The shared state and the live component of `entity`.
    fn parts(&mut self, entity: Entity) -> Result<(&mut C, &mut C::Shared), KvError> {
        let c = self
            .slots
            .get_mut(entity as usize)
            .and_then(Option::as_mut)
            .ok_or(KvError::NoSuchEntity { entity })?;
        Ok((c, &mut self.shared))
    }
}

impl<C: Component> DataStore for Entities<C> {
    const INFO: KvDesignInfo = C::INFO;

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            released: Vec::new(),
            live: 0,
            keys: 0,
            shared: C::Shared::default(),
            allocator_calls: 0,
        }
    }

    fn create_entity(&mut self) -> Result<Entity, KvError> {
        let entity = if let Some(e) = self.released.pop() {
            self.slots[e as usize] = Some(C::default());
            e
        } else {
            let e = fresh_entity(self.slots.len())?;
            push_counted(
                &mut self.slots,
                Some(C::default()),
                &mut self.allocator_calls,
            );
            e
        };
        self.live += 1;
        Ok(entity)
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), KvError> {
        let mut calls = 0;
        let (c, shared) = self.parts(entity)?;
        let n = c.len();
        c.release(shared, &mut calls);
        self.slots[entity as usize] = None;
        self.keys -= n;
        self.live -= 1;
        self.allocator_calls += calls;
        push_counted(&mut self.released, entity, &mut self.allocator_calls);
        Ok(())
    }

    #[inline]
    fn set(&mut self, entity: Entity, key: Key, value: ValueRef<'_>) -> Result<(), KvError> {
        let mut calls = 0;
        let (c, shared) = self.parts(entity)?;
        let before = c.len();
        c.set(shared, entity, key, value, &mut calls)?;
        let after = c.len();
        self.keys = self.keys + after - before;
        self.allocator_calls += calls;
        Ok(())
    }

    #[inline]
    fn get<R>(
        &self,
        entity: Entity,
        key: Key,
        f: impl FnOnce(Option<ValueRef<'_>>) -> R,
    ) -> Result<R, KvError> {
        Ok(self.component(entity)?.read(&self.shared, key, f))
    }

    #[inline]
    fn remove(&mut self, entity: Entity, key: Key) -> Result<bool, KvError> {
        let mut calls = 0;
        let (c, shared) = self.parts(entity)?;
        let found = c.remove(shared, key, &mut calls);
        self.keys -= usize::from(found);
        self.allocator_calls += calls;
        Ok(found)
    }

    fn snapshot(&self, entity: Entity, out: &mut Vec<u8>) -> Result<(), KvError> {
        let c = self.component(entity)?;
        out.clear();
        c.snapshot(&self.shared, out);
        Ok(())
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        C::visit_snapshot(bytes, f)
    }

    fn entity_count(&self) -> usize {
        self.live
    }

    fn key_count(&self) -> usize {
        self.keys
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Option<C>>()
            + self.released.capacity() * size_of::<Entity>()
            + C::shared_memory_bytes(&self.shared)
            + self
                .slots
                .iter()
                .flatten()
                .map(|c| c.memory_bytes(&self.shared))
                .sum::<usize>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut released = self.released.clone();
        released.sort_unstable();
        let dead: Vec<Entity> = (0..self.slots.len())
            .filter(|&e| self.slots[e].is_none())
            .map(|e| e as Entity)
            .collect();
        if released != dead {
            return Err(format!(
                "released handles {released:?} are not exactly the dead ones"
            ));
        }
        let live: Vec<&C> = self.slots.iter().flatten().collect();
        if live.len() != self.live {
            return Err(format!("live {} but {} components", self.live, live.len()));
        }
        let keys: usize = live.iter().map(|c| c.len()).sum();
        if keys != self.keys {
            return Err(format!(
                "key count {} but components hold {keys}",
                self.keys
            ));
        }
        for (e, c) in self.slots.iter().enumerate() {
            if let Some(c) = c {
                c.check_invariants(&self.shared)
                    .map_err(|err| format!("entity {e}: {err}"))?;
            }
        }
        C::check_shared(&self.shared, &live)
    }
}
