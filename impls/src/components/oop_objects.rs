//! Seed 004's first object-oriented baseline (part 1, "entity-owned components"): every game
//! object owns a list of boxed components, `GetComponent<T>` scans that list for a component
//! of type `T`, and a system update iterates the objects and asks each for its component
//! ("one must iterate every object and ask it for its component of that type").
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! themselves (the shared [`GameObjects`] store); a [`ListObject`] is a `Vec<Box<dyn Any>>`
//! of components.
//! `simulate` walks every slot of the table, follows the object's component list (one jump),
//! downcasts each box until it finds the point mass (a second jump per component): two
//! pointer chases per instance where the article's SoA has none. Killing an object drops its
//! components at once (the destroy-callback strategy).
//!
//! Objects here own only their point mass (a one-step type scan); a real object would scan
//! past its other components too.
//!
//! The point-mass boxes come from the shared store's shuffled reserve, so consecutive objects'
//! boxes are not neighbours in memory (see [`game_objects`](super::game_objects)).

use crate::DesignMeta;
use std::any::Any;

use super::game_objects::{GameObject, GameObjects};
use super::{ComponentDesignInfo, ComponentDesignKind, Destruction, PointMass};

/// Game objects owning boxed components, found by a type scan.
pub type OopObjects = GameObjects<ListObject>;

/// A game object: the components it owns.
#[derive(Default)]
pub struct ListObject {
    components: Vec<Box<dyn Any>>,
}

impl GameObject for ListObject {
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "oop_objects",
            description: "seed 004's OOP baseline: game objects (in a holey table) owning Vec<Box<dyn Any>> components, found by a type scan; simulate iterates objects",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    /// The object's `GetComponent<PointMass>`: a scan of its list.
    #[inline]
    fn point_mass(&self) -> Option<&PointMass> {
        self.components.iter().find_map(|c| c.downcast_ref())
    }

    #[inline]
    fn point_mass_mut(&mut self) -> Option<&mut PointMass> {
        self.components.iter_mut().find_map(|c| c.downcast_mut())
    }

    /// The list buffer when it grows (the box comes from the store's reserve).
    fn attach(&mut self, init: Box<PointMass>) -> u64 {
        let before = self.components.capacity();
        self.components.push(init);
        u64::from(self.components.capacity() != before)
    }

    fn detach(&mut self) -> bool {
        let found = self.components.iter().position(|c| c.is::<PointMass>());
        if let Some(i) = found {
            self.components.swap_remove(i);
        }
        found.is_some()
    }

    /// Every box and the list buffer are freed.
    fn drop_calls(&self) -> u64 {
        self.components.len() as u64 + u64::from(self.components.capacity() > 0)
    }

    fn list_bytes(&self) -> usize {
        self.components.capacity() * size_of::<Box<dyn Any>>()
    }

    fn point_masses(&self) -> usize {
        self.components
            .iter()
            .filter(|c| c.is::<PointMass>())
            .count()
    }
}
