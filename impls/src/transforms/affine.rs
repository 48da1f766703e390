//! The family's matrix: a 3×4 affine transform in `f32` (a 3×3 linear part and a translation),
//! with the ONE product every design and the model use.
//!
//! Row-vector convention, as in the article (`world = local * parent_world`): a point `p`
//! maps to `p * R + t`, so `a.then(b)` ([`Affine::mul`]`(a, b)`) applies `a` first, then `b`.
//! Because every design computes a node's world as exactly one `mul(local, parent_world)`
//! (and a root's world as its local, copied, never multiplied by an identity, which could turn
//! `-0.0` into `+0.0`), world matrices are bit-identical whatever order a design updates in
//! (a NaN up to its sign and payload, [`canonical_bits`]). Rust never contracts `a * b + c`
//! into a fused multiply-add, so the same source gives the same bits on every design.

/// A 3×4 affine transform: rows `r[0..3]` of the linear part, then the translation `t`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Affine {
    /// Linear part, row-major: `m[3 * row + col]` for rows 0..3; translation in `m[9..12]`.
    pub m: [f32; 12],
}

impl Affine {
    /// The identity transform.
    pub const IDENTITY: Affine = Affine {
        m: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    };

    /// `a` then `b`: the linear part `Ra * Rb`, the translation `ta * Rb + tb`. The one
    /// product of the family (`world = mul(local, parent_world)`).
    #[inline]
    pub fn mul(a: &Affine, b: &Affine) -> Affine {
        let (a, b) = (&a.m, &b.m);
        let mut out = [0.0f32; 12];
        for row in 0..4 {
            let (x, y, z) = (a[3 * row], a[3 * row + 1], a[3 * row + 2]);
            for col in 0..3 {
                out[3 * row + col] = x * b[col] + y * b[3 + col] + z * b[6 + col];
            }
        }
        for col in 0..3 {
            out[9 + col] += b[9 + col];
        }
        Affine { m: out }
    }

    /// A rigid transform made from the 32 bits of `pose` (the traces' `pose` fields): a
    /// rotation from a quaternion of four signed bytes (normalised with a correctly rounded
    /// `sqrt`, so the same on every machine) and a translation within ±1 per axis. Bounded
    /// products: chains of 1024 stay finite.
    pub fn from_pose(pose: u32) -> Affine {
        let byte = |k: u32| f32::from((pose >> (8 * k)) as u8 as i8);
        let (mut w, x, y, z) = (byte(0), byte(1), byte(2), byte(3));
        if w == 0.0 && x == 0.0 && y == 0.0 && z == 0.0 {
            w = 1.0;
        }
        let norm = (w * w + x * x + y * y + z * z).sqrt();
        let (w, x, y, z) = (w / norm, x / norm, y / norm, z / norm);
        let t = |k: u32| f32::from((pose.rotate_left(7 * k) & 0xff) as u8) / 128.0 - 1.0;
        Affine {
            m: [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
                2.0 * (x * z + w * y),
                2.0 * (y * z - w * x),
                1.0 - 2.0 * (x * x + y * y),
                t(1),
                t(2),
                t(3),
            ],
        }
    }

    /// The 12 bit patterns, for digests (order-independent sums of these are compared).
    pub fn bits(&self) -> [u32; 12] {
        self.m.map(f32::to_bits)
    }

    /// Whether every entry is bit-identical to `other`'s (`==` on `f32` calls `-0.0 == 0.0`),
    /// up to the sign and payload of a NaN ([`canonical_bits`]).
    pub fn same_bits(&self, other: &Affine) -> bool {
        self.m.map(canonical_bits) == other.m.map(canonical_bits)
    }
}

/// `f`'s bits, every NaN as the one quiet NaN. Rust leaves the sign and payload of a NaN that
/// arithmetic produces unspecified, and two builds of the same source can give different ones
/// (`extreme_inputs::transforms` in the `impls` tests, which multiplies NaN and infinities,
/// failed on one dev build when the invariant compared raw bits), so a family's "bit for bit"
/// holds up to them.
pub fn canonical_bits(f: f32) -> u32 {
    if f.is_nan() {
        f32::NAN.to_bits()
    } else {
        f.to_bits()
    }
}

/// The world transform of a node whose local is `local` under a parent whose world is
/// `parent_world` (`None` for a root: its world is its local, copied bit for bit).
#[inline]
pub fn world_of(local: &Affine, parent_world: Option<&Affine>) -> Affine {
    match parent_world {
        Some(p) => Affine::mul(local, p),
        None => *local,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_neutral_on_poses_and_chains_stay_finite() {
        let a = Affine::from_pose(0x1234_5678);
        assert!(Affine::mul(&a, &Affine::IDENTITY).same_bits(&a) || a.m.contains(&-0.0));
        let mut w = Affine::from_pose(7);
        for k in 0..1024u32 {
            w = Affine::mul(&Affine::from_pose(k.wrapping_mul(2_654_435_761)), &w);
        }
        assert!(w.m.iter().all(|v| v.is_finite()), "{w:?}");
    }

    #[test]
    fn mul_applies_the_left_operand_first() {
        // a: translate x by 1; b: rotate 90° about z (x -> y).
        let mut a = Affine::IDENTITY;
        a.m[9] = 1.0;
        let b = Affine {
            m: [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        };
        let ab = Affine::mul(&a, &b);
        assert_eq!(&ab.m[9..], &[0.0, 1.0, 0.0]);
    }
}
