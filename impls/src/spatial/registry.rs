//! The one list of spatial designs. Benchmarks, the CLI, the tests and the reports iterate over
//! it; adding a design is one line in [`for_each_spatial_design`] (its 2D and 3D types).

use super::fuzzy_hash::{FuzzyCellDouble, FuzzyCellHalf, FuzzyCellQuadruple, FuzzyMix, FuzzyXor};
use super::{
    SpatialDesignInfo, SpatialIndex, dense_grid::DenseGrid, peers, scan::Scan, sorted_x::SortedX,
};

/// Something done once per spatial design.
pub trait SpatialDesignVisitor {
    /// Called once per registered design: `I2` is its 2D type, `I3` its 3D type (never built
    /// when `I2::INFO.supports_3d` is false); both carry the same `INFO`.
    fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self);
}

/// Calls `visitor.visit::<I2, I3>()` for every registered design, in registry order.
pub fn for_each_spatial_design<V: SpatialDesignVisitor>(visitor: &mut V) {
    visitor.visit::<FuzzyMix<2>, FuzzyMix<3>>();
    visitor.visit::<FuzzyXor<2>, FuzzyXor<3>>();
    visitor.visit::<FuzzyCellHalf<2>, FuzzyCellHalf<3>>();
    visitor.visit::<FuzzyCellDouble<2>, FuzzyCellDouble<3>>();
    visitor.visit::<FuzzyCellQuadruple<2>, FuzzyCellQuadruple<3>>();
    visitor.visit::<Scan<2>, Scan<3>>();
    visitor.visit::<SortedX<2>, SortedX<3>>();
    visitor.visit::<DenseGrid<2>, DenseGrid<3>>();
    visitor
        .visit::<peers::flat_spatial::FlatSpatialGrid<2>, peers::flat_spatial::FlatSpatialGrid<3>>(
        );
    visitor.visit::<peers::rstar::RStarTree<2>, peers::rstar::RStarTree<3>>();
    visitor.visit::<peers::kiddo::KiddoTree<2>, peers::kiddo::KiddoTree<3>>();
    visitor.visit::<peers::kiddo_static::KiddoStatic<2>, peers::kiddo_static::KiddoStatic<3>>();
}

/// The [`SpatialDesignInfo`] of every registered design, in registry order.
pub fn spatial_designs() -> Vec<SpatialDesignInfo> {
    struct Collect(Vec<SpatialDesignInfo>);
    impl SpatialDesignVisitor for Collect {
        fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self) {
            self.0.push(I2::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_spatial_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_spatial_design(name: &str) -> Option<SpatialDesignInfo> {
    spatial_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_well_formed_and_the_same_in_2d_and_3d() {
        struct Check(Vec<&'static str>);
        impl SpatialDesignVisitor for Check {
            fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self) {
                let name = I2::INFO.name;
                assert_eq!(I2::INFO, I3::INFO, "{name}");
                assert!(
                    name.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                    "bad design name {name:?}"
                );
                assert!(!self.0.contains(&name), "duplicate {name}");
                self.0.push(name);
            }
        }
        for_each_spatial_design(&mut Check(Vec::new()));
        assert_eq!(
            find_spatial_design("fuzzy_hash").map(|d| d.supports_3d),
            Some(true)
        );
    }
}
