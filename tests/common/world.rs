//! Builds small campaigns in code for the game-move tests.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use umpire::model::*;
use umpire::strategy::{OrderSet, TurnOutcome, resolve};

pub fn region(id: &str, terrain: Terrain) -> Region {
    Region {
        id: RegionId::new(id),
        name: title(id),
        terrain,
        x: 0.0,
        y: 0.0,
        features: vec![],
        shape: vec![],
    }
}

pub fn road(from: &str, to: &str, kind: RoadKind, miles: f64) -> Road {
    Road {
        from: RegionId::new(from),
        to: RegionId::new(to),
        kind,
        miles,
        river: None,
        name: None,
    }
}

/// "blue-home" -> "Blue Home".
fn title(id: &str) -> String {
    id.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `count` stands of one kind, numbered from `first`.
pub fn stands(kind: StandKind, count: u32, first: u32) -> Vec<Stand> {
    (first..first + count)
        .map(|id| Stand {
            id: StandId(id),
            name: format!("{} {id}", kind.label()),
            kind,
            quality: Quality::Trained,
            strength: kind.roster_points(),
            full: kind.roster_points(),
        })
        .collect()
}

pub fn force(id: &str, side: &str, region: &str, stands: Vec<Stand>) -> Force {
    Force {
        id: ForceId::new(id),
        name: title(id),
        side: SideId::new(side),
        region: RegionId::new(region),
        stands,
        en_route: None,
        order: StandingOrder::Hold,
        fatigue: Fatigue::default(),
        supply: Supply::default(),
        fallen_out: Vec::new(),
    }
}

pub fn marching(mut force: Force, path: &[&str], forced: bool) -> Force {
    force.order = StandingOrder::March {
        path: path.iter().map(|r| RegionId::new(*r)).collect(),
        forced,
        by: Conveyance::Foot,
    };
    force
}

/// Red and blue, each with all three HQs in one region.
pub fn campaign(
    regions: Vec<Region>,
    roads: Vec<Road>,
    red_hq: &str,
    blue_hq: &str,
    forces: Vec<Force>,
) -> Campaign {
    let side = |id: &str, name: &str| Side {
        id: SideId::new(id),
        name: name.to_owned(),
        colour: Colour([0, 0, 0]),
        army: ArmyKind::Regular,
    };
    let hqs = [("red", red_hq), ("blue", blue_hq)]
        .into_iter()
        .flat_map(|(s, r)| {
            Wing::ALL.iter().map(move |w| Hq {
                side: SideId::new(s),
                wing: *w,
                region: RegionId::new(r),
                name: None,
                held_by: SideId::new(s),
                captured_turn: None,
            })
        })
        .collect();
    Campaign {
        title: "Test".to_owned(),
        description: None,
        map: Map {
            name: "Test map".to_owned(),
            description: None,
            regions,
            roads,
            background: None,
            waters: Vec::new(),
        },
        turn: 1,
        start_turn: 1,
        start_date: Date::from_ymd(1895, 3, 1).unwrap(),
        days_per_turn: 1,
        rules: RuleSetId::Scruby1965,
        rng: RngState::new(1895),
        miles_per_inch: DEFAULT_MILES_PER_INCH,
        transport: Transport::default(),
        sides: vec![side("red", "Red Army"), side("blue", "Blue Army")],
        hqs,
        forces,
        battles: vec![],
        knowledge: Default::default(),
        reinforcements: Vec::new(),
        replacements: Vec::new(),
        house_rules: Default::default(),
        end: Default::default(),
    }
}

/// Resolves `moves` game moves with no new orders; returns each move's outcome.
pub fn play(campaign: &mut Campaign, moves: usize) -> Vec<TurnOutcome> {
    let mut outcomes = Vec::new();
    for _ in 0..moves {
        let outcome = resolve(campaign, &[] as &[OrderSet]);
        *campaign = outcome.campaign.clone();
        outcomes.push(outcome);
    }
    outcomes
}

pub fn kinds<'a>(outcome: &'a TurnOutcome, kind: &str) -> Vec<&'a Event> {
    outcome.events.iter().filter(|e| e.kind.name() == kind).collect()
}

pub fn force_of<'a>(campaign: &'a Campaign, id: &str) -> &'a Force {
    campaign
        .force(&ForceId::new(id))
        .unwrap_or_else(|| panic!("force {id} is in the campaign"))
}
