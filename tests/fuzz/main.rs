//! A mutation fuzzer for every parser that reads what strangers write:
//!
//! - pages (`pages.rs`): DocView extraction (arbitrary bytes as HTML under any declared
//!   charset), the encoding chain, the Tianwang raw reader and its recovery, the WARC reader,
//!   URL canonicalisation and link resolution, robots.txt;
//! - logs (`logs.rs`): query logs in every format (SogouQ, Tianwang query and click logs,
//!   TSV) and encoding, through the statistics; cache traces (lines, CSV, SogouQ) through
//!   every policy by count and by bytes; inverted-file access logs and their views;
//! - the labs' inputs (`labs.rs`): graph files through PageRank and HITS, classifier corpora
//!   (TSV with and without `class.txt`, a folder per class, SogouCS XML), rank runs, qrels and
//!   queries through the evaluation, dedup truth files;
//! - the index's own files (`index.rs`): the lexicon, posting blocks in every codec, the
//!   document table, and every file of a real index mutated (its footer left to refuse the
//!   damage, or resealed so the parsers behind it meet it) and then searched;
//! - Parquet read back (`parquet.rs`, feature `bigjobs`): a mutated pages or documents file.
//!
//! cargo-fuzz needs a nightly toolchain, which this project does not pin; this harness runs on
//! the stable toolchain instead. Each target starts from its seeds (`fuzz/corpus/<target>/`
//! plus seeds made here from the sample web), then mutates them — bit flips, byte inserts and
//! deletes, chunk duplication and splicing, interesting bytes and numbers, random tails — for a
//! time budget: `TIANWANG_FUZZ_SECS` per target (default 2 s, which CI uses; `fuzz/run.sh 600`
//! runs ten minutes each). A panic is a crash; an input running longer than 10 s is a hang.
//! Either is saved to `fuzz/crashes/<target>-<hash>.bin` and fails the test. Every file in
//! `fuzz/regressions/<target>/` (crashes found before, named after what they found) runs
//! first, every time.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod index;
mod labs;
mod logs;
mod pages;
#[cfg(feature = "bigjobs")]
mod parquet;

const HANG: Duration = Duration::from_secs(10);
const MAX_LEN: usize = 64 * 1024;

/// xorshift64*: small, seeded, good enough to choose mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const INTERESTING: &[&[u8]] = &[
    b"\0",
    b"\xff",
    b"\x80",
    b"\xef\xbb\xbf",
    b"\xfe\xff",
    b"\r\n\r\n",
    b"<",
    b">",
    b"</",
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<meta charset=",
    b"charset=",
    b"&#",
    b"&amp;",
    b"%",
    b"%00",
    b"%ff",
    b"..",
    b"/../",
    b"?",
    b"#",
    b":",
    b"//",
    b"\xd6\xd0",
    b"\xa4\xa4",
    b"version: 1.0\n",
    b"WARC/1.1\r\n",
    b"Content-Length: ",
    b"unzip-length: ",
    b"length: ",
    b"-1",
    b"0",
    b"18446744073709551615",
    b"4294967296",
    b"inf",
    b"NaN",
    b"1e308",
    b"\x1f\x8b",
    b"Crawl-delay: ",
    b"Disallow: ",
    b"User-agent: *\n",
    b"\t",
    b",",
    b"\n",
    b"[",
    b"]",
    b"00:00:01\t",
    b"Fri Mar 21 00:00:02 2003",
    b"<doc>",
    b"</doc>",
    b"<url>http://sports.sohu.com/a</url>",
    b"Q0",
    b"TWLX",
    b"TWCK",
    b"\"text_len\":",
    b"\x80\x80\x80\x80\x0f",
];

fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(len + 1);
                v.insert(i, rng.next() as u8);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                v.drain(i..i + n);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(256));
                let chunk = v[i..i + n].to_vec();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, chunk);
            }
            4 => {
                let s = INTERESTING[rng.below(INTERESTING.len())];
                let at = rng.below(len + 1);
                v.splice(at..at, s.iter().copied());
            }
            5 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                let cut = rng.below(len + 1);
                let from = rng.below(other.len() + 1);
                v.truncate(cut);
                v.extend_from_slice(&other[from..]);
            }
            6 => {
                let n = rng.below(32);
                for _ in 0..n {
                    v.push(rng.next() as u8);
                }
            }
            _ if len > 0 => {
                let i = rng.below(len);
                let b = [0u8, 0x7f, 0x80, 0xff, b'\n', b'"', b' '][rng.below(7)];
                v[i] = b;
            }
            _ => v.push(rng.next() as u8),
        }
    }
    v.truncate(MAX_LEN);
    v
}

pub(crate) fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read_dir_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .filter(|e| e.path().is_file())
                .filter_map(|e| {
                    Some((
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read(e.path()).ok()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn budget() -> Duration {
    let secs = std::env::var("TIANWANG_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(2.0);
    Duration::from_secs_f64(secs)
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Run `target` on the regressions, the seeds and then mutants for the time budget.
pub(crate) fn fuzz(name: &str, seeds: Vec<Vec<u8>>, target: fn(&[u8])) {
    let crashes = repo("fuzz/crashes");
    let mut corpus: Vec<Vec<u8>> = read_dir_files(&repo(&format!("fuzz/corpus/{name}")))
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    corpus.extend(seeds);
    corpus.push(Vec::new());
    let regressions = read_dir_files(&repo(&format!("fuzz/regressions/{name}")));

    // The watchdog: an input running longer than HANG is saved and the process stops.
    let started = Arc::new(AtomicU64::new(0));
    let current: Arc<Mutex<Vec<u8>>> = Arc::default();
    let epoch = Instant::now();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let dog = {
        let (started, current, stop, crashes) = (
            started.clone(),
            current.clone(),
            stop.clone(),
            crashes.clone(),
        );
        let name = name.to_string();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                let s = started.load(Ordering::Relaxed);
                if s > 0
                    && (epoch.elapsed().as_millis() as u64).saturating_sub(s)
                        > HANG.as_millis() as u64
                {
                    let input = current.lock().map(|g| g.clone()).unwrap_or_default();
                    let _ = std::fs::create_dir_all(&crashes);
                    let f = crashes.join(format!("{name}-hang-{:016x}.bin", fnv(&input)));
                    let _ = std::fs::write(&f, &input);
                    eprintln!("HANG in {name}: input saved to {}", f.display());
                    std::process::abort();
                }
            }
        })
    };

    let mut failures: Vec<String> = Vec::new();
    let run_one = |input: &[u8], label: &str, failures: &mut Vec<String>| {
        if let Ok(mut g) = current.lock() {
            g.clear();
            g.extend_from_slice(input);
        }
        started.store(epoch.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
        let ok = std::panic::catch_unwind(|| target(input)).is_ok();
        started.store(0, Ordering::Relaxed);
        if !ok {
            let _ = std::fs::create_dir_all(&crashes);
            let f = crashes.join(format!("{name}-{:016x}.bin", fnv(input)));
            let _ = std::fs::write(&f, input);
            failures.push(format!("{label}: saved to {}", f.display()));
        }
    };
    for (file, bytes) in &regressions {
        run_one(bytes, &format!("regression {file}"), &mut failures);
    }
    for (i, s) in corpus.clone().iter().enumerate() {
        run_one(s, &format!("seed {i}"), &mut failures);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ fnv(name.as_bytes()));
    let deadline = Instant::now() + budget();
    let mut execs = 0u64;
    let t0 = Instant::now();
    while Instant::now() < deadline && failures.len() < 5 {
        let base = corpus[rng.below(corpus.len())].clone();
        let m = mutate(&mut rng, &base, &corpus);
        run_one(&m, "mutant", &mut failures);
        execs += 1;
        // Keep some mutants as new bases (a cheap stand-in for coverage feedback).
        if rng.below(64) == 0 && corpus.len() < 512 {
            corpus.push(m);
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = dog.join();
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "fuzz {name}: {execs} executions in {secs:.1} s ({:.0}/s), {} regressions, {} seeds, {} crashes",
        execs as f64 / secs.max(1e-9),
        regressions.len(),
        corpus.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{name} crashed:\n{}",
        failures.join("\n")
    );
}

/// A scratch folder of this fuzzing process for targets that read files (one per target
/// name; the targets of one process run one at a time).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tianwang-fuzz-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// The seed files of `fuzz/corpus/<name>/` are read by [`fuzz`]; this is a seed made here.
pub(crate) fn seed(sel: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![sel];
    v.extend_from_slice(body);
    v
}
