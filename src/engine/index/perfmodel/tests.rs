//! Tests of `perfmodel`.

use super::*;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300)
}

#[test]
fn book_magnitudes_give_d_alpha_of_one_and_three_megabytes() {
    let m = ModelInput::default();
    m.validate().unwrap();
    assert_eq!(m.d_alpha(), 1e6);
    let full = ModelInput {
        full_text: true,
        ..m
    };
    // c(α + T_N/M) = 10·(10⁵ + 2·10⁵): three times the non-full-text list.
    assert_eq!(full.d_alpha(), 3e6);
    // The whole non-full-text posting file: 50 GB, far beyond memory.
    assert_eq!(m.report().unwrap().posting_file, 5e10);
}

/// Digest, DERIVED: B = 20 MB/s, r = 1 s → k ≈ 20 (non-full-text) and ≈ 6.7 (full-text);
/// tolerance 0.01 on the real k.
#[test]
fn k_max_is_twenty_and_six_point_seven() {
    let m = ModelInput::default();
    let k = m.k_max_real().unwrap();
    assert!((k - 20.0).abs() < 0.01, "{k}");
    assert_eq!(m.k_max(), Some(20));
    assert!(m.meets(20) && !m.meets(21));
    assert!((m.k_max_approx() - 20.0).abs() < 1e-12);
    let full = ModelInput {
        full_text: true,
        ..m
    };
    let k = full.k_max_real().unwrap();
    assert!((k - 6.667).abs() < 0.01, "{k}");
    assert_eq!(full.k_max(), Some(6));
    assert!(full.meets(6) && !full.meets(7));
}

#[test]
fn k_max_edges() {
    // The whole posting file moves within r: no limit.
    let small = ModelInput {
        m_terms: 10.0,
        alpha: 100.0,
        ..ModelInput::default()
    };
    assert_eq!(small.k_max(), None);
    assert!(small.meets(1_000_000));
    // Not even one list fits.
    let slow = ModelInput {
        bandwidth_bps: 1e5,
        ..ModelInput::default()
    };
    assert_eq!(slow.k_max(), Some(0));
    // M = 1: one list, read once whatever k.
    let one = ModelInput {
        m_terms: 1.0,
        ..ModelInput::default()
    };
    assert_eq!(one.data_exact(5), one.d_alpha());
    assert_eq!(one.data_exact(0), 0.0);
}

#[test]
fn exact_formula_is_stable_and_the_approximations_bracket_it() {
    let m = ModelInput::default();
    // (1 − 1/M)^k by powi agrees where it is still accurate.
    let naive = m.d_alpha() * m.m_terms * (1.0 - (1.0 - 1.0 / m.m_terms).powi(20));
    assert!(close(m.data_exact(20), naive, 1e-9));
    // M huge: 1 − 1/M rounds to 1 in f64, the stable form still gives dα·k.
    let huge = ModelInput {
        m_terms: 1e20,
        alpha: 1.0,
        n_docs: 1.0,
        ..m
    };
    assert!(close(huge.data_exact(3), 3.0 * huge.d_alpha(), 1e-12));
    // approx2 ≤ exact ≤ approx1 for k ≪ M (the alternating series), close at k = 20.
    for k in [1u64, 2, 20, 500] {
        let (e, a1, a2) = (m.data_exact(k), m.data_approx1(k), m.data_approx2(k));
        assert!(a2 <= e * (1.0 + 1e-12) && e <= a1 * (1.0 + 1e-12), "k={k}");
    }
    assert!(close(m.data_exact(20), m.data_approx1(20), 1e-3));
    assert!(close(m.data_exact(20), m.data_approx2(20), 1e-7));
    assert_eq!(m.data_approx1(1), m.data_exact(1));
}

#[test]
fn bad_inputs_name_their_flag() {
    let flag = |m: ModelInput| match m.validate().unwrap_err() {
        EngineError::InvalidParam { name, .. } => name,
        e => panic!("{e}"),
    };
    let d = ModelInput::default();
    assert_eq!(flag(ModelInput { alpha: -1.0, ..d }), "--alpha");
    assert_eq!(flag(ModelInput { alpha: 4e7, ..d }), "--alpha");
    assert_eq!(flag(ModelInput { m_terms: 0.0, ..d }), "--m");
    assert_eq!(
        flag(ModelInput {
            bandwidth_bps: f64::NAN,
            ..d
        }),
        "--bandwidth"
    );
    assert_eq!(
        flag(ModelInput {
            response_s: 0.0,
            ..d
        }),
        "--response"
    );
    assert_eq!(flag(ModelInput { c_bytes: 0.0, ..d }), "--c");
    assert_eq!(flag(ModelInput { t_n: -1.0, ..d }), "--t-n");
    assert_eq!(flag(ModelInput { n_docs: 0.0, ..d }), "--n");
    assert!(ModelInput { alpha: 0.0, ..d }.report().is_ok());
}

#[test]
fn corpus_statistics_fill_n_m_alpha_and_t_n() {
    let stats = CorpusStats {
        docs: 434,
        terms: 12_000,
        postings: 60_000,
        occurrences: 250_000,
    };
    let base = ModelInput {
        full_text: true,
        k: 3,
        ..ModelInput::default()
    };
    let m = base.with_corpus(&stats).unwrap();
    assert_eq!(
        (m.n_docs, m.m_terms, m.alpha, m.t_n),
        (434.0, 12_000.0, 5.0, 250_000.0)
    );
    assert!(m.full_text && m.k == 3 && m.c_bytes == 10.0);
    assert_eq!(ModelInput::from_corpus(&stats).unwrap().k, 20);
    let empty = CorpusStats::default();
    assert!(ModelInput::from_corpus(&empty).is_err());
    let r = serde_json::to_value(m.report().unwrap()).unwrap();
    assert_eq!(r["input"]["alpha"], 5.0);
    assert_eq!(r["k_max"], serde_json::Value::Null);
}

#[test]
fn stirling_numbers() {
    assert_eq!(stirling2(0, 0), Some(1));
    assert_eq!(stirling2(3, 0), Some(0));
    assert_eq!(stirling2(3, 2), Some(3));
    assert_eq!(stirling2(10, 5), Some(42_525));
    assert_eq!(stirling2(4, 7), Some(0));
    let row = stirling2_row(5).unwrap();
    assert_eq!(row, [0, 1, 15, 25, 10, 1]);
    assert_eq!(falling(5, 3), Some(60));
    assert_eq!(falling(5, 6), Some(0));
    assert_eq!(falling(5, 0), Some(1));
    // Far past u128: refused, not wrapped.
    assert_eq!(stirling2_row(200), None);
}

/// Digest, DERIVED: M = 5, k = 3 gives 1·1·5 + 2·3·20 + 3·1·60 = 305 = 5·(125 − 64).
#[test]
fn stirling_sum_for_m5_k3_is_305() {
    let s = expected_lists_exact(5, 3).unwrap();
    let products: Vec<u128> = s.terms.iter().map(|t| t.product).collect();
    assert_eq!(products, [5, 120, 180]);
    assert_eq!(s.sum, 305);
    assert_eq!(s.total, 125);
    assert_eq!(s.closed, 5 * (125 - 64));
    assert_eq!(s.identity, 125);
    assert_eq!(s.reduced(), (61, 25));
    assert!((s.value() - 2.44).abs() < 1e-12);
    assert!((expected_lists(5.0, 3) - 2.44).abs() < 1e-12);
    let p: f64 = s.terms.iter().map(|t| s.probability(t)).sum();
    assert!((p - 1.0).abs() < 1e-12);
}

#[test]
fn the_exact_sum_equals_the_closed_form_everywhere_small() {
    for m in 1..=9u64 {
        for k in 0..=12u32 {
            let s = expected_lists_exact(m, k).unwrap();
            assert_eq!(s.sum, s.closed, "M={m} k={k}");
            assert_eq!(s.identity, s.total, "M={m} k={k}");
            assert!(close(
                s.value().max(1e-300),
                expected_lists(m as f64, u64::from(k)).max(1e-300),
                1e-12
            ));
        }
    }
    assert!(expected_lists_exact(1000, 13).is_none());
    assert!(expected_lists_exact(1000, 12).is_some());
}

#[test]
fn monte_carlo_is_seeded_and_agrees_within_four_standard_errors() {
    let a = monte_carlo_lists(5, 3, 20_000, 7).unwrap();
    let b = monte_carlo_lists(5, 3, 20_000, 7).unwrap();
    assert_eq!(a, b);
    assert!((a.mean - 2.44).abs() < 4.0 * a.std_error, "{a:?}");
    let c = verify_stirling(20, 12, 5_000, 1).unwrap();
    assert!((c.monte_carlo.mean - c.closed_form).abs() < 4.0 * c.monte_carlo.std_error);
    assert!(close(
        c.exact.as_ref().unwrap().value(),
        c.closed_form,
        1e-12
    ));
    assert!(monte_carlo_lists(0, 3, 10, 1).is_err());
    assert!(monte_carlo_lists(5, 3, 0, 1).is_err());
}

#[test]
fn table_8_1_itf_and_the_crossing_near_four() {
    assert_eq!(TABLE_8_1.len(), 9);
    assert_eq!(TABLE_8_1[0].itf(), 3.0);
    assert!((TABLE_8_1[4].itf() - 4.0).abs() < 1e-12);
    assert!((TABLE_8_1[8].itf() - 5.0).abs() < 1e-12);
    // Both ranks rise down the table.
    for w in TABLE_8_1.windows(2) {
        assert!(w[1].english_rank > w[0].english_rank);
        assert!(w[1].chinese_rank > w[0].chinese_rank);
    }
    // Between 0.02 % and 0.01 %: ITF 3.93, rank ≈ 1,135 (tolerance 0.1 and 150).
    let c = itf_crossing().unwrap();
    assert!((c.itf - 4.0).abs() < 0.1, "{c:?}");
    assert!((c.rank - 1200.0).abs() < 150.0, "{c:?}");
    assert!((c.freq_percent - 0.0117).abs() < 0.001, "{c:?}");
    assert!(itf_crossing_of(&TABLE_8_1[..3]).is_none());
}

#[test]
fn table_8_2_as_printed() {
    assert_eq!(TABLE_8_2.len(), 4);
    assert_eq!(TABLE_8_2[2].model, "Seagate Cheetah X15");
    assert_eq!(TABLE_8_2[2].rpm, 15_000);
    assert_eq!(TABLE_8_2[1].iops, 107.5);
    assert_eq!(TABLE_8_2[3].mb_s, (26.0, 40.0));
}

/// The book's conclusions [L2954–L2963]: 100/5 = 20 q/s; 1 MB a query → 400 MB (Chinese)
/// and 4 GB (English); with the 10 ms transfer of a 200 KB list, m ≈ 10 (DERIVED).
#[test]
fn throughput_golden_values() {
    assert_eq!(simplified_m(100.0, 5.0), 20.0);
    assert!(close(max_t_n(BOOK_TF_CHINESE, 5.0, 1e6), 4e8, 1e-12));
    assert!(close(max_t_n(BOOK_TF_ENGLISH, 5.0, 1e6), 4e9, 1e-12));
    // 400 MB · 0.05 % = 200 KB a list, 10 ms at 20 MB/s.
    let m = max_throughput(0.010, 4e8, BOOK_TF_CHINESE, 20e6, 5.0);
    assert!((m - 10.0).abs() < 1e-9, "{m}");
    // Transfer ignored: back to 20.
    assert!((max_throughput(0.010, 0.0, BOOK_TF_CHINESE, 20e6, 5.0) - 20.0).abs() < 1e-9);
    // The hyperbola passes through the anchors.
    assert!(close(
        t_n_at(10.0, 0.010, BOOK_TF_CHINESE, 20e6, 5.0),
        4e8,
        1e-9
    ));
    assert_eq!(t_n_at(25.0, 0.010, BOOK_TF_CHINESE, 20e6, 5.0), 0.0);
    let p = Planner::default();
    assert!(close(p.t_n_transfer_only(20.0), 4e8, 1e-12));
    let en = Planner {
        tf: BOOK_TF_ENGLISH,
        t_n: 4e9,
        ..p
    };
    assert!(close(en.t_n_transfer_only(20.0), 4e9, 1e-12));
    assert!((en.report().unwrap().m_full - 10.0).abs() < 1e-9);
}

#[test]
fn planner_with_disks_and_raid() {
    let r = Planner::default().report().unwrap();
    assert_eq!(r.m_simplified, 20.0);
    assert_eq!(r.bytes_per_query, 1e6);
    assert!(close(r.t_n_max, 4e8, 1e-12));
    assert!(close(r.list_bytes, 2e5, 1e-12));
    assert!(close(r.list_s, 0.02, 1e-12));
    // RAID of 4: four times the throughput.
    let raid = Planner {
        raid_n: 4,
        ..Planner::default()
    };
    let r4 = raid.report().unwrap();
    assert!(close(r4.m_full, 4.0 * r.m_full, 1e-12));
    assert_eq!(r4.m_simplified, 80.0);
    let x15 = Planner::default().with_disk(&TABLE_8_2[2]);
    assert_eq!(
        (x15.latency_s, x15.iops, x15.bandwidth_bps),
        (0.0039, 169.5, 38e6)
    );
    assert!(x15.report().unwrap().m_full > r.m_full);
    let bad = Planner {
        raid_n: 0,
        ..Planner::default()
    };
    assert!(matches!(
        bad.validate(),
        Err(EngineError::InvalidParam { name, .. }) if name == "--raid"
    ));
    assert!(
        Planner {
            tf: 0.0,
            ..Planner::default()
        }
        .validate()
        .is_err()
    );
}
