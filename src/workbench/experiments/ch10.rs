//! Chapter 10's link analysis on a real web graph (hollins.edu, 6,012 pages): PageRank and
//! HITS [L3620–L3760]. The book gives no numbers for a graph of its own, so each row is ours
//! beside networkx 3.6.1's (the `references` set); `ok` says ours agrees with it.
//!
//! ```no_run
//! use tianwang::workbench::experiments::{Cache, find, run_one};
//! let data = tianwang::engine::data::DataDir::resolve(None)?;
//! let r = run_one(find("pagerank-hollins").unwrap(), &data, &Cache::default(), &());
//! println!("{:?}", r.rows);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use serde_json::Value;

use super::{Ctx, Experiment, Row};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::rank::graph::Graph;
use crate::engine::rank::pagerank::{PageRankConfig, pagerank};

pub(super) static ALL: &[Experiment] = &[
    Experiment {
        id: "pagerank-hollins",
        title: "PageRank on the hollins.edu graph against networkx",
        chapter: 10,
        book_ref: "[L3620]",
        panel: "search",
        needs: &["hollins", "references"],
        run: pagerank_hollins,
    },
    Experiment {
        id: "hits-hollins",
        title: "HITS on the hollins.edu graph: the top authorities and hubs against networkx",
        chapter: 10,
        book_ref: "[L3624]",
        panel: "search",
        needs: &["hollins", "references"],
        run: hits_hollins,
    },
];

/// The hollins graph and networkx's numbers for it (read once per batch).
fn hollins(cx: &Ctx<'_>) -> Result<std::sync::Arc<(Graph, Value)>> {
    let graph = cx.set("hollins")?.join("hollins.dat");
    let refs = cx
        .set("references")?
        .join("references/hollins_reference.json");
    cx.cache.get("hollins", || {
        let g = Graph::read_file(&graph)?;
        let text = std::fs::read_to_string(&refs).map_err(|e| EngineError::Io {
            path: refs.clone(),
            source: e,
        })?;
        let want: Value = serde_json::from_str(&text)
            .map_err(|e| EngineError::corrupt(&refs, Flaw::with_detail("flaw.not_json", &[], e)))?;
        Ok((g, want))
    })
}

/// HITS [L3624–L3631] to convergence, the five strongest authorities and hubs beside networkx
/// 3.6.1's (`references`, scores normalised to sum 1). The book gives no numbers for a graph;
/// `ok`: the same page at each rank and its score within 1e-7 of networkx's.
fn hits_hollins(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    use crate::engine::rank::hits::{HitsConfig, hits};
    let h = hollins(cx)?;
    let (g, want) = (&h.0, &h.1);
    let r = hits(g, &HitsConfig::default(), cx.tick, &mut ())?;
    let note = "networkx 3.6.1 hits (the references set)";
    let mut rows = vec![Row::ours("iterations to converge", r.iterations as f64, "")];
    for (key, what, scores) in [
        ("hits_top10_authority", "authority", &r.authority),
        ("hits_top10_hub", "hub", &r.hub),
    ] {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let top = want[key].as_array().cloned().unwrap_or_default();
        for (i, t) in top.iter().take(5).enumerate() {
            let (ref_id, ref_score) = (t[0].as_i64(), t[1].as_f64().unwrap_or(f64::NAN));
            let v = order.get(i).copied().unwrap_or(0);
            let ours = scores.get(v).copied().unwrap_or(f64::NAN);
            let same = ref_id.map(|x| x.to_string()).as_deref() == Some(g.id(v))
                && (ours - ref_score).abs() < 1e-7;
            rows.push(Row::shape(
                format!("{what} #{} {}", i + 1, g.url(v).unwrap_or("?")),
                ours,
                Value::Null,
                "",
                same,
                note,
            ));
        }
    }
    Ok(rows)
}

fn pagerank_hollins(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    let h = hollins(cx)?;
    let (g, want) = (&h.0, &h.1);
    let r = pagerank(g, &PageRankConfig::default(), cx.tick, &mut ())?;
    let mut order: Vec<usize> = (0..r.scores.len()).collect();
    order.sort_by(|&a, &b| r.scores[b].total_cmp(&r.scores[a]));
    let note = "networkx 3.6.1, alpha 0.85 (the references set)";
    let mut rows = vec![Row::shape(
        "pages with no out-links",
        r.dangling_nodes as f64,
        Value::Null,
        "pages",
        want["dangling"].as_u64() == Some(r.dangling_nodes as u64),
        note,
    )];
    let top = want["pagerank_alpha0.85_top15"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (i, t) in top.iter().take(5).enumerate() {
        let (ref_score, ref_url) = (t[1].as_f64().unwrap_or(f64::NAN), t[2].as_str());
        let v = order.get(i).copied().unwrap_or(0);
        let ours = r.scores.get(v).copied().unwrap_or(f64::NAN) / r.sum.max(f64::MIN_POSITIVE);
        let same = g.url(v) == ref_url && (ours - ref_score).abs() < 1e-6;
        rows.push(Row::shape(
            format!("PageRank #{} {}", i + 1, g.url(v).unwrap_or("?")),
            ours,
            Value::Null,
            "",
            same,
            note,
        ));
    }
    Ok(rows)
}

/// Table 10-2's tag weights applied to HTML [L3743–L3768]: the book's example (`hello` in
/// `<big><b>…</b></big>` weighs W₀ + 4 + 4) and one word under each of the table's heading and
/// emphasis tags, weighed by the engine's page walk.
pub(super) static TAGS: &[Experiment] = &[Experiment {
    id: "table-10-2",
    title: "Table 10-2: term weights from HTML tags",
    chapter: 10,
    book_ref: "[L3743]",
    panel: "search",
    needs: &[],
    run: table_10_2,
}];

fn table_10_2(_: &Ctx<'_>) -> Result<Vec<Row>> {
    use crate::engine::index::tagweight::{TagWeights, occurrence_weight, weighted_runs};
    let w = TagWeights::default();
    let weight_of = |html: &str| {
        weighted_runs(html, &w)
            .first()
            .map_or(f64::NAN, |r| f64::from(occurrence_weight(r.weight, w.w0)))
    };
    let mut rows = vec![
        Row::near(
            "WBT of hello in <big><b>hello</b></big>",
            weight_of("<p><big><b>hello</b></big></p>"),
            9.0,
            "",
            1e-9,
        )
        .with_note("[L3768]: W0 + 4 + 4, W0 = 1"),
    ];
    for (tag, book) in [("title", 40.0), ("h1", 12.0), ("h2", 8.0), ("strong", 4.0)] {
        let html = if tag == "title" {
            "<html><head><title>word</title></head><body></body></html>".to_string()
        } else {
            format!("<p><{tag}>word</{tag}></p>")
        };
        rows.push(Row::near(
            format!("<{}> weight", tag.to_uppercase()),
            weight_of(&html) - f64::from(w.w0),
            book,
            "",
            1e-9,
        ));
    }
    Ok(rows)
}

/// Table 10-3's position factors [L3841–L3854] as the user-feedback weight applies them
/// (`index::clicks`, eq. 10-1): one click at rank 1 and one at the page's first rank, the
/// factor read back from the two normalised weights; and c(k) = P(1)/P(k) derived from the
/// result-page shares the query-log lab measures on its generated log (the book's rule for
/// pages 1–9, [L3306]).
pub(super) static CLICKS: &[Experiment] = &[Experiment {
    id: "table-10-3",
    title: "Table 10-3: click position factors",
    chapter: 10,
    book_ref: "[L3841]",
    panel: "search",
    needs: &[],
    run: table_10_3,
}];

/// The book's c(pos) for result pages 1–10 [L3841–L3854].
const BOOK_C: [f64; 10] = [
    1.00, 3.88, 6.39, 9.46, 12.78, 16.31, 19.71, 23.65, 27.82, 40.00,
];

fn table_10_3(cx: &Ctx<'_>) -> Result<Vec<Row>> {
    use crate::engine::index::clicks::Clicks;
    let mut c = Clicks::default();
    for page in 2..=10usize {
        let q = format!("q{page}");
        c.add(&q, 0, 1, 0);
        c.add(&q, 1, (page - 1) * 10 + 1, 0);
    }
    c.finish(0.8);
    let mut rows = Vec::new();
    for page in 2..=10usize {
        let wu = c.for_query(&format!("q{page}")).unwrap_or_default();
        let low = wu.get(&0).copied().unwrap_or(f64::NAN);
        rows.push(Row::near(
            format!("c(pos) applied to a click on page {page}"),
            1.0 / low,
            BOOK_C[page - 1],
            "",
            0.005,
        ));
    }
    let shares = super::ch9_log::page_shares(cx)?;
    let derived: Vec<f64> = shares
        .iter()
        .skip(1)
        .map(|p| shares.first().copied().unwrap_or(f64::NAN) / p)
        .collect();
    let rising = derived.windows(2).all(|w| w[0] < w[1]) && derived.iter().all(|&d| d > 1.0);
    for (i, d) in derived.iter().enumerate().take(4) {
        rows.push(Row::shape(
            format!("P(1)/P({}) from the generated log", i + 2),
            *d,
            BOOK_C[i + 1],
            "",
            rising,
            "c(k) = P(1)/P(k) [L3306]: above 1 and rising with the page",
        ));
    }
    Ok(rows)
}
