//! Hand-counted logs in every format and encoding, malformed lines of every kind, the
//! statistics' definitions on small sequences, the generator against its targets.

use super::fit::ZipfRange;
use super::generate::{GenConfig, generate, query_text, write_log};
use super::read::{ReadConfig, ReadSummary, read_bytes};
use super::stats::{Collector, Stats, StatsConfig};
use super::stats_more::{decay, deviation, distinct_per_group};
use super::*;

/// 12 lines, hand-counted below: 9 records, 3 bad lines (9, 10, 11).
pub(crate) const SOGOU: &str = "00:00:01\tu1\t[天网]\t1 1\ta.cn/1
00:00:05\tu1\t[天网]\t2 2\ta.cn/2
00:00:09\tu2\t[北大]\t1 1\tb.cn/1
00:01:00\tu3\t[天网]\t11 1\ta.cn/11
00:02:00\tu2\t[QQ]\t3 1\tq.cn
00:40:00\tu2\t[qq ]\t1 2\tq.cn
00:41:00\tu4\t[搜索 引擎]\t21\t1\ts.cn
00:42:00\tu4\t[搜索  引擎]\t5 1\ts.cn
bad\tline
00:43:00\tu5\t[天网]\tx 1\ta.cn
25:00:00\tu5\t[天网]\t1 1\ta.cn
00:44:00\tu5\t[ＱＱ]\t1 1\tq.cn
";

fn run(bytes: &[u8], cfg: &ReadConfig, sc: StatsConfig) -> (ReadSummary, Stats) {
    let mut c = Collector::new(sc);
    let s = read_bytes("t.log", bytes, cfg, &(), &mut |r| c.push(r)).unwrap();
    (s, c.finish(&()).unwrap())
}

fn check_sogou(s: &ReadSummary, st: &Stats) {
    assert_eq!((s.lines, s.records, s.bad.count), (12, 9, 3));
    let lines: Vec<u64> = s.bad.first.iter().map(|b| b.line).collect();
    assert_eq!(lines, vec![9, 10, 11]);
    assert!(
        s.bad.first[0].reason.english.contains("missing fields"),
        "{:?}",
        s.bad
    );
    assert!(
        s.bad.first[1].reason.english.contains("bad rank"),
        "{:?}",
        s.bad
    );
    assert!(
        s.bad.first[2].reason.english.contains("bad time"),
        "{:?}",
        s.bad
    );
    // Each with its key for the UI's string tables.
    let keys: Vec<&str> = s.bad.first.iter().map(|b| b.reason.key).collect();
    assert_eq!(
        keys,
        [
            "error.log_sogouq_fields",
            "error.log_rank",
            "error.log_time_range"
        ]
    );
    assert_eq!(s.bad.first[2].reason.args, ["25:00:00", "25", "0", "23"]);
    let v = &st.volume;
    assert_eq!(
        (
            v.requests,
            v.distinct_queries,
            v.distinct_users,
            v.sessions,
            v.queries_seen_once
        ),
        (9, 4, 5, 6, 1)
    );
    assert!((v.repeat_fraction - 5.0 / 9.0).abs() < 1e-12);
    let top: Vec<(&str, u64)> = st
        .top_queries
        .iter()
        .map(|q| (q.query.as_str(), q.count))
        .collect();
    assert_eq!(
        top,
        vec![("天网", 3), ("qq", 3), ("搜索 引擎", 2), ("北大", 1)]
    );
    assert_eq!(st.pages.by_page, vec![(1, 7), (2, 1), (3, 1)]);
    assert_eq!(
        st.clicks.by_rank,
        vec![(1, 4), (2, 1), (3, 1), (5, 1), (11, 1), (21, 1)]
    );
    let cov = &st.coverage.points;
    assert_eq!(cov.len(), 100);
    assert_eq!(cov[19].volume_fraction, 0.0); // ⌊4 × 0.20⌋ = 0 queries
    assert!((cov[24].volume_fraction - 3.0 / 9.0).abs() < 1e-12);
    assert!((cov[49].volume_fraction - 6.0 / 9.0).abs() < 1e-12);
    assert!((cov[74].volume_fraction - 8.0 / 9.0).abs() < 1e-12);
    assert!((cov[99].volume_fraction - 1.0).abs() < 1e-12);
    // Zipf: OLS over (log r, log c) for counts 3, 3, 2, 1.
    let pts: Vec<(f64, f64)> = [3.0f64, 3.0, 2.0, 1.0]
        .iter()
        .enumerate()
        .map(|(i, c)| (((i + 1) as f64).log10(), c.log10()))
        .collect();
    let (slope, icept, r2) = fit::ols(&pts).unwrap();
    let z = st.rank_frequency.zipf.unwrap();
    assert!((z.slope - slope).abs() < 1e-12 && (z.intercept - icept).abs() < 1e-12);
    assert!((z.r2 - r2).abs() < 1e-9);
    let u = st.urls.as_ref().unwrap();
    assert_eq!((u.clicks, u.distinct, u.clicked_once), (9, 6, 4));
    assert_eq!(st.time_of_day.as_ref().unwrap()[0], 9);
    // Lengths: 天网 2 chars ×3, 北大 2 ×1, qq 2 ×3, 搜索 引擎 5 ×2.
    assert_eq!(st.lengths.chars, vec![(2, 7), (5, 2)]);
}

#[test]
fn sogou_utf8_hand_counted() {
    let (s, st) = run(
        SOGOU.as_bytes(),
        &ReadConfig::new(Format::Sogouq),
        StatsConfig::default(),
    );
    assert_eq!(s.encoding, "utf-8");
    check_sogou(&s, &st);
}

#[test]
fn sogou_gb18030_hand_counted() {
    let (gb, _, _) = encoding_rs::GB18030.encode(SOGOU);
    assert!(std::str::from_utf8(&gb).is_err());
    let (s, st) = run(
        &gb,
        &ReadConfig::new(Format::Sogouq),
        StatsConfig::default(),
    );
    assert_eq!(s.encoding, "gb18030");
    check_sogou(&s, &st);
}

#[test]
fn raw_queries_without_normalisation() {
    let sc = StatsConfig {
        normalise: Normalise::RAW,
        ..StatsConfig::default()
    };
    let (_, st) = run(SOGOU.as_bytes(), &ReadConfig::new(Format::Sogouq), sc);
    // QQ, qq␠, ＱＱ, "搜索 引擎" and "搜索  引擎" all differ now.
    assert_eq!(st.volume.distinct_queries, 7);
}

#[test]
fn normalisation_steps() {
    let n = Normalise::default();
    assert_eq!(n.apply("  Hello   World "), "hello world");
    assert_eq!(n.apply("ＭＰ３\u{3000}下载"), "mp3 下载");
    assert_eq!(n.apply("天网"), "天网");
    assert!(matches!(n.apply("abc"), std::borrow::Cow::Borrowed(_)));
    let only_trim = Normalise::parse("trim").unwrap();
    assert_eq!(only_trim.apply(" A  B "), "A  B");
    assert!(Normalise::parse("bogus").is_err());
}

#[test]
fn strict_refuses_at_the_first_bad_line() {
    let mut cfg = ReadConfig::new(Format::Sogouq);
    cfg.strict = true;
    let mut n = 0;
    let e = read_bytes("t.log", SOGOU.as_bytes(), &cfg, &(), &mut |_| {
        n += 1;
        Ok(())
    })
    .unwrap_err();
    assert!(e.is_user_error());
    assert!(e.to_string().starts_with("t.log:9: missing fields"), "{e}");
    assert!(
        e.to_string().ends_with(" (--strict: nothing was read)"),
        "{e}"
    );
    // The UI says it by its key, the location first.
    let code = e.code();
    assert_eq!(code.key, "error.log_sogouq_fields");
    assert_eq!(code.args, ["t.log:9", "2"]);
}

#[test]
fn malformed_inputs_name_file_and_line() {
    let cfg = ReadConfig::new(Format::Sogouq);
    let e = read_bytes("empty.log", b"", &cfg, &(), &mut |_| Ok(())).unwrap_err();
    assert_eq!(e.to_string(), "empty.log:1: empty file: no log records");
    let e = read_bytes("junk.log", b"a\nb\n", &cfg, &(), &mut |_| Ok(())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("junk.log:1: no valid sogouq record"),
        "{e}"
    );
    // A GB18030 line inside a UTF-8 file.
    let (gb, _, _) = encoding_rs::GB18030.encode("00:00:02\tu\t[老歌]\t1 1\tx.cn\n");
    let mut bytes = SOGOU.as_bytes().to_vec();
    bytes.extend_from_slice(&gb);
    let mut n = 0;
    let s = read_bytes("mixed.log", &bytes, &cfg, &(), &mut |_| {
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!((s.lines, n, s.bad.count), (13, 9, 4));
    let last = s.bad.first.last().unwrap();
    assert_eq!(last.line, 13);
    assert!(last.reason.english.contains("not valid UTF-8"), "{last:?}");
    assert_eq!(last.reason.key, "error.log_not_utf8");
    // Every kind of bad field.
    for (line, want, key) in [
        ("00:00:01\tu\t[q]\t0 1\tx", "bad rank `0`", "error.log_rank"),
        (
            "00:00:01\tu\t[q]\t3\tx",
            "bad rank/order",
            "error.log_rank_order",
        ),
        (
            "00:00:01\tu\t[q]\t3 z\tx",
            "bad click order",
            "error.log_order",
        ),
        (
            "00:61:01\tu\t[q]\t3 1\tx",
            "bad time",
            "error.log_time_range",
        ),
        ("\t\t", "empty line", "error.log_empty_line"),
        (
            "00:00:01\tu\t[q]\tx",
            "missing fields",
            "error.log_sogouq_fields",
        ),
    ] {
        let mut fields = Vec::new();
        let e = read::parse_line(line, &cfg, 1, &mut fields)
            .unwrap_err()
            .reason();
        assert!(e.english.contains(want), "{line:?}: {e:?}");
        assert_eq!(e.key, key, "{line:?}");
    }
}

#[test]
fn sogou_variants_full_date_and_no_brackets() {
    let log = "20111230000005\t57375476989eea12893c0c3811607bcf\t奇艺高清\t1\t1\thttp://www.qiyi.com/\r\n\
               2008-06-01 00:00:09\tu\t[a\tb]\t2 1\tx.cn\n";
    let cfg = ReadConfig::new(Format::Sogouq);
    let mut got = Vec::new();
    let s = read_bytes("v.log", log.as_bytes(), &cfg, &(), &mut |r| {
        got.push((r.query.to_string(), r.rank, r.order, r.time, r.dated));
        Ok(())
    })
    .unwrap();
    assert_eq!(s.bad.count, 0, "{:?}", s.bad);
    let d2011 = read::days_from_civil(2011, 12, 30) * 86_400 + 5;
    assert_eq!(
        got[0],
        ("奇艺高清".into(), Some(1), Some(1), Some(d2011), true)
    );
    assert_eq!(got[1].0, "a\tb");
}

const TW_QUERY: &str = "Fri Mar 21 00:00:02 2003\t218.24.100.77\tDatabase\t老歌\t1
Fri Mar 21 00:00:05 2003\t218.24.100.77\tCache\t老歌\t2
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\t1
Fri Mar 21 00:01:00 2003 202.206.102.169 Database 虫儿 飞 1
Fri Mar 21 00:01:00 2003\t202.206.102.169\tDatabase\t虫儿飞\tzero
";

#[test]
fn tianwang_query_log_hand_counted() {
    assert_eq!(read::days_from_civil(2003, 3, 21), 12_132);
    let cfg = ReadConfig::new(Format::TianwangQuery);
    let (s, st) = run(TW_QUERY.as_bytes(), &cfg, StatsConfig::default());
    assert_eq!((s.lines, s.records, s.bad.count), (5, 4, 1));
    assert!(
        s.bad.first[0].reason.english.contains("bad page"),
        "{:?}",
        s.bad
    );
    assert_eq!(st.volume.distinct_queries, 3); // 老歌, 虫儿飞, 虫儿 飞
    assert_eq!(st.volume.distinct_users, 2);
    assert_eq!(st.pages.by_page, vec![(1, 3), (2, 1)]);
    assert!((st.pages.pages_per_query.unwrap() - 4.0 / 3.0).abs() < 1e-12);
    assert!(st.urls.is_none() && st.clicks.clicks == 0);
    // Page turns left out on request.
    let sc = StatsConfig {
        first_page_only: true,
        ..StatsConfig::default()
    };
    let (_, st) = run(TW_QUERY.as_bytes(), &cfg, sc);
    assert_eq!((st.volume.requests, st.volume.filtered_out), (3, 1));
}

#[test]
fn tianwang_click_log_and_tsv() {
    let log = "Fri Mar 21 00:00:02 2003\t202.206.102.169\t虫儿飞\thttp://sports.163.com/tm/000828/000828_64264.html\t16\n\
               Wed-Apr-14-16:09:06-2004 10.0.0.1 天网 搜索 http://e.pku.edu.cn/ 3\n";
    let (s, st) = run(
        log.as_bytes(),
        &ReadConfig::new(Format::TianwangClick),
        StatsConfig::default(),
    );
    assert_eq!(s.bad.count, 0, "{:?}", s.bad);
    assert_eq!(st.pages.by_page, vec![(1, 1), (2, 1)]);
    assert_eq!(st.top_queries[1].query, "天网 搜索");
    let mut cfg = ReadConfig::new(Format::Tsv);
    cfg.columns = Some(TsvColumns::parse("user,skip,query,rank").unwrap());
    let (s, st) = run(
        b"u1\tx\tfoo\t3\nu2\tx\tfoo\t13\nu3\tx\n",
        &cfg,
        StatsConfig::default(),
    );
    assert_eq!((s.records, s.bad.count), (2, 1));
    assert_eq!(st.pages.by_page, vec![(1, 1), (2, 1)]);
    assert!(TsvColumns::parse("user,rank").is_err());
    assert!(ReadConfig::new(Format::Tsv).validate().is_err());
}

#[test]
fn decay_and_deviation_by_hand() {
    let q = [0, 1, 0, 2, 0, 3, 3, 4, 5, 5, 5, 5];
    let d = decay(&q, 6, 4, 1);
    assert_eq!(d.y, vec![4, 1, 0]);
    assert_eq!(d.first_zero, Some(3));
    let s = deviation(&q, 4);
    assert_eq!(s.s.len(), 2);
    assert!((s.s[0] - 0.5).abs() < 1e-12, "{:?}", s.s);
    assert!((s.s[1] - 1.375).abs() < 1e-12, "{:?}", s.s);
    assert_eq!(distinct_per_group(&q, 6, 4), vec![3, 3, 1]);
}

#[test]
fn coverage_floor_and_book_fit() {
    let pts = stats::coverage_points(&[5, 3, 1, 1], 10);
    assert_eq!(pts[24].1, 0.5); // ⌊4 × 0.25⌋ = 1
    assert_eq!(pts[99].1, 1.0);
    assert!(book::coverage_fit(0.03).is_none());
    assert!((book::coverage_fit(0.2).unwrap() - 0.783).abs() < 1e-3);
}

#[test]
fn generated_query_texts_are_distinct() {
    let mut seen = std::collections::HashSet::new();
    for id in 1..=30_000u64 {
        assert!(seen.insert(query_text(id)), "{id}");
    }
    assert_eq!(query_text(1), "天网");
}

#[test]
fn generator_is_deterministic_and_reads_back_in_every_format() {
    for (format, enc) in [
        (Format::Sogouq, "gb18030"),
        (Format::TianwangQuery, "utf-8"),
        (Format::TianwangClick, "utf-8"),
    ] {
        let cfg = GenConfig {
            lines: 3000,
            seed: 9,
            format,
            encoding: enc.into(),
            ..GenConfig::default()
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        write_log(&cfg, &mut a, std::path::Path::new("a"), &()).unwrap();
        write_log(&cfg, &mut b, std::path::Path::new("b"), &()).unwrap();
        assert_eq!(a, b);
        let (s, st) = run(&a, &ReadConfig::new(format), StatsConfig::default());
        assert_eq!(
            (s.records, s.bad.count),
            (3000, 0),
            "{format:?} {:?}",
            s.bad
        );
        assert_eq!(s.encoding, enc);
        assert_eq!(st.volume.requests, 3000);
    }
}

/// Measured back by this lab, the generator's statistics land near its targets.
#[test]
fn generator_hits_its_targets() {
    let cfg = GenConfig {
        lines: 1_000_000,
        seed: 7,
        ..GenConfig::default()
    };
    let mut c = Collector::new(StatsConfig {
        words: false,
        zipf: ZipfRange {
            min_rank: 1,
            max_rank: Some(100),
            min_count: 1,
        },
        ..StatsConfig::default()
    });
    generate(&cfg, &(), &mut |g| {
        let q = query_text(g.query);
        let user = g.user.to_string();
        c.push(&Record {
            line: 0,
            time: Some(g.time as i64),
            dated: false,
            user: &user,
            query: &q,
            page: None,
            rank: Some(g.rank),
            order: Some(g.order),
            url: None,
            cache: None,
        })
    })
    .unwrap();
    let st = c.finish(&()).unwrap();
    let ratio = st.volume.distinct_queries as f64 / st.volume.requests as f64;
    eprintln!(
        "ratio {ratio} zipf {:?} hurst {:?} vt {:?} pages {:?}",
        st.rank_frequency.zipf, st.selfsim.hurst.rs, st.selfsim.variance_time_h, st.pages.share_pct
    );
    assert!(
        (ratio - cfg.distinct_ratio).abs() < 0.1 * cfg.distinct_ratio,
        "{ratio}"
    );
    let z = st.rank_frequency.zipf.unwrap();
    assert!((z.slope + cfg.zipf).abs() < 0.1, "{z:?}");
    let h = st.selfsim.hurst.rs.unwrap();
    assert!((h - cfg.hurst).abs() < 0.1, "{h}");
    for (got, want) in st.pages.share_pct.iter().zip(&cfg.page_shares_pct) {
        assert!((got - want).abs() < 1.0, "{:?}", st.pages.share_pct);
    }
}

#[test]
fn parallel_read_equals_one_thread() {
    let dir = std::env::temp_dir().join(format!("tw-ql-par-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = GenConfig {
        lines: 5000,
        seed: 4,
        ..GenConfig::default()
    };
    let mut bytes = Vec::new();
    write_log(&cfg, &mut bytes, std::path::Path::new("log"), &()).unwrap();
    bytes.extend_from_slice(SOGOU.as_bytes()); // bad lines at the end
    let p = dir.join("g.log");
    std::fs::write(&p, &bytes).unwrap();
    let rc = ReadConfig::new(Format::Sogouq);
    let sc = StatsConfig {
        words: false,
        ..StatsConfig::default()
    };
    let (s1, c1) = collect::collect_parts(&p, &rc, &sc, &(), u64::MAX, 1).unwrap();
    let (s3, c3) = collect::collect_parts(&p, &rc, &sc, &(), 0, 3).unwrap();
    assert_eq!(s1.lines, s3.lines);
    assert_eq!(s1.records, s3.records);
    assert_eq!(s1.bad, s3.bad);
    assert_eq!(s3.bad.first[0].line, 5009);
    let (a, b) = (c1.finish(&()).unwrap(), c3.finish(&()).unwrap());
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// R/S and variance–time on long-range-dependent series of known H (the generator's
/// modulation: a sum of AR(1) processes whose aggregated variance falls as m^(2H−2)).
#[test]
fn hurst_estimates_on_series_of_known_exponent() {
    for h in [0.6, 0.75, 0.9] {
        let mut rng = crate::engine::rng::Rng::new(11);
        let n = 1 << 15;
        let mut z = generate::LrdNoise::new(h, n, &mut rng);
        let x: Vec<f64> = (0..n).map(|_| z.next(&mut rng)).collect();
        let rs = fit::hurst_rs(&x).rs.unwrap();
        let (vt, _) = fit::hurst_variance_time(&x);
        eprintln!("H {h}: R/S {rs:.3} variance-time {:.3}", vt.unwrap());
        assert!((rs - h).abs() < 0.1, "H {h}: R/S {rs}");
        assert!((vt.unwrap() - h).abs() < 0.1, "H {h}: variance-time {vt:?}");
    }
}

#[test]
fn a_gb18030_log_with_utf8_lines_appended_reads_every_line() {
    // Read as GB18030, the UTF-8 lines once became gibberish (天网 → 澶╃綉) and doubled the
    // distinct queries; decided per line, they are the same queries.
    let gb = encoding_rs::GB18030.encode(SOGOU).0.to_vec();
    let mut mixed = gb.clone();
    mixed.extend_from_slice(SOGOU.as_bytes());
    let cfg = ReadConfig::new(Format::Sogouq);
    let (one, st1) = run(&gb, &cfg, StatsConfig::default());
    let (both, st2) = run(&mixed, &cfg, StatsConfig::default());
    assert_eq!(both.encoding, "gb18030");
    assert_eq!(both.records, 2 * one.records);
    assert_eq!(both.bad.count, 2 * one.bad.count);
    assert!(both.utf8_lines > 0);
    assert_eq!(st2.volume.distinct_queries, st1.volume.distinct_queries);
    let mut tsv = ReadConfig::new(Format::Tsv);
    tsv.columns = Some(TsvColumns::parse("time,user,query,rank,url").unwrap());
    let text = "00:00:01\tu1\t天网\t1\ta.cn\n00:00:02\tu2\t北大\t1\tb.cn\n";
    let mut mixed = encoding_rs::GB18030.encode(text).0.to_vec();
    mixed.extend_from_slice(text.as_bytes());
    let (s, st) = run(&mixed, &tsv, StatsConfig::default());
    assert_eq!((s.records, s.bad.count), (4, 0));
    assert_eq!(st.volume.distinct_queries, 2);
}

#[test]
fn a_line_longer_than_the_cap_is_a_bad_line_not_a_query() {
    let mut log = SOGOU.as_bytes().to_vec();
    let huge = format!(
        "00:00:01\tu9\t[{}]\t1 1\ta.cn\n",
        "天".repeat(read::MAX_LINE_BYTES)
    );
    log.extend_from_slice(huge.as_bytes());
    let (s, st) = run(
        &log,
        &ReadConfig::new(Format::Sogouq),
        StatsConfig::default(),
    );
    assert_eq!(s.records, 9);
    assert_eq!(s.bad.count, 4);
    assert!(
        s.bad
            .first
            .iter()
            .any(|b| b.line == 13 && b.reason.english.contains("longer"))
    );
    assert_eq!(st.volume.requests, 9);
}

#[test]
fn an_import_killed_after_its_commit_is_logged_done() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    let mut ws = crate::engine::store::Workspace::open_or_create(&path).unwrap();
    // A job row of a process that no longer exists, as the runner leaves it when killed.
    ws.conn()
        .execute(
            "INSERT INTO jobs (kind, params, status, started_at, pid)
             VALUES ('querylog-import', '{}', 'running', '2020-01-01T00:00:00Z', 999999999)",
            [],
        )
        .unwrap();
    let job = ws.conn().last_insert_rowid();
    let log = d.path().join("s.log");
    std::fs::write(&log, SOGOU).unwrap();
    let out = persist::import(
        ws.conn_mut(),
        &log,
        &ReadConfig::new(Format::Sogouq),
        Normalise::default(),
        "s",
        Some(job),
        false,
        &(),
    )
    .unwrap();
    // The process dies here: the runner never records the end.
    crate::engine::jobs::reap_interrupted(&ws).unwrap();
    let (status, result): (String, String) = ws
        .conn()
        .query_row(
            "SELECT status, result FROM jobs WHERE id = ?1",
            [job],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(status, "done");
    let v: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(v["log_id"], out.log_id);
    // The stored summary's bad lines (their English, as before) read back with their keys.
    let stored = persist::summary_of(ws.conn(), out.log_id).unwrap();
    assert_eq!(stored.bad, out.summary.bad);
    assert_eq!(stored.bad.first[0].reason.key, "error.log_sogouq_fields");
}

#[test]
fn a_time_with_a_character_where_a_digit_belongs_is_refused_not_sliced() {
    // Found by the fuzzer: the date form sliced inside the two-byte U+0080.
    assert!(read::parse_time("2003-03-1\u{80}00:00:09").is_err());
    assert!(read::parse_time("20030321\u{80}0000").is_err());
}
