//! The hand-off from the campaign to the table: a pending battle becomes a
//! scenario and a printable battle pack (briefing, table picture, results
//! sheet), and a filled results sheet is read back. Pure: the files are
//! written by `files`.
pub mod picture;
