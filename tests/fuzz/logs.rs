//! Fuzz targets of the logs strangers hand the workbench: query logs in every format and
//! encoding (through the statistics), cache traces in every format (through every policy,
//! by count and by bytes), and inverted-file access logs (through both views).
//!
//! The first byte of an input chooses the variant (format, encoding, columns, strictness);
//! the rest is the file.

use tianwang::engine::cache::policy::PolicyKind;
use tianwang::engine::cache::sim::{SimConfig, SizeSpec, simulate};
use tianwang::engine::cache::stack::Warmup;
use tianwang::engine::cache::trace::{self, Format as TraceFormat, ReadOptions, Trace};
use tianwang::engine::querylog::read::{ReadConfig, read_bytes};
use tianwang::engine::querylog::stats::{Collector, StatsConfig};
use tianwang::engine::querylog::{Format, TsvColumns};

use super::{fuzz, scratch, seed};

const SOGOU: &str = "00:00:01\tu1\t[天网]\t1 1\ta.cn/1\n\
00:00:05\tu1\t[天网]\t2 2\ta.cn/2\n\
00:00:09\tu2\t[北大]\t1 1\tb.cn/1\n\
00:01:00\tu3\t[天网]\t11 1\ta.cn/11\n\
20030321000002\tu2\t[搜索 引擎]\t21\t1\ts.cn\n\
bad\tline\n";

const TIANWANG_QUERY: &str = "Fri Mar 21 00:00:02 2003\t218.24.100.77\tDatabase\t老歌\t3\n\
Wed-Apr-14-16:09:06-2004 10.0.0.1 Cache 北京 大学 1\n";

const TIANWANG_CLICK: &str = "Fri Mar 21 00:00:02 2003\t218.24.100.77\t老歌\thttp://a.cn/\t3\n";

const TSV: &str =
    "2003-03-21 00:00:02\tu1\t天网\t1\ta.cn\n2003-03-21 00:00:09\tu2\t北大\t2\tb.cn\n";

const FORMATS: [Format; 4] = [
    Format::Sogouq,
    Format::TianwangQuery,
    Format::TianwangClick,
    Format::Tsv,
];
const ENCODINGS: [Option<&str>; 4] = [None, Some("gb18030"), Some("utf-8"), Some("big5")];
const COLUMNS: [&str; 2] = ["time,user,query,rank,url", "skip,query,page,order,cache"];

#[test]
fn fuzz_query_logs_in_every_format_and_encoding() {
    let mut seeds = Vec::new();
    for (i, text) in [SOGOU, TIANWANG_QUERY, TIANWANG_CLICK, TSV]
        .iter()
        .enumerate()
    {
        seeds.push(seed(i as u8, text.as_bytes()));
        seeds.push(seed(i as u8 | 4, &encoding_rs::GB18030.encode(text).0));
    }
    fuzz("querylog", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let format = FORMATS[usize::from(sel) % 4];
        let mut cfg = ReadConfig::new(format);
        cfg.encoding = ENCODINGS[usize::from(sel >> 2) % 4].map(str::to_string);
        cfg.strict = sel & 0x10 != 0;
        if format == Format::Tsv {
            cfg.columns =
                Some(TsvColumns::parse(COLUMNS[usize::from(sel >> 5) % 2]).expect("columns"));
        }
        let mut c = Collector::new(StatsConfig::default());
        if read_bytes("fuzz.log", rest, &cfg, &(), &mut |r| c.push(r)).is_ok() {
            let _ = c.finish(&());
        }
    });
}

/// Every policy at three sizes over `t`, by count or by bytes.
fn simulate_all(t: &Trace, bytes: bool) {
    if t.is_empty() {
        return;
    }
    let cfg = SimConfig {
        policies: PolicyKind::ALL.to_vec(),
        sizes: vec![
            SizeSpec::Units(1),
            SizeSpec::Units(if bytes { 4096 } else { 7 }),
            SizeSpec::Percent(50.0),
        ],
        bytes,
        warmup: Warmup::Full,
        windows: 4,
        ..SimConfig::default()
    };
    let _ = simulate(t, &cfg, &());
}

#[test]
fn fuzz_cache_traces_through_every_policy() {
    let seeds = vec![
        seed(0, b"a\nb\na\nc\na\nb\n"),
        seed(
            1,
            b"k5,4096\nk9,512\nk16,1024\nk16,4096\nk1,1024\nk14,4096\nk1,512\n",
        ),
        seed(
            1,
            b"version,time,op,size,lbn\n1,5633898,2a,512,42932745\n1,5633898,2a,512,42932746\n",
        ),
        seed(0, &encoding_rs::GB18030.encode("天网\n北大\n天网\n").0),
    ];
    fuzz("cache_trace", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let csv = sel & 1 == 1;
        let opt = ReadOptions {
            format: if csv {
                TraceFormat::Csv
            } else {
                TraceFormat::Lines
            },
            key_column: 1 + usize::from(sel >> 1) % 5,
            size_column: (csv && sel & 0x10 != 0).then_some(2 + usize::from(sel >> 5) % 3),
            ..ReadOptions::default()
        };
        if let Ok(t) = trace::read_from("fuzz.trace", rest, &opt) {
            let _ = t.stats();
            simulate_all(&t, sel & 0x80 != 0);
        }
    });
}

#[test]
fn fuzz_cache_sogouq_traces() {
    let seeds = vec![
        seed(0, SOGOU.as_bytes()),
        seed(3, &encoding_rs::GB18030.encode(SOGOU).0),
    ];
    fuzz("cache_sogouq", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let path = scratch("cache_sogouq").join("s.log");
        std::fs::write(&path, rest).expect("write");
        let opt = ReadOptions {
            format: TraceFormat::Sogouq,
            key_with_page: sel & 1 == 1,
            first_page_only: sel & 2 == 2,
            ..ReadOptions::default()
        };
        if let Ok(t) = trace::read_file(&path, &opt) {
            simulate_all(&t, false);
        }
    });
}

#[test]
fn fuzz_access_logs_and_their_views() {
    let seeds = vec![
        seed(0, b"7 0 0 5000\n7 1 5000 32768\n7 0 0 5000\n"),
        seed(1, b"# term type offset length\n1\t0\t4096\t100\n2 1 0 1\n"),
    ];
    fuzz("cache_access_log", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let Ok(log) = trace::read_access_log_from("fuzz.log", rest) else {
            return;
        };
        simulate_all(&trace::io_view(&log), true);
        let ps = [512u32, 4096, 65_536][usize::from(sel) % 3];
        // A view of a few million pages is valid input, not a finding: keep each run short.
        let pages: u64 = log
            .iter()
            .map(|a| u64::from(a.length) / u64::from(ps) + 2)
            .sum();
        if pages < 1 << 16
            && let Ok(t) = trace::page_view(&log, ps)
        {
            simulate_all(&t, sel & 0x80 != 0);
        }
    });
}
