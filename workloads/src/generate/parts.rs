//! The two pieces every family's trace builder is made of: [`TraceParts`], the ops recorded so
//! far split into setup and body, and [`LiveHandles`], which handles are live. Each family's
//! builder (`src/<family>/builder.rs`: `TraceBuilder`, `TagTraceBuilder`, `AllocTraceBuilder`,
//! ...) holds a `TraceParts` (and most a `LiveHandles`) and adds only what is its own (the ops
//! it appends, tag lists, block sizes); what every builder does with these pieces (start the
//! body, record a generator's trace, draw a live handle) is written once here, in [`Recorder`] and
//! [`TracksLive`], which `recorder!` implements for a builder.

use serde::Serialize;

use crate::family::TraceOp;
use crate::rng::TraceRng;
use crate::trace::{Trace, TraceHeader};

/// A trace's ops as they are appended: to the setup until [`start_body`](Self::start_body),
/// to the body after it.
#[derive(Debug)]
pub(crate) struct TraceParts<O> {
    setup: Vec<O>,
    body: Vec<O>,
    in_body: bool,
}

impl<O> Default for TraceParts<O> {
    fn default() -> Self {
        Self {
            setup: Vec::new(),
            body: Vec::new(),
            in_body: false,
        }
    }
}

impl<O: TraceOp> TraceParts<O> {
    /// Ops from now on go to the body.
    pub(crate) fn start_body(&mut self) {
        self.in_body = true;
    }

    /// Whether ops now go to the body.
    pub(crate) fn in_body(&self) -> bool {
        self.in_body
    }

    /// Appends `op` to the current part.
    pub(crate) fn push(&mut self, op: O) {
        if self.in_body {
            self.body.push(op);
        } else {
            self.setup.push(op);
        }
    }

    /// The finished trace, its header naming the generator and its resolved parameters.
    pub(crate) fn finish(
        self,
        generator: &str,
        n: usize,
        seed: u64,
        params: &impl Serialize,
    ) -> Trace<O> {
        Trace {
            header: TraceHeader {
                generator: generator.to_owned(),
                n: n as u64,
                seed,
                params: serde_json::to_value(params).expect("parameter structs serialise"),
            },
            setup: self.setup,
            body: self.body,
        }
    }
}

/// A family's trace builder: its ops in a [`TraceParts`], plus bookkeeping of its own. What
/// every builder does with its parts is written once here, as default methods.
pub(crate) trait Recorder: Sized {
    /// The family's op vocabulary.
    type Op: TraceOp;

    /// The ops recorded so far.
    fn parts_mut(&mut self) -> &mut TraceParts<Self::Op>;

    /// The ops recorded, the builder's own bookkeeping dropped.
    fn into_parts(self) -> TraceParts<Self::Op>;

    /// Ops from now on go to the body.
    fn start_body(&mut self) {
        self.parts_mut().start_body();
    }

    /// Records a generator's trace on this builder: `build` appends the ops, drawing from the
    /// one [`TraceRng`] of `seed`, and the finished trace's header names `generator` with `n`,
    /// `seed` and the resolved `params`. The glue every generator shares, written once.
    fn record(
        mut self,
        generator: &str,
        n: usize,
        seed: u64,
        params: &impl Serialize,
        build: impl FnOnce(&mut Self, &mut TraceRng),
    ) -> Trace<Self::Op> {
        let mut rng = TraceRng::new(seed);
        build(&mut self, &mut rng);
        self.into_parts().finish(generator, n, seed, params)
    }
}

/// A bare [`TraceParts`] is a builder of its own, for families whose generators track nothing
/// else (spawn, locking).
impl<O: TraceOp> Recorder for TraceParts<O> {
    type Op = O;

    fn parts_mut(&mut self) -> &mut TraceParts<O> {
        self
    }

    fn into_parts(self) -> TraceParts<O> {
        self
    }
}

/// A trace builder that tracks its live handles in a [`LiveHandles`].
pub(crate) trait TracksLive {
    /// The live handles.
    fn live_handles(&self) -> &LiveHandles;

    /// Number of live handles.
    fn live_count(&self) -> usize {
        self.live_handles().len()
    }

    /// A uniformly chosen live handle (no op appended): one [`TraceRng::index`] draw.
    ///
    /// # Panics
    /// If nothing is live.
    fn random_live(&self, rng: &mut TraceRng) -> u32 {
        self.live_handles().random(rng)
    }
}

/// Implements [`Recorder`] for a builder whose ops are in its field `parts` (and with
/// `live: $field`, [`TracksLive`] for the [`LiveHandles`] in that field):
/// `recorder!(MyTraceBuilder: MyOp, live: live);`.
macro_rules! recorder {
    ($builder:ty: $op:ty $(, live: $live:ident)?) => {
        impl $crate::generate::parts::Recorder for $builder {
            type Op = $op;

            fn parts_mut(&mut self) -> &mut $crate::generate::parts::TraceParts<$op> {
                &mut self.parts
            }

            fn into_parts(self) -> $crate::generate::parts::TraceParts<$op> {
                self.parts
            }
        }

        $(
            impl $crate::generate::parts::TracksLive for $builder {
                fn live_handles(&self) -> &$crate::generate::parts::LiveHandles {
                    &self.$live
                }
            }
        )?
    };
}
pub(crate) use recorder;

/// The live handles of a trace being built, so a generator can ask for "a uniformly random
/// live handle" or "remove handle `h`" in O(1). Handles are positional, as in every family:
/// [`insert_next`](Self::insert_next) hands out `0, 1, 2, ...`, one per creating op.
///
/// Invariant: `live` holds exactly the live handles, in no meaningful order (removal swaps the
/// last one into the hole); `position` has one entry per handle ever inserted, `position[h]`
/// being `h`'s index in `live`, or [`NOT_LIVE`] once `h` is removed.
#[derive(Debug, Default)]
pub(crate) struct LiveHandles {
    live: Vec<u32>,
    position: Vec<u32>,
}

/// `LiveHandles::position` of a handle that has been removed.
const NOT_LIVE: u32 = u32::MAX;

impl LiveHandles {
    /// Number of live handles.
    pub(crate) fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether `handle` has been inserted and not removed.
    pub(crate) fn contains(&self, handle: u32) -> bool {
        self.position
            .get(handle as usize)
            .is_some_and(|&p| p != NOT_LIVE)
    }

    /// Makes the next handle (the number of handles inserted so far) live and returns it.
    ///
    /// # Panics
    /// After `2^32` insertions.
    pub(crate) fn insert_next(&mut self) -> u32 {
        let handle = u32::try_from(self.position.len()).expect("more than 2^32 handles");
        self.position
            .push(u32::try_from(self.live.len()).expect("more than 2^32 live"));
        self.live.push(handle);
        handle
    }

    /// Makes `handle` not live.
    ///
    /// # Panics
    /// If `handle` is not live.
    pub(crate) fn remove(&mut self, handle: u32) {
        assert!(
            self.contains(handle),
            "removing handle {handle}, which is not live"
        );
        let index = self.position[handle as usize];
        self.live.swap_remove(index as usize);
        if let Some(&moved) = self.live.get(index as usize) {
            self.position[moved as usize] = index;
        }
        self.position[handle as usize] = NOT_LIVE;
    }

    /// Makes a handle that was inserted and then removed live again.
    ///
    /// # Panics
    /// If `handle` was never inserted or is live.
    pub(crate) fn reinsert(&mut self, handle: u32) {
        assert!(
            (handle as usize) < self.position.len() && !self.contains(handle),
            "reinserting handle {handle}"
        );
        self.position[handle as usize] =
            u32::try_from(self.live.len()).expect("more than 2^32 live");
        self.live.push(handle);
    }

    /// A uniformly chosen live handle: one [`TraceRng::index`]`(len)` draw.
    ///
    /// # Panics
    /// If nothing is live.
    pub(crate) fn random(&self, rng: &mut TraceRng) -> u32 {
        self.live[rng.index(self.live.len())]
    }

    /// Asserts the invariant stated on the type.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        for (i, &h) in self.live.iter().enumerate() {
            assert_eq!(self.position[h as usize], i as u32, "handle {h}");
        }
        let removed = self.position.iter().filter(|&&p| p == NOT_LIVE).count();
        assert_eq!(removed + self.live.len(), self.position.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::IdTableOp;

    #[test]
    fn live_handles_survive_swap_removal() {
        let mut live = LiveHandles::default();
        let handles: Vec<u32> = (0..5).map(|_| live.insert_next()).collect();
        assert_eq!(handles, vec![0, 1, 2, 3, 4]);
        for h in [1, 4, 0] {
            live.remove(h);
            live.check_invariants();
        }
        assert_eq!(live.len(), 2);
        let still: Vec<u32> = (0..6).filter(|&h| live.contains(h)).collect();
        assert_eq!(still, vec![2, 3]);
        assert_eq!(live.insert_next(), 5);
        let mut rng = TraceRng::new(1);
        assert!((0..20).all(|_| [2, 3, 5].contains(&live.random(&mut rng))));
    }

    #[test]
    #[should_panic(expected = "removing handle 0, which is not live")]
    fn removing_twice_panics() {
        let mut live = LiveHandles::default();
        live.insert_next();
        live.remove(0);
        live.remove(0);
    }

    #[test]
    fn parts_split_at_start_body() {
        let mut parts = TraceParts::default();
        parts.push(IdTableOp::Add);
        assert!(!parts.in_body());
        parts.start_body();
        parts.push(IdTableOp::Get(0));
        let t = parts.finish("test", 1, 9, &());
        assert_eq!(
            (t.setup, t.body),
            (vec![IdTableOp::Add], vec![IdTableOp::Get(0)])
        );
        assert_eq!((t.header.generator.as_str(), t.header.seed), ("test", 9));
    }
}
