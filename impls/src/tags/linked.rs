//! The buffer the linked designs keep their list elements in ([`linked_nodes`](super::linked_nodes)'
//! nodes, [`linked_chunks`](super::linked_chunks)' and [`sorted_chunks`](super::sorted_chunks)'
//! chunks): one `Vec` whose slot 0 is an unused nil element, so that a link of [`NIL`] ends a
//! list with no special case, and whose freed elements are reused, most recently freed first,
//! before the buffer grows.

use super::{TagError, index_below, push_counted};

/// The nil element's index: a link to it ends a list.
pub(crate) const NIL: u32 = 0;

/// An element of a linked buffer whose free list runs through the elements' own links.
pub(crate) trait Linked: Copy {
    /// The element slot 0 holds.
    const NIL_ELEMENT: Self;

    /// The next element on the element's list (an entity's, or the free list), or [`NIL`].
    fn next(&self) -> u32;
}

/// The indices of the singly linked list of `elements` that starts at `head`, in order.
#[inline]
pub(crate) fn chain<E: Linked>(elements: &[E], head: u32) -> impl Iterator<Item = u32> + '_ {
    std::iter::successors(Some(head).filter(|&i| i != NIL), |&i| {
        Some(elements[i as usize].next()).filter(|&i| i != NIL)
    })
}

/// Stores `element` in the most recently freed slot, taking it off the free list that starts
/// at `free_head`, or else in a new slot at the end (after the nil element, which an empty
/// buffer gets first), counting the buffer's growth in `calls`. Returns the element's index.
///
/// # Errors
/// [`TagError::IndexSpaceExhausted`] when the buffer of `what` would reach `u32::MAX`
/// elements (nothing changes).
#[inline]
pub(crate) fn store<E: Linked>(
    elements: &mut Vec<E>,
    free_head: &mut u32,
    element: E,
    what: &'static str,
    calls: &mut u64,
) -> Result<u32, TagError> {
    if *free_head != NIL {
        let index = *free_head;
        *free_head = elements[index as usize].next();
        elements[index as usize] = element;
        return Ok(index);
    }
    let index = index_below(elements.len().max(1), what, u32::MAX)?;
    if elements.is_empty() {
        push_counted(elements, E::NIL_ELEMENT, calls);
    }
    push_counted(elements, element, calls);
    Ok(index)
}

/// Checks that every element of a buffer of `what` but the nil one is on some list
/// (`listed[i]`, as a walk of every list marked them).
///
/// # Errors
/// The first element on no list.
pub(crate) fn check_all_listed(listed: &[bool], what: &str) -> Result<(), String> {
    match listed.iter().skip(1).position(|&on| !on) {
        Some(lost) => Err(format!("{what} {} is on no list", lost + 1)),
        None => Ok(()),
    }
}
