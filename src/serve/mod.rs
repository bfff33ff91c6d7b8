//! The only network code: the window's client of `umpire serve`, and the
//! server's reminders.

pub mod client;
pub mod remind;
