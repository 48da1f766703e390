//! Where a design comes from, shared by every family's design records.

/// Where a design comes from, so readers can judge fairness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DesignKind {
    /// A faithful port of a design from the source articles.
    Article,
    /// Our variant of an article design (or an idea an article proposes but never built); the
    /// description says what differs.
    Tuned,
    /// A published crate behind a thin adapter.
    Peer {
        /// The crate's name on crates.io.
        crate_name: &'static str,
        /// The crate version the adapter was written and measured against (kept equal to the
        /// version in `Cargo.lock` by a test).
        version: &'static str,
        /// How the adapter uses the crate, as its documentation shows: the API calls, the
        /// components or containers, bulk or incremental (shown in `dodbench list` and the
        /// report's designs table).
        idiom: &'static str,
        /// The documentation page the idiom follows (a docs.rs URL of this version).
        docs: &'static str,
        /// What the adapter does per op beyond the idiom, and why: the family's contract (a
        /// check of the caller's ID, bookkeeping for a metric, a conversion of the trace's
        /// types), or that it adds nothing. Shown beside the measured adapter cost (the replay
        /// ÷ the crate called directly), so a cost above 1.10 is explained where it is read.
        adapter: &'static str,
    },
    /// A design from another crate, run through `dodbench::external` (the user's own type).
    External,
}

impl DesignKind {
    /// The label used in results and reports: `article`, `tuned`, `peer` or `external`.
    pub const fn label(self) -> &'static str {
        match self {
            DesignKind::Article => "article",
            DesignKind::Tuned => "tuned",
            DesignKind::Peer { .. } => "peer",
            DesignKind::External => "external",
        }
    }

    /// `crate version` of a peer (as results record it), `None` for our own designs.
    ///
    /// ```
    /// use impls::DesignKind;
    /// let peer = DesignKind::Peer {
    ///     crate_name: "slotmap",
    ///     version: "1.1.1",
    ///     idiom: "SlotMap::insert / get / remove by DefaultKey",
    ///     docs: "https://docs.rs/slotmap/1.1.1/slotmap/struct.SlotMap.html",
    ///     adapter: "nothing: the trait's calls are the crate's",
    /// };
    /// assert_eq!(peer.crate_version().as_deref(), Some("slotmap 1.1.1"));
    /// assert_eq!(DesignKind::Article.crate_version(), None);
    /// ```
    pub fn crate_version(self) -> Option<String> {
        match self {
            DesignKind::Peer {
                crate_name,
                version,
                ..
            } => Some(format!("{crate_name} {version}")),
            _ => None,
        }
    }

    /// A peer's idiom and documentation page (`None` for our own designs).
    ///
    /// ```
    /// use impls::DesignKind;
    /// let peer = DesignKind::Peer {
    ///     crate_name: "slab",
    ///     version: "0.4.12",
    ///     idiom: "Slab::insert / get / try_remove by usize key",
    ///     docs: "https://docs.rs/slab/0.4.12/slab/struct.Slab.html",
    ///     adapter: "nothing: the trait's calls are the crate's",
    /// };
    /// assert_eq!(peer.usage().map(|(idiom, _)| idiom), Some("Slab::insert / get / try_remove by usize key"));
    /// assert_eq!(DesignKind::Tuned.usage(), None);
    /// ```
    pub const fn usage(self) -> Option<(&'static str, &'static str)> {
        match self {
            DesignKind::Peer { idiom, docs, .. } => Some((idiom, docs)),
            _ => None,
        }
    }

    /// What a peer's adapter does beyond its idiom (`None` for our own designs).
    ///
    /// ```
    /// use impls::DesignKind;
    /// let peer = DesignKind::Peer {
    ///     crate_name: "slab",
    ///     version: "0.4.12",
    ///     idiom: "Slab::insert / get / try_remove by usize key",
    ///     docs: "https://docs.rs/slab/0.4.12/slab/struct.Slab.html",
    ///     adapter: "nothing: the trait's calls are the crate's",
    /// };
    /// assert_eq!(peer.adapter(), Some("nothing: the trait's calls are the crate's"));
    /// assert_eq!(DesignKind::Article.adapter(), None);
    /// ```
    pub const fn adapter(self) -> Option<&'static str> {
        match self {
            DesignKind::Peer { adapter, .. } => Some(adapter),
            _ => None,
        }
    }
}
