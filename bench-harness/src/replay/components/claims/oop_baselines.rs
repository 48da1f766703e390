//! Seed 004's object-oriented baselines ("Stable pointer dynamic array", parts 1 and 2):
//! components found in each game object's list, a field per built-in component, the scene's
//! per-type pools of boxes, and a list's scattered elements against a vector (B1 to B5).

use results::claim_spec::{d1, family, instructions, time};
use results::{ClaimSpec, QuantitySpec, Rule, Sizes};

const OOP: &str = "004 Stable pointer dynamic array, part 1";
const LISTS: &str = "004 Stable pointer dynamic array, part 2";

const POOL_QUOTE: &str = "Mit is nyertünk ezzel? Komponensenként eggyel kevesebb \
                          memória-ugrást, nomeg ellenőriznünk sem kell, hogy van-e ilyen \
                          komponens vagy sem, hiszen ott van a listában, és kész. (What have \
                          we gained? One fewer memory jump per component, and we need not \
                          check whether there is such a component, since it is there in the \
                          list.)";

/// The object-oriented baselines' claims, in catalogue order.
pub(super) const CLAIMS: &[ClaimSpec] = &[
    ClaimSpec {
        id: "B1",
        source: OOP,
        quote: "Azonban, ha az entitás tárolja a komponenseket (főleg ilyen általános \
                módon), akkor az iterálás igen problémás. Minden objektumon végig kell \
                iterálni, le kell kérdezni az adott típusú komponensét (pl. Transform), és \
                azon elvégezni a műveleteket. (But if the entity stores the components, \
                especially in such a generic way, iteration is very problematic: we must \
                iterate every object, ask it for its component of the given type (e.g. \
                Transform) and work on that.)",
        reading: "oop_objects (game objects owning Vec<Box<dyn Any>> components, found by \
                  a type scan; simulate walks the objects) ÷ oop_pools (the same boxed \
                  point masses iterated from the scene's per-type pool: the article's own \
                  fix), time per instance update on comp-simulate: \"very problematic\" \
                  read as at least twice the time of iterating the component list.",
        quantity: QuantitySpec::ratio(
            time("oop_objects", "comp-simulate"),
            time("oop_pools", "comp-simulate"),
        ),
        rule: Rule::AtLeast(2.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "Each object here owns only its point mass, so the type scan stops at the \
             first box; an object with other components would scan past them, so the \
             measured ratio is a lower bound for the article's objects.",
        ),
    },
    ClaimSpec {
        id: "B2",
        source: OOP,
        quote: "Egy kicsivel jobb, ha az objektumok néhány előre definiált, jól ismert \
                komponenst külön tárolnak … Ekkor az adott típusú built-in komponens \
                elérése már gyorsabb, de továbbra is végig kell iterálni az összes \
                objektumon (It is a little better if the objects keep a few predefined, \
                well-known components separately … Then reaching a built-in component is \
                faster, but we still have to iterate over all the objects.)",
        reading: "oop_fields (an Option<Box<PointMass>> field per game object) ÷ \
                  oop_objects (components found by a type scan of a list), time per \
                  instance update on comp-simulate: \"a little better\" read as faster \
                  by less than 2×, a ratio within [0.5, 1].",
        quantity: QuantitySpec::ratio(
            time("oop_fields", "comp-simulate"),
            time("oop_objects", "comp-simulate"),
        ),
        rule: Rule::Between(0.5, 1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's scan is over a few C++ Component* with a type check; ours \
             downcasts Box<dyn Any> entries (one component per object here, so the scan \
             finds it first).",
        ),
    },
    ClaimSpec {
        id: "B3a",
        source: OOP,
        quote: POOL_QUOTE,
        reading: "oop_pools (the system iterates the scene's Vec<Box<PointMass>>) ÷ \
                  oop_fields (the system walks the objects and follows each one's \
                  component pointer), simulated D1 misses per instance update on \
                  comp-simulate: one fewer jump read as fewer misses (≤ 1).",
        quantity: QuantitySpec::ratio(
            d1("oop_pools", "comp-simulate"),
            d1("oop_fields", "comp-simulate"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "B3b",
        source: OOP,
        quote: POOL_QUOTE,
        reading: "oop_pools ÷ oop_fields, simulated instructions per instance update on \
                  comp-simulate: no has-component check read as fewer instructions \
                  (≤ 1).",
        quantity: QuantitySpec::ratio(
            instructions("oop_pools", "comp-simulate"),
            instructions("oop_fields", "comp-simulate"),
        ),
        rule: Rule::AtMost(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    },
    ClaimSpec {
        id: "B3c",
        source: OOP,
        quote: "Mivel heap alloc történik, így nem tudjuk pontosan, hogy a memóriában hol \
                kapnak helyet a létrehozott komponensek. … Érdemes utánanézni a \"memory \
                fragmentation\" fogalomnak. (Since a heap allocation happens, we do not \
                know where in memory the created components land. … Look up \"memory \
                fragmentation\".)",
        reading: "oop_pools' allocator calls during the setup of comp-simulate ÷ its \
                  point masses after the setup (both from the design's own accounting): a \
                  heap allocation per component read as at least one call per instance.",
        quantity: QuantitySpec::ratio(
            family("setup_alloc_calls", "oop_pools", "comp-simulate"),
            family("instances_after_setup", "oop_pools", "comp-simulate"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: true,
        note: Some(
            "The count also holds the pool's and the object table's growth; fragmentation \
             itself (a larger block failing among freed small ones) is not measured.",
        ),
    },
    ClaimSpec {
        id: "B5",
        source: LISTS,
        quote: "Ezzel szemben a listába való beszúrás és törlés bármely pozícióban \
                konstans idejű … Cserébe a listának az elemei a memóriában \"random \
                helyeken\" lesznek, így a listán való végigiterálás kevésbé hatékony (sok \
                cache miss). (In contrast, inserting into and erasing from a list is \
                constant time at any position … In exchange the list's elements will be at \
                \"random places\" in memory, so iterating over the list is less efficient \
                (many cache misses).)",
        reading: "oop_pools (the scene's Vec<Box<(Entity, PointMass)>>: every element \
                  allocated on its own, its address stable while it lives, the boxes handed \
                  out shuffled so that neighbours in the pool are not neighbours in memory: \
                  the list's scattered elements) ÷ ref-vec-simulate (the same simulate loop \
                  over a plain Vec<PointMass>: the vector), simulated D1 misses per \
                  instance update on comp-simulate: less efficient iteration with many \
                  misses read as more misses than the vector's (≥ 1).",
        quantity: QuantitySpec::ratio(
            d1("oop_pools", "comp-simulate"),
            d1("ref-vec-simulate", "comp-simulate"),
        ),
        rule: Rule::AtLeast(1.0),
        sizes: Sizes::EVERY,
        by_construction: false,
        note: Some(
            "The article's list is a std::list, iterated by following each node's next \
             pointer; oop_pools reaches its scattered elements through a vector of \
             pointers, so it has the list's scattered, stable elements without its chain \
             of pointers (a chain of boxed nodes is the tags family's boxed_nodes, C3a).",
        ),
    },
];
