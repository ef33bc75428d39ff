//! Text: which encoding a page is in ([`encoding`]), how Chinese text is cut into words
//! ([`segment`]), and how close an extracted text is to the truth ([`metric`]). The DocView
//! cleaner ([`crate::engine::docview`]) builds on all three.

pub mod encoding;
pub mod metric;
pub mod segment;
pub mod stopwords;
pub mod t2s;
