//! The transform-hierarchy family: parent/child links between nodes and their world
//! transforms, updated immediately or deferred.
//!
//! From "Building a Data-Oriented Entity System Part 3: The Transform Component" (BitSquid,
//! 2014): immediate updates recompute a node's subtree on every `set_local` (O(n²) on a chain
//! where every node moves), deferred updates mark nodes dirty and recompute once per frame
//! (O(n)), a flag scan "can waste a lot of time" when 1 % of the nodes move, and a dirty list
//! kept at the end of the array by swapping, with eviction after five unmoved frames, fixes it.
//!
//! # Contract (the same for every design, checked by `impls/tests/integration/transforms_model.rs`)
//! * After [`end_frame`](TransformStore::end_frame), for every node,
//!   `world(i) == `[`world_of`]`(local(i), world(parent(i)))`, bit for bit: a root's world is
//!   its local, any other node's is exactly one [`Affine::mul`]`(local, parent_world)`.
//!   Matrices may hold any `f32` (infinities, NaN): every operation takes them without a
//!   panic, and worlds agree bit for bit except for the sign and payload of a NaN that
//!   arithmetic produces, which Rust leaves unspecified (they follow operand order, which the
//!   compiler may commute; `impls/tests/integration/extreme_inputs/` compares NaNs as equal).
//!   Between a change and the next `end_frame`, deferred designs may return stale worlds (the
//!   article's drawback, documented, not failed); traces read worlds only after `end_frame`.
//! * [`destroy`](TransformStore::destroy) removes one node; **its children become roots**
//!   (their local transforms are kept, so their world becomes their local), and so on down.
//! * [`set_parent`](TransformStore::set_parent) refuses a parent that is the node itself or
//!   one of its descendants ([`XfError::Cycle`]) and then changes nothing.
//! * Ids are the design's ([`TransformStore::Id`]); an id of a destroyed node may be handed
//!   out again (no generations), so callers must not keep ids past `destroy`. An id never
//!   handed out gives [`XfError::NoSuchNode`] where the design can tell.
//! * User errors are [`XfError`]s and change nothing; no operation panics on user input.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing
//! [`TransformStore`], then add one line to [`registry::for_each_transform_design`].
//! [`model::ModelTransforms`] is the reference the property test and the replay verification
//! compare every design with; it is not a registered design.

pub mod affine;
pub mod deferred_dirty_list;
pub mod deferred_flag_scan;
pub mod hierarchy;
pub mod immediate_iterative;
pub mod immediate_local;
pub mod immediate_recursive;
pub mod model;
pub mod oop_tree;
pub mod peers;
pub mod registry;

pub use affine::{Affine, canonical_bits, world_of};
pub use registry::{
    TransformDesignVisitor, find_transform_design, for_each_transform_design, transform_designs,
};

use crate::DesignMeta;
use std::fmt::Debug;

use thiserror::Error;

/// A failure a user of a transform store can cause. The store is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum XfError {
    /// The id names no live node.
    #[error("no live node {id}")]
    NoSuchNode {
        /// The id, as `Debug` prints it.
        id: String,
    },
    /// The new parent is the node itself or one of its descendants.
    #[error("making {parent} the parent of {node} would close a cycle")]
    Cycle {
        /// The node, as `Debug` prints it.
        node: String,
        /// The refused parent.
        parent: String,
    },
    /// No further node fits the design's `u32` slot indices.
    #[error("index space exhausted: more than {limit} nodes")]
    IndexSpaceExhausted {
        /// The most nodes the design can hold.
        limit: u64,
    },
}

impl XfError {
    /// [`XfError::NoSuchNode`] for `id`.
    pub fn no_such(id: impl Debug) -> Self {
        XfError::NoSuchNode {
            id: format!("{id:?}"),
        }
    }

    /// [`XfError::Cycle`] for `node` under `parent`.
    pub fn cycle(node: impl Debug, parent: impl Debug) -> Self {
        XfError::Cycle {
            node: format!("{node:?}"),
            parent: format!("{parent:?}"),
        }
    }
}

/// Where a transform design comes from (the kind every family shares).
pub use crate::kind::DesignKind as TransformDesignKind;

/// When a design computes world transforms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateStrategy {
    /// On every change, for the changed node's whole subtree (the article's choice).
    Immediate,
    /// Once per frame in [`TransformStore::end_frame`].
    Deferred,
}

/// What the registry and the reports know of a transform design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransformDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// Immediate or deferred.
    pub strategy: UpdateStrategy,
    /// Whether an id of a destroyed node is refused ([`XfError::NoSuchNode`]) even after a
    /// new node reuses its slot (a generation or stamp in the id). The SoA designs reuse bare
    /// slot ids, so theirs is refused only until reused.
    pub detects_stale: bool,
    /// The most world products a trace body may ask of the design (the trace statistics'
    /// `immediate_products`: per `set_local`, the size of the subtree it moves): the immediate
    /// designs redo a subtree per `set_local`, O(L²) per frame on a chain of L moving nodes, so
    /// bodies above this cap are `unsupported`, which keeps one replay within a fraction of a
    /// second; `None` for no cap (deferred designs do each node once per frame).
    pub product_cap: Option<u64>,
}

/// The cap on world products per body of the immediate designs (see
/// [`TransformDesignInfo::product_cap`]): 2^23 products, about a quarter of a second per
/// replay with the walk around them (a benchmark replays 20 times or more), so chains of 64 at
/// 64K nodes (21M products per body) and of 1024 above 16K nodes are `unsupported`.
pub const IMMEDIATE_PRODUCT_CAP: u64 = 1 << 23;

/// A transform hierarchy. See the [module docs](self) for the shared semantics.
pub trait TransformStore: Sized {
    /// The design's node id.
    type Id: Copy + Eq + Debug;

    /// Name, kind and strategy of this design.
    const INFO: TransformDesignInfo;

    /// An empty store.
    fn new() -> Self;

    /// Creates a node under `parent` (a root for `None`) with local transform `local`.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`] for a parent that is not live; [`XfError::IndexSpaceExhausted`].
    fn create(&mut self, parent: Option<Self::Id>, local: Affine) -> Result<Self::Id, XfError>;

    /// Destroys a node; its children become roots (see the module docs).
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    fn destroy(&mut self, node: Self::Id) -> Result<(), XfError>;

    /// Moves `node` (with its subtree) under `parent`, or makes it a root for `None`.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`]; [`XfError::Cycle`].
    fn set_parent(&mut self, node: Self::Id, parent: Option<Self::Id>) -> Result<(), XfError>;

    /// Sets a node's local transform.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    fn set_local(&mut self, node: Self::Id, local: Affine) -> Result<(), XfError>;

    /// Sets several local transforms at once: the article's proposed API (F14) that lets an
    /// immediate design update each affected world once, regaining O(n) on a moving chain.
    /// The default sets them one by one. Later entries for the same node win.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`] for any id (checked before anything changes).
    fn set_local_batch(&mut self, batch: &[(Self::Id, Affine)]) -> Result<(), XfError> {
        for &(node, _) in batch {
            self.local(node)?;
        }
        for &(node, local) in batch {
            self.set_local(node, local)?;
        }
        Ok(())
    }

    /// Ends a frame: deferred designs compute every stale world; immediate ones do nothing.
    fn end_frame(&mut self);

    /// A node's world transform (current after `end_frame`; see the module docs).
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    fn world(&self, node: Self::Id) -> Result<Affine, XfError>;

    /// A node's local transform.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    fn local(&self, node: Self::Id) -> Result<Affine, XfError>;

    /// Number of live nodes.
    fn len(&self) -> usize;

    /// Whether the store holds no node.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of heap memory the store holds now (its own accounting: reserved capacity times
    /// element size of every buffer, plus one `Box` per node where there is one). Excludes
    /// `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// World products (`Affine::mul`) computed since [`new`](TransformStore::new): the work
    /// the update strategy did, O(n²) vs O(n) on a moving chain.
    fn world_updates(&self) -> u64;

    /// Checks the design's internal invariants (link symmetry, slot maps, dirty-list order).
    /// Called by the property test after every operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}
