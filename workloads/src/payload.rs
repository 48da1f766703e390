//! The 32-byte object stored by the benchmarks, derived from its handle.

/// A 32-byte payload, the size the issue asks the benchmarks to use (a small game object:
/// an identity, one field workloads read and change, and 16 bytes of other state).
///
/// Invariant: `handle` is the logical handle the object was created for, so a replay can tell
/// whether a lookup returned the right object and not merely some object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Payload {
    /// The logical handle of the `Add` that created the object.
    pub handle: u64,
    /// The field that `Iterate` sums and `Mutate`/`IterateMut` change.
    pub value: u64,
    /// Other state, carried so the object has a realistic size.
    pub rest: [u64; 2],
}

impl Payload {
    /// The object created for `handle`: a fixed function of the handle (SplitMix64 mixing),
    /// so the model and every design agree on it.
    pub const fn for_handle(handle: u32) -> Self {
        let value = splitmix64(handle as u64);
        Self {
            handle: handle as u64,
            value,
            rest: [value.rotate_left(17), !value],
        }
    }

    /// The change `Op::Mutate` applies: adds a handle-dependent odd amount to `value`.
    #[inline]
    pub fn mutate(&mut self) {
        self.value = self.value.wrapping_add((self.handle << 1) | 1);
    }
}

/// SplitMix64's output function: a well-mixed, stable function of `x`.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Payload>(), 32);
    }

    #[test]
    fn payload_is_a_stable_function_of_the_handle() {
        // Pinned: traces and results from older versions must stay comparable.
        assert_eq!(Payload::for_handle(0).value, 0xE220_A839_7B1D_CDAF);
        assert_ne!(Payload::for_handle(1), Payload::for_handle(2));
    }
}
