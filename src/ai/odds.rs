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
//! cavalry, 20% foot artillery), fought 100 times under each engine on each
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

/// The attacker's wins in 100 (100 battles each, so about 5 either way;
/// measured on 27 November with issue 14's engines), by
/// rule set (`RuleSetId` order), ground (`Ground` order), the defender
/// standing or entrenched, and `RATIOS`.
const WINS: [[[[u8; 7]; 2]; 5]; 5] = [
    // scruby-1961
    [
        [[0, 4, 10, 52, 89, 95, 100], [1, 8, 15, 48, 82, 89, 100]], // open
        [[0, 15, 35, 61, 76, 89, 100], [0, 20, 37, 67, 82, 94, 100]], // town
        [[0, 21, 21, 46, 88, 95, 99], [0, 12, 4, 61, 81, 68, 99]],  // river
        [[0, 18, 9, 16, 53, 87, 100], [0, 5, 14, 14, 81, 93, 100]], // hills
        [[0, 6, 26, 36, 65, 95, 100], [0, 2, 21, 18, 58, 34, 75]],  // woods
    ],
    // scruby-basic
    [
        [[0, 2, 7, 38, 89, 94, 100], [0, 6, 3, 57, 94, 93, 100]], // open
        [[0, 6, 12, 21, 61, 64, 87], [4, 11, 11, 34, 76, 82, 93]], // town
        [[0, 0, 9, 38, 95, 97, 100], [0, 3, 8, 31, 78, 76, 100]], // river
        [[0, 2, 16, 42, 58, 90, 97], [0, 6, 9, 22, 70, 58, 97]],  // hills
        [[0, 1, 4, 48, 76, 94, 100], [1, 14, 14, 4, 14, 66, 100]], // woods
    ],
    // harman-2021
    [
        [[0, 9, 28, 50, 73, 81, 100], [0, 26, 41, 56, 80, 85, 100]], // open
        [[0, 9, 37, 66, 64, 85, 97], [0, 12, 25, 24, 67, 57, 99]],   // town
        [[1, 14, 28, 47, 35, 66, 73], [1, 26, 31, 49, 68, 64, 94]],  // river
        [[1, 26, 17, 51, 77, 98, 100], [1, 17, 19, 61, 36, 77, 99]], // hills
        [[0, 49, 13, 61, 74, 81, 100], [0, 21, 64, 51, 30, 59, 99]], // woods
    ],
    // scruby-1965
    [
        [[0, 3, 20, 49, 79, 91, 100], [0, 15, 5, 16, 44, 78, 100]], // open
        [[0, 9, 41, 28, 63, 88, 100], [0, 6, 19, 46, 63, 99, 100]], // town
        [[0, 3, 17, 14, 86, 87, 99], [0, 9, 31, 16, 75, 75, 93]],   // river
        [[0, 13, 26, 32, 40, 73, 100], [0, 12, 12, 27, 57, 76, 100]], // hills
        [[0, 9, 16, 28, 64, 70, 100], [0, 8, 9, 64, 83, 96, 100]],  // woods
    ],
    // cordery-2009
    [
        [[3, 18, 29, 52, 79, 88, 94], [2, 13, 22, 44, 70, 84, 96]], // open
        [[7, 13, 17, 49, 68, 78, 97], [6, 14, 27, 44, 67, 74, 90]], // town
        [[8, 13, 24, 56, 72, 71, 91], [3, 24, 27, 42, 68, 78, 89]], // river
        [[4, 18, 24, 54, 75, 82, 88], [2, 20, 29, 49, 68, 73, 86]], // hills
        [[6, 21, 40, 52, 77, 83, 95], [3, 16, 36, 59, 69, 91, 95]], // woods
    ],
];

/// The share of battles the attacker wins under `rules` on `ground` with
/// `attacker` points against `defender`: 0 to 1. The measured shares are
/// first made non-decreasing in the ratio (100 battles leave them noisy: a
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
