//! `bench scale` (issue 14's scale experiment, feature `bigjobs`; `scale/check.sh` runs it): a
//! generated corpus with planted near-duplicates, fingerprinted once into a kept signatures
//! folder, grouped on the native engine, on DataFusion with a pool small enough to spill, and on
//! Spark `local[2]` — the same candidates and every planted pair found on each; the crossover
//! model fitted from rows (`--crossover`), and a bad rows file exiting 2 naming its line.
#![cfg(feature = "bigjobs")]

mod bigjobs_common;

use bigjobs_common::{bin, ok_json, scratch, spark_ready};

use serde_json::{Value, json};

fn scale_row(sig: &std::path::Path, engine: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "bench",
        "scale",
        "--pages",
        "30000",
        "--chunk",
        "7000",
        "--engine",
        engine,
        "--sig",
        sig.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let v = ok_json(&bin().args(&args).output().unwrap());
    v["rows"][0].clone()
}

#[test]
fn every_engine_finds_every_planted_pair_from_one_signature_file() {
    let d = scratch("engines");
    let sig = d.join("sig");
    let native = scale_row(&sig, "native", &[]);
    assert_eq!(native["tool"], "tianwang-native");
    assert_eq!(native["pages"], 30_000);
    assert_eq!(native["planted"], 300, "1 % planted by default: {native}");
    assert_eq!(native["planted_found"], native["planted"], "{native}");
    assert!(
        native["candidates"].as_u64().unwrap() >= 300,
        "candidates include the planted pairs: {native}"
    );
    assert!(sig.join("signatures.parquet").is_file());
    assert!(sig.join("minhash_bands.parquet").is_file());

    // The signatures are reused (same stage seconds), and a 16 MB pool spills.
    let df = scale_row(
        &sig,
        "datafusion",
        &["--pool-mb", "16", "--partitions", "1"],
    );
    assert_eq!(df["tool"], "tianwang-datafusion");
    assert_eq!(
        df["signatures_s"], native["signatures_s"],
        "signatures reused"
    );
    for f in [
        "candidates",
        "verified",
        "exact_groups",
        "planted",
        "planted_found",
    ] {
        assert_eq!(df[f], native[f], "{f}: {df} vs {native}");
    }
    assert!(df["peak_rss_mb"].as_f64().unwrap() > 0.0);

    if spark_ready() {
        let cluster = bigjobs_common::spark_cluster();
        let extra: Vec<&str> = cluster
            .iter()
            .flat_map(|u| ["--cluster", u.as_str()])
            .collect();
        let sp = scale_row(&sig, "spark", &extra);
        assert_eq!(sp["tool"], "tianwang-spark");
        for f in ["candidates", "verified", "exact_groups", "planted_found"] {
            assert_eq!(sp[f], native[f], "{f}: {sp} vs {native}");
        }
        assert!(
            sp["engine_peak_rss_mb"].as_f64().unwrap() > 50.0,
            "the Spark JVM's own peak memory is reported: {sp}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn crossover_is_fitted_from_rows_and_a_bad_line_is_named() {
    let d = scratch("crossover");
    let row = |tool: &str, pages: u64, sig: f64, group: f64, total: f64| {
        json!({"tool": tool, "pages": pages, "signatures_s": sig, "group_s": group,
               "verify_s": 0.0, "total_s": total})
    };
    let rows = [
        json!({"rows": [row("tianwang-native", 100_000, 3.0, 0.5, 3.5)]}),
        json!({"rows": [row("tianwang-native", 1_000_000, 30.0, 4.0, 34.0)]}),
        json!({"rows": [row("tianwang-spark", 100_000, 3.0, 50.0, 53.0)]}),
        json!({"rows": [row("tianwang-spark", 1_000_000, 30.0, 122.0, 152.0)]}),
        json!({"rows": [row("tianwang-datafusion", 1_000_000, 30.0, 20.0, 50.0)]}),
    ];
    let file = d.join("rows.jsonl");
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let v = ok_json(
        &bin()
            .args(["bench", "scale", "--crossover", file.to_str().unwrap()])
            .args(["--machines", "12", "--json"])
            .output()
            .unwrap(),
    );
    let c = &v["crossover"];
    assert_eq!(c.as_array().unwrap().len(), 1, "Spark only: {c}");
    let m = &c[0]["model"];
    // g_d = (122 − 50) / 900,000 s a page; F = 50 − g_d·100,000 = 42 s.
    let gd = 72.0 / 900_000.0;
    let f = 50.0 - gd * 100_000.0;
    let (s, g1) = (30.0 / 1e6, 4.0 / 1e6);
    let want = f / (s + g1 - (s + gd) / 12.0);
    let got = m["pages"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
    assert!((m["dist_fixed_s"].as_f64().unwrap() - f).abs() < 1e-9);
    let measured = c[0]["measured"].as_array().unwrap();
    assert_eq!(measured.len(), 2);
    assert!(measured.iter().all(|r| r["engine_wins"] == false));
    assert_eq!(v["rows"].as_array().unwrap().len(), 5);

    // A broken line: exit 2 naming the file and the line.
    std::fs::write(&file, format!("{}\nnot json\n", rows[0])).unwrap();
    let o = bin()
        .args(["bench", "scale", "--crossover", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("rows.jsonl:2"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
