//! Tests of `encoding`.

use super::*;

const ZH: &str = "天网是北大网络实验室开发的搜索引擎，书中网页以国标码保存，预处理先确定编码。";
const TW: &str = "天網是北大網絡實驗室開發的搜尋引擎，書中網頁以國標碼保存，預處理先確定編碼。";

fn gbk(head: &str, s: &str) -> Vec<u8> {
    [head.as_bytes(), &GBK.encode(s).0].concat()
}

/// "who encoding label" (label "-" if none), the text and the note.
fn run(bytes: &[u8], content_type: Option<&str>) -> (String, String, String) {
    let (d, text) = decide_and_decode(bytes, content_type, None, None).expect("no override");
    let label = d.declared_label.as_deref().unwrap_or("-");
    let who = format!("{:?} {} {label}", d.decided_by, d.encoding_name());
    (who, text, d.note())
}

#[test]
fn boms_win_and_are_stripped() {
    let page = "\u{FEFF}<meta charset=gbk>天网";
    let (who, text, _) = run(page.as_bytes(), Some("text/html; charset=gbk"));
    assert_eq!(
        (who.as_str(), text.as_str()),
        ("Bom utf-8 -", "<meta charset=gbk>天网")
    );
    let units: Vec<u16> = "\u{FEFF}<p>天网".encode_utf16().collect();
    let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    assert_eq!(run(&le, None).0, "Bom utf-16le -");
    assert_eq!(run(&be, None).0, "Bom utf-16be -");
    assert_eq!(
        (run(&le, None).1, run(&be, None).1),
        ("<p>天网".into(), "<p>天网".into())
    );
}

#[test]
fn header_charset_forms() {
    let cases = [
        ("text/html; charset=\"GB2312\"", Some("GB2312")),
        ("text/html;CHARSET = gbk ", Some("gbk")),
        ("text/html; q=1; Charset='big5'", Some("big5")),
        ("text/html; charset=utf-8, x", Some("utf-8")),
        ("text/html; charset=", None),
        ("text/html", None),
    ];
    for (value, want) in cases {
        assert_eq!(header_charset(value), want, "{value}");
    }
    let (who, text, _) = run(&gbk("", ZH), Some("text/html; charset=\"GB2312\""));
    assert_eq!((who.as_str(), text.as_str()), ("Header gb18030 GB2312", ZH));
    let (who, _, note) = run(&gbk("", ZH), Some("text/html; charset=klingon"));
    assert!(
        who == "Guess gb18030 -" && note.contains("unknown"),
        "{note}"
    );
}

#[test]
fn meta_prescan_forms() {
    // Each line: the expected encoding ("-": none) and the head of a page.
    let cases = r#"gbk <meta charset=gbk>
        gbk <META CHARSET="GB2312">
        big5 <meta charset='big5'>
        gbk <meta/charset="gbk"/>
        - <meta charset=gbk/>
        gb18030 <meta http-equiv="Content-Type" content="text/html; charset=gb18030">
        gb18030 <meta content='text/html;charset = "GB18030"' HTTP-EQUIV='content-type'>
        gb18030 <meta content="text/html; charset=big5"><meta charset=gb18030>
        gb18030 <?xml version="1.0"?><!DOCTYPE html><html lang=zh><meta name=x charset=gb18030>
        gb18030 <a title="<meta charset=big5>"></a><meta charset=gb18030>
        gb18030 </p x='<meta charset=big5>'><meta charset=gb18030>
        gb18030 <!-- <meta charset=big5> --><meta charset=gb18030>
        gb18030 <!--> <meta charset=gb18030>
        - <!-- <meta charset=big5>
        gb18030 <meta charset=klingon><meta charset=gb18030>
        - <meta charset=gbk"#;
    for line in cases.lines() {
        let (want, head) = line.trim().split_once(' ').unwrap_or_default();
        let got = prescan(head.as_bytes()).map_or("-".into(), |(enc, _, _)| name(enc));
        assert_eq!(got, want, "{head}");
    }
    let late = format!("<p>{}</p><meta charset=big5>", "x".repeat(PRESCAN_BYTES));
    assert!(prescan(window(late.as_bytes(), PRESCAN_BYTES)).is_none());
}

#[test]
fn meta_fixups_and_late_meta() {
    assert_eq!(
        run(b"<meta charset=utf-16><p>hi", None).0,
        "Meta utf-8 utf-16"
    );
    let latin = b"<meta charset=x-user-defined><p>caf\xE9";
    assert_eq!(run(latin, None).0, "Meta windows-1252 x-user-defined");
    // A <meta> past the prescan window is followed, as a browser's parser does, and checked
    // against the bytes like any declaration.
    let head = format!("<p>{}</p><meta charset=gb2312>", "x".repeat(PRESCAN_BYTES));
    let (who, text, note) = run(&gbk(&head, ZH), None);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Meta gb18030 gb2312", true)
    );
    assert!(
        note.contains("past the 1024 bytes the prescan reads"),
        "{note}"
    );
    // A short page: one word of traditional Chinese is too little for the guess (chardetng
    // reads Big5's 網頁 as ISO-8859-5); the late <meta> says it.
    let short = format!(
        "<!-- {} --><meta charset=big5><title>",
        "x".repeat(PRESCAN_BYTES)
    );
    let big5 = |head: &str| [head.as_bytes(), &BIG5.encode("網頁").0].concat();
    let (who, text, _) = run(&big5(&short), None);
    assert_eq!(
        (who.as_str(), text.ends_with("網頁")),
        ("Meta big5 big5", true)
    );
    let (who, _, _) = run(&big5(&short.replace("<meta charset=big5>", "")), None);
    assert!(who.starts_with("Guess") && !who.contains("big5"), "{who}");
    // A late <meta> that lies is overruled by the bytes, as a prescanned one is.
    let lying = format!("<p>{}</p><meta charset=utf-8>", "x".repeat(PRESCAN_BYTES));
    let (who, text, _) = run(&gbk(&lying, &ZH.repeat(4)), None);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Guess gb18030 utf-8", true)
    );
}

#[test]
fn gb2312_label_decodes_as_gb18030() {
    // 𠀀 needs a four-byte GB18030 sequence that GBK lacks.
    let bytes = [b"<meta charset=gb2312>", &GB18030.encode("天网𠀀").0[..]].concat();
    let (who, text, note) = run(&bytes, None);
    assert_eq!(
        (who.as_str(), text.ends_with("天网𠀀")),
        ("Meta gb18030 gb2312", true)
    );
    assert!(note.contains("superset"), "{note}");
}

#[test]
fn undeclared_bytes_are_guessed() {
    let (who, text, _) = run(&gbk("<p>", ZH), None);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Guess gb18030 -", true)
    );
    let big5 = [b"<p>", &BIG5.encode(TW).0[..]].concat();
    let (who, text, _) = run(&big5, None);
    assert_eq!((who.as_str(), text.ends_with(TW)), ("Guess big5 -", true));
    for tld in [&b"www.example.TW."[..], "例子.台灣".as_bytes()] {
        let d = decide(&big5, None, None, Some(tld)).expect("no override");
        assert_eq!(d.encoding, BIG5); // a non-ASCII TLD is dropped, not a panic
    }
    // Two characters cut in half disqualify GBK inside chardetng; the retry finds it.
    let zh = GBK.encode(&ZH.repeat(3)).0.into_owned();
    let cut = [b"<p>", &zh[..], b"\xB0 <br>", &zh[..], b"\xC4<br>", &zh[..]].concat();
    let (who, text, note) = run(&cut, None);
    assert_eq!((who.as_str(), text.contains(ZH)), ("Guess gb18030 -", true));
    assert!(
        note.contains("malformed") && note.contains("2 replacement"),
        "{note}"
    );
}

#[test]
fn the_guess_reads_text_past_a_long_ascii_head() {
    // A modern page: 70 KB of script before its text. Guessed from its first 64 KB alone, the
    // windows-1252 page came out UTF-8 (no evidence there) and the GBK page fell back the same.
    let script = format!("<script>{}</script>", "var x = 1; // setup\n".repeat(3_500));
    assert!(script.len() > 64 * 1024);
    let english = "<p>It\u{2019}s the \u{201C}best\u{201D} caf\u{E9} in town \u{2014} the owner\u{2019}s                    r\u{E9}sum\u{E9} says so, and na\u{EF}ve visitors agree.</p>"
        .repeat(3);
    let page = [script.as_bytes(), &WINDOWS_1252.encode(&english).0].concat();
    let (who, text, note) = run(&page, None);
    assert_eq!(who, "Guess windows-1252 -", "{note}");
    assert!(text.contains("caf\u{E9}") && !text.contains('\u{FFFD}'));
    let (who, text, note) = run(&gbk(&script, ZH), None);
    assert_eq!(who, "Guess gb18030 -", "{note}");
    assert!(text.ends_with(ZH));
    assert!(note.contains("bytes of non-ASCII text"), "{note}");
}

/// The evidence size a guess's note names ("… from N bytes of non-ASCII text …").
fn evidence_read(note: &str) -> usize {
    let tail = note.split(" from ").nth(1).unwrap_or_default();
    let n = tail.split(' ').next().unwrap_or_default();
    n.parse()
        .unwrap_or_else(|_| panic!("no evidence size in {note}"))
}

#[test]
fn a_clean_multibyte_first_look_stands() {
    // 30 paragraphs of GBK text: about 2.3 KB of evidence. The first look already says GBK
    // and every later byte decodes under it, so chardetng reads no more.
    let paras: Vec<Vec<u8>> = (0..30).map(|_| gbk("<p>", ZH)).collect();
    let (who, text, note) = run(&paras.concat(), None);
    assert_eq!(who, "Guess gb18030 -", "{note}");
    assert!(text.ends_with(ZH));
    assert!(evidence_read(&note) <= FIRST_LOOK, "{note}");
    // Traditional Chinese in Big5 (whose bytes GBK mostly decodes too): the first look still
    // tells them apart.
    let tw: Vec<u8> = (0..30)
        .flat_map(|_| [b"<p>".as_slice(), &BIG5.encode(TW).0].concat())
        .collect();
    let (who, text, note) = run(&tw, None);
    assert_eq!(who, "Guess big5 -", "{note}");
    assert!(
        text.ends_with(TW) && evidence_read(&note) <= FIRST_LOOK,
        "{note}"
    );
    // A character cut in half past the first look: the whole evidence is read, and the retry
    // without the malformed sequence still finds GBK.
    let mut cut = paras.clone();
    cut.insert(20, b"<p>\xB0 </p>".to_vec());
    let (who, _, note) = run(&cut.concat(), None);
    assert_eq!(who, "Guess gb18030 -", "{note}");
    assert!(evidence_read(&note) > FIRST_LOOK, "{note}");
    // Latin text always reads the whole evidence: its long tail decides between single-byte
    // encodings.
    let english = "<p>It\u{2019}s the caf\u{E9}\u{2019}s r\u{E9}sum\u{E9} \u{2014} na\u{EF}ve.</p>";
    let page = WINDOWS_1252.encode(&english.repeat(200)).0.into_owned();
    let (who, _, note) = run(&page, None);
    assert_eq!(who, "Guess windows-1252 -", "{note}");
    assert!(evidence_read(&note) > FIRST_LOOK, "{note}");
}

#[test]
fn declared_legacy_over_utf8_bytes() {
    let (who, text, note) = run(format!("<meta charset=gb2312>{ZH}").as_bytes(), None);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Guess utf-8 gb2312", true)
    );
    assert!(note.contains("valid UTF-8"), "{note}");
    let page = format!("<meta charset=utf-8>{ZH}");
    let (who, _, _) = run(page.as_bytes(), Some("text/html; charset=gbk"));
    assert_eq!(who, "Meta utf-8 gbk"); // the meta agreed with the bytes
}

#[test]
fn declared_encoding_with_many_errors() {
    // A server default of UTF-8 over a GBK page with a correct meta.
    let page = gbk("<meta charset=gb2312>", ZH);
    let (who, text, note) = run(&page, Some("text/html; charset=UTF-8"));
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Meta gb18030 UTF-8", true)
    );
    assert!(note.contains("replacement characters"), "{note}");
    let (who, text, _) = run(&gbk("<meta charset=big5>", ZH), None);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Guess gb18030 big5", true)
    );
    // One broken byte in a long page stays with the declaration.
    let long = GBK.encode(&ZH.repeat(20)).0.into_owned();
    let broken = [b"<meta charset=gbk>", &long[..], b"\x81 ", &long[..]].concat();
    let d = decide(&broken, None, None, None).expect("no override");
    assert_eq!(
        (d.decided_by, d.encoding, d.had_errors),
        (DecidedBy::Meta, GB18030, true)
    );
}

#[test]
fn latin1_header_yields() {
    let latin1 = Some("text/html; charset=ISO-8859-1");
    let (who, _, note) = run(&gbk("<meta charset=gbk>", ZH), latin1);
    assert!(
        who == "Meta gb18030 gbk" && note.contains("server default"),
        "{note}"
    );
    let (who, text, _) = run(&gbk("<p>", ZH), latin1);
    assert_eq!(
        (who.as_str(), text.ends_with(ZH)),
        ("Guess gb18030 ISO-8859-1", true)
    );
    let (who, text, _) = run(
        b"<p>Caf\xE9 cr\xE8me br\xFBl\xE9e, na\xEFve fa\xE7ade",
        latin1,
    );
    assert_eq!(
        (who.as_str(), &text[3..13]),
        ("Header windows-1252 ISO-8859-1", "Café crè")
    );
}

#[test]
fn override_wins_and_unknown_override_fails() {
    let page = format!("\u{FEFF}<meta charset=gbk>{ZH}");
    let d = decide(
        page.as_bytes(),
        Some("text/html; charset=gbk"),
        Some(" Big5 "),
        None,
    );
    let d = d.expect("big5 is a label");
    assert_eq!((d.decided_by, d.encoding), (DecidedBy::Override, BIG5));
    assert_eq!(d.declared_label.as_deref(), Some("Big5"));
    let err = decide(page.as_bytes(), None, Some("klingon"), None).expect_err("unknown");
    assert_eq!(err.label, "klingon");
    assert!(decide(b"", None, Some("iso-2022-kr"), None).is_err()); // "replacement"
    assert_eq!(
        decide(b"", None, Some("gbk"), None).map(|d| d.encoding),
        Ok(GB18030)
    );
}

#[test]
fn serializes_lower_case_names() {
    let d = decide(&gbk("<meta charset=gbk>", ZH), None, None, None).expect("no override");
    let json = serde_json::to_string(&d).expect("serialisable");
    let want = r#"{"encoding":"gb18030","decided_by":"meta","declared_label":"gbk","#;
    assert!(
        json.starts_with(want) && json.ends_with(r#""had_errors":false}"#),
        "{json}"
    );
}

/// Decodes the 69 real pages of `ccwe` and checks them against their hand-cleaned texts.
#[test]
fn ccwe_pages_decode_cleanly() {
    use std::collections::{BTreeMap, HashSet};
    let Some(root) = crate::engine::testdata::shared_data("extraction/ccwe") else {
        return;
    };
    let dir = std::fs::read_dir(root.join("original")).expect("ccwe/original");
    let mut paths: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let (mut summary, mut failures) = (BTreeMap::new(), Vec::new());
    let kept = |s: &str| -> Vec<char> { s.chars().filter(|c| c.is_alphanumeric()).collect() };
    for path in &paths {
        let bytes = std::fs::read(path).expect("readable page");
        let (d, text) = decide_and_decode(&bytes, None, None, Some(b"cn")).expect("no override");
        let bare = decide(&bytes, None, None, None).expect("no override");
        assert_eq!((bare.encoding, bare.decided_by), (d.encoding, d.decided_by)); // no TLD hint
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        *summary
            .entry(format!("{:?} {}", d.decided_by, d.encoding_name()))
            .or_insert(0) += 1;
        let errors = text.chars().filter(|&c| c == '\u{FFFD}').count();
        // Strip tags crudely so that tag names do not break the bigrams of the text.
        let mut in_tag = false;
        let visible: String = text
            .chars()
            .filter(|&c| {
                in_tag = (in_tag || c == '<') && c != '>';
                !in_tag && c != '>'
            })
            .collect();
        let page: HashSet<_> = kept(&visible).windows(2).map(|w| (w[0], w[1])).collect();
        let clean = std::fs::read_to_string(root.join(format!("cleaned/{stem}.txt")));
        let clean = kept(&clean.expect("cleaned text"));
        let found = clean
            .windows(2)
            .filter(|w| page.contains(&(w[0], w[1])))
            .count();
        let share = found as f64 / clean.len().saturating_sub(1).max(1) as f64;
        println!(
            "{stem} {:?} {} {errors} {share:.3} | {}",
            d.decided_by,
            d.encoding_name(),
            d.note()
        );
        if errors * 200 > text.chars().count() || share < 0.95 {
            failures.push(format!(
                "{stem}: {errors} U+FFFD, {share:.3} of bigrams found"
            ));
        }
    }
    println!("{} pages: {summary:?}", paths.len());
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_borrowing_decode_gives_the_same_decision_and_text() {
    let utf8 = "<meta charset=utf-8><p>天网搜索引擎</p>"
        .as_bytes()
        .to_vec();
    let mislabelled = "<meta charset=gbk><p>天网搜索引擎</p>".as_bytes().to_vec();
    let bom = [b"\xEF\xBB\xBF".as_slice(), "<p>天网</p>".as_bytes()].concat();
    let cases: [(&[u8], bool); 6] = [
        (&utf8, true),
        (&mislabelled, true),
        (&bom, true),
        (b"<p>plain ASCII</p>", true),
        (
            &gbk("<meta charset=gbk>", "<p>天网搜索引擎，北京大学</p>"),
            false,
        ),
        (b"<p>\xff\xfe broken \xc3</p>", false),
    ];
    for (bytes, borrowed) in cases {
        let (d1, owned) = decide_and_decode(bytes, None, None, None).expect("no label given");
        let (d2, text) = decide_and_decode_cow(bytes, None, None, None).expect("no label given");
        assert_eq!(
            (d1.encoding, d1.note()),
            (d2.encoding, d2.note()),
            "{bytes:?}"
        );
        assert_eq!(owned, text, "{bytes:?}");
        assert_eq!(matches!(text, Cow::Borrowed(_)), borrowed, "{bytes:?}");
        // Asked twice in a row (the memo of the last decode) the answer is the same.
        let (_, again) = decide_and_decode_cow(bytes, None, None, None).expect("no label given");
        assert_eq!(again, text, "{bytes:?}");
    }
}
