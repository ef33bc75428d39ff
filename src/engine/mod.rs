//! The search engine: pure data in, data out. Nothing here knows about the GUI toolkit or file
//! dialogs (a test fails if it does); the GUI in `src/ui` and the CLI in `src/cli.rs` are two views of
//! the same engine. Each module answers one question — see ARCHITECTURE.md.

pub mod archive;
pub mod calibrate;
pub mod capacity;
pub mod classify;
pub mod crawl;
pub mod docview;
pub mod error;
pub mod export;
pub mod formats;
pub mod inspect;
pub mod jobs;
pub mod rank;
pub mod sample;
pub mod store;
pub mod text;
pub mod urls;
