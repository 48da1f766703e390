//! `lookup-key-order`: a consumer looks up its list of IDs in the order of its own key (the
//! object's `value`), on a table whose dense objects are in insertion order. With
//! `lookup-key-order-sorted` (the same body after an `IdTableOp::Sort` at the end of the setup) it
//! measures the reader comments' argument for the packed array's indirection: the dense
//! objects can be permuted into the consumer's order while IDs stay valid, so the consumer's
//! walk becomes a sequential one through the objects (its index reads stay scattered).
//! Designs that cannot reorder ignore the `Sort` and run both alike.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of Gets in ascending order of the objects' value (a consumer's key),
    /// dense order unsorted
    pub struct LookupKeyOrderParams for "lookup-key-order" {
        /// Fewest `Get` ops in the body: whole passes over the `n` objects in key order.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &LookupKeyOrderParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        key_order_passes(b, n, params.ops, false);
    })
}

/// Setup: `n` `Add`s, then `Sort` if `sorted`. Body: passes of one `Get` per object, in
/// ascending `value` of the 32-byte payload (ties by handle).
pub(crate) fn key_order_passes(b: &mut TraceBuilder, n: usize, ops: usize, sorted: bool) {
    let mut handles: Vec<u32> = (0..n).map(|_| b.add()).collect();
    if sorted {
        b.push(IdTableOp::Sort);
    }
    b.start_body();
    handles.sort_by_key(|&h| (crate::Payload::for_handle(h).value, h));
    for _ in 0..super::lookup_uniform::passes(n, ops) {
        for &h in &handles {
            b.push(IdTableOp::Get(h));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gets_follow_the_key_and_only_the_sorted_variant_sorts() {
        let t = generate(500, 1, &LookupKeyOrderParams::default());
        assert!(!t.setup.contains(&IdTableOp::Sort));
        let keys: Vec<u64> = t.body[..500]
            .iter()
            .map(|op| match op {
                IdTableOp::Get(h) => crate::Payload::for_handle(*h).value,
                other => panic!("only Gets: {other:?}"),
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
        let s = super::super::lookup_key_order_sorted::generate(
            500,
            1,
            &super::super::lookup_key_order_sorted::LookupKeyOrderSortedParams::default(),
        );
        assert_eq!(s.setup.last(), Some(&IdTableOp::Sort));
        assert_eq!(s.body, t.body);
    }
}
