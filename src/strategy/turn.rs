//! One game move, for every side at once.
//!
//! The order of work: orders take effect (splits, merges, standing orders);
//! resting forces rest; forces march in hourly steps, all together, halting
//! where they meet the enemy; forced marches cost their stands; contacts
//! become pending battles; HQs change hands; supply is traced and cut-off
//! forces lose stands; a side whose HQ is lost loses stands. Every change is
//! an event with a sentence, and every random draw comes from the campaign's
//! stream, so the same state and orders give the same events, byte for byte.

use super::fog::Vanished;
use super::index::MapIndex;
use super::movement::{FORCED_MARCH_MOVES, MARCH_HOURS_PER_DAY, miles_per_move};
use super::orders::{Order, OrderSet, is_stop, transport_words};
use super::supply::{self, Holding};
use crate::model::event as ev;
use crate::model::{
    Approach, Arm, Battle, BattleRecord, BattleStatus, Campaign, Conveyance, EnRoute, Event, EventKind,
    EventLog, FallenOut, Force, ForceId, RegionId, SideId, Stand, StandId, StandingOrder,
};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
// Fast hashing of the game move's own numbers and ids; nothing iterates these
// tables in an order that could reach a result.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

// The seeds' values, each with its source; a campaign plays its own
// (`Campaign::house_rules`), which default to these.
pub use crate::model::house_rules::{
    CUT_OFF_GRACE_MOVES, FORCED_MARCHES_BEFORE_REST, HQ_LOSS_DELAY_MOVES, STANDS_PER_FORCED_MARCH_LOSS,
};

/// The result of a game move: the new state and what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub campaign: Campaign,
    /// Events of the game move, numbered from 0.
    pub events: Vec<Event>,
}

/// Resolves the campaign's current game move with every side's orders.
/// Orders are applied in the order given; a later order for a force replaces
/// an earlier one.
pub fn resolve(campaign: &Campaign, orders: &[OrderSet]) -> TurnOutcome {
    // Looked for only when troops may arrive: it walks every stand.
    let first_free_stand = if campaign.reinforcements.is_empty() && campaign.replacements.is_empty() {
        1
    } else {
        super::edit::next_stand_id(campaign)
    };
    let mut turn = Turn::new(campaign);
    for set in orders {
        turn.apply_orders(set);
    }
    turn.march();
    // Troops arriving, once the marching is done: where the enemy stands
    // they make a battle as any force that marched in (`arrivals`).
    turn.bring_on_arrivals(first_free_stand);
    turn.make_battles();
    turn.change_hq_hands();
    turn.trace_supply();
    turn.rejoin_fallen_out();
    turn.hq_loss_attrition();
    turn.strike_empty_forces();
    // The fog of war last, once every force stands where the move leaves it.
    let vanished = std::mem::take(&mut turn.vanished);
    for seen in super::fog::look_with(&mut turn.state, &turn.index, &mut turn.rng, turn.turn, &vanished) {
        turn.events.tell(seen.kind, seen.sentence);
    }
    turn.finish()
}

/// A force on the march during the game move.
#[derive(Debug)]
struct Marcher {
    force: usize,
    path: VecDeque<usize>,
    road: Option<OnRoad>,
    /// Hours of marching left in this game move.
    hours_left: u32,
    forced: bool,
    start: usize,
    /// Where it began the game move when that was on a road: how far out of
    /// `start` toward which region.
    start_on_road: Option<(usize, f64)>,
    /// The region it is in, when not on a road.
    at: usize,
    miles: f64,
    halted: Option<String>,
    /// Where the road-meeting check saw it at the start of this hour.
    last: Option<(usize, f64)>,
}

/// A force seen on a road during the road-meeting check.
#[derive(Debug, Clone, Copy)]
struct Sighting {
    force: usize,
    /// Miles from the road's `from` end at the start of the hour, and now.
    before: f64,
    now: f64,
    /// The region it is marching to.
    heading: usize,
    /// Its place among the marchers; `None` for a force sitting on the road.
    marcher: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
struct OnRoad {
    road: usize,
    from: usize,
    to: usize,
    done: f64,
    length: f64,
    mph: f64,
    /// Whether it marches from the road's `from` end as the map writes it.
    forward: bool,
}

impl OnRoad {
    /// Distance from the road's `from` end as the map writes it.
    fn position(&self) -> f64 {
        if self.forward {
            self.done
        } else {
            self.length - self.done
        }
    }
}

/// What the game move's journeys by train and steamer share: who holds
/// what at its start, each side's supply, the lines, and the stands each
/// side's trains (steamers) have carried on each line.
struct Carriage {
    holding: Holding,
    /// The two ends of each road a force stands on at the start of the move, and its side.
    on_roads: Vec<((usize, usize), SideId)>,
    nets: HashMap<usize, Vec<bool>>,
    lines: HashMap<Conveyance, Vec<Option<usize>>>,
    used: HashMap<(usize, Conveyance, Option<usize>), u32>,
}

struct Turn<'c> {
    state: Campaign,
    index: MapIndex<'c>,
    rng: ChaCha8Rng,
    turn: u32,
    events: EventLog,
    /// Forces in each region (not on a road), by index into `state.forces`.
    present: Vec<Vec<usize>>,
    /// Forces that entered a region this move: when (hour, order of arrival).
    arrivals: HashMap<usize, (usize, usize)>,
    /// The region each force that arrived somewhere this move came from (indices).
    came_from: HashMap<usize, usize>,
    /// Where each force is in `state.forces`; rebuilt after a split or merge.
    force_at: Option<HashMap<ForceId, usize>>,
    /// Regions with a pending battle.
    battle_regions: HashSet<usize>,
    /// Forces merged or struck off in this move, for the fog.
    vanished: Vec<Vanished>,
}

impl<'c> Turn<'c> {
    fn new(campaign: &'c Campaign) -> Turn<'c> {
        Turn {
            state: campaign.clone(),
            index: MapIndex::new(&campaign.map),
            rng: campaign.rng.generator(),
            turn: campaign.turn,
            events: EventLog::new(campaign.turn),
            present: Vec::new(),
            arrivals: HashMap::default(),
            came_from: HashMap::default(),
            force_at: None,
            battle_regions: HashSet::default(),
            vanished: Vec::new(),
        }
    }

    fn find(&mut self, id: &ForceId) -> Option<usize> {
        let forces = &self.state.forces;
        self.force_at
            .get_or_insert_with(|| {
                forces
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (f.id.clone(), i))
                    .collect()
            })
            .get(id)
            .copied()
    }

    fn side_name(&self, id: &SideId) -> String {
        self.state
            .side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    fn region_name(&self, id: &RegionId) -> String {
        self.index
            .at(id)
            .map_or_else(|| id.to_string(), |r| self.index.name(r).to_owned())
    }

    // -- Orders --------------------------------------------------------------

    fn apply_orders(&mut self, set: &OrderSet) {
        for order in &set.orders {
            match order {
                Order::March {
                    force,
                    path,
                    forced,
                    by,
                } => {
                    if let Some(i) = self.find(force) {
                        if let Some(f) = self.state.forces.get_mut(i) {
                            f.order = StandingOrder::March {
                                path: path.clone(),
                                forced: *forced,
                                by: *by,
                            };
                        }
                    } else {
                        self.lapsed(force, "it no longer exists");
                    }
                }
                Order::Hold { force } => match self.find(force).and_then(|i| self.state.forces.get_mut(i)) {
                    Some(f) => f.order = StandingOrder::Hold,
                    None => self.lapsed(force, "it no longer exists"),
                },
                Order::Split {
                    force,
                    stands,
                    new_force,
                    name,
                } => self.split(force, stands, new_force, name),
                Order::Merge { force, into } => self.merge(force, into),
            }
        }
    }

    fn lapsed(&mut self, force: &ForceId, why: &str) {
        self.events.tell(
            EventKind::OrderLapsed(ev::OrderLapsed {
                force: force.clone(),
                why: why.to_owned(),
            }),
            format!("The order for {force} was not carried out: {why}."),
        );
    }

    fn split(&mut self, force: &ForceId, stands: &[crate::model::StandId], new_force: &ForceId, name: &str) {
        let Some(i) = self.find(force) else {
            return self.lapsed(force, "it no longer exists");
        };
        if self.find(new_force).is_some() {
            return self.lapsed(force, "the new force's id is taken");
        }
        let Some(parent) = self.state.forces.get_mut(i) else {
            return;
        };
        if parent.en_route.is_some() {
            return self.lapsed(force, "it is on the march between two regions");
        }
        let (leaving, staying): (Vec<Stand>, Vec<Stand>) = std::mem::take(&mut parent.stands)
            .into_iter()
            .partition(|s| stands.contains(&s.id));
        if leaving.is_empty() || staying.is_empty() {
            parent.stands = leaving.into_iter().chain(staying).collect();
            return self.lapsed(force, "the split would leave one force empty");
        }
        parent.stands = staying;
        let child = Force {
            fallen_out: Vec::new(),
            id: new_force.clone(),
            name: name.to_owned(),
            side: parent.side.clone(),
            region: parent.region.clone(),
            stands: leaving,
            en_route: None,
            order: StandingOrder::Hold,
            fatigue: parent.fatigue.clone(),
            supply: parent.supply.clone(),
        };
        let parent_name = parent.name.clone();
        let region = self.region_name(&child.region);
        let names: Vec<&str> = child.stands.iter().map(|s| s.name.as_str()).collect();
        let sentence = format!(
            "{parent_name} splits at {region}: {} form {name}.",
            names.join(", ")
        );
        let payload = EventKind::ForceSplit(ev::ForceSplit {
            force: force.clone(),
            new_force: new_force.clone(),
            name: name.to_owned(),
            stands: child.stands.iter().map(|s| s.id).collect(),
        });
        self.state.forces.insert(i + 1, child);
        self.force_at = None;
        self.events.tell(payload, sentence);
    }

    fn merge(&mut self, force: &ForceId, into: &ForceId) {
        let (Some(from), Some(to)) = (self.find(force), self.find(into)) else {
            return self.lapsed(force, "one of the two forces no longer exists");
        };
        let same_place = match (self.state.forces.get(from), self.state.forces.get(to)) {
            (Some(a), Some(b)) => {
                a.region == b.region && a.en_route.is_none() && b.en_route.is_none() && a.side == b.side
            }
            _ => false,
        };
        if !same_place {
            return self.lapsed(force, "the two forces are not together in one region");
        }
        let merged = self.state.forces.remove(from);
        self.vanished.push(Vanished::of(&merged, Some(into)));
        self.force_at = None;
        let to = if to > from { to - 1 } else { to };
        let Some(target) = self.state.forces.get_mut(to) else {
            return;
        };
        let count = merged.stands.len();
        target.stands.extend(merged.stands);
        // Its stragglers follow it into the force it joins.
        target.fallen_out.extend(merged.fallen_out);
        let target_name = target.name.clone();
        let place = self.region_name(&merged.region);
        let stands = if count == 1 {
            "1 stand".to_owned()
        } else {
            format!("{count} stands")
        };
        let sentence = format!("{} joins {target_name} at {place} ({stands}).", merged.name);
        for battle in &mut self.state.battles {
            for list in [&mut battle.forces, &mut battle.reserves] {
                if let Some(at) = list.iter().position(|f| f == force) {
                    list.remove(at);
                    if !list.contains(into) {
                        list.insert(at, into.clone());
                    }
                }
            }
        }
        self.events.tell(
            EventKind::ForcesMerged(ev::ForcesMerged {
                force: force.clone(),
                into: into.clone(),
                stands: count,
            }),
            sentence,
        );
    }

    // -- Movement ------------------------------------------------------------

    /// Miles per hour of force `force` on `road` from region `from` to `to`.
    fn mph(&self, force: usize, road: usize, from: usize, to: usize) -> f64 {
        let (Some(f), Some(r), Some(a), Some(b)) = (
            self.state.forces.get(force),
            self.index.road(road),
            self.state.map.regions.get(from),
            self.state.map.regions.get(to),
        ) else {
            return 0.0;
        };
        miles_per_move(&self.state, f, r, a.terrain, b.terrain) / f64::from(MARCH_HOURS_PER_DAY)
    }

    /// The quickest usable road from `from` to `to` for this force.
    fn best_road(&self, force: usize, from: usize, to: usize) -> Option<OnRoad> {
        self.index
            .roads_between(from, to)
            .filter(|r| self.index.is_passable(*r))
            .filter_map(|road| {
                let r = self.index.road(road)?;
                let length = r.miles;
                let forward = self.index.at(&r.from) == Some(from);
                let mph = self.mph(force, road, from, to);
                (mph > 0.0).then_some(OnRoad {
                    road,
                    from,
                    to,
                    done: 0.0,
                    length,
                    mph,
                    forward,
                })
            })
            .min_by(|a, b| (a.length / a.mph).total_cmp(&(b.length / b.mph)))
    }

    fn enemy_present(&self, region: usize, force: usize) -> bool {
        let Some(side) = self.state.forces.get(force).map(|f| &f.side) else {
            return false;
        };
        self.present.get(region).is_some_and(|list| {
            list.iter()
                .any(|&o| self.state.forces.get(o).is_some_and(|f| &f.side != side))
        })
    }

    fn march(&mut self) {
        self.present = vec![Vec::new(); self.index.len()];
        self.battle_regions = self
            .state
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
            .filter_map(|b| self.index.at(&b.region))
            .collect();
        let mut marchers = Vec::new();
        let mut carried = Vec::new();
        let mut sitting_on_roads = Vec::new();
        let day_hours = MARCH_HOURS_PER_DAY.saturating_mul(self.state.days_per_turn.max(1));
        for i in 0..self.state.forces.len() {
            let Some(force) = self.state.forces.get(i) else {
                continue;
            };
            let Some(region) = self.index.at(&force.region) else {
                continue;
            };
            let in_battle = force.en_route.is_none() && self.battle_regions.contains(&region);
            if force.fatigue.must_rest {
                let sentence = format!(
                    "{} rests at {} after three forced marches.",
                    force.name,
                    self.index.name(region)
                );
                let payload = EventKind::Rested(ev::ForceRule {
                    force: force.id.clone(),
                    rule: "Strategic Rules 3.2".to_owned(),
                });
                if let Some(f) = self.state.forces.get_mut(i) {
                    f.fatigue.must_rest = false;
                    f.fatigue.forced_in_row = 0;
                }
                self.events.tell(payload, sentence);
            } else if let (StandingOrder::March { by, .. }, false) = (&force.order, in_battle)
                && !by.is_foot()
            {
                // By train or steamer: carried before anyone marches.
                carried.push(i);
                if let Some(f) = self.state.forces.get_mut(i) {
                    f.fatigue.forced_in_row = 0;
                }
            } else if let (StandingOrder::March { path, forced, .. }, false) = (&force.order, in_battle) {
                let mut path: VecDeque<usize> = path.iter().filter_map(|r| self.index.at(r)).collect();
                let mut road = None;
                if let Some(en_route) = &force.en_route {
                    let toward = self.index.at(&en_route.toward);
                    let back = path.front() == Some(&region);
                    let (from, to) = match (toward, back) {
                        (Some(t), true) => (t, region),
                        (Some(t), false) => (region, t),
                        (None, _) => (region, region),
                    };
                    // On a road, the path's front is the road's far end until arrival.
                    if path.front() != Some(&to) {
                        path.push_front(to);
                    }
                    road = self.best_road(i, from, to).map(|mut r| {
                        r.done = if back {
                            (r.length - en_route.miles).max(0.0)
                        } else {
                            en_route.miles
                        };
                        r
                    });
                }
                let hours = day_hours.saturating_mul(if *forced { FORCED_MARCH_MOVES } else { 1 });
                marchers.push(Marcher {
                    force: i,
                    path,
                    road,
                    hours_left: hours,
                    forced: *forced,
                    start: region,
                    start_on_road: force
                        .en_route
                        .as_ref()
                        .and_then(|e| Some((self.index.at(&e.toward)?, e.miles))),
                    at: region,
                    miles: 0.0,
                    halted: None,
                    last: None,
                });
            } else if let Some(f) = self.state.forces.get_mut(i) {
                f.fatigue.forced_in_row = 0;
            }
            let Some(force) = self.state.forces.get(i) else {
                continue;
            };
            if force.en_route.is_none() {
                if let Some(list) = self.present.get_mut(region) {
                    list.push(i);
                }
            } else if marchers.last().is_none_or(|m| m.force != i) {
                // A force left on a road by the last move, holding there.
                let toward = force.en_route.as_ref().and_then(|e| self.index.at(&e.toward));
                let done = force.en_route.as_ref().map_or(0.0, |e| e.miles);
                if let Some(mut road) = toward.and_then(|t| self.best_road(i, region, t)) {
                    road.done = done;
                    sitting_on_roads.push((i, road));
                }
            }
        }
        // Marchers that start on a road are not in a region.
        for m in &marchers {
            if m.road.is_some()
                && let Some(list) = self.present.get_mut(m.start)
            {
                list.retain(|&f| f != m.force);
            }
        }

        let mut arrival_order = 0;
        self.carry_all(&carried, &mut arrival_order);
        let steps = marchers.iter().map(|m| m.hours_left).max().unwrap_or(0);
        for hour in 0..usize::try_from(steps).unwrap_or(usize::MAX) {
            for m in marchers.iter_mut() {
                m.last = m.road.map(|r| (r.road, r.position()));
            }
            for k in 0..marchers.len() {
                let Some(mut m) = marchers
                    .get_mut(k)
                    .map(|m| std::mem::replace(m, Marcher::placeholder()))
                else {
                    continue;
                };
                self.advance(&mut m, hour, &mut arrival_order);
                if let Some(slot) = marchers.get_mut(k) {
                    *slot = m;
                }
            }
            self.meet_on_roads(&mut marchers, &sitting_on_roads, hour, &mut arrival_order);
        }
        for m in marchers {
            self.finish_march(m);
        }
    }

    /// Every journey by train or steamer of the game move, in the forces'
    /// order, each line's capacity shared first come, first served.
    fn carry_all(&mut self, carried: &[usize], arrival_order: &mut usize) {
        if carried.is_empty() {
            return;
        }
        let holding = Holding::of(&self.state, &self.index);
        // Forces that begin the game move on a road: a train or steamer does
        // not pass the enemy's.
        let on_roads = self
            .state
            .forces
            .iter()
            .filter_map(|f| {
                let e = f.en_route.as_ref()?;
                let (a, b) = (self.index.at(&f.region)?, self.index.at(&e.toward)?);
                Some(((a.min(b), a.max(b)), f.side.clone()))
            })
            .collect();
        let mut carriage = Carriage {
            holding,
            on_roads,
            nets: HashMap::default(),
            lines: HashMap::default(),
            used: HashMap::default(),
        };
        for &i in carried {
            self.carry(i, &mut carriage, arrival_order);
        }
    }

    /// One force's journey by train or steamer (`strategy::transport`).
    fn carry(&mut self, i: usize, carriage: &mut Carriage, arrival_order: &mut usize) {
        let Some(force) = self.state.forces.get(i) else {
            return;
        };
        let StandingOrder::March { path, by, .. } = &force.order else {
            return;
        };
        let by = *by;
        let (what, stop, way) = transport_words(by);
        let (id, name) = (force.id.clone(), force.name.clone());
        let side_name = self.side_name(&force.side);
        let side = self.state.sides.iter().position(|s| s.id == force.side);
        let start = self.index.at(&force.region);
        let stands = u32::try_from(force.stands.len()).unwrap_or(u32::MAX);
        let mut path: Vec<usize> = path.iter().filter_map(|r| self.index.at(r)).collect();
        let (Some(side), Some(start)) = (side, start) else {
            return;
        };
        let wait = if force.en_route.is_some() || !is_stop(&self.index, start, by) {
            Some(format!("{} is not a {stop}", self.index.name(start)))
        } else {
            None
        };
        let net = carriage
            .nets
            .entry(side)
            .or_insert_with(|| supply::trace(&self.state, &self.index, &carriage.holding, side).reached);
        // Trains run only on a railway the side holds: joined to one of its
        // HQs. Steamers carry their own coal.
        let wait = wait.or_else(|| {
            (by == Conveyance::Rail && !net.get(start).copied().unwrap_or(false)).then(|| {
                format!(
                    "the {way} at {} is cut off from every HQ of {side_name}",
                    self.index.name(start)
                )
            })
        });
        let line = carriage
            .lines
            .entry(by)
            .or_insert_with(|| super::transport::lines(&self.index, by))
            .get(start)
            .copied()
            .flatten();
        let capacity = self.state.transport.capacity(by);
        let used = carriage.used.get(&(side, by, line)).copied().unwrap_or(0);
        let wait = wait.or_else(|| {
            (used.saturating_add(stands) > capacity).then(|| {
                format!(
                    "the {way}'s {}s carry {capacity} stands of {side_name} a game move and {used} are taken already",
                    what
                )
            })
        });
        // A battle on the way is as far as the journey goes.
        if let Some(k) = path.iter().position(|r| self.battle_regions.contains(r)) {
            path.truncate(k + 1);
        }
        let journey = match wait {
            Some(why) => super::transport::Journey {
                reached: Vec::new(),
                ahead: path.clone(),
                miles: 0.0,
                halted: Some(why),
            },
            None => {
                let holding = &carriage.holding;
                let on_roads = &carriage.on_roads;
                let index = &self.index;
                let own = self.state.forces.get(i).map(|f| f.side.clone());
                // The sentence says the line is cut, never where or by whom:
                // the side learns of the enemy as its sight tells it.
                super::transport::journey(&self.state, index, start, &path, by, |from, to| {
                    let pair = (from.min(to), from.max(to));
                    let enemy_on_it = on_roads
                        .iter()
                        .any(|(p, s)| *p == pair && Some(s) != own.as_ref());
                    (enemy_on_it || holding.enemy_holds(to, side))
                        .then(|| format!("the {way} is cut beyond {}", index.name(from)))
                })
            }
        };
        let end = journey.reached.last().copied().unwrap_or(start);
        let mut halted = journey.halted.clone();
        if end != start {
            *carriage.used.entry((side, by, line)).or_insert(0) += stands;
            if let Some(list) = self.present.get_mut(start) {
                list.retain(|&f| f != i);
            }
            if let Some(list) = self.present.get_mut(end) {
                list.push(i);
            }
            let from = journey.reached.iter().rev().nth(1).copied().unwrap_or(start);
            self.arrivals.insert(i, (0, *arrival_order));
            self.came_from.insert(i, from);
            *arrival_order += 1;
            if self.battle_regions.contains(&end) {
                halted = Some(format!("reached the battle at {}", self.index.name(end)));
            }
        }
        let end_id = self.index.id(end).cloned();
        let ahead: Vec<RegionId> = journey
            .ahead
            .iter()
            .filter_map(|r| self.index.id(*r).cloned())
            .collect();
        if let Some(f) = self.state.forces.get_mut(i) {
            if let Some(end_id) = &end_id {
                f.region = end_id.clone();
            }
            f.order = if ahead.is_empty() || self.battle_regions.contains(&end) {
                StandingOrder::Hold
            } else {
                StandingOrder::March {
                    path: ahead,
                    forced: false,
                    by,
                }
            };
        }
        let (from_name, end_name) = (self.index.name(start), self.index.name(end));
        let mut sentence = if end == start {
            format!("{name} waited at {from_name} for a {what}")
        } else {
            format!(
                "{name} went {} by {what} from {from_name} to {end_name}",
                distance(journey.miles, Unit::Miles)
            )
        };
        if let Some(why) = &halted {
            sentence.push_str(&format!(
                "{}{why}",
                if end == start { ": " } else { "; it halted: " }
            ));
        }
        sentence.push('.');
        let Some(to) = end_id else {
            return;
        };
        self.events.tell(
            EventKind::Moved(ev::Moved {
                force: id,
                from: self.index.id(start).cloned(),
                to,
                en_route: None,
                miles: (journey.miles * 10.0).round() / 10.0,
                forced: false,
                halted,
                by,
            }),
            sentence,
        );
    }

    /// One hour of marching for one force.
    fn advance(&mut self, m: &mut Marcher, hour: usize, arrival_order: &mut usize) {
        if m.hours_left == 0 {
            return;
        }
        m.hours_left -= 1;
        let mut time = 1.0_f64;
        while time > 1e-9 && m.halted.is_none() {
            let mut road = match m.road {
                Some(road) => road,
                None => {
                    let (here, Some(&next)) = (m.at, m.path.front()) else {
                        break;
                    };
                    let Some(road) = self.best_road(m.force, here, next) else {
                        m.halted = Some(format!("no usable road leads on to {}", self.index.name(next)));
                        break;
                    };
                    if let Some(list) = self.present.get_mut(here) {
                        list.retain(|&f| f != m.force);
                    }
                    road
                }
            };
            let needed = (road.length - road.done) / road.mph;
            if needed <= time {
                time -= needed;
                m.miles += road.length - road.done;
                m.road = None;
                m.path.pop_front();
                m.at = road.to;
                let Some(to_id) = self.index.id(road.to).cloned() else {
                    break;
                };
                if let Some(f) = self.state.forces.get_mut(m.force) {
                    f.region = to_id.clone();
                    f.en_route = None;
                }
                if let Some(list) = self.present.get_mut(road.to) {
                    list.push(m.force);
                }
                self.arrivals.insert(m.force, (hour, *arrival_order));
                self.came_from.insert(m.force, road.from);
                *arrival_order += 1;
                if self.enemy_present(road.to, m.force) {
                    m.halted = Some(format!("met the enemy at {}", self.index.name(road.to)));
                } else if self.battle_regions.contains(&road.to) {
                    m.halted = Some(format!("reached the battle at {}", self.index.name(road.to)));
                }
            } else {
                road.done += road.mph * time;
                m.miles += road.mph * time;
                time = 0.0;
                m.road = Some(road);
            }
        }
    }

    /// Opposing forces that pass each other on one road meet there: both halt
    /// in the region at the nearer end.
    fn meet_on_roads(
        &mut self,
        marchers: &mut [Marcher],
        sitting: &[(usize, OnRoad)],
        hour: usize,
        arrival_order: &mut usize,
    ) {
        let mut on_road: BTreeMap<usize, Vec<Sighting>> = BTreeMap::new();
        for (k, m) in marchers.iter().enumerate() {
            if let (Some(road), None) = (m.road, &m.halted) {
                let now = road.position();
                let before = match m.last {
                    Some((r, p)) if r == road.road => p,
                    _ => {
                        if self
                            .index
                            .road(road.road)
                            .is_some_and(|r| self.index.at(&r.from) == Some(road.from))
                        {
                            0.0
                        } else {
                            road.length
                        }
                    }
                };
                on_road.entry(road.road).or_default().push(Sighting {
                    force: m.force,
                    before,
                    now,
                    heading: road.to,
                    marcher: Some(k),
                });
            }
        }
        if on_road.is_empty() {
            return;
        }
        for (force, road) in sitting {
            if let Some(list) = on_road.get_mut(&road.road) {
                let at = road.position();
                list.push(Sighting {
                    force: *force,
                    before: at,
                    now: at,
                    heading: road.to,
                    marcher: None,
                });
            }
        }
        for (road, list) in on_road {
            let Some(r) = self.index.road(road) else { continue };
            let (Some(from), Some(to)) = (self.index.at(&r.from), self.index.at(&r.to)) else {
                continue;
            };
            for a in 0..list.len() {
                for b in a + 1..list.len() {
                    let (Some(x), Some(y)) = (list.get(a), list.get(b)) else {
                        continue;
                    };
                    let (sa, sb) = (
                        self.state.forces.get(x.force).map(|f| f.side.clone()),
                        self.state.forces.get(y.force).map(|f| f.side.clone()),
                    );
                    if sa == sb {
                        continue;
                    }
                    let crossed = (x.before - y.before) * (x.now - y.now) <= 0.0
                        && (x.before != x.now || y.before != y.now);
                    let still_marching = |m: Option<usize>| {
                        m.is_none_or(|k| marchers.get(k).is_some_and(|m| m.halted.is_none()))
                    };
                    if !crossed || !still_marching(x.marcher) || !still_marching(y.marcher) {
                        continue;
                    }
                    let meeting = (x.now + y.now) / 2.0;
                    let region = if meeting <= r.miles / 2.0 { from } else { to };
                    let why = format!(
                        "met the enemy on the road and fell back on {}",
                        self.index.name(region)
                    );
                    for (force, heading, marcher) in
                        [(x.force, x.heading, x.marcher), (y.force, y.heading, y.marcher)]
                    {
                        self.halt_at(force, region);
                        if heading == region {
                            self.arrivals.insert(force, (hour, *arrival_order));
                            self.came_from.insert(force, if region == to { from } else { to });
                            *arrival_order += 1;
                        }
                        if let Some(m) = marcher.and_then(|k| marchers.get_mut(k)) {
                            m.road = None;
                            m.at = region;
                            m.halted = Some(why.clone());
                        }
                    }
                }
            }
        }
    }

    fn halt_at(&mut self, force: usize, region: usize) {
        let Some(id) = self.index.id(region).cloned() else {
            return;
        };
        if let Some(f) = self.state.forces.get_mut(force) {
            f.region = id;
            f.en_route = None;
        }
        // It was on a road, so in no region's list until now.
        if let Some(list) = self.present.get_mut(region)
            && !list.contains(&force)
        {
            list.push(force);
        }
    }

    fn finish_march(&mut self, m: Marcher) {
        let Some(force) = self.state.forces.get_mut(m.force) else {
            return;
        };
        let mut ahead: Vec<RegionId> = Vec::new();
        if let Some(road) = m.road
            && let (Some(from), Some(to)) = (self.index.id(road.from), self.index.id(road.to))
        {
            force.region = from.clone();
            force.en_route = Some(EnRoute {
                toward: to.clone(),
                miles: kept_miles(road.done),
            });
        }
        // The path still ahead; on a road, its front is the road's far end.
        if m.halted.is_none() {
            ahead.extend(m.path.iter().filter_map(|r| self.index.id(*r).cloned()));
        }
        force.order = if ahead.is_empty() {
            StandingOrder::Hold
        } else {
            StandingOrder::March {
                path: ahead,
                forced: m.forced,
                by: Conveyance::Foot,
            }
        };
        let name = force.name.clone();
        let id = force.id.clone();
        let end = force.region.clone();
        let en_route = force.en_route.clone();
        let stands_marching = force.stands.len();
        if m.forced {
            force.fatigue.forced_in_row += 1;
        } else {
            force.fatigue.forced_in_row = 0;
        }
        let rest_due =
            m.forced && force.fatigue.forced_in_row >= self.state.house_rules.forced_marches_before_rest;
        if rest_due {
            force.fatigue.must_rest = true;
        }

        let start = self.index.name(m.start).to_owned();
        let length = m.road.map_or(0.0, |r| r.length);
        // One unit in the sentence: yards only when everything in it is under a mile.
        let unit = if m.miles < 1.0
            && (en_route.is_none() || length < 1.0)
            && m.start_on_road.is_none_or(|(_, out)| out < 1.0)
        {
            Unit::Yards
        } else {
            Unit::Miles
        };
        let mut sentence = match (m.start_on_road, m.miles > 0.0) {
            // It began the game move on a road: from there, not from the road's end.
            (Some((toward, out)), marched) => {
                let began = format!(
                    "{name}, {} out of {start} on the road to {}",
                    distance(out, unit),
                    self.index.name(toward)
                );
                if marched {
                    format!("{began}, marched {}", distance(m.miles, unit))
                } else {
                    format!("{began}, stood there")
                }
            }
            (None, true) => format!("{name} marched {} from {start}", distance(m.miles, unit)),
            (None, false) => format!("{name} stood at {start}"),
        };
        if let Some(en_route) = &en_route {
            let from = self.region_name(&end);
            sentence.push_str(&format!(
                " and is {} along the road from {from} to {}",
                part_of(en_route.miles, length, unit),
                self.region_name(&en_route.toward)
            ));
        } else if self.index.at(&end) != Some(m.start) {
            sentence.push_str(&format!(" to {}", self.region_name(&end)));
        }
        if m.forced {
            sentence.push_str(" by forced march");
        }
        if let Some(why) = &m.halted {
            sentence.push_str(&format!("; it halted: {why}"));
        }
        sentence.push('.');
        let payload = EventKind::Moved(ev::Moved {
            force: id.clone(),
            from: self.index.id(m.start).cloned(),
            to: end,
            en_route,
            miles: (m.miles * 10.0).round() / 10.0,
            forced: m.forced,
            halted: m.halted.clone(),
            by: Conveyance::Foot,
        });
        self.events.tell(payload, sentence);

        if m.forced {
            self.forced_march_losses(m.force, &id, stands_marching);
            if rest_due {
                self.events.tell(
                    EventKind::MustRest(ev::ForceRule {
                        force: id.clone(),
                        rule: "Strategic Rules 3.2".to_owned(),
                    }),
                    format!(
                        "{name} has made {} in a row and must rest next game move (Strategic Rules 3.2{}).",
                        plural(
                            self.state.house_rules.forced_marches_before_rest,
                            "forced march",
                            "forced marches"
                        ),
                        house_rule_note(
                            self.state.house_rules.forced_marches_before_rest != FORCED_MARCHES_BEFORE_REST
                        )
                    ),
                );
            }
        }
    }

    /// One stand lost for every ten (or fewer) marching, or the house rules'
    /// figure. Under the house rule `rejoin_after_moves` the stand is kept
    /// with its force as fallen out, to rejoin later ([`Turn::rejoin_fallen_out`]).
    fn forced_march_losses(&mut self, i: usize, force: &ForceId, marching: usize) {
        let rules = &self.state.house_rules;
        let per = rules.forced_march_loss_per;
        let rejoin = rules.rejoin_after_moves;
        let losses = rules.forced_march_losses(marching);
        for _ in 0..losses {
            let Some((stand, name)) = self.remove_random_stand(i, |_| true) else {
                return;
            };
            let mut sentence = format!(
                "{} falls out of {name} on the forced march (one stand for every {per} or fewer marching; Strategic Rules 3.1{})",
                stand.name,
                house_rule_note(per != STANDS_PER_FORCED_MARCH_LOSS)
            );
            let id = stand.id;
            if let Some(after) = rejoin {
                sentence.push_str(&format!(
                    "; it may rejoin on game move {} if {name} is then in supply (a house rule)",
                    self.turn.saturating_add(after)
                ));
                if let Some(f) = self.state.forces.get_mut(i) {
                    f.fallen_out.push(FallenOut {
                        stand,
                        turn: self.turn,
                    });
                }
            }
            sentence.push('.');
            self.events.tell(
                EventKind::ForcedMarchLoss(ev::StandLost {
                    force: force.clone(),
                    stand: id,
                    rule: "Strategic Rules 3.1".to_owned(),
                }),
                sentence,
            );
        }
    }

    /// Removes a stand, drawn from the campaign's stream among those `eligible`.
    fn remove_random_stand(
        &mut self,
        force: usize,
        eligible: impl Fn(&Stand) -> bool,
    ) -> Option<(Stand, String)> {
        let f = self.state.forces.get_mut(force)?;
        let candidates: Vec<usize> = f
            .stands
            .iter()
            .enumerate()
            .filter(|(_, s)| eligible(s))
            .map(|(i, _)| i)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let pick = *candidates.get(self.rng.random_range(0..candidates.len()))?;
        Some((f.stands.remove(pick), f.name.clone()))
    }

    // -- Arrivals ------------------------------------------------------------

    /// Reinforcements and replacements due this move (`super::arrivals`). A
    /// force that came onto the map stands in its region as one that moved
    /// in after every marcher.
    fn bring_on_arrivals(&mut self, first_free_stand: u32) {
        let new_forces =
            super::arrivals::bring_on(&mut self.state, self.turn, first_free_stand, &mut self.events);
        if new_forces.is_empty() {
            return;
        }
        self.force_at = None;
        let mut order = self.arrivals.len();
        for i in new_forces {
            let Some(region) = self.state.forces.get(i).and_then(|f| self.index.at(&f.region)) else {
                continue;
            };
            if let Some(list) = self.present.get_mut(region) {
                list.push(i);
            }
            self.arrivals.insert(i, (usize::MAX, order));
            order += 1;
        }
    }

    // -- Battles -------------------------------------------------------------

    fn make_battles(&mut self) {
        let mut by_region: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, f) in self.state.forces.iter().enumerate() {
            if f.en_route.is_none()
                && !f.stands.is_empty()
                && let Some(r) = self.index.at(&f.region)
            {
                by_region.entry(r).or_default().push(i);
            }
        }
        let mut pending_at: HashMap<usize, usize> = HashMap::default();
        for (b, battle) in self.state.battles.iter().enumerate() {
            if battle.status == BattleStatus::Pending
                && let Some(r) = self.index.at(&battle.region)
            {
                pending_at.insert(r, b);
            }
        }
        let mut next_id = self.state.battles.iter().map(|b| b.id).max().unwrap_or(0) + 1;
        // Battles made or joined this move: (index into `battles`, made now).
        let mut touched = Vec::new();
        for (&region, forces) in &by_region {
            let mut sides: Vec<&SideId> = Vec::new();
            for &i in forces {
                if let Some(f) = self.state.forces.get(i)
                    && !sides.contains(&&f.side)
                {
                    sides.push(&f.side);
                }
            }
            if sides.len() < 2 {
                continue;
            }
            let Some(region_id) = self.index.id(region).cloned() else {
                continue;
            };
            let ids: Vec<ForceId> = forces
                .iter()
                .filter_map(|&i| self.state.forces.get(i).map(|f| f.id.clone()))
                .collect();
            if let Some(&b) = pending_at.get(&region) {
                let Some(battle) = self.state.battles.get_mut(b) else {
                    continue;
                };
                let joining: Vec<usize> = forces
                    .iter()
                    .zip(&ids)
                    .filter(|(_, id)| !battle.forces.contains(id))
                    .map(|(&i, _)| i)
                    .collect();
                let battle_id = battle.id;
                let place = self.index.name(region).to_owned();
                for i in joining {
                    let Some(f) = self.state.forces.get(i) else {
                        continue;
                    };
                    let (id, name) = (f.id.clone(), f.name.clone());
                    let approach = self.approach(i);
                    if let Some(battle) = self.state.battles.get_mut(b) {
                        battle.forces.push(id.clone());
                        battle.reserves.retain(|r| r != &id);
                        battle.came_from.extend(approach);
                    }
                    self.events.tell(
                        EventKind::BattleJoined(ev::BattleJoined {
                            battle: battle_id,
                            force: id,
                        }),
                        format!("{name} joins the battle at {place} (battle {battle_id})."),
                    );
                }
                touched.push((b, false));
                continue;
            }
            // The attacker is the side that moved in first; the defender another side there.
            let mut movers: Vec<(usize, usize, &SideId)> = forces
                .iter()
                .filter_map(|i| Some((self.arrivals.get(i)?, &self.state.forces.get(*i)?.side)))
                .map(|((hour, order), side)| (*hour, *order, side))
                .collect();
            movers.sort();
            let attacker = movers.first().map_or(sides.first().copied(), |m| Some(m.2));
            let Some(attacker) = attacker.cloned() else {
                continue;
            };
            let moved: Vec<&SideId> = movers.iter().map(|m| m.2).collect();
            let defender = sides
                .iter()
                .find(|s| ***s != attacker && !moved.contains(s))
                .or_else(|| sides.iter().find(|s| ***s != attacker))
                .map(|s| (*s).clone());
            let Some(defender) = defender else { continue };
            let came_from = forces.iter().filter_map(|&i| self.approach(i)).collect();
            self.state.battles.push(Battle {
                id: next_id,
                turn: self.turn,
                region: region_id,
                attacker,
                defender,
                forces: ids,
                reserves: Vec::new(),
                status: BattleStatus::Pending,
                came_from,
                record: BattleRecord::default(),
            });
            next_id += 1;
            touched.push((self.state.battles.len() - 1, true));
            self.battle_regions.insert(region);
        }
        let engaged: HashSet<ForceId> = self
            .state
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
            .flat_map(|b| b.forces.iter().cloned())
            .collect();
        for (b, created) in touched {
            self.find_reserves(b, created, &engaged);
        }
    }

    /// Where force `i` marched into its region from this move, if it did.
    fn approach(&self, i: usize) -> Option<Approach> {
        let from = self.index.id(*self.came_from.get(&i)?)?.clone();
        let force = self.state.forces.get(i)?.id.clone();
        Some(Approach { force, from })
    }

    /// Forces of either side within one move of battle `b`, not in a battle themselves.
    fn find_reserves(&mut self, b: usize, created: bool, engaged: &HashSet<ForceId>) {
        let Some(battle) = self.state.battles.get(b) else {
            return;
        };
        let Some(region) = self.index.at(&battle.region) else {
            return;
        };
        // Forces in the regions next to the battle, in roll order.
        let mut near: BTreeSet<usize> = BTreeSet::new();
        for (next, road) in self.index.passable_from(region) {
            for &i in self.present.get(next).into_iter().flatten() {
                let Some(f) = self.state.forces.get(i) else {
                    continue;
                };
                let Some(r) = self.index.road(road) else { continue };
                let of_a_side = f.side == battle.attacker || f.side == battle.defender;
                if of_a_side
                    && !engaged.contains(&f.id)
                    && f.en_route.is_none()
                    && r.miles <= self.mph(i, road, next, region) * f64::from(MARCH_HOURS_PER_DAY)
                {
                    near.insert(i);
                }
            }
        }
        let battle = battle.clone();
        let reserves: Vec<ForceId> = near
            .iter()
            .filter_map(|&i| self.state.forces.get(i).map(|f| f.id.clone()))
            .collect();
        if let Some(stored) = self.state.battles.get_mut(b) {
            stored.reserves = reserves.clone();
        }
        if !created {
            return;
        }
        let mut named: Vec<(String, SideId)> = Vec::new();
        for id in &battle.forces {
            if let Some(f) = self.find(id).and_then(|i| self.state.forces.get(i)) {
                named.push((f.name.clone(), f.side.clone()));
            }
        }
        let list = |side: &SideId| -> String {
            let names: Vec<&str> = named
                .iter()
                .filter(|(_, s)| s == side)
                .map(|(n, _)| n.as_str())
                .collect();
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        };
        let reserve_names: Vec<&str> = near
            .iter()
            .filter_map(|&i| self.state.forces.get(i).map(|f| f.name.as_str()))
            .collect();
        let (attacker, defender) = (self.side_name(&battle.attacker), self.side_name(&battle.defender));
        let sentence = format!(
            "Battle at {} (battle {}, pending): {attacker} moved in on {defender}. {attacker}: {}. {defender}: {}. Reserves within a move: {}.",
            self.index.name(region),
            battle.id,
            list(&battle.attacker),
            list(&battle.defender),
            if reserve_names.is_empty() {
                "none".to_owned()
            } else {
                reserve_names.join(", ")
            },
        );
        let payload = EventKind::BattleCreated(ev::BattleCreated {
            battle: battle.id,
            region: battle.region.clone(),
            attacker: battle.attacker.clone(),
            defender: battle.defender.clone(),
            forces: battle.forces.clone(),
            reserves,
        });
        self.events.tell(payload, sentence);
    }

    // -- HQs -----------------------------------------------------------------

    /// "An HQ falls when an enemy force holds its region and no friendly force
    /// is there once any battle in it is decided" (DESIGN, campaign rules);
    /// a side that takes back its own HQ has retaken it.
    fn change_hq_hands(&mut self) {
        let holding = Holding::of(&self.state, &self.index);
        for h in 0..self.state.hqs.len() {
            let Some(hq) = self.state.hqs.get(h) else { continue };
            let Some(region) = self.index.at(&hq.region) else {
                continue;
            };
            if self.state.battle_in(&hq.region).is_some() {
                continue;
            }
            let Some(occupier) = holding.only_side_in(region) else {
                continue;
            };
            let Some(occupier) = self.state.sides.get(occupier).map(|s| s.id.clone()) else {
                continue;
            };
            if occupier == hq.held_by {
                continue;
            }
            if let Some((kind, sentence)) =
                super::hands::hand_over_hq(&mut self.state, h, &occupier, self.turn, None)
            {
                self.events.tell(kind, sentence);
            }
        }
    }

    fn hq_loss_attrition(&mut self) {
        let due: Vec<(SideId, String)> = self
            .state
            .hqs
            .iter()
            .filter(|hq| hq.held_by != hq.side)
            .filter(|hq| {
                hq.captured_turn.is_some_and(|c| {
                    self.turn >= c.saturating_add(self.state.house_rules.hq_loss_delay_moves)
                })
            })
            .map(|hq| (hq.side.clone(), hq.label(&self.side_name(&hq.side))))
            .collect();
        for (side, label) in due {
            let stands: Vec<(usize, usize)> = self
                .state
                .forces
                .iter()
                .enumerate()
                .filter(|(_, f)| f.side == side)
                .flat_map(|(i, f)| (0..f.stands.len()).map(move |s| (i, s)))
                .collect();
            if stands.is_empty() {
                continue;
            }
            let Some(&(force, stand)) = stands.get(self.rng.random_range(0..stands.len())) else {
                continue;
            };
            let Some(f) = self.state.forces.get_mut(force) else {
                continue;
            };
            let lost = f.stands.remove(stand);
            let (force_id, force_name) = (f.id.clone(), f.name.clone());
            self.events.tell(
                EventKind::HqLoss(ev::HqLoss {
                    side: side.clone(),
                    force: force_id,
                    stand: lost.id,
                    rule: "Strategic Rules 2.1".to_owned(),
                }),
                format!(
                    "{} of {force_name} is lost while the {label} is in enemy hands (Strategic Rules 2.1).",
                    lost.name
                ),
            );
        }
    }

    // -- Supply --------------------------------------------------------------

    fn trace_supply(&mut self) {
        let holding = Holding::of(&self.state, &self.index);
        for side in 0..self.state.sides.len() {
            let Some(side_id) = self.state.sides.get(side).map(|s| s.id.clone()) else {
                continue;
            };
            if !self.state.forces.iter().any(|f| f.side == side_id) {
                continue;
            }
            let net = supply::trace(&self.state, &self.index, &holding, side);
            let mut open_routes: Option<Vec<Option<usize>>> = None;
            for i in 0..self.state.forces.len() {
                let Some(force) = self.state.forces.get(i) else {
                    continue;
                };
                if force.side != side_id || force.stands.is_empty() {
                    continue;
                }
                let Some(region) = self.index.at(&force.region) else {
                    continue;
                };
                let supplied = net.reached.get(region).copied().unwrap_or(false);
                if supplied {
                    self.supply_restored(i);
                } else {
                    let routes = open_routes
                        .get_or_insert_with(|| supply::search(&self.index, &net.sources, |_| false));
                    let cuts = supply::cuts(&self.index, &holding, side, routes, region);
                    self.cut_off(i, &cuts);
                }
            }
        }
    }

    fn supply_restored(&mut self, force: usize) {
        let Some(f) = self.state.forces.get_mut(force) else {
            return;
        };
        if f.supply.cut_moves == 0 {
            return;
        }
        let moves = f.supply.cut_moves;
        f.supply = Default::default();
        let (id, name, region) = (f.id.clone(), f.name.clone(), f.region.clone());
        let place = self.region_name(&region);
        self.events.tell(
            EventKind::SupplyRestored(ev::SupplyRestored {
                force: id,
                after_moves: moves,
            }),
            format!("{name} at {place} is in supply again after {moves} game moves cut off."),
        );
    }

    fn cut_off(&mut self, force: usize, cuts: &[usize]) {
        let grace = self.state.house_rules.cut_moves_before_losses();
        let Some(f) = self.state.forces.get_mut(force) else {
            return;
        };
        f.supply.cut_moves += 1;
        let moves = f.supply.cut_moves;
        let (id, name, region) = (f.id.clone(), f.name.clone(), f.region.clone());
        let place = self.region_name(&region);
        let cut_names: Vec<&str> = cuts.iter().map(|r| self.index.name(*r)).collect();
        let cut_ids: Vec<&RegionId> = cuts.iter().filter_map(|r| self.index.id(*r)).collect();
        let why = if cut_names.is_empty() {
            "no road leads to an HQ its side still holds".to_owned()
        } else {
            format!(
                "the enemy holds {} on its road to the nearest HQ",
                cut_names.join(", ")
            )
        };
        if moves == 1 {
            self.events.tell(
                EventKind::SupplyCut(ev::SupplyCut {
                    force: id.clone(),
                    cut_at: cut_ids.iter().map(|r| (*r).clone()).collect(),
                }),
                format!(
                    "{name} at {place} is cut off from its HQs: {why}. It loses a stand each game move from game move {} unless the road is reopened (Strategic Rules 2.2).",
                    self.turn.saturating_add(grace)
                ),
            );
        } else if moves <= grace {
            self.events.tell(
                EventKind::SupplyStillCut(ev::SupplyStillCut {
                    force: id.clone(),
                    cut_moves: moves,
                    cut_at: cut_ids.iter().map(|r| (*r).clone()).collect(),
                }),
                format!(
                    "{name} at {place} has been cut off for {moves} game moves ({why}); losses begin in {} more.",
                    grace + 1 - moves
                ),
            );
        }
        if moves > grace {
            // "one Infantry stand on one move and one cavalry stand on the next, etc."
            let wanted = self
                .state
                .forces
                .get(force)
                .and_then(|f| f.supply.next_loss)
                .unwrap_or(Arm::Infantry);
            let other = if wanted == Arm::Infantry {
                Arm::Cavalry
            } else {
                Arm::Infantry
            };
            let lost = self
                .remove_random_stand(force, |s| s.kind.arm() == wanted)
                .or_else(|| self.remove_random_stand(force, |s| s.kind.arm() == other))
                .or_else(|| self.remove_random_stand(force, |_| true));
            let Some((stand, _)) = lost else { return };
            let taken = stand.kind.arm();
            if let Some(f) = self.state.forces.get_mut(force) {
                f.supply.next_loss = Some(if taken == Arm::Infantry {
                    Arm::Cavalry
                } else {
                    Arm::Infantry
                });
            }
            self.events.tell(
                EventKind::SupplyLoss(ev::SupplyLoss {
                    force: id.clone(),
                    stand: stand.id,
                    arm: taken,
                    cut_moves: moves,
                    rule: "Strategic Rules 2.2".to_owned(),
                    cut_at: cut_ids.iter().map(|r| (*r).clone()).collect(),
                }),
                format!(
                    "{} of {name} is lost: cut off for {moves} game moves ({why}; Strategic Rules 2.2).",
                    stand.name
                ),
            );
        }
    }

    /// The house rule `rejoin_after_moves`: stands fallen out on a forced
    /// march rejoin their force once the game moves have passed, at the end of
    /// the first game move from then in which the force is in supply (it was
    /// traced just before); while it is cut off they wait. This program's
    /// reading of the house rule the issue asks for: the seed removes them
    /// (`scruby-basic-war-game-rules.txt`, Strategic Rules 3.1). A force
    /// struck off takes its stragglers with it.
    fn rejoin_fallen_out(&mut self) {
        let Some(after) = self.state.house_rules.rejoin_after_moves else {
            return;
        };
        let (turn, index) = (self.turn, &self.index);
        let mut told = Vec::new();
        for f in &mut self.state.forces {
            if f.fallen_out.is_empty() || f.supply.cut_moves > 0 || f.stands.is_empty() {
                continue;
            }
            let (due, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut f.fallen_out)
                .into_iter()
                .partition(|o| o.turn.saturating_add(after) <= turn);
            f.fallen_out = waiting;
            if due.is_empty() {
                continue;
            }
            let names: Vec<String> = due.iter().map(|o| o.stand.name.clone()).collect();
            let stands: Vec<StandId> = due.iter().map(|o| o.stand.id).collect();
            f.stands.extend(due.into_iter().map(|o| o.stand));
            let name_of = |id: &RegionId| {
                index
                    .at(id)
                    .map_or_else(|| id.to_string(), |r| index.name(r).to_owned())
            };
            let place = match &f.en_route {
                None => format!("at {}", name_of(&f.region)),
                Some(e) => format!(
                    "on the road from {} to {}",
                    name_of(&f.region),
                    name_of(&e.toward)
                ),
            };
            let sentence = format!(
                "{} {} {} {place}, in supply (fallen out on a forced march; rejoining after {} is a house rule).",
                names.join(", "),
                if names.len() == 1 { "rejoins" } else { "rejoin" },
                f.name,
                plural(after, "game move", "game moves")
            );
            told.push((f.id.clone(), stands, sentence));
        }
        for (force, stands, sentence) in told {
            self.events.tell(
                EventKind::StandsRejoined(ev::StandsRejoined {
                    force,
                    stands,
                    rule: "house rule rejoin_after_moves".to_owned(),
                }),
                sentence,
            );
        }
    }

    // -- The end -------------------------------------------------------------

    fn strike_empty_forces(&mut self) {
        let struck = self.state.forces.iter().filter(|f| f.stands.is_empty());
        self.vanished.extend(struck.map(|f| Vanished::of(f, None)));
        for (kind, sentence) in super::hands::strike_empty(&mut self.state) {
            self.events.tell(kind, sentence);
        }
    }

    fn finish(mut self) -> TurnOutcome {
        self.state.rng.advance_to(&self.rng);
        let pending = self
            .state
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
            .count();
        let summary = EventKind::TurnEnded(ev::TurnEnded {
            turn: self.turn,
            battles_pending: pending,
        });
        let sentence = format!(
            "Game move {} ends; {} battle{} pending.",
            self.turn,
            pending,
            if pending == 1 { "" } else { "s" }
        );
        self.events.tell(summary, sentence);
        // The campaign file's end conditions, once the game move is whole.
        if let Some((kind, sentence)) = super::end::after_move(&mut self.state, self.turn) {
            self.events.tell(kind, sentence);
        }
        self.state.turn = self.turn.saturating_add(1);
        TurnOutcome {
            campaign: self.state,
            events: self.events.into_events(),
        }
    }
}

const YARDS_PER_MILE: f64 = 1760.0;

/// A force's place along a road is kept to the thousandth of a mile (under
/// two yards), rounded down so that it never reaches the road's end: this
/// program's own choice, finer than any map or sentence shows, so that the
/// save keeps the place in a few digits rather than a float's seventeen
/// (issue 13: history grows with what a game move changed, not with noise).
const PLACES_PER_MILE: f64 = 1000.0;

/// `miles` along a road, as a force's place is kept.
fn kept_miles(miles: f64) -> f64 {
    (miles * PLACES_PER_MILE).floor() / PLACES_PER_MILE
}

/// The unit of distance of one sentence about the map: miles, or yards when
/// all it tells is under a mile (the tabletop maps of the 1961 game are a few
/// miles across). Never both in one sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Miles,
    Yards,
}

/// A distance for people in `unit`: miles to a tenth, yards to ten.
/// "3 forced marches", "1 game move".
fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Said after a rule's section when the campaign's house rules changed its figure.
fn house_rule_note(changed: bool) -> &'static str {
    if changed {
        ", as the house rules set it"
    } else {
        ""
    }
}

fn distance(miles: f64, unit: Unit) -> String {
    match unit {
        Unit::Yards => format!("{:.0} yards", yards(miles)),
        Unit::Miles => format!("{miles:.1} miles"),
    }
}

fn yards(miles: f64) -> f64 {
    (miles * YARDS_PER_MILE / 10.0).round() * 10.0
}

/// "3.5 of 7.5 miles", or "1200 of 1410 yards".
fn part_of(done: f64, length: f64, unit: Unit) -> String {
    match unit {
        Unit::Yards => format!("{:.0} of {:.0} yards", yards(done), yards(length)),
        Unit::Miles => format!("{done:.1} of {length:.1} miles"),
    }
}

impl Marcher {
    fn placeholder() -> Marcher {
        Marcher {
            force: usize::MAX,
            path: VecDeque::new(),
            road: None,
            hours_left: 0,
            forced: false,
            start: 0,
            start_on_road: None,
            at: 0,
            miles: 0.0,
            halted: None,
            last: None,
        }
    }
}
