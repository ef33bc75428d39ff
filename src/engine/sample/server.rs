//! Serving the sample web over real HTTP on loopback, dispatching on the Host header.
//!
//! Each response carries the site's Content-Type and charset exactly as the ground truth says
//! (some GBK pages declare it only in the header, some only in `<meta>`, a few nowhere),
//! `Last-Modified` and `ETag` (a conditional request gets 304), gzip when the client asks, and
//! `robots.txt` per host. The updated edition (`--changed`) can be switched on while serving.
//! The server counts requests in flight per host, so crawler tests can check politeness.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::web::{Resource, SampleWeb};
use crate::engine::error::{EngineError, Flaw, Result};

/// Request counters.
#[derive(Debug, Default)]
pub struct ServerStats {
    pub requests: AtomicU64,
    pub not_found: AtomicU64,
    pub not_modified: AtomicU64,
    in_flight: Mutex<HashMap<String, (u32, u32)>>,
}

impl ServerStats {
    /// (host, max in flight) for every host seen.
    pub fn max_in_flight_all(&self) -> Vec<(String, u32)> {
        let mut v: Vec<_> = self.lock().iter().map(|(h, x)| (h.clone(), x.1)).collect();
        v.sort();
        v
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u32, u32)>> {
        self.in_flight.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn enter(&self, host: &str) {
        let mut g = self.lock();
        let e = g.entry(host.to_string()).or_default();
        e.0 += 1;
        e.1 = e.1.max(e.0);
    }

    fn leave(&self, host: &str) {
        if let Some(e) = self.lock().get_mut(host) {
            e.0 = e.0.saturating_sub(1);
        }
    }
}

struct Shared {
    /// Pages of the benchmark site on `bench.localhost` (0 = none).
    bench_pages: u64,
    articles: Vec<super::articles::Article>,
    original: SampleWeb,
    updated: SampleWeb,
    changed: AtomicBool,
    latency: Duration,
    link: Option<Link>,
    stats: Arc<ServerStats>,
}

/// One link shared by every connection, sending at a fixed rate: a response of n bytes takes
/// n / rate seconds of the link, after the responses queued before it. Serving at the rate of
/// a real network (the book's capacity model puts one 100 Mbit node near 4,000 pages/s
/// [L1138–L1154]) makes the bandwidth, not this machine's CPU, the ceiling of a crawl.
struct Link {
    bytes_per_s: f64,
    /// When the link has sent everything queued so far.
    free_at: Mutex<tokio::time::Instant>,
}

impl Link {
    /// Queue `bytes` on the link; the instant they have been sent.
    fn queue(&self, bytes: u64) -> tokio::time::Instant {
        let now = tokio::time::Instant::now();
        let took = Duration::from_secs_f64(bytes as f64 / self.bytes_per_s);
        let mut free = self.free_at.lock().unwrap_or_else(|e| e.into_inner());
        *free = (*free).max(now) + took;
        *free
    }
}

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Must be a loopback address; port 0 picks a free one.
    pub addr: SocketAddr,
    /// Start with the updated edition.
    pub changed: bool,
    /// Added to every response (to make concurrency visible in tests and demos).
    pub latency: Duration,
    /// Also serve a generated site of this many pages on `bench.localhost`.
    pub bench_pages: u64,
    /// Send at most this many bytes a second over all connections together, as one network
    /// link would (response bodies; 0 = as fast as the machine allows).
    pub link_bytes_per_s: u64,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            changed: false,
            latency: Duration::ZERO,
            bench_pages: 0,
            link_bytes_per_s: 0,
        }
    }
}

/// A running sample-web server (stops when dropped or on [`SampleServer::stop`]).
pub struct SampleServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for SampleServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SampleServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl SampleServer {
    /// Bind and start serving on a background thread. Refuses non-loopback addresses.
    pub fn start(opts: ServeOptions) -> Result<Self> {
        if !opts.addr.ip().is_loopback() {
            return Err(EngineError::invalid(
                "addr",
                format!(
                    "{} is not a loopback address; the sample web is served on 127.0.0.1 or [::1] only",
                    opts.addr.ip()
                ),
            ));
        }
        let listener = std::net::TcpListener::bind(opts.addr).map_err(|e| {
            let key = if e.kind() == std::io::ErrorKind::AddrInUse {
                "flaw.listen_in_use"
            } else {
                "flaw.listen_failed"
            };
            EngineError::path_flaw(opts.addr.to_string(), Flaw::with_detail(key, &[], e))
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        let shared = Arc::new(Shared {
            bench_pages: opts.bench_pages,
            articles: super::articles::all()?
                .into_iter()
                .filter(|a| !a.hant)
                .collect(),
            original: SampleWeb::build(addr.port(), false)?,
            updated: SampleWeb::build(addr.port(), true)?,
            changed: AtomicBool::new(opts.changed),
            latency: opts.latency,
            link: (opts.link_bytes_per_s > 0).then(|| Link {
                bytes_per_s: opts.link_bytes_per_s as f64,
                free_at: Mutex::new(tokio::time::Instant::now()),
            }),
            stats: Arc::new(ServerStats::default()),
        });
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("sample-web")
            .build()
            .map_err(|e| EngineError::Internal(format!("tokio runtime: {e}")))?;
        let state = shared.clone();
        let thread = std::thread::Builder::new()
            .name("sample-web".into())
            .spawn(move || {
                rt.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!("sample web: {e}");
                            return;
                        }
                    };
                    let app = axum::Router::new().fallback(handle).with_state(state);
                    let served = axum::serve(listener, app)
                        .with_graceful_shutdown(async {
                            let _ = rx.await;
                        })
                        .await;
                    if let Err(e) = served {
                        tracing::error!("sample web stopped: {e}");
                    }
                });
            })
            .map_err(|e| EngineError::Internal(format!("thread: {e}")))?;
        Ok(SampleServer {
            addr,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The web being served (the edition currently switched on).
    pub fn web(&self) -> &SampleWeb {
        if self.shared.changed.load(Ordering::Relaxed) {
            &self.shared.updated
        } else {
            &self.shared.original
        }
    }

    /// Switch between the original and the updated edition while serving.
    pub fn set_changed(&self, changed: bool) {
        self.shared.changed.store(changed, Ordering::Relaxed);
    }

    pub fn stats(&self) -> Arc<ServerStats> {
        self.shared.stats.clone()
    }

    /// Stop serving and wait for the server thread.
    pub fn stop(mut self) {
        self.shutdown_now();
    }

    fn shutdown_now(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for SampleServer {
    fn drop(&mut self) {
        self.shutdown_now();
    }
}

fn host_of(headers: &HeaderMap, uri: &axum::http::Uri) -> String {
    let raw = uri
        .host()
        .map(str::to_string)
        .or_else(|| {
            headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .map(str::to_string)
        })
        .unwrap_or_default();
    let host = if let Some(rest) = raw.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default().to_string()
    } else {
        raw.split(':').next().unwrap_or_default().to_string()
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

fn http_date(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn not_modified(headers: &HeaderMap, r: &Resource) -> bool {
    if let Some(inm) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    {
        return inm
            .split(',')
            .any(|t| t.trim() == r.etag || t.trim() == "*");
    }
    if let Some(ims) = headers
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        && let Ok(t) = chrono::DateTime::parse_from_rfc2822(ims)
    {
        return r.last_modified.timestamp() <= t.timestamp();
    }
    false
}

fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).ok()?;
    enc.finish().ok()
}

async fn handle(State(st): State<Arc<Shared>>, req: Request) -> Response {
    let host = host_of(req.headers(), req.uri());
    let path = req
        .uri()
        .path_and_query()
        .map_or("/".to_string(), |p| p.as_str().to_string());
    st.stats.requests.fetch_add(1, Ordering::Relaxed);
    st.stats.enter(&host);
    if !st.latency.is_zero() {
        tokio::time::sleep(st.latency).await;
    }
    let web = if st.changed.load(Ordering::Relaxed) {
        &st.updated
    } else {
        &st.original
    };
    let resp = if host == super::bench::HOST && st.bench_pages > 0 {
        bench_response(&st, &path)
    } else {
        respond(web, &st.stats, &host, &path, req.headers())
    };
    if let Some(link) = &st.link {
        use axum::body::HttpBody;
        let bytes = resp.body().size_hint().exact().unwrap_or(0);
        tokio::time::sleep_until(link.queue(bytes)).await;
    }
    st.stats.leave(&host);
    resp
}

fn bench_response(st: &Shared, path: &str) -> Response {
    let b = Response::builder().header(header::SERVER, "tianwang-sample/1");
    if path == "/robots.txt" {
        return b
            .header(header::CONTENT_TYPE, "text/plain")
            .body(Body::from("User-agent: *\nDisallow:\n"))
            .unwrap_or_default();
    }
    match super::bench::page(&st.articles, st.bench_pages, path) {
        Some(html) => b
            .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
            .body(Body::from(html))
            .unwrap_or_default(),
        None => {
            st.stats.not_found.fetch_add(1, Ordering::Relaxed);
            b.status(StatusCode::NOT_FOUND)
                .body(Body::empty())
                .unwrap_or_default()
        }
    }
}

fn respond(
    web: &SampleWeb,
    stats: &ServerStats,
    host: &str,
    path: &str,
    headers: &HeaderMap,
) -> Response {
    let mut b = Response::builder().header(header::SERVER, "tianwang-sample/1");
    let Some(r) = web.get(host, path) else {
        stats.not_found.fetch_add(1, Ordering::Relaxed);
        return b
            .status(StatusCode::NOT_FOUND)
            .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
            .body(Body::from(format!(
                "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>404</title></head><body><h1>404 页面不存在</h1><p>{}{}</p></body></html>",
                super::html::esc(host),
                super::html::esc(path)
            )))
            .unwrap_or_default();
    };
    b = b
        .header(header::LAST_MODIFIED, http_date(r.last_modified))
        .header(header::ETAG, r.etag.as_str());
    if let Some(loc) = &r.location {
        b = b.header(header::LOCATION, loc.as_str());
    }
    if r.status == 200 && not_modified(headers, r) {
        stats.not_modified.fetch_add(1, Ordering::Relaxed);
        return b
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
            .unwrap_or_default();
    }
    if let Some(ct) = &r.content_type
        && let Ok(v) = HeaderValue::from_str(ct)
    {
        b = b.header(header::CONTENT_TYPE, v);
    }
    let wants_gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let compressible = r
        .content_type
        .as_deref()
        .is_some_and(|c| c.starts_with("text/") || c.contains("svg"));
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::OK);
    b = b.status(status).header(header::VARY, "Accept-Encoding");
    if wants_gzip
        && compressible
        && let Some(z) = gzip(&r.body)
    {
        return b
            .header(header::CONTENT_ENCODING, "gzip")
            .body(Body::from(z))
            .unwrap_or_default();
    }
    b.body(Body::from(r.body.clone())).unwrap_or_default()
}
