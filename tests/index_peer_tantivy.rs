//! The tantivy peer (`engine::index::peer_tantivy`) on THUCNews titles. Only with the feature:
//! `cargo test --release --features tantivy-peer --test index_peer_tantivy` (see
//! `bench/peers/tantivy_check.sh`); the full-corpus measurement is `#[ignore]`d:
//! `… --test index_peer_tantivy -- --ignored --nocapture`.
#![cfg(feature = "tantivy-peer")]

use std::path::{Path, PathBuf};

use tianwang::engine::index::peer_tantivy::{PeerConfig, PeerDoc, PeerIndex, explain, run};

/// The THUCNews titles folder, or None (skip) when missing — a failure under CI.
fn titles_dir() -> Option<PathBuf> {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/classification/thucnews_titles");
    if p.join("dev.txt").is_file() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{} missing (CI is set)", p.display());
    }
    // Past the harness's capture, so the run shows it (`.ci/run` counts `SKIPPED:` lines).
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {} missing", p.display());
    None
}

/// The titles of a `title TAB class` file, in order (line n is `titles[n - 1]`).
fn titles(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("read the titles");
    text.lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect()
}

/// Documents keyed by line number (from 1).
fn docs(titles: &[String]) -> Vec<PeerDoc> {
    titles
        .iter()
        .enumerate()
        .map(|(i, t)| PeerDoc {
            key: (i + 1).to_string(),
            text: t.clone(),
        })
        .collect()
}

#[test]
fn a_title_finds_itself_first() {
    let Some(dir) = titles_dir() else { return };
    let all = titles(&dir.join("dev.txt"));
    let docs = docs(&all[..200]);
    let lines = [1usize, 2, 3, 50, 123, 200];
    let mut queries: Vec<String> = lines.iter().map(|&n| all[n - 1].clone()).collect();
    queries.push("房价下跌".into());
    queries.push(String::new());
    let cfg = PeerConfig::default();
    let r = run(&docs, &queries, &cfg).expect("the peer runs");

    assert_eq!(r.docs, 200);
    assert!(r.index_secs > 0.0 && r.docs_per_s > 0.0 && r.index_bytes > 0);
    assert_eq!(r.query_secs.len(), queries.len());
    assert_eq!(r.hits.len(), queries.len());
    assert!(
        r.p50_ms > 0.0 && r.p95_ms >= r.p50_ms,
        "{} {}",
        r.p50_ms,
        r.p95_ms
    );
    for (i, &n) in lines.iter().enumerate() {
        let hits = &r.hits[i];
        assert_eq!(hits[0].0, n.to_string(), "{:?} → {hits:?}", queries[i]);
        assert!(hits.len() <= cfg.top);
        assert!(
            hits.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first: {hits:?}"
        );
    }
    assert!(
        r.hits[lines.len() + 1].is_empty(),
        "an empty query matches nothing"
    );

    // The same on disk, with two writer threads (two segments): the same rankings.
    let disk = PeerConfig {
        in_ram: false,
        threads: 2,
        memory_mb: 40,
        ..cfg
    };
    let d = run(&docs, &queries, &disk).expect("the peer runs on disk");
    for (i, &n) in lines.iter().enumerate() {
        assert_eq!(d.hits[i][0].0, n.to_string(), "on disk: {:?}", queries[i]);
        assert_eq!(
            d.hits[i][0].1, r.hits[i][0].1,
            "BM25 statistics span the segments"
        );
    }

    let index = PeerIndex::build(&docs, &cfg).expect("builds");
    let text = explain(&index, &queries[0], "1")
        .expect("explains")
        .expect("line 1 is indexed");
    assert!(text.contains("idf") && text.contains("k1"), "{text}");
}

/// The figures for the report: all 10,000 dev titles, the 500 queries = every 20th test title
/// (lines 1, 21, 41, …), top 10.
#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn thucnews_dev_10k_with_500_test_queries() {
    let Some(dir) = titles_dir() else { return };
    let docs = docs(&titles(&dir.join("dev.txt")));
    let queries: Vec<String> = titles(&dir.join("test.txt"))
        .into_iter()
        .step_by(20)
        .collect();
    assert_eq!(queries.len(), 500);
    for (label, cfg) in [
        ("in RAM, 1 thread", PeerConfig::default()),
        (
            "temp dir, 1 thread",
            PeerConfig {
                in_ram: false,
                ..PeerConfig::default()
            },
        ),
        (
            "in RAM, 2 threads",
            PeerConfig {
                threads: 2,
                memory_mb: 100,
                ..PeerConfig::default()
            },
        ),
    ] {
        let r = run(&docs, &queries, &cfg).expect("the peer runs");
        let mean_ms = r.query_secs.iter().sum::<f64>() / r.query_secs.len() as f64 * 1e3;
        println!(
            "tantivy peer ({label}): {} docs in {:.3} s = {:.0} docs/s, index {} bytes; {} queries: p50 {:.3} ms, p95 {:.3} ms, mean {:.3} ms; top hit of query 1: {:?}",
            r.docs,
            r.index_secs,
            r.docs_per_s,
            r.index_bytes,
            r.query_secs.len(),
            r.p50_ms,
            r.p95_ms,
            mean_ms,
            r.hits[0].first()
        );
        assert_eq!(r.docs, 10_000);
        assert!(r.p50_ms > 0.0);
    }
}
