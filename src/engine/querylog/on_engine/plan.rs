//! The query-log statistics as one plan of SQL aggregates (the same text on DataFusion and
//! Spark), and the user sample's verdict shared with the native collector.

use std::path::Path;

use crate::engine::exec::plan::Plan;
use crate::engine::querylog::hash64;
use crate::engine::querylog::stats::{StatsConfig, selfsim_levels};

/// The position of a request among those kept, grouped by `g` (integer division written
/// so it means the same on both dialects).
fn group_of(g: usize) -> String {
    format!("CAST(FLOOR(CAST(pos AS DOUBLE) / {g}) AS BIGINT)")
}

/// The statistics plan over a `querylog` file (`users`: the user-sample side table when
/// `cfg.user_sample_pct` is set, with `keep_empty_user` the sample's verdict on records
/// without a user).
pub fn plan(log: &Path, users: Option<(&Path, bool)>, cfg: &StatsConfig) -> Plan {
    let mut filters: Vec<String> = Vec::new();
    if let Some(f) = cfg.time_from {
        filters.push(format!("(time_s IS NULL OR time_s >= {f})"));
    }
    if let Some(t) = cfg.time_to {
        filters.push(format!("(time_s IS NULL OR time_s <= {t})"));
    }
    if cfg.first_page_only {
        filters.push("(page IS NULL OR page <= 1)".into());
    }
    let mut p = Plan::new("querylog-stats").input("log", log);
    if let Some((u, keep_empty)) = users {
        p = p.input("users", u);
        filters.push(format!(
            "((user_hash IS NULL AND {keep_empty}) OR user_hash IN (SELECT user_hash FROM users))"
        ));
    }
    let cols = "seq, time_s, user_hash, norm, page, click_rank, url_hash, result_page";
    // Without filters the kept rows are the log itself, streamed by every output; with
    // filters their numbering is one global window, computed once and kept.
    p = if filters.is_empty() {
        p.view("kept", format!("SELECT {cols}, seq AS pos FROM log"))
    } else {
        p.table(
            "kept",
            format!(
                "SELECT {cols}, ROW_NUMBER() OVER (ORDER BY seq) - 1 AS pos FROM log WHERE {}",
                filters.join(" AND ")
            ),
        )
    };
    let g = cfg.group_size;
    let levels: Vec<String> = selfsim_levels(cfg.selfsim_group)
        .into_iter()
        .map(|l| {
            format!(
                "SELECT {l} AS lvl, grp, COUNT(DISTINCT qid) AS d FROM \
                 (SELECT {} AS grp, qid FROM kq) x GROUP BY grp",
                group_of(l)
            )
        })
        .collect();
    p.table(
            "queries",
            "SELECT norm, first_pos, n, ROW_NUMBER() OVER (ORDER BY first_pos) - 1 AS qid, \
             ROW_NUMBER() OVER (ORDER BY n DESC, first_pos) AS qrank \
             FROM (SELECT norm, MIN(pos) AS first_pos, COUNT(*) AS n FROM kept GROUP BY norm) q0",
        )
        .view(
            "kq",
            format!(
                "SELECT k.pos, k.time_s, k.user_hash, q.qid, q.qrank, k.page, k.click_rank, k.url_hash, \
                 k.result_page, {} AS grp FROM kept k JOIN queries q ON k.norm = q.norm",
                group_of(g).replace("pos", "k.pos")
            ),
        )
        .output("queries", "SELECT qid, norm, n FROM queries")
        .output("total", "SELECT COUNT(*) AS records FROM log")
        .output(
            "summary",
            "SELECT COUNT(*) AS requests, COUNT(DISTINCT user_hash) AS n_users, \
             COALESCE(MAX(CASE WHEN page IS NOT NULL THEN 1 ELSE 0 END), 0) AS page_field, \
             COALESCE(SUM(CASE WHEN time_s IS NOT NULL THEN 1 ELSE 0 END), 0) AS timed FROM kq",
        )
        .view(
            "tl",
            "SELECT time_s, LAG(time_s) OVER (PARTITION BY user_hash ORDER BY pos) AS prev \
             FROM kq WHERE user_hash IS NOT NULL AND time_s IS NOT NULL",
        )
        .output(
            "breaks",
            format!(
                "SELECT COUNT(*) AS breaks FROM tl WHERE prev IS NOT NULL AND ABS(time_s - prev) > {}",
                cfg.session_gap_s
            ),
        )
        .output(
            "groups",
            "SELECT grp, qid, COUNT(*) AS n FROM kq GROUP BY grp, qid",
        )
        .output("levels", levels.join(" UNION ALL "))
        .output(
            "pages",
            "SELECT result_page AS v, COUNT(*) AS n FROM kq WHERE result_page > 0 GROUP BY result_page",
        )
        .view(
            "pp",
            "SELECT user_hash, qid, COUNT(*) AS np, MAX(result_page) AS mp FROM \
             (SELECT user_hash, qid, result_page FROM kq WHERE result_page > 0 \
              GROUP BY user_hash, qid, result_page) up GROUP BY user_hash, qid",
        )
        .output(
            "page_pairs",
            "SELECT COUNT(*) AS pairs, COALESCE(SUM(np), 0) AS pages, \
             COALESCE(SUM(CASE WHEN np = 1 AND mp = 1 THEN 1 ELSE 0 END), 0) AS only_first FROM pp",
        )
        .output(
            "ranks",
            "SELECT click_rank AS v, COUNT(*) AS n FROM kq WHERE click_rank > 0 GROUP BY click_rank",
        )
        .table(
            "uc",
            "SELECT url_hash, COUNT(*) AS g FROM kq WHERE url_hash IS NOT NULL GROUP BY url_hash",
        )
        .output(
            "urls",
            "SELECT g AS n, COUNT(*) AS urls FROM uc GROUP BY g",
        )
        .output(
            "cosine",
            format!(
                "SELECT k.qid, COUNT(*) AS w, MIN(u.g) AS g FROM kq k \
                 JOIN uc u ON k.url_hash = u.url_hash WHERE k.qrank <= {} \
                 GROUP BY k.qid, k.url_hash",
                cfg.cosine_top
            ),
        )
        .output(
            "hours",
            "SELECT h, COUNT(*) AS n FROM (SELECT CAST(FLOOR(CAST(((time_s % 86400) + 86400) % 86400 \
             AS DOUBLE) / 3600) AS BIGINT) AS h FROM kq WHERE time_s IS NOT NULL) t GROUP BY h",
        )
}

/// The user sample's verdict on a user hash (the native collector's rule).
pub(super) fn sampled(h: Option<u64>, cfg: &StatsConfig, pct: f64) -> bool {
    let h = h.unwrap_or(0) ^ cfg.user_sample_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = hash64(&h.to_string());
    ((h % 1_000_000) as f64) < pct * 10_000.0
}
