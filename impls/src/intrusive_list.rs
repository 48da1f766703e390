//! Intrusive cyclic doubly linked lists threaded through `u32` links, the building block of
//! "Data Structures Part 2: Indices" (Our Machinery): each element `x` of a bulk array carries
//! a [`Link`] `{prev, next}` (in the element itself or in a side array), and every list is a
//! cycle, so the last element's `next` is the first and no list end needs a special case.
//!
//! The functions here know nothing of what the elements are or how a list's first element is
//! found (a hash from key to first element, a grid cell, ...): they take anything that can read
//! and write element `x`'s links ([`Links`], implemented for `[Link]` slices; a container that
//! keeps the links inside larger records implements it in a few lines). The relation index
//! family (`crate::relations`) and the fuzzy spatial hash use them.
//!
//! All operations are O(1) except [`for_each_in_cycle`] and [`check_cycle`], which are O(m)
//! in the length of the cycle. Elements are `u32` indices; nothing here allocates.
//!
//! ```
//! use impls::intrusive_list::{Link, check_cycle, for_each_in_cycle, insert_after, make_singleton, unlink};
//! let mut links = [Link::default(); 3];
//! make_singleton(&mut links[..], 0);
//! insert_after(&mut links[..], 0, 1);
//! insert_after(&mut links[..], 0, 2);
//! let mut seen = Vec::new();
//! for_each_in_cycle(&links[..], 0, |x| seen.push(x));
//! assert_eq!(seen, [0, 2, 1]);
//! assert_eq!(unlink(&mut links[..], 0), Some(2));
//! assert_eq!(check_cycle(&links[..], 2, 3), Ok(2));
//! ```

/// The links of one element: its neighbours in its cycle (itself, twice, when alone).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Link {
    /// The element before this one in its cycle.
    pub prev: u32,
    /// The element after this one in its cycle.
    pub next: u32,
}

/// Read and write access to element `x`'s [`Link`].
///
/// Callers pass indices of elements that exist; an index out of range is a bug in the caller
/// and panics on the container's bounds check.
pub trait Links {
    /// Element `x`'s links.
    fn link(&self, x: u32) -> Link;
    /// Element `x`'s links, to change.
    fn link_mut(&mut self, x: u32) -> &mut Link;
}

impl Links for [Link] {
    #[inline]
    fn link(&self, x: u32) -> Link {
        self[x as usize]
    }

    #[inline]
    fn link_mut(&mut self, x: u32) -> &mut Link {
        &mut self[x as usize]
    }
}

/// Makes `x` a cycle of its own (`prev == next == x`): the article's first element of a set.
#[inline]
pub fn make_singleton<L: Links + ?Sized>(links: &mut L, x: u32) {
    *links.link_mut(x) = Link { prev: x, next: x };
}

/// Inserts `x` (not in any cycle) right after `at`, as the article's `add_observation` does
/// (the new element becomes the second of the set, so the first stays first).
#[inline]
pub fn insert_after<L: Links + ?Sized>(links: &mut L, at: u32, x: u32) {
    let second = links.link(at).next;
    *links.link_mut(x) = Link {
        prev: at,
        next: second,
    };
    links.link_mut(at).next = x;
    links.link_mut(second).prev = x;
}

/// Takes `x` out of its cycle and makes it a singleton again. Returns the element that
/// followed it (a member of the remaining cycle, the new first element if `x` was the first),
/// or `None` when `x` was alone.
#[inline]
pub fn unlink<L: Links + ?Sized>(links: &mut L, x: u32) -> Option<u32> {
    let Link { prev, next } = links.link(x);
    if next == x {
        return None;
    }
    links.link_mut(prev).next = next;
    links.link_mut(next).prev = prev;
    make_singleton(links, x);
    Some(next)
}

/// Calls `f` on every element of the cycle through `first`, starting with `first` and
/// following `next` (the article's `do { ... } while (idx != first_idx)`).
#[inline]
pub fn for_each_in_cycle<L: Links + ?Sized>(links: &L, first: u32, mut f: impl FnMut(u32)) {
    let mut x = first;
    loop {
        let next = links.link(x).next;
        f(x);
        x = next;
        if x == first {
            break;
        }
    }
}

/// The length of the cycle through `first`, checking it is consistent: every element's
/// neighbours point back at it (`next[prev[x]] == x` and `prev[next[x]] == x`), every link
/// is below `bound` (the number of elements), and the cycle closes within `bound` steps.
///
/// # Errors
/// A description of the first broken link.
pub fn check_cycle<L: Links + ?Sized>(
    links: &L,
    first: u32,
    bound: usize,
) -> Result<usize, String> {
    if first as usize >= bound {
        return Err(format!("cycle start {first} is out of bounds ({bound})"));
    }
    let mut x = first;
    let mut len = 0;
    loop {
        let Link { prev, next } = links.link(x);
        if prev as usize >= bound || next as usize >= bound {
            return Err(format!(
                "element {x} links out of bounds: {prev} <- -> {next}"
            ));
        }
        if links.link(prev).next != x {
            return Err(format!(
                "next[prev[{x}]] = {} != {x}",
                links.link(prev).next
            ));
        }
        if links.link(next).prev != x {
            return Err(format!(
                "prev[next[{x}]] = {} != {x}",
                links.link(next).prev
            ));
        }
        len += 1;
        if len > bound {
            return Err(format!(
                "the cycle through {first} does not close within {bound}"
            ));
        }
        x = next;
        if x == first {
            return Ok(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(links: &[Link], first: u32) -> Vec<u32> {
        let mut v = Vec::new();
        for_each_in_cycle(links, first, |x| v.push(x));
        v
    }

    #[test]
    fn insert_unlink_and_iterate_keep_cycles_consistent() {
        let mut links = [Link::default(); 6];
        make_singleton(&mut links[..], 4);
        assert_eq!(members(&links, 4), [4]);
        for x in [0, 1, 2] {
            insert_after(&mut links[..], 4, x);
        }
        assert_eq!(members(&links, 4), [4, 2, 1, 0]);
        assert_eq!(check_cycle(&links[..], 4, 6), Ok(4));
        // Unlinking the middle, the first and the last element.
        assert_eq!(unlink(&mut links[..], 1), Some(0));
        assert_eq!(links[1], Link { prev: 1, next: 1 });
        assert_eq!(members(&links, 4), [4, 2, 0]);
        assert_eq!(unlink(&mut links[..], 4), Some(2));
        assert_eq!(members(&links, 2), [2, 0]);
        assert_eq!(unlink(&mut links[..], 0), Some(2));
        assert_eq!(check_cycle(&links[..], 2, 6), Ok(1));
        assert_eq!(unlink(&mut links[..], 2), None);
        // A second, independent cycle in the same array.
        make_singleton(&mut links[..], 5);
        insert_after(&mut links[..], 5, 3);
        assert_eq!(members(&links, 3), [3, 5]);
        assert_eq!(check_cycle(&links[..], 5, 6), Ok(2));
    }

    #[test]
    fn check_cycle_reports_broken_links() {
        let mut links = [Link::default(); 3];
        make_singleton(&mut links[..], 0);
        insert_after(&mut links[..], 0, 1);
        links[1].next = 2;
        let err = check_cycle(&links[..], 0, 3).unwrap_err();
        assert!(err.contains("next[prev[0]] = 2"), "{err}");
        links[1].next = 7;
        assert!(
            check_cycle(&links[..], 1, 3)
                .unwrap_err()
                .contains("out of bounds")
        );
        assert!(check_cycle(&links[..], 9, 3).is_err());
    }
}
