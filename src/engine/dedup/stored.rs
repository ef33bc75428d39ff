//! Near-duplicate groups kept in the workspace (table `page_groups`, schema v11): the groups of
//! pages a search folds into one result, as Tianwang did before serving (book §7.2
//! [L2496–L2640]: "网页消重" runs on the cleaned pages, and the query service shows one page of
//! each group with its similar pages).
//!
//! [`group_pages`] runs the recommended method, `best` (containment + CLR, boilerplate ignored),
//! on the pages DocView cleaned and kept ([`crate::engine::docview::stored`]) and joins:
//! - the method's clusters (the closure of its near and duplicate pairs) — joined `near`; hub
//!   pages (link lists) only with `hubs` on: every list of the same stories shares their
//!   titles, alike without being reprints;
//! - a page contained in another (an excerpt, a gallery whose captions are an article's first
//!   sentences) when neither is a hub page and all its containers are in one group — joined
//!   `contained` (a hub page lists many stories: containment through it would chain them);
//! - the crawl's replicas (byte-identical content fetched under another URL, a mirror host:
//!   `pages.replica_of`, never stored twice) — joined `replica`.
//!
//! Each group is named by its smallest page id. [`load`] reads the groups back for the query
//! service. The `dedup-pages` job ([`GroupPagesJob`]) is the pipeline's `dedup` stage.
//!
//! ```no_run
//! use tianwang::engine::dedup::stored;
//! use tianwang::engine::store::Workspace;
//! let ws = Workspace::open_existing("lab.tianwang".as_ref())?;
//! let out = stored::group_pages(&ws, &stored::GroupParams::default(), None, &())?;
//! println!("{} pages in {} groups; {} unique", out.grouped, out.groups, out.unique);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::HashMap;
use std::time::Instant;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{Config, Method, Relation, UnionFind};
use crate::engine::docview::stored::{self as cleaned, CleanedPage};
use crate::engine::error::Result;
use crate::engine::jobs::{JobContext, Tick, TypedJob};
use crate::engine::store::Workspace;

/// How pages are grouped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GroupParams {
    /// Join a contained page (not a hub) to its containers' group.
    pub contained: bool,
    /// Join the crawl's replicas to their original's group.
    pub replicas: bool,
    /// Let hub pages (link lists: archives, tag and author pages) join groups by text; they
    /// share their link titles with every other list of the same stories, which makes them
    /// alike without being reprints. Off: a hub joins only as a replica.
    pub hubs: bool,
}

impl Default for GroupParams {
    fn default() -> Self {
        GroupParams {
            contained: true,
            replicas: true,
            hubs: false,
        }
    }
}

/// What grouping found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupOutcome {
    pub method: String,
    /// Cleaned pages compared.
    pub docs: u64,
    /// Replicas of them the crawl recorded.
    pub replicas: u64,
    /// Pairs the method compared and passed.
    pub pairs: u64,
    /// The method's clusters (near and duplicate pairs closed).
    pub clusters: u64,
    /// Groups search folds (clusters with contained pages and replicas joined).
    pub groups: u64,
    /// Pages in a group.
    pub grouped: u64,
    /// Pages a search shows at most once each: `docs + replicas − grouped + groups`.
    pub unique: u64,
    pub contained: u64,
    pub seconds: f64,
}

/// Which group each cleaned page (and each replica) is in: `(page id, group, joined)`.
fn fold_groups(
    pages: &[CleanedPage],
    replicas: &[(i64, i64)],
    out: &super::Outcome,
    p: &GroupParams,
) -> (Vec<(i64, i64, &'static str)>, u64) {
    let n = pages.len();
    let by_page: HashMap<i64, usize> = pages
        .iter()
        .enumerate()
        .map(|(i, c)| (c.page_id, i))
        .collect();
    let reps: Vec<(i64, usize)> = replicas
        .iter()
        .filter(|_| p.replicas)
        .filter_map(|(r, of)| by_page.get(of).map(|&i| (*r, i)))
        .collect();
    let mut uf = UnionFind::new(n + reps.len());
    let mut joined: Vec<&'static str> = vec!["kept"; n + reps.len()];
    let hub = |i: usize| pages[i].page_type == "hub";
    for c in &out.clusters {
        let c: Vec<usize> = c.iter().copied().filter(|&m| p.hubs || !hub(m)).collect();
        if c.len() < 2 {
            continue;
        }
        for w in c.windows(2) {
            uf.union(w[0], w[1]);
        }
        for &m in &c {
            joined[m] = "near";
        }
    }
    let mut contained = 0;
    if p.contained {
        let mut containers: HashMap<usize, Vec<usize>> = HashMap::new();
        for pair in out
            .pairs
            .iter()
            .filter(|x| x.relation == Relation::Contains)
        {
            if !hub(pair.a) && !hub(pair.b) {
                containers.entry(pair.b).or_default().push(pair.a);
            }
        }
        let mut near = uf.clone();
        let mut attach = Vec::new();
        for (b, of) in containers {
            if joined[b] == "near" {
                continue;
            }
            let root = near.find(of[0]);
            if of.iter().all(|&a| near.find(a) == root) {
                attach.push((b, of[0]));
            }
        }
        for (b, a) in attach {
            uf.union(b, a);
            joined[b] = "contained";
            contained += 1;
        }
    }
    for (k, &(_, i)) in reps.iter().enumerate() {
        uf.union(n + k, i);
        joined[n + k] = "replica";
    }
    let page_of = |x: usize| {
        if x < n {
            pages[x].page_id
        } else {
            reps[x - n].0
        }
    };
    let mut rows = Vec::new();
    for g in uf.groups() {
        let grp = g.iter().map(|&x| page_of(x)).min().unwrap_or_default();
        for &x in &g {
            rows.push((page_of(x), grp, joined[x]));
        }
    }
    (rows, contained)
}

/// `(replica page id, original page id)` of every replica the crawl recorded.
fn replicas_of(ws: &Workspace) -> Result<Vec<(i64, i64)>> {
    let mut st = ws
        .conn()
        .prepare("SELECT id, replica_of FROM pages WHERE replica_of IS NOT NULL ORDER BY id")?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Group the workspace's cleaned pages (see the module doc) and keep the groups, replacing the
/// ones kept before; `job_id` is recorded on each row.
pub fn group_pages(
    ws: &Workspace,
    p: &GroupParams,
    job_id: Option<i64>,
    tick: &dyn Tick,
) -> Result<GroupOutcome> {
    let t0 = Instant::now();
    tick.tick(0.0, "reading the cleaned pages")?;
    let pages = cleaned::load(ws)?;
    let replicas = replicas_of(ws)?;
    let docs: Vec<super::Doc> = pages.iter().map(CleanedPage::doc).collect();
    let scaled = crate::engine::jobs::Scaled {
        tick,
        start: 0.05,
        width: 0.9,
    };
    let out = super::run(&docs, Method::Best, &Config::default(), &scaled)?;
    let (rows, contained) = fold_groups(&pages, &replicas, &out, p);
    tick.tick(0.96, "keeping the groups")?;
    let tx = ws.conn().unchecked_transaction()?;
    tx.execute("DELETE FROM page_groups", [])?;
    {
        let mut ins = tx.prepare(
            "INSERT INTO page_groups (page_id, grp, joined, job_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (page, grp, joined) in &rows {
            ins.execute(params![page, grp, joined, job_id])?;
        }
    }
    tx.commit()?;
    let groups = rows
        .iter()
        .map(|r| r.1)
        .collect::<std::collections::HashSet<_>>()
        .len() as u64;
    let included = pages.len() as u64 + rows.iter().filter(|r| r.2 == "replica").count() as u64;
    Ok(GroupOutcome {
        method: out.method.clone(),
        docs: pages.len() as u64,
        replicas: replicas.len() as u64,
        pairs: out.pairs.len() as u64,
        clusters: out.clusters.len() as u64,
        groups,
        grouped: rows.len() as u64,
        unique: included - rows.len() as u64 + groups,
        contained,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// A page in a kept group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub url: String,
    pub group: i64,
    /// near | contained | replica | kept.
    pub joined: String,
}

/// Every page in a kept group, by group then page.
pub fn load(ws: &Workspace) -> Result<Vec<Member>> {
    let mut st = ws.conn().prepare(
        "SELECT p.url, g.grp, g.joined FROM page_groups g JOIN pages p ON p.id = g.page_id
         ORDER BY g.grp, g.page_id",
    )?;
    let rows = st.query_map([], |r| {
        Ok(Member {
            url: r.get(0)?,
            group: r.get(1)?,
            joined: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// The `dedup-pages` job: group the cleaned pages and keep the groups (the pipeline's `dedup`
/// stage; the Dedup panel re-opens it).
pub(crate) struct GroupPagesJob {
    params: GroupParams,
}

impl TypedJob for GroupPagesJob {
    const KIND: &'static str = "dedup-pages";
    type Params = GroupParams;
    type Output = GroupOutcome;

    fn from_params(params: GroupParams) -> Result<Self> {
        Ok(GroupPagesJob { params })
    }

    fn params(&self) -> GroupParams {
        self.params.clone()
    }

    fn run_typed(&mut self, cx: &JobContext) -> Result<GroupOutcome> {
        let ws = Workspace::open_existing(cx.workspace_path())?;
        let out = group_pages(&ws, &self.params, cx.job_id(), cx)?;
        cx.counters(&out);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dedup::{Outcome, Pair};

    fn page(id: i64, ty: &str) -> CleanedPage {
        CleanedPage {
            page_id: id,
            snapshot_id: id,
            url: format!("http://a.localhost/{id}"),
            page_type: ty.into(),
            title: String::new(),
            body: String::new(),
            keywords: Vec::new(),
        }
    }

    fn contains(a: usize, b: usize) -> Pair {
        Pair {
            a,
            b,
            relation: Relation::Contains,
            score: 0.9,
        }
    }

    #[test]
    fn clusters_contained_pages_and_replicas_fold_but_hubs_do_not_chain() {
        // 0,1 near; 2 (a gallery) inside 0; 3 (a hub) inside 0; 4 inside 0 and inside 5,
        // which is in another group: ambiguous, left alone; page 60 replicates page 6.
        let pages: Vec<CleanedPage> = [
            (10, "topic"),
            (11, "topic"),
            (12, "picture"),
            (13, "hub"),
            (14, "topic"),
            (15, "topic"),
            (16, "topic"),
        ]
        .iter()
        .map(|&(id, ty)| page(id, ty))
        .collect();
        let out = Outcome {
            clusters: vec![vec![0, 1]],
            pairs: vec![
                contains(0, 2),
                contains(0, 3),
                contains(0, 4),
                contains(5, 4),
            ],
            ..Outcome::default()
        };
        let (rows, contained) =
            fold_groups(&pages, &[(60, 16), (61, 99)], &out, &GroupParams::default());
        let of = |id: i64| rows.iter().find(|r| r.0 == id).map(|r| (r.1, r.2));
        assert_eq!(of(10), Some((10, "near")));
        assert_eq!(of(11), Some((10, "near")));
        assert_eq!(of(12), Some((10, "contained")));
        assert_eq!(of(13), None, "a hub is not folded by containment");
        assert_eq!(
            of(14),
            None,
            "two containers in different groups: ambiguous"
        );
        assert_eq!(of(16), Some((16, "kept")));
        assert_eq!(of(60), Some((16, "replica")));
        assert_eq!(of(61), None, "the replica of a page not cleaned");
        assert_eq!(contained, 1);
        let (rows, _) = fold_groups(
            &pages,
            &[],
            &out,
            &GroupParams {
                contained: false,
                replicas: false,
                hubs: false,
            },
        );
        assert_eq!(rows.len(), 2);
        // Hubs near each other fold only when asked.
        let hubs: Vec<CleanedPage> = [(1, "hub"), (2, "hub")]
            .iter()
            .map(|&(id, ty)| page(id, ty))
            .collect();
        let near = Outcome {
            clusters: vec![vec![0, 1]],
            ..Outcome::default()
        };
        assert!(
            fold_groups(&hubs, &[], &near, &GroupParams::default())
                .0
                .is_empty()
        );
        let on = GroupParams {
            hubs: true,
            ..GroupParams::default()
        };
        assert_eq!(fold_groups(&hubs, &[], &near, &on).0.len(), 2);
    }
}
