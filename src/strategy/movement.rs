//! March rates: how far a stand, and so a force, goes in a game move.
//!
//! The rates are the seed's movement chart (`scruby-basic-war-game-rules.txt`,
//! "Movement"), in inches of table per regulation move, turned into map miles
//! by the campaign's `miles_per_inch`, each row scaled by the campaign's house
//! rule `march_percent` (100 per cent, the chart itself, unless the file says).

use crate::model::{Campaign, Force, MarchPercent, Road, RoadKind, StandKind, Terrain};

/// Hours of marching in one day: a regulation move. This program's own
/// figure; only ratios of rates matter, and the steps of a game move are hours.
pub const MARCH_HOURS_PER_DAY: u32 = 8;

/// A forced march is three regulation moves in one game move.
/// Source: `scruby-basic-war-game-rules.txt`, Strategic Rules 3.3.
pub const FORCED_MARCH_MOVES: u32 = 3;

/// The rows of the movement chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveClass {
    Infantry,
    LightInfantry,
    LightCavalry,
    HeavyCavalry,
}

/// A row of the movement chart: inches per move in the open, in column and on
/// the road, and what going uphill or downhill adds.
#[derive(Debug, Clone, Copy)]
struct ChartRow {
    open: f64,
    column: f64,
    road: f64,
    uphill: f64,
    downhill: f64,
}

/// Source: `scruby-basic-war-game-rules.txt`, Movement, the chart
/// "Type / Open / Column / Road / Uphill / Downhill".
fn chart(class: MoveClass) -> ChartRow {
    match class {
        // Infantry 2" 4" 6", uphill -1", downhill +2".
        MoveClass::Infantry => ChartRow {
            open: 2.0,
            column: 4.0,
            road: 6.0,
            uphill: -1.0,
            downhill: 2.0,
        },
        // Light Infantry 4" 6" 8", uphill 0, downhill +2".
        MoveClass::LightInfantry => ChartRow {
            open: 4.0,
            column: 6.0,
            road: 8.0,
            uphill: 0.0,
            downhill: 2.0,
        },
        // Light Cavalry 6" 8" 10", uphill 0, downhill +2".
        MoveClass::LightCavalry => ChartRow {
            open: 6.0,
            column: 8.0,
            road: 10.0,
            uphill: 0.0,
            downhill: 2.0,
        },
        // Heavy Cavalry 4" 6" 8", uphill 0, downhill +2".
        MoveClass::HeavyCavalry => ChartRow {
            open: 4.0,
            column: 6.0,
            road: 8.0,
            uphill: 0.0,
            downhill: 2.0,
        },
    }
}

/// Which row of the chart a stand moves by.
pub fn class_of(kind: StandKind) -> MoveClass {
    match kind {
        StandKind::LineInfantry
        | StandKind::GrenadierInfantry
        | StandKind::GuardInfantry
        | StandKind::NativeRegulars
        // "Artillery: As per accompanying troops" (the chart): guns, Maxims
        // and the train march with the infantry.
        | StandKind::FootArtillery
        | StandKind::MachineGun
        | StandKind::Transport => MoveClass::Infantry,
        StandKind::LightInfantry => MoveClass::LightInfantry,
        // Native foot outmarch regulars: 8" against the British infantry's 6"
        // in open order (`scruby-1965-unbalanced-equality.txt`, Combat Table,
        // MOVEMENT), so they march as light infantry.
        StandKind::NativeSpearmen | StandKind::NativeRiflemen => MoveClass::LightInfantry,
        StandKind::LightCavalry => MoveClass::LightCavalry,
        // Mounted infantry move 8" like heavy cavalry (1965 Combat Table);
        // "Horse Artillery would move at the same speed as Cavalry"
        // (`scruby-1961-strategy-tactical-wargame.txt`, MOVEMENT AND RANGES).
        StandKind::HeavyCavalry
        | StandKind::MountedInfantry
        | StandKind::HorseArtillery
        | StandKind::Command => MoveClass::HeavyCavalry,
    }
}

fn is_high(terrain: Terrain) -> bool {
    matches!(terrain, Terrain::Hills | Terrain::Mountains)
}

/// Inches of the chart a stand of `class` covers in one regulation move along
/// `road` from ground `from` into ground `to`.
///
/// Roads and railways are marched at the road rate, tracks in column, and a
/// track through forest, marsh or mountains in open order; "Movement through
/// towns is at ROAD MOVE speed for all troops" (1961, SPECIAL MOVEMENT RULES).
/// Climbing into hills adds the chart's uphill figure, coming down its
/// downhill figure. Never less than one inch.
pub fn inches(class: MoveClass, road: RoadKind, from: Terrain, to: Terrain) -> f64 {
    let row = chart(class);
    let rough = |t: Terrain| matches!(t, Terrain::Forest | Terrain::Marsh | Terrain::Mountains);
    let base = if to == Terrain::Urban {
        row.road
    } else {
        match road {
            RoadKind::Road | RoadKind::Railway => row.road,
            // Nobody marches on water (`MapIndex::is_passable`); open order if asked.
            RoadKind::River => row.open,
            RoadKind::Track if rough(from) || rough(to) => row.open,
            RoadKind::Track => row.column,
        }
    };
    let slope = match (is_high(from), is_high(to)) {
        (false, true) => row.uphill,
        (true, false) => row.downhill,
        _ => 0.0,
    };
    (base + slope).max(1.0)
}

/// The house rules' march rate for a row of the chart, in per cent of the chart.
pub fn percent_of_chart(march: &MarchPercent, class: MoveClass) -> f64 {
    f64::from(match class {
        MoveClass::Infantry => march.infantry,
        MoveClass::LightInfantry => march.light_infantry,
        MoveClass::LightCavalry => march.light_cavalry,
        MoveClass::HeavyCavalry => march.heavy_cavalry,
    })
}

/// Miles a force covers on `road` from `from` into `to` in one regulation
/// move: the rate of its slowest stand. A force with no stands does not move.
pub fn miles_per_move(campaign: &Campaign, force: &Force, road: &Road, from: Terrain, to: Terrain) -> f64 {
    let march = &campaign.house_rules.march_percent;
    let slowest = force
        .stands
        .iter()
        .map(|s| {
            let class = class_of(s.kind);
            inches(class, road.kind, from, to) * percent_of_chart(march, class) / 100.0
        })
        .fold(f64::INFINITY, f64::min);
    if slowest.is_finite() {
        slowest * campaign.miles_per_inch
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_as_the_seed_gives_it() {
        use MoveClass::*;
        use Terrain::{Hills, Open};
        // Road, column and open rates of each row.
        let cases = [
            (Infantry, RoadKind::Road, 6.0),
            (Infantry, RoadKind::Track, 4.0),
            (LightInfantry, RoadKind::Road, 8.0),
            (LightCavalry, RoadKind::Railway, 10.0),
            (HeavyCavalry, RoadKind::Track, 6.0),
        ];
        for (class, road, expected) in cases {
            assert_eq!(inches(class, road, Open, Open), expected, "{class:?} on {road:?}");
        }
        assert_eq!(
            inches(Infantry, RoadKind::Track, Terrain::Forest, Open),
            2.0,
            "open order in forest"
        );
        // Infantry lose an inch climbing, everyone gains two coming down.
        assert_eq!(inches(Infantry, RoadKind::Road, Open, Hills), 5.0);
        assert_eq!(inches(LightCavalry, RoadKind::Road, Open, Hills), 10.0);
        assert_eq!(inches(HeavyCavalry, RoadKind::Road, Hills, Open), 10.0);
        // Towns at road speed.
        assert_eq!(inches(Infantry, RoadKind::Track, Open, Terrain::Urban), 6.0);
    }

    #[test]
    fn artillery_marches_with_the_infantry_and_cavalry_is_faster() {
        assert_eq!(
            class_of(StandKind::FootArtillery),
            class_of(StandKind::LineInfantry)
        );
        let foot = inches(
            class_of(StandKind::LineInfantry),
            RoadKind::Road,
            Terrain::Open,
            Terrain::Open,
        );
        let horse = inches(
            class_of(StandKind::LightCavalry),
            RoadKind::Road,
            Terrain::Open,
            Terrain::Open,
        );
        assert!(horse > foot);
    }
}
