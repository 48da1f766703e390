//! The one list of spatial designs. Benchmarks, the CLI, the tests and the reports iterate over
//! it; adding a design is one line in [`for_each_spatial_design`] (its 2D and 3D types).

use super::fuzzy_hash::{FuzzyCellDouble, FuzzyCellHalf, FuzzyCellQuadruple, FuzzyMix, FuzzyXor};
use super::{
    SpatialDesignInfo, SpatialIndex, dense_grid::DenseGrid, peers, scan::Scan, sorted_x::SortedX,
};

crate::registry::design_registry! {
    /// Something done once per spatial design.
    pub trait SpatialDesignVisitor {
        /// `I2` is its 2D type, `I3` its 3D type (never built when `I2::INFO.supports_3d` is
        /// false); both carry the same `INFO`.
        fn visit<I2: SpatialIndex<2>, I3: SpatialIndex<3>>;
    }
    pub fn for_each_spatial_design;
    pub fn spatial_designs -> SpatialDesignInfo;
    pub fn find_spatial_design;
    designs {
        FuzzyMix<2>, FuzzyMix<3>;
        FuzzyXor<2>, FuzzyXor<3>;
        FuzzyCellHalf<2>, FuzzyCellHalf<3>;
        FuzzyCellDouble<2>, FuzzyCellDouble<3>;
        FuzzyCellQuadruple<2>, FuzzyCellQuadruple<3>;
        Scan<2>, Scan<3>;
        SortedX<2>, SortedX<3>;
        DenseGrid<2>, DenseGrid<3>;
        peers::flat_spatial::FlatSpatialGrid<2>, peers::flat_spatial::FlatSpatialGrid<3>;
        peers::rstar::RStarTree<2>, peers::rstar::RStarTree<3>;
        peers::kiddo::KiddoTree<2>, peers::kiddo::KiddoTree<3>;
        peers::kiddo_static::KiddoStatic<2>, peers::kiddo_static::KiddoStatic<3>;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_is_the_same_in_2d_and_3d() {
        struct Check;
        impl SpatialDesignVisitor for Check {
            fn visit<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static>(&mut self) {
                assert_eq!(I2::INFO, I3::INFO, "{}", I2::INFO.meta.name);
            }
        }
        for_each_spatial_design(&mut Check);
        assert_eq!(
            find_spatial_design("fuzzy_hash").map(|d| d.supports_3d),
            Some(true)
        );
    }
}
