//! Bring your own trace: [`Recording`] wraps any ID table, forwards every call, and records
//! the operations as a trace on logical handles that every design can replay.
//!
//! ```
//! use bench_harness::replay::id_table::recording::Recording;
//! use impls::id_table::{IdTable, holey::Holey};
//!
//! let mut table = Recording::new(Holey::<String>::new());
//! let a = table.insert("player".to_string()).unwrap();
//! table.start_body(); // what follows is timed when the trace is replayed
//! assert_eq!(table.get(a).map(String::as_str), Some("player"));
//! table.remove(a);
//! assert!(table.get(a).is_none()); // recorded as a stale lookup
//! let trace = table.into_trace(42);
//! assert_eq!(trace.body.len(), 3);
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;

use impls::TableError;
use impls::id_table::{DesignInfo, IdTable};
use workloads::trace::TraceHeader;
use workloads::{Handle, IdTableOp, Trace};

/// An [`IdTable`] that records what is done to it. Lookups of IDs the recording never handed
/// out are forwarded but not recorded (a trace can only name handles it created).
pub struct Recording<D: IdTable<T>, T: 'static> {
    inner: D,
    /// ID → the handle of the object it was handed out for (latest one, for designs that
    /// reuse keys).
    handles: HashMap<D::Id, Handle>,
    /// `live[h]`: handle `h` not yet removed.
    live: Vec<bool>,
    /// Ops recorded before [`Recording::start_body`]. Both parts use interior mutability
    /// because lookups and iteration through `&self` are recorded too.
    setup: RefCell<Vec<IdTableOp>>,
    /// Ops recorded since [`Recording::start_body`].
    body: RefCell<Vec<IdTableOp>>,
    in_body: bool,
    _payload: PhantomData<T>,
}

impl<D: IdTable<T>, T: 'static> Recording<D, T> {
    /// Starts recording on `inner` (which should be empty: earlier objects are unknown to
    /// the trace).
    pub fn new(inner: D) -> Self {
        Self {
            inner,
            handles: HashMap::new(),
            live: Vec::new(),
            setup: RefCell::new(Vec::new()),
            body: RefCell::new(Vec::new()),
            in_body: false,
            _payload: PhantomData,
        }
    }

    /// Ends the setup prefix: ops from here on form the timed body.
    pub fn start_body(&mut self) {
        self.in_body = true;
    }

    fn record(&self, op: IdTableOp) {
        let part = if self.in_body {
            &self.body
        } else {
            &self.setup
        };
        part.borrow_mut().push(op);
    }

    /// The handle an ID was handed out for, and whether that object is still live.
    fn handle_of(&self, id: D::Id) -> Option<(Handle, bool)> {
        let h = *self.handles.get(&id)?;
        Some((h, self.live[h as usize]))
    }

    /// The table, and the trace of everything recorded (generator `recording`).
    pub fn into_parts(self, seed: u64) -> (D, Trace<IdTableOp>) {
        let trace = Trace {
            header: TraceHeader {
                generator: "recording".to_string(),
                n: self.live.iter().filter(|l| **l).count() as u64,
                seed,
                params: serde_json::Value::Null,
            },
            setup: self.setup.into_inner(),
            body: self.body.into_inner(),
        };
        (self.inner, trace)
    }

    /// The trace of everything recorded; `seed` is stored in the header as a label.
    pub fn into_trace(self, seed: u64) -> Trace<IdTableOp> {
        self.into_parts(seed).1
    }
}

impl<D: IdTable<T>, T: 'static> IdTable<T> for Recording<D, T> {
    type Id = D::Id;
    const INFO: DesignInfo = D::INFO;

    fn new() -> Self {
        Self::new(D::new())
    }

    fn insert(&mut self, value: T) -> Result<D::Id, TableError> {
        let id = self.inner.insert(value)?;
        let handle =
            Handle::try_from(self.live.len()).map_err(|_| TableError::IdSpaceExhausted {
                created: self.live.len() as u64,
            })?;
        self.live.push(true);
        self.handles.insert(id, handle);
        self.record(IdTableOp::Add);
        Ok(id)
    }

    fn get(&self, id: D::Id) -> Option<&T> {
        match self.handle_of(id) {
            Some((h, true)) => self.record(IdTableOp::Get(h)),
            Some((h, false)) => self.record(IdTableOp::GetStale(h)),
            None => {}
        }
        self.inner.get(id)
    }

    fn get_mut(&mut self, id: D::Id) -> Option<&mut T> {
        match self.handle_of(id) {
            Some((h, true)) => self.record(IdTableOp::Mutate(h)),
            Some((h, false)) => self.record(IdTableOp::GetStale(h)),
            None => {}
        }
        self.inner.get_mut(id)
    }

    fn remove(&mut self, id: D::Id) -> Option<T> {
        match self.handle_of(id) {
            Some((h, true)) => {
                self.live[h as usize] = false;
                self.record(IdTableOp::Remove(h));
            }
            Some((h, false)) => self.record(IdTableOp::GetStale(h)),
            None => {}
        }
        self.inner.remove(id)
    }

    fn len(&self) -> usize {
        self.inner.len()
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.record(IdTableOp::Iterate);
        self.inner.iter()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.record(IdTableOp::IterateMut);
        self.inner.iter_mut()
    }

    /// Reorders the inner table; not recorded (`IdTableOp::Sort` means the payload's own key, and an
    /// application's key is arbitrary), which changes no answer of the recorded ops.
    fn sort_by_key(&mut self, key: impl FnMut(&T) -> u64) -> bool {
        self.inner.sort_by_key(key)
    }

    fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.inner.check_invariants()
    }
}
