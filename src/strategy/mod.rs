//! The strategic layer: orders and the game move.
//!
//! Pure: takes the campaign and orders, returns the new campaign and the
//! events; the store persists them. No SQL, no egui, no file I/O, no panics.

pub mod aftermath;
mod arrivals;
pub mod edit;
pub mod end;
pub mod fog;
pub mod forecast;
mod hands;
mod index;
pub mod map_sheet;
pub mod movement;
pub mod orders;
pub mod supply;
pub mod transport;
pub mod turn;

pub use forecast::{MarchForecast, SupplyLine, journey_forecast, march_forecast, supply_lines};
pub use index::MapIndex;
pub use orders::{
    Action, Order, OrderProblem, OrderRequest, OrderSet, Part, check_leaving_out, check_requests,
    read_orders_file, write_orders_file,
};
pub use turn::{TurnOutcome, resolve};

/// The battles pending in `campaign`, one sentence each: "battle 1 at Beni
/// Suef (since game move 4): Army of the Rebellion attacking British Field
/// Force". What `umpire turn` and the window's End turn warn of. With a
/// `viewer`, only the battles that side is in, as its status shows them.
pub fn pending_battles_text(
    campaign: &crate::model::Campaign,
    viewer: Option<&crate::model::SideId>,
) -> Vec<String> {
    let side = |id: &crate::model::SideId| {
        campaign
            .side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    };
    campaign
        .battles
        .iter()
        .filter(|b| b.status == crate::model::BattleStatus::Pending)
        .filter(|b| {
            viewer.is_none_or(|v| {
                &b.attacker == v
                    || &b.defender == v
                    || b.forces
                        .iter()
                        .any(|f| campaign.force(f).is_some_and(|f| &f.side == v))
            })
        })
        .map(|b| {
            format!(
                "battle {} at {} (since game move {}): {} attacking {}",
                b.id,
                campaign.map.region_name(&b.region),
                b.turn,
                side(&b.attacker),
                side(&b.defender)
            )
        })
        .collect()
}
