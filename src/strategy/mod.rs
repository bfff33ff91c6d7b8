//! The strategic layer: orders and the game move.
//!
//! Pure: takes the campaign and orders, returns the new campaign and the
//! events; the store persists them. No SQL, no egui, no file I/O, no panics.

pub mod aftermath;
pub mod edit;
pub mod fog;
pub mod forecast;
mod hands;
mod index;
pub mod movement;
pub mod orders;
pub mod supply;
pub mod turn;

pub use forecast::{MarchForecast, SupplyLine, march_forecast, supply_lines};
pub use index::MapIndex;
pub use orders::{
    Action, Order, OrderProblem, OrderRequest, OrderSet, Part, check_requests, read_orders_file,
    write_orders_file,
};
pub use turn::{TurnOutcome, resolve};
