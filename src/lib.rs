//! umpire: the campaign umpire for model-soldier wargames.
//!
//! See `ARCHITECTURE.md` for the bird's-eye view. The layers, one way only:
//! `model` (pure) <- `store` (the only SQLite code) and `files` (the only
//! code that reads campaign and map files) <- `ui` (the desktop app, the only
//! egui code) and the binary's `cli`.
//! `export` writes pages to read (a side's report as HTML with an SVG map),
//! pure like `model`: it returns text and writes no file.

pub mod ai;
pub mod desk;
pub mod export;
pub mod files;
pub mod handoff;
pub mod map_tools;
pub mod model;
pub mod proving;
pub mod rules;
pub mod scenario;
pub mod serve;
pub mod store;
pub mod strategy;
pub mod tournament;
pub mod ui;
