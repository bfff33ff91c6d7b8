//! Map tools: maps made from other data rather than written by hand.
//! `generate` makes a random map (`umpire map generate`); `import` reads
//! GeoJSON (`umpire map import`). Both are pure: they return a [`Map`](crate::model::Map)
//! that the command line writes with [`map_file_text`](crate::model::map_file::map_file_text)
//! after checking it as `umpire check` would.

pub mod generate;
pub mod import;
