//! What every family's op vocabulary provides, so one trace type, one file format, one registry
//! and (in the harness) one replay/verify/timing path serve all families.
//!
//! A family is named by its op type: [`Op`] (ID lookup tables, `id_table`),
//! [`TagOp`] (per-entity tag lists, `tags`) and [`AllocOp`] (block allocators, `alloc`). Each
//! implements [`TraceOp`]: its name, its body statistics, validation against handle states, and
//! its byte encoding in trace files. [`AnyTrace`] holds a trace of any family where the family
//! is only known at run time (the CLI, the registry, loading a file).

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Op;
use crate::alloc_op::AllocOp;
use crate::format::{FormatError, OpFields};
use crate::tag_op::TagOp;
use crate::trace::{InvalidTrace, Trace};

/// The family of trace files written before the header named one.
pub(crate) fn legacy_family() -> String {
    ID_TABLE.to_owned()
}

/// Family name of the ID lookup tables ([`Op`]).
pub const ID_TABLE: &str = "id_table";
/// Family name of the tag stores ([`TagOp`]).
pub const TAGS: &str = "tags";
/// Family name of the block allocators ([`AllocOp`]).
pub const ALLOC: &str = "alloc";

/// The body counts every family's statistics provide.
pub trait TraceStats:
    Copy + Debug + Default + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Work units of the body: what throughput and ns/op are divided by (the family's docs say
    /// what one unit is).
    fn work_units(&self) -> u64;

    /// Most live objects (IDs, entities, blocks) at any point of the trace, for designs with a
    /// fixed capacity.
    fn peak_live(&self) -> u64;

    /// Live objects when the body starts.
    fn live_at_start(&self) -> u64;
}

/// An op vocabulary: one family's operations on logical handles.
///
/// Handles are positional: handle `k` names what the trace's `k`-th creating op
/// ([`creates_handle`](TraceOp::creates_handle)) made, so one trace replays on any design.
pub trait TraceOp: Copy + Debug + PartialEq + Eq + Send + Sync + 'static {
    /// The family name written in trace file headers and results (`id_table`, `tags`, `alloc`).
    const FAMILY: &'static str;

    /// The body's counts, computed by [`validate`](TraceOp::validate).
    type Stats: TraceStats;

    /// Checks every op against the handle states and returns the body's counts.
    ///
    /// # Errors
    /// The first invalid op, named by part and index.
    fn validate(setup: &[Self], body: &[Self]) -> Result<Self::Stats, InvalidTrace>;

    /// Whether this op creates the next handle.
    fn creates_handle(self) -> bool;

    /// Whether replaying the op leaves the design's contents unchanged (so a body made only of
    /// such ops can be timed repeatedly on one state).
    fn is_read_only(self) -> bool;

    /// Whether the op visits many objects (a whole-store iteration), so it is one latency
    /// batch on its own and its work units are the objects it visited.
    fn visits_many(self) -> bool {
        false
    }

    /// Appends the op's bytes: a tag byte below `0xFF` then its fields as
    /// [`OpFields::write_u32`] varints.
    fn encode(self, out: &mut Vec<u8>);

    /// Decodes the op with tag byte `tag`, reading its fields from `fields`; `Ok(None)` for a
    /// tag byte the family does not use.
    ///
    /// # Errors
    /// A field is truncated or malformed.
    fn decode(tag: u8, fields: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError>;

    /// Wraps a trace of this family.
    fn into_any(trace: Trace<Self>) -> AnyTrace;

    /// Unwraps a trace of this family, or gives it back.
    ///
    /// # Errors
    /// The trace is of another family.
    fn from_any(trace: AnyTrace) -> Result<Trace<Self>, AnyTrace>;
}

/// A trace whose family is known only at run time.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyTrace {
    /// An ID lookup table trace.
    IdTable(Trace<Op>),
    /// A tag store trace.
    Tags(Trace<TagOp>),
    /// A block allocator trace.
    Alloc(Trace<AllocOp>),
}

/// Decodes a trace of an op vocabulary chosen at run time ([`AnyTrace::decode`]).
pub trait FamilyDecoder {
    /// Why decoding failed.
    type Error;
    /// Decodes the trace as one of vocabulary `O`.
    ///
    /// # Errors
    /// The bytes are not a valid trace of `O`.
    fn decode<O: TraceOp>(self) -> Result<Trace<O>, Self::Error>;
}

impl AnyTrace {
    /// The family names of the variants, in declaration order.
    pub const FAMILIES: &'static [&'static str] = &[ID_TABLE, TAGS, ALLOC];

    /// Decodes a trace of family `family` with `decoder`; `None` for a family no variant
    /// holds.
    ///
    /// # Errors
    /// The decoder's.
    pub fn decode<D: FamilyDecoder>(
        family: &str,
        decoder: D,
    ) -> Option<Result<AnyTrace, D::Error>> {
        Some(match family {
            ID_TABLE => decoder.decode::<Op>().map(AnyTrace::IdTable),
            TAGS => decoder.decode::<TagOp>().map(AnyTrace::Tags),
            ALLOC => decoder.decode::<AllocOp>().map(AnyTrace::Alloc),
            _ => return None,
        })
    }

    /// The family name.
    pub fn family(&self) -> &'static str {
        match self {
            AnyTrace::IdTable(_) => ID_TABLE,
            AnyTrace::Tags(_) => TAGS,
            AnyTrace::Alloc(_) => ALLOC,
        }
    }

    /// The header (generator, n, seed, params).
    pub fn header(&self) -> &crate::trace::TraceHeader {
        match self {
            AnyTrace::IdTable(t) => &t.header,
            AnyTrace::Tags(t) => &t.header,
            AnyTrace::Alloc(t) => &t.header,
        }
    }

    /// Setup and body op counts.
    pub fn op_counts(&self) -> (usize, usize) {
        match self {
            AnyTrace::IdTable(t) => (t.setup.len(), t.body.len()),
            AnyTrace::Tags(t) => (t.setup.len(), t.body.len()),
            AnyTrace::Alloc(t) => (t.setup.len(), t.body.len()),
        }
    }

    /// Hands the trace, as a trace of its own op vocabulary, to `visitor`.
    pub fn visit<V: AnyTraceVisitor>(self, visitor: V) -> V::Output {
        match self {
            AnyTrace::IdTable(t) => visitor.visit(t),
            AnyTrace::Tags(t) => visitor.visit(t),
            AnyTrace::Alloc(t) => visitor.visit(t),
        }
    }

    /// The trace if it is of family `O`.
    ///
    /// # Errors
    /// It is of another family: the message names both.
    pub fn into_family<O: TraceOp>(self) -> Result<Trace<O>, String> {
        let family = self.family();
        O::from_any(self).map_err(|_| {
            format!(
                "the trace is of family `{family}`, expected `{}`",
                O::FAMILY
            )
        })
    }
}

/// Something done with a trace of any op vocabulary ([`AnyTrace::visit`]).
pub trait AnyTraceVisitor {
    /// What it gives.
    type Output;
    /// Called with the trace.
    fn visit<O: TraceOp>(self, trace: Trace<O>) -> Self::Output;
}
