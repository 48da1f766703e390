//! The article's fuzzy hash grid (seed 003, "Fuzzy hashing"), its XOR-key ablation and its
//! cell-size sweep: positions quantised to cells of `2 × radius` (scaled by `Q / 4`), the
//! integer cell coordinates hashed to a `u64` key, and each key's points kept as the index
//! article's set: a hash from key to the first point plus an intrusive cyclic list threaded
//! through `u32` links per point (the shared [`crate::intrusive_list`], as the relation index).
//!
//! Layout: per ID `pos: [f32; D]`, a `Link {prev, next}` and a live flag (side arrays indexed
//! by the caller's ID), and `first: HashMap<u64 key, u32 first ID>` (std's SipHash under fixed
//! keys, as `relations::intrusive`). Insert, remove and move are O(1) (a move that stays in
//! its cell's key only writes the position). A query visits the cells its ball's bounding box
//! covers: the 2^n cells nearest the point at the design radius (4 in 2D, 8 in 3D), about
//! `(2·r/cell + 1)^n` at other radii, walking each key's list and testing each point's
//! distance. When that box has more cells than there are keys, or `r * r` overflows (so no box
//! holds the answer, [`needs_full_scan`]), it walks every key once instead (so a huge radius
//! costs O(n), never O(cells)).
//!
//! Keys: [`Mix`] is the article's `mix(ix, iy)` (`a *= 0xc6a4a7935bd1e995; a ^= a >> 47;
//! a *= …; return a ^ b`, folded left for 3D); [`Xor`] is `ix ^ iy (^ iz)`, which the article
//! warns "would put the grid cells (0,0) and (1,1) in the same hash bucket": every diagonal
//! shares key 0 and a query walks the whole diagonal. Points of colliding cells are tested and
//! skipped (a hit is reported only from its own cell, so no point is reported twice).
//!
//! Fixed from the article's listing: `(uint64_t)(p.x / 10.0f + (float)INT64_MAX)` adds a small
//! float to 9.2e18 in `f32` (24-bit mantissa), which rounds every position to the same value,
//! so every point would land in one cell. Here the cell is `floor(x / cell)` in `f64` as an
//! `i64`, then offset by 2^63 as the article intends (so negative cells hash like the rest).

use crate::DesignMeta;
use std::collections::HashMap;
use std::marker::PhantomData;

use super::{
    GridMath, NoTally, PointId, QueryCost, Space, SpatialDesignInfo, SpatialDesignKind,
    SpatialError, SpatialIndex, Tally, cells_in, check_id, check_live, check_point, for_each_cell,
    grow_to, needs_full_scan, vec_bytes, within,
};
use crate::hashing::{FixedSipHash, hash_map_bytes};
use crate::intrusive_list::{
    Link, check_cycle, for_each_in_cycle, insert_after, make_singleton, unlink,
};

/// How integer cell coordinates become a hash key.
pub trait CellKey: Clone + std::fmt::Debug + Default + 'static {
    /// Whether this is the XOR ablation (names the registry entry).
    const XOR: bool;
    /// The key of `cell`.
    fn key<const D: usize>(cell: &[i64; D]) -> u64;
}

/// A cell coordinate as the article's unsigned grid coordinate (offset by 2^63).
#[inline(always)]
fn biased(c: i64) -> u64 {
    (c as u64).wrapping_add(1 << 63)
}

/// The article's mixing function, verbatim.
#[inline(always)]
pub fn mix(mut a: u64, b: u64) -> u64 {
    a = a.wrapping_mul(0xc6a4_a793_5bd1_e995);
    a ^= a >> 47;
    a = a.wrapping_mul(0xc6a4_a793_5bd1_e995);
    a ^ b
}

/// The article's key: `mix(ix, iy)`, `mix(mix(ix, iy), iz)` in 3D.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mix;

impl CellKey for Mix {
    const XOR: bool = false;
    #[inline(always)]
    fn key<const D: usize>(cell: &[i64; D]) -> u64 {
        let mut k = biased(cell[0]);
        for &c in &cell[1..] {
            k = mix(k, biased(c));
        }
        k
    }
}

/// The ablation the article warns against: `ix ^ iy (^ iz)`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Xor;

impl CellKey for Xor {
    const XOR: bool = true;
    #[inline(always)]
    fn key<const D: usize>(cell: &[i64; D]) -> u64 {
        cell.iter().fold(0, |k, &c| k ^ biased(c))
    }
}

/// The registry entry of key `xor` and cell scale `q` quarters of `2 × radius`.
const fn info(xor: bool, q: u32) -> SpatialDesignInfo {
    let (name, description) = match (xor, q) {
        (false, 4) => (
            "fuzzy_hash",
            "article: cell = 2r, key mix(ix, iy), per-key intrusive cyclic lists; a query walks the 2^n nearest cells",
        ),
        (true, 4) => (
            "fuzzy_hash_xor",
            "article ablation: fuzzy_hash with key ix ^ iy (diagonal cells share a key)",
        ),
        (false, 2) => (
            "fuzzy_hash_cell_0_5x",
            "article sweep: fuzzy_hash with cell = 0.5 x 2r",
        ),
        (false, 8) => (
            "fuzzy_hash_cell_2x",
            "article sweep: fuzzy_hash with cell = 2 x 2r",
        ),
        (false, 16) => (
            "fuzzy_hash_cell_4x",
            "article sweep: fuzzy_hash with cell = 4 x 2r",
        ),
        _ => panic!("unregistered fuzzy hash variant"),
    };
    SpatialDesignInfo {
        meta: DesignMeta {
            name,
            description,
            kind: SpatialDesignKind::Article,
        },
        supports_3d: true,
        max_live: None,
        static_only: false,
    }
}

/// The fuzzy hash grid with key `K` and cells of `2 × radius × Q / 4`.
#[derive(Debug, Clone)]
pub struct FuzzyHash<const D: usize, K: CellKey, const Q: u32> {
    grid: GridMath,
    /// `pos[id]`: the position of point `id` (stale for dead IDs).
    pos: Vec<[f32; D]>,
    /// `links[id]`: point `id`'s neighbours in the cycle of its key (live IDs only); every
    /// live point is in the cycle of `K::key(cell_of(pos))`, and nowhere else.
    links: Vec<Link>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
    /// Key → a member of its cycle (the article's `first`): exactly the keys with live points.
    first: HashMap<u64, PointId, FixedSipHash>,
    /// Number of live points.
    len: usize,
    _key: PhantomData<K>,
}

/// The article's design: cell = 2r, `mix` key.
pub type FuzzyMix<const D: usize> = FuzzyHash<D, Mix, 4>;
/// The XOR-key ablation.
pub type FuzzyXor<const D: usize> = FuzzyHash<D, Xor, 4>;
/// Cell = 0.5 × 2r.
pub type FuzzyCellHalf<const D: usize> = FuzzyHash<D, Mix, 2>;
/// Cell = 2 × 2r.
pub type FuzzyCellDouble<const D: usize> = FuzzyHash<D, Mix, 8>;
/// Cell = 4 × 2r.
pub type FuzzyCellQuadruple<const D: usize> = FuzzyHash<D, Mix, 16>;

impl<const D: usize, K: CellKey, const Q: u32> FuzzyHash<D, K, Q> {
    #[inline(always)]
    fn key_of(&self, p: &[f32; D]) -> u64 {
        K::key(&self.grid.cell_of(p))
    }

    /// Puts live point `id` into the cycle of `key` (after the first, or as a new first).
    fn link(&mut self, id: PointId, key: u64) {
        match self.first.get(&key) {
            Some(&f) => insert_after(&mut self.links[..], f, id),
            None => {
                make_singleton(&mut self.links[..], id);
                self.first.insert(key, id);
            }
        }
    }

    /// Takes point `id` out of the cycle of `key`, moving or dropping the key's first.
    fn unlink(&mut self, id: PointId, key: u64) {
        match unlink(&mut self.links[..], id) {
            None => {
                self.first.remove(&key);
            }
            Some(next) => {
                let f = self
                    .first
                    .get_mut(&key)
                    .expect("a live point's key is held");
                if *f == id {
                    *f = next;
                }
            }
        }
    }

    /// The query, counting into `tally`.
    #[inline(always)]
    fn query_with<T: Tally>(
        &self,
        center: [f32; D],
        r: f32,
        tally: &mut T,
        mut f: impl FnMut(PointId),
    ) {
        let (lo, hi) = self.grid.query_range(&center, r);
        let (links, pos) = (&self.links[..], &self.pos);
        if cells_in(&lo, &hi) > self.first.len() as u64 || needs_full_scan(r) {
            for &start in self.first.values() {
                tally.cell();
                for_each_in_cycle(links, start, |x| {
                    tally.tested();
                    if within(&pos[x as usize], &center, r) {
                        f(x);
                    }
                });
            }
            return;
        }
        for_each_cell(&lo, &hi, |cell| {
            tally.cell();
            if let Some(&start) = self.first.get(&K::key(&cell)) {
                for_each_in_cycle(links, start, |x| {
                    tally.tested();
                    let p = &pos[x as usize];
                    // A colliding key's points belong to another cell, visited (or not) on
                    // their own: report each hit from its own cell only.
                    if within(p, &center, r) && self.grid.cell_of(p) == cell {
                        f(x);
                    }
                });
            }
        });
    }
}

impl<const D: usize, K: CellKey, const Q: u32> SpatialIndex<D> for FuzzyHash<D, K, Q> {
    const INFO: SpatialDesignInfo = info(K::XOR, Q);

    fn new(space: &Space<D>) -> Self {
        let cell = 2.0 * f64::from(space.sanitized().radius) * f64::from(Q) / 4.0;
        Self {
            grid: GridMath::new(cell),
            pos: Vec::new(),
            links: Vec::new(),
            live: Vec::new(),
            first: HashMap::default(),
            len: 0,
            _key: PhantomData,
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let live = grow_to(&mut self.live, id, false);
        if *live {
            return Err(SpatialError::AlreadyLive { id });
        }
        *live = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        grow_to(&mut self.links, id, Link::default());
        let key = self.key_of(&p);
        self.link(id, key);
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        check_live(&self.live, id)?;
        let key = self.key_of(&self.pos[id as usize]);
        self.unlink(id, key);
        self.live[id as usize] = false;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        check_live(&self.live, id)?;
        let old = self.key_of(&self.pos[id as usize]);
        let new = self.key_of(&p);
        self.pos[id as usize] = p;
        if old != new {
            self.unlink(id, old);
            self.link(id, new);
        }
        Ok(())
    }

    #[inline]
    fn query(&mut self, center: [f32; D], r: f32, f: impl FnMut(PointId)) {
        self.query_with(center, r, &mut NoTally, f);
    }

    fn query_cost(&mut self, center: [f32; D], r: f32) -> Option<QueryCost> {
        let mut cost = QueryCost::default();
        self.query_with(center, r, &mut cost, |_| {});
        Some(cost)
    }

    fn longest_chain(&self) -> Option<u64> {
        let mut longest = 0u64;
        for &start in self.first.values() {
            let mut n = 0u64;
            for_each_in_cycle(&self.links[..], start, |_| n += 1);
            longest = longest.max(n);
        }
        Some(longest)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.pos)
            + vec_bytes(&self.links)
            + vec_bytes(&self.live)
            + hash_map_bytes::<u64, PointId>(self.first.capacity())
    }

    fn check_invariants(&self) -> Result<(), String> {
        let bound = self.links.len();
        let mut seen = 0usize;
        for (&key, &start) in &self.first {
            let n = check_cycle(&self.links[..], start, bound)?;
            let mut bad = None;
            for_each_in_cycle(&self.links[..], start, |x| {
                if !self.live[x as usize] {
                    bad.get_or_insert(format!("dead point {x} in the cycle of key {key:#x}"));
                } else if self.key_of(&self.pos[x as usize]) != key {
                    bad.get_or_insert(format!(
                        "point {x} in the cycle of key {key:#x}, not its own"
                    ));
                }
            });
            if let Some(b) = bad {
                return Err(b);
            }
            seen += n;
        }
        let live = self.live.iter().filter(|&&l| l).count();
        if seen != live || live != self.len {
            return Err(format!(
                "{seen} points in cycles, {live} live flags, len {}",
                self.len
            ));
        }
        Ok(())
    }
}
