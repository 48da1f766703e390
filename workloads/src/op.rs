//! The op vocabulary shared by traces, replay, property tests and recordings.

/// A logical handle: handle `k` names the object created by the trace's `k`-th [`Op::Add`].
pub type Handle = u32;

/// One operation of a trace. Expected outcomes are part of the op: a valid trace only uses
/// [`Op::Get`], [`Op::Mutate`] and [`Op::Remove`] on live handles and [`Op::GetStale`] on
/// removed ones (checked by [`Trace::validate`](crate::trace::Trace::validate)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// Insert [`Payload::for_handle`](crate::Payload::for_handle) of the next handle.
    Add,
    /// Look up a live handle; expects a hit on the object created for it.
    Get(Handle),
    /// Look up a removed handle; expects a miss.
    GetStale(Handle),
    /// Remove a live handle; expects the object created for it back.
    Remove(Handle),
    /// Sum [`Payload::value`](crate::Payload) over all live objects.
    Iterate,
    /// Add one to the `value` of every live object through mutable iteration.
    IterateMut,
    /// Look up a live handle mutably and apply [`Payload::mutate`](crate::Payload::mutate).
    Mutate(Handle),
}

impl Op {
    /// The handle the op names, if any.
    pub const fn handle(self) -> Option<Handle> {
        match self {
            Op::Get(h) | Op::GetStale(h) | Op::Remove(h) | Op::Mutate(h) => Some(h),
            Op::Add | Op::Iterate | Op::IterateMut => None,
        }
    }

    /// Whether replaying the op leaves the table's contents unchanged, so a body made only of
    /// such ops can be timed repeatedly on one table.
    pub const fn is_read_only(self) -> bool {
        matches!(self, Op::Get(_) | Op::GetStale(_) | Op::Iterate)
    }
}
