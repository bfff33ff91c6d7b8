//! The fog of war on the campaign map: what each side sees of the others at
//! the end of a game move, and what it remembers.
//!
//! Sources: "Concealment", Strategic Rules 4 of `scruby-basic-war-game-rules.txt`
//! (markers instead of troops, screened by light cavalry or light infantry,
//! "Sight range" 18 inches, longer from hills) and THE CONCEALED FORCES IN
//! STRATEGY-TACTICAL GAMES of `scruby-1961-strategy-tactical-wargame.txt`
//! (vision range, screening, light cavalry scouts and their morale combat,
//! rules 1-22). Table inches become map miles at the campaign's
//! `miles_per_inch` (2.5 unless the campaign file says): 18 inches is 45 miles.
//! The sight and scouting ranges below are the seeds'; a campaign's house
//! rules may set others (`HouseRules::sight_inches`, `scouting_inches`).
//!
//! For each side and each enemy force, at the end of the game move:
//!
//! 1. A force in a pending battle with the side, as fighter or reserve, is
//!    seen in full ("The minute the Concealed Column is attacked ... it must
//!    be exposed completely", 1961 rule 4; the table needs both sides).
//! 2. Otherwise it is in sight when one of the side's forces is within sight
//!    range of it: 18 inches, 2 more for each level of hill the watcher stands
//!    on (Strategic Rules 4.2 and Artillery 2). A watcher on a road has no hill.
//! 3. A force in sight is seen in full unless it is concealed; then it shows
//!    as a blind (a numbered marker, no name, no strength). It is concealed
//!    - in a town, village or urban region, or in a forest, "until attacked
//!      directly in melee" (1961 rules 10 and 11); or
//!    - when screened: each light infantry stand, and each light cavalry stand
//!      of two figures or more, screens it from one direction ("It requires a
//!      Squadron of Light Cavalry (or a minimum of 2 cavalry figures) to
//!      properly screen the front, or one flank", 1961 FIGURE 13; "screened by
//!      Light Cavalry or Light Infantry company stands", Strategic Rules 4.1).
//!      A direction is a place watchers stand (a region, or a road): watched
//!      from more places than it has screening stands, it is exposed.
//!
//!    A force of light cavalry alone is never concealed ("Light Cavalry cannot
//!    be concealed", 1961 rule 14).
//! 4. Light cavalry scouts: every force of the side with light cavalry within
//!    9 inches of a concealed force (1961 rule 17A) throws the morale combat
//!    against it, one force after another, until one wins: 5 combat points a
//!    light cavalryman against the screen's combat points (rule 17A-C), or,
//!    against a force in a town or forest, the whole force's (rule 19: "the
//!    Light Cavalry must melee the unit and again the Morale Throw will
//!    effect the combat"); each throws one die and multiplies. High total: the
//!    screen is driven off (it screens no more this game move) or the cover
//!    broken, and the force is seen in full. Low total: the scouts are driven
//!    off. Equal totals throw again. The throw is
//!    [`crate::rules::scruby1961::morale_combat`], the tactical rule 17 of
//!    the 1961 rule set, with its combat points and figures per stand.
//!
//! Strategic Rules 4.1 would settle a screen by "combat and morale rules (if
//! no casualties are made, then use rule 4 under ‘judging the morale’ ...)";
//! the 1961 rule 17 is the one written for scouts against screens, so it is
//! the one used.
//!
//! What this program chooses where the seeds speak of the table only:
//! nobody moves after the morale combat (the seed's "retires 3 moves" is a
//! table move; on the map the loser only fails); the scouts take no
//! casualties from light infantry first (rule 17B's fire is the table's);
//! hills are one level, mountains two; the dice are thrown from the
//! campaign's stream after everything else in the game move, so a replay is
//! exact; sight is judged where forces stand at the end of the move, not on
//! the march. HQs are public: fixed places on the map.
//!
//! What a side saw is kept in [`Campaign::knowledge`]: each force it has
//! seen, with the game move and place it was last seen and how strong it
//! looked. A force that stays in sight keeps its marker number; a force lost
//! from sight is remembered where it was last seen; a blind found again gets
//! a new number, as nothing tells it is the one lost.
//!
//! Memory learns, from what the side sees and nothing else (this program's
//! rules; the seeds keep no memory):
//!
//! - a force it had in sight as the game move began, merging into another it
//!   had in sight too, leaves its view, "last seen merging into ...";
//! - a force it had in sight and knew by name, struck off (no stands left)
//!   where it watches now and not in a town or forest, leaves its view,
//!   "last seen destroyed";
//! - a force remembered in a region it watches now, where it sees no blind
//!   of that side that could be the force, is not there: it leaves its view,
//!   "no longer found". A force last seen on a road was on the march, so is
//!   not looked for where it was;
//! - a merge or loss it did not watch leaves the force as last seen;
//! - after a battle's result ([`after_battle`]), what it learned fighting.

use super::index::MapIndex;
use crate::model::event::{self as ev, EventKind, EventLog};
use crate::model::{
    Battle, BattleStatus, Campaign, EnRoute, Event, Feature, Force, ForceId, How, Knowledge, Region,
    RegionId, Seen, SideId, Sighting, StandKind, Terrain,
};
use crate::rules::scruby1961::{self, Scouting, Troop};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
// Fast hashing of the game move's own numbers and ids; nothing iterates these
// tables in an order that could reach a result.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;

/// "“Sight range” is 18 inches" (`scruby-basic-war-game-rules.txt`,
/// Strategic Rules 4.2). The 1961 table's VISION RANGE is 16 inches
/// ([`scruby1961::VISION_INCHES`]); the Strategic Rules are the campaign's.
/// A campaign may set its own (`HouseRules::sight_inches`).
pub const SIGHT_INCHES: f64 = crate::model::house_rules::SIGHT_INCHES;

/// "(or longer if from hills rule 2 under ‘artillery’)": "add 2″ to this
/// range for each level of hill" (`scruby-basic-war-game-rules.txt`,
/// Strategic Rules 4.2 and Artillery 2).
pub const HILL_LEVEL_INCHES: f64 = 2.0;

/// Rule 17A: "Whenever Light Cavalry approach enemy forces within 9 inches"
/// (`scruby-1961-strategy-tactical-wargame.txt`). A campaign may set its own
/// (`HouseRules::scouting_inches`).
pub const SCOUTING_INCHES: f64 = scruby1961::SCOUTING_INCHES;

/// FIGURE 13: "a Squadron of Light Cavalry (or a minimum of 2 cavalry
/// figures) to properly screen the front, or one flank"
/// (`scruby-1961-strategy-tactical-wargame.txt`).
pub const SCREEN_FIGURES: u32 = 2;

/// Equal morale totals throw again (the seed does not say; the 1961 rule set
/// does the same); after this many equal throws the concealed force holds.
/// This program's own bound, so a game move always ends.
pub const MAX_THROWS: u32 = 100;

/// Levels of hill a watcher in `terrain` stands on: hills one, mountains two
/// (this program's reading of "each level of hill"), anything else none.
pub fn hill_levels(terrain: Terrain) -> u32 {
    match terrain {
        Terrain::Hills => 1,
        Terrain::Mountains => 2,
        _ => 0,
    }
}

/// The campaign's ranges: sight and scouting in inches of table (its house
/// rules, the seeds' unless the file says) and its miles to the inch.
#[derive(Debug, Clone, Copy)]
struct Ranges {
    sight_inches: f64,
    scouting_inches: f64,
    miles_per_inch: f64,
}

impl Ranges {
    fn of(campaign: &Campaign) -> Ranges {
        Ranges {
            sight_inches: campaign.house_rules.sight_inches,
            scouting_inches: campaign.house_rules.scouting_inches,
            miles_per_inch: campaign.miles_per_inch,
        }
    }

    fn sight(self, terrain: Option<Terrain>) -> f64 {
        let levels = terrain.map_or(0, hill_levels);
        (self.sight_inches + HILL_LEVEL_INCHES * f64::from(levels)) * self.miles_per_inch
    }

    fn scouting(self) -> f64 {
        self.scouting_inches * self.miles_per_inch
    }
}

/// Sight range in map miles of a watcher in `terrain` (`None`: on a road),
/// at the campaign's sight range and scale.
pub fn sight_miles(campaign: &Campaign, terrain: Option<Terrain>) -> f64 {
    Ranges::of(campaign).sight(terrain)
}

/// How far light cavalry scout, in map miles, at the campaign's scouting range and scale.
pub fn scouting_miles(campaign: &Campaign) -> f64 {
    Ranges::of(campaign).scouting()
}

/// Figures a stand has on the 1961 table (a squadron three, a tray four).
fn figures(kind: StandKind, strength: u32, full: u32) -> Option<(Troop, u32)> {
    let troop = scruby1961::troop_for(kind)?;
    Some((troop, scruby1961::units_from_strength(troop, strength, full)))
}

/// Whether a stand screens: light infantry, or light cavalry of at least
/// [`SCREEN_FIGURES`] figures.
fn is_screen(kind: StandKind, strength: u32, full: u32) -> bool {
    match kind {
        StandKind::LightInfantry => strength > 0,
        StandKind::LightCavalry => {
            figures(kind, strength, full).is_some_and(|(_, units)| units >= SCREEN_FIGURES)
        }
        _ => false,
    }
}

/// The stands screening a force: how many directions it is screened from.
pub fn screens(force: &Force) -> u32 {
    let n = force
        .stands
        .iter()
        .filter(|s| is_screen(s.kind, s.strength, s.full))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Combat points in the morale combat of the stands `which` picks: each
/// figure's melee points (THE MELEE, COMBAT VALUE; a light cavalryman 5,
/// rule 17A).
fn combat_points(force: &Force, which: impl Fn(StandKind, u32, u32) -> bool) -> u32 {
    force
        .stands
        .iter()
        .filter(|s| which(s.kind, s.strength, s.full))
        .filter_map(|s| figures(s.kind, s.strength, s.full))
        .map(|(troop, units)| scruby1961::combat_points(troop).saturating_mul(units))
        .fold(0, u32::saturating_add)
}

/// The screen's points in the morale combat.
pub fn screen_points(force: &Force) -> u32 {
    combat_points(force, is_screen)
}

/// The whole force's points in the morale combat (rule 19).
pub fn force_points(force: &Force) -> u32 {
    combat_points(force, |_, _, _| true)
}

/// The scouts' points: 5 for each light cavalryman of the force (rule 17A);
/// 0 when it has no light cavalry.
pub fn scout_points(force: &Force) -> u32 {
    force
        .stands
        .iter()
        .filter(|s| s.kind == StandKind::LightCavalry)
        .filter_map(|s| figures(s.kind, s.strength, s.full))
        .map(|(_, units)| scruby1961::scout_points(units))
        .fold(0, u32::saturating_add)
}

/// What hides a force in sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    /// In a town, village or urban region (1961 rule 10).
    Town,
    /// In a forest (1961 rule 11).
    Forest,
    /// Behind its light troops (FIGURE 13; Strategic Rules 4.1).
    Screen,
}

impl Cover {
    fn words(self) -> &'static str {
        match self {
            Cover::Town => "in the town",
            Cover::Forest => "in the forest",
            Cover::Screen => "behind a screen of light troops",
        }
    }
}

/// Whether `force`, watched from `directions` places, is concealed, and by what.
pub fn concealment(campaign: &Campaign, force: &Force, directions: usize) -> Option<Cover> {
    conceal(campaign.map.region(&force.region), force, directions)
}

/// [`concealment`], with the force's region found.
fn conceal(region: Option<&Region>, force: &Force, directions: usize) -> Option<Cover> {
    if force.stands.iter().all(|s| s.kind == StandKind::LightCavalry) {
        return None;
    }
    if force.en_route.is_none()
        && let Some(cover) = region.and_then(hides)
    {
        return Some(cover);
    }
    let screens = usize::try_from(screens(force)).unwrap_or(usize::MAX);
    (directions > 0 && screens >= directions).then_some(Cover::Screen)
}

/// What hides any force standing in `region`: a town, village or urban
/// region (1961 rule 10), or a forest (rule 11).
fn hides(region: &Region) -> Option<Cover> {
    if region.terrain == Terrain::Urban || region.has(Feature::Town) || region.has(Feature::Village) {
        Some(Cover::Town)
    } else if region.terrain == Terrain::Forest {
        Some(Cover::Forest)
    } else {
        None
    }
}

/// Where a force stands: its map position, its place (region, and the region
/// it marches to when on a road), and the ground it watches from.
#[derive(Debug, Clone, Copy)]
struct Spot {
    x: f64,
    y: f64,
    place: (usize, Option<usize>),
    terrain: Option<Terrain>,
}

fn spot(index: &MapIndex<'_>, force: &Force) -> Option<Spot> {
    spot_at(index, &force.region, force.en_route.as_ref())
}

/// The spot of a place: a region, or a point on the road out of it.
fn spot_at(index: &MapIndex<'_>, region: &RegionId, en_route: Option<&EnRoute>) -> Option<Spot> {
    let at = index.at(region)?;
    let here = index.map.regions.get(at)?;
    match en_route {
        None => Some(Spot {
            x: here.x,
            y: here.y,
            place: (at, None),
            terrain: Some(here.terrain),
        }),
        Some(e) => {
            let to = index.at(&e.toward)?;
            let there = index.map.regions.get(to)?;
            let length = index
                .roads_between(at, to)
                .filter_map(|r| index.road(r).map(|r| r.miles))
                .min_by(f64::total_cmp)
                .unwrap_or(0.0);
            let share = if length > 0.0 {
                (e.miles / length).clamp(0.0, 1.0)
            } else {
                0.0
            };
            Some(Spot {
                x: here.x + (there.x - here.x) * share,
                y: here.y + (there.y - here.y) * share,
                place: (at, Some(to)),
                terrain: None,
            })
        }
    }
}

/// Forces bucketed in squares of the longest sight range, so each force
/// looks only at its own and the eight squares around it.
struct Grid {
    cell: f64,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn new(cell: f64, spots: &[Option<Spot>]) -> Grid {
        let mut grid = Grid {
            cell: if cell > 0.0 { cell } else { 1.0 },
            cells: HashMap::default(),
        };
        for (i, s) in spots.iter().enumerate() {
            if let Some(s) = s {
                let key = grid.key(s.x, s.y);
                grid.cells.entry(key).or_default().push(i);
            }
        }
        grid
    }

    #[allow(clippy::cast_possible_truncation)]
    fn key(&self, x: f64, y: f64) -> (i64, i64) {
        // Saturating float-to-int casts: any position has a square.
        ((x / self.cell).floor() as i64, (y / self.cell).floor() as i64)
    }

    /// Forces in the squares around `(x, y)`, in campaign order.
    fn around(&self, x: f64, y: f64) -> Vec<usize> {
        let (cx, cy) = self.key(x, y);
        let mut out: Vec<usize> = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                let key = (cx.saturating_add(dx), cy.saturating_add(dy));
                if let Some(list) = self.cells.get(&key) {
                    out.extend(list);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// A force a side sees this game move, and how.
struct Seeing {
    force: usize,
    seen: Seen,
    how: How,
    /// When concealed: what hides it.
    cover: Option<Cover>,
    /// When seen in full by sight though it has a screen: why the screen failed.
    exposed: Option<String>,
    /// Morale combats its scouts threw against it.
    scouting: Vec<Throw>,
}

/// One morale combat of scouts against a concealed force.
struct Throw {
    scouts: usize,
    scout_points: u32,
    scout_die: u32,
    other_points: u32,
    other_die: u32,
    throws: u32,
    scouts_won: bool,
}

/// The starting knowledge: what each side sees as the campaign begins
/// (concealment "must be made at the start of the game", 1961 rule 1). Sight
/// only: no scout has ridden yet, so no die is thrown. Any knowledge
/// `campaign` holds is replaced.
pub fn begin(campaign: &Campaign) -> Campaign {
    let mut state = campaign.clone();
    state.knowledge = Default::default();
    let turn = state.turn;
    let _ = update(&mut state, None, None, turn, &[]);
    state
}

/// A force that ceased to be in the game move: merged into another, or
/// struck off with no stands left; where it was last.
#[derive(Debug, Clone, PartialEq)]
pub struct Vanished {
    pub force: ForceId,
    pub side: SideId,
    pub region: RegionId,
    pub en_route: Option<EnRoute>,
    /// Merged: the force it joined. `None`: destroyed.
    pub into: Option<ForceId>,
}

impl Vanished {
    /// `force`, about to be merged into `into` or struck off (`None`).
    pub fn of(force: &Force, into: Option<&ForceId>) -> Vanished {
        Vanished {
            force: force.id.clone(),
            side: force.side.clone(),
            region: force.region.clone(),
            en_route: force.en_route.clone(),
            into: into.cloned(),
        }
    }
}

/// The fog of war at the end of game move `turn`: updates `state.knowledge`
/// and returns the events (numbered from 0), drawing scouts' dice from `rng`.
pub fn look(state: &mut Campaign, rng: &mut ChaCha8Rng, turn: u32) -> Vec<Event> {
    update(state, None, Some(rng), turn, &[])
}

/// [`look`] with `state.map`'s index, built once for the game move, and the
/// forces that ceased to be in it (`vanished`), so a side that saw one merge
/// or be destroyed drops it from what it knows.
pub fn look_with(
    state: &mut Campaign,
    index: &MapIndex,
    rng: &mut ChaCha8Rng,
    turn: u32,
    vanished: &[Vanished],
) -> Vec<Event> {
    update(state, Some(index), Some(rng), turn, vanished)
}

/// What each side sees after an umpire's edit: the fog's look at game move
/// `turn` without the scouts' dice, which belong to the game move; `gone`
/// are the forces the edit took off the map.
pub fn glance(state: &mut Campaign, turn: u32, gone: &[Vanished]) -> Vec<Event> {
    update(state, None, None, turn, gone)
}

fn update(
    state: &mut Campaign,
    index: Option<&MapIndex>,
    rng: Option<&mut ChaCha8Rng>,
    turn: u32,
    vanished: &[Vanished],
) -> Vec<Event> {
    let mut knowledge = std::mem::take(&mut state.knowledge);
    let events = see(state, index, &mut knowledge, rng, turn, vanished);
    state.knowledge = knowledge;
    events
}

fn see(
    state: &Campaign,
    index: Option<&MapIndex>,
    knowledge: &mut Knowledge,
    mut rng: Option<&mut ChaCha8Rng>,
    turn: u32,
    vanished: &[Vanished],
) -> Vec<Event> {
    let built;
    let index = match index {
        Some(index) => index,
        None => {
            built = MapIndex::new(&state.map);
            &built
        }
    };
    let spots: Vec<Option<Spot>> = state
        .forces
        .iter()
        .map(|f| if f.stands.is_empty() { None } else { spot(index, f) })
        .collect();
    let range = Ranges::of(state);
    let longest = range.sight(Some(Terrain::Mountains)).max(range.scouting());
    let grid = Grid::new(longest, &spots);
    let at: HashMap<&ForceId, usize> = state.forces.iter().enumerate().map(|(i, f)| (&f.id, i)).collect();

    // Forces each side is fighting: a pending battle's forces and reserves,
    // and those of a battle met in this game move but called off before it
    // could be fought (the sides met: the battle's event names them).
    let mut fighting: HashSet<(SideId, usize)> = HashSet::default();
    let met = |b: &&crate::model::Battle| {
        b.status == BattleStatus::Pending || (b.status == BattleStatus::CalledOff && b.turn == turn)
    };
    for battle in state.battles.iter().filter(met) {
        let mut sides: BTreeSet<&SideId> = [&battle.attacker, &battle.defender].into_iter().collect();
        for id in &battle.forces {
            if let Some(f) = at.get(id).and_then(|&i| state.forces.get(i)) {
                sides.insert(&f.side);
            }
        }
        for id in battle.forces.iter().chain(&battle.reserves) {
            let Some(&i) = at.get(id) else { continue };
            let Some(force) = state.forces.get(i) else {
                continue;
            };
            for side in &sides {
                if **side != force.side {
                    fighting.insert(((*side).clone(), i));
                }
            }
        }
    }

    let mut screens_gone: HashSet<usize> = HashSet::default();
    let mut out = Notes {
        index,
        events: EventLog::new(turn),
    };
    let side_ids: Vec<SideId> = state.sides.iter().map(|s| s.id.clone()).collect();
    let mut sightings = std::mem::take(&mut knowledge.sightings);
    let mut kept: Vec<Sighting> = Vec::new();
    for side in &side_ids {
        let mut seeing: Vec<Seeing> = Vec::new();
        for (i, force) in state.forces.iter().enumerate() {
            if &force.side == side {
                continue;
            }
            let Some(target) = spots.get(i).copied().flatten() else {
                continue;
            };
            if fighting.contains(&(side.clone(), i)) {
                seeing.push(Seeing {
                    force: i,
                    seen: full(force),
                    how: How::Battle,
                    cover: None,
                    exposed: None,
                    scouting: Vec::new(),
                });
                continue;
            }
            let near = grid.around(target.x, target.y);
            let ours = |j: &usize| state.forces.get(*j).is_some_and(|f| &f.side == side);
            let distance = |s: &Spot| (s.x - target.x).hypot(s.y - target.y);
            let mut places: Vec<(usize, Option<usize>)> = near
                .iter()
                .filter(|j| ours(j))
                .filter_map(|&j| spots.get(j).copied().flatten())
                .filter(|s| distance(s) <= range.sight(s.terrain))
                .map(|s| s.place)
                .collect();
            if places.is_empty() {
                continue;
            }
            places.sort_unstable();
            places.dedup();
            let region = index.at(&force.region).and_then(|r| state.map.regions.get(r));
            let mut cover = conceal(region, force, places.len());
            if cover == Some(Cover::Screen) && screens_gone.contains(&i) {
                cover = None;
            }
            let Some(hidden_by) = cover else {
                let screening = screens(force);
                let exposed =
                    if screening == 0 || force.stands.iter().all(|s| s.kind == StandKind::LightCavalry) {
                        None
                    } else if screens_gone.contains(&i) {
                        Some("its screen was driven off".to_owned())
                    } else {
                        Some(format!(
                            "watched from {} places, more than its {} can screen",
                            places.len(),
                            count(
                                usize::try_from(screening).unwrap_or(usize::MAX),
                                "screening stand"
                            )
                        ))
                    };
                seeing.push(Seeing {
                    force: i,
                    seen: full(force),
                    how: How::Vision,
                    cover: None,
                    exposed,
                    scouting: Vec::new(),
                });
                continue;
            };
            let mut scouting = Vec::new();
            let mut found = false;
            if let Some(rng) = rng.as_deref_mut() {
                let other_points = match hidden_by {
                    Cover::Screen => screen_points(force),
                    Cover::Town | Cover::Forest => force_points(force),
                };
                for &j in near.iter().filter(|j| ours(j)) {
                    let (Some(scout), Some(s)) = (state.forces.get(j), spots.get(j).copied().flatten())
                    else {
                        continue;
                    };
                    let points = scout_points(scout);
                    if points == 0 || distance(&s) > range.scouting() {
                        continue;
                    }
                    let throw = morale_combat(rng, j, points, other_points);
                    let won = throw.scouts_won;
                    scouting.push(throw);
                    if won {
                        found = true;
                        if hidden_by == Cover::Screen {
                            screens_gone.insert(i);
                        }
                        break;
                    }
                }
            }
            seeing.push(Seeing {
                force: i,
                seen: if found { full(force) } else { Seen::Blind },
                how: if found { How::Scouts } else { How::Vision },
                cover: Some(hidden_by),
                exposed: None,
                scouting,
            });
        }
        // Where the side sees a blind now: a force remembered there may be it.
        let blinds: HashSet<(&RegionId, &SideId)> = seeing
            .iter()
            .filter(|s| s.seen.is_blind())
            .filter_map(|s| state.forces.get(s.force))
            .filter(|f| f.en_route.is_none())
            .map(|f| (&f.region, &f.side))
            .collect();
        // Whether one of the side's forces has a place within sight range now.
        let watched = |region: &RegionId, en_route: Option<&EnRoute>| {
            let Some(target) = spot_at(index, region, en_route) else {
                return false;
            };
            grid.around(target.x, target.y)
                .into_iter()
                .filter(|j| state.forces.get(*j).is_some_and(|f| &f.side == side))
                .filter_map(|j| spots.get(j).copied().flatten())
                .any(|s| (s.x - target.x).hypot(s.y - target.y) <= range.sight(s.terrain))
        };
        let (theirs, others): (Vec<Sighting>, Vec<Sighting>) =
            sightings.into_iter().partition(|s| &s.by == side);
        sightings = others;
        let mut memory = Memory::new(theirs);
        // Merges come first in the move: what the side saw of them is judged
        // on what it had in sight as the move began, and told first.
        let mut leaving = memory.merging(vanished);
        let mut merged: Vec<usize> = leaving.keys().copied().collect();
        merged.sort_unstable();
        for i in merged {
            if let (Some(record), Some(l)) = (memory.get(i), leaving.get_mut(&i))
                && l.told
            {
                out.gone(state, record, l, None);
                l.told = false;
            }
        }
        for seeing in seeing {
            remember(state, knowledge, &mut memory, side, seeing, turn, &mut out);
        }
        memory.leaving(&mut leaving, state, vanished, &blinds, &watched);
        kept.extend(memory.finish(state, &mut out, leaving));
    }
    // Sightings by sides no longer in the campaign are dropped.
    knowledge.sightings = kept;
    out.events.into_events()
}

/// What the sides learn from a battle's result, once it is applied to
/// `state`: `fought` are the battle's forces and reserves as they stood
/// before it, `turn` the game move the knowledge is dated.
///
/// A side in the battle fought its enemy's forces, so it knows them at their
/// strength after it: still in sight of one of its forces (where they stand
/// now: the winner on the field, the loser where it fell back), in full; out
/// of sight, as last seen, leaving the field by the road it fell back on
/// (the road it watched it take), or where it stood; destroyed, it leaves
/// the side's view ("last sees ... destroyed"). A side not in the battle
/// learns only what its own forces see of them (sight and cover, no scouts:
/// no die is thrown outside a game move), and nothing of a force it does not
/// have in sight.
pub fn after_battle(state: &mut Campaign, battle: &Battle, fought: &[Force], turn: u32) -> Vec<Event> {
    let mut knowledge = std::mem::take(&mut state.knowledge);
    let events = learn(state, &mut knowledge, battle, fought, turn);
    state.knowledge = knowledge;
    events
}

fn learn(
    state: &Campaign,
    knowledge: &mut Knowledge,
    battle: &Battle,
    fought: &[Force],
    turn: u32,
) -> Vec<Event> {
    let index = MapIndex::new(&state.map);
    let spots: Vec<Option<Spot>> = state
        .forces
        .iter()
        .map(|f| {
            if f.stands.is_empty() {
                None
            } else {
                spot(&index, f)
            }
        })
        .collect();
    let at: HashMap<&ForceId, usize> = state.forces.iter().enumerate().map(|(i, f)| (&f.id, i)).collect();
    let mut in_it: BTreeSet<&SideId> = [&battle.attacker, &battle.defender].into_iter().collect();
    in_it.extend(
        fought
            .iter()
            .filter(|f| battle.forces.contains(&f.id))
            .map(|f| &f.side),
    );
    let range = Ranges::of(state);
    let mut out = Notes {
        index: &index,
        events: EventLog::new(turn),
    };
    let side_ids: Vec<SideId> = state.sides.iter().map(|s| s.id.clone()).collect();
    let mut sightings = std::mem::take(&mut knowledge.sightings);
    let mut kept: Vec<Sighting> = Vec::new();
    for side in &side_ids {
        let (theirs, others): (Vec<Sighting>, Vec<Sighting>) =
            sightings.into_iter().partition(|s| &s.by == side);
        sightings = others;
        let mut memory = Memory::new(theirs);
        let fighting = in_it.contains(side);
        // The places the side watches `target` from.
        let watching = |target: &Spot| {
            let mut places: Vec<(usize, Option<usize>)> = state
                .forces
                .iter()
                .zip(&spots)
                .filter(|(f, _)| &f.side == side)
                .filter_map(|(_, s)| *s)
                .filter(|s| (s.x - target.x).hypot(s.y - target.y) <= range.sight(s.terrain))
                .map(|s| s.place)
                .collect();
            places.sort_unstable();
            places.dedup();
            places.len()
        };
        for before in fought.iter().filter(|f| &f.side != side) {
            let mine: Vec<usize> = memory.by_force.get(&before.id).cloned().unwrap_or_default();
            let in_sight = mine
                .iter()
                .copied()
                .find(|&i| memory.get(i).is_some_and(|r| r.in_sight));
            if !fighting && in_sight.is_none() {
                continue;
            }
            let latest = in_sight.or_else(|| {
                mine.iter()
                    .copied()
                    .filter_map(|i| memory.get(i).map(|r| (i, (r.turn, r.marker))))
                    .max_by_key(|(_, key)| *key)
                    .map(|(i, _)| i)
            });
            let now = at
                .get(&before.id)
                .and_then(|&i| state.forces.get(i).map(|f| (i, f)));
            let Some((i, force)) = now else {
                // Struck off: destroyed in the battle or on its retreat.
                let Some(keep) = latest else { continue };
                let seen_go = fighting
                    || (memory.get(keep).is_some_and(|r| !r.seen.is_blind())
                        && !(before.en_route.is_none()
                            && state.map.region(&before.region).and_then(hides).is_some())
                        && spot(&index, before).is_some_and(|s| watching(&s) > 0));
                if seen_go {
                    let leaving = Leaving {
                        why: ev::Gone::Destroyed,
                        into: None,
                        told: true,
                    };
                    for &j in &mine {
                        let record = memory.records.get_mut(j).and_then(Option::take);
                        if let Some(mut record) = record
                            && j == keep
                        {
                            record.region = before.region.clone();
                            record.en_route = before.en_route.clone();
                            out.gone(state, &record, &leaving, Some(battle.id));
                        }
                    }
                } else {
                    memory.lose_sight(in_sight, state, &mut out);
                }
                continue;
            };
            let Some(target) = spot(&index, force) else {
                continue;
            };
            let places = watching(&target);
            if places > 0 {
                let region = index.at(&force.region).and_then(|r| state.map.regions.get(r));
                let (seen, how, cover) = match (fighting, conceal(region, force, places)) {
                    (true, _) => (full(force), How::Battle, None),
                    (false, None) => (full(force), How::Vision, None),
                    (false, Some(cover)) => (Seen::Blind, How::Vision, Some(cover)),
                };
                let seeing = Seeing {
                    force: i,
                    seen,
                    how,
                    cover,
                    exposed: None,
                    scouting: Vec::new(),
                };
                remember(state, knowledge, &mut memory, side, seeing, turn, &mut out);
            } else if fighting {
                // Out of sight: as it left the field, at its strength after
                // the battle, or where it stands if it did not move.
                let (region, en_route) = if force.region != before.region && force.en_route.is_none() {
                    let toward = force.region.clone();
                    (before.region.clone(), Some(EnRoute { toward, miles: 0.0 }))
                } else {
                    (force.region.clone(), force.en_route.clone())
                };
                for &j in mine.iter().filter(|&&j| Some(j) != latest) {
                    if let Some(r) = memory.records.get_mut(j) {
                        *r = None;
                    }
                }
                let slot = latest
                    .and_then(|j| memory.records.get_mut(j))
                    .and_then(Option::as_mut);
                let (marker, was_in_sight) = match &slot {
                    Some(old) => (old.marker, old.in_sight),
                    None => (knowledge.next_marker(side), false),
                };
                let record = Sighting {
                    by: side.clone(),
                    force: force.id.clone(),
                    side: force.side.clone(),
                    marker,
                    turn,
                    region,
                    en_route,
                    in_sight: false,
                    seen: full(force),
                    how: How::Battle,
                };
                if was_in_sight {
                    out.lost(state, &record);
                }
                match slot {
                    Some(old) => *old = record,
                    None => memory.records.push(Some(record)),
                }
            } else {
                memory.lose_sight(in_sight, state, &mut out);
            }
        }
        kept.extend(memory.records());
    }
    knowledge.sightings = kept;
    out.events.into_events()
}

fn full(force: &Force) -> Seen {
    Seen::Full {
        name: force.name.clone(),
        points: force.points(),
        stands: force.stands.len(),
    }
}

/// Rule 17A's morale combat, thrown again on equal totals.
fn morale_combat(rng: &mut ChaCha8Rng, scouts: usize, scout_points: u32, other_points: u32) -> Throw {
    let mut throws = 0;
    loop {
        throws += 1;
        let scout_die: u32 = rng.random_range(1..=6);
        let other_die: u32 = rng.random_range(1..=6);
        let result = scruby1961::morale_combat(scout_points, scout_die, other_points, other_die);
        if result != Scouting::ThrowAgain || throws >= MAX_THROWS {
            return Throw {
                scouts,
                scout_points,
                scout_die,
                other_points,
                other_die,
                throws,
                scouts_won: result == Scouting::ScoutHolds,
            };
        }
    }
}

/// A side's records during the fog phase, found by force.
struct Memory {
    /// `None`: a memory found to be of a force now seen in full elsewhere.
    records: Vec<Option<Sighting>>,
    by_force: HashMap<ForceId, Vec<usize>>,
    /// Records seen this game move.
    refreshed: HashSet<usize>,
}

impl Memory {
    fn new(records: Vec<Sighting>) -> Memory {
        let mut by_force: HashMap<ForceId, Vec<usize>> = HashMap::default();
        for (i, r) in records.iter().enumerate() {
            by_force.entry(r.force.clone()).or_default().push(i);
        }
        Memory {
            records: records.into_iter().map(Some).collect(),
            by_force,
            refreshed: HashSet::default(),
        }
    }

    fn get(&self, i: usize) -> Option<&Sighting> {
        self.records.get(i).and_then(Option::as_ref)
    }

    /// Record `i`, in sight until now, is lost from sight.
    fn lose_sight(&mut self, i: Option<usize>, state: &Campaign, out: &mut Notes<'_>) {
        if let Some(record) = i.and_then(|i| self.records.get_mut(i)).and_then(Option::as_mut) {
            record.in_sight = false;
            out.lost(state, record);
        }
    }

    /// The records, by marker, as they are.
    fn records(self) -> Vec<Sighting> {
        let mut kept: Vec<Sighting> = self.records.into_iter().flatten().collect();
        kept.sort_by_key(|r| r.marker);
        kept
    }

    /// The records not seen this game move that leave the side's view, and
    /// why, added to `leaving` (which holds the merges the side saw; the rest
    /// stay as last seen):
    ///
    /// - a force it had in sight and knew by name, struck off (`vanished`)
    ///   where the side watches now, in the open: it saw the force destroyed;
    /// - a record of a force in a region the side watches now, where it sees
    ///   no blind of that side that could be it: the force is not there.
    ///
    /// A force seen to go takes all the side's records of it with it. Each
    /// test is on the side's own records, its forces' sight and what it sees
    /// now: a merge or loss it did not watch leaves its record as last seen.
    fn leaving(
        &self,
        leaving: &mut HashMap<usize, Leaving>,
        state: &Campaign,
        vanished: &[Vanished],
        blinds: &HashSet<(&RegionId, &SideId)>,
        watched: &dyn Fn(&RegionId, Option<&EnRoute>) -> bool,
    ) {
        let unseen = |i: &usize| !self.refreshed.contains(i);
        for v in vanished.iter().filter(|v| v.into.is_none()) {
            let Some(mine) = self.by_force.get(&v.force) else {
                continue;
            };
            let Some(&seen) = mine
                .iter()
                .filter(|i| unseen(i))
                .find(|&&i| self.get(i).is_some_and(|r| r.in_sight))
            else {
                continue;
            };
            let Some(record) = self.get(seen) else { continue };
            let hidden = v.en_route.is_none() && state.map.region(&v.region).and_then(hides).is_some();
            if record.seen.is_blind() || hidden || !watched(&v.region, v.en_route.as_ref()) {
                continue;
            }
            // Only the record in sight is told of; older ones go quietly with it.
            for &i in mine.iter().filter(|i| unseen(i)) {
                leaving.insert(
                    i,
                    Leaving {
                        why: ev::Gone::Destroyed,
                        into: None,
                        told: i == seen,
                    },
                );
            }
        }
        for (i, record) in self.records.iter().enumerate() {
            let Some(record) = record else { continue };
            if !unseen(&i) || leaving.contains_key(&i) || record.en_route.is_some() {
                continue;
            }
            if blinds.contains(&(&record.region, &record.side)) || !watched(&record.region, None) {
                continue;
            }
            leaving.insert(
                i,
                Leaving {
                    why: ev::Gone::NotFound,
                    into: None,
                    told: true,
                },
            );
        }
    }

    /// The side's records of forces that merged in this move (`vanished`)
    /// while it had them and the force they joined in sight, as the move
    /// began: it saw the merge. A force seen to go takes all the side's
    /// records of it with it; only the one in sight is told of.
    fn merging(&self, vanished: &[Vanished]) -> HashMap<usize, Leaving> {
        let mut leaving: HashMap<usize, Leaving> = HashMap::default();
        for v in vanished {
            let (Some(into), Some(mine)) = (&v.into, self.by_force.get(&v.force)) else {
                continue;
            };
            let in_sight = |i: &usize| self.get(*i).is_some_and(|r| r.in_sight);
            let Some(&seen) = mine.iter().find(|i| in_sight(i)) else {
                continue;
            };
            let joined = self
                .by_force
                .get(into)
                .into_iter()
                .flatten()
                .find(|i| in_sight(i));
            let Some(joined) = joined.and_then(|&j| self.get(j)) else {
                continue;
            };
            for &i in mine {
                leaving.insert(
                    i,
                    Leaving {
                        why: ev::Gone::Merged,
                        into: (i == seen).then(|| (into.clone(), label(joined))),
                        told: i == seen,
                    },
                );
            }
        }
        leaving
    }

    /// Records in sight last move and not seen this one are lost from sight,
    /// and those `leaving` leave; the records left, by marker.
    fn finish(
        self,
        state: &Campaign,
        out: &mut Notes<'_>,
        leaving: HashMap<usize, Leaving>,
    ) -> Vec<Sighting> {
        let mut kept: Vec<Sighting> = Vec::with_capacity(self.records.len());
        for (i, record) in self.records.into_iter().enumerate() {
            let Some(mut record) = record else { continue };
            if let Some(l) = leaving.get(&i) {
                if l.told {
                    out.gone(state, &record, l, None);
                }
                continue;
            }
            if record.in_sight && !self.refreshed.contains(&i) {
                record.in_sight = false;
                out.lost(state, &record);
            }
            kept.push(record);
        }
        kept.sort_by_key(|r| r.marker);
        kept
    }
}

/// Why a record leaves a side's view.
#[derive(Debug, Clone)]
struct Leaving {
    why: ev::Gone,
    /// Merged: the force joined, and how the side knows it.
    into: Option<(ForceId, String)>,
    /// Told in an event (a force's older records go quietly with it).
    told: bool,
}

/// "Blue Host" or "blind 3": how a side knows a force it saw.
fn label(record: &Sighting) -> String {
    match &record.seen {
        Seen::Full { name, .. } => name.clone(),
        Seen::Blind => format!("blind {}", record.marker),
    }
}

/// Writes what `side` saw of one force into its records, with the events.
fn remember(
    state: &Campaign,
    knowledge: &mut Knowledge,
    memory: &mut Memory,
    side: &SideId,
    seeing: Seeing,
    turn: u32,
    out: &mut Notes<'_>,
) {
    let Some(force) = state.forces.get(seeing.force) else {
        return;
    };
    let mine: Vec<usize> = memory.by_force.get(&force.id).cloned().unwrap_or_default();
    let current = mine
        .iter()
        .copied()
        .find(|&i| memory.get(i).is_some_and(|r| r.in_sight));
    let before = current.and_then(|i| memory.get(i)).map(|r| r.seen.clone());
    let slot = match &seeing.seen {
        // Seen in full: the side knows which force it is, so its older
        // memories of it are this one. The one in sight, or else the
        // latest, keeps its number; the others go.
        Seen::Full { .. } => {
            let keep = current.or_else(|| {
                mine.iter()
                    .copied()
                    .filter_map(|i| memory.get(i).map(|r| (i, (r.turn, r.marker))))
                    .max_by_key(|(_, key)| *key)
                    .map(|(i, _)| i)
            });
            for &i in mine.iter().filter(|&&i| Some(i) != keep) {
                if let Some(r) = memory.records.get_mut(i) {
                    *r = None;
                }
            }
            memory
                .by_force
                .insert(force.id.clone(), keep.into_iter().collect());
            keep
        }
        Seen::Blind => current,
    };
    let record = Sighting {
        by: side.clone(),
        force: force.id.clone(),
        side: force.side.clone(),
        marker: 0,
        turn,
        region: force.region.clone(),
        en_route: force.en_route.clone(),
        in_sight: true,
        seen: seeing.seen.clone(),
        how: seeing.how,
    };
    let at = match slot
        .and_then(|i| memory.records.get_mut(i))
        .and_then(Option::as_mut)
    {
        Some(old) => {
            let marker = old.marker;
            *old = Sighting { marker, ..record };
            slot
        }
        None => {
            let marker = knowledge.next_marker(side);
            memory.records.push(Some(Sighting { marker, ..record }));
            let at = memory.records.len().checked_sub(1);
            if let Some(at) = at {
                memory.by_force.entry(force.id.clone()).or_default().push(at);
            }
            at
        }
    };
    let Some(at) = at else { return };
    memory.refreshed.insert(at);
    let Some(record) = memory.get(at) else { return };
    for throw in &seeing.scouting {
        out.scouted(state, record, throw, seeing.cover);
    }
    match (before, &record.seen) {
        (None, _) => out.sighted(state, record, seeing.cover, seeing.exposed.as_deref()),
        (Some(Seen::Blind), Seen::Full { .. }) => out.identified(state, record, seeing.exposed.as_deref()),
        (Some(Seen::Full { name, .. }), Seen::Blind) => out.concealed(state, record, &name, seeing.cover),
        _ => {}
    }
}

/// The fog's events, in order.
struct Notes<'i> {
    index: &'i MapIndex<'i>,
    events: EventLog,
}

impl Notes<'_> {
    /// "at Cairo", or "on the road from Cairo to Giza, 3.5 miles out".
    fn place(&self, region: &RegionId, en_route: Option<&EnRoute>) -> String {
        let name = |id: &RegionId| {
            self.index
                .at(id)
                .map_or_else(|| id.to_string(), |r| self.index.name(r).to_owned())
        };
        match en_route {
            None => format!("at {}", name(region)),
            Some(e) if e.miles <= 0.0 => format!("leaving {} for {}", name(region), name(&e.toward)),
            Some(e) => format!(
                "on the road from {} to {}, {:.1} miles out",
                name(region),
                name(&e.toward),
                e.miles
            ),
        }
    }

    fn payload(record: &Sighting) -> ev::Sighted {
        ev::Sighted {
            by: record.by.clone(),
            force: record.force.clone(),
            side: record.side.clone(),
            marker: record.marker,
            region: record.region.clone(),
            en_route: record.en_route.clone(),
            seen: record.seen.clone(),
            how: record.how,
        }
    }

    fn sighted(&mut self, state: &Campaign, record: &Sighting, cover: Option<Cover>, exposed: Option<&str>) {
        let by = side_name(state, &record.by);
        let place = self.place(&record.region, record.en_route.as_ref());
        let sentence = match &record.seen {
            Seen::Full { name, points, stands } => format!(
                "{by} sights {name} {place}: {}, about {points} points{}{}.",
                count(*stands, "stand"),
                how_words(record.how),
                because(exposed)
            ),
            Seen::Blind => format!(
                "{by} sights blind {} {place}: a force of the {} it cannot make out ({}).",
                record.marker,
                side_name(state, &record.side),
                cover.map_or("hidden", Cover::words)
            ),
        };
        self.events
            .tell(EventKind::ForceSighted(Self::payload(record)), sentence);
    }

    fn identified(&mut self, state: &Campaign, record: &Sighting, exposed: Option<&str>) {
        let Seen::Full { name, points, stands } = &record.seen else {
            return;
        };
        let sentence = format!(
            "{} makes out blind {} {}: it is {name}, {}, about {points} points{}{}.",
            side_name(state, &record.by),
            record.marker,
            self.place(&record.region, record.en_route.as_ref()),
            count(*stands, "stand"),
            how_words(record.how),
            because(exposed)
        );
        self.events
            .tell(EventKind::ForceIdentified(Self::payload(record)), sentence);
    }

    fn concealed(&mut self, state: &Campaign, record: &Sighting, name: &str, cover: Option<Cover>) {
        let sentence = format!(
            "{} can no longer make out {name} {}: it shows as blind {} ({}).",
            side_name(state, &record.by),
            self.place(&record.region, record.en_route.as_ref()),
            record.marker,
            cover.map_or("hidden", Cover::words)
        );
        self.events
            .tell(EventKind::ForceConcealed(Self::payload(record)), sentence);
    }

    fn lost(&mut self, state: &Campaign, record: &Sighting) {
        let what = match &record.seen {
            Seen::Full { name, .. } => name.clone(),
            Seen::Blind => format!("blind {}", record.marker),
        };
        let sentence = format!(
            "{} loses sight of {what}, last seen {} in game move {}.",
            side_name(state, &record.by),
            self.place(&record.region, record.en_route.as_ref()),
            record.turn
        );
        self.events
            .tell(EventKind::ForceLostSight(Self::payload(record)), sentence);
    }

    /// The last word on a record leaving the side's view; `battle`: the
    /// battle in which the side saw it destroyed.
    fn gone(&mut self, state: &Campaign, record: &Sighting, leaving: &Leaving, battle: Option<u32>) {
        let by = side_name(state, &record.by);
        let what = label(record);
        let place = self.place(&record.region, record.en_route.as_ref());
        let sentence = match (leaving.why, &leaving.into) {
            (ev::Gone::Merged, Some((_, into))) => {
                format!("{by} last sees {what} merging into {into} {place}.")
            }
            (ev::Gone::Merged, None) => format!("{by} last sees {what} merging into another force {place}."),
            (ev::Gone::Destroyed, _) => match battle {
                Some(b) => format!("{by} last sees {what} destroyed {place} in battle {b}."),
                None => format!("{by} last sees {what} destroyed {place}."),
            },
            (ev::Gone::NotFound, _) => format!(
                "{by} no longer finds {what} {place}, where it was last seen in game move {}.",
                record.turn
            ),
        };
        let payload = ev::ForceGone {
            sighted: Self::payload(record),
            why: leaving.why,
            last_seen: record.turn,
            into: leaving.into.as_ref().map(|(id, _)| id.clone()),
        };
        self.events.tell(EventKind::ForceGone(payload), sentence);
    }

    fn scouted(&mut self, state: &Campaign, record: &Sighting, throw: &Throw, cover: Option<Cover>) {
        let scouts = state.forces.get(throw.scouts).map_or("?", |f| f.name.as_str());
        let scouts_id = state.forces.get(throw.scouts).map(|f| f.id.clone());
        let place = self.place(&record.region, record.en_route.as_ref());
        let screen = cover == Some(Cover::Screen);
        let (rule, against) = if screen {
            ("scruby-1961 rule 17A-C", "the screen")
        } else {
            ("scruby-1961 rule 19", "the force")
        };
        let totals = format!(
            "morale throw {} x {} = {} against {} x {} = {}{}; {rule}",
            throw.scout_points,
            throw.scout_die,
            throw.scout_points.saturating_mul(throw.scout_die),
            throw.other_points,
            throw.other_die,
            throw.other_points.saturating_mul(throw.other_die),
            if throw.throws > 1 {
                format!(", after {} equal throws", throw.throws - 1)
            } else {
                String::new()
            }
        );
        let (kind, sentence): (fn(ev::Scouting) -> EventKind, String) = match (throw.scouts_won, screen) {
            (true, true) => (
                EventKind::ScoutsDroveOffScreen,
                format!("The scouts of {scouts} drive off the screen of a force {place} ({totals})."),
            ),
            (true, false) => (
                EventKind::ScoutsBrokeCover,
                format!("The scouts of {scouts} ride in on a force hidden {place} and expose it ({totals})."),
            ),
            // Beaten, the scouts learn nothing of what beat them: their own
            // throw only, never the hidden force's points.
            (false, _) => (
                EventKind::ScoutsDrivenOff,
                format!(
                    "The scouts of {scouts} are driven off by {against} of blind {} {place} (their morale throw {} x {} = {} was beaten; {rule}).",
                    record.marker,
                    throw.scout_points,
                    throw.scout_die,
                    throw.scout_points.saturating_mul(throw.scout_die),
                ),
            ),
        };
        let payload = ev::Scouting {
            sighted: Self::payload(record),
            scouts: scouts_id,
            scout_points: throw.scout_points,
            scout_die: throw.scout_die,
            other_points: throw.other_points,
            other_die: throw.other_die,
            throws: throw.throws,
            rule: rule.to_owned(),
        };
        self.events.tell(kind(payload), sentence);
    }
}

/// " (watched from 2 places, ...)" when a screen failed; nothing otherwise.
fn because(exposed: Option<&str>) -> String {
    exposed.map_or_else(String::new, |why| format!(" ({why})"))
}

fn how_words(how: How) -> &'static str {
    match how {
        How::Vision => "",
        How::Scouts => ", found by its scouts",
        How::Battle => ", in battle with it",
    }
}

fn side_name(state: &Campaign, id: &SideId) -> String {
    state.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
}

fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
