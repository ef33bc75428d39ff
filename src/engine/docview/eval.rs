//! How well does the cleaner do? Scores DocView extraction against ground truth with the
//! character-bigram P/R/F1 of [`crate::engine::text::metric`], page by page, so that failures can
//! be studied (the GUI's evaluation tab lists them worst first).
//!
//! Four sources of truth:
//! * a folder pair in the layout of ccwe: `HTML_DIR/NAME.html` with `TRUTH_DIR/NAME.txt`;
//! * the article-extraction benchmark's folder ([`aeb`]: `html/NAME.html.gz` and
//!   `ground-truth.json`), all of it or its tune or check half;
//! * the bundled sample web (body, page type and title for each of its 434 pages);
//! * the pages stored in a workspace, matched to the sample web's truth by host and path.
//!
//! Body F1 is averaged over pages whose truth has a body (a hub page's truth body is empty, and
//! by the book a hub page's body is its links [L2404]); page type and title are scored on every
//! page that has them.
//!
//! ```no_run
//! use tianwang::engine::docview::{Params, eval};
//! let r = eval::eval_sample(&Params::default(), &mut |_, _| Ok(()))?;
//! println!("body F1 {:.3}, type accuracy {:?}", r.body.f1, r.type_accuracy);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub(crate) mod aeb;

use super::{Detail, Params, TreePath, extract_detail};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::TypedJob;
use crate::engine::jobs::{JobContext, load_detail, save_detail};
use crate::engine::text::metric::{Prf, bigram_prf, macro_avg};
use crate::engine::text::segment::Segmenter;

/// One scored page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalPage {
    /// File name or URL.
    pub name: String,
    /// Where to open it: a file path or a URL.
    pub location: String,
    /// Body P/R/F1 (`None` when the truth has no body).
    pub p: Option<f64>,
    pub r: Option<f64>,
    pub f1: Option<f64>,
    pub page_type: String,
    pub truth_type: Option<String>,
    pub title: String,
    pub truth_title: Option<String>,
    pub encoding: String,
    pub decided_by: String,
    pub body_chars: usize,
    pub truth_chars: usize,
    pub error: Option<String>,
}

/// A whole evaluation run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    pub source: String,
    /// Per-page results; empty in the experiment log's row, whose job stores them in
    /// `job_details` (see [`EvalReport::attach_pages`]).
    #[serde(default)]
    pub pages: Vec<EvalPage>,
    /// How many per-page results were moved to `job_details`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pages_detached: usize,
    /// Macro-averaged body P/R/F1 over pages with a truth body.
    pub body: Prf,
    pub body_pages: usize,
    pub type_accuracy: Option<f64>,
    pub title_exact: Option<f64>,
    pub errors: usize,
    /// Wall-clock seconds of cleaning (reading files and scoring excluded), pages per second,
    /// and the threads used.
    pub seconds: f64,
    pub pages_per_s: f64,
    pub threads: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One page to clean and what it should give.
struct Case {
    name: String,
    location: String,
    bytes: Vec<u8>,
    url: Option<String>,
    content_type: Option<String>,
    truth_body: Option<String>,
    truth_type: Option<String>,
    truth_title: Option<String>,
}

/// Progress callback: (done, total); an error (e.g. cancelled) stops the run.
pub(crate) type ProgressFn<'a> = dyn FnMut(usize, usize) -> Result<()> + 'a;

/// Pages cleaned in parallel per step between progress reports, per thread.
const CHUNK: usize = 64;

/// What scoring needs of a page's DocView: everything else is dropped while the clock runs.
struct Cleaned {
    body: String,
    page_type: &'static str,
    title: String,
    encoding: String,
    decided_by: String,
}

/// Clean one page (the timed part of a run: what the peers' timings cover, an extraction).
fn clean(c: &Case, params: &Params, seg: &Segmenter, path: TreePath) -> Result<Cleaned> {
    let dv = extract_detail(
        &c.bytes,
        c.url.as_deref(),
        c.content_type.as_deref(),
        None,
        params,
        seg,
        Detail::Full,
        path,
    )?;
    Ok(Cleaned {
        body: dv.body,
        page_type: dv.page_type.name(),
        title: dv.title,
        encoding: dv.encoding.name,
        decided_by: format!("{:?}", dv.encoding.decided_by).to_lowercase(),
    })
}

/// Score one cleaned page against its truth (outside the clock).
fn score(c: Case, res: Result<Cleaned>) -> EvalPage {
    let truth_chars = c.truth_body.as_deref().map_or(0, |t| t.chars().count());
    match res {
        Ok(dv) => {
            let prf = c
                .truth_body
                .as_deref()
                .filter(|t| !t.trim().is_empty())
                .map(|t| bigram_prf(&dv.body, t));
            EvalPage {
                name: c.name,
                location: c.location,
                p: prf.map(|x| x.p),
                r: prf.map(|x| x.r),
                f1: prf.map(|x| x.f1),
                page_type: dv.page_type.to_string(),
                truth_type: c.truth_type,
                title: dv.title,
                truth_title: c.truth_title,
                encoding: dv.encoding,
                decided_by: dv.decided_by,
                body_chars: dv.body.chars().count(),
                truth_chars,
                error: None,
            }
        }
        Err(e) => EvalPage {
            name: c.name,
            location: c.location,
            p: c.truth_body.as_ref().map(|_| 0.0),
            r: c.truth_body.as_ref().map(|_| 0.0),
            f1: c.truth_body.as_ref().map(|_| 0.0),
            page_type: String::new(),
            truth_type: c.truth_type,
            title: String::new(),
            truth_title: c.truth_title,
            encoding: String::new(),
            decided_by: String::new(),
            body_chars: 0,
            truth_chars,
            error: Some(e.to_string()),
        },
    }
}

/// Clean and score every case on rayon's pool (all cores; run inside a one-thread pool for a
/// single-thread figure). `seconds` is the wall-clock time of cleaning alone (the DocView built
/// and dropped); scoring against the truth runs after the clock stops, as in the peers' bench.
fn run(
    source: String,
    cases: Vec<Case>,
    params: &Params,
    path: TreePath,
    progress: &mut ProgressFn,
) -> Result<EvalReport> {
    use rayon::prelude::*;
    let seg = Segmenter::shared();
    let total = cases.len();
    let mut pages = Vec::with_capacity(total);
    let mut seconds = 0.0;
    let mut rest = cases.into_iter();
    loop {
        progress(pages.len(), total)?;
        let chunk: Vec<Case> = rest
            .by_ref()
            .take(CHUNK * rayon::current_num_threads())
            .collect();
        if chunk.is_empty() {
            break;
        }
        // Largest pages first (longest processing time first): a big page started last would
        // leave the other threads idle at the end of the chunk. Results go back in page order.
        let mut order: Vec<usize> = (0..chunk.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(chunk[i].bytes.len()));
        let t0 = Instant::now();
        let mut by_size: Vec<(usize, Result<Cleaned>)> = order
            .into_par_iter()
            .map(|i| (i, clean(&chunk[i], params, seg, path)))
            .collect();
        seconds += t0.elapsed().as_secs_f64();
        by_size.sort_unstable_by_key(|(i, _)| *i);
        let cleaned: Vec<Result<Cleaned>> = by_size.into_iter().map(|(_, r)| r).collect();
        let scored: Vec<EvalPage> = chunk
            .into_par_iter()
            .zip(cleaned)
            .map(|(c, r)| score(c, r))
            .collect();
        pages.extend(scored);
    }
    Ok(summarise(source, pages, seconds))
}

/// Totals of a list of scored pages.
pub(crate) fn summarise(source: String, pages: Vec<EvalPage>, seconds: f64) -> EvalReport {
    let prfs: Vec<Prf> = pages
        .iter()
        .filter_map(|p| {
            Some(Prf {
                p: p.p?,
                r: p.r?,
                f1: p.f1?,
            })
        })
        .collect();
    let typed: Vec<bool> = pages
        .iter()
        .filter_map(|p| p.truth_type.as_ref().map(|t| *t == p.page_type))
        .collect();
    let titled: Vec<bool> = pages
        .iter()
        .filter_map(|p| {
            p.truth_title
                .as_ref()
                .filter(|t| !t.is_empty())
                .map(|t| t.trim() == p.title.trim())
        })
        .collect();
    let share = |v: &[bool]| {
        (!v.is_empty()).then(|| v.iter().filter(|x| **x).count() as f64 / v.len() as f64)
    };
    let n = pages.len();
    EvalReport {
        source,
        pages_detached: 0,
        body: macro_avg(&prfs),
        body_pages: prfs.len(),
        type_accuracy: share(&typed),
        title_exact: share(&titled),
        errors: pages.iter().filter(|p| p.error.is_some()).count(),
        pages,
        seconds,
        pages_per_s: if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        },
        threads: rayon::current_num_threads(),
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| EngineError::path_os(path.to_path_buf(), e))
}

/// Score `HTML_DIR/NAME.html` against `TRUTH_DIR/NAME.txt` (pages without a truth file are
/// skipped; a folder with no pair at all is bad input).
pub(crate) fn eval_dir(
    html_dir: &Path,
    truth_dir: &Path,
    params: &Params,
    progress: &mut ProgressFn,
) -> Result<EvalReport> {
    eval_dir_with(html_dir, truth_dir, params, TreePath::Stream, progress)
}

/// [`eval_dir`] with the block tree built by `path` (`bench clean --tree`).
pub(crate) fn eval_dir_with(
    html_dir: &Path,
    truth_dir: &Path,
    params: &Params,
    path: TreePath,
    progress: &mut ProgressFn,
) -> Result<EvalReport> {
    let entries =
        std::fs::read_dir(html_dir).map_err(|e| EngineError::path_os(html_dir.to_path_buf(), e))?;
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| x.eq_ignore_ascii_case("html") || x.eq_ignore_ascii_case("htm"))
        })
        .collect();
    names.sort();
    let mut cases = Vec::new();
    for html in names {
        let stem = html
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let truth = truth_dir.join(format!("{stem}.txt"));
        if !truth.is_file() {
            continue;
        }
        let truth_bytes = read(&truth)?;
        cases.push(Case {
            name: html
                .file_name()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string(),
            location: html.display().to_string(),
            bytes: read(&html)?,
            url: None,
            content_type: None,
            truth_body: Some(String::from_utf8_lossy(&truth_bytes).into_owned()),
            truth_type: None,
            truth_title: None,
        });
    }
    if cases.is_empty() {
        return Err(EngineError::path_flaw(
            html_dir.to_path_buf(),
            Flaw::new("flaw.path_no_truth", &[&truth_dir.display()]),
        ));
    }
    run(
        format!("dir:{}", html_dir.display()),
        cases,
        params,
        path,
        progress,
    )
}

/// Score `half` of the article-extraction benchmark in `dir` (the `aeb` set's folder). Pages
/// are cleaned without their URL, as the peers clean them and as `eval_dir` does.
pub(crate) fn eval_aeb(
    dir: &Path,
    half: aeb::Half,
    params: &Params,
    path: TreePath,
    progress: &mut ProgressFn,
) -> Result<EvalReport> {
    let cases = aeb::read(dir, half)?
        .into_iter()
        .map(|p| Case {
            location: p.path.display().to_string(),
            name: p.name,
            bytes: p.html,
            url: None,
            content_type: None,
            truth_body: Some(p.truth),
            truth_type: None,
            truth_title: None,
        })
        .collect();
    let source = match half {
        aeb::Half::All => format!("aeb:{}", dir.display()),
        h => format!("aeb-{}:{}", h.name(), dir.display()),
    };
    run(source, cases, params, path, progress)
}

/// Score the bundled sample web against its ground truth.
pub fn eval_sample(params: &Params, progress: &mut ProgressFn) -> Result<EvalReport> {
    let web = crate::engine::sample::web::SampleWeb::build(80, false)?;
    let mut cases = Vec::new();
    for p in &web.truth.pages {
        let Some(res) = web.at(&p.url) else {
            continue;
        };
        cases.push(Case {
            name: p.url.clone(),
            location: p.url.clone(),
            bytes: res.body.clone(),
            url: Some(p.url.clone()),
            content_type: res.content_type.clone(),
            truth_body: Some(p.body.clone()),
            truth_type: Some(p.page_type.clone()),
            truth_title: Some(p.title.clone()),
        });
    }
    run("sample".into(), cases, params, TreePath::Stream, progress)
}

/// Clean every page stored in the workspace; pages of the sample web are scored against its
/// truth (matched by host and path, any port).
pub(crate) fn eval_workspace(
    ws: &crate::engine::store::Workspace,
    params: &Params,
    progress: &mut ProgressFn,
) -> Result<EvalReport> {
    let web = crate::engine::sample::web::SampleWeb::build(80, false)?;
    use crate::engine::sample::web::page_key as key;
    let truth: std::collections::HashMap<String, &crate::engine::sample::web::TruthPage> = web
        .truth
        .pages
        .iter()
        .filter_map(|p| Some((key(&p.url)?, p)))
        .collect();
    let mut cases = Vec::new();
    for row in crate::engine::inspect::list_pages(ws)? {
        let Some((bytes, ct)) = crate::engine::inspect::latest_content(ws, &row.url)? else {
            continue;
        };
        if !ct
            .as_deref()
            .unwrap_or("text/html")
            .to_ascii_lowercase()
            .contains("html")
        {
            continue;
        }
        let t = key(&row.url).and_then(|k| truth.get(&k).copied());
        cases.push(Case {
            name: row.url.clone(),
            location: row.url.clone(),
            bytes,
            url: Some(row.url.clone()),
            content_type: ct,
            truth_body: t.map(|t| t.body.clone()),
            truth_type: t.map(|t| t.page_type.clone()),
            truth_title: t.map(|t| t.title.clone()),
        });
    }
    run(
        "workspace".into(),
        cases,
        params,
        TreePath::Stream,
        progress,
    )
}

/// What to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum EvalSource {
    Dir {
        html: PathBuf,
        truth: PathBuf,
    },
    /// The `aeb` set's folder and which half of it.
    Aeb {
        dir: PathBuf,
        #[serde(default)]
        half: aeb::Half,
    },
    Sample,
    Workspace,
}

/// The evaluation as a job (GUI and CLI): the report is the job's result in the experiment log.
pub(crate) struct CleanEval {
    pub source: EvalSource,
    pub params: Params,
}

impl CleanEval {
    pub fn new(source: EvalSource, params: Params) -> Result<Self> {
        Ok(CleanEval {
            source,
            params: params.validated()?,
        })
    }
}

/// The evaluation job's parameters, as logged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct CleanEvalParams {
    pub source: EvalSource,
    pub params: Params,
}

/// Name of the per-page table in `job_details`: the log row keeps the totals only.
pub(crate) const PAGES_DETAIL: &str = "pages";

impl TypedJob for CleanEval {
    const KIND: &'static str = "clean-eval";
    type Params = CleanEvalParams;
    type Output = EvalReport;

    fn from_params(p: CleanEvalParams) -> Result<Self> {
        CleanEval::new(p.source, p.params)
    }

    fn params(&self) -> CleanEvalParams {
        CleanEvalParams {
            source: self.source.clone(),
            params: self.params.clone(),
        }
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<EvalReport> {
        let mut progress = |done: usize, total: usize| -> Result<()> {
            cx.check_cancel()?;
            cx.progress(
                if total > 0 {
                    done as f32 / total as f32
                } else {
                    1.0
                },
                format!("{done}/{total} pages"),
            );
            cx.counter("pages", done as f64);
            Ok(())
        };
        let ws = crate::engine::store::Workspace::open_existing(cx.workspace_path())?;
        let mut report = match &self.source {
            EvalSource::Dir { html, truth } => eval_dir(html, truth, &self.params, &mut progress)?,
            EvalSource::Aeb { dir, half } => {
                eval_aeb(dir, *half, &self.params, TreePath::Stream, &mut progress)?
            }
            EvalSource::Sample => eval_sample(&self.params, &mut progress)?,
            EvalSource::Workspace => eval_workspace(&ws, &self.params, &mut progress)?,
        };
        // The per-page table goes beside the log row, which keeps the totals.
        if let Some(id) = cx.job_id() {
            save_detail(&ws, id, PAGES_DETAIL, &report.pages)?;
            report.pages_detached = report.pages.len();
            report.pages.clear();
        }
        Ok(report)
    }
}

impl EvalReport {
    /// The per-page results as a table (full precision): CSV export in the GUI and `--csv`.
    pub(crate) fn to_table(&self) -> crate::engine::export::Table {
        let r = self;
        let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
        crate::engine::export::Table::new(
            format!("clean-eval {}", r.source),
            [
                "page",
                "location",
                "p",
                "r",
                "f1",
                "type",
                "truth_type",
                "title",
                "truth_title",
                "encoding",
                "decided_by",
                "body_chars",
                "truth_chars",
                "error",
            ],
        )
        .with_rows(r.pages.iter().map(|p| {
            [
                p.name.clone(),
                p.location.clone(),
                f(p.p),
                f(p.r),
                f(p.f1),
                p.page_type.clone(),
                p.truth_type.clone().unwrap_or_default(),
                p.title.clone(),
                p.truth_title.clone().unwrap_or_default(),
                p.encoding.clone(),
                p.decided_by.clone(),
                p.body_chars.to_string(),
                p.truth_chars.to_string(),
                p.error.clone().unwrap_or_default(),
            ]
        }))
    }

    /// Put the per-page table back into a report read from the experiment log (run `job_id`).
    pub(crate) fn attach_pages(
        mut self,
        ws: &crate::engine::store::Workspace,
        job_id: i64,
    ) -> Result<EvalReport> {
        if self.pages_detached > 0 {
            self.pages = load_detail(ws, job_id, PAGES_DETAIL)?.unwrap_or_default();
            self.pages_detached = 0;
        }
        Ok(self)
    }
}
