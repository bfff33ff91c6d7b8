//! How a campaign ends: the campaign file's `[end]` conditions, the end once
//! it has come (kept in the `Campaign`, so undo takes it back), and the
//! standing by the seeds' measure.
//!
//! The measure: Strategic Rules 1.1 of `scruby-basic-war-game-rules.txt`:
//! "The outcome of a game is determined by how many HQs a player holds at
//! the end of the game"; the 1961 Jumbo game
//! (`scruby-1961-strategy-tactical-wargame.txt`, THE BATTLE) makes the
//! headquarters "the OBJECTIVES of the game". The seeds are silent on a tie:
//! this program breaks one by points (the roster points of every stand still
//! on the map), and calls it a draw when those are equal too.

use super::campaign::Campaign;
use super::check::Sink;
use super::date::Date;
use super::ids::SideId;
use super::vocabulary;
use serde::{Deserialize, Serialize};
use toml::Spanned;

vocabulary! {
    /// Which HQs one side must hold for `all_hqs` to end the campaign.
    pub enum AllHqs {
        /// Every HQ of the campaign, its own and the enemy's: all six of two sides.
        Every = "every",
        /// Every HQ of every other side (all three of the enemy's), whether or
        /// not it still holds its own.
        Enemy = "enemy",
    }
}

/// The campaign file's end conditions; any combination, or none (then only
/// the umpire's pencil ends the campaign).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EndRules {
    /// The campaign ends when this game move has been resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<u32>,
    /// The campaign ends with the game move whose days hold this date (the
    /// next game move would begin after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_date: Option<Date>,
    /// The campaign ends when one side holds these HQs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_hqs: Option<AllHqs>,
    /// The campaign ends when a side's points fall below this share of its
    /// starting points (`start_points`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below_share: Option<f64>,
    /// Each side's roster points as the campaign began, for `below_share`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_points: Vec<SidePoints>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePoints {
    pub side: SideId,
    pub points: u64,
}

impl EndRules {
    pub fn is_empty(&self) -> bool {
        self.last_move.is_none()
            && self.last_date.is_none()
            && self.all_hqs.is_none()
            && self.below_share.is_none()
    }

    /// Each condition in words, for the status: "when game move 10 has been resolved".
    pub fn texts(&self) -> Vec<String> {
        let mut texts = Vec::new();
        if let Some(turn) = self.last_move {
            texts.push(format!("when game move {turn} has been resolved"));
        }
        if let Some(date) = self.last_date {
            texts.push(format!("with the game move whose days hold {date}"));
        }
        match self.all_hqs {
            Some(AllHqs::Every) => texts.push("when one side holds every HQ".to_owned()),
            Some(AllHqs::Enemy) => texts.push("when one side holds every HQ of the enemy".to_owned()),
            None => {}
        }
        if let Some(share) = self.below_share {
            texts.push(format!(
                "when a side falls below {} of its starting points",
                percent(share)
            ));
        }
        texts
    }
}

/// Where the campaign stands with its end: the file's conditions, and the
/// end once it came.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct End {
    #[serde(default, skip_serializing_if = "EndRules::is_empty")]
    pub rules: EndRules,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ended>,
}

impl End {
    /// No conditions and not ended: nothing to keep.
    pub fn is_unset(&self) -> bool {
        self.rules.is_empty() && self.rules.start_points.is_empty() && self.ended.is_none()
    }
}

/// The end of the campaign: when and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ended {
    /// The game move that met a condition; for the umpire's declaration, the
    /// game move at which it was declared (before it was resolved).
    pub turn: u32,
    pub why: EndReason,
    /// The final standing: as the end came, and kept up to date by battle
    /// results and the umpire's edits made after it (`desk`).
    pub standing: Standing,
}

/// The condition that ended the campaign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum EndReason {
    LastMove {
        last_move: u32,
    },
    LastDate {
        last_date: Date,
    },
    AllHqs {
        side: SideId,
        which: AllHqs,
        held: usize,
    },
    BelowShare {
        side: SideId,
        points: u64,
        start_points: u64,
        share: f64,
    },
    /// The umpire's pencil, with the reason.
    Declared {
        reason: String,
    },
}

impl EndReason {
    /// The condition's name as the campaign file writes it (`declared` for the pencil).
    pub fn condition(&self) -> &'static str {
        match self {
            EndReason::LastMove { .. } => "last_move",
            EndReason::LastDate { .. } => "last_date",
            EndReason::AllHqs { .. } => "all_hqs",
            EndReason::BelowShare { .. } => "below_share",
            EndReason::Declared { .. } => "declared",
        }
    }
}

impl Ended {
    /// "on game move 10" / "at game move 12" (declared by the umpire).
    pub fn when_text(&self) -> String {
        match self.why {
            EndReason::Declared { .. } => format!("at game move {}", self.turn),
            _ => format!("on game move {}", self.turn),
        }
    }

    /// Why, in words: "game move 10 was the last (last_move = 10)".
    pub fn why_text(&self, campaign: &Campaign) -> String {
        let name = |side: &SideId| {
            campaign
                .side(side)
                .map_or_else(|| side.to_string(), |s| s.name.clone())
        };
        match &self.why {
            EndReason::LastMove { last_move } => {
                format!("game move {last_move} was the last (last_move = {last_move})")
            }
            EndReason::LastDate { last_date } => {
                format!(
                    "the campaign's last date, {last_date}, falls in game move {} (last_date = {last_date})",
                    self.turn
                )
            }
            EndReason::AllHqs { side, which, held } => match which {
                AllHqs::Every => format!("{} holds every HQ, all {held} (all_hqs = \"every\")", name(side)),
                AllHqs::Enemy => format!(
                    "{} holds every HQ of the enemy, all {held} (all_hqs = \"enemy\")",
                    name(side)
                ),
            },
            EndReason::BelowShare {
                side,
                points,
                start_points,
                share,
            } => format!(
                "{} is down to {points} of its {start_points} starting points, below {} (below_share = {share})",
                name(side),
                percent(*share)
            ),
            EndReason::Declared { reason } => format!("the umpire declared it over ({reason})"),
        }
    }

    /// Why further orders are refused, and what the umpire can do.
    pub fn refusal(&self, campaign: &Campaign) -> String {
        format!(
            "the campaign ended {}: {}. No more orders or game moves are taken. Only undo takes the end back (`umpire undo`, or Undo in the window); the pencil (`umpire edit`) still corrects forces and HQs",
            self.when_text(),
            self.why_text(campaign)
        )
    }
}

/// A share as a percentage to at most two decimals, none shown when whole:
/// "9.09%", "32.5%", "5%".
pub fn percent(share: f64) -> String {
    format!("{}%", (share * 100.0 * 100.0).round() / 100.0)
}

/// One side's standing: HQs held (its own and captured), then points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideStanding {
    pub side: SideId,
    pub hqs: usize,
    pub points: u64,
}

/// Every side's standing, best first, and the winner by the seeds' measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub sides: Vec<SideStanding>,
    /// `None`: a draw (equal HQs and equal points at the top).
    pub winner: Option<SideId>,
}

impl Standing {
    /// The standing now: sides by HQs held, then by points (this program's
    /// tie-break, see the module's notes), then in the campaign's order.
    pub fn of(campaign: &Campaign) -> Standing {
        let mut sides: Vec<SideStanding> = campaign
            .sides
            .iter()
            .map(|s| SideStanding {
                side: s.id.clone(),
                hqs: campaign.hqs_held_by(&s.id).count(),
                points: campaign.forces_of(&s.id).map(|f| f.points()).sum(),
            })
            .collect();
        sides.sort_by_key(|s| std::cmp::Reverse((s.hqs, s.points)));
        let winner = match sides.as_slice() {
            [first, second, ..] if (first.hqs, first.points) == (second.hqs, second.points) => None,
            [first, ..] => Some(first.side.clone()),
            [] => None,
        };
        Standing { sides, winner }
    }

    /// "Red Army Corps 4 HQs, 4280 points; Blue Army Corps 2 HQs, 3900 points".
    pub fn sides_text(&self, campaign: &Campaign) -> String {
        self.sides
            .iter()
            .map(|s| {
                format!(
                    "{} {} HQ{}, {} points",
                    side_name(campaign, &s.side),
                    s.hqs,
                    if s.hqs == 1 { "" } else { "s" },
                    s.points
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// "Red Army Corps wins, holding 4 HQs to 2." and the like.
    pub fn winner_text(&self, campaign: &Campaign) -> String {
        let (Some(first), Some(second)) = (self.sides.first(), self.sides.get(1)) else {
            return match &self.winner {
                Some(side) => format!("{} wins, alone in the field.", side_name(campaign, side)),
                None => "No side stands: nobody wins.".to_owned(),
            };
        };
        match &self.winner {
            Some(side) if first.hqs > second.hqs => format!(
                "{} wins, holding {} HQs to {}.",
                side_name(campaign, side),
                first.hqs,
                second.hqs
            ),
            Some(side) => format!(
                "{} wins on points, {} to {}, both holding {} HQs (a tie in HQs is broken by points: this program's choice).",
                side_name(campaign, side),
                first.points,
                second.points,
                first.hqs
            ),
            None => format!(
                "A draw: {} HQs and {} points each at the top.",
                first.hqs, first.points
            ),
        }
    }
}

fn side_name(campaign: &Campaign, side: &SideId) -> String {
    campaign
        .side(side)
        .map_or_else(|| side.to_string(), |s| s.name.clone())
}

impl Ended {
    /// The end told in a sentence: the condition, the standing and the winner.
    pub fn sentence(&self, campaign: &Campaign) -> String {
        format!(
            "The campaign ends {}: {}. Final standing, by HQs held and then points: {}. {}",
            self.when_text(),
            self.why_text(campaign),
            self.standing.sides_text(campaign),
            self.standing.winner_text(campaign)
        )
    }
}

// ---------------------------------------------------------------------------
// The campaign file's `[end]` table.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEnd {
    last_move: Option<Spanned<i64>>,
    last_date: Option<Spanned<toml::value::Datetime>>,
    all_hqs: Option<Spanned<String>>,
    below_share: Option<Spanned<f64>>,
}

/// The `[end]` table checked: every out-of-range value reported at its line.
/// `start_turn` and `start_date` are the campaign's; `start_points` each
/// side's points as it begins.
pub(crate) fn check_end(
    sink: &mut Sink<'_>,
    raw: &Spanned<RawEnd>,
    start_turn: u32,
    start_date: Option<Date>,
    start_points: Vec<SidePoints>,
) -> EndRules {
    let table = raw.get_ref();
    let mut rules = EndRules::default();
    if let Some(t) = &table.last_move {
        match u32::try_from(*t.get_ref()) {
            Ok(turn) if turn >= start_turn => rules.last_move = Some(turn),
            _ => sink.error(
                &t.span(),
                format!(
                    "last_move {} must be a game move of the campaign: {start_turn} (its start_turn) or later",
                    t.get_ref()
                ),
            ),
        }
    }
    if let Some(d) = &table.last_date {
        let datetime = d.get_ref();
        let date = match (datetime.date, datetime.time) {
            (Some(date), None) => Date::from_ymd(i32::from(date.year), date.month, date.day),
            _ => None,
        };
        match (date, start_date) {
            (None, _) => sink.error(
                &d.span(),
                format!(
                    "last_date `{datetime}` must be a plain date such as 1895-04-30 (no quotes, no time)"
                ),
            ),
            (Some(date), Some(start)) if date < start => sink.error(
                &d.span(),
                format!("last_date {date} is before the campaign's start_date {start}: give a later date"),
            ),
            (Some(date), _) => rules.last_date = Some(date),
        }
    }
    if let Some(word) = &table.all_hqs {
        rules.all_hqs = sink.word(word, "all_hqs", AllHqs::parse, AllHqs::choices);
    }
    if let Some(s) = &table.below_share {
        let share = *s.get_ref();
        if share.is_finite() && share > 0.0 && share < 1.0 {
            rules.below_share = Some(share);
            rules.start_points = start_points;
        } else {
            sink.error(
                &s.span(),
                format!(
                    "below_share {share} must be more than 0 and less than 1: the share of its starting points below which a side is beaten, e.g. 0.25"
                ),
            );
        }
    }
    if table.last_move.is_none()
        && table.last_date.is_none()
        && table.all_hqs.is_none()
        && table.below_share.is_none()
    {
        sink.warning(
            &raw.span(),
            "the [end] table names no condition (last_move, last_date, all_hqs, below_share): only the umpire's pencil ends this campaign",
        );
    }
    rules
}
