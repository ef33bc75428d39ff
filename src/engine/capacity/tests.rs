use std::collections::HashMap;

use super::*;

fn cap(change: impl Fn(&mut CapacityInputs)) -> CapacityReport {
    let mut i = CapacityInputs::default();
    change(&mut i);
    capacity(&i).unwrap()
}

fn near(r: &CapacityReport, key: &str, want: f64, tol: f64) {
    let got = r.value(key).unwrap();
    assert!((got - want).abs() <= tol, "{key}: {got}, expected {want}");
}

#[test]
fn book_numbers_exactly() {
    let r = cap(|_| ());
    near(&r, "frames_per_s_full", 8333.0, 0.0);
    near(&r, "pages_per_s_full", 8333.0, 0.0);
    near(&r, "frames_per_s_at_utilisation", 4000.0, 0.0);
    near(&r, "pages_per_s_at_utilisation", 4000.0, 0.0);
    near(&r, "gatherers_per_node_max", 4000.0, 0.0);
    near(&r, "t_txn_ms", 500.0, 0.0);
    near(&r, "t_page_s", 4.0, 0.0);
    near(&r, "pages_per_day_node", 2_160_000.0, 0.0);
    for f in &r.figures {
        assert!(f.book_value.is_none_or(|b| b == f.value), "{}", f.key);
        assert!(f.line.starts_with("[L") && !f.label_en.is_empty() && !f.unit.is_empty());
    }
    let t_page = &r.figure("t_page_s").unwrap().formula;
    let want = "page_over_mtu × t_txn_ms / 1000 = 8.8747 × 500 / 1000, rounded to whole";
    assert!(t_page.starts_with(want), "{t_page}");
    let four = cap(|i| i.nodes = 4.0);
    let g = four.figure("gatherers_per_node_max").unwrap();
    assert_eq!((g.value, g.book_value), (1000.0, Some(1000.0)));
    near(&four, "pages_per_day_all_nodes", 8_640_000.0, 0.0);
}

#[test]
fn exact_alternatives() {
    let exact = cap(|i| i.round_like_book = false);
    near(&exact, "frames_per_s_full", 8333.333, 1e-3);
    near(&exact, "pages_per_s_at_utilisation", 4166.667, 1e-3);
    near(&exact, "page_over_mtu", 8.875, 1e-3);
    near(&exact, "t_page_s", 4.437, 1e-3); // 4.4 s with KB = 1024
    near(&exact, "pages_per_day_node", 1_947_115.4, 0.1);
    let kb1000 = cap(|i| (i.round_like_book, i.kb_bytes) = (false, KbUnit::Kb1000));
    near(&kb1000, "t_page_s", 4.333, 1e-3); // 4.3 s with KB = 1000
    near(&kb1000, "pages_per_day_node", 1_993_846.2, 0.1);
    // The book's rounding reaches 4 s and 2,160,000 from either KB.
    let book1000 = cap(|i| i.kb_bytes = KbUnit::Kb1000);
    near(&book1000, "t_page_s", 4.0, 0.0);
    near(&book1000, "pages_per_day_node", 2_160_000.0, 0.0);
}

#[test]
fn a_page_is_about_nine_frames() {
    let r = cap(|i| i.frame_equals_page = false);
    near(&r, "frames_per_page", 8.875, 1e-3);
    near(&r, "pages_per_s_full", 939.0, 0.1); // ≈ 940 pages/s
    near(&r, "pages_per_s_at_utilisation", 450.7, 0.1); // 4000 / 8.87
    near(&r, "t_txn_ms", 500.0, 0.0);
    let r = cap(|i| (i.frame_equals_page, i.round_like_book) = (false, false));
    near(&r, "pages_per_s_at_utilisation", 469.5, 0.1); // 4166.7 / 8.87
}

#[test]
fn rounding_and_formatting_helpers() {
    assert_eq!(floor_one_significant(4166.67), 4000.0);
    assert_eq!(floor_one_significant(41_666.7), 40_000.0);
    assert_eq!((round_seconds(4.44), round_seconds(13.3)), (4.0, 13.0));
    assert!((round_seconds(0.44) - 0.4).abs() < 1e-12);
    assert_eq!(num(8333.0) + " " + &num(0.5), "8333 0.5");
    let env = [("rtt_ms", 200.0), ("spt_ms", 100.0)];
    assert_eq!(fill("2 × rtt_ms + spt_ms", &env), "2 × 200 + 100");
}

#[test]
fn bad_inputs_are_refused_with_the_field_name() {
    let err = |change: fn(&mut CapacityInputs)| {
        let mut i = CapacityInputs::default();
        change(&mut i);
        capacity(&i).unwrap_err()
    };
    assert!(err(|i| i.page_kb = 0.0).contains("page_kb must be a positive number"));
    assert!(err(|i| i.mtu_bytes = -1.0).contains("mtu_bytes must be a positive"));
    assert!(err(|i| i.rtt_ms = f64::NAN).contains("rtt_ms must be a positive"));
    assert!(err(|i| i.nodes = 0.0).contains("nodes must be a positive"));
    assert!(err(|i| i.utilisation = 1.5).contains("at most 1"));
    let extreme = err(|i| (i.link_mbps, i.mtu_bytes) = (1e300, 1e-300));
    assert!(extreme.contains("too extreme"), "{extreme}");
}

#[test]
fn fnv1a_known_values_and_stable_assignment() {
    assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64("foobar"), 0x8594_4171_f739_67e8);
    assert_eq!(
        fnv1a64("a.cn") % 16,
        fnv1a64("q.cn") % 16,
        "why host_hash mixes"
    );
    assert_ne!(host_hash("a.cn") % 16, host_hash("q.cn") % 16);
    assert_eq!(host_hash(" Net.PKU.edu.cn "), host_hash("net.pku.edu.cn"));
    assert_eq!(host_hash("net.pku.edu.cn"), 0xe5b7_d7e5_0cf7_5789); // computed independently
    let hosts = ["net.pku.edu.cn", "www.sohu.com.cn", "NEWS.sohu.com.cn"];
    let a = assign_mod(&hosts, 4).unwrap();
    assert_eq!(a, assign_mod(&hosts, 4).unwrap());
    let news = host_hash("news.sohu.com.cn") % 4;
    assert_eq!(a["news.sohu.com.cn"], news as usize);
    assert!(a.values().all(|&n| n < 4));
    assert!(assign_mod(&hosts, 0).is_err());
}

fn log_of(fetches: usize, hosts: usize) -> Vec<(f64, String)> {
    let host = |k: usize| format!("h{}.site{}.example.cn", k % hosts, k % hosts % 13);
    (0..fetches).map(|k| ((k / 7) as f64, host(k))).collect()
}

#[test]
fn even_load_has_zero_variance() {
    let log: Vec<(f64, String)> = (0..400)
        .map(|k| (k as f64, format!("h{}", k % 8)))
        .collect();
    let hosts: Vec<String> = host_fetches(&log).into_keys().collect();
    let a: HashMap<String, usize> = hosts
        .iter()
        .zip(0..)
        .map(|(h, k)| (h.clone(), k % 4))
        .collect();
    let r = load_over_time(&log, &a, 4, 100.0).unwrap();
    assert_eq!(r.totals, vec![100; 4]);
    assert_eq!(
        (r.mean, r.variance, r.std_dev, r.max_over_mean),
        (100.0, 0.0, 0.0, 1.0)
    );
    assert_eq!(r.buckets, vec![vec![25; 4]; 4]);
    assert_eq!(r.normalized_variance, vec![0.0; 4]);
}

#[test]
fn book_reference_run_has_variance_0_04() {
    // Table 6-3: every hour node 1 gets 2 pages and node 2 gets 3 [L2065–2070].
    let host = |k: usize| format!("n{}", u8::from(k % 5 >= 2));
    let log: Vec<(f64, String)> = (0..50).map(|k| ((k / 5 * 3600) as f64, host(k))).collect();
    let a: HashMap<String, usize> = [("n0".to_string(), 0), ("n1".to_string(), 1)].into();
    let r = load_over_time(&log, &a, 2, 3600.0).unwrap();
    assert_eq!((r.totals.clone(), r.buckets.len()), (vec![20, 30], 10));
    let reference = |x: &f64| (x - BOOK_REFERENCE_VARIANCE).abs() < 1e-12;
    assert!(r.normalized_variance.iter().all(reference));
    assert!((r.max_over_mean - 1.2).abs() < 1e-12);
}

#[test]
fn totals_are_preserved_and_errors_are_clear() {
    let log = log_of(6000, 2000);
    let study = load_study(&log, 60.0).unwrap();
    let nodes: Vec<usize> = study.iter().map(|r| r.nodes).collect();
    assert_eq!(nodes, BOOK_NODE_COUNTS);
    for r in &study {
        assert_eq!(r.totals.iter().sum::<u64>(), 6000);
        assert_eq!(r.buckets.iter().flatten().sum::<u64>(), 6000);
        assert!(
            r.max_over_mean < 1.5,
            "n = {}: {}",
            r.nodes,
            r.max_over_mean
        );
    }
    let a: HashMap<String, usize> = [("x".to_string(), 5)].into();
    let e = load_over_time(&[(0.0, "y".into())], &a, 2, 1.0).unwrap_err();
    assert!(e.contains("no node"), "{e}");
    let e = load_over_time(&[(0.0, "X".into())], &a, 2, 1.0).unwrap_err();
    assert!(e.contains("on node 5, but n = 2"), "{e}");
    assert!(load_over_time(&[(-1.0, "x".into())], &a, 9, 1.0).is_err());
    assert!(load_over_time(&[], &a, 2, 0.0).is_err());
    let e = load_over_time(&[(1e9, "x".into())], &a, 9, 1e-3).unwrap_err();
    assert!(e.contains("buckets"), "{e}");
    let empty = load_over_time(&[], &a, 2, 1.0).unwrap();
    assert_eq!(
        (empty.mean, empty.max_over_mean, empty.buckets.len()),
        (0.0, 1.0, 0)
    );
}

#[test]
fn rehash_moves_most_hosts_two_level_moves_one_share() {
    let log = log_of(20_000, 20_000);
    for n in [2usize, 4, 8, 10] {
        let re = moved_on_add(&log, n, Mapping::Rehash).unwrap();
        let two = moved_on_add(&log, n, Mapping::two_level()).unwrap();
        let share = 1.0 / (n as f64 + 1.0);
        assert!(
            (re.fraction - n as f64 * share).abs() < 0.02,
            "n={n}: {re:?}"
        );
        assert!((two.fraction - share).abs() < 0.02, "n={n}: {two:?}");
        assert_eq!(two.moved_buckets, Some(DEFAULT_LOGICAL_BUCKETS / (n + 1)));
        assert_eq!(
            (re.total_hosts, re.total_fetches, re.to_nodes),
            (20_000, 20_000, n + 1)
        );
        assert_eq!(two.moved_load, two.fraction);
    }
    let weighted = [(0.0, "a".to_string()), (1.0, "A".into()), (2.0, "b".into())];
    let r = moved_on_add(&weighted, 1, Mapping::Rehash).unwrap();
    let odd = |h: &str| host_hash(h) % 2; // mod 1 is always 0
    assert_eq!((r.total_hosts, r.total_fetches), (2, 3));
    assert_eq!(r.moved_fetches, 2 * odd("a") + odd("b"));
    assert!(moved_on_add(&[], 0, Mapping::Rehash).is_err());
    assert_eq!(
        moved_on_add(&[], 3, Mapping::two_level()).unwrap().fraction,
        0.0
    );
}

#[test]
fn partition_table_follows_fig_6_8() {
    let mut t = PartitionTable::new(50_000, 10).unwrap();
    assert_eq!(t.counts(), vec![5_000; 10]);
    assert_eq!(&t.owners()[4_999..5_001], &[0, 1], "ranges as in [L2120]");
    let before = t.clone();
    let moved = t.add_node().unwrap();
    assert_eq!((moved.len(), t.nodes()), (50_000 / 11, 11));
    let counts = t.counts();
    assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
    for (k, (&a, &b)) in before.owners().iter().zip(t.owners()).enumerate() {
        assert_eq!(a != b, moved.binary_search(&k).is_ok());
        assert!(a == b || b == 10, "buckets only move to the new node");
    }
    assert!(PartitionTable::new(3, 4).is_err());
    assert!(PartitionTable::new(2, 2).unwrap().add_node().is_err());
    let bucket = t.bucket_of("NET.pku.edu.cn");
    assert_eq!(t.owner("net.pku.edu.cn"), t.owners()[bucket]);
}

#[test]
fn reports_are_serializable() {
    fn ser<T: Serialize>() {}
    ser::<CapacityReport>();
    ser::<LoadReport>();
    ser::<MoveReport>();
    ser::<PartitionTable>();
}
