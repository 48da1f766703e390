//! dodbench's report: turns a results file (`target/dodbench/results.json`), or one per
//! machine shown side by side ([`render_machines`]), into a self-contained static site, `index.html`, one page per family and `claims.html` (the articles' claims judged), with SVG charts in
//! `charts/` beside them. It never runs a benchmark; it reads only the results schema
//! (`results`) and, when [`RenderOptions::history`] is set, the history through
//! `results::history::load` (one trend chart per workload across commits).
//!
//! * [`view`] groups the results into families, workloads and sizes, formats every number,
//!   computes ratios to the best and the "which design" summary, and builds the charts;
//! * [`charts`] has one module per chart, each taking plain rows so it can be tested alone;
//! * `templates/` holds the HTML (minijinja, auto-escaping on: design and workload names come
//!   from data files), the stylesheet and the optional filter script, all compiled in.
//!
//! Nothing on the pages is fetched from the network and no script is needed to read them.
//!
//! ```no_run
//! use std::path::Path;
//! let results = results::Results::load(Path::new("target/dodbench/results.json"))?;
//! let summary = reports::render(&results, Path::new("target/dodbench/report"), &Default::default())?;
//! println!("{}", summary.index.display());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod charts;
pub mod format;
pub mod palette;
pub mod view;

use std::path::{Path, PathBuf};

use minijinja::value::Serde;
use minijinja::{AutoEscape, Environment, Value, context};
use results::{Results, target_dir};

/// The templates, compiled into the binary.
const TEMPLATES: [(&str, &str); 7] = [
    ("base.html", include_str!("../templates/base.html")),
    ("macros.html", include_str!("../templates/macros.html")),
    ("index.html", include_str!("../templates/index.html")),
    ("family.html", include_str!("../templates/family.html")),
    ("claims.html", include_str!("../templates/claims.html")),
    ("style.css", include_str!("../templates/style.css")),
    ("filter.js", include_str!("../templates/filter.js")),
];

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Page title; `dodbench report` when `None`.
    pub title: Option<String>,
    /// The results file, named in the footer.
    pub source: Option<PathBuf>,
    /// With several results files ([`render_machines`]): each one, in the order of the runs,
    /// named in the footer instead of `source`.
    pub sources: Vec<PathBuf>,
    /// A history file (JSON lines from `dodbench history append` or `dodbench compare
    /// --history`): when it has at least one entry, every workload on the family pages gets a
    /// "Trend across commits" chart. `None` (or an empty history) changes nothing.
    pub history: Option<PathBuf>,
    /// The metric the trend charts draw, by its history name (`d1_miss`,
    /// `metrics.bytes_per_tag`, any name `dodbench compare` prints); `None`: simulated
    /// instructions where the history has them, else the time over the reference design's.
    pub trend_metric: Option<String>,
}

/// What [`render`] wrote.
#[derive(Debug, Clone)]
pub struct RenderSummary {
    /// `index.html`.
    pub index: PathBuf,
    /// One page per family.
    pub family_pages: Vec<PathBuf>,
    /// `claims.html`: the articles' claims judged on the run.
    pub claims_page: PathBuf,
    /// Every chart file written.
    pub charts: Vec<PathBuf>,
}

/// Why the report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file or directory could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A template failed (a bug in a template).
    #[error("template: {0:#}")]
    Template(#[from] minijinja::Error),
    /// A chart failed to draw.
    #[error(transparent)]
    Chart(#[from] charts::ChartError),
    /// The history file exists but could not be read (corrupt lines are skipped, not errors).
    #[error(transparent)]
    History(#[from] results::history::HistoryError),
}

/// `target/dodbench/report`, where `cargo bench` and `dodbench report` write by default.
pub fn default_report_dir() -> PathBuf {
    target_dir().join("dodbench").join("report")
}

/// The template environment: every template compiled in, HTML auto-escaping for `.html`
/// templates (the stylesheet and the script are ours and included verbatim).
fn environment() -> Result<Environment<'static>, minijinja::Error> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".html") {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)?;
    }
    Ok(env)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    std::fs::write(path, bytes).map_err(|source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Renders the report for `results` into `out_dir` (created if needed, by
/// [`results::create_output_dir`]: a symbolic link is followed, a path that is a file, FIFO or
/// device is refused): `index.html`, one
/// `<family>.html` per family and `charts/*.svg`. Old charts in `out_dir/charts` are removed
/// first so the directory holds exactly this report's charts. The one-machine case of
/// [`render_machines`].
///
/// # Errors
/// The directory or a file could not be written; a template or chart failed (a bug).
pub fn render(
    results: &Results,
    out_dir: &Path,
    opts: &RenderOptions,
) -> Result<RenderSummary, ReportError> {
    render_machines(std::slice::from_ref(results), out_dir, opts)
}

/// Renders one report of `runs`, one results file per machine, side by side: the index lists
/// every machine, every time-derived number is shown per machine (ratios against the design's
/// own machine), deterministic numbers once (again only where machines disagree). The first
/// run's designs, families and workloads describe the report. Check the runs first with
/// [`results::side_by_side::check`]: runs of different traces or simulated caches are not
/// comparable, and two runs of one machine name cannot be told apart.
///
/// # Errors
/// As [`render`].
///
/// # Panics
/// When `runs` is empty.
pub fn render_machines(
    runs: &[Results],
    out_dir: &Path,
    opts: &RenderOptions,
) -> Result<RenderSummary, ReportError> {
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| "dodbench report".to_string());
    let history = match &opts.history {
        Some(path) => {
            let (entries, corrupt) = results::history::load(path)?;
            Some(view::HistoryInput {
                path: path.display().to_string(),
                entries,
                corrupt,
                metric: opts.trend_metric.clone(),
            })
        }
        None => None,
    };
    let source = if opts.sources.is_empty() {
        opts.source.as_ref().map(|p| p.display().to_string())
    } else {
        let names: Vec<String> = opts
            .sources
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        Some(names.join(", "))
    };
    let (report, charts) = view::build(runs, &title, source, history.as_ref())?;
    let charts_dir = out_dir.join("charts");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Io { path, source }
    };
    results::create_output_dir(out_dir).map_err(io(out_dir))?;
    std::fs::create_dir_all(&charts_dir).map_err(io(&charts_dir))?;
    for entry in std::fs::read_dir(&charts_dir).map_err(io(&charts_dir))? {
        let path = entry.map_err(io(&charts_dir))?.path();
        if path.extension().is_some_and(|e| e == "svg") {
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    let mut chart_paths = Vec::new();
    for chart in &charts {
        let path = charts_dir.join(&chart.file);
        write(&path, chart.svg.as_bytes())?;
        chart_paths.push(path);
    }
    let env = environment()?;
    let report_value = Value::from(Serde(&report));
    let index_html = env
        .get_template("index.html")?
        .render(context! { report => report_value.clone(), current => "index" })?;
    let index = out_dir.join("index.html");
    write(&index, index_html.as_bytes())?;
    let mut family_pages = Vec::new();
    for family in &report.families {
        let html = env.get_template("family.html")?.render(context! {
            report => report_value.clone(),
            family => Value::from(Serde(family)),
            current => family.name.clone(),
        })?;
        let path = out_dir.join(&family.page);
        write(&path, html.as_bytes())?;
        family_pages.push(path);
    }
    let html = env
        .get_template("claims.html")?
        .render(context! { report => report_value.clone(), current => "claims" })?;
    let claims_page = out_dir.join(&report.claims.page);
    write(&claims_page, html.as_bytes())?;
    Ok(RenderSummary {
        index,
        family_pages,
        claims_page,
        charts: chart_paths,
    })
}
