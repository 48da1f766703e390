//! Ablation of the article's step 8: one buffer per entity with the header and the values each in a
//! region with its own free space (`Header | free | Values | free`, the layout the article rejects:
//! "the Values section may run out of free space before the Header, forcing us to reallocate the
//! buffer even though we actually have some free space left in it").
//!
//! Layout and costs: [`single_buffer`](super::single_buffer) with [`TwoRegions`]. The header
//! doubles its entry capacity when full and the value region doubles when full, each by
//! reallocating the buffer; compare its allocator calls with `meet_in_middle`'s.

use super::single_buffer::{Flavor, MAX_BUFFER, SingleBuffer, TwoRegions};
use super::{Entities, KvDesignInfo, KvDesignKind};
use crate::DesignMeta;

impl Flavor for TwoRegions {
    const TOP_DOWN: bool = false;
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "two_regions",
            description: "one buffer per entity, header and values each with their own free space (the article's rejected alternative to step 8)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: Some(MAX_BUFFER),
    };
}

/// The rejected two-region buffer.
pub type TwoRegionBuffer = Entities<SingleBuffer<TwoRegions>>;
