//! A data-set mirror on loopback for the tests of `tianwang data fetch --mirror`: files served
//! as `BASE/<set>/<path>` (with HTTP `Range: bytes=N-` answered by 206), a 404 for anything
//! else, and a stalling mode that accepts and never answers (the client's timeout).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A running mirror; it serves until the test process ends.
pub struct Mirror {
    pub base: String,
    files: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    stall: Arc<AtomicBool>,
    /// Requests that carried a `Range` header.
    pub ranged: Arc<AtomicUsize>,
}

impl Mirror {
    /// A mirror of the sets `names` of the manifest, read from the data folder `data`.
    pub fn of_sets(data: &Path, names: &[&str]) -> Mirror {
        let mut files = HashMap::new();
        for s in &tianwang::engine::data::manifest::get().sets {
            if !names.contains(&s.name.as_str()) {
                continue;
            }
            for f in &s.files {
                let bytes = std::fs::read(s.file_in(data, f)).expect("a set's file to serve");
                files.insert(format!("/{}/{}", s.name, f.path), bytes);
            }
        }
        Mirror::serve(files)
    }

    fn serve(files: HashMap<String, Vec<u8>>) -> Mirror {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let files = Arc::new(Mutex::new(files));
        let stall = Arc::new(AtomicBool::new(false));
        let ranged = Arc::new(AtomicUsize::new(0));
        let (f, s, r) = (files.clone(), stall.clone(), ranged.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let (f, s, r) = (f.clone(), s.clone(), r.clone());
                std::thread::spawn(move || answer(conn, &f, &s, &r));
            }
        });
        Mirror {
            base,
            files,
            stall,
            ranged,
        }
    }

    /// Replace the bytes served at `/<set>/<path>`.
    pub fn put(&self, set: &str, path: &str, bytes: Vec<u8>) {
        self.files
            .lock()
            .unwrap()
            .insert(format!("/{set}/{path}"), bytes);
    }

    /// Serve nothing at `/<set>/<path>` (404).
    pub fn remove(&self, set: &str, path: &str) {
        self.files.lock().unwrap().remove(&format!("/{set}/{path}"));
    }

    /// Accept connections and never answer.
    pub fn stall(&self, on: bool) {
        self.stall.store(on, Ordering::SeqCst);
    }
}

fn answer(
    mut conn: TcpStream,
    files: &Mutex<HashMap<String, Vec<u8>>>,
    stall: &AtomicBool,
    ranged: &AtomicUsize,
) {
    let mut reader = BufReader::new(conn.try_clone().expect("clone"));
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut from = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        let lower = h.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("range: bytes=") {
            ranged.fetch_add(1, Ordering::SeqCst);
            from = v.trim().trim_end_matches('-').parse().unwrap_or(0);
        }
    }
    if stall.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_secs(30));
        return;
    }
    let body = files.lock().unwrap().get(&path).cloned();
    let _ = match body {
        None => conn.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found",
        ),
        Some(b) if from > 0 && from < b.len() => {
            let rest = &b[from..];
            let head = format!(
                "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\nContent-Range: bytes {}-{}/{}\r\nConnection: close\r\n\r\n",
                rest.len(),
                from,
                b.len() - 1,
                b.len()
            );
            conn.write_all(head.as_bytes())
                .and_then(|_| conn.write_all(rest))
        }
        Some(b) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                b.len()
            );
            conn.write_all(head.as_bytes())
                .and_then(|_| conn.write_all(&b))
        }
    };
}
