//! The article's instance data (F11), shared by the SoA designs: per slot the owner id, local
//! and world transforms and the parent / first child / next sibling / previous sibling links
//! as slot indices, plus the safe three-step swap of two slots through the spare slot at the
//! end of the arrays (F12).
//!
//! Ids are stable (`slot_of[id]`), slots are not: deferred designs reorder the arrays by
//! swapping, and destroy is a swap-erase (the last slot moves into the hole). Differences from
//! the article: one `Vec` per field instead of one buffer carved into arrays (the same access
//! pattern, seven allocations instead of one), and an id → slot map in place of the entity →
//! instance hash map.
//!
//! Each design may keep one more per-slot field `E` (a dirty stamp, a frame counter) that moves
//! with its slot.

use super::{Affine, XfError, world_of};

/// No slot / no id.
pub const NIL: u32 = u32::MAX;

/// The SoA arrays of one transform component. Every per-slot `Vec` has `size + 1` entries:
/// slots `0..size` are live, slot `size` is the spare the three-step swap goes through.
#[derive(Debug, Clone)]
pub struct Hierarchy<E: Copy + Default> {
    /// Live slots.
    pub size: u32,
    /// `id_of[s]`: the id living in slot `s`. Invariant: `slot_of[id_of[s]] == s`.
    pub id_of: Vec<u32>,
    /// Local transform relative to the parent.
    pub local: Vec<Affine>,
    /// World transform (current after `end_frame`).
    pub world: Vec<Affine>,
    /// Parent slot or [`NIL`]. Invariant: `s` is among its parent's children.
    pub parent: Vec<u32>,
    /// First child slot or [`NIL`]; the children are threaded by `next_sibling`.
    pub first_child: Vec<u32>,
    /// Next sibling slot or [`NIL`]. Invariant: `prev_sibling[next_sibling[s]] == s`.
    pub next_sibling: Vec<u32>,
    /// Previous sibling slot or [`NIL`] (for the first child).
    pub prev_sibling: Vec<u32>,
    /// The design's own per-slot field.
    pub extra: Vec<E>,
    /// `slot_of[id]`: the slot of a live id, [`NIL`] for a released one.
    pub slot_of: Vec<u32>,
    /// Released ids, reused most recent first.
    free_ids: Vec<u32>,
    /// World products computed (`Affine::mul`, the family's work counter).
    pub updates: u64,
}

impl<E: Copy + Default> Default for Hierarchy<E> {
    fn default() -> Self {
        let mut h = Hierarchy {
            size: 0,
            id_of: Vec::new(),
            local: Vec::new(),
            world: Vec::new(),
            parent: Vec::new(),
            first_child: Vec::new(),
            next_sibling: Vec::new(),
            prev_sibling: Vec::new(),
            extra: Vec::new(),
            slot_of: Vec::new(),
            free_ids: Vec::new(),
            updates: 0,
        };
        h.push_spare();
        h
    }
}

impl<E: Copy + Default> Hierarchy<E> {
    fn push_spare(&mut self) {
        self.id_of.push(NIL);
        self.local.push(Affine::IDENTITY);
        self.world.push(Affine::IDENTITY);
        self.parent.push(NIL);
        self.first_child.push(NIL);
        self.next_sibling.push(NIL);
        self.prev_sibling.push(NIL);
        self.extra.push(E::default());
    }

    /// The per-slot `u32` arrays: the owner id and the four links.
    fn slot_links(&mut self) -> [&mut Vec<u32>; 5] {
        [
            &mut self.id_of,
            &mut self.parent,
            &mut self.first_child,
            &mut self.next_sibling,
            &mut self.prev_sibling,
        ]
    }

    /// The slot of live `id`.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    #[inline]
    pub fn slot(&self, id: u32) -> Result<u32, XfError> {
        match self.slot_of.get(id as usize) {
            Some(&s) if s != NIL => Ok(s),
            _ => Err(XfError::no_such(id)),
        }
    }

    /// The slot of `parent` (`None`: [`NIL`], a root).
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    #[inline]
    pub fn parent_slot(&self, parent: Option<u32>) -> Result<u32, XfError> {
        match parent {
            Some(p) => self.slot(p),
            None => Ok(NIL),
        }
    }

    /// Appends a node in slot `size` under `parent_slot` (or [`NIL`]) with `extra`; its world
    /// is computed now from the parent's current world. Returns `(id, slot)`.
    ///
    /// # Errors
    /// [`XfError::IndexSpaceExhausted`].
    pub fn push(
        &mut self,
        parent_slot: u32,
        local: Affine,
        extra: E,
    ) -> Result<(u32, u32), XfError> {
        if self.size >= NIL - 1 {
            return Err(XfError::IndexSpaceExhausted {
                limit: u64::from(NIL - 1),
            });
        }
        let id = match self.free_ids.pop() {
            Some(id) => id,
            None => {
                self.slot_of.push(NIL);
                (self.slot_of.len() - 1) as u32
            }
        };
        let s = self.size;
        self.size += 1;
        self.push_spare();
        let i = s as usize;
        self.id_of[i] = id;
        self.local[i] = local;
        self.extra[i] = extra;
        self.first_child[i] = NIL;
        self.slot_of[id as usize] = s;
        self.link(s, parent_slot);
        self.recompute(s);
        Ok((id, s))
    }

    /// Appends `locals.len()` nodes in slots `size..size + n`, node `k` with local `locals[k]`
    /// under the live node with id `parents[k]` (`None`: a root), each with `extra`: the state
    /// `n` calls of [`push`](Self::push) in order leave (the same ids, links and worlds), with
    /// each array extended once. Returns the first new slot; the new ids are
    /// `id_of[first..first + n]`.
    ///
    /// `parents` is read twice (checked, then used) and only for its first `n` items, so a
    /// run of roots can pass `std::iter::repeat(None)`.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`] for a parent that is not live before the call;
    /// [`XfError::IndexSpaceExhausted`]. Nothing changes.
    pub fn push_run(
        &mut self,
        locals: &[Affine],
        parents: impl Iterator<Item = Option<u32>> + Clone,
        extra: E,
    ) -> Result<u32, XfError> {
        let n = locals.len();
        let first = self.size;
        if first as usize + n > (NIL - 1) as usize {
            return Err(XfError::IndexSpaceExhausted {
                limit: u64::from(NIL - 1),
            });
        }
        for p in parents.clone().take(n).flatten() {
            self.slot(p)?;
        }
        if n == 0 {
            return Ok(first);
        }
        let end = first as usize + n;
        // The spare slot goes; a fresh one is appended after the run (`push` overwrites the
        // old spare and appends a fresh one: the same arrays).
        let live = first as usize;
        for links in self.slot_links() {
            links.truncate(live);
            links.resize(end, NIL);
        }
        // Ids: released ones first, most recent first (as `push` pops them), then new ones,
        // which take the next slots in order (one `extend` of `slot_of`).
        let reused = self.free_ids.len().min(n);
        let from_free = self.free_ids.len() - reused;
        let (mut s, mut at) = (first, live);
        for id in self.free_ids.drain(from_free..).rev() {
            self.id_of[at] = id;
            self.slot_of[id as usize] = s;
            (s, at) = (s + 1, at + 1);
        }
        let fresh = self.slot_of.len() as u32;
        for (slot, id) in self.id_of[at..end].iter_mut().zip(fresh..) {
            *slot = id;
        }
        self.slot_of.extend(s..end as u32);
        self.local.truncate(live);
        self.local.extend_from_slice(locals);
        // A root's world is its local, copied; a child's is computed below.
        self.world.truncate(live);
        self.world.extend_from_slice(locals);
        self.extra.truncate(live);
        self.extra.resize(end, extra);
        for (s, p) in (first..).zip(parents.take(n)) {
            if let Some(p) = p {
                let p = self.slot_of[p as usize];
                self.link(s, p);
                // What `recompute` does for a child, written here: one more call site of
                // `recompute` changes where the compiler inlines it, and with it the simulated
                // instructions of the transform designs (`dodbench cache --family transforms`).
                self.updates += 1;
                let world = world_of(&self.local[s as usize], Some(&self.world[p as usize]));
                self.world[s as usize] = world;
            }
        }
        self.size = end as u32;
        self.push_spare();
        Ok(first)
    }

    /// Reserves room for `additional` more slots in every array (no change of state).
    pub fn reserve(&mut self, additional: usize) {
        for links in self.slot_links() {
            links.reserve(additional);
        }
        self.slot_of.reserve(additional);
        self.local.reserve(additional);
        self.world.reserve(additional);
        self.extra.reserve(additional);
    }

    /// Recomputes slot `s`'s world from its local and its parent's current world.
    #[inline]
    pub fn recompute(&mut self, s: u32) {
        let p = self.parent[s as usize];
        let w = if p == NIL {
            world_of(&self.local[s as usize], None)
        } else {
            self.updates += 1;
            world_of(&self.local[s as usize], Some(&self.world[p as usize]))
        };
        self.world[s as usize] = w;
    }

    /// Makes unlinked slot `s` the first child of `p` (nothing for [`NIL`]). Always inlined:
    /// with [`push_run`](Self::push_run) as another caller the compiler kept it out of line
    /// in [`push`](Self::push), a call per transform of every spawn design on the shared world
    /// (`dodbench cache --family spawn`, simulated instructions of `spawn-level`).
    #[inline(always)]
    pub fn link(&mut self, s: u32, p: u32) {
        self.parent[s as usize] = p;
        self.prev_sibling[s as usize] = NIL;
        if p == NIL {
            self.next_sibling[s as usize] = NIL;
            return;
        }
        let first = self.first_child[p as usize];
        self.next_sibling[s as usize] = first;
        if first != NIL {
            self.prev_sibling[first as usize] = s;
        }
        self.first_child[p as usize] = s;
    }

    /// Points the links into one place of a child list, between `prev` and `next` under
    /// parent `p`, at new slots: the previous sibling's `next_sibling` (or, for the first
    /// child, the parent's `first_child`) at `after_prev`, the next sibling's `prev_sibling`
    /// at `before_next`.
    #[inline]
    fn point_neighbours(
        &mut self,
        p: u32,
        prev: u32,
        next: u32,
        after_prev: u32,
        before_next: u32,
    ) {
        if prev != NIL {
            self.next_sibling[prev as usize] = after_prev;
        } else if p != NIL {
            self.first_child[p as usize] = after_prev;
        }
        if next != NIL {
            self.prev_sibling[next as usize] = before_next;
        }
    }

    /// Takes slot `s` out of its parent's child list; it becomes a root.
    pub fn unlink(&mut self, s: u32) {
        let (p, prev, next) = (
            self.parent[s as usize],
            self.prev_sibling[s as usize],
            self.next_sibling[s as usize],
        );
        self.point_neighbours(p, prev, next, next, prev);
        self.parent[s as usize] = NIL;
        self.prev_sibling[s as usize] = NIL;
        self.next_sibling[s as usize] = NIL;
    }

    /// Whether slot `a` is `s` or one of its ancestors... i.e. whether `s` lies in `a`'s
    /// subtree (walks up from `s`: O(depth)).
    pub fn in_subtree(&self, s: u32, a: u32) -> bool {
        let mut x = s;
        while x != NIL {
            if x == a {
                return true;
            }
            x = self.parent[x as usize];
        }
        false
    }

    /// Checks and performs `set_parent` on slots: refuses a cycle, relinks.
    ///
    /// # Errors
    /// [`XfError::Cycle`] (ids in the message).
    pub fn reparent(&mut self, s: u32, p: u32) -> Result<(), XfError> {
        if p != NIL && self.in_subtree(p, s) {
            return Err(XfError::cycle(
                self.id_of[s as usize],
                self.id_of[p as usize],
            ));
        }
        self.unlink(s);
        self.link(s, p);
        Ok(())
    }

    /// Copies slot `src` into unreferenced slot `dst` and points every reference to `src`
    /// (parent's first child, siblings, children's parent, `slot_of`) at `dst`. `src` is then
    /// unreferenced.
    fn move_slot(&mut self, src: u32, dst: u32) {
        let (s, d) = (src as usize, dst as usize);
        self.id_of[d] = self.id_of[s];
        self.local[d] = self.local[s];
        self.world[d] = self.world[s];
        self.extra[d] = self.extra[s];
        let (p, fc, next, prev) = (
            self.parent[s],
            self.first_child[s],
            self.next_sibling[s],
            self.prev_sibling[s],
        );
        self.parent[d] = p;
        self.first_child[d] = fc;
        self.next_sibling[d] = next;
        self.prev_sibling[d] = prev;
        self.point_neighbours(p, prev, next, dst, dst);
        let mut c = fc;
        while c != NIL {
            self.parent[c as usize] = dst;
            c = self.next_sibling[c as usize];
        }
        let id = self.id_of[d];
        if id != NIL {
            self.slot_of[id as usize] = dst;
        }
    }

    /// Swaps the contents of slots `a` and `b`, keeping all four link kinds intact: the
    /// article's three steps through the spare slot `[size]` (F12).
    pub fn swap(&mut self, a: u32, b: u32) {
        if a == b {
            return;
        }
        let spare = self.size;
        self.move_slot(a, spare);
        self.move_slot(b, a);
        self.move_slot(spare, b);
        let spare = spare as usize;
        self.id_of[spare] = NIL;
        self.parent[spare] = NIL;
        self.first_child[spare] = NIL;
        self.next_sibling[spare] = NIL;
        self.prev_sibling[spare] = NIL;
    }

    /// Removes unlinked, childless slot `s` (swap-erase: the last slot moves into it) and
    /// releases its id.
    pub fn remove(&mut self, s: u32) {
        let id = self.id_of[s as usize];
        self.slot_of[id as usize] = NIL;
        self.free_ids.push(id);
        let last = self.size - 1;
        if s != last {
            self.move_slot(last, s);
        }
        self.size -= 1;
        self.id_of.pop();
        self.local.pop();
        self.world.pop();
        self.parent.pop();
        self.first_child.pop();
        self.next_sibling.pop();
        self.prev_sibling.pop();
        self.extra.pop();
        let spare = self.size as usize;
        self.id_of[spare] = NIL;
        self.parent[spare] = NIL;
        self.first_child[spare] = NIL;
        self.next_sibling[spare] = NIL;
        self.prev_sibling[spare] = NIL;
    }

    /// The deferred designs' parent/child fix-up at slot `i` of an ordered walk: while `i`'s
    /// parent sits at a later slot, swaps the two (F12's three-step swap), so the parent is
    /// before `i`. Returns the parent's slot ([`NIL`] for a root).
    #[inline]
    pub fn pull_parent_before(&mut self, i: u32) -> u32 {
        let mut p = self.parent[i as usize];
        while p != NIL && p > i {
            self.swap(i, p);
            p = self.parent[i as usize];
        }
        p
    }

    /// Makes every child of slot `s` a root, calling `on_child(self, child_slot)` after each.
    pub fn orphan_children(&mut self, s: u32, mut on_child: impl FnMut(&mut Self, u32)) {
        while self.first_child[s as usize] != NIL {
            let c = self.first_child[s as usize];
            self.unlink(c);
            on_child(self, c);
        }
    }

    /// Heap bytes of every buffer, by capacity.
    pub fn memory_bytes(&self) -> usize {
        self.id_of.capacity() * 4
            + (self.local.capacity() + self.world.capacity()) * size_of::<Affine>()
            + (self.parent.capacity()
                + self.first_child.capacity()
                + self.next_sibling.capacity()
                + self.prev_sibling.capacity())
                * 4
            + self.extra.capacity() * size_of::<E>()
            + (self.slot_of.capacity() + self.free_ids.capacity()) * 4
    }

    /// Link symmetry, slot map agreement, array lengths; with `worlds_current`, also that every
    /// world is its local times its parent's world, bit for bit.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn check(&self, worlds_current: bool) -> Result<(), String> {
        let n = self.size as usize;
        for v in [
            self.id_of.len(),
            self.local.len(),
            self.world.len(),
            self.parent.len(),
            self.first_child.len(),
            self.next_sibling.len(),
            self.prev_sibling.len(),
            self.extra.len(),
        ] {
            if v != n + 1 {
                return Err(format!("an array has {v} entries for {n} slots + 1 spare"));
            }
        }
        let live_ids = self.slot_of.iter().filter(|&&s| s != NIL).count();
        if live_ids != n || live_ids + self.free_ids.len() != self.slot_of.len() {
            return Err(format!(
                "{live_ids} live ids, {} free, {} ids, {n} slots",
                self.free_ids.len(),
                self.slot_of.len()
            ));
        }
        let mut children_seen = 0usize;
        for s in 0..n {
            let id = self.id_of[s];
            if self.slot_of.get(id as usize) != Some(&(s as u32)) {
                return Err(format!("slot {s} holds id {id} whose slot differs"));
            }
            let p = self.parent[s];
            if p != NIL && p as usize >= n {
                return Err(format!("slot {s} has parent {p} out of range"));
            }
            let mut c = self.first_child[s];
            let mut prev = NIL;
            let mut count = 0;
            while c != NIL {
                if c as usize >= n || count > n {
                    return Err(format!("slot {s}: bad child list"));
                }
                if self.parent[c as usize] != s as u32 {
                    return Err(format!(
                        "slot {c} is a child of {s} but names parent {}",
                        self.parent[c as usize]
                    ));
                }
                if self.prev_sibling[c as usize] != prev {
                    return Err(format!("slot {c}: prev_sibling is not {prev}"));
                }
                prev = c;
                c = self.next_sibling[c as usize];
                count += 1;
            }
            children_seen += count;
            if p == NIL && (self.prev_sibling[s] != NIL || self.next_sibling[s] != NIL) {
                return Err(format!("root slot {s} has siblings"));
            }
        }
        let non_roots = (0..n).filter(|&s| self.parent[s] != NIL).count();
        if children_seen != non_roots {
            return Err(format!(
                "{children_seen} slots in child lists, {non_roots} with a parent"
            ));
        }
        if worlds_current {
            for s in 0..n {
                let p = self.parent[s];
                let want = world_of(&self.local[s], (p != NIL).then(|| &self.world[p as usize]));
                if !want.same_bits(&self.world[s]) {
                    return Err(format!("slot {s}: world is not local * parent world"));
                }
            }
        }
        Ok(())
    }
}

/// The reads every store over one [`Hierarchy`] answers from it alike (the immediate and the
/// deferred designs): `world` and `local` of an id through its slot, the node count and the
/// products computed. Expands inside the design's `impl TransformStore` (ids `u32`); the
/// design's hierarchy is its field `h`.
macro_rules! hierarchy_reads {
    () => {
        fn world(&self, node: u32) -> Result<Affine, XfError> {
            Ok(self.h.world[self.h.slot(node)? as usize])
        }

        fn local(&self, node: u32) -> Result<Affine, XfError> {
            Ok(self.h.local[self.h.slot(node)? as usize])
        }

        fn len(&self) -> usize {
            self.h.size as usize
        }

        fn world_updates(&self) -> u64 {
            self.h.updates
        }
    };
}
pub(crate) use hierarchy_reads;

#[cfg(test)]
mod tests {
    use super::*;

    /// A hierarchy of five roots and a child of slot 1, with the ids of slots 3 and 5 released.
    fn with_holes() -> Hierarchy<u8> {
        let mut h = Hierarchy::<u8>::default();
        for k in 0..5 {
            h.push(NIL, Affine::from_pose(k), 1).unwrap();
        }
        h.push(1, Affine::from_pose(9), 1).unwrap();
        let (a, b) = (h.slot(5).unwrap(), h.slot(3).unwrap());
        h.unlink(a);
        h.remove(a);
        h.remove(b);
        h
    }

    #[test]
    fn a_run_is_n_pushes_in_order() {
        let locals: Vec<Affine> = (0..4).map(|k| Affine::from_pose(k * 977 + 5)).collect();
        // Parents by id: a root, under id 1, a root, under id 4 (moved into slot 3).
        let parents = [None, Some(1), None, Some(4)];
        let mut run = with_holes();
        let first = run.push_run(&locals, parents.iter().copied(), 7).unwrap();
        let mut one_by_one = with_holes();
        for (local, parent) in locals.iter().zip(parents) {
            let p = parent.map_or(NIL, |id| one_by_one.slot(id).unwrap());
            one_by_one.push(p, *local, 7).unwrap();
        }
        assert_eq!(format!("{run:?}"), format!("{one_by_one:?}"));
        assert_eq!(
            &run.id_of[first as usize..first as usize + 4],
            &[3, 5, 6, 7]
        );
        run.check(true).unwrap();
    }

    #[test]
    fn a_run_under_a_dead_parent_changes_nothing() {
        let mut h = with_holes();
        let before = format!("{h:?}");
        let locals = [Affine::IDENTITY; 2];
        let got = h.push_run(&locals, [None, Some(5)].into_iter(), 0);
        assert_eq!(got, Err(XfError::no_such(5u32)));
        assert_eq!(format!("{h:?}"), before);
        let roots = h.push_run(&locals, std::iter::repeat(None), 0).unwrap();
        assert_eq!(roots, 4);
        h.check(true).unwrap();
    }
}
