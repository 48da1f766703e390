//! The engine state every locking design guards: the units (the components family's single
//! buffer, [`BufferDirect`]) and the physics world (the spatial family's [`DenseGrid`]),
//! reused as they are, not re-implemented.

use crate::components::direct::BufferDirect;
use crate::components::entities::Entity;
use crate::components::{ComponentStore, PointMass, VectorField};
use crate::spatial::dense_grid::DenseGrid;
use crate::spatial::{Space, SpatialIndex};

/// Units `0..len` as point masses in one [`BufferDirect`] store: the Unit API's state.
#[derive(Debug, Clone)]
pub struct Units {
    store: BufferDirect,
    /// `entities[u]` is unit `u`'s entity in `store` (alive, with an instance).
    entities: Vec<Entity>,
}

impl Units {
    /// Units at `positions` (z = 0, mass 1, at rest), unit `u` at `positions[u]`.
    pub fn new(positions: &[[f32; 2]]) -> Self {
        let mut store = BufferDirect::new();
        let entities = positions
            .iter()
            .map(|p| {
                store
                    .spawn_with(PointMass {
                        mass: 1.0,
                        position: [p[0], p[1], 0.0],
                        ..PointMass::default()
                    })
                    .expect("a fresh store spawns below its entity limit")
            })
            .collect();
        Self { store, entities }
    }

    /// Number of units.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// Calls `f(first + i, position)` for every unit `i` here, in order: a design's
    /// [`positions`](super::GameplayRunner::positions), `first` being the number of the first
    /// unit these hold (0 for the whole world, a slice's start for a partition or stripe).
    pub fn visit_positions(&self, first: u32, f: &mut dyn FnMut(u32, [f32; 2])) {
        for i in 0..self.len() as u32 {
            f(first + i, self.position(i));
        }
    }

    /// Unit `unit`'s position.
    ///
    /// # Panics
    /// `unit` is not below [`len`](Self::len) (validated traces never name one).
    #[inline]
    pub fn position(&self, unit: u32) -> [f32; 2] {
        let p = self
            .store
            .position(self.entities[unit as usize])
            .ok()
            .flatten()
            .expect("a unit's entity is alive with an instance");
        [p[0], p[1]]
    }

    /// Adds `delta` to unit `unit`'s position.
    ///
    /// # Panics
    /// As [`position`](Self::position).
    #[inline]
    pub fn push(&mut self, unit: u32, delta: [f32; 2]) {
        let e = self.entities[unit as usize];
        let p = self
            .store
            .position(e)
            .ok()
            .flatten()
            .expect("a unit's entity is alive with an instance");
        let moved = [p[0] + delta[0], p[1] + delta[1], p[2]];
        self.store
            .write(e, VectorField::Position, moved)
            .expect("a unit's entity is alive");
    }

    /// Every unit's position, in unit order.
    pub fn all_positions(&self) -> Vec<[f32; 2]> {
        (0..self.len() as u32).map(|u| self.position(u)).collect()
    }

    /// Heap bytes (the store's accounting plus the entity list).
    pub fn memory_bytes(&self) -> usize {
        self.store.memory_bytes() + self.entities.capacity() * size_of::<Entity>()
    }

    /// The store's invariants, and every unit alive with an instance.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.store.check_invariants()?;
        for (u, &e) in self.entities.iter().enumerate() {
            if !matches!(self.store.position(e), Ok(Some(_))) {
                return Err(format!("unit {u} has no live instance"));
            }
        }
        Ok(())
    }
}

/// The physics world: a dense grid over the units' positions as of the last
/// [`sync`](Physics::sync), and the raycast radius. The Physics API's state.
#[derive(Debug, Clone)]
pub struct Physics {
    grid: DenseGrid<2>,
    /// `at[u]`: unit `u`'s position in `grid`.
    at: Vec<[f32; 2]>,
    radius: f32,
}

impl Physics {
    /// Physics over `positions` (unit `u` at `positions[u]`) for raycasts of `radius`: one bulk
    /// build of the grid, its cell twice the radius over the positions' bounding box.
    pub fn new(positions: &[[f32; 2]], radius: f32) -> Self {
        let mut lo = [0.0f32; 2];
        let mut hi = [1.0f32; 2];
        for k in 0..2 {
            lo[k] = positions.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
            hi[k] = positions
                .iter()
                .map(|p| p[k])
                .fold(f32::NEG_INFINITY, f32::max);
        }
        let space = Space { radius, lo, hi }.sanitized();
        let points: Vec<(u32, [f32; 2])> = positions
            .iter()
            .enumerate()
            .map(|(u, &p)| (u as u32, p))
            .collect();
        let grid = DenseGrid::build(&space, &points)
            .expect("unit IDs are in range and positions finite (validated)");
        Self {
            grid,
            at: positions.to_vec(),
            radius,
        }
    }

    /// Units within the radius of unit `unit`'s body (itself included), as the spatial family
    /// answers a query: the read-only Physics call.
    #[inline]
    pub fn raycast(&self, unit: u32) -> u32 {
        let mut hits = 0u32;
        self.grid
            .query_shared(self.at[unit as usize], self.radius, |_| hits += 1);
        hits
    }

    /// The physics step for one unit: its body moves to `position`.
    #[inline]
    pub fn sync(&mut self, unit: u32, position: [f32; 2]) {
        let at = &mut self.at[unit as usize];
        if *at != position {
            *at = position;
            self.grid
                .move_to(unit, position)
                .expect("a unit's body is in the grid and its position finite");
        }
    }

    /// The raycast radius.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Heap bytes (the grid's accounting plus the positions).
    pub fn memory_bytes(&self) -> usize {
        self.grid.memory_bytes() + self.at.capacity() * size_of::<[f32; 2]>()
    }

    /// The grid's invariants.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.grid.check_invariants()?;
        if self.grid.len() != self.at.len() {
            return Err(format!(
                "physics holds {} bodies for {} units",
                self.grid.len(),
                self.at.len()
            ));
        }
        Ok(())
    }
}

/// The engine's state: the units and physics, synchronised.
#[derive(Debug, Clone)]
pub struct World {
    /// The Unit API's state.
    pub units: Units,
    /// The Physics API's state.
    pub physics: Physics,
}

impl World {
    /// Units at `positions`, physics over them for raycasts of `radius`.
    pub fn new(positions: &[[f32; 2]], radius: f32) -> Self {
        Self {
            units: Units::new(positions),
            physics: Physics::new(positions, radius),
        }
    }

    /// The physics step: every body moves to its unit's position.
    pub fn sync_physics(&mut self) {
        for u in 0..self.units.len() as u32 {
            self.physics.sync(u, self.units.position(u));
        }
    }

    /// The world as [`GameplayApi`](super::GameplayApi) on one thread, no lock.
    pub fn api(&mut self) -> WorldApi<'_> {
        WorldApi(self)
    }

    /// Heap bytes of both.
    pub fn memory_bytes(&self) -> usize {
        self.units.memory_bytes() + self.physics.memory_bytes()
    }

    /// Both invariants.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.units.check_invariants()?;
        self.physics.check_invariants()
    }
}

/// [`World`] called directly (one thread, or a thread holding the world's lock).
pub struct WorldApi<'a>(pub &'a mut World);

impl super::GameplayApi for WorldApi<'_> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        self.0.units.position(unit)
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.0.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        self.0.units.push(unit, delta);
    }
}
