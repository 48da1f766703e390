//! Step 6 (the article's "5: Get rid of STL" and "6: Put the value data in a buffer"): the
//! co-allocated header of step 5 with 128-bit values, and every string and array of the
//! entity bump-allocated in a second buffer that leaves holes when values grow or go and is
//! compacted only when it runs out and is reallocated.
//!
//! Layout and costs: [`two_buffers`](super::two_buffers) with [`Wide`] slots: a 64-bit
//! location (the article's `char *data`; an offset here, rewritten on compaction as the
//! article's pointers would need patching), a 32-bit size and a 32-bit capacity (the article's
//! `struct { int capacity; int size; float *data; }`, "which bloats the size of the Value union
//! from 64 to 128 bits"). A value that regrows within its capacity stays in place. Two
//! allocations per entity with strings or arrays, one per entity with scalars only.

use super::co_header::SlotWidth;
use super::two_buffers::{Slots, TwoBuffers};
use super::{Entities, KvDesignInfo, KvDesignKind};
use crate::DesignMeta;

/// 128-bit slots: location, size, capacity.
#[derive(Debug, Default)]
pub struct Wide;

impl SlotWidth for Wide {
    const BYTES: usize = 16;
}

impl Slots for Wide {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "value_buffer",
            description: "co-allocated header with 128-bit values (location, size, capacity) into a second, bump-allocated value buffer with holes, compacted on reallocation (the article's steps 5 and 6)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };
    const MAX_VALUES: usize = u32::MAX as usize;
    fn encode(offset: usize, size: usize, room: usize) -> u128 {
        offset as u128 | (size as u128) << 64 | (room as u128) << 96
    }
    fn decode(slot: u128) -> (usize, usize, usize) {
        (
            slot as u64 as usize,
            (slot >> 64) as u32 as usize,
            (slot >> 96) as u32 as usize,
        )
    }
}

/// Header and bump value buffer, 128-bit values.
pub type ValueBuffer = Entities<TwoBuffers<Wide>>;
