//! Every quantitative statement of the seed articles is accounted for: tested by a claim, or
//! declared untested with the reason (docs/claims.md, "How a claim is declared").
//!
//! A claim answers a catalogue item when its ID is the item's, or the item's followed by
//! lowercase letters (`D3b` answers `D3`); an untested statement answers it by the item's own
//! ID, or stands for one statement of a row whose others are claimed (`C5c`, beside the claims
//! `C5a` and `C5b`).

/// The catalogue items with a quantitative statement, in catalogue order. Copied from the
/// seeds' catalogue (`../shared/seeds/CATALOGUE.md`, the tables of section 1: 1.1 seed 000/001,
/// 1.2 seed 004, 1.3 the seven posts of seed 002, 1.4 seed 003): every row whose claims column
/// states something, guesses and qualitative words included. Left out are the rows whose
/// column is empty ("—": A14, B4, C1, C8, C10, C11, E3, E5, F1, F2, F7, F11, G1, H1, I14), an
/// exercise for the reader (G6) or an aside (G11).
const STATEMENTS: &[&str] = &[
    // 1.1 The ID Lookup Table.
    "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13",
    // 1.2 Stable pointer dynamic array.
    "B1", "B2", "B3", "B5", "B6", "B7", "B8", "B9", "B10", // 1.3 (a) Arrays of Arrays.
    "C2", "C3", "C4", "C5", "C6", "C7", "C9", // 1.3 (b) The DataComponent.
    "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11",
    // 1.3 (d) Multithreaded Gameplay.
    "H2", "H3", // 1.3 (e) Entity Resources.
    "E1", "E2", "E4", "E6", "E7", "E8", // 1.3 (f) The Transform Component.
    "F3", "F4", "F5", "F6", "F8", "F9", "F10", "F12", "F13", "F14", "F15",
    // 1.3 (g) Components.
    "G2", "G3", "G4", "G5", "G7", "G8", "G9", "G10", // 1.4 Indices.
    "I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8", "I9", "I10", "I11", "I12", "I13",
];

/// Statements the catalogue lists inside a row with others, each declared under an ID of its
/// own (a claim or an untested statement), with where the row has it.
const SUB_STATEMENTS: &[(&str, &str)] = &[
    (
        "C5c",
        "C5: \"80 % of the memory for actual tags\" when the nodes are full",
    ),
    ("C9d", "C9: the O(n) push every n pushes, the hitch"),
    ("E2c", "E2: the extra query on every access"),
    ("I12j", "I12: a 50 m range on a 10 m grid searches 36 cells"),
];

/// The catalogue item an ID answers: the ID without its lowercase suffix.
fn item(id: &str) -> &str {
    id.trim_end_matches(|c: char| c.is_ascii_lowercase())
}

#[test]
fn every_statement_of_the_catalogue_is_claimed_or_untested() {
    let records = dodbench::claims::family_records();
    let claimed: Vec<&str> = records
        .iter()
        .flat_map(|r| r.claims.iter().map(|c| c.id.as_str()))
        .collect();
    let untested: Vec<&results::Untested> = records.iter().flat_map(|r| &r.untested).collect();

    let missing: Vec<&str> = STATEMENTS
        .iter()
        .copied()
        .filter(|s| !claimed.iter().any(|c| item(c) == *s) && !untested.iter().any(|u| u.id == *s))
        .collect();
    assert!(
        missing.is_empty(),
        "catalogue statements neither tested by a claim nor declared untested: {missing:?}"
    );

    let missing_sub: Vec<String> = SUB_STATEMENTS
        .iter()
        .filter(|(id, _)| !claimed.contains(id) && !untested.iter().any(|u| u.id == *id))
        .map(|(id, what)| format!("{id} ({what})"))
        .collect();
    assert!(
        missing_sub.is_empty(),
        "statements within a catalogue row neither claimed nor declared untested: \
         {missing_sub:?}"
    );

    // An untested statement is one no claim tests: not a claim's own ID, and a whole item
    // (no suffix) with no claim answering it.
    let both: Vec<&str> = untested
        .iter()
        .map(|u| u.id.as_str())
        .filter(|&u| {
            claimed
                .iter()
                .any(|&c| c == u || (item(u) == u && item(c) == u))
        })
        .collect();
    assert!(
        both.is_empty(),
        "declared untested but also claimed: {both:?}"
    );

    let unreasoned: Vec<&str> = untested
        .iter()
        .filter(|u| u.reason.trim().is_empty() || u.quote.trim().is_empty())
        .map(|u| u.id.as_str())
        .collect();
    assert!(
        unreasoned.is_empty(),
        "untested statements without a reason or the article's words: {unreasoned:?}"
    );

    let mut ids: Vec<&str> = untested.iter().map(|u| u.id.as_str()).collect();
    ids.sort_unstable();
    let twice: Vec<&str> = ids
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(twice.is_empty(), "declared untested twice: {twice:?}");

    // A claim or untested ID that answers no catalogue item is a typo (or an item this list
    // lacks).
    let stray: Vec<&str> = claimed
        .iter()
        .copied()
        .chain(untested.iter().map(|u| u.id.as_str()))
        .filter(|id| !STATEMENTS.contains(&item(id)))
        .collect();
    assert!(
        stray.is_empty(),
        "IDs that answer no statement of the catalogue: {stray:?}"
    );
}
