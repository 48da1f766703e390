//! The objects stored by the ID-table benchmarks, derived from their handles, in three sizes.
//!
//! The article's "touches twice as much memory" claim depends on the object size, so the
//! ID-table workloads name one ([`PayloadSize`], the `payload_bytes` parameter, 32 B when
//! absent) and the replayer stores objects of that size: [`Payload8`], [`Payload`] (32 B, the
//! default) or [`Payload128`]. All three implement [`Object`] with the same semantics: an
//! object is a fixed function of its handle, `value` is the field ops read and change.

/// What the ID-table replay needs of a stored object, whatever its size.
///
/// Invariant of every implementation: [`Object::handle`] is the logical handle the object was
/// created for, so a replay can tell whether a lookup returned the right object and not merely
/// some object.
pub trait Object: Copy + PartialEq + std::fmt::Debug + 'static {
    /// The size this type stands for.
    const SIZE: PayloadSize;

    /// The object created for `handle` (a fixed function of the handle, so the model and every
    /// design agree on it).
    fn for_handle(handle: u32) -> Self;

    /// The logical handle the object was created for.
    fn handle(&self) -> u64;

    /// The field that `Iterate` sums.
    fn value(&self) -> u64;

    /// The change the ID tables' `Mutate` op applies: adds a handle-dependent odd amount to `value`.
    fn mutate(&mut self);

    /// The change the ID tables' `IterateMut` op applies: adds one to `value`.
    fn bump(&mut self);
}

/// The three object sizes the ID-table workloads can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayloadSize {
    /// [`Payload8`]: a 32-bit handle and a 32-bit value (an index-sized component).
    B8,
    /// [`Payload`]: the default 32-byte game object.
    B32,
    /// [`Payload128`]: two cache lines.
    B128,
}

impl PayloadSize {
    /// Every size, smallest first.
    pub const ALL: [PayloadSize; 3] = [PayloadSize::B8, PayloadSize::B32, PayloadSize::B128];

    /// Bytes per object.
    pub const fn bytes(self) -> usize {
        match self {
            PayloadSize::B8 => 8,
            PayloadSize::B32 => 32,
            PayloadSize::B128 => 128,
        }
    }

    /// The size of `bytes` bytes, if it is one of the three.
    pub const fn from_bytes(bytes: u64) -> Option<Self> {
        match bytes {
            8 => Some(PayloadSize::B8),
            32 => Some(PayloadSize::B32),
            128 => Some(PayloadSize::B128),
            _ => None,
        }
    }

    /// The size a trace's parameters (its header's `params`) ask for: their `payload_bytes`
    /// field, 32 B when there is none (every workload without the parameter, recordings).
    ///
    /// # Errors
    /// `payload_bytes` is present but not 8, 32 or 128.
    pub fn of_params(params: &serde_json::Value) -> Result<Self, String> {
        match params.get("payload_bytes") {
            None | Some(serde_json::Value::Null) => Ok(PayloadSize::B32),
            Some(v) => v.as_u64().and_then(Self::from_bytes).ok_or_else(|| {
                format!("payload_bytes = {v} is not one of the object sizes 8, 32, 128")
            }),
        }
    }

    /// Checks a `payload_bytes` parameter (for generators' parameter checks).
    ///
    /// # Errors
    /// `bytes` is not 8, 32 or 128.
    pub fn check(bytes: u32) -> Result<(), String> {
        Self::from_bytes(u64::from(bytes))
            .map(|_| ())
            .ok_or_else(|| format!("parameter `payload_bytes` = {bytes} is not one of 8, 32, 128"))
    }
}

/// A 32-byte payload, the benchmarks' default size (a small game object: an identity, one
/// field workloads read and change, and 16 bytes of other state).
pub type Payload = PayloadOf<2>;

/// A 128-byte payload: [`Payload`]'s fields plus 96 more bytes of other state.
pub type Payload128 = PayloadOf<14>;

/// An object of `16 + 8 · REST` bytes: handle, value and `REST` words of other state.
///
/// Invariant: `handle` is the logical handle the object was created for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct PayloadOf<const REST: usize> {
    /// The logical handle of the `Add` that created the object.
    pub handle: u64,
    /// The field that `Iterate` sums and `Mutate`/`IterateMut` change.
    pub value: u64,
    /// Other state, carried so the object has a realistic size.
    pub rest: [u64; REST],
}

impl<const REST: usize> PayloadOf<REST> {
    /// The object created for `handle`: a fixed function of the handle (SplitMix64 mixing),
    /// so the model and every design agree on it.
    pub const fn for_handle(handle: u32) -> Self {
        let value = splitmix64(handle as u64);
        let mut rest = [0u64; REST];
        let mut i = 0;
        while i < REST {
            rest[i] = if i % 2 == 0 {
                value.rotate_left(17 + i as u32)
            } else {
                !value
            };
            i += 1;
        }
        Self {
            handle: handle as u64,
            value,
            rest,
        }
    }

    /// The change the ID tables' `Mutate` op applies: adds a handle-dependent odd amount to `value`.
    #[inline]
    pub fn mutate(&mut self) {
        self.value = self.value.wrapping_add((self.handle << 1) | 1);
    }
}

/// Implements [`Object`] for `PayloadOf<REST>` at each listed `REST` and its
/// [`PayloadSize`]: every method reads or changes the struct's own fields.
macro_rules! object_for_payload_of {
    ($($rest:literal => $size:ident),+ $(,)?) => {
        $(
            impl Object for PayloadOf<$rest> {
                const SIZE: PayloadSize = PayloadSize::$size;
                #[inline(always)]
                fn for_handle(handle: u32) -> Self {
                    PayloadOf::for_handle(handle)
                }
                #[inline(always)]
                fn handle(&self) -> u64 {
                    self.handle
                }
                #[inline(always)]
                fn value(&self) -> u64 {
                    self.value
                }
                #[inline(always)]
                fn mutate(&mut self) {
                    PayloadOf::mutate(self);
                }
                #[inline(always)]
                fn bump(&mut self) {
                    self.value = self.value.wrapping_add(1);
                }
            }
        )+
    };
}

object_for_payload_of!(2 => B32, 14 => B128);

/// An 8-byte payload: a 32-bit handle and a 32-bit value (`value` arithmetic wraps at 2^32).
///
/// Invariant: `handle` is the logical handle the object was created for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Payload8 {
    /// The logical handle of the `Add` that created the object.
    pub handle: u32,
    /// The field that `Iterate` sums and `Mutate`/`IterateMut` change.
    pub value: u32,
}

impl Object for Payload8 {
    const SIZE: PayloadSize = PayloadSize::B8;
    #[inline(always)]
    fn for_handle(handle: u32) -> Self {
        Self {
            handle,
            value: splitmix64(u64::from(handle)) as u32,
        }
    }
    #[inline(always)]
    fn handle(&self) -> u64 {
        u64::from(self.handle)
    }
    #[inline(always)]
    fn value(&self) -> u64 {
        u64::from(self.value)
    }
    #[inline(always)]
    fn mutate(&mut self) {
        self.value = self.value.wrapping_add((self.handle << 1) | 1);
    }
    #[inline(always)]
    fn bump(&mut self) {
        self.value = self.value.wrapping_add(1);
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
    fn payloads_have_their_stated_sizes() {
        assert_eq!(std::mem::size_of::<Payload>(), 32);
        assert_eq!(std::mem::size_of::<Payload8>(), 8);
        assert_eq!(std::mem::size_of::<Payload128>(), 128);
        for size in PayloadSize::ALL {
            assert_eq!(PayloadSize::from_bytes(size.bytes() as u64), Some(size));
        }
    }

    #[test]
    fn payload_is_a_stable_function_of_the_handle() {
        // Pinned: traces and results from older versions must stay comparable.
        assert_eq!(Payload::for_handle(0).value, 0xE220_A839_7B1D_CDAF);
        assert_eq!(
            Payload::for_handle(0).rest,
            [
                0xE220_A839_7B1D_CDAFu64.rotate_left(17),
                !0xE220_A839_7B1D_CDAF
            ]
        );
        assert_ne!(Payload::for_handle(1), Payload::for_handle(2));
        assert_eq!(<Payload8 as Object>::for_handle(7).handle(), 7);
        assert_eq!(<Payload128 as Object>::for_handle(7).handle(), 7);
    }

    #[test]
    fn payload_bytes_parameter_reads_with_a_default() {
        assert_eq!(
            PayloadSize::of_params(&serde_json::json!({})),
            Ok(PayloadSize::B32)
        );
        assert_eq!(
            PayloadSize::of_params(&serde_json::json!({"payload_bytes": 128})),
            Ok(PayloadSize::B128)
        );
        assert!(PayloadSize::of_params(&serde_json::json!({"payload_bytes": 64})).is_err());
    }
}
