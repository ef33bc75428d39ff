//! Tests of `nohmm`: every token equals jieba-rs's `cut(text, false)`.

use super::*;
use crate::engine::rng::Rng;
use crate::engine::testdata::shared_data;
use crate::engine::text::encoding::decide_and_decode;
use crate::engine::text::segment::Segmenter;

/// `(word, char start, char end)` of every token.
type Cut = Vec<(String, usize, usize)>;

fn ours(text: &str) -> Cut {
    let mut out = Vec::new();
    NoHmm::shared().cut(text, &mut |w, start| {
        out.push((w.to_owned(), start, start + w.chars().count()))
    });
    out
}

fn jiebas(text: &str) -> Cut {
    let jieba = Segmenter::shared().jieba();
    let tokens = jieba.cut(text, false);
    tokens
        .iter()
        .map(|t| (t.word.to_owned(), t.start, t.end))
        .collect()
}

/// Compares every line of `text` (and `text` whole); the number of tokens compared.
fn same_as_jieba(what: &str, text: &str) -> usize {
    let mut tokens = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let (a, b) = (ours(line), jiebas(line));
        assert_eq!(a, b, "{what}:{}: {line:?}", n + 1);
        tokens += a.len();
    }
    assert_eq!(ours(text), jiebas(text), "{what}: whole");
    tokens
}

#[test]
fn mixed_text_token_for_token() {
    let text = "我的笔记本电脑，学历史知识。南京市长江大桥\r\n\
        iPhone 15 Pro售价7999元；C++和C#、.NET 4.8、50%的T恤、B超、AA制\r\r\n\n\
        全角：ＡＢＣ１２３，ｈｔｔｐ://例子.com/a_b-c&d?e=f#g 😀👍🏽 emoji后接中文\t\u{3000}空格\n\
        扩展字㐀㐁𠀀𠀁𪜀𫝀𬺰豈更 繁體中文測試，東京大學。Ünïcödé café naïve αβγ Ελληνικά\n\
        abc123def 1.95 3.14.15 a.b.c x_y x-y-z ++ ## %% && .. -- ___\n\
        中华人民共和国成立了，上海浦东开发与法制建设同步；结婚的和尚未结婚的\n\
        他来到了网易杭研大厦，小明硕士毕业于中国科学院计算所，后在日本京都大学深造";
    let n = same_as_jieba("mixed", text);
    assert!(n > 200, "{n} tokens");
    // Edge cases: empty, one character of each class, a lone \r, a trailing \r.
    for t in [
        "", "中", "a", "。", "\r", "\n", "\r\n", "a\r", "中\r", "𠀀", "1", "-",
    ] {
        assert_eq!(ours(t), jiebas(t), "{t:?}");
    }
}

#[test]
fn random_text_token_for_token() {
    // Characters of dictionary words, ASCII letters, digits and joiners, punctuation, line
    // ends, an emoji and an extension character, in random order.
    let alphabet: Vec<char> = "的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要\
        她出也得里后自以会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作\
        种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间斯知世什\
        两次使身者被高已亲其进此话常与活正感长江大桥市南京abcXYZ0123456789+#&._%-，。、！？；：\
        “”（）《》 \t\r\n😀𠀀ＡＢ１２"
        .chars()
        .collect();
    let mut rng = Rng::new(20261128);
    for round in 0..3000 {
        let len = 1 + rng.below(60);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        assert_eq!(ours(&text), jiebas(&text), "round {round}: {text:?}");
    }
}

#[test]
fn has_word_as_jieba() {
    let jieba = Segmenter::shared().jieba();
    let dict = NoHmm::shared();
    assert_eq!(dict.len(), 349_045);
    let text = {
        let mut t = String::new();
        flate2::read::GzDecoder::new(DICT_GZ)
            .read_to_string(&mut t)
            .expect("gunzip");
        t
    };
    let mut checked = 0;
    for word in text.lines().filter_map(|l| l.split_whitespace().next()) {
        assert!(dict.has_word(word), "{word}");
        // A prefix, and the word with a character added, may or may not be words.
        for w in [
            &word[..word.char_indices().last().map_or(0, |(i, _)| i)],
            &format!("{word}的"),
        ] {
            assert_eq!(dict.has_word(w), jieba.has_word(w), "{w:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, 349_045);
    for w in ["", "学历史", "γ", "𠀀", "中华人民共和国万岁万万岁"] {
        assert_eq!(dict.has_word(w), jieba.has_word(w), "{w:?}");
    }
}

#[test]
fn a_custom_dictionary_routes_as_jieba_does() {
    // jieba-rs's own dictionary loader, a missing frequency and a zero one (ln 0 = −inf).
    let dict = "北京 9 ns\n北京大学 5 nt\n大学 9\n北 3\n京 3\n大 3\n学 3\n生\n学生 10\n京大 0\n";
    let (ours, theirs) = (
        NoHmm::from_dict(dict).expect("a small dictionary fits"),
        jieba_rs::Jieba::with_dict(&mut dict.as_bytes()).expect("dict"),
    );
    for text in [
        "北京大学生",
        "北京大学",
        "大学生北京",
        "学生北",
        "北京大学学生京大",
    ] {
        let mut a = Vec::new();
        ours.cut(text, &mut |w, s| a.push((w.to_owned(), s)));
        let b: Vec<_> = theirs
            .cut(text, false)
            .iter()
            .map(|t| (t.word.to_owned(), t.start))
            .collect();
        assert_eq!(a, b, "{text}");
    }
}

/// Every file under `dir` whose name ends with `suffix`, sorted.
fn files(dir: &std::path::Path, suffix: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)
            .expect("a readable data folder")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn real_text_token_for_token() {
    let sets = [
        ("extraction/ccwe/cleaned", ".txt"),
        ("extraction/ccwe/original", ".html"),
        ("extraction/readability_zh/test/test-pages", ".html"),
        ("classification/thucnews_titles", ".txt"),
        ("classification/sogoucs_smarty", ".utf8.dat"),
    ];
    for (rel, suffix) in sets {
        let Some(dir) = shared_data(rel) else {
            continue;
        };
        let (mut n_files, mut tokens) = (0, 0);
        for path in files(&dir, suffix) {
            let bytes = std::fs::read(&path).expect("a readable data file");
            let (_, text) = decide_and_decode(&bytes, None, None, None).expect("no label given");
            tokens += same_as_jieba(&path.display().to_string(), &text);
            n_files += 1;
        }
        assert!(
            n_files > 0 && tokens > 10_000,
            "{rel}: {n_files} files, {tokens} tokens"
        );
    }
}

#[test]
fn a_node_keeps_every_field_and_a_dictionary_past_the_fields_is_refused() {
    use super::Node;
    let mut n = Node::EMPTY;
    assert_eq!((n.check(), n.base(), n.lp_index()), (Node::FREE, 0, 0));
    n.set_base(Node::MAX);
    n.set_lp_index(u16::MAX);
    n.set_check(7);
    assert_eq!((n.check(), n.base(), n.lp_index()), (7, Node::MAX, 65_535));
    n.set_base(3);
    assert_eq!((n.check(), n.base(), n.lp_index()), (7, 3, 65_535));
    assert!(super::fits("a base", Node::MAX, Node::MAX).is_ok());
    let err = super::fits("a base", Node::MAX + 1, Node::MAX).expect_err("past 24 bits");
    assert!(err.to_string().contains("a base 16777216"), "{err}");
    // Words of two characters, each with a frequency of its own: 65,535 distinct scores fit
    // in a node's 16 bits, 65,536 do not.
    let dict = |n: u32| -> String {
        (0..n)
            .map(|k| {
                let c = |x: u32| char::from_u32(0x4E00 + x).expect("a CJK character");
                format!("{}{} {}\n", c(k / 256), c(k % 256), k + 1)
            })
            .collect()
    };
    let fits = NoHmm::from_dict(&dict(65_535)).expect("65,535 distinct frequencies");
    assert_eq!(fits.len(), 65_535);
    let err = NoHmm::from_dict(&dict(65_536))
        .err()
        .expect("65,536 distinct frequencies");
    assert!(
        err.to_string().contains("distinct frequencies 65536"),
        "{err}"
    );
}
