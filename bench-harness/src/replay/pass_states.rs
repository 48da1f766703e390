//! The states a reference loop's passes over a body that writes run on, built and dropped
//! outside the timed region: the first built with the loop (so a single pass, as the cache
//! pass runs, runs no setup), each later one before its pass; a pass's spent state is dropped
//! before the next one is built, never inside a timed body. A spawn on such a state
//! ([`spawn_slot`]) is written once for the loops whose bodies create entities.

use std::cell::RefCell;

/// The next pass's state, if built, and the last pass's, until the next pass starts.
#[derive(Debug)]
pub(crate) struct PassStates<S> {
    ready: RefCell<Option<S>>,
    spent: RefCell<Option<S>>,
}

impl<S> Default for PassStates<S> {
    /// No state: for a loop whose body only reads (it keeps its one state itself).
    fn default() -> Self {
        Self {
            ready: RefCell::new(None),
            spent: RefCell::new(None),
        }
    }
}

impl<S> PassStates<S> {
    /// The first pass runs on `first`.
    pub(crate) fn starting_with(first: S) -> Self {
        Self {
            ready: RefCell::new(Some(first)),
            spent: RefCell::new(None),
        }
    }

    /// Drops the last pass's state, then returns the ready one or builds one with `build`.
    ///
    /// # Errors
    /// `build`'s.
    pub(crate) fn next(&self, build: impl FnOnce() -> Result<S, String>) -> Result<S, String> {
        drop(self.spent.take());
        match self.ready.take() {
            Some(state) => Ok(state),
            None => build(),
        }
    }

    /// Keeps a pass's `used` state until the next pass (so a single pass frees nothing).
    pub(crate) fn spend(&self, used: S) {
        self.spent.replace(Some(used));
    }

    /// Whether the next pass's state is built, and whether a spent one is held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> (bool, bool) {
        (self.ready.borrow().is_some(), self.spent.borrow().is_some())
    }
}

/// A spawn on a reference loop's per-entity values (`slots`, indexed by entity) as an
/// application that reuses released slots writes it, and as the designs' shared entity
/// bookkeeping hands entities out: the most recently released entity (`released`, most recent
/// last; its value left empty by its despawn), else a new one, whose empty value is pushed.
#[inline(always)]
pub(crate) fn spawn_slot<T: Default>(slots: &mut Vec<T>, released: &mut Vec<u32>) -> u32 {
    released.pop().unwrap_or_else(|| {
        slots.push(T::default());
        (slots.len() - 1) as u32
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_state_is_built_with_the_loop_and_later_ones_per_pass() {
        let states = PassStates::starting_with(0);
        assert_eq!(states.held(), (true, false));
        let mut built = 0;
        let mut build = || {
            built += 1;
            Ok(built)
        };
        assert_eq!(states.next(&mut build), Ok(0));
        states.spend(0);
        assert_eq!(states.held(), (false, true));
        assert_eq!(states.next(&mut build), Ok(1));
        assert_eq!(
            states.held(),
            (false, false),
            "the spent state is dropped first"
        );
        assert!(
            PassStates::<u8>::default()
                .next(|| Err("no setup".into()))
                .is_err()
        );
    }

    #[test]
    fn a_spawn_reuses_the_last_released_slot_then_pushes() {
        let (mut slots, mut released) = (vec![7u8, 0, 0], vec![2, 1]);
        assert_eq!(spawn_slot(&mut slots, &mut released), 1);
        assert_eq!(spawn_slot(&mut slots, &mut released), 2);
        assert_eq!(spawn_slot(&mut slots, &mut released), 3);
        assert_eq!(slots, [7, 0, 0, 0]);
    }
}
