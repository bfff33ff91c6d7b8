//! The only network code: the window's client of `umpire serve`.

pub mod client;
