//! The engine's odds for an attack, from what a side knows of it: the
//! points on each side, the rule set and the ground of the region.
//!
//! The battle engines' own odds (`rules::odds`, what `umpire odds` and the
//! report page print) fight the battle a thousand times on the table the
//! hand-off lays from the campaign: about a second a battle in a release
//! build (a millisecond or more each fight), against the second for
//! a whole side's orders; and they need
//! every stand of both sides, which a side's report does not give of the
//! enemy (a blind shows no stands; a force seen in full shows its points and
//! count, not its kinds). So the commander reads the engines' odds from a
//! table measured once on the proving ground's synthetic battles of mixed
//! arms (`umpire proving`'s hand-off: ten stands the weaker side, the
//! stronger 1.5, 2 or 3 times as many; 60% line infantry, 20% heavy
//! cavalry, 20% foot artillery), fought 30 times under each engine on each
//! ground, the defender standing or entrenched (`tests/ai.rs`,
//! `engine_odds_table`, which prints it). Between the measured ratios it is
//! read on the logarithm of the ratio; past them, at the nearest.

use crate::model::{Feature, Region, RuleSetId, Terrain};

/// The ground of a battle: the proving ground's, whose battles the table holds.
pub use crate::proving::Ground;

/// The ground of `region` and whether its defender is entrenched (the
/// hand-off lays entrenchments before a fort): a town or village or urban
/// land a town; hills or mountains hills; forest or marsh woods (broken
/// ground); a bridge or ford a river crossing; else open.
pub fn ground_of(region: &Region) -> (Ground, bool) {
    let entrenched = region.has(Feature::Fort);
    let ground =
        if region.has(Feature::Town) || region.has(Feature::Village) || region.terrain == Terrain::Urban {
            Ground::Town
        } else if matches!(region.terrain, Terrain::Hills | Terrain::Mountains) {
            Ground::Hills
        } else if matches!(region.terrain, Terrain::Forest | Terrain::Marsh) {
            Ground::Woods
        } else if region.has(Feature::Bridge) || region.has(Feature::Ford) {
            Ground::River
        } else {
            Ground::Open
        };
    (ground, entrenched)
}

/// The attacker's points over the defender's at which the table was measured.
const RATIOS: [f64; 7] = [1.0 / 3.0, 0.5, 1.0 / 1.5, 1.0, 1.5, 2.0, 3.0];

/// The attacker's wins in 100 (30 battles each, so about 9 either way), by
/// rule set (`RuleSetId` order), ground (`Ground` order), the defender
/// standing or entrenched, and `RATIOS`.
const WINS: [[[[u8; 7]; 2]; 5]; 5] = [
    // scruby-1961
    [
        [[3, 3, 7, 47, 97, 93, 97], [7, 10, 10, 43, 80, 90, 97]], // open
        [[0, 10, 43, 57, 77, 90, 93], [13, 27, 33, 70, 87, 93, 97]], // town
        [[3, 17, 23, 37, 90, 97, 97], [0, 7, 0, 63, 90, 70, 100]], // river
        [[0, 17, 10, 13, 60, 90, 80], [0, 10, 33, 13, 80, 97, 90]], // hills
        [[0, 7, 40, 33, 77, 93, 100], [10, 3, 23, 23, 43, 53, 93]], // woods
    ],
    // scruby-basic
    [
        [[0, 7, 10, 53, 87, 93, 100], [0, 3, 3, 33, 90, 97, 100]], // open
        [[0, 7, 17, 27, 73, 57, 83], [10, 17, 13, 27, 90, 77, 90]], // town
        [[0, 0, 7, 47, 100, 100, 100], [0, 0, 0, 43, 87, 77, 100]], // river
        [[0, 3, 7, 37, 57, 83, 97], [0, 10, 10, 20, 70, 63, 93]],  // hills
        [[0, 0, 7, 47, 80, 93, 100], [0, 17, 7, 7, 13, 70, 97]],   // woods
    ],
    // harman-2021
    [
        [[0, 0, 30, 60, 77, 80, 93], [7, 17, 37, 53, 77, 83, 97]], // open
        [[3, 7, 37, 67, 63, 87, 97], [7, 17, 27, 43, 47, 77, 93]], // town
        [[7, 17, 17, 50, 50, 83, 80], [3, 40, 30, 50, 80, 67, 100]], // river
        [[7, 13, 23, 47, 70, 97, 100], [3, 13, 7, 43, 37, 77, 97]], // hills
        [[3, 57, 10, 57, 80, 77, 93], [7, 10, 20, 7, 10, 77, 47]], // woods
    ],
    // scruby-1965
    [
        [[3, 0, 27, 33, 77, 93, 90], [7, 23, 17, 57, 80, 97, 97]], // open
        [[0, 13, 47, 33, 70, 80, 100], [3, 10, 17, 40, 47, 93, 100]], // town
        [[3, 0, 20, 20, 83, 80, 93], [7, 7, 23, 27, 67, 63, 90]],  // river
        [[7, 13, 33, 27, 30, 63, 100], [10, 13, 13, 27, 57, 77, 93]], // hills
        [[0, 10, 20, 20, 70, 73, 97], [3, 20, 20, 70, 90, 90, 97]], // woods
    ],
    // cordery-2009
    [
        [[7, 10, 23, 53, 83, 83, 93], [10, 20, 33, 53, 80, 87, 100]], // open
        [[10, 10, 23, 53, 73, 73, 87], [13, 33, 33, 40, 70, 87, 80]], // town
        [[3, 13, 27, 27, 77, 70, 90], [7, 37, 17, 40, 60, 77, 87]],   // river
        [[7, 13, 20, 40, 73, 83, 87], [17, 17, 20, 60, 80, 83, 83]],  // hills
        [[7, 20, 40, 50, 67, 73, 93], [33, 17, 30, 57, 83, 83, 83]],  // woods
    ],
];

/// The share of battles the attacker wins under `rules` on `ground` with
/// `attacker` points against `defender`: 0 to 1. The measured shares are
/// first made non-decreasing in the ratio (30 battles leave them noisy: a
/// stronger attack never counts as worse than a weaker one).
pub fn attack_odds(rules: RuleSetId, ground: Ground, entrenched: bool, attacker: f64, defender: f64) -> f64 {
    if defender <= 0.0 {
        return 1.0;
    }
    if attacker <= 0.0 {
        return 0.0;
    }
    let r = match rules {
        RuleSetId::Scruby1961 => 0,
        RuleSetId::ScrubyBasic => 1,
        RuleSetId::Harman2021 => 2,
        RuleSetId::Scruby1965 => 3,
        RuleSetId::Cordery2009 => 4,
    };
    let g = match ground {
        Ground::Open => 0,
        Ground::Town => 1,
        Ground::River => 2,
        Ground::Hills => 3,
        Ground::Woods => 4,
    };
    let Some(row) = WINS
        .get(r)
        .and_then(|x| x.get(g))
        .and_then(|x| x.get(usize::from(entrenched)))
    else {
        return 0.0;
    };
    let mut shares = [0.0; 7];
    let mut best = 0.0_f64;
    for (share, &wins) in shares.iter_mut().zip(row) {
        best = best.max(f64::from(wins) / 100.0);
        *share = best;
    }
    let x = (attacker / defender).ln();
    let points: Vec<(f64, f64)> = RATIOS.iter().map(|q| q.ln()).zip(shares).collect();
    let below = points.iter().rev().find(|&&(q, _)| q <= x).copied();
    let above = points.iter().find(|&&(q, _)| q >= x).copied();
    match (below, above) {
        (Some((x0, y0)), Some((x1, y1))) if x1 > x0 => y0 + (y1 - y0) * (x - x0) / (x1 - x0),
        (Some((_, y)), _) | (None, Some((_, y))) => y,
        (None, None) => 0.0,
    }
}
