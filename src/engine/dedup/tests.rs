//! Each method on tiny corpora whose answer is known, and the properties every method keeps.

use super::*;

fn article(seed: usize) -> String {
    let sentences = [
        "北京大学网络实验室开发了天网搜索引擎",
        "它于1997年正式发布并向公众开放",
        "天网在十年间搜集了数以亿计的中文网页",
        "研究人员用它研究网页消重和链接分析",
        "这套系统后来成为许多课程的教学案例",
        "教材详细介绍了搜集、预处理和服务三个阶段",
        "学生们可以在实验室里亲手运行每一个模块",
        "今天的搜索引擎仍然沿用当年的许多思想",
    ];
    let mut s = String::new();
    for i in 0..sentences.len() {
        s.push_str(sentences[(i + seed) % sentences.len()]);
        s.push_str(&format!("，第{}号段落补充说明。\n\n", i + seed * 10));
    }
    s
}

fn corpus() -> Vec<Doc> {
    let body = article(0);
    vec![
        Doc::new("orig", "天网搜索引擎的故事", &body),
        Doc::new("copy", "天网搜索引擎的故事", &body),
        Doc::new(
            "reprint",
            "转载：天网搜索引擎的故事（图）",
            &body.replace('，', ","),
        ),
        Doc::new(
            "other",
            "今日天气",
            "今天的天气很好，适合出去散步。公园里的花都开了。孩子们在草地上奔跑。老人们在树下下棋。",
        ),
    ]
}

#[test]
fn every_method_finds_the_exact_copy_and_only_real_pairs() {
    let docs = corpus();
    for m in Method::ALL {
        let out = run(&docs, m, &Config::default(), &()).unwrap();
        let names: Vec<(&str, &str)> = out
            .pairs
            .iter()
            .map(|p| (docs[p.a].name.as_str(), docs[p.b].name.as_str()))
            .collect();
        assert!(names.contains(&("orig", "copy")), "{}: {names:?}", m.name());
        assert!(
            out.pairs
                .iter()
                .all(|p| docs[p.a].name != "other" && docs[p.b].name != "other"),
            "{}",
            m.name()
        );
        let dup = out
            .pairs
            .iter()
            .find(|p| docs[p.a].name == "orig" && docs[p.b].name == "copy");
        assert_eq!(
            dup.map(|p| p.relation),
            Some(Relation::Duplicate),
            "{}",
            m.name()
        );
    }
}

#[test]
fn normalising_methods_see_through_headline_and_width_edits() {
    let docs = corpus();
    for m in [
        Method::Best,
        Method::MinHash,
        Method::CcDet,
        Method::SimHash,
    ] {
        let out = run(&docs, m, &Config::default(), &()).unwrap();
        assert_eq!(out.clusters, vec![vec![0, 1, 2]], "{}", m.name());
    }
    // MD5 of the text and the abstract do not.
    for m in [Method::Md5, Method::Tianwang(1)] {
        let out = run(&docs, m, &Config::default(), &()).unwrap();
        assert_eq!(out.clusters, vec![vec![0, 1]], "{}", m.name());
    }
}

#[test]
fn containment_is_found_by_best_and_ccdet_only_as_contains() {
    let full = article(1);
    let part: String = full.split("\n\n").take(3).collect::<Vec<_>>().join("\n\n");
    let docs = vec![
        Doc::new("full", "天网", &full),
        Doc::new("part", "天网", &part),
    ];
    for m in [Method::Best, Method::CcDet] {
        let out = run(&docs, m, &Config::default(), &()).unwrap();
        assert_eq!(out.pairs.len(), 1, "{}", m.name());
        let p = &out.pairs[0];
        assert_eq!(
            (p.a, p.b, p.relation),
            (0, 1, Relation::Contains),
            "{}",
            m.name()
        );
        assert!(out.clusters.is_empty());
    }
    let out = run(&docs, Method::MinHash, &Config::default(), &()).unwrap();
    assert!(
        out.pairs.is_empty(),
        "Jaccard of a 3/8 excerpt is below 0.8"
    );
}

#[test]
fn ccdet_prunes_a_site_template_sentence() {
    let tpl = "欢迎访问！本站版权所有。联系我们请拨打服务电话。";
    let mut a = Doc::new(
        "a",
        "",
        &format!("北京大学网络实验室开发了天网搜索引擎。{tpl}"),
    );
    let mut b = Doc::new("b", "", &format!("今天的天气很好适合出去散步。{tpl}"));
    a.site = "s.cn".into();
    b.site = "s.cn".into();
    let docs = vec![a, b];
    let out = run(&docs, Method::CcDet, &Config::default(), &()).unwrap();
    assert!(out.pairs.is_empty(), "{:?}", out.pairs);
    let cfg = Config {
        prune_site: false,
        ..Config::default()
    };
    let out = run(&docs, Method::CcDet, &cfg, &()).unwrap();
    assert_eq!(
        out.pairs.len(),
        1,
        "the template makes them alike without pruning"
    );
}

#[test]
fn a_document_is_a_duplicate_of_itself_and_order_does_not_matter() {
    let mut docs = corpus();
    docs.push(Doc::new("orig2", "天网搜索引擎的故事", &article(0)));
    for m in Method::ALL {
        let out = run(&docs, m, &Config::default(), &()).unwrap();
        let named = |out: &Outcome, docs: &[Doc]| {
            let mut v: Vec<(String, String, Relation)> = out
                .pairs
                .iter()
                .map(|p| {
                    let (a, b) = (docs[p.a].name.clone(), docs[p.b].name.clone());
                    if p.relation == Relation::Contains || a < b {
                        (a, b, p.relation)
                    } else {
                        (b, a, p.relation)
                    }
                })
                .collect();
            v.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
            v
        };
        assert!(
            out.pairs.iter().any(|p| docs[p.a].name == "orig"
                && docs[p.b].name == "orig2"
                && p.relation == Relation::Duplicate),
            "{}",
            m.name()
        );
        let mut rev = docs.clone();
        rev.reverse();
        let out2 = run(&rev, m, &Config::default(), &()).unwrap();
        assert_eq!(named(&out, &docs), named(&out2, &rev), "{}", m.name());
    }
}

#[test]
fn empty_and_tiny_corpora() {
    for m in Method::ALL {
        let out = run(&[], m, &Config::default(), &()).unwrap();
        assert!(out.pairs.is_empty());
        let one = vec![Doc::new("x", "", "")];
        assert!(
            run(&one, m, &Config::default(), &())
                .unwrap()
                .pairs
                .is_empty(),
            "{}",
            m.name()
        );
    }
}

#[test]
fn synthetic_pages_share_nothing_but_the_planted_pairs() {
    let (docs, planted) = super::devset::synthetic(2000, 50, 42);
    assert_eq!(docs.len(), 2000);
    let out = run(&docs, Method::Best, &Config::default(), &()).unwrap();
    let found: std::collections::BTreeSet<(usize, usize)> = out
        .pairs
        .iter()
        .map(|p| (p.a.min(p.b), p.a.max(p.b)))
        .collect();
    let want: std::collections::BTreeSet<(usize, usize)> =
        planted.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    // Every planted pair, and nothing else (two copies of one page pair up too).
    assert!(want.is_subset(&found), "{:?}", want.difference(&found));
    assert!(
        found.len() <= want.len() * 2,
        "{} pairs for {}",
        found.len(),
        want.len()
    );
}
