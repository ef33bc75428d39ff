//! A compact directed graph for link analysis: dense `u32` node ids, forward and reverse
//! adjacency in CSR form (offsets + targets), and the readers that build it.
//!
//! The book's link analysis [L3599–L3647] works on the crawl's hyperlink graph: page `i`
//! links to page `j` (`l_ij = 1`, [L3620]). Three sources build one:
//!
//! - the common `n m [flag]` header + `id url` lines + `src dst` lines format (the hollins.edu
//!   graph in the `hollins` data set's `hollins.dat`, ids `1..=n`);
//! - a plain edge list, one `src dst` per line, `#` comments, ids any token (mapped to dense
//!   ids in order of first appearance);
//! - the workspace's crawl: `pages(id, url)` and `links(from_page, to_url)` rows already read
//!   from SQLite ([`Graph::from_crawl`]).
//!
//! **Duplicates and self-loops** (documented choice): `l_ij` is 0 or 1 [L3620], and networkx's
//! `DiGraph` (which built the reference vector) collapses repeated edges too, so duplicate
//! edges are merged and counted in [`GraphStats::duplicate_edges`]. Self-loops are *kept*, as
//! networkx keeps them (the book's sum excludes `i = j`; hollins has none, so both agree
//! there); they are counted in [`GraphStats::self_loops`].
//!
//! ```no_run
//! use tianwang::engine::rank::graph::Graph;
//! let dir = tianwang::engine::data::DataDir::resolve(None)?.require("hollins")?;
//! let g = Graph::read_file(&dir.join("hollins.dat"))?;
//! assert_eq!(g.node_count(), 6012);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// What was read, and what was merged on the way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphStats {
    /// Edge lines (or link rows) read.
    pub edge_lines: usize,
    /// Edges after merging duplicates.
    pub edges: usize,
    /// Repeated `src dst` pairs merged into one edge.
    pub duplicate_edges: usize,
    /// Edges `i → i` (kept).
    pub self_loops: usize,
    /// Nodes without out-links.
    pub dangling: usize,
    /// Links whose target is not a node (crawl links to pages never fetched; dropped).
    pub dropped_links: usize,
}

/// A directed graph in CSR form. Node `v` (dense, `0..n`) has out-neighbours
/// `out[out_off[v]..out_off[v+1]]` and in-neighbours `inn[in_off[v]..in_off[v+1]]`.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    ids: Vec<String>,
    urls: Vec<Option<String>>,
    out_off: Vec<usize>,
    out: Vec<u32>,
    in_off: Vec<usize>,
    inn: Vec<u32>,
    pub stats: GraphStats,
}

impl Graph {
    /// Builds the CSR arrays from node ids, optional URLs and dense edges (duplicates merged).
    pub fn from_edges(
        ids: Vec<String>,
        urls: Vec<Option<String>>,
        mut edges: Vec<(u32, u32)>,
        mut stats: GraphStats,
    ) -> Result<Graph> {
        let n = ids.len();
        if n > u32::MAX as usize {
            return Err(EngineError::Internal(format!("{n} nodes exceed u32 ids")));
        }
        if urls.len() != n {
            return Err(EngineError::Internal(
                "urls and ids differ in length".into(),
            ));
        }
        if let Some(&(s, d)) = edges
            .iter()
            .find(|&&(s, d)| s as usize >= n || d as usize >= n)
        {
            return Err(EngineError::Internal(format!(
                "edge {s}->{d} outside 0..{n}"
            )));
        }
        stats.edge_lines = stats.edge_lines.max(edges.len());
        edges.sort_unstable();
        let before = edges.len();
        edges.dedup();
        stats.duplicate_edges += before - edges.len();
        stats.edges = edges.len();
        stats.self_loops = edges.iter().filter(|(s, d)| s == d).count();

        let mut out_off = vec![0usize; n + 1];
        let mut in_off = vec![0usize; n + 1];
        for &(s, d) in &edges {
            out_off[s as usize + 1] += 1;
            in_off[d as usize + 1] += 1;
        }
        for v in 0..n {
            out_off[v + 1] += out_off[v];
            in_off[v + 1] += in_off[v];
        }
        let out: Vec<u32> = edges.iter().map(|&(_, d)| d).collect();
        let mut inn = vec![0u32; edges.len()];
        let mut fill = in_off.clone();
        for &(s, d) in &edges {
            let slot = &mut fill[d as usize];
            inn[*slot] = s;
            *slot += 1;
        }
        stats.dangling = (0..n).filter(|&v| out_off[v + 1] == out_off[v]).count();
        Ok(Graph {
            ids,
            urls,
            out_off,
            out,
            in_off,
            inn,
            stats,
        })
    }

    pub fn node_count(&self) -> usize {
        self.ids.len()
    }
    pub fn edge_count(&self) -> usize {
        self.out.len()
    }
    /// The graph's own id of dense node `v` (the `id` of the input file, a page id, …).
    pub fn id(&self, v: usize) -> &str {
        self.ids.get(v).map(String::as_str).unwrap_or("")
    }
    pub fn url(&self, v: usize) -> Option<&str> {
        self.urls.get(v).and_then(|u| u.as_deref())
    }
    /// Dense id of the node whose own id is `id` (linear scan; build a map for many lookups).
    pub fn find(&self, id: &str) -> Option<usize> {
        self.ids.iter().position(|x| x == id)
    }
    pub fn out_neighbors(&self, v: usize) -> &[u32] {
        &self.out[self.out_off[v]..self.out_off[v + 1]]
    }
    pub fn in_neighbors(&self, v: usize) -> &[u32] {
        &self.inn[self.in_off[v]..self.in_off[v + 1]]
    }
    pub(crate) fn out_degree(&self, v: usize) -> usize {
        self.out_off[v + 1] - self.out_off[v]
    }
    pub fn in_degree(&self, v: usize) -> usize {
        self.in_off[v + 1] - self.in_off[v]
    }

    /// Reads a graph file, choosing the format from its first lines: an `n m [flag]` header
    /// followed by `id url` lines is the header format, anything else an edge list.
    pub fn read_file(path: &Path) -> Result<Graph> {
        let text = crate::engine::text::read_utf8(path, "--graph")?;
        let name = path.display().to_string();
        if looks_like_header_format(&text) {
            parse_header_format(&text, &name)
        } else {
            parse_edge_list(&text, &name)
        }
    }

    /// The crawl's link graph from rows read out of a workspace: `pages` as `(id, url)` and
    /// `links` as `(from_page, to_url)` (schema: `links(from_page REFERENCES pages(id), to_url)`).
    /// Links to URLs that are not pages (never fetched) are dropped and counted; a `from_page`
    /// that is not a page is an internal inconsistency (foreign key) and also dropped.
    /// The crawl's link graph in a workspace: its pages and the links between them (links to
    /// pages never fetched are dropped and counted).
    pub fn from_workspace(ws: &crate::engine::store::Workspace) -> Result<Graph> {
        let c = ws.conn();
        let pages: Vec<(i64, String)> = c
            .prepare("SELECT id, url FROM pages ORDER BY id")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        let links: Vec<(i64, String)> = c
            .prepare("SELECT from_page, to_url FROM links ORDER BY from_page, to_url")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        Graph::from_crawl(&pages, &links)
    }

    pub(crate) fn from_crawl(pages: &[(i64, String)], links: &[(i64, String)]) -> Result<Graph> {
        let mut by_id: HashMap<i64, u32> = HashMap::with_capacity(pages.len());
        let mut by_url: HashMap<&str, u32> = HashMap::with_capacity(pages.len());
        let mut ids = Vec::with_capacity(pages.len());
        let mut urls = Vec::with_capacity(pages.len());
        for (i, (id, url)) in pages.iter().enumerate() {
            let v = u32::try_from(i).map_err(|_| EngineError::Internal("too many pages".into()))?;
            by_id.insert(*id, v);
            by_url.insert(url.as_str(), v);
            ids.push(id.to_string());
            urls.push(Some(url.clone()));
        }
        let mut stats = GraphStats {
            edge_lines: links.len(),
            ..GraphStats::default()
        };
        let mut edges = Vec::with_capacity(links.len());
        for (from, to) in links {
            match (by_id.get(from), by_url.get(to.as_str())) {
                (Some(&s), Some(&d)) => edges.push((s, d)),
                _ => stats.dropped_links += 1,
            }
        }
        Graph::from_edges(ids, urls, edges, stats)
    }
}

fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.trim();
        (!l.is_empty() && !l.starts_with('#')).then_some((i + 1, l))
    })
}

/// Header format: the first data line is 2 or 3 unsigned integers and the second data line's
/// second field is not an integer (a URL), or the header has 3 fields.
fn looks_like_header_format(text: &str) -> bool {
    let mut it = data_lines(text);
    let Some((_, first)) = it.next() else {
        return false;
    };
    let f: Vec<&str> = first.split_whitespace().collect();
    if !(2..=3).contains(&f.len()) || f.iter().any(|x| x.parse::<u64>().is_err()) {
        return false;
    }
    if f.len() == 3 {
        return true;
    }
    match it.next() {
        Some((_, second)) => second
            .split_whitespace()
            .nth(1)
            .is_some_and(|t| t.parse::<u64>().is_err()),
        None => false,
    }
}

fn parse_header_format(text: &str, name: &str) -> Result<Graph> {
    let mut lines = data_lines(text).peekable();
    let Some((hl, header)) = lines.next() else {
        return Err(EngineError::bad_line(name, 1, "error.empty_graph", &[]));
    };
    let f: Vec<&str> = header.split_whitespace().collect();
    let parse = |s: &str, key: &'static str| {
        s.parse::<usize>()
            .map_err(|_| EngineError::bad_line(name, hl, key, &[&s]))
    };
    let n = parse(
        f.first().copied().unwrap_or(""),
        "error.node_count_not_count",
    )?;
    let m = parse(
        f.get(1).copied().unwrap_or(""),
        "error.edge_count_not_count",
    )?;
    if n > u32::MAX as usize {
        return Err(EngineError::bad_line(name, hl, "error.too_many_nodes", &[]));
    }
    // The counts size allocations: check them against the bytes that must hold their lines
    // (`id url` and `src dst` take at least 4 bytes each) before anything is allocated.
    let room = text.len() / 4;
    if n > room || m > room {
        return Err(EngineError::bad_line(
            name,
            hl,
            "error.header_too_big",
            &[&n, &m, &text.len()],
        ));
    }
    let mut urls: Vec<Option<String>> = vec![None; n];
    let mut seen_ids = 0usize;
    let parse_id = |tok: &str, line: usize| -> Result<u32> {
        let id: usize = tok
            .parse()
            .map_err(|_| EngineError::bad_line(name, line, "error.node_id_not_integer", &[&tok]))?;
        if id == 0 || id > n {
            return Err(EngineError::bad_line(
                name,
                line,
                "error.node_id_range",
                &[&id, &n],
            ));
        }
        Ok((id - 1) as u32)
    };
    // `id url` lines: exactly n of them.
    while seen_ids < n {
        let Some((ln, l)) = lines.next() else {
            return Err(EngineError::bad_line(
                name,
                text.lines().count().max(1),
                "error.too_few_url_lines",
                &[&n, &seen_ids],
            ));
        };
        let mut t = l.split_whitespace();
        let id = parse_id(t.next().unwrap_or(""), ln)?;
        let url = t
            .next()
            .ok_or_else(|| EngineError::bad_line(name, ln, "error.no_url", &[]))?;
        if t.next().is_some() {
            return Err(EngineError::bad_line(
                name,
                ln,
                "error.url_extra_fields",
                &[],
            ));
        }
        let slot = &mut urls[id as usize];
        if slot.is_some() {
            return Err(EngineError::bad_line(
                name,
                ln,
                "error.node_listed_twice",
                &[&(id + 1)],
            ));
        }
        *slot = Some(url.to_string());
        seen_ids += 1;
    }
    let mut edges = Vec::with_capacity(m);
    for (ln, l) in lines {
        let mut t = l.split_whitespace();
        let (Some(s), Some(d), None) = (t.next(), t.next(), t.next()) else {
            return Err(EngineError::bad_line(name, ln, "error.edge_fields", &[]));
        };
        edges.push((parse_id(s, ln)?, parse_id(d, ln)?));
    }
    if edges.len() != m {
        return Err(EngineError::bad_line(
            name,
            hl,
            "error.edge_count_mismatch",
            &[&m, &edges.len()],
        ));
    }
    let ids = (1..=n).map(|i| i.to_string()).collect();
    let stats = GraphStats {
        edge_lines: edges.len(),
        ..GraphStats::default()
    };
    Graph::from_edges(ids, urls, edges, stats)
}

fn parse_edge_list(text: &str, name: &str) -> Result<Graph> {
    let mut map: HashMap<&str, u32> = HashMap::new();
    let mut ids: Vec<String> = Vec::new();
    let mut edges = Vec::new();
    for (ln, l) in data_lines(text) {
        let mut t = l.split_whitespace();
        let (Some(s), Some(d), None) = (t.next(), t.next(), t.next()) else {
            return Err(EngineError::bad_line(
                name,
                ln,
                "error.edge_list_fields",
                &[&l],
            ));
        };
        let sv = dense_id(&mut map, &mut ids, s, name, ln)?;
        let dv = dense_id(&mut map, &mut ids, d, name, ln)?;
        edges.push((sv, dv));
    }
    if ids.is_empty() {
        return Err(EngineError::bad_line(name, 1, "error.no_edges", &[]));
    }
    let urls = vec![None; ids.len()];
    let stats = GraphStats {
        edge_lines: edges.len(),
        ..GraphStats::default()
    };
    Graph::from_edges(ids, urls, edges, stats)
}

fn dense_id<'a>(
    map: &mut HashMap<&'a str, u32>,
    ids: &mut Vec<String>,
    tok: &'a str,
    name: &str,
    ln: usize,
) -> Result<u32> {
    if let Some(&v) = map.get(tok) {
        return Ok(v);
    }
    let v = u32::try_from(ids.len())
        .map_err(|_| EngineError::bad_line(name, ln, "error.too_many_nodes", &[]))?;
    ids.push(tok.to_string());
    map.insert(tok, v);
    Ok(v)
}

/// Parses graph text already in memory (same detection as [`Graph::read_file`]); `name` is
/// used in `name:line` errors.
pub fn parse_graph(text: &str, name: &str) -> Result<Graph> {
    if looks_like_header_format(text) {
        parse_header_format(text, name)
    } else {
        parse_edge_list(text, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_format_reads_urls_and_one_based_ids() {
        let g = parse_graph(
            "3 3 1\n1 http://a/\n2 http://b/ \n3 http://c/\n1 2\n2 3\n3 1\n",
            "t",
        )
        .unwrap();
        assert_eq!(g.node_count(), 3);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.id(0), "1");
        assert_eq!(g.url(1), Some("http://b/"));
        assert_eq!(g.out_neighbors(0), &[1]);
        assert_eq!(g.in_neighbors(0), &[2]);
    }

    #[test]
    fn edge_list_maps_strings_merges_duplicates_keeps_self_loops() {
        let g = parse_graph("# comment\na b\nb c\na b\nc c\n", "t").unwrap();
        assert_eq!(g.node_count(), 3);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.stats.duplicate_edges, 1);
        assert_eq!(g.stats.self_loops, 1);
        assert_eq!(g.stats.dangling, 0);
        assert_eq!(g.find("c"), Some(2));
        assert_eq!(g.out_degree(0), 1);
        assert_eq!(g.in_degree(2), 2);
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let e = parse_graph("2 1 1\n1 http://a/\n2 http://b/\n1 3\n", "g.dat").unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.dat:4: node id 3 out of range 1..=2 (ids are 1-based)"
        );
        assert!(e.is_user_error());
        let e = parse_graph("a b\nb\n", "e.txt").unwrap_err();
        assert!(e.to_string().starts_with("e.txt:2: "), "{e}");
        let e = parse_graph("2 2 1\n1 http://a/\n2 http://b/\n1 2\n", "g.dat").unwrap_err();
        assert!(e.to_string().contains("promises 2 edges"), "{e}");
        let e = parse_graph("2 1 1\n1 http://a/\nx http://b/\n1 2\n", "g.dat").unwrap_err();
        assert!(e.to_string().starts_with("g.dat:3: "), "{e}");
    }

    #[test]
    fn crawl_rows_drop_links_to_unfetched_pages() {
        let pages = vec![(10, "http://a/".to_string()), (11, "http://b/".to_string())];
        let links = vec![
            (10, "http://b/".to_string()),
            (11, "http://a/".to_string()),
            (11, "http://elsewhere/".to_string()),
        ];
        let g = Graph::from_crawl(&pages, &links).unwrap();
        assert_eq!(g.edge_count(), 2);
        assert_eq!(g.stats.dropped_links, 1);
        assert_eq!(g.id(1), "11");
    }

    #[test]
    fn a_workspace_crawl_graph_reads_back() {
        let d = tempfile::tempdir().unwrap();
        let ws =
            crate::engine::store::Workspace::open_or_create(&d.path().join("w.tianwang")).unwrap();
        ws.conn()
            .execute_batch(
                "INSERT INTO sites(host, first_seen) VALUES ('a.localhost', 'x');
                 INSERT INTO pages(url, site_id, first_seen) VALUES
                   ('http://a.localhost/', 1, 'x'), ('http://a.localhost/b', 1, 'x');
                 INSERT INTO links(from_page, to_url) VALUES
                   (1, 'http://a.localhost/b'), (2, 'http://a.localhost/'),
                   (2, 'http://elsewhere.localhost/never-fetched');",
            )
            .unwrap();
        let g = Graph::from_workspace(&ws).unwrap();
        assert_eq!(g.node_count(), 2);
        assert_eq!(
            g.edge_count(),
            2,
            "the link to a page never fetched is dropped"
        );
    }
}
