//! The inverted index, book ch. 8 [L2700–L2780] and §5.4: what a search engine builds from its
//! pages. So far the first stage: `codec`, the posting-list compression of §8.3.1 (d-gaps and
//! every integer code the book and its sources name, compared on the same postings); and
//! `perfmodel`, §8.4's model of what response time and throughput an inverted file allows.
//!
//! ```
//! use tianwang::engine::index::codec::{Codec, encode};
//! let e = encode(Codec::VByte, &[1, 200], None).unwrap();
//! assert_eq!(e.bytes.len(), 3);
//! ```

pub mod codec;
pub mod perfmodel;
