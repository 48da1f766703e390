//! The articles' claims this family's results answer (see `results::claim`).
//!
//! `CLAIMS` is the table of claims, one `results::ClaimSpec` each in catalogue order; the
//! family's `Family::claims` converts them to the `results::Claim`s a run records.

use results::claim_spec::{family, time};
use results::{ClaimSpec, OperandSpec, QuantitySpec, Rule, Sizes};

use crate::replay::metric_fields::family_ratio;

const SOURCE: &str = "003 Data Structures Part 2: Indices";

/// Grid cells (hash lookups) looked at per query.
const fn cells(design: &'static str, workload: &'static str) -> OperandSpec {
    family("cells_per_query", design, workload)
}

/// Points tested (distance computed, or walked past in a colliding bucket) per query.
const fn tested(design: &'static str, workload: &'static str) -> OperandSpec {
    family("tested_per_query", design, workload)
}

/// The quote of I11a.
const SORTED_QUOTE: &str = "Say, that you’ve sorted your data along the x-coordinate. This lets you quickly find all objects with x in the range (x-5, x+5). However, only a tiny fraction of those objects will have y in the range (y-5, y+5), and if the objects are sorted on the x-coordinate, you pretty much have to go through all of them to find the ones with the right y-coordinate.";

/// The quote of I12a and I12b.
const CELLS_QUOTE: &str = "This approach suffers a bit from the curse of dimensionality. If we want to find an approximate match in n dimensions, we have to search 2^n cells. For 2D and 3D, which are our most common cases, it is still manageable though.";

/// The quote of I12c and I12d.
const DENSITY_QUOTE: &str = "You should pick the cell size based on the density of the objects, so that you expect to have some low number of objects, say 16 or so, in each group of 2^n cells.";

/// The quote of I12e, I12f and I12g.
const LARGE_QUOTE: &str = "Say your search size is 10 times larger than the normal search size, so you will have to examine 10² = 100 cells. That seems bad. But, remember that each cell has ~16 objects. So in this case you would expect to find ~1600 objects. And that is regardless of the cell size – it is only determined by the size of your search and the density of the objects.";

/// The quote of I12h and I12i.
const CELL_SIZE_QUOTE: &str = "Going through those 1600 objects will be pretty slow, no matter if they are all in one big grid cell or 100 small grid cells. So the grid cell size doesn’t matter as much as you might think.";

/// The quote of I13a and I13b.
const XOR_QUOTE: &str = "Note that you don’t want to use something too simple like a ^ b, because that would put the grid cells (0,0) and (1,1) in the same hash bucket.";

/// I12h and I12i, [`CELL_SIZE_QUOTE`] read on one resized grid: `design` (fuzzy_hash with
/// another cell size) ÷ fuzzy_hash, time per query on sp-large-radius, within a factor of 2.
const fn cell_size_claim(
    id: &'static str,
    design: &'static str,
    reading: &'static str,
) -> ClaimSpec {
    ClaimSpec {
        id,
        source: SOURCE,
        quote: CELL_SIZE_QUOTE,
        reading,
        quantity: QuantitySpec::ratio(
            time(design, "sp-large-radius"),
            time("fuzzy_hash", "sp-large-radius"),
        ),
        rule: Rule::Between(0.5, 2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    }
}

/// Every claim, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "I11a",
        source: SOURCE,
        quote: SORTED_QUOTE,
        reading: "sorted_x (points sorted by x, a query binary-searches x ± r and tests the window) on sp-uniform: points found ÷ points tested per query, the share of the x-window that is also in range in y. \"A tiny fraction\" read as at most a tenth.",
        quantity: QuantitySpec::ratio(
            family("found_per_query", "sorted_x", "sp-uniform"),
            tested("sorted_x", "sp-uniform"),
        ),
        rule: Rule::AtMost(0.1),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "Found counts points within the radius (a disc), the article's y-range a square: the disc holds π/4 of it.",
        ),
    },
    ClaimSpec {
        id: "I11b",
        source: SOURCE,
        quote: "But even in this case, a sorted array is usually not a good solution, since we need to search across multiple dimensions.",
        reading: "sorted_x ÷ fuzzy_hash (the grid the article proposes instead), time per radius-r query on sp-uniform. Not a good solution against it: at least 1.",
        quantity: QuantitySpec::ratio(
            time("sorted_x", "sp-uniform"),
            time("fuzzy_hash", "sp-uniform"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I12a",
        source: SOURCE,
        quote: CELLS_QUOTE,
        reading: "fuzzy_hash (cell = 2r, key mix(ix, iy), the 2^n cells nearest the query point) on sp-uniform (2D): cells looked at per radius-r query, exactly 2² = 4.",
        quantity: QuantitySpec::value(cells("fuzzy_hash", "sp-uniform")),
        rule: Rule::Between(4.0, 4.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I12b",
        source: SOURCE,
        quote: CELLS_QUOTE,
        reading: "fuzzy_hash on sp-3d (3D): cells looked at per radius-r query, exactly 2³ = 8.",
        quantity: QuantitySpec::value(cells("fuzzy_hash", "sp-3d")),
        rule: Rule::Between(8.0, 8.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I12c",
        source: SOURCE,
        quote: DENSITY_QUOTE,
        reading: "fuzzy_hash on sp-uniform, whose density puts 16 points in each group of 4 cells of 2r: points tested per radius-r query. \"16 or so\" read as within a quarter: [12, 20].",
        quantity: QuantitySpec::value(tested("fuzzy_hash", "sp-uniform")),
        rule: Rule::Between(12.0, 20.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I12d",
        source: SOURCE,
        quote: DENSITY_QUOTE,
        reading: "fuzzy_hash on sp-3d, 16 points per group of 8 cells: points tested per radius-r query, within [12, 20].",
        quantity: QuantitySpec::value(tested("fuzzy_hash", "sp-3d")),
        rule: Rule::Between(12.0, 20.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I12e",
        source: SOURCE,
        quote: LARGE_QUOTE,
        reading: "fuzzy_hash on sp-large-radius (sp-uniform's points, queries at 10× the design radius): cells looked at per query. \"10² = 100 cells\" read as within a quarter: [75, 125].",
        quantity: QuantitySpec::value(cells("fuzzy_hash", "sp-large-radius")),
        rule: Rule::Between(75.0, 125.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "A query square 20r wide is 10 cells of 2r across but straddles 11 of them, so fuzzy_hash looks at 11² = 121. The article also says 36 cells for the same case (\"a 50 m range on a 10 m grid\", 10× the 5 m radius), which would be 6²: its two figures disagree.",
        ),
    },
    ClaimSpec {
        id: "I12f",
        source: SOURCE,
        quote: LARGE_QUOTE,
        reading: "fuzzy_hash on sp-large-radius: points tested per query (the work; found per query is the same for every design). \"~1600\" read as within a quarter: [1200, 2000].",
        quantity: QuantitySpec::value(tested("fuzzy_hash", "sp-large-radius")),
        rule: Rule::Between(1200.0, 2000.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's ~1600 is its own arithmetic: 100 cells × 16, but its 16 is per group of 2^n = 4 cells, i.e. 4 per cell, which gives 100 × 4 = 400 tested and π·10² ≈ 314 found at that density. The workload's query square straddles 121 cells (I12e) at the same density of about 4 per cell; at 1K the world's edges cut queries short and lower both counts (the points show them).",
        ),
    },
    ClaimSpec {
        id: "I12g",
        source: SOURCE,
        quote: LARGE_QUOTE,
        reading: "\"Regardless of the cell size\" in work: fuzzy_hash_cell_4x (cell = 4 × 2r) ÷ fuzzy_hash (cell = 2r), points tested per query on sp-large-radius. Read as within a factor of 2.",
        quantity: QuantitySpec::ratio(
            tested("fuzzy_hash_cell_4x", "sp-large-radius"),
            tested("fuzzy_hash", "sp-large-radius"),
        ),
        rule: Rule::Between(0.5, 2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    cell_size_claim(
        "I12h",
        "fuzzy_hash_cell_0_5x",
        "fuzzy_hash_cell_0_5x (cell = 0.5 × 2r: about four times the cells, 441 per query against 121) ÷ fuzzy_hash, time per query on sp-large-radius. \"Doesn't matter as much as you might think\" read as within a factor of 2.",
    ),
    cell_size_claim(
        "I12i",
        "fuzzy_hash_cell_4x",
        "fuzzy_hash_cell_4x (cell = 4 × 2r: about 12 big cells per query) ÷ fuzzy_hash, time per query on sp-large-radius, within a factor of 2.",
    ),
    ClaimSpec {
        id: "I12j",
        source: SOURCE,
        quote: "If you want to search for things within a 5 m range, but also for things within a 50 m range, won’t you need two indices with two different grid cell sizes? Because if you want to search with a 50 m range on a 10 m grid, you will have to search 36 cells.",
        reading: "fuzzy_hash (cell = 2r: the 10 m grid of a 5 m range) on sp-large-radius (queries at 10× the design radius: the 50 m range), cells looked at per query. \"36 cells\" read as within a quarter, as I12e: [27, 45].",
        quantity: QuantitySpec::value(cells("fuzzy_hash", "sp-large-radius")),
        rule: Rule::Between(27.0, 45.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's range is a radius (\"within 5 m\" searched on a 10 m grid), so a 50 m range spans a square 100 m wide: 10 cells of 10 m across, straddling 11, so 11² = 121 by the design's rule and 10² = 100 in the article's next paragraph (I12e). 36 = 6² is the count for a square 50 m wide (5 cells, straddling 6), the 50 m read as a diameter.",
        ),
    },
    ClaimSpec {
        id: "I13a",
        source: SOURCE,
        quote: XOR_QUOTE,
        reading: "fuzzy_hash_xor (key ix ^ iy) ÷ fuzzy_hash (key mix(ix, iy)), the longest bucket chain after the setup on sp-uniform. XOR gives every cell of a diagonal one key, so a bucket holds at least two cells' points: read as at least twice the mix's longest chain.",
        quantity: family_ratio(
            "longest_chain",
            "fuzzy_hash_xor",
            "fuzzy_hash",
            "sp-uniform",
        ),
        rule: Rule::AtLeast(2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "I13b",
        source: SOURCE,
        quote: XOR_QUOTE,
        reading: "The collisions' cost to a query: fuzzy_hash_xor ÷ fuzzy_hash, points tested (including those walked past in a shared bucket) per radius-r query on sp-uniform, at least 2 (as I13a).",
        quantity: QuantitySpec::ratio(
            tested("fuzzy_hash_xor", "sp-uniform"),
            tested("fuzzy_hash", "sp-uniform"),
        ),
        rule: Rule::AtLeast(2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
];
