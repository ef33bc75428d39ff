//! Tests of `segment`.

use super::*;
use Method::*;

fn seg() -> &'static Segmenter {
    Segmenter::shared()
}

/// The words of `text`, joined by `/`.
fn show(s: &Segmenter, text: &str, m: Method) -> String {
    let words: Vec<String> = s.cut(text, m).into_iter().map(|t| t.word).collect();
    words.join("/")
}

type Matcher = for<'c> fn(&'c [char], &Dictionary, usize) -> Vec<&'c [char]>;

/// `f` on the Han run `text`, its words joined by `/`.
fn run(f: Matcher, text: &str, dict: &Dictionary) -> String {
    let chars: Vec<char> = text.chars().collect();
    let words: Vec<String> = f(&chars, dict, 4)
        .iter()
        .map(|w| w.iter().collect())
        .collect();
    words.join("/")
}

#[test]
fn names_and_dictionaries() {
    for m in Method::ALL {
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(json, format!("\"{m}\""));
        assert_eq!(
            (Method::parse(m.name()), serde_json::from_str(&json).ok()),
            (Some(m), Some(m))
        );
    }
    assert_eq!(Method::parse("FMM").or(Method::parse("jieba-no-hmm")), None);
    fn shareable<T: Send + Sync + Clone>() {}
    shareable::<Segmenter>();
    assert!(seg().dict_len() > 300_000, "{}", seg().dict_len());
    assert!(seg().contains("笔记本") && !seg().contains("学历史"));
    let d = Dictionary::from_dict_text("# comment\n学 10 n\n\n历史 5\n 知识 \n");
    assert_eq!(format!("{d:?}"), "Dictionary(hash-set, 3 entries)");
    assert!(d.contains("历史") && d.contains_chars(&['知', '识']) && !d.contains("史"));
}

#[test]
fn golden_cases() {
    let short = seg().clone().with_max_len(2);
    assert_eq!(
        (short.max_len(), seg().clone().with_max_len(99).max_len()),
        (2, 16)
    );
    let cases = [
        (seg(), "我的笔记本", Fmm, "我/的/笔记本"),
        (seg(), "我的笔记本", Rmm, "我/的/笔记本"),
        (seg(), "我的笔记本", Jieba, "我/的/笔记本"),
        (seg(), "我的笔记本", JiebaNoHmm, "我/的/笔记本"),
        (&short, "我的笔记本", Fmm, "我/的/笔记/本"),
        (seg(), "学历史知识", Fmm, "学历/史/知识"),
        (seg(), "学历史知识", Rmm, "学/历史/知识"),
        (seg(), "学历史知识", FmmBt, "学/历史/知识"),
        (
            seg(),
            "网络与分布式系统实验室",
            Fmm,
            "网络/与/分布式/系统/实验室",
        ),
        (seg(), "中华人民共和国", JiebaNoHmm, "中华人民共和国"),
    ];
    for (s, text, m, want) in cases {
        assert_eq!(show(s, text, m), want, "{m}");
    }
    assert_eq!(run(fmm, "学历史知识", seg().dictionary()), "学历/史/知识");
    assert_eq!(run(rmm, "学历史知识", seg().dictionary()), "学/历史/知识");
    let terms = seg().terms("网络与分布式系统实验室", Fmm);
    assert_eq!(terms, ["网络", "分布式", "系统", "实验室"]);
}

#[test]
fn backtracking() {
    // The book's case, where 史 is no word [L1596]: its rule alone repairs FMM.
    let d = Dictionary::from_words(["学", "学历", "历史", "知识"]);
    let (text, mut offs) = ("学历史知识".to_owned(), Vec::new());
    let mut f = vec![(0, 2), (2, 3), (3, 5)];
    Run::new(&text, &mut offs, &d).book_fix(&mut f);
    assert_eq!(f, [(0, 1), (1, 3), (3, 5)]);
    let s = seg().clone().with_dictionary(d);
    assert_eq!(show(&s, "学历史知识。", FmmBt), "学/历史/知识/。");
    // Where FMM and RMM differ: fewer unknown single characters win (FMM 甲乙/丙丁 over
    // RMM 甲/乙丙丁), then fewer tokens (FMM 甲乙丙/丁 over RMM 甲/乙/丙丁), then fewer
    // single characters (RMM 甲乙/丙丁 over FMM 甲乙丙/丁), then RMM. Agreement is kept.
    let cases: [(&[&str], &str, &str); 4] = [
        (&["甲乙", "丙丁", "乙丙丁"], "甲乙丙丁", "甲乙/丙丁"),
        (
            &["甲乙丙", "丁", "丙丁", "甲", "乙"],
            "甲乙丙丁",
            "甲乙丙/丁",
        ),
        (&["甲乙丙", "甲乙", "丙丁", "丁"], "甲乙丙丁", "甲乙/丙丁"),
        (
            &["学历", "史", "学", "历史", "知识"],
            "知识学历史知识",
            "知识/学/历史/知识",
        ),
    ];
    for (words, text, want) in cases {
        assert_eq!(run(fmm_bt, text, &Dictionary::from_words(words)), want);
    }
}

#[test]
fn traces() {
    let step = |s: &FmmStep| {
        format!(
            "{}{}{}",
            s.pos,
            s.candidate,
            s.in_dict as u8 + s.accepted as u8
        )
    };
    let steps: Vec<String> = seg().fmm_trace("学历史知识").iter().map(step).collect();
    assert_eq!(
        steps,
        [
            "0学历史知0",
            "0学历史0",
            "0学历2",
            "2史知识0",
            "2史知0",
            "2史2",
            "3知识2"
        ]
    );
    let steps: Vec<String> = seg().rmm_trace("学历史知识").iter().map(step).collect();
    assert_eq!(
        steps,
        [
            "1历史知识0",
            "2史知识0",
            "3知识2",
            "0学历史0",
            "1历史2",
            "0学2"
        ]
    );
    for text in ["学历史知识", "他说：网络与分布式系统实验室！ok 我的笔记本"]
    {
        let trace = seg().fmm_trace(text).into_iter().filter(|s| s.accepted);
        let words = seg()
            .cut(text, Fmm)
            .into_iter()
            .filter(|t| t.kind == TokenKind::Word);
        assert!(trace.map(|s| s.candidate).eq(words.map(|t| t.word)));
    }
    assert!(seg().fmm_trace("").is_empty() && seg().rmm_trace("abc，").is_empty());
}

#[test]
fn kinds_and_latin_runs() {
    let kinds = |text, m| {
        let tokens = seg().cut(text, m).into_iter();
        tokens
            .map(|t| format!("{}:{:?}", t.word, t.kind))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        kinds("Rust 1.95 和 HTTP/2，！", Fmm),
        "Rust:Latin  :Space 1.95:Latin  :Space 和:Word  :Space HTTP:Latin /:Punct 2:Latin \
         ，:Punct ！:Punct"
    );
    assert_eq!(show(seg(), "v1.2.3 x.5 3.", Rmm), "v1.2.3/ /x/./5/ /3/.");
    assert_eq!(show(seg(), "Café\r\n\t😀ｘ１", Fmm), "Café/\r\n\t/😀/ｘ１");
    for m in Method::ALL {
        for t in seg().cut("Rust 1.95 和 HTTP/2，T恤 C++\r\n", m) {
            assert_eq!(t.kind, classify(&t.word), "{m} {t:?}");
        }
    }
    let punct = (0x2000..0x2070).chain(0x3000..0x3021).chain(0xFF01..0xFF66);
    for c in punct.filter_map(char::from_u32) {
        assert_eq!(is_alnum(c), c.is_alphanumeric(), "{c:?}");
    }
}

#[test]
fn terms_drop_stop_words_and_lowercase() {
    let text = "我们的 Search Engine 和 THE 天网 是 一个 搜索引擎。T恤，Ελλάδα 䶵𠀀 3.14";
    for m in Method::ALL {
        let terms = seg().terms(text, m);
        let has = |w: &str| terms.iter().any(|t| t == w);
        let stops = [
            "我们", "的", "和", "the", "THE", "是", "一个", "。", " ", "Search",
        ];
        assert!(!stops.into_iter().any(has), "{m} {terms:?}");
        // jieba keeps the dictionary word T恤 but splits Ελλάδα; the runs do the opposite.
        let other = if m.is_matching() {
            "ελλάδα"
        } else {
            "t恤"
        };
        assert!(
            ["search", "engine", "天网", other].into_iter().all(has),
            "{m} {terms:?}"
        );
        let slow: Vec<String> = (seg().cut(text, m).into_iter())
            .filter(|t| matches!(t.kind, TokenKind::Word | TokenKind::Latin))
            .filter(|t| !is_stop_word(&t.word))
            .map(|t| t.word.to_lowercase())
            .collect();
        assert_eq!(terms, slow, "{m}");
    }
}

#[test]
fn search_mode_and_empty_input() {
    let w = show(seg(), "中华人民共和国", Search);
    assert!(
        ["中华/", "人民/", "/中华人民共和国"]
            .iter()
            .all(|s| w.contains(s)),
        "{w}"
    );
    for m in Method::ALL {
        assert!(seg().cut("", m).is_empty() && seg().terms("", m).is_empty());
    }
    assert!(fmm_bt(&[], seg().dictionary(), 4).is_empty());
}

#[test]
fn round_trip_partition() {
    let alphabet: Vec<char> = "的我笔记本学历史知识网络与分布式系统实验室中华人民共和国\
        abcXYZ019.,/-+# \n\r\t，。！「」😀é𠀀ｘ１ひ"
        .chars()
        .collect();
    let mut texts = vec![
        "a😀b中文\u{200b}x\u{3000}。\r\n".to_owned(),
        "长句没有换行".repeat(999),
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for len in 0..300 {
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize]
        };
        texts.push((0..len % 60).map(|_| next()).collect());
    }
    for text in &texts {
        for m in Method::ALL {
            let mut tokens = seg().cut(text, m);
            if m == Search {
                // Keep the tokens that tile the text: sub-words lie inside a longer token.
                tokens.sort_by_key(|t| (t.start, usize::MAX - t.word.len()));
                let mut end = 0;
                tokens.retain(|t| (t.start >= end, end = end.max(t.end())).0);
            }
            let mut pos = 0;
            for t in &tokens {
                assert!(
                    t.start == pos && !t.word.is_empty(),
                    "{m} {text:?} {tokens:?}"
                );
                pos = t.end();
            }
            let back: String = tokens.iter().map(|t| t.word.as_str()).collect();
            assert_eq!(&back, text, "{m}");
        }
    }
}

#[test]
fn long_lines_are_cut_at_sentence_ends() {
    let line = "我的笔记本。".repeat(1000);
    let n = next_chunk(&line);
    assert!((CHUNK_BYTES..CHUNK_BYTES + 20).contains(&n) && line[..n].ends_with('。'));
    assert_eq!(next_chunk("ab\ncd"), 3);
    let whole: Vec<&str> = seg()
        .jieba()
        .cut(&line, false)
        .iter()
        .map(|t| t.word)
        .collect();
    assert_eq!(show(seg(), &line, JiebaNoHmm), whole.join("/"));
}

#[test]
fn all_tokens_keep_punctuation_and_case_but_not_spaces() {
    let seg = Segmenter::shared();
    let mut all = Vec::new();
    seg.for_each_token_at("Rust：搜索 的", Method::Jieba, false, true, |t, _| {
        all.push(t.into_owned())
    });
    assert!(
        all.contains(&"Rust".to_string()) && all.contains(&"：".to_string()),
        "{all:?}"
    );
    assert!(!all.iter().any(|t| t.trim().is_empty()));
    let mut terms = Vec::new();
    seg.for_each_term_at("Rust：搜索 的", Method::Jieba, true, |t, _| {
        terms.push(t.into_owned())
    });
    assert_eq!(terms, ["rust", "搜索"]);
}
