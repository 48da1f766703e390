//! The order of the contestants in a round: a design and the reference loops that mirror it
//! kept together as one group, the groups and each group's members shuffled afresh every round.

use workloads::rng::TraceRng;

/// The contestants as the rounds keep them together: each alone, but a design with the
/// reference loops that mirror it ([`Roles::mirrors`]) as one group,
/// the design first.
///
/// [`Roles::mirrors`]: super::Roles::mirrors
pub(super) fn adjacent_groups(same_iters_as: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: Vec<Option<usize>> = vec![None; same_iters_as.len()];
    for (i, paired) in same_iters_as.iter().enumerate() {
        let root = paired.unwrap_or(i);
        let g = match group_of[root] {
            Some(g) => g,
            None => {
                groups.push(vec![root]);
                group_of[root] = Some(groups.len() - 1);
                groups.len() - 1
            }
        };
        if i != root {
            groups[g].push(i);
            group_of[i] = Some(g);
        }
    }
    groups
}

/// One round's order: the groups shuffled, and within each group its members shuffled, so a
/// reference loop runs right before or right after the design it mirrors, in turn at random.
/// Their ratio is the replay's `overhead`: shuffled apart, a burst of other work on a busy
/// machine lands on one of the two more often than a few percent allow at sizes near the
/// core's cache (`ref-direct-holey` on the `lookup-*` workloads), where a pair back to back
/// shares it. The order within the pair is drawn, not fixed: the second of the two runs a few
/// percent faster at 65,536 objects (the ID tables' `lookup-*` loops), which a fixed order
/// would add to every `overhead` (`paired_contestants_run_back_to_back_in_either_order`).
pub(super) fn round_order(groups: &mut [Vec<usize>], rng: &mut TraceRng) -> Vec<usize> {
    rng.shuffle(groups);
    for group in groups.iter_mut().filter(|g| g.len() > 1) {
        rng.shuffle(group);
    }
    groups.iter().flatten().copied().collect()
}
