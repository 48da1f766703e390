//! The article's pivot format (E6), shared by [`super::grouped_single`] and
//! [`super::grouped_batched`]: the resource grouped by component type.
//!
//! Layout (32-bit words): `num_entities; parent_index[num_entities]` (`u32::MAX`: a root),
//! `num_types`, then per type in spawn order `ComponentTypeData { component_identifier;
//! num_instances; size; entity_index[num_instances]; instance_data[size] }` (size in words;
//! instances in level order). An unknown type is skipped "with a single jump".

use super::{ComponentKind, KINDS, Level, Words};

/// One known type's section of a grouped blob.
#[derive(Debug, Clone, Copy)]
pub struct Section<'a> {
    /// The component type.
    pub kind: ComponentKind,
    /// `entity_index[k]`: the level entity of instance `k` (ascending).
    pub entity_index: &'a [u32],
    /// The instances' data, [`ComponentKind::words`] each.
    pub data: &'a [u32],
}

/// Compiles `level` into the grouped format.
pub fn compile(level: &Level) -> Words {
    let n = level.entities.len();
    let mut out = Vec::with_capacity(2 + n);
    out.push(n as u32);
    out.extend(level.entities.iter().map(|e| e.parent.unwrap_or(u32::MAX)));
    out.push(KINDS.len() as u32);
    for kind in KINDS {
        let mut index = Vec::new();
        let mut data = Vec::new();
        for (i, e) in level.entities.iter().enumerate() {
            for c in e.components.iter().filter(|c| c.kind == kind) {
                index.push(i as u32);
                data.extend(c.resource_words());
            }
        }
        out.push(kind as u32);
        out.push(index.len() as u32);
        out.push(data.len() as u32);
        out.extend(index);
        out.extend(data);
    }
    out
}

/// The blob's parent indices and its known types' sections, in spawn order (unknown types
/// skipped by one jump each). At most [`KINDS`]`.len()` sections.
pub fn read(words: &[u32]) -> (&[u32], impl Iterator<Item = Section<'_>>) {
    let n = words[0] as usize;
    let parents = &words[1..1 + n];
    let num_types = words[1 + n];
    let mut at = 2 + n;
    let sections = (0..num_types).filter_map(move |_| {
        let (id, count, size) = (words[at], words[at + 1] as usize, words[at + 2] as usize);
        let start = at + 3;
        at = start + count + size;
        let kind = ComponentKind::from_id(id).filter(|k| k.is_known())?;
        Some(Section {
            kind,
            entity_index: &words[start..start + count],
            data: &words[start + count..start + count + size],
        })
    });
    (parents, sections)
}
