//! The campaign's end by the rules: the campaign file's conditions checked
//! at the end of every game move (`turn::resolve`), the umpire's
//! declaration with the pencil (`edit`), and the one guard every change by
//! the rules passes (`still_open`: orders given and game moves resolved, in
//! `desk`, so the CLI and the window refuse alike).
//!
//! Pure. The end is kept in `Campaign::end`, so undoing the game move (or
//! the pencil's edit) that ended the campaign takes the end back.

use crate::model::end::{AllHqs, EndReason, Ended, Standing};
use crate::model::{Campaign, EventKind};

/// Why a change by the rules was refused: the campaign has ended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CampaignOver(pub String);

/// The one guard: `Ok` while the campaign takes orders and game moves;
/// after its end, the refusal saying when, why and what the umpire can do.
pub fn still_open(campaign: &Campaign) -> Result<(), CampaignOver> {
    match &campaign.end.ended {
        None => Ok(()),
        Some(ended) => Err(CampaignOver(ended.refusal(campaign))),
    }
}

/// Checks the end conditions as game move `turn` leaves `state` (before the
/// game move's number moves on). When one is met, the end is kept in
/// `state.end.ended` and the `campaign_ended` event comes back with its
/// sentence. Conditions are looked at in this order, the first met named:
/// all HQs held, a side below its share of points, the last game move, the
/// last date (this program's choice: the decisive outcome before the clock).
pub fn after_move(state: &mut Campaign, turn: u32) -> Option<(EventKind, String)> {
    if state.end.ended.is_some() {
        return None;
    }
    let why = condition_met(state, turn)?;
    Some(end_with(state, turn, why))
}

/// The umpire's declaration with the pencil, at the current game move, for
/// `reason`; refused when the campaign has ended already.
pub fn declare(state: &mut Campaign, reason: &str) -> Result<(EventKind, String), String> {
    if let Some(ended) = &state.end.ended {
        return Err(format!(
            "the campaign ended {} already: {}. Undo that first to end it otherwise",
            ended.when_text(),
            ended.why_text(state)
        ));
    }
    let why = EndReason::Declared {
        reason: reason.trim().to_owned(),
    };
    Ok(end_with(state, state.turn, why))
}

fn end_with(state: &mut Campaign, turn: u32, why: EndReason) -> (EventKind, String) {
    let ended = Ended {
        turn,
        why,
        standing: Standing::of(state),
    };
    let sentence = ended.sentence(state);
    state.end.ended = Some(ended.clone());
    (EventKind::CampaignEnded(ended), sentence)
}

/// After a battle's result or an umpire's edit made once the campaign has
/// ended: the final standing counted again, so it stays the standing of the
/// campaign as it is (battles joined before the end may still be fought).
pub fn restand(state: &mut Campaign) {
    let standing = Standing::of(state);
    if let Some(ended) = state.end.ended.as_mut() {
        ended.standing = standing;
    }
}

fn condition_met(state: &Campaign, turn: u32) -> Option<EndReason> {
    let rules = &state.end.rules;
    if let Some(which) = rules.all_hqs
        && let Some((side, held)) = all_hqs_held(state, which)
    {
        return Some(EndReason::AllHqs { side, which, held });
    }
    if let Some(share) = rules.below_share {
        for start in &rules.start_points {
            let points: u64 = state.forces_of(&start.side).map(|f| f.points()).sum();
            let below = start.points > 0 && (points as f64) < share * (start.points as f64);
            if below {
                return Some(EndReason::BelowShare {
                    side: start.side.clone(),
                    points,
                    start_points: start.points,
                    share,
                });
            }
        }
    }
    if let Some(last_move) = rules.last_move
        && turn >= last_move
    {
        return Some(EndReason::LastMove { last_move });
    }
    if let Some(last_date) = rules.last_date {
        // The game move whose days hold the date: the next one begins after it
        // (or beyond the calendar).
        let next = state.date_of_turn(turn.saturating_add(1));
        if next.is_none_or(|d| d > last_date) {
            return Some(EndReason::LastDate { last_date });
        }
    }
    None
}

/// The first side (in the campaign's order) holding the HQs `which` asks
/// for, with how many that is.
fn all_hqs_held(state: &Campaign, which: AllHqs) -> Option<(crate::model::SideId, usize)> {
    state.sides.iter().find_map(|side| {
        let wanted: Vec<_> = state
            .hqs
            .iter()
            .filter(|h| which == AllHqs::Every || h.side != side.id)
            .collect();
        (!wanted.is_empty() && wanted.iter().all(|h| h.held_by == side.id))
            .then(|| (side.id.clone(), wanted.len()))
    })
}
