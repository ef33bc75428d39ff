//! The sample web over real HTTP: `tianwang serve-sample --json` is started as a process, and a
//! small independent crawler (not the workbench's) walks it from the seeds, checking what a
//! client sees against `tianwang sample truth`.

mod common;

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Stdio};

use common::bin;

struct Server {
    child: Child,
    addr: SocketAddr,
    first_line: serde_json::Value,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(extra: &[&str]) -> Server {
    let mut child = bin()
        .arg("serve-sample")
        .arg("--json")
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start serve-sample");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("first line");
    let first_line: serde_json::Value = serde_json::from_str(&line).expect("first line is JSON");
    let addr = first_line["addr"]
        .as_str()
        .expect("addr")
        .parse()
        .expect("socket addr");
    Server {
        child,
        addr,
        first_line,
    }
}

fn client(server: &Server, redirects: bool) -> reqwest::blocking::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut b = reqwest::blocking::Client::builder()
        .no_proxy()
        // See the raw Content-Encoding (this client decompresses nothing by itself).
        .no_gzip()
        .no_deflate()
        .redirect(if redirects {
            reqwest::redirect::Policy::limited(5)
        } else {
            reqwest::redirect::Policy::none()
        });
    for h in server.first_line["sites"].as_array().expect("sites") {
        b = b.resolve(h.as_str().expect("host"), server.addr);
    }
    b.build().expect("client")
}

fn truth(port: u16, changed: bool) -> serde_json::Value {
    let mut args = vec![
        "sample".to_string(),
        "truth".into(),
        "--port".into(),
        port.to_string(),
    ];
    if changed {
        args.push("--changed".into());
    }
    let out = bin().args(&args).output().expect("truth");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).expect("truth is JSON")
}

/// `href="…"` values (the crawler's own, simple extraction).
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(|s| s.replace("&amp;", "&"))
        .collect()
}

fn disallowed(robots: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut for_us = false;
    for line in robots.lines() {
        let (k, v) = line
            .split_once(':')
            .map(|(k, v)| (k.trim().to_lowercase(), v.trim()))
            .unwrap_or_default();
        if k == "user-agent" {
            for_us = v == "*";
        } else if k == "disallow" && for_us && !v.is_empty() {
            out.push(v.to_string());
        }
    }
    out
}

#[test]
fn an_independent_crawler_reaches_the_whole_web() {
    let server = serve(&[]);
    let port = server.addr.port();
    let c = client(&server, true);
    let t = truth(port, false);
    assert_eq!(server.first_line["seeds"], t["seeds"]);
    assert_eq!(
        server.first_line["pages"],
        t["pages"].as_array().unwrap().len()
    );

    let mut robots: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut queue: VecDeque<String> = t["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut html_pages: BTreeMap<String, usize> = BTreeMap::new();
    let mut fetched_urls = HashSet::new();
    let mut not_found = Vec::new();
    while let Some(u) = queue.pop_front() {
        let url = url::Url::parse(&u).unwrap();
        let host = url.host_str().unwrap().to_string();
        let rules = robots.entry(host.clone()).or_insert_with(|| {
            let r = c
                .get(format!("http://{host}:{port}/robots.txt"))
                .send()
                .unwrap();
            assert_eq!(r.status(), 200, "robots.txt of {host}");
            disallowed(&r.text().unwrap())
        });
        if rules.iter().any(|d| url.path().starts_with(d.as_str())) {
            continue;
        }
        let r = c.get(url.clone()).send().unwrap();
        if r.status() == 404 {
            not_found.push(u.clone());
            continue;
        }
        assert_eq!(r.status(), 200, "{u}");
        let final_url = r.url().to_string();
        let is_html = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/html"));
        let bytes = r.bytes().unwrap();
        if !is_html || !fetched_urls.insert(final_url.clone()) {
            continue;
        }
        *html_pages.entry(host.clone()).or_default() += 1;
        // Links are ASCII in every encoding used here.
        let text = String::from_utf8_lossy(&bytes);
        let base = url::Url::parse(&final_url).unwrap();
        for h in hrefs(&text) {
            if let Ok(mut next) = base.join(&h) {
                next.set_fragment(None);
                if next.host_str().is_some_and(|h| h.ends_with(".localhost"))
                    && seen.insert(next.to_string())
                {
                    queue.push_back(next.to_string());
                }
            }
        }
    }
    let total: usize = html_pages.values().sum();
    assert!(total >= 400, "{total} pages: {html_pages:?}");
    assert!(html_pages.len() >= 6, "{html_pages:?}");
    // Every page of the truth was reached, the 404s were the intended ones, and nothing
    // robots.txt disallows was fetched.
    for p in t["pages"].as_array().unwrap() {
        assert!(
            fetched_urls.contains(p["url"].as_str().unwrap()),
            "not reached: {}",
            p["url"]
        );
    }
    let broken: HashSet<&str> = t["broken_links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for u in &not_found {
        assert!(broken.contains(u.as_str()), "unexpected 404: {u}");
    }
    for d in t["robots_disallowed"].as_array().unwrap() {
        assert!(
            !fetched_urls.contains(d.as_str().unwrap()),
            "fetched disallowed {d}"
        );
    }
}

#[test]
fn encodings_headers_and_http_features() {
    let server = serve(&[]);
    let port = server.addr.port();
    let c = client(&server, false);
    let t = truth(port, false);
    let pages = t["pages"].as_array().unwrap();

    // GBK pages are byte-exact GBK, Big5 pages Big5; the header says what the truth says.
    for p in pages.iter().filter(|p| p["encoding"] != "utf-8") {
        let r = c.get(p["url"].as_str().unwrap()).send().unwrap();
        let ct = r.headers()["content-type"].to_str().unwrap().to_string();
        let bytes = r.bytes().unwrap();
        let enc = if p["encoding"] == "gbk" {
            encoding_rs::GBK
        } else {
            encoding_rs::BIG5
        };
        let (text, _, errors) = enc.decode(&bytes);
        assert!(
            !errors && std::str::from_utf8(&bytes).is_err(),
            "{}",
            p["url"]
        );
        let (round, _, _) = enc.encode(&text);
        assert_eq!(
            &round[..],
            &bytes[..],
            "{} is not byte-exact {}",
            p["url"],
            p["encoding"]
        );
        let declared = p["charset_declared"].as_str().unwrap();
        assert_eq!(
            ct.contains("charset"),
            declared == "header" || declared == "both",
            "{}: {ct}",
            p["url"]
        );
        let first_line = p["body"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap_or_default();
        assert!(text.contains(first_line), "{}", p["url"]);
    }
    assert!(pages.iter().any(|p| p["encoding"] == "big5"));

    // The redirect chain: 301 → 302 → 200.
    let red = &t["redirects"][0];
    let mut u = red["from"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for _ in 0..5 {
        let r = c.get(&u).send().unwrap();
        statuses.push(r.status().as_u16());
        match r.headers().get("location") {
            Some(l) => {
                u = url::Url::parse(&u)
                    .unwrap()
                    .join(l.to_str().unwrap())
                    .unwrap()
                    .to_string()
            }
            None => break,
        }
    }
    assert_eq!(statuses, [301, 302, 200]);

    // Conditional GET: 304 by ETag and by Last-Modified; gzip when asked.
    let home = t["seeds"][0].as_str().unwrap();
    let r = c.get(home).send().unwrap();
    let etag = r.headers()["etag"].to_str().unwrap().to_string();
    let lm = r.headers()["last-modified"].to_str().unwrap().to_string();
    let plain = r.bytes().unwrap();
    assert_eq!(
        c.get(home)
            .header("If-None-Match", &etag)
            .send()
            .unwrap()
            .status(),
        304
    );
    assert_eq!(
        c.get(home)
            .header("If-Modified-Since", &lm)
            .send()
            .unwrap()
            .status(),
        304
    );
    let r = c
        .get(home)
        .header("Accept-Encoding", "gzip")
        .send()
        .unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&r.bytes().unwrap()[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain);

    // Unknown paths are 404; the same path differs by Host.
    assert_eq!(
        c.get(format!("http://www.kuaixun.localhost:{port}/nope"))
            .send()
            .unwrap()
            .status(),
        404
    );
    let a = c
        .get(format!("http://www.kuaixun.localhost:{port}/"))
        .send()
        .unwrap()
        .bytes()
        .unwrap();
    let b = c
        .get(format!("http://www.wenhua.localhost:{port}/"))
        .send()
        .unwrap()
        .bytes()
        .unwrap();
    assert_ne!(a, b);
}

#[test]
fn the_changed_edition_serves_updated_articles() {
    let server = serve(&["--changed"]);
    let port = server.addr.port();
    let c = client(&server, false);
    let t = truth(port, true);
    let original = truth(port, false);
    assert_eq!(t["edition_changed"], true);
    for u in t["changed"].as_array().unwrap() {
        let u = u.as_str().unwrap();
        let body = |tr: &serde_json::Value| {
            tr["pages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["url"] == u)
                .unwrap()["body"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let (new, old) = (body(&t), body(&original));
        assert_ne!(new, old);
        let bytes = c.get(u).send().unwrap().bytes().unwrap();
        let text = if u.contains("jiangnan") {
            encoding_rs::GBK.decode(&bytes).0.into_owned()
        } else {
            String::from_utf8(bytes.to_vec()).unwrap()
        };
        assert!(
            text.contains(new.lines().last().unwrap()),
            "{u} serves the old edition"
        );
    }
}

#[test]
fn truth_has_the_documented_shape() {
    let out = bin().args(["sample", "truth"]).output().unwrap();
    assert!(out.status.success());
    let t: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in ["seeds", "pages", "relations", "robots_disallowed"] {
        assert!(t[k].is_array(), "{k}");
    }
    let p = &t["pages"][0];
    for k in [
        "url", "site", "type", "category", "title", "author", "date", "body", "encoding", "links",
    ] {
        assert!(!p[k].is_null(), "page field {k}");
    }
    let kinds: HashSet<&str> = t["relations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        HashSet::from(["exact", "near", "contains", "mirror"])
    );
    assert!(t["relations"].as_array().unwrap().len() >= 60);
    assert!(
        t["seeds"][0]
            .as_str()
            .unwrap()
            .starts_with("http://www.huaxia.localhost/")
    );
    // Not loopback: refused with exit 2.
    let out = bin()
        .args(["serve-sample", "--addr", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("loopback"));
}
