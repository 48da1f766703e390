//! Step 7 (the article's "7: Slim down the Value struct"): step 6 with 32-bit values. Since
//! every string and array lies in the entity's value buffer, a `u16` offset and a `u16` size
//! name it ("this saves us memory (from 64 bits to 32 bits) and ... allows us to relocate the
//! buffer without having to do pointer patching"); the value buffer holds at most 64 KiB.
//!
//! Layout and costs: [`two_buffers`](super::two_buffers) with [`Slim`] slots. The header
//! costs 9 bytes per key (4 key, 1 type, 4 value) against step 6's 21; a value is rewritten in
//! place only when it does not grow (no capacity field), else it moves and leaves a hole.
//! Still two allocations per entity with strings or arrays (step 8 merges them).

use super::co_header::SlotWidth;
use super::single_buffer::MAX_BUFFER;
use super::two_buffers::{Slots, TwoBuffers};
use super::{Entities, KvDesignInfo, KvDesignKind};
use crate::DesignMeta;

/// 32-bit slots: `u16` offset, `u16` size.
#[derive(Debug, Default)]
pub struct Slim;

impl SlotWidth for Slim {
    const BYTES: usize = 4;
}

impl Slots for Slim {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "slim_values",
            description: "co-allocated header with 32-bit values (u16 offset + u16 size) into a second value buffer of under 64 KiB; relocatable without patching (the article's step 7)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: Some(MAX_BUFFER),
    };
    /// Offsets and sizes are `u16`.
    const MAX_VALUES: usize = MAX_BUFFER - 1;
    fn encode(offset: usize, size: usize, _: usize) -> u128 {
        (offset as u128) | (size as u128) << 16
    }
    fn decode(slot: u128) -> (usize, usize, usize) {
        let (off, size) = ((slot & 0xFFFF) as usize, (slot >> 16 & 0xFFFF) as usize);
        (off, size, size)
    }
}

/// Header and value buffer, 32-bit values.
pub type SlimValues = Entities<TwoBuffers<Slim>>;
