//! One fetch: an HTTP GET with the crawler's limits (timeouts, at most N redirects with the
//! origin kept [L1070], a size cap [L1372]), the raw response kept byte-exact, every failure
//! classified into an error kind. `*.localhost` resolves to loopback (RFC 6761).
//!
//! The client is reqwest's async one: the gatherers are tasks on a small tokio runtime
//! ([`super::gather`]), so a request is driven by the thread that asked for it — no hop to a
//! client thread and back per request, as reqwest's blocking client makes.
//!
//! ```ignore
//! let client = client(&limits, resolver, 32)?; // inside the runtime
//! let page = fetch(&client, "http://bench.localhost:8080/", &limits, None, None).await?;
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The crawler's DNS: `localhost` and `*.localhost` resolve to loopback (RFC 6761); other names
/// through the system, cached for the crawl — the book's DNS cache [L1011–1012], with hit and
/// miss counts.
#[derive(Debug, Default)]
pub(crate) struct Resolver {
    cache: Arc<std::sync::Mutex<std::collections::HashMap<String, Vec<SocketAddr>>>>,
    pub hits: std::sync::atomic::AtomicU64,
    pub misses: std::sync::atomic::AtomicU64,
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        use std::sync::atomic::Ordering::Relaxed;
        let host = name.as_str().trim_end_matches('.').to_ascii_lowercase();
        let cached = self.cache.lock().ok().and_then(|c| c.get(&host).cloned());
        if let Some(addrs) = cached {
            self.hits.fetch_add(1, Relaxed);
            return Box::pin(async move {
                let it: reqwest::dns::Addrs = Box::new(addrs.into_iter());
                Ok(it)
            });
        }
        self.misses.fetch_add(1, Relaxed);
        let found: Vec<SocketAddr> = if crate::engine::urls::is_loopback_host(&host) {
            vec![SocketAddr::from(([127, 0, 0, 1], 0))]
        } else {
            Vec::new()
        };
        if !found.is_empty() {
            if let Ok(mut c) = self.cache.lock() {
                c.insert(host, found.clone());
            }
            return Box::pin(async move {
                let it: reqwest::dns::Addrs = Box::new(found.into_iter());
                Ok(it)
            });
        }
        let cache = self.cache.clone();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if let Ok(mut c) = cache.lock() {
                c.insert(host, found.clone());
            }
            let it: reqwest::dns::Addrs = Box::new(found.into_iter());
            Ok(it)
        })
    }
}

/// Limits of one fetch.
#[derive(Debug, Clone)]
pub(crate) struct FetchLimits {
    pub connect_timeout: Duration,
    pub timeout: Duration,
    pub max_redirects: usize,
    pub max_bytes: u64,
    pub user_agent: String,
}

/// What came back.
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    /// The URL finally answered (after redirects).
    pub final_url: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Status line + headers + blank line, as received (header names as the HTTP library
    /// gives them: lower case).
    pub head: Vec<u8>,
    /// The request as sent: request line and the headers we set (reqwest adds `accept: */*`).
    pub request: String,
    /// The body byte-exact as received (still compressed when the server compressed it).
    pub raw_body: Vec<u8>,
    /// The content: `raw_body` with any gzip/deflate Content-Encoding undone.
    pub body: Vec<u8>,
    pub ip: Option<String>,
    pub elapsed: Duration,
    /// Out-links, parsed by the worker (HTML parsing is the costly part: it runs in parallel).
    pub links: Option<Vec<url::Url>>,
    /// MD5 of `body`, computed by the worker (off the coordinator's path).
    pub md5: Option<[u8; 16]>,
}

/// Why a fetch failed. `kind` is a short stable name (timeout, connect, too_large …).
#[derive(Debug, Clone)]
pub(crate) struct FetchError {
    pub kind: &'static str,
    pub message: String,
    /// Worth trying again later (timeouts, resets, 5xx are decided by the caller).
    pub transient: bool,
}

/// The crawler's HTTP client; `idle_per_host`: connections kept open per host between
/// requests (at least the requests in flight to one host, so none is closed and re-opened).
pub(crate) fn client(
    limits: &FetchLimits,
    resolver: Arc<Resolver>,
    idle_per_host: usize,
) -> Result<reqwest::Client, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .user_agent(limits.user_agent.clone())
        .connect_timeout(limits.connect_timeout)
        .timeout(limits.timeout)
        .redirect(reqwest::redirect::Policy::limited(limits.max_redirects))
        .dns_resolver(resolver)
        .no_proxy()
        // Compressed bodies are kept as received (byte-exact) and decoded here, not by reqwest.
        .no_gzip()
        .no_deflate()
        .pool_max_idle_per_host(idle_per_host.max(1))
        .build()
        .map_err(|e| e.to_string())
}

fn classify(e: &reqwest::Error) -> FetchError {
    let (kind, transient) = if e.is_timeout() {
        ("timeout", true)
    } else if e.is_redirect() {
        ("redirect_loop", false)
    } else if e.is_connect() {
        ("connect", true)
    } else if e.is_body() || e.is_decode() {
        ("body", true)
    } else if e.is_request() {
        ("request", true)
    } else {
        ("http", false)
    };
    let mut message = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        message.push_str(": ");
        message.push_str(&s.to_string());
        src = s.source();
    }
    FetchError {
        kind,
        message,
        transient,
    }
}

/// GET `url` (with conditional headers when re-crawling).
pub(crate) async fn fetch(
    client: &reqwest::Client,
    url: &str,
    limits: &FetchLimits,
    if_none_match: Option<&str>,
    if_modified_since: Option<&str>,
) -> Result<Fetched, FetchError> {
    let started = Instant::now();
    let mut req = client.get(url).header("Accept-Encoding", "gzip, deflate");
    let mut request = match url::Url::parse(url) {
        Ok(u) => format!(
            "GET {}{} HTTP/1.1\r\nHost: {}\r\nUser-Agent: {}\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate\r\n",
            u.path(),
            u.query().map(|q| format!("?{q}")).unwrap_or_default(),
            u.host_str().unwrap_or_default(),
            limits.user_agent
        ),
        Err(_) => format!("GET {url} HTTP/1.1\r\n"),
    };
    if let Some(v) = if_none_match {
        request.push_str(&format!("If-None-Match: {v}\r\n"));
    }
    if let Some(v) = if_modified_since {
        request.push_str(&format!("If-Modified-Since: {v}\r\n"));
    }
    if let Some(v) = if_none_match {
        req = req.header("If-None-Match", v);
    }
    if let Some(v) = if_modified_since {
        req = req.header("If-Modified-Since", v);
    }
    let mut resp = req.send().await.map_err(|e| classify(&e))?;
    let status = resp.status().as_u16();
    let final_url = resp.url().to_string();
    let ip = resp.remote_addr().map(|a| a.ip().to_string());
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let content_type = header("content-type");
    let etag = header("etag");
    let last_modified = header("last-modified");
    let mut head = format!("HTTP/1.1 {}\r\n", resp.status()).into_bytes();
    for (k, v) in resp.headers() {
        head.extend_from_slice(k.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(v.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    if resp.content_length().is_some_and(|n| n > limits.max_bytes) {
        return Err(FetchError {
            kind: "too_large",
            message: format!("Content-Length over the {} byte cap", limits.max_bytes),
            transient: false,
        });
    }
    let content_encoding = header("content-encoding").map(|v| v.to_ascii_lowercase());
    let mut body = Vec::with_capacity(resp.content_length().unwrap_or(0) as usize);
    // The client's total timeout covers the body too: a stalled body is a timeout.
    while let Some(chunk) = resp.chunk().await.map_err(|e| FetchError {
        kind: if e.is_timeout() { "timeout" } else { "body" },
        ..classify(&e)
    })? {
        body.extend_from_slice(&chunk);
        if body.len() as u64 > limits.max_bytes {
            return Err(FetchError {
                kind: "too_large",
                message: format!("body over the {} byte cap: aborted", limits.max_bytes),
                transient: false,
            });
        }
    }
    let raw_body = body;
    let body = decode_content(content_encoding.as_deref(), &raw_body, limits.max_bytes)?;
    Ok(Fetched {
        final_url,
        status,
        content_type,
        etag,
        last_modified,
        head,
        request,
        raw_body,
        body,
        ip,
        elapsed: started.elapsed(),
        links: None,
        md5: None,
    })
}

/// Undo a gzip or deflate Content-Encoding, capped at `max` bytes, as a fetch error.
fn decode_content(encoding: Option<&str>, raw: &[u8], max: u64) -> Result<Vec<u8>, FetchError> {
    use crate::engine::formats::http::{ContentError, decode_content};
    decode_content(encoding, raw, max).map_err(|e| FetchError {
        kind: match e {
            ContentError::Undecodable { .. } => "decode",
            ContentError::TooLarge { .. } => "too_large",
        },
        message: e.to_string(),
        transient: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_content_encoding_error_is_a_fetch_error_of_its_kind() {
        let text = "天网".repeat(1000).into_bytes();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &text).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(decode_content(Some("gzip"), &gz, 1 << 20).unwrap(), text);
        assert_eq!(
            decode_content(Some("gzip"), &gz, 100).unwrap_err().kind,
            "too_large"
        );
        assert_eq!(
            decode_content(Some("gzip"), b"not gzip", 100)
                .unwrap_err()
                .kind,
            "decode"
        );
    }
}
