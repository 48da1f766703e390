//! One colour and one marker shape per design, derived from the design's position in
//! `results.designs`, so a design looks the same in every chart of every page. Colour is never
//! the only encoding: every chart also names designs on an axis or in a legend, and every
//! table prints the numbers.

use serde::Serialize;

/// The first twenty colours: d3's category10 followed by darker companions, chosen to stay
/// distinguishable on white. Designs beyond twenty get golden-angle hues.
const PALETTE: [(u8, u8, u8); 20] = [
    (0x1f, 0x77, 0xb4),
    (0xff, 0x7f, 0x0e),
    (0x2c, 0xa0, 0x2c),
    (0xd6, 0x27, 0x28),
    (0x94, 0x67, 0xbd),
    (0x8c, 0x56, 0x4b),
    (0xe3, 0x77, 0xc2),
    (0x7f, 0x7f, 0x7f),
    (0xbc, 0xbd, 0x22),
    (0x17, 0xbe, 0xcf),
    (0x39, 0x3b, 0x79),
    (0x63, 0x79, 0x39),
    (0x8c, 0x6d, 0x31),
    (0x84, 0x3c, 0x39),
    (0x7b, 0x41, 0x73),
    (0x31, 0x82, 0xbd),
    (0xe6, 0x55, 0x0d),
    (0x31, 0xa3, 0x54),
    (0x75, 0x6b, 0xb1),
    (0x63, 0x63, 0x63),
];

/// The colour of reference loops (`ref-vec`, ...), drawn as dashed lines, never as designs.
pub const REFERENCE: Colour = Colour(0x22, 0x22, 0x22);

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// `#rrggbb`, as used in CSS and in the SVG plotters writes (which uses upper case).
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The plotters colour.
    pub fn rgb(self) -> plotters::style::RGBColor {
        plotters::style::RGBColor(self.0, self.1, self.2)
    }
}

impl Serialize for Colour {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

/// Marker shapes cycle so that lines of similar colour still differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Filled circle.
    Circle,
    /// Filled triangle.
    Triangle,
    /// Filled square.
    Square,
    /// Diagonal cross.
    Cross,
}

/// The colour of the design at `index` in `results.designs`.
pub fn design_colour(index: usize) -> Colour {
    if let Some(&(r, g, b)) = PALETTE.get(index) {
        return Colour(r, g, b);
    }
    let hue = (index as f64 * 137.508) % 360.0;
    hsl_to_rgb(hue, 0.55, 0.42)
}

/// The marker of the design at `index`.
pub fn design_marker(index: usize) -> Marker {
    [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
    ][index % 4]
}

fn hsl_to_rgb(h: f64, s: f64, l: f64) -> Colour {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Colour(to(r), to(g), to(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_stable_and_distinct_for_many_designs() {
        assert_eq!(design_colour(0).hex(), "#1f77b4");
        let colours: Vec<_> = (0..40).map(design_colour).collect();
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(design_colour(25), design_colour(25));
    }
}
