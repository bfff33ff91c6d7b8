//! The hand-off from the campaign to the table: a pending battle becomes a
//! scenario and a printable battle pack (briefing, table picture, results
//! sheet), and a filled results sheet is read back. Pure: the files are
//! written by `files`, the save by `store`.

pub mod briefing;
pub mod build;
pub mod calibration;
pub mod pack_pdf;
pub mod picture;
pub mod sheet;
pub mod tiles;

pub use build::{Edge, ForceEntry, Handoff, TablePlan, build};
pub use calibration::{Calibration, CalibrationRow, calibration};

use crate::model::{Battle, BattleStatus, Campaign, Prediction, RuleSetId, SideId, SidePrediction};
use crate::rules::FightError;
use crate::scenario::Scenario;

/// Battles fought for the odds kept with each battle before it is fought.
pub const PREDICTION_RUNS: u32 = 1000;

/// The engine's odds for `scenario` under its own rule set, from its seed.
pub fn predict(scenario: &Scenario) -> Result<Prediction, FightError> {
    let odds = crate::rules::odds(scenario, scenario.rules, PREDICTION_RUNS, scenario.seed)?;
    Ok(Prediction {
        rules: scenario.rules,
        runs: odds.runs,
        seed: scenario.seed,
        sides: odds
            .sides
            .iter()
            .map(|s| SidePrediction {
                side: SideId::new(&s.id),
                wins: s.wins.share,
                expected_losses: s.expected_losses,
            })
            .collect(),
        draws: odds.draws.share,
    })
}

/// Why a battle cannot be handed off or brought back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HandoffError {
    #[error("there is no battle {id} in this campaign; its battles are: {known}")]
    NoSuchBattle { id: u32, known: String },
    #[error("battle {id} at {region} was already fought (game move {turn}); `umpire log` shows its result")]
    AlreadyFought { id: u32, region: String, turn: u32 },
    #[error(
        "battle {id} at {region} (met in game move {turn}) was called off: one side had no force left there, so there is nothing to fight; `umpire log` says why"
    )]
    CalledOff { id: u32, region: String, turn: u32 },
    #[error("rule set {0} is not built yet")]
    RulesNotBuilt(RuleSetId),
    #[error("the save is inconsistent: {0}")]
    Damaged(String),
}

/// The pending battle `id`, or why not.
pub fn pending_battle(campaign: &Campaign, id: u32) -> Result<&Battle, HandoffError> {
    let Some(battle) = campaign.battles.iter().find(|b| b.id == id) else {
        let known: Vec<String> = campaign
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
            .map(|b| format!("{} at {}", b.id, campaign.map.region_name(&b.region)))
            .collect();
        let known = if known.is_empty() {
            "none pending".to_owned()
        } else {
            known.join(", ")
        };
        return Err(HandoffError::NoSuchBattle { id, known });
    };
    let region = || campaign.map.region_name(&battle.region).to_owned();
    match battle.status {
        BattleStatus::Pending => {}
        BattleStatus::Fought => {
            return Err(HandoffError::AlreadyFought {
                id,
                region: region(),
                turn: battle.turn,
            });
        }
        BattleStatus::CalledOff => {
            return Err(HandoffError::CalledOff {
                id,
                region: region(),
                turn: battle.turn,
            });
        }
    }
    Ok(battle)
}
