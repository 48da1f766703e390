//! Seed 004's middle object-oriented baseline (part 1, "well-known components as fields":
//! `Transform* transform; Renderer* renderer; Components otherComponents;`): a game object
//! keeps a pointer field per built-in component type and a generic list only for the
//! user-defined ones. Getting a built-in component is one field read instead of a type scan,
//! "but one must still iterate every object": a system jumps to the object, reads the
//! component's address, checks it is there and jumps to it.
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! (the shared [`GameObjects`] store); a [`FieldObject`] has `point_mass: Option<Box<PointMass>>` and an
//! (here always empty) `Vec<Box<dyn Any>>` of other components. `simulate` walks every slot of
//! the table and follows each present field: one pointer chase per instance (`oop_objects`
//! has two: list, then box; `oop_pools` one, but over the pool instead of every object).
//! Killing an object drops its component at once (the destroy-callback strategy). The boxes
//! come from the shared store's shuffled reserve (see [`game_objects`](super::game_objects)).

use crate::DesignMeta;
use std::any::Any;

use super::game_objects::{GameObject, GameObjects};
use super::{ComponentDesignInfo, ComponentDesignKind, Destruction, PointMass};

/// Game objects with a boxed point-mass field.
pub type OopFields = GameObjects<FieldObject>;

/// A game object: a field per well-known component, a list for the others.
#[derive(Default)]
pub struct FieldObject {
    /// The built-in point mass (the article's `Transform* transform`).
    point_mass: Option<Box<PointMass>>,
    /// User-defined components (none in this benchmark; kept so the object has the
    /// article's shape and size).
    other_components: Vec<Box<dyn Any>>,
}

impl GameObject for FieldObject {
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "oop_fields",
            description: "seed 004's OOP baseline with well-known components as fields: game objects (in a holey table) with an Option<Box<PointMass>> field; simulate iterates objects",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    /// One field read.
    #[inline]
    fn point_mass(&self) -> Option<&PointMass> {
        self.point_mass.as_deref()
    }

    #[inline]
    fn point_mass_mut(&mut self) -> Option<&mut PointMass> {
        self.point_mass.as_deref_mut()
    }

    /// No call: the box comes from the store's reserve.
    fn attach(&mut self, init: Box<PointMass>) -> u64 {
        self.point_mass = Some(init);
        0
    }

    fn detach(&mut self) -> bool {
        self.point_mass.take().is_some()
    }

    /// The point mass's box, if any (the empty list holds no buffer).
    fn drop_calls(&self) -> u64 {
        u64::from(self.point_mass.is_some())
            + self.other_components.len() as u64
            + u64::from(self.other_components.capacity() > 0)
    }

    fn list_bytes(&self) -> usize {
        self.other_components.capacity() * size_of::<Box<dyn Any>>()
    }

    fn point_masses(&self) -> usize {
        usize::from(self.point_mass.is_some())
    }
}
