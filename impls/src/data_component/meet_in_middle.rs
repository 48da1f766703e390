//! The article's step 8, merge the final two allocations: one buffer per entity, the header (keys,
//! types and 32-bit slots, the step-4 SoA with shared capacity) growing up from the start and the
//! values (strings and arrays) growing down from the end, sharing one free space ("we don't have to
//! reallocate the buffer until they meet in the middle"). The article's end point.
//!
//! Layout and costs: [`single_buffer`](super::single_buffer) with [`Meet`]. Get O(k) over the
//! 4-byte keys, then one slot and the value's bytes in the same buffer. One allocation per
//! entity (plus one per reallocation, which also squeezes out holes); a snapshot is one
//! `memcpy`. Limit: 64 KiB per entity (16-bit offsets, [`MAX_BUFFER`]).

use super::single_buffer::{Flavor, MAX_BUFFER, Meet, SingleBuffer};
use super::{Entities, KvDesignInfo, KvDesignKind};
use crate::DesignMeta;

impl Flavor for Meet {
    const TOP_DOWN: bool = true;
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "meet_in_middle",
            description: "one buffer per entity: header grows up, values grow down, one free space; memcpy snapshot (the article's end point)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: Some(MAX_BUFFER),
    };
}

/// The article's single buffer.
pub type MeetInMiddle = Entities<SingleBuffer<Meet>>;
