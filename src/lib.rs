//! Tianwang Workbench (天网工作台): a desktop lab that wraps a complete search engine, after the
//! textbook 《搜索引擎——原理、技术与系统》 (Li, Yan, Wang). `engine` is the search engine (no GUI);
//! `workbench` is the composition root that knows every lab; `ui` is the egui app; `cli` is the
//! command line. See ARCHITECTURE.md.

pub mod cli;
pub mod engine;
pub mod ui;
pub mod workbench;
