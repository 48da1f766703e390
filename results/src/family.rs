//! The families of designs a run measures, and what each measures beyond time.
//!
//! This is the one file of the crate that names a specific family: a new family adds a
//! [`Family`] variant (its serde name is the string results.json stores), a row of
//! [`FamilyRecord::builtin`] (the design its times are normalised by in files that predate
//! `families`), and, if it measures something beyond time, a [`FamilyMetrics`] variant with its
//! metrics struct. Everything else (compare, history, the report) works from these types.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::claim::Claim;

/// A family of designs sharing one trait and one op vocabulary, or the reference loops timed
/// beside a family's designs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// ID lookup tables (`impls::id_table`).
    IdTable,
    /// Tag stores (`impls::tags`).
    Tags,
    /// Block allocators (`impls::alloc`).
    Alloc,
    /// Component managers (`impls::components`).
    Components,
    /// One-to-many indices (`impls::relations`).
    Relations,
    /// Transform hierarchies (`impls::transforms`).
    Transforms,
    /// DataComponent stores, per-entity key-value data (`impls::data_component`).
    DataComponent,
    /// Spatial indices, radius queries over points (`impls::spatial`).
    Spatial,
    /// Entity resources and batched spawning (`impls::spawn`).
    Spawn,
    /// Reference loops (a plain `Vec`, a hand-written loop, the system allocator) timed beside
    /// a family's designs on the same traces, never ranked.
    Reference,
}

impl Family {
    /// Every family, in the order pages and tables list them.
    pub const ALL: [Family; 10] = [
        Family::IdTable,
        Family::Tags,
        Family::Alloc,
        Family::Components,
        Family::Relations,
        Family::Transforms,
        Family::DataComponent,
        Family::Spatial,
        Family::Spawn,
        Family::Reference,
    ];

    /// The name results.json stores: `id_table`, `tags`, `alloc`, `components`, `relations`,
    /// `transforms`, `data_component`, `spatial`, `spawn` or `reference`.
    ///
    /// ```
    /// assert_eq!(results::Family::IdTable.as_str(), "id_table");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::IdTable => "id_table",
            Family::Tags => "tags",
            Family::Alloc => "alloc",
            Family::Components => "components",
            Family::Relations => "relations",
            Family::Transforms => "transforms",
            Family::DataComponent => "data_component",
            Family::Spatial => "spatial",
            Family::Spawn => "spawn",
            Family::Reference => "reference",
        }
    }

    /// Whether this is the pseudo-family of reference loops (no designs of its own, no
    /// [`FamilyRecord`]).
    pub const fn is_reference(self) -> bool {
        matches!(self, Family::Reference)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A family name that is not one of [`Family::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown family {name:?}; valid families: {}", valid_names())]
pub struct UnknownFamily {
    /// The name given.
    pub name: String,
}

fn valid_names() -> String {
    Family::ALL.map(Family::as_str).join(", ")
}

impl FromStr for Family {
    type Err = UnknownFamily;

    /// Parses the stored name.
    ///
    /// # Errors
    /// [`UnknownFamily`], whose message lists the valid names.
    ///
    /// ```
    /// use results::Family;
    /// assert_eq!("tags".parse::<Family>().unwrap(), Family::Tags);
    /// let e = "tag".parse::<Family>().unwrap_err().to_string();
    /// assert!(e.contains("id_table, tags, alloc, "), "{e}");
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| UnknownFamily {
                name: s.to_string(),
            })
    }
}

/// A family as a run describes it: its title, the design its times are normalised by, and the
/// articles' claims it measures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyRecord {
    /// The family.
    pub family: Family,
    /// Human title, e.g. `ID lookup tables`.
    pub title: String,
    /// The design whose `ns_per_op` normalises the others' on the same workload and n
    /// (`compare`, the history's `time_vs_reference`), so machine-wide drift cancels.
    pub reference_design: String,
    /// The articles' quantitative claims this family's results answer ([`crate::verdict`]
    /// judges them); empty in files written before claims were recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
}

impl FamilyRecord {
    /// The built-in record of `family`, used for files written before runs recorded their
    /// families (results schema 1 to 3, baselines without `families`); `None` for
    /// [`Family::Reference`], which has no designs of its own, and for families added after
    /// schema 4, which no such file can hold.
    ///
    /// ```
    /// use results::{Family, FamilyRecord};
    /// assert_eq!(FamilyRecord::builtin(Family::IdTable).unwrap().reference_design, "holey");
    /// assert!(FamilyRecord::builtin(Family::Reference).is_none());
    /// ```
    pub fn builtin(family: Family) -> Option<Self> {
        let (title, reference_design) = match family {
            Family::IdTable => ("ID lookup tables", "holey"),
            Family::Tags => ("Tag stores", "vec_of_vecs"),
            Family::Alloc => ("Block allocators", "buddy"),
            // Added after results recorded their families (schema 4): every file holding them
            // records its own titles and reference designs.
            Family::Components
            | Family::Relations
            | Family::Transforms
            | Family::DataComponent
            | Family::Spatial
            | Family::Spawn => {
                return None;
            }
            Family::Reference => return None,
        };
        Some(Self {
            family,
            title: title.to_string(),
            reference_design: reference_design.to_string(),
            claims: Vec::new(),
        })
    }

    /// The built-in records of every family that has designs, in [`Family::ALL`] order.
    pub fn builtin_all() -> Vec<Self> {
        Family::ALL.into_iter().filter_map(Self::builtin).collect()
    }
}

/// The metrics one family measures beyond time (`Benchmark::metrics`), tagged by `kind` in
/// results.json: `{"kind": "tags", "tags_after_setup": ..., ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FamilyMetrics {
    /// A tag store's.
    Tags(TagMetrics),
    /// A block allocator's.
    Alloc(AllocMetrics),
    /// A component manager's.
    Components(ComponentMetrics),
    /// A relation index's.
    Relations(RelationMetrics),
    /// A transform hierarchy's.
    Transforms(TransformMetrics),
    /// A DataComponent store's.
    DataComponent(DataComponentMetrics),
    /// A spatial index's.
    Spatial(SpatialMetrics),
    /// A spawn design's.
    Spawn(SpawnMetrics),
}

impl FamilyMetrics {
    /// The family these metrics belong to.
    pub fn family(&self) -> Family {
        match self {
            FamilyMetrics::Tags(_) => Family::Tags,
            FamilyMetrics::Alloc(_) => Family::Alloc,
            FamilyMetrics::Components(_) => Family::Components,
            FamilyMetrics::Relations(_) => Family::Relations,
            FamilyMetrics::Transforms(_) => Family::Transforms,
            FamilyMetrics::DataComponent(_) => Family::DataComponent,
            FamilyMetrics::Spatial(_) => Family::Spatial,
            FamilyMetrics::Spawn(_) => Family::Spawn,
        }
    }

    /// The results.json names of `family`'s metric fields, which a claim's
    /// [`Metric::Family`](crate::claim::Metric::Family) may name; `None` for a family without
    /// metrics of its own.
    ///
    /// ```
    /// use results::{Family, FamilyMetrics};
    /// let fields = FamilyMetrics::field_names(Family::Transforms).unwrap();
    /// assert!(fields.iter().any(|f| f == "products_per_frame"));
    /// assert!(FamilyMetrics::field_names(Family::IdTable).is_none());
    /// ```
    pub fn field_names(family: Family) -> Option<Vec<String>> {
        let empty = match family {
            Family::Tags => FamilyMetrics::Tags(TagMetrics::default()),
            Family::Alloc => FamilyMetrics::Alloc(AllocMetrics::default()),
            Family::Components => FamilyMetrics::Components(ComponentMetrics::default()),
            Family::Relations => FamilyMetrics::Relations(RelationMetrics::default()),
            Family::Transforms => FamilyMetrics::Transforms(TransformMetrics::default()),
            Family::DataComponent => FamilyMetrics::DataComponent(DataComponentMetrics::default()),
            Family::Spatial => FamilyMetrics::Spatial(SpatialMetrics::default()),
            Family::Spawn => FamilyMetrics::Spawn(SpawnMetrics::default()),
            Family::IdTable | Family::Reference => return None,
        };
        match serde_json::to_value(empty) {
            Ok(serde_json::Value::Object(fields)) => {
                Some(fields.keys().filter(|k| *k != "kind").cloned().collect())
            }
            _ => None,
        }
    }

    /// Reads the per-family fields of a results file of schema 1 to 3 (`tags`, `alloc` beside
    /// the other benchmark fields), removing them from `benchmark`; `None` when it has neither.
    ///
    /// # Errors
    /// The field is present but not of its family's shape.
    pub(crate) fn take_v3_fields(
        benchmark: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<Option<Self>, serde_json::Error> {
        let tags = benchmark.remove("tags").filter(|v| !v.is_null());
        let alloc = benchmark.remove("alloc").filter(|v| !v.is_null());
        Ok(match (tags, alloc) {
            (Some(t), _) => Some(FamilyMetrics::Tags(serde_json::from_value(t)?)),
            (None, Some(a)) => Some(FamilyMetrics::Alloc(serde_json::from_value(a)?)),
            (None, None) => None,
        })
    }
}

/// Memory metrics of a tag store on one trace, measured by an untimed replay with the design's
/// own accounting (`impls::tags::TagStore::memory_bytes` and `allocator_calls`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TagMetrics {
    /// Tags held after the setup.
    pub tags_after_setup: u64,
    /// Heap bytes per tag held after the setup (`memory_bytes / tags_after_setup`); `None`
    /// with no tags.
    pub bytes_per_tag: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Allocator calls the design made during the setup, per tag held after it (the heap
    /// traffic of building the store).
    pub setup_alloc_calls_per_tag: Option<f64>,
    /// Allocator calls the design made during the body, per work unit.
    pub alloc_calls_per_op: f64,
}

/// Memory metrics of a relation index on one trace, measured by an untimed replay with the
/// design's own accounting (`impls::relations::RelationIndex::memory_bytes`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RelationMetrics {
    /// Live records after the setup.
    pub records_after_setup: u64,
    /// Heap bytes per live record after the setup (records, links, hash tables, free list);
    /// `None` with no records.
    pub bytes_per_record: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Indices the design keeps (1: on `a` only; 2: on `a` and `b`; 0: none, it scans).
    pub indices: u8,
}

/// Query work and space of a spatial index on one trace, from an untimed replay with the
/// design's own accounting (`impls::spatial::SpatialIndex::query_cost`, `longest_chain` and
/// `memory_bytes`): the article's "2^n cells", "~16 objects" and XOR collision figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpatialMetrics {
    /// Live points after the setup.
    pub points_after_setup: u64,
    /// Heap bytes per live point after the setup; `None` with no points.
    #[serde(default)]
    pub bytes_per_point: Option<f64>,
    /// Points found per query of the body (the same for every design); `None` without queries.
    #[serde(default)]
    pub found_per_query: Option<f64>,
    /// Grid cells (hash lookups, dense cells) looked at per query; `None` for designs that
    /// cannot tell (peers) or have no cells, and without queries.
    #[serde(default)]
    pub cells_per_query: Option<f64>,
    /// Points tested (distance computed, or walked past in a colliding bucket) per query;
    /// `None` for designs that cannot tell (peers) and without queries.
    #[serde(default)]
    pub tested_per_query: Option<f64>,
    /// The most points one bucket (hash key's list, dense cell) held after the setup; `None`
    /// for designs without buckets.
    #[serde(default)]
    pub longest_chain: Option<u64>,
}

/// The resource and the spawned world of a spawn design on one trace, from an untimed
/// compile and spawn with the design's own accounting (`impls::spawn::Spawner::blob_bytes`,
/// `SpawnWorld::memory_bytes`): the article's blob sizes per format.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpawnMetrics {
    /// Entities of the level (one spawn).
    pub level_entities: u64,
    /// Bytes of the compiled resource per level entity; `None` for an empty level.
    #[serde(default)]
    pub blob_bytes_per_entity: Option<f64>,
    /// Heap bytes of the world after one spawn per spawned entity (peers: an estimate);
    /// `None` for an empty level.
    #[serde(default)]
    pub world_bytes_per_entity: Option<f64>,
}

/// Memory, allocator traffic and garbage of a component manager on one trace, measured by an
/// untimed replay with the design's own accounting (`impls::components::ComponentStore`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ComponentMetrics {
    /// Live entities after the setup.
    pub entities_after_setup: u64,
    /// Instances (point masses) after the setup.
    pub instances_after_setup: u64,
    /// Heap bytes after the setup per live entity (entity manager, map and instance data);
    /// `None` with no entity.
    pub bytes_per_entity: Option<f64>,
    /// Heap bytes after the setup per instance; `None` with no instance.
    pub bytes_per_instance: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Allocator calls during the setup.
    pub setup_alloc_calls: u64,
    /// Allocator calls during the body, per work unit.
    pub alloc_calls_per_op: f64,
    /// Destruction steps (frames) in the body.
    pub frames: u64,
    /// Garbage (instances of dead entities not yet destroyed) after the 10th destruction
    /// step; `None` with fewer steps.
    pub garbage_after_10_frames: Option<u64>,
    /// Garbage after the last destruction step; `None` without one.
    pub garbage_after_last_frame: Option<u64>,
    /// Most garbage after any destruction step (0 without one).
    pub garbage_peak: u64,
    /// Garbage after each destruction step, in order (empty without one; absent from
    /// results written before it was recorded).
    #[serde(default)]
    pub garbage_per_frame: Vec<u64>,
}

/// Space metrics of a block allocator on one trace, sampled after every op of an untimed
/// replay on the arena the timed replays use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AllocMetrics {
    /// Arena size of the replay (from the trace's peak; the same for every design).
    pub arena_bytes: u64,
    /// Requested live bytes over reserved bytes at the moment of peak requested bytes.
    pub utilization_at_peak: f64,
    /// Mean over ops of requested live bytes over reserved bytes (ops with nothing live are
    /// skipped).
    pub utilization_mean: f64,
    /// Internal fragmentation at peak: `(reserved - requested) / reserved`.
    pub internal_fragmentation_at_peak: f64,
    /// External fragmentation at peak: `1 - largest free block / free bytes` (the bytes on the
    /// design's free lists); `None` where the design cannot tell both.
    pub external_fragmentation_at_peak: Option<f64>,
    /// Largest free block over the arena size at peak; `None` where unknown.
    pub largest_free_over_arena_at_peak: Option<f64>,
    /// Allocator metadata (in the arena and on the host heap) in bits per live block, at peak.
    pub metadata_bits_per_block: f64,
    /// Separately, on an arena of `arena_bytes`: a seeded stream of allocations from the
    /// trace's size mix until the first failure; requested live bytes then over the arena.
    pub live_fraction_at_first_failure: Option<f64>,
}

/// Space and allocator traffic of a DataComponent store on one trace, from an untimed replay
/// with the design's own accounting (`impls::data_component::DataStore::memory_bytes` and
/// `allocator_calls`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DataComponentMetrics {
    /// Live entities after the body.
    pub entities_after_body: u64,
    /// Keys held after the body.
    pub keys_after_body: u64,
    /// Heap bytes after the body per key held; `None` with no keys.
    pub bytes_per_key: Option<f64>,
    /// Heap bytes after the body per live entity; `None` with no entities.
    pub bytes_per_entity: Option<f64>,
    /// Allocator calls over setup and body per entity spawned (the article's "many → 3 → 1").
    pub alloc_calls_per_entity: Option<f64>,
    /// Allocator calls during the body per work unit.
    pub body_alloc_calls_per_op: f64,
}

/// Work and space of a transform hierarchy on one trace, from an untimed replay with the
/// design's own accounting (`impls::transforms::TransformStore::world_updates` and
/// `memory_bytes`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TransformMetrics {
    /// Live nodes after the setup.
    pub nodes_after_setup: u64,
    /// Heap bytes per node after the setup; `None` with no nodes.
    pub bytes_per_node: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// World products (`local * parent_world`) the design computed during the body, per
    /// `EndFrame` of the body: O(L²) against O(L) on a moving chain; `None` for a body
    /// without frames.
    pub products_per_frame: Option<f64>,
    /// The same products per `SetLocal` (and batch entry) of the body; `None` without any.
    pub products_per_set_local: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_display_and_from_str() {
        for f in Family::ALL {
            let json = serde_json::to_value(f).unwrap();
            assert_eq!(json, serde_json::Value::from(f.as_str()));
            assert_eq!(serde_json::from_value::<Family>(json).unwrap(), f);
            assert_eq!(f.to_string().parse::<Family>().unwrap(), f);
        }
        let e = "idtable".parse::<Family>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "unknown family \"idtable\"; valid families: {}",
                Family::ALL.map(Family::as_str).join(", ")
            )
        );
    }

    #[test]
    fn the_families_of_schema_1_to_3_have_a_builtin_record_and_later_ones_none() {
        let all = FamilyRecord::builtin_all();
        assert_eq!(
            all.iter().map(|r| r.family).collect::<Vec<_>>(),
            [Family::IdTable, Family::Tags, Family::Alloc]
        );
        assert_eq!(all[1].reference_design, "vec_of_vecs");
        assert_eq!(all[2].title, "Block allocators");
    }

    #[test]
    fn metrics_are_tagged_by_kind() {
        let m = FamilyMetrics::Tags(TagMetrics {
            tags_after_setup: 3,
            bytes_per_tag: Some(8.0),
            memory_bytes_after_body: 24,
            setup_alloc_calls_per_tag: None,
            alloc_calls_per_op: 0.5,
        });
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json["kind"], "tags");
        assert_eq!(json["tags_after_setup"], 3);
        assert_eq!(serde_json::from_value::<FamilyMetrics>(json).unwrap(), m);
        assert_eq!(m.family(), Family::Tags);
    }
}
