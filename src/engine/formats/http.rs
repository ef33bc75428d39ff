//! A stored HTTP response: the head and the content, with its Content-Encoding (gzip, deflate)
//! undone under a size cap. The crawler stores responses byte-exact as received
//! ([L1042–1126]); whoever reads a page back — the inspector, DocView, the labs — reads its
//! content through here.
//!
//! ```
//! use tianwang::engine::formats::http::snapshot_content;
//! let (head, body) = snapshot_content(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>");
//! assert!(head.starts_with(b"HTTP/1.1 200"));
//! assert_eq!(body, b"<p>hi</p>");
//! ```

use std::io::Read;

/// Why a body's Content-Encoding could not be undone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ContentError {
    /// The compressed data is damaged or not of the named encoding.
    #[error("cannot undo Content-Encoding {encoding:?}: {reason}")]
    Undecodable { encoding: String, reason: String },
    /// Decompressed, the body would pass the cap (a decompression bomb is aborted like any
    /// oversized body).
    #[error("decompressed body over the {max} byte cap: aborted")]
    TooLarge { max: u64 },
}

/// A stored snapshot split into its head and its content (Content-Encoding undone; an
/// undecodable body is returned as stored).
pub fn snapshot_content(raw: &[u8]) -> (&[u8], Vec<u8>) {
    let (head, body) = super::tianwang::split_http(raw).unwrap_or((&raw[..0], raw));
    let encoding = String::from_utf8_lossy(head).lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("content-encoding")
            .then(|| v.trim().to_ascii_lowercase())
    });
    let content =
        decode_content(encoding.as_deref(), body, u64::MAX / 2).unwrap_or_else(|_| body.to_vec());
    (head, content)
}

/// The Content-Type a stored response's head declares (the value after `content-type:`, any
/// case, trimmed), if it has one.
pub(crate) fn content_type(head: &[u8]) -> Option<String> {
    String::from_utf8_lossy(head)
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("content-type:"))
        .and_then(|l| l.get(13..))
        .map(|v| v.trim().to_string())
}

/// Undo a gzip or deflate Content-Encoding, capped at `max` bytes.
pub(crate) fn decode_content(
    encoding: Option<&str>,
    raw: &[u8],
    max: u64,
) -> Result<Vec<u8>, ContentError> {
    let mut out = Vec::new();
    let read = match encoding.map(str::trim) {
        Some("gzip") | Some("x-gzip") => flate2::read::MultiGzDecoder::new(raw)
            .take(max + 1)
            .read_to_end(&mut out),
        Some("deflate") => {
            // Servers send zlib-wrapped deflate (RFC 9110), a few send raw deflate.
            let r = flate2::read::ZlibDecoder::new(raw)
                .take(max + 1)
                .read_to_end(&mut out);
            if r.is_err() {
                out.clear();
                flate2::read::DeflateDecoder::new(raw)
                    .take(max + 1)
                    .read_to_end(&mut out)
            } else {
                r
            }
        }
        _ => return Ok(raw.to_vec()),
    };
    read.map_err(|e| ContentError::Undecodable {
        encoding: encoding.unwrap_or_default().to_string(),
        reason: e.to_string(),
    })?;
    if out.len() as u64 > max {
        return Err(ContentError::TooLarge { max });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn content_encodings_are_undone_with_a_cap() {
        let text = "天网".repeat(1000).into_bytes();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(decode_content(Some("gzip"), &gz, 1 << 20).unwrap(), text);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&text).unwrap();
        assert_eq!(
            decode_content(Some("deflate"), &z.finish().unwrap(), 1 << 20).unwrap(),
            text
        );
        assert_eq!(decode_content(None, &text, 1 << 20).unwrap(), text);
        assert_eq!(
            decode_content(Some("gzip"), &gz, 100).unwrap_err(),
            ContentError::TooLarge { max: 100 }
        );
        assert!(matches!(
            decode_content(Some("gzip"), b"not gzip", 100).unwrap_err(),
            ContentError::Undecodable { .. }
        ));
    }

    #[test]
    fn a_gzip_snapshot_reads_back_as_its_content() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all("<p>天网</p>".as_bytes()).unwrap();
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        raw.extend(gz.finish().unwrap());
        let (head, body) = snapshot_content(&raw);
        assert!(String::from_utf8_lossy(head).contains("Content-Encoding: gzip"));
        assert_eq!(body, "<p>天网</p>".as_bytes());
    }
}
