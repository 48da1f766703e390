//! kiddo 5.3.3: its mutable `KdTree` gives wrong answers on the 178 ops below, a trace
//! dodbench shrank from a failed verification (`dodbench shrink`). The ops are replayed with
//! exactly the calls dodbench's kiddo peer makes, and every query is compared with a
//! brute-force scan of the live points. Run it with `cargo run --release`: it prints each
//! query whose answer differs and each removal that found nothing, and exits with status 1
//! if there was one.
//!
//! Point IDs are the order of the inserts (the first insert is point 0). A move is a remove
//! then an add, as the peer does it. A query keeps the tree's results whose own `distance`
//! is at most `r * r` (kiddo's `SquaredEuclidean` sums `(a - b) * (a - b)` from 0 in axis order
//! in `f32`, the same sum as `dist2` below), after asking the tree for a radius widened by a
//! few ulps, because kiddo's pruning sums the offsets in another order.

use kiddo::SquaredEuclidean;
use kiddo::float::kdtree::KdTree;

const D: usize = 2;
/// Inserts before the first other op: the tree is made `with_capacity` for them.
const SETUP_INSERTS: usize = 177;

#[allow(dead_code)] // a trace may not use every kind of op
#[derive(Debug, Clone, Copy)]
enum Op {
    Insert([f32; D]),
    Remove(u32),
    Move(u32, [f32; D]),
    Query([f32; D], f32),
}
use Op::*;

const OPS: &[Op] = &[
    Insert([-340.41663, 67.63922]),
    Insert([-325.86417, 58.294353]),
    Insert([-319.08652, 91.56669]),
    Insert([-336.48544, 59.385303]),
    Insert([-335.42056, 88.4201]),
    Insert([-309.15195, 81.79758]),
    Insert([-359.25455, 50.290733]),
    Insert([-329.08398, 70.44406]),
    Insert([-338.78436, 60.734932]),
    Insert([-349.8136, 71.98068]),
    Insert([-350.0481, 60.25779]),
    Insert([-353.1982, 70.073746]),
    Insert([-360.30725, 70.5321]),
    Insert([-338.6476, 48.496586]),
    Insert([-333.89307, 66.63467]),
    Insert([-338.95016, 77.59388]),
    Insert([-337.23132, 75.30573]),
    Insert([-317.97662, 75.46542]),
    Insert([-305.34805, 53.45252]),
    Insert([-316.81613, 81.85992]),
    Insert([-310.4029, 45.618515]),
    Insert([-318.8383, 75.1149]),
    Insert([-308.0602, 60.96202]),
    Insert([-337.65878, 76.77067]),
    Insert([-309.2188, 52.218784]),
    Insert([-305.17294, 54.965263]),
    Insert([-339.94357, 66.99957]),
    Insert([-346.90915, 86.87709]),
    Insert([-337.69116, 45.535664]),
    Insert([-351.40265, 86.77822]),
    Insert([-319.96606, 73.31757]),
    Insert([-328.83328, 93.86455]),
    Insert([-317.3127, 89.076065]),
    Insert([-296.48285, 71.18645]),
    Insert([-333.58896, 86.11864]),
    Insert([-331.9227, 54.083874]),
    Insert([-320.57047, 63.98049]),
    Insert([-326.61725, 67.20242]),
    Insert([-302.0509, 60.21089]),
    Insert([-309.6916, 82.18568]),
    Insert([-310.46823, 57.14698]),
    Insert([-316.4107, 55.671284]),
    Insert([-331.47244, 57.03656]),
    Insert([-326.03558, 69.076904]),
    Insert([-335.3522, 59.83142]),
    Insert([-325.46085, 55.39976]),
    Insert([-333.58414, 41.059433]),
    Insert([-319.21167, 69.1594]),
    Insert([-329.63974, 47.71985]),
    Insert([-322.29575, 50.175964]),
    Insert([-319.96112, 63.56466]),
    Insert([-327.65247, 45.983597]),
    Insert([-280.43872, -194.82677]),
    Insert([-279.12335, -188.22252]),
    Insert([-269.76486, -193.55972]),
    Insert([-265.00128, -209.18604]),
    Insert([-232.5863, -218.27383]),
    Insert([-282.47833, -204.61833]),
    Insert([368.59076, -485.75354]),
    Insert([377.6828, -493.9295]),
    Insert([382.12097, -511.98572]),
    Insert([383.23355, -509.76282]),
    Insert([380.50797, -516.5343]),
    Insert([370.32278, -506.1535]),
    Insert([340.2089, -491.97787]),
    Insert([376.77347, -492.69614]),
    Insert([359.44064, -490.54013]),
    Insert([370.07864, -499.3949]),
    Insert([339.8324, -502.41296]),
    Insert([367.97278, -492.503]),
    Insert([367.3601, -497.28537]),
    Insert([368.28445, -499.49457]),
    Insert([360.33588, -500.78674]),
    Insert([357.48853, -492.34067]),
    Insert([377.0274, -500.7645]),
    Insert([376.95755, -507.95264]),
    Insert([373.89456, -487.75958]),
    Insert([361.44327, -489.85526]),
    Insert([359.18036, -495.30814]),
    Insert([352.49194, -502.6908]),
    Insert([360.6553, -492.57578]),
    Insert([372.07584, -497.004]),
    Insert([360.18143, -497.21957]),
    Insert([363.4963, -509.36737]),
    Insert([370.29584, -499.27832]),
    Insert([356.85135, -522.86914]),
    Insert([370.5768, -499.5027]),
    Insert([363.37167, -501.0301]),
    Insert([367.87915, -521.4824]),
    Insert([366.61133, -506.79434]),
    Insert([359.07416, -520.3616]),
    Insert([364.2251, -518.1323]),
    Insert([363.98138, -506.73367]),
    Insert([369.80063, -500.7225]),
    Insert([351.8374, -499.01712]),
    Insert([-25.10165, -590.1491]),
    Insert([-21.305422, -580.8497]),
    Insert([3.5472183, -594.7664]),
    Insert([-4.4749126, -575.9388]),
    Insert([-33.051697, -582.0044]),
    Insert([-0.8276272, -563.2524]),
    Insert([-14.765387, -599.70184]),
    Insert([-25.482052, -571.3666]),
    Insert([-40.925476, -577.59875]),
    Insert([-8.144518, -563.3488]),
    Insert([-7.1841555, -596.66174]),
    Insert([-28.189358, -603.00757]),
    Insert([-0.11095619, -595.22015]),
    Insert([2.8399868, -580.9409]),
    Insert([-2.2473679, -579.8618]),
    Insert([-16.788546, -573.1896]),
    Insert([-24.207695, -572.32416]),
    Insert([13.483044, -603.57336]),
    Insert([-9.061085, -578.1369]),
    Insert([-23.26649, -589.8235]),
    Insert([10.804619, -578.879]),
    Insert([-26.759933, -581.5512]),
    Insert([-30.053177, -573.2972]),
    Insert([-4.86759, -599.81]),
    Insert([-41.57689, -574.2705]),
    Insert([-55.94662, -586.89026]),
    Insert([-42.102905, -583.9324]),
    Insert([-42.251297, -584.5113]),
    Insert([-19.427372, -591.0337]),
    Insert([-11.468662, -594.4191]),
    Insert([-39.741325, -589.191]),
    Insert([-19.895021, -589.7447]),
    Insert([-32.957706, -617.14636]),
    Insert([-16.879593, -587.16925]),
    Insert([-14.894768, -585.9804]),
    Insert([22.198292, -581.2724]),
    Insert([-13.132671, -575.8948]),
    Insert([11.106812, -573.6396]),
    Insert([-10.899759, -590.43207]),
    Insert([-4.6759014, -583.1148]),
    Insert([-3.1075592, -583.7009]),
    Insert([1.5572224, -596.36206]),
    Insert([-8.947816, -586.9251]),
    Insert([9.952208, -600.38196]),
    Insert([287.01462, -631.7066]),
    Insert([245.41685, -618.85815]),
    Insert([298.8198, -632.4555]),
    Insert([280.68442, -632.4555]),
    Insert([298.09644, -632.4555]),
    Insert([284.00107, -622.69525]),
    Insert([287.10458, -622.3539]),
    Insert([295.22595, -595.9872]),
    Insert([299.15256, -632.4555]),
    Insert([263.29257, -627.1038]),
    Insert([280.10962, -632.4555]),
    Insert([258.41644, -631.21655]),
    Insert([308.39172, -632.4555]),
    Insert([266.91638, -632.4555]),
    Insert([276.78574, -632.4555]),
    Insert([274.8593, -622.73724]),
    Insert([250.20064, -613.4097]),
    Insert([293.70288, -624.1272]),
    Insert([317.573, -624.2411]),
    Insert([266.3393, -632.4555]),
    Insert([272.68515, -626.0932]),
    Insert([274.4175, -632.4555]),
    Insert([294.94168, -612.29974]),
    Insert([289.76263, -609.6795]),
    Insert([276.24783, -626.4196]),
    Insert([273.08154, -632.4555]),
    Insert([267.3191, -632.4555]),
    Insert([271.42264, -632.4555]),
    Insert([268.09238, -628.6738]),
    Insert([270.9777, -632.4555]),
    Insert([280.29068, -632.4555]),
    Insert([277.87057, -625.9818]),
    Insert([271.777, -632.4555]),
    Insert([274.1539, -624.4658]),
    Insert([280.35928, -632.4555]),
    Insert([276.94675, -632.4555]),
    Insert([276.88446, -630.8514]),
    Insert([276.88208, -621.8887]),
    Query([274.6623, -632.4555], 4.0),
];

fn dist2(a: &[f32; D], b: &[f32; D]) -> f32 {
    let mut sum = 0.0f32;
    for (x, y) in a.iter().zip(b) {
        let d = x - y;
        sum += d * d;
    }
    sum
}

/// The squared radius the tree is asked for: `r` widened by 2^-20 of itself and 1e-20, squared
/// in `f64`, plus 1e-6 of that.
fn pruning_radius(r: f32) -> f32 {
    let w = f64::from(r).abs() * (1.0 + 1.0 / (1u64 << 20) as f64) + 1e-20;
    (w * w) as f32 * (1.0 + 1e-6)
}

fn main() {
    let mut tree: KdTree<f32, u32, D, 32, u32> = KdTree::with_capacity(SETUP_INSERTS);
    let mut live: Vec<Option<[f32; D]>> = Vec::new();
    let mut wrong = 0;
    for (i, op) in OPS.iter().enumerate() {
        match *op {
            Insert(p) => {
                tree.add(&p, live.len() as u32);
                live.push(Some(p));
            }
            Remove(id) | Move(id, _) => {
                let old = live[id as usize].take().expect("the trace removes live points only");
                let removed = tree.remove(&old, id);
                if removed != 1 {
                    println!("op {i}: remove(point {id} at {old:?}) removed {removed} entries, expected 1");
                    wrong += 1;
                }
                if let Move(_, p) = *op {
                    tree.add(&p, id);
                    live[id as usize] = Some(p);
                }
            }
            Query(center, r) => {
                let rr = r * r;
                let mut found: Vec<u32> = tree
                    .within_unsorted::<SquaredEuclidean>(&center, pruning_radius(r))
                    .into_iter()
                    .filter(|n| n.distance <= rr)
                    .map(|n| n.item)
                    .collect();
                found.sort_unstable();
                let within: Vec<u32> = (0..live.len() as u32)
                    .filter(|&id| live[id as usize].is_some_and(|p| dist2(&p, &center) <= rr))
                    .collect();
                if found != within {
                    let missed: Vec<(u32, [f32; D])> = within
                        .iter()
                        .filter(|id| found.binary_search(id).is_err())
                        .map(|&id| (id, live[id as usize].unwrap()))
                        .collect();
                    let extra: Vec<&u32> =
                        found.iter().filter(|id| within.binary_search(id).is_err()).collect();
                    println!(
                        "op {i}: within_unsorted of {center:?}, r = {r}: kiddo found {} points, {} are within; missed {missed:?}; extra {extra:?}",
                        found.len(),
                        within.len()
                    );
                    wrong += 1;
                }
            }
        }
    }
    if wrong > 0 {
        println!("kiddo 5.3.3: {wrong} wrong answers over {} ops", OPS.len());
        std::process::exit(1);
    }
    println!("kiddo 5.3.3: all {} ops answered as the brute-force scan", OPS.len());
}
