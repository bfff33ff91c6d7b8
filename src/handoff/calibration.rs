//! Predicted against actual: how the engine's odds before each battle
//! compare with how the battles came out, per rule set and per source (the
//! engine or the table).

use crate::model::{BattleStatus, Campaign, ResultSource, RuleSetId};
use serde::Serialize;

/// One row of the calibration: a rule set, fought by the engine or on the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationRow {
    pub rules: RuleSetId,
    /// "engine" or "table".
    pub source: &'static str,
    /// Battles fought with odds computed beforehand.
    pub battles: u32,
    /// Of those, how many had a favourite (a side likelier to win than the other and a draw).
    pub with_favourite: u32,
    /// How many times the favourite won.
    pub favourite_won: u32,
    /// Points lost in all, as the odds expected and as it came out.
    pub expected_losses: f64,
    pub actual_losses: u64,
}

impl CalibrationRow {
    /// Share of battles with a favourite that it won; `None` with none.
    pub fn favourite_share(&self) -> Option<f64> {
        (self.with_favourite > 0).then(|| f64::from(self.favourite_won) / f64::from(self.with_favourite))
    }

    /// Actual losses over expected; `None` when nothing was expected.
    pub fn loss_ratio(&self) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)]
        let actual = self.actual_losses as f64;
        (self.expected_losses > 0.0).then(|| actual / self.expected_losses)
    }
}

/// The campaign's calibration, and the fought battles that had no odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    pub rows: Vec<CalibrationRow>,
    pub fought: u32,
    pub without_odds: u32,
}

/// Predicted against actual over every fought battle of `campaign`.
pub fn calibration(campaign: &Campaign) -> Calibration {
    let mut rows: Vec<CalibrationRow> = Vec::new();
    let mut fought = 0;
    let mut without_odds = 0;
    for battle in campaign
        .battles
        .iter()
        .filter(|b| b.status == BattleStatus::Fought)
    {
        fought += 1;
        let Some(result) = &battle.record.result else {
            continue;
        };
        let Some(prediction) = battle
            .record
            .prediction
            .as_ref()
            .filter(|p| p.rules == result.rules)
        else {
            without_odds += 1;
            continue;
        };
        let source = match result.source {
            ResultSource::Engine { .. } => "engine",
            ResultSource::Table { .. } => "table",
        };
        let row = match rows
            .iter_mut()
            .position(|r| r.rules == result.rules && r.source == source)
        {
            Some(i) => rows.get_mut(i),
            None => {
                rows.push(CalibrationRow {
                    rules: result.rules,
                    source,
                    battles: 0,
                    with_favourite: 0,
                    favourite_won: 0,
                    expected_losses: 0.0,
                    actual_losses: 0,
                });
                rows.last_mut()
            }
        };
        let Some(row) = row else { continue };
        row.battles += 1;
        if let Some(favourite) = prediction.favourite() {
            row.with_favourite += 1;
            if result.winner.as_ref() == Some(favourite) {
                row.favourite_won += 1;
            }
        }
        row.expected_losses += prediction.sides.iter().map(|s| s.expected_losses).sum::<f64>();
        row.actual_losses += result.losses.iter().map(|l| l.points).sum::<u64>();
    }
    rows.sort_by(|a, b| (a.rules.as_str(), a.source).cmp(&(b.rules.as_str(), b.source)));
    Calibration {
        rows,
        fought,
        without_odds,
    }
}
