//! `TraceBuilder`: the ID tables' trace builder ([`TraceParts`] and [`LiveHandles`] plus the
//! ops that add and remove objects).

use crate::generate::parts::TracksLive;
use crate::generate::parts::{LiveHandles, TraceParts};
use crate::id_table::{Handle, IdTableOp};
use crate::rng::TraceRng;

/// Builds an ID-table trace op by op while tracking which handles are live, so generators say
/// "remove a random live object" instead of keeping their own bookkeeping.
///
/// Invariant: `live` holds exactly the handles added and not removed by the ops in `parts`.
#[derive(Debug, Default)]
pub(crate) struct TraceBuilder {
    parts: TraceParts<IdTableOp>,
    live: LiveHandles,
}

crate::generate::parts::recorder!(TraceBuilder: IdTableOp, live: live);

impl TraceBuilder {
    /// Appends `op` as it is, with no live-handle bookkeeping: for ops that neither add nor
    /// remove (`Get`, `GetStale`, `Iterate`, `IterateMut`).
    pub(crate) fn push(&mut self, op: IdTableOp) {
        self.parts.push(op);
    }

    /// Appends an `Add` and returns the handle it creates.
    pub(crate) fn add(&mut self) -> Handle {
        self.parts.push(IdTableOp::Add);
        self.live.insert_next()
    }

    /// Appends a `Get` of a uniformly chosen live handle.
    pub(crate) fn get_random(&mut self, rng: &mut TraceRng) {
        let handle = self.random_live(rng);
        self.push(IdTableOp::Get(handle));
    }

    /// Appends a `Remove` of `handle`.
    ///
    /// # Panics
    /// If `handle` is not live.
    pub(crate) fn remove(&mut self, handle: Handle) {
        self.live.remove(handle);
        self.parts.push(IdTableOp::Remove(handle));
    }

    /// Appends a `Remove` of a uniformly chosen live handle and returns it.
    pub(crate) fn remove_random(&mut self, rng: &mut TraceRng) -> Handle {
        let handle = self.random_live(rng);
        self.remove(handle);
        handle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::parts::Recorder;

    #[test]
    fn builder_appends_the_ops_it_tracks() {
        let t = TraceBuilder::default().record("test", 3, 2, &(), |b, rng| {
            for _ in 0..3 {
                b.add();
            }
            b.start_body();
            let removed = b.remove_random(rng);
            assert!(!b.live.contains(removed));
            b.get_random(rng);
            assert_eq!((b.add(), b.live_count()), (3, 3));
        });
        assert_eq!(t.setup, vec![IdTableOp::Add; 3]);
        let IdTableOp::Remove(removed) = t.body[0] else {
            panic!("the body starts with the Remove: {:?}", t.body[0])
        };
        assert!(matches!(t.body[1], IdTableOp::Get(h) if h != removed));
        assert_eq!(t.body[2], IdTableOp::Add);
        t.validate().unwrap();
    }
}
