//! The crawler against a hostile web server: one host on 127.0.0.1 whose start page links to one
//! URL per fault — a response slower than the timeout, a connection closed mid-headers, HTTP 500
//! every time, a redirect loop, an endless body, binary bytes served as `text/html`, a charset
//! header that lies, a body that stalls after the headers — and one valid page.
//!
//! The server is plain `std::net` with a thread per connection; every thread is bounded in time
//! and in bytes and stops by itself. One crawl runs (shared by all tests of this file, through a
//! `OnceLock`), then each test checks one fault in the workspace's `fetches` table and in the
//! server's request counts, so a crawler bug shows up as exactly one failing (or ignored) test.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tianwang::engine::crawl::{Crawl, CrawlParams, Scope};
use tianwang::engine::jobs::{JobRunner, JobState};
use tianwang::engine::store::Workspace;
use tianwang::engine::urls::canonicalize;

/// The crawl's total timeout per request.
const TIMEOUT_MS: u64 = 500;
/// How long the slow page sleeps before answering (well over [`TIMEOUT_MS`]).
const SLOW: Duration = Duration::from_secs(3);
/// The crawl's size cap.
const MAX_BYTES: u64 = 64 * 1024;
/// Retries of transient failures.
const RETRIES: u32 = 2;
/// At most this many redirects are followed.
const MAX_REDIRECTS: usize = 3;
/// The whole crawl must end within this.
const CRAWL_LIMIT: Duration = Duration::from_secs(30);
/// No server thread lives longer than this, whatever the client does.
const THREAD_LIMIT: Duration = Duration::from_secs(10);
/// The endless body stops after this many bytes even if someone keeps reading.
const ENDLESS_CAP: usize = 64 * 1024 * 1024;
/// The server accepts at most this many connections in all.
const MAX_CONNECTIONS: usize = 300;

const OK_PAGE: &str = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>正常页面</title></head>\
<body><h1>正常页面</h1><p>天网搜索引擎的故障注入测试：这一页完全正常，必须存下来。</p></body></html>";

/// UTF-8 bytes, served with a header that says gb2312; links to one more page by an ASCII href.
const LIAR_PAGE: &str = "<!DOCTYPE html><html><head><title>编码说谎的页面</title></head>\
<body><p>头部声称 gb2312，实际字节是 UTF-8：北京大学网络实验室。</p>\
<a href=\"/f/after-liar\">下一页</a></body></html>";

const AFTER_LIAR_PAGE: &str = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>说谎之后</title></head>\
<body><p>从说谎的页面找到的链接。</p></body></html>";

/// The fault pages, as linked from the start page.
const FAULTS: [&str; 9] = [
    "/f/slow",
    "/f/reset",
    "/f/e500",
    "/f/loop-a",
    "/f/endless",
    "/f/binary",
    "/f/liar",
    "/f/stall",
    "/f/ok",
];

/// Deterministic bytes that are not text: a PNG signature, NULs, 0x80–0xFF, stray `<`.
fn binary_body() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while out.len() < 4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push((x >> 24) as u8);
    }
    out
}

fn start_page() -> String {
    let mut s = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>故障</title></head><body><ul>",
    );
    for f in FAULTS {
        s.push_str(&format!("<li><a href=\"{f}\">{f}</a></li>"));
    }
    s.push_str("</ul></body></html>");
    s
}

/// Decrements the live-thread count when a connection thread ends (also on panic).
struct LiveGuard(Arc<AtomicUsize>);
impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

struct FaultServer {
    addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, u32>>>,
    live: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    accepter: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl FaultServer {
    fn start() -> FaultServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(Mutex::new(HashMap::new()));
        let live = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (h, l, s) = (hits.clone(), live.clone(), stop.clone());
        let accepter = std::thread::spawn(move || {
            // Bounded: stops when asked, after a hard deadline, or after MAX_CONNECTIONS.
            let deadline = Instant::now() + Duration::from_secs(120);
            let mut accepted = 0;
            while !s.load(Ordering::SeqCst) && Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => {
                        accepted += 1;
                        if accepted > MAX_CONNECTIONS {
                            continue; // dropped: closed at once
                        }
                        l.fetch_add(1, Ordering::SeqCst);
                        let guard = LiveGuard(l.clone());
                        let hits = h.clone();
                        std::thread::spawn(move || {
                            let _guard = guard;
                            serve(stream, &hits);
                        });
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FaultServer {
            addr,
            hits,
            live,
            stop,
            accepter: Mutex::new(Some(accepter)),
        }
    }

    fn url(&self, path: &str) -> String {
        let u = url::Url::parse(&format!("http://{}{path}", self.addr)).unwrap();
        canonicalize(&u).to_string()
    }

    fn hits(&self, path: &str) -> u32 {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }

    /// Stop accepting, then wait (bounded) until every connection thread has ended.
    fn shut_down(&self) -> bool {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(a) = self.accepter.lock().unwrap().take() {
            let _ = a.join();
        }
        let deadline = Instant::now() + THREAD_LIMIT + Duration::from_secs(2);
        while Instant::now() < deadline {
            if self.live.load(Ordering::SeqCst) == 0 {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

/// Reads the request head (bounded in size and time) and returns the path.
fn read_path(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    for _ in 0..64 {
        if buf.windows(4).any(|w| w == b"\r\n\r\n") || buf.len() > 16 * 1024 {
            break;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    let line = buf.split(|b| *b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    let mut parts = line.split_whitespace();
    let _method = parts.next()?;
    parts.next().map(str::to_string)
}

fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8]) {
    let mut out = format!("HTTP/1.1 {status}\r\n");
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    let _ = stream.write_all(&bytes);
    let _ = stream.flush();
}

fn serve(mut stream: TcpStream, hits: &Mutex<HashMap<String, u32>>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
    let Some(path) = read_path(&mut stream) else {
        return;
    };
    *hits.lock().unwrap().entry(path.clone()).or_default() += 1;
    let html = [("Content-Type", "text/html; charset=utf-8")];
    match path.as_str() {
        "/" => respond(&mut stream, "200 OK", &html, start_page().as_bytes()),
        "/f/ok" => respond(&mut stream, "200 OK", &html, OK_PAGE.as_bytes()),
        "/f/after-liar" => respond(&mut stream, "200 OK", &html, AFTER_LIAR_PAGE.as_bytes()),
        "/f/slow" => {
            std::thread::sleep(SLOW);
            respond(&mut stream, "200 OK", &html, OK_PAGE.as_bytes());
        }
        "/f/reset" => {
            // Half a status line and half a header, then the connection is closed.
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/ht");
            let _ = stream.flush();
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        "/f/e500" => respond(
            &mut stream,
            "500 Internal Server Error",
            &[("Content-Type", "text/plain")],
            b"boom",
        ),
        "/f/loop-a" => respond(&mut stream, "302 Found", &[("Location", "/f/loop-b")], b""),
        "/f/loop-b" => respond(&mut stream, "302 Found", &[("Location", "/f/loop-a")], b""),
        "/f/endless" => {
            // No Content-Length: the body ends when the connection does. Streams until the
            // client hangs up, the write times out, THREAD_LIMIT passes or ENDLESS_CAP is sent.
            let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><body>";
            if stream.write_all(head).is_err() {
                return;
            }
            let chunk = "<p>永无止境 endless</p>\n".repeat(256);
            let deadline = Instant::now() + THREAD_LIMIT;
            let mut sent = 0;
            while Instant::now() < deadline && sent < ENDLESS_CAP {
                if stream.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
                sent += chunk.len();
            }
        }
        "/f/binary" => respond(
            &mut stream,
            "200 OK",
            &[("Content-Type", "text/html")],
            &binary_body(),
        ),
        "/f/liar" => respond(
            &mut stream,
            "200 OK",
            &[("Content-Type", "text/html; charset=gb2312")],
            LIAR_PAGE.as_bytes(),
        ),
        "/f/stall" => {
            // Headers and the start of the body at once, then nothing for longer than the
            // crawl's timeout.
            let body = OK_PAGE.as_bytes();
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body[..20]);
            let _ = stream.flush();
            std::thread::sleep(SLOW);
            let _ = stream.write_all(&body[20..]);
        }
        _ => respond(
            &mut stream,
            "404 Not Found",
            &[("Content-Type", "text/plain")],
            b"not here",
        ),
    }
}

/// What the one crawl left behind.
struct Outcome {
    server: FaultServer,
    _dir: tempfile::TempDir,
    ws: PathBuf,
    state: JobState,
    elapsed: Duration,
    threads_ended: bool,
}

fn outcome() -> &'static Outcome {
    static ONCE: OnceLock<Outcome> = OnceLock::new();
    ONCE.get_or_init(|| {
        let server = FaultServer::start();
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("faults.tianwang");
        Workspace::open_or_create(&ws).unwrap();
        let job = Crawl::new(CrawlParams {
            seeds: vec![format!("http://{}/", server.addr)],
            scope: Scope::Hosts,
            workers: 8,
            per_host: 4,
            timeout_ms: TIMEOUT_MS,
            connect_timeout_ms: TIMEOUT_MS,
            max_bytes: MAX_BYTES,
            retries: RETRIES,
            max_redirects: MAX_REDIRECTS,
            max_pages: Some(100),
            ..Default::default()
        })
        .unwrap();
        let runner = JobRunner::new(ws.clone(), Arc::new(|| {}));
        let started = Instant::now();
        let handle = runner.spawn(Box::new(job));
        let state = match handle.wait_timeout(CRAWL_LIMIT) {
            Some(s) => s,
            None => {
                handle.cancel();
                let _ = handle.wait_timeout(Duration::from_secs(5));
                JobState::failed(&tianwang::engine::error::EngineError::Internal(format!(
                    "crawl still running after {CRAWL_LIMIT:?}: hung"
                )))
            }
        };
        let elapsed = started.elapsed();
        let threads_ended = server.shut_down();
        Outcome {
            server,
            _dir: dir,
            ws,
            state,
            elapsed,
            threads_ended,
        }
    })
}

/// One row of the fetch log.
#[derive(Debug)]
struct FetchRow {
    final_url: Option<String>,
    status: Option<i64>,
    error_kind: Option<String>,
    error: Option<String>,
    content_type: Option<String>,
    page_id: Option<i64>,
}

fn fetch_rows(o: &Outcome, path: &str) -> Vec<FetchRow> {
    let c = rusqlite::Connection::open(&o.ws).unwrap();
    let mut st = c
        .prepare(
            "SELECT final_url, status, error_kind, error, content_type, page_id
             FROM fetches WHERE url = ?1 ORDER BY id",
        )
        .unwrap();
    st.query_map([o.server.url(path)], |r| {
        Ok(FetchRow {
            final_url: r.get(0)?,
            status: r.get(1)?,
            error_kind: r.get(2)?,
            error: r.get(3)?,
            content_type: r.get(4)?,
            page_id: r.get(5)?,
        })
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// The one fetch row of `path` (a fault is recorded exactly once, after its retries).
fn one_row(o: &Outcome, path: &str) -> FetchRow {
    let mut rows = fetch_rows(o, path);
    assert_eq!(rows.len(), 1, "{path}: fetch rows {rows:?}");
    rows.remove(0)
}

/// The raw bytes (head + body) of the latest snapshot of `path`'s page.
fn snapshot_raw(o: &Outcome, path: &str) -> Option<Vec<u8>> {
    let c = rusqlite::Connection::open(&o.ws).unwrap();
    c.query_row(
        "SELECT s.raw FROM snapshots s JOIN pages p ON p.id = s.page_id
         WHERE p.url = ?1 ORDER BY s.id DESC LIMIT 1",
        [o.server.url(path)],
        |r| r.get(0),
    )
    .ok()
}

fn done_result(o: &Outcome) -> &serde_json::Value {
    match &o.state {
        JobState::Done(v) => v,
        other => panic!("the crawl did not finish as Done: {other:?}"),
    }
}

#[test]
fn crawl_over_faults_finishes_done_and_nothing_hangs() {
    let o = outcome();
    let result = done_result(o);
    assert!(o.elapsed < CRAWL_LIMIT, "crawl took {:?}", o.elapsed);
    assert!(
        o.threads_ended,
        "a server connection thread was still running after the crawl: something kept a connection open"
    );
    // The start page, 9 fault pages and the page found through the lying one.
    assert_eq!(result["fetched"].as_u64(), Some(11), "{result}");
    assert_eq!(result["frontier_left"].as_u64(), Some(0), "{result}");
    assert_eq!(o.server.hits("/"), 1);
    assert_eq!(o.server.hits("/robots.txt"), 1);
    let job_status: String = rusqlite::Connection::open(&o.ws)
        .unwrap()
        .query_row(
            "SELECT status FROM jobs WHERE kind = 'crawl' ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(job_status, "done");
}

#[test]
fn every_fault_url_is_recorded_exactly_once() {
    let o = outcome();
    done_result(o);
    for f in FAULTS {
        let rows = fetch_rows(o, f);
        assert_eq!(rows.len(), 1, "{f}: {rows:?}");
    }
    let c = rusqlite::Connection::open(&o.ws).unwrap();
    let queued: i64 = c
        .query_row(
            "SELECT count(*) FROM frontier WHERE state = 'queued'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(queued, 0);
}

#[test]
fn slow_response_is_a_timeout_retried() {
    let o = outcome();
    let result = done_result(o);
    let r = one_row(o, "/f/slow");
    assert_eq!(r.error_kind.as_deref(), Some("timeout"), "{r:?}");
    assert_eq!(r.status, None, "{r:?}");
    assert!(r.error.is_some_and(|e| !e.is_empty()));
    assert_eq!(o.server.hits("/f/slow"), 1 + RETRIES);
    assert!(result["errors"]["timeout"].as_u64().unwrap_or(0) >= 1);
}

#[test]
fn body_stalling_past_the_timeout_is_a_timeout() {
    let o = outcome();
    done_result(o);
    let r = one_row(o, "/f/stall");
    assert_eq!(r.status, None, "{r:?}");
    assert_eq!(o.server.hits("/f/stall"), 1 + RETRIES);
    assert!(
        snapshot_raw(o, "/f/stall").is_none(),
        "a truncated body was stored"
    );
    // The headers came in time, the body did not: still a timeout, and the log says why.
    assert_eq!(r.error_kind.as_deref(), Some("timeout"), "{r:?}");
    assert!(r.error.is_some_and(|e| e.contains("timed out")));
}

#[test]
fn connection_closed_mid_headers_is_recorded_and_retried() {
    let o = outcome();
    done_result(o);
    let r = one_row(o, "/f/reset");
    let kind = r.error_kind.as_deref().unwrap_or_default();
    assert!(matches!(kind, "connect" | "body" | "request"), "{r:?}");
    assert_eq!(r.status, None, "{r:?}");
    assert!(r.error.as_deref().is_some_and(|e| !e.is_empty()), "{r:?}");
    // A dropped connection is transient: tried again like a timeout.
    assert_eq!(o.server.hits("/f/reset"), 1 + RETRIES);
}

#[test]
fn http_500_is_retried_then_recorded() {
    let o = outcome();
    let result = done_result(o);
    let r = one_row(o, "/f/e500");
    assert_eq!(r.status, Some(500), "{r:?}");
    assert_eq!(r.error_kind.as_deref(), Some("http_500"), "{r:?}");
    assert_eq!(o.server.hits("/f/e500"), 1 + RETRIES);
    assert_eq!(result["errors"]["http_500"].as_u64(), Some(1), "{result}");
    assert!(
        snapshot_raw(o, "/f/e500").is_none(),
        "an error page was stored"
    );
}

#[test]
fn redirect_loop_is_recorded_and_bounded() {
    let o = outcome();
    done_result(o);
    let r = one_row(o, "/f/loop-a");
    assert_eq!(r.error_kind.as_deref(), Some("redirect_loop"), "{r:?}");
    // 1 request + MAX_REDIRECTS redirects followed, then given up; not retried.
    let total = o.server.hits("/f/loop-a") + o.server.hits("/f/loop-b");
    assert_eq!(total, 1 + MAX_REDIRECTS as u32);
    assert!(fetch_rows(o, "/f/loop-b").is_empty());
}

#[test]
fn endless_body_is_cut_at_the_size_cap() {
    let o = outcome();
    let result = done_result(o);
    let r = one_row(o, "/f/endless");
    assert_eq!(r.error_kind.as_deref(), Some("too_large"), "{r:?}");
    assert!(r.error.is_some_and(|e| e.contains(&MAX_BYTES.to_string())));
    // Too large is not transient: asked once.
    assert_eq!(o.server.hits("/f/endless"), 1);
    assert_eq!(result["errors"]["too_large"].as_u64(), Some(1), "{result}");
    assert!(snapshot_raw(o, "/f/endless").is_none());
}

#[test]
fn binary_bytes_as_html_are_stored_byte_exact() {
    let o = outcome();
    done_result(o);
    let r = one_row(o, "/f/binary");
    assert_eq!(r.status, Some(200), "{r:?}");
    assert_eq!(r.error_kind, None, "{r:?}");
    assert_eq!(r.content_type.as_deref(), Some("text/html"));
    assert!(r.page_id.is_some());
    let raw = snapshot_raw(o, "/f/binary").expect("binary page not stored");
    assert!(raw.ends_with(&binary_body()), "raw bytes changed");
    assert_eq!(o.server.hits("/f/binary"), 1);
}

#[test]
fn lying_charset_page_is_stored_and_its_links_followed() {
    let o = outcome();
    done_result(o);
    let r = one_row(o, "/f/liar");
    assert_eq!(r.status, Some(200), "{r:?}");
    assert_eq!(r.error_kind, None, "{r:?}");
    assert_eq!(r.content_type.as_deref(), Some("text/html; charset=gb2312"));
    let raw = snapshot_raw(o, "/f/liar").expect("lying page not stored");
    // Stored as received: the UTF-8 bytes, not re-encoded through the claimed charset.
    assert!(raw.ends_with(LIAR_PAGE.as_bytes()));
    // The ASCII link survives the wrong decoding.
    let next = one_row(o, "/f/after-liar");
    assert_eq!(next.status, Some(200), "{next:?}");
    assert!(snapshot_raw(o, "/f/after-liar").is_some());
}

#[test]
fn valid_page_is_stored() {
    let o = outcome();
    let result = done_result(o);
    let r = one_row(o, "/f/ok");
    assert_eq!(r.status, Some(200), "{r:?}");
    assert_eq!(r.error_kind, None, "{r:?}");
    assert_eq!(r.final_url.as_deref(), Some(o.server.url("/f/ok").as_str()));
    let raw = snapshot_raw(o, "/f/ok").expect("valid page not stored");
    assert!(raw.starts_with(b"HTTP/1.1 200"));
    assert!(raw.ends_with(OK_PAGE.as_bytes()));
    // Start, ok, binary, liar, after-liar.
    assert_eq!(result["stored"].as_u64(), Some(5), "{result}");
}

/// A robots.txt asking `Crawl-delay: inf` once panicked the crawl (`Duration::from_secs_f32`).
/// Now the delay is bounded (60 s): the crawl keeps running, waiting politely, until cancelled.
#[test]
fn infinite_crawl_delay_is_bounded_not_a_panic() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let robots_served = Arc::new(AtomicUsize::new(0));
    let served = robots_served.clone();
    std::thread::spawn(move || {
        // Bounded: at most 8 connections, then the listener is dropped.
        for stream in listener.incoming().take(8) {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let Some(path) = read_path(&mut stream) else {
                continue;
            };
            if path == "/robots.txt" {
                served.fetch_add(1, Ordering::SeqCst);
                let body = b"User-agent: *\nCrawl-delay: inf\nDisallow: /private/\n";
                respond(
                    &mut stream,
                    "200 OK",
                    &[("Content-Type", "text/plain")],
                    body,
                );
            } else {
                respond(
                    &mut stream,
                    "200 OK",
                    &[("Content-Type", "text/html")],
                    OK_PAGE.as_bytes(),
                );
            }
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("delay.tianwang");
    Workspace::open_or_create(&ws).unwrap();
    let job = Crawl::new(CrawlParams {
        seeds: vec![format!("http://{addr}/"), format!("http://{addr}/second")],
        timeout_ms: TIMEOUT_MS,
        connect_timeout_ms: TIMEOUT_MS,
        max_pages: Some(10),
        ..Default::default()
    })
    .unwrap();
    let handle = JobRunner::new(ws, Arc::new(|| {})).spawn(Box::new(job));
    let deadline = Instant::now() + Duration::from_secs(20);
    while robots_served.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "robots.txt never asked for");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Time for the coordinator to apply the delay (where it used to panic).
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !handle.is_finished(),
        "the crawl ended early: {:?}",
        handle.snapshot().state
    );
    handle.cancel();
    let state = handle
        .wait_timeout(Duration::from_secs(20))
        .expect("cancel is honoured");
    assert_eq!(state, JobState::Cancelled);
}
