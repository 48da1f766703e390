//! What every design says about itself, whatever its family: [`DesignMeta`].

use crate::DesignKind;

/// The name, description and origin of one design: the first field, `meta`, of every family's
/// design info (`id_table::DesignInfo`, `tags::TagDesignInfo`, ...), which adds the family's
/// own capabilities after it. Results, reports, `dodbench list` and the registries' name
/// checks read a design through this one type.
///
/// ```
/// use impls::{DesignKind, DesignMeta};
/// use impls::tags::{TagDesignInfo, TagStore, vec_of_vecs::VecOfVecs};
///
/// const MINE: TagDesignInfo = TagDesignInfo {
///     meta: DesignMeta {
///         name: "my_tags",
///         description: "Vec<Vec<u32>> under another name",
///         kind: DesignKind::External,
///     },
///     ..<VecOfVecs>::INFO
/// };
/// assert_eq!(MINE.meta.kind.label(), "external");
/// assert_eq!(MINE.tags_per_entity_cap, <VecOfVecs>::INFO.tags_per_entity_cap);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesignMeta {
    /// Short name unique in its family, `[a-z0-9_-]`, used on the command line and in results.
    pub name: &'static str,
    /// One line: the design and its trade-off.
    pub description: &'static str,
    /// Article port, tuned variant, published peer or the user's external design.
    pub kind: DesignKind,
}
