//! House rules: the rule parameters clubs argue about, set in the campaign
//! file's `[house_rules]` table. Each defaults to the seed's value, cited
//! below; a campaign that sets none plays the seeds' rules exactly.
//!
//! The settings are kept on the `Campaign` (`Campaign::house_rules`) and never
//! change during a campaign. Miles per inch, the scale between the movement
//! tables and the map, is kept where it always was (`Campaign::miles_per_inch`)
//! and may be set in this table too; [`differences`] reports it with the rest.

use super::campaign::{Campaign, DEFAULT_MILES_PER_INCH};
use serde::{Deserialize, Serialize};

/// Stands marching for each stand lost on a forced march: "For every 10 (or
/// less) stands making the march, you remove one stand on each game move the
/// forced march is made" (`scruby-basic-war-game-rules.txt`, Strategic Rules 3.1).
pub const STANDS_PER_FORCED_MARCH_LOSS: u32 = 10;

/// Forced marches in a row before a rest: "Troops making three successive
/// forced marches must stop and 'rest' one game move thereafter"
/// (`scruby-basic-war-game-rules.txt`, Strategic Rules 3.2).
pub const FORCED_MARCHES_BEFORE_REST: u32 = 3;

/// Game moves a force may be cut off before it loses stands: "after 4 game
/// moves you must remove one stand of troops from the field until the road is
/// reopened" (`scruby-basic-war-game-rules.txt`, Strategic Rules 2.2).
pub const CUT_OFF_GRACE_MOVES: u32 = 4;

/// Game moves after an HQ's loss before its side loses stands: "on the second
/// game move thereafter" (`scruby-basic-war-game-rules.txt`, Strategic Rules 2.1).
pub const HQ_LOSS_DELAY_MOVES: u32 = 2;

/// "“Sight range” is 18 inches" (`scruby-basic-war-game-rules.txt`,
/// Strategic Rules 4.2).
pub const SIGHT_INCHES: f64 = 18.0;

/// Rule 17A: "Whenever Light Cavalry approach enemy forces within 9 inches"
/// (`scruby-1961-strategy-tactical-wargame.txt`, THE CONCEALED FORCES).
pub const SCOUTING_INCHES: f64 = 9.0;

/// A march rate of 100 per cent: the movement chart as the seed gives it
/// (`scruby-basic-war-game-rules.txt`, Movement).
pub const CHART_PERCENT: u32 = 100;

/// How the game moves of supply grace are counted (Strategic Rules 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum GraceCount {
    /// The game move in which the road is cut is the first of the grace: with
    /// 4, the fifth game move cut off is the first to lose a stand. This
    /// program's reading of "after 4 game moves" (the seed: a force cut for
    /// four game moves has had its four).
    #[default]
    #[serde(rename = "from_the_cut")]
    FromTheCut,
    /// The grace starts with the game move after the cut: with 4, the sixth
    /// game move cut off is the first to lose a stand.
    #[serde(rename = "after_the_cut")]
    AfterTheCut,
}

impl GraceCount {
    pub const ALL: &'static [GraceCount] = &[GraceCount::FromTheCut, GraceCount::AfterTheCut];

    /// The name written in the campaign file.
    pub fn as_str(self) -> &'static str {
        match self {
            GraceCount::FromTheCut => "from_the_cut",
            GraceCount::AfterTheCut => "after_the_cut",
        }
    }

    pub fn parse(text: &str) -> Option<GraceCount> {
        GraceCount::ALL.iter().copied().find(|g| g.as_str() == text)
    }

    pub fn choices() -> String {
        GraceCount::ALL
            .iter()
            .map(|g| g.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// March rates by arm: per cent of the movement chart's row for each kind of
/// mover (`scruby-basic-war-game-rules.txt`, Movement; which stands march by
/// which row is `strategy::movement::class_of`). Every figure of the row (open,
/// column, road, uphill, downhill) is scaled alike, so 150 makes infantry march
/// 9 inches a move on a road where the chart gives 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MarchPercent {
    pub infantry: u32,
    pub light_infantry: u32,
    pub light_cavalry: u32,
    pub heavy_cavalry: u32,
}

impl Default for MarchPercent {
    fn default() -> Self {
        MarchPercent {
            infantry: CHART_PERCENT,
            light_infantry: CHART_PERCENT,
            light_cavalry: CHART_PERCENT,
            heavy_cavalry: CHART_PERCENT,
        }
    }
}

impl MarchPercent {
    /// Each row with its name as the campaign file writes it and its words.
    pub fn rows(&self) -> [(&'static str, &'static str, u32); 4] {
        [
            ("infantry", "infantry", self.infantry),
            ("light_infantry", "light infantry", self.light_infantry),
            ("light_cavalry", "light cavalry", self.light_cavalry),
            ("heavy_cavalry", "heavy cavalry", self.heavy_cavalry),
        ]
    }
}

/// The campaign's house rules. `Default` is the seeds' rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HouseRules {
    /// One stand lost for every this many (or fewer) stands on a forced march.
    pub forced_march_loss_per: u32,
    /// Forced marches in a row after which a force must rest a game move.
    pub forced_marches_before_rest: u32,
    /// Game moves cut off from every HQ before the losses begin.
    pub supply_grace_moves: u32,
    /// Whether the game move of the cut is the first of the grace.
    pub supply_grace_counts: GraceCount,
    /// Game moves after an HQ is lost before its side loses stands.
    pub hq_loss_delay_moves: u32,
    /// Sight range in inches of table, before hills.
    pub sight_inches: f64,
    /// How near light cavalry scouts must come, in inches of table.
    pub scouting_inches: f64,
    /// March rates by arm, per cent of the movement chart.
    pub march_percent: MarchPercent,
    /// Stands fallen out on a forced march rejoin their force this many game
    /// moves later if it is then in supply. `None`: the seed's rule, they are gone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejoin_after_moves: Option<u32>,
    /// The umpire lets each side's report page give the engine's odds of
    /// its pending battles. Off by default: the seeds' players never had
    /// such odds before a battle.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub odds_in_reports: bool,
}

impl Default for HouseRules {
    fn default() -> Self {
        HouseRules {
            forced_march_loss_per: STANDS_PER_FORCED_MARCH_LOSS,
            forced_marches_before_rest: FORCED_MARCHES_BEFORE_REST,
            supply_grace_moves: CUT_OFF_GRACE_MOVES,
            supply_grace_counts: GraceCount::FromTheCut,
            hq_loss_delay_moves: HQ_LOSS_DELAY_MOVES,
            sight_inches: SIGHT_INCHES,
            scouting_inches: SCOUTING_INCHES,
            march_percent: MarchPercent::default(),
            rejoin_after_moves: None,
            odds_in_reports: false,
        }
    }
}

impl HouseRules {
    /// The seeds' rules, unchanged.
    pub fn is_seed(&self) -> bool {
        *self == HouseRules::default()
    }

    /// Game moves cut off (counting the move of the cut as 1, as
    /// `Supply::cut_moves` does) that pass without loss: a force loses a stand
    /// in every game move after these.
    pub fn cut_moves_before_losses(&self) -> u32 {
        match self.supply_grace_counts {
            GraceCount::FromTheCut => self.supply_grace_moves,
            GraceCount::AfterTheCut => self.supply_grace_moves.saturating_add(1),
        }
    }

    /// Stands lost by a force of `marching` stands on one forced march: one
    /// for every `forced_march_loss_per` or fewer.
    pub fn forced_march_losses(&self, marching: usize) -> usize {
        let per = usize::try_from(self.forced_march_loss_per.max(1)).unwrap_or(usize::MAX);
        marching.div_ceil(per)
    }
}

/// The limits `umpire check` holds each setting to, with the reason in the
/// message. This program's own bounds: beyond them a campaign stops being one
/// (a force that loses every stand it marches, a sight range across a continent).
pub mod limits {
    use std::ops::RangeInclusive;
    pub const FORCED_MARCH_LOSS_PER: RangeInclusive<i64> = 1..=100;
    pub const FORCED_MARCHES_BEFORE_REST: RangeInclusive<i64> = 1..=20;
    pub const SUPPLY_GRACE_MOVES: RangeInclusive<i64> = 0..=50;
    pub const HQ_LOSS_DELAY_MOVES: RangeInclusive<i64> = 0..=50;
    pub const SIGHT_INCHES: RangeInclusive<f64> = 1.0..=200.0;
    pub const SCOUTING_INCHES: RangeInclusive<f64> = 1.0..=200.0;
    pub const MARCH_PERCENT: RangeInclusive<i64> = 10..=1000;
    pub const REJOIN_AFTER_MOVES: RangeInclusive<i64> = 1..=50;
}

/// One setting that differs from the seed, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The key in the campaign file's `[house_rules]` table.
    pub key: String,
    /// What the campaign plays: "forced march loses 1 stand in 5".
    pub now: String,
    /// What the seed says, with its file and section.
    pub seed: String,
}

impl Difference {
    /// "forced march loses 1 stand in 5 (the seed: 1 in 10, scruby-basic Strategic Rules 3.1)".
    pub fn sentence(&self) -> String {
        format!("{} (the seed: {})", self.now, self.seed)
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn inches(x: f64) -> String {
    format!("{x}\"")
}

/// Every setting of `campaign` that differs from the seed, in the order of
/// the README's table. Empty for a campaign played by the seeds' rules.
pub fn differences(campaign: &Campaign) -> Vec<Difference> {
    let rules = &campaign.house_rules;
    let seed = HouseRules::default();
    let mut out = Vec::new();
    let mut differ = |key: &str, now: String, was: String| {
        out.push(Difference {
            key: key.to_owned(),
            now,
            seed: was,
        })
    };
    if rules.forced_march_loss_per != seed.forced_march_loss_per {
        differ(
            "forced_march_loss_per",
            format!("forced march loses 1 stand in {}", rules.forced_march_loss_per),
            format!(
                "1 in {}, scruby-basic Strategic Rules 3.1",
                seed.forced_march_loss_per
            ),
        );
    }
    if rules.forced_marches_before_rest != seed.forced_marches_before_rest {
        differ(
            "forced_marches_before_rest",
            format!(
                "a force rests after {} in a row",
                plural(rules.forced_marches_before_rest, "forced march", "forced marches")
            ),
            format!(
                "after {}, scruby-basic Strategic Rules 3.2",
                seed.forced_marches_before_rest
            ),
        );
    }
    if rules.supply_grace_moves != seed.supply_grace_moves {
        differ(
            "supply_grace_moves",
            format!(
                "a force cut off loses stands after {}",
                plural(rules.supply_grace_moves, "game move", "game moves")
            ),
            format!(
                "after {}, scruby-basic Strategic Rules 2.2",
                seed.supply_grace_moves
            ),
        );
    }
    if rules.supply_grace_counts != seed.supply_grace_counts {
        differ(
            "supply_grace_counts",
            "the supply grace counts from the game move after the road is cut".to_owned(),
            "the game move of the cut is the first, scruby-basic Strategic Rules 2.2".to_owned(),
        );
    }
    if rules.hq_loss_delay_moves != seed.hq_loss_delay_moves {
        differ(
            "hq_loss_delay_moves",
            format!(
                "a side whose HQ is lost loses stands from {} later",
                plural(rules.hq_loss_delay_moves, "game move", "game moves")
            ),
            format!(
                "{} later, scruby-basic Strategic Rules 2.1",
                plural(seed.hq_loss_delay_moves, "game move", "game moves")
            ),
        );
    }
    if rules.sight_inches != seed.sight_inches {
        differ(
            "sight_inches",
            format!("sight range {}", inches(rules.sight_inches)),
            format!("{}, scruby-basic Strategic Rules 4.2", inches(seed.sight_inches)),
        );
    }
    if rules.scouting_inches != seed.scouting_inches {
        differ(
            "scouting_inches",
            format!("light cavalry scout within {}", inches(rules.scouting_inches)),
            format!("{}, scruby-1961 rule 17A", inches(seed.scouting_inches)),
        );
    }
    for ((key, words, now), (_, _, was)) in rules
        .march_percent
        .rows()
        .into_iter()
        .zip(seed.march_percent.rows())
    {
        if now != was {
            differ(
                &format!("march_percent.{key}"),
                format!("{words} march at {now}% of the movement chart"),
                format!("{was}%, scruby-basic Movement"),
            );
        }
    }
    if let Some(moves) = rules.rejoin_after_moves {
        differ(
            "rejoin_after_moves",
            format!(
                "stands fallen out on a forced march rejoin after {} if their force is in supply",
                plural(moves, "game move", "game moves")
            ),
            "they are removed, scruby-basic Strategic Rules 3.1".to_owned(),
        );
    }
    if rules.odds_in_reports {
        differ(
            "odds_in_reports",
            "each side's report page gives the engine's odds of its pending battles".to_owned(),
            "no odds: the seeds give the players none before a battle".to_owned(),
        );
    }
    if campaign.miles_per_inch != DEFAULT_MILES_PER_INCH {
        differ(
            "miles_per_inch",
            format!("{} miles to the inch", campaign.miles_per_inch),
            format!(
                "{DEFAULT_MILES_PER_INCH}, this program's scale: the infantry road move of 6\" a 15-mile day"
            ),
        );
    }
    out
}

/// The `[house_rules]` table as written, each value with its place, and its check.
pub(crate) mod read {
    use super::super::check::Sink;
    use super::{GraceCount, HouseRules, MarchPercent, limits};
    use serde::Deserialize;
    use std::ops::RangeInclusive;
    use toml::Spanned;

    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RawHouseRules {
        forced_march_loss_per: Option<Spanned<i64>>,
        forced_marches_before_rest: Option<Spanned<i64>>,
        supply_grace_moves: Option<Spanned<i64>>,
        supply_grace_counts: Option<Spanned<String>>,
        hq_loss_delay_moves: Option<Spanned<i64>>,
        sight_inches: Option<Spanned<f64>>,
        scouting_inches: Option<Spanned<f64>>,
        march_percent: Option<RawMarchPercent>,
        rejoin_after_moves: Option<Spanned<i64>>,
        odds_in_reports: Option<Spanned<bool>>,
        pub(crate) miles_per_inch: Option<Spanned<f64>>,
    }

    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RawMarchPercent {
        infantry: Option<Spanned<i64>>,
        light_infantry: Option<Spanned<i64>>,
        light_cavalry: Option<Spanned<i64>>,
        heavy_cavalry: Option<Spanned<i64>>,
    }

    /// A whole number in `range`, or the seed's value `seed` after an error
    /// naming the key, the range and the seed's figure with its source.
    fn whole(
        sink: &mut Sink<'_>,
        value: Option<&Spanned<i64>>,
        key: &str,
        range: RangeInclusive<i64>,
        seed: u32,
        source: &str,
    ) -> u32 {
        let Some(v) = value else { return seed };
        match u32::try_from(*v.get_ref()) {
            Ok(n) if range.contains(v.get_ref()) => n,
            _ => {
                sink.error(
                    &v.span(),
                    format!(
                        "house rule {key} = {} is out of range: it must be between {} and {} (the seed's is {seed}, {source}; leave it out to play the seed's)",
                        v.get_ref(),
                        range.start(),
                        range.end()
                    ),
                );
                seed
            }
        }
    }

    /// A number of inches in `range`, as [`whole`].
    fn inches(
        sink: &mut Sink<'_>,
        value: Option<&Spanned<f64>>,
        key: &str,
        range: RangeInclusive<f64>,
        seed: f64,
        source: &str,
    ) -> f64 {
        let Some(v) = value else { return seed };
        let x = *v.get_ref();
        if x.is_finite() && range.contains(&x) {
            x
        } else {
            sink.error(
                &v.span(),
                format!(
                    "house rule {key} = {x} is out of range: it must be between {} and {} inches (the seed's is {seed}, {source}; leave it out to play the seed's)",
                    range.start(),
                    range.end()
                ),
            );
            seed
        }
    }

    /// Checks the table, reporting each value out of range at its place; the
    /// seeds' rules for every setting left out (or wrong).
    pub(crate) fn check(sink: &mut Sink<'_>, raw: &RawHouseRules) -> HouseRules {
        let seed = HouseRules::default();
        const BASIC: &str = "scruby-basic Strategic Rules";
        let march = raw.march_percent.as_ref();
        let percent = |sink: &mut Sink<'_>, value: Option<&Spanned<i64>>, key: &str| {
            whole(
                sink,
                value,
                &format!("march_percent.{key}"),
                limits::MARCH_PERCENT,
                super::CHART_PERCENT,
                "the movement chart, scruby-basic Movement",
            )
        };
        HouseRules {
            forced_march_loss_per: whole(
                sink,
                raw.forced_march_loss_per.as_ref(),
                "forced_march_loss_per",
                limits::FORCED_MARCH_LOSS_PER,
                seed.forced_march_loss_per,
                &format!("{BASIC} 3.1"),
            ),
            forced_marches_before_rest: whole(
                sink,
                raw.forced_marches_before_rest.as_ref(),
                "forced_marches_before_rest",
                limits::FORCED_MARCHES_BEFORE_REST,
                seed.forced_marches_before_rest,
                &format!("{BASIC} 3.2"),
            ),
            supply_grace_moves: whole(
                sink,
                raw.supply_grace_moves.as_ref(),
                "supply_grace_moves",
                limits::SUPPLY_GRACE_MOVES,
                seed.supply_grace_moves,
                &format!("{BASIC} 2.2"),
            ),
            supply_grace_counts: raw
                .supply_grace_counts
                .as_ref()
                .and_then(|v| {
                    sink.word(
                        v,
                        "supply_grace_counts",
                        GraceCount::parse,
                        GraceCount::choices,
                    )
                })
                .unwrap_or_default(),
            hq_loss_delay_moves: whole(
                sink,
                raw.hq_loss_delay_moves.as_ref(),
                "hq_loss_delay_moves",
                limits::HQ_LOSS_DELAY_MOVES,
                seed.hq_loss_delay_moves,
                &format!("{BASIC} 2.1"),
            ),
            sight_inches: inches(
                sink,
                raw.sight_inches.as_ref(),
                "sight_inches",
                limits::SIGHT_INCHES,
                seed.sight_inches,
                &format!("{BASIC} 4.2"),
            ),
            scouting_inches: inches(
                sink,
                raw.scouting_inches.as_ref(),
                "scouting_inches",
                limits::SCOUTING_INCHES,
                seed.scouting_inches,
                "scruby-1961 rule 17A",
            ),
            march_percent: MarchPercent {
                infantry: percent(sink, march.and_then(|m| m.infantry.as_ref()), "infantry"),
                light_infantry: percent(sink, march.and_then(|m| m.light_infantry.as_ref()), "light_infantry"),
                light_cavalry: percent(sink, march.and_then(|m| m.light_cavalry.as_ref()), "light_cavalry"),
                heavy_cavalry: percent(sink, march.and_then(|m| m.heavy_cavalry.as_ref()), "heavy_cavalry"),
            },
            rejoin_after_moves: raw.rejoin_after_moves.as_ref().map(|v| {
                let range = limits::REJOIN_AFTER_MOVES;
                match u32::try_from(*v.get_ref()) {
                    Ok(n) if range.contains(v.get_ref()) => n,
                    _ => {
                        sink.error(
                            &v.span(),
                            format!(
                                "house rule rejoin_after_moves = {} is out of range: it must be between {} and {} game moves (leave it out to play the seed's rule, scruby-basic Strategic Rules 3.1: stands fallen out on a forced march are removed)",
                                v.get_ref(),
                                range.start(),
                                range.end()
                            ),
                        );
                        u32::try_from(*range.start()).unwrap_or(1)
                    }
                }
            }),
            odds_in_reports: raw.odds_in_reports.as_ref().is_some_and(|v| *v.get_ref()),
        }
    }
}
