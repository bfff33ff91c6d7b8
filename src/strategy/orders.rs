//! Orders: what a side tells its forces to do in a game move.
//!
//! Orders arrive as requests, from an orders file (`read_orders_file`) or
//! from the app (`check_requests`), and are checked against the campaign as
//! one whole: either every order is good and an `OrderSet` comes back, or
//! nothing is accepted and each bad order is named with its reason.

use super::index::MapIndex;
use super::movement::miles_per_move;
use crate::model::check::{Checked, Sink, Source, region_suggestion, suggestion};
use crate::model::{Campaign, Conveyance, Force, ForceId, RegionId, SideId, StandId};
use petgraph::graph::NodeIndex;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use toml::Spanned;

/// A checked order, as kept in the save and carried out by the game move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum Order {
    /// March through `path`, the regions ahead in order.
    March {
        force: ForceId,
        path: Vec<RegionId>,
        forced: bool,
        /// On foot, by train or by steamer.
        #[serde(default, skip_serializing_if = "Conveyance::is_foot")]
        by: Conveyance,
    },
    Hold {
        force: ForceId,
    },
    /// Move `stands` out of `force` into a new force in the same region.
    Split {
        force: ForceId,
        stands: Vec<StandId>,
        new_force: ForceId,
        name: String,
    },
    /// Move every stand of `force` into `into`, in the same region; `force` is gone.
    Merge {
        force: ForceId,
        into: ForceId,
    },
}

/// One side's checked orders for one game move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderSet {
    pub side: SideId,
    pub turn: u32,
    pub orders: Vec<Order>,
}

impl OrderSet {
    /// "3 marches (1 forced), 1 hold, 1 split" for the turn log.
    pub fn summary(&self) -> String {
        let (mut marches, mut forced, mut holds, mut splits, mut merges) = (0, 0, 0, 0, 0);
        for order in &self.orders {
            match order {
                Order::March { forced: f, .. } => {
                    marches += 1;
                    forced += usize::from(*f);
                }
                Order::Hold { .. } => holds += 1,
                Order::Split { .. } => splits += 1,
                Order::Merge { .. } => merges += 1,
            }
        }
        let mut parts = Vec::new();
        let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if marches > 0 {
            let extra = if forced > 0 {
                format!(" ({forced} forced)")
            } else {
                String::new()
            };
            parts.push(format!("{}{extra}", count(marches, "march", "marches")));
        }
        if holds > 0 {
            parts.push(count(holds, "hold", "holds"));
        }
        if splits > 0 {
            parts.push(count(splits, "split", "splits"));
        }
        if merges > 0 {
            parts.push(count(merges, "merge", "merges"));
        }
        if parts.is_empty() {
            "no orders".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

/// What a side asks of one force, before it is checked.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderRequest {
    pub force: ForceId,
    pub action: Action,
    /// Forced march (with `March` and `To` only).
    pub forced: bool,
    /// By train or steamer (with `March` and `To` only); on foot by default.
    pub by: Conveyance,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// March through these regions in order.
    March(Vec<RegionId>),
    /// March to this region by the quickest way.
    To(RegionId),
    Hold,
    Split {
        stands: Vec<StandId>,
        new_force: ForceId,
        name: String,
    },
    MergeInto(ForceId),
}

/// Which part of a request a problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Force,
    Action,
    /// The n-th region of a march.
    Step(usize),
    Forced,
    /// The n-th stand of a split.
    Stand(usize),
    NewForce,
    NewName,
    /// `by`: train or steamer.
    By,
}

/// Why one request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderProblem {
    /// The request's place in the list, from 0.
    pub entry: usize,
    pub part: Part,
    pub message: String,
}

/// Checks a side's requests as [`check_requests`] does, but leaves out each
/// request the check refuses and checks the rest again, so one bad request
/// does not cost the others: the orders of the good ones, and each refused
/// request with its problem. For orders a program computed (`ai`), where
/// there is no person to send the file back to.
pub fn check_leaving_out(
    campaign: &Campaign,
    side: &SideId,
    mut requests: Vec<OrderRequest>,
) -> (OrderSet, Vec<(OrderRequest, OrderProblem)>) {
    let mut refused = Vec::new();
    // Each round leaves out at least one request, so it ends.
    for _ in 0..=requests.len() {
        match check_requests(campaign, side, &requests) {
            Ok(set) => return (set, refused),
            Err(problems) => {
                let bad: std::collections::HashSet<usize> = problems.iter().map(|p| p.entry).collect();
                for problem in problems {
                    if let Some(request) = requests.get(problem.entry) {
                        refused.push((request.clone(), problem));
                    }
                }
                requests = requests
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !bad.contains(i))
                    .map(|(_, r)| r)
                    .collect();
            }
        }
    }
    let empty = OrderSet {
        side: side.clone(),
        turn: campaign.turn,
        orders: Vec::new(),
    };
    (empty, refused)
}

/// Checks a side's requests against the campaign. All good: the orders; any
/// bad: every problem, and no orders at all.
pub fn check_requests(
    campaign: &Campaign,
    side: &SideId,
    requests: &[OrderRequest],
) -> Result<OrderSet, Vec<OrderProblem>> {
    let mut checker = Checker::new(campaign, side);
    let orders: Vec<Order> = requests
        .iter()
        .enumerate()
        .filter_map(|(entry, request)| checker.check(entry, request))
        .collect();
    if checker.problems.is_empty() {
        Ok(OrderSet {
            side: side.clone(),
            turn: campaign.turn,
            orders,
        })
    } else {
        Err(checker.problems)
    }
}

/// A force as the checker sees it: a real one, or one a split earlier in the
/// same orders makes.
struct Known<'c> {
    side: &'c SideId,
    region: &'c RegionId,
    force: Option<&'c Force>,
}

struct Checker<'c> {
    campaign: &'c Campaign,
    side: &'c SideId,
    index: MapIndex<'c>,
    /// Regions the enemy holds: enemy forces there and none of ours.
    enemy_held: HashSet<usize>,
    created: HashMap<ForceId, (&'c RegionId, String)>,
    gone: HashSet<ForceId>,
    moved: HashMap<ForceId, usize>,
    problems: Vec<OrderProblem>,
    graph: Option<petgraph::graph::UnGraph<usize, usize>>,
}

impl<'c> Checker<'c> {
    fn new(campaign: &'c Campaign, side: &'c SideId) -> Self {
        let index = MapIndex::new(&campaign.map);
        let mut ours = HashSet::new();
        for force in campaign
            .forces
            .iter()
            .filter(|f| f.en_route.is_none() && &f.side == side)
        {
            if let Some(r) = index.at(&force.region) {
                ours.insert(r);
            }
        }
        // Enemy forces as the side sees them now, blinds included: its
        // orders are checked against what it knows, never against the
        // umpire's full view (the fog of war).
        let theirs: HashSet<usize> = campaign
            .knowledge
            .of(side)
            .filter(|s| s.in_sight && s.en_route.is_none())
            .filter_map(|s| index.at(&s.region))
            .collect();
        let enemy_held = theirs.difference(&ours).copied().collect();
        Checker {
            campaign,
            side,
            index,
            enemy_held,
            created: HashMap::new(),
            gone: HashSet::new(),
            moved: HashMap::new(),
            problems: Vec::new(),
            graph: None,
        }
    }

    fn problem(&mut self, entry: usize, part: Part, message: impl Into<String>) {
        self.problems.push(OrderProblem {
            entry,
            part,
            message: message.into(),
        });
    }

    fn side_name(&self, side: &SideId) -> &'c str {
        self.campaign
            .side(side)
            .map_or("another side", |s| s.name.as_str())
    }

    fn known(&self, id: &ForceId) -> Option<Known<'c>> {
        if self.gone.contains(id) {
            return None;
        }
        if let Some(force) = self.campaign.force(id) {
            return Some(Known {
                side: &force.side,
                region: &force.region,
                force: Some(force),
            });
        }
        self.created.get(id).map(|(region, _)| Known {
            side: self.side,
            region,
            force: None,
        })
    }

    fn find_force(&mut self, entry: usize, id: &ForceId) -> Option<Known<'c>> {
        let Some(known) = self.known(id) else {
            // Only its own forces: a hint must not name an enemy force (the fog of war).
            let ids = self.campaign.forces_of(self.side).map(|f| f.id.as_str());
            let hint = suggestion(id.as_str(), ids);
            let why = if self.gone.contains(id) {
                ": it is merged into another force by an earlier order"
            } else {
                ""
            };
            self.problem(entry, Part::Force, format!("unknown force `{id}`{hint}{why}"));
            return None;
        };
        if known.side != self.side && !self.campaign.knowledge.identified(self.side, id) {
            // An enemy force the side has never identified is no more known
            // to it than a misspelt id.
            let ids = self.campaign.forces_of(self.side).map(|f| f.id.as_str());
            let hint = suggestion(id.as_str(), ids);
            self.problem(entry, Part::Force, format!("unknown force `{id}`{hint}"));
            return None;
        }
        if known.side != self.side {
            let message = format!(
                "force `{id}` belongs to {}, not to {}: a side orders only its own forces",
                self.side_name(known.side),
                self.side_name(self.side)
            );
            self.problem(entry, Part::Force, message);
            return None;
        }
        Some(known)
    }

    fn check(&mut self, entry: usize, request: &OrderRequest) -> Option<Order> {
        let known = self.find_force(entry, &request.force)?;
        let id = &request.force;
        let moves = matches!(request.action, Action::March(_) | Action::To(_));
        if request.forced && !moves {
            self.problem(
                entry,
                Part::Forced,
                "forced = true needs a march (`march` or `to`)",
            );
        }
        if matches!(request.action, Action::March(_) | Action::To(_) | Action::Hold) {
            if let Some(first) = self.moved.get(id) {
                let message = format!(
                    "second march or hold order for force `{id}`: the first is order {}",
                    first + 1
                );
                self.problem(entry, Part::Force, message);
                return None;
            }
            self.moved.insert(id.clone(), entry);
        }
        if moves && let Some(force) = known.force {
            if force.fatigue.must_rest {
                let limit = self.campaign.house_rules.forced_marches_before_rest;
                let message = format!(
                    "force `{id}` made {} in a row and must rest this game move (Strategic Rules 3.2): order it to hold, or march it next move",
                    match limit {
                        1 => "a forced march".to_owned(),
                        3 => "three forced marches".to_owned(),
                        n => format!("{n} forced marches"),
                    }
                );
                self.problem(entry, Part::Action, message);
                return None;
            }
            if let Some(battle) = self
                .campaign
                .battle_in(&force.region)
                .filter(|_| force.en_route.is_none())
            {
                let message = format!(
                    "force `{id}` is in the pending battle at {} (battle {}): it cannot march until the battle is decided",
                    self.index.map.region_name(&battle.region),
                    battle.id
                );
                self.problem(entry, Part::Action, message);
                return None;
            }
        }
        if !request.by.is_foot() {
            return self.check_carried(entry, &known, request);
        }
        match &request.action {
            Action::Hold => Some(Order::Hold { force: id.clone() }),
            Action::March(path) => {
                let path = self.check_path(entry, &known, path, request.forced)?;
                Some(self.march(id, path, request.forced, Conveyance::Foot))
            }
            Action::To(destination) => {
                let path = self.route(entry, &known, destination)?;
                let path = self.check_path(entry, &known, &path, request.forced)?;
                Some(self.march(id, path, request.forced, Conveyance::Foot))
            }
            Action::Split {
                stands,
                new_force,
                name,
            } => self.check_split(entry, id, &known, stands, new_force, name),
            Action::MergeInto(into) => self.check_merge(entry, id, &known, into),
        }
    }

    fn march(&self, force: &ForceId, path: Vec<RegionId>, forced: bool, by: Conveyance) -> Order {
        if path.is_empty() {
            Order::Hold { force: force.clone() }
        } else {
            Order::March {
                force: force.clone(),
                path,
                forced,
                by,
            }
        }
    }

    /// The region a march starts from, and, on the road, the two it may go to.
    fn start(&self, known: &Known<'c>) -> (Option<usize>, Vec<usize>) {
        let here = self.index.at(known.region);
        match known.force.and_then(|f| f.en_route.as_ref()) {
            Some(en_route) => (
                None,
                here.into_iter().chain(self.index.at(&en_route.toward)).collect(),
            ),
            None => (here, Vec::new()),
        }
    }

    /// Checks a march path; returns it without a leading current region.
    fn check_path(
        &mut self,
        entry: usize,
        known: &Known<'c>,
        path: &[RegionId],
        forced: bool,
    ) -> Option<Vec<RegionId>> {
        let (here, road_ends) = self.start(known);
        let skip = usize::from(here.is_some() && path.first() == Some(known.region));
        if path.len() <= skip {
            if !path.is_empty() {
                return Some(Vec::new());
            }
            self.problem(
                entry,
                Part::Action,
                "the march names no region: list the regions to march through",
            );
            return None;
        }
        let mut ok = true;
        let mut previous = here;
        for (step, region) in path.iter().enumerate().skip(skip) {
            let Some(at) = self.index.at(region) else {
                let message = unknown_region(self.index.map, region);
                self.problem(entry, Part::Step(step), message);
                ok = false;
                previous = None;
                continue;
            };
            match previous {
                Some(from) => ok &= self.check_leg(entry, step, from, at),
                None if step == skip && !road_ends.is_empty() && !road_ends.contains(&at) => {
                    let ends: Vec<&str> = road_ends.iter().map(|r| self.index.name(*r)).collect();
                    let message = format!(
                        "force `{}` is on the road between {}: its march must go on from one end of that road, not from `{region}`",
                        known.force.map_or("?", |f| f.id.as_str()),
                        ends.join(" and ")
                    );
                    self.problem(entry, Part::Step(step), message);
                    ok = false;
                }
                None => {}
            }
            if forced && self.enemy_held.contains(&at) {
                let message = format!(
                    "a forced march may not be used to attack (Strategic Rules 3.4): {} on its path is held by the enemy",
                    self.index.name(at)
                );
                self.problem(entry, Part::Step(step), message);
                ok = false;
            }
            previous = Some(at);
        }
        ok.then(|| path.iter().skip(skip).cloned().collect())
    }

    /// Checks one leg of a march: a road joins the two regions and can be used.
    fn check_leg(&mut self, entry: usize, step: usize, from: usize, to: usize) -> bool {
        let roads: Vec<usize> = self.index.roads_between(from, to).collect();
        if roads.is_empty() {
            let message = format!(
                "{} and {} are not joined by a road on the map: march through the regions between them, or use `to` to be routed",
                self.index.name(from),
                self.index.name(to)
            );
            self.problem(entry, Part::Step(step), message);
            false
        } else if !roads.iter().any(|r| self.index.is_passable(*r)) {
            let message = format!(
                "the road from {} to {} crosses the river where there is no bridge or ford",
                self.index.name(from),
                self.index.name(to)
            );
            self.problem(entry, Part::Step(step), message);
            false
        } else {
            true
        }
    }

    /// The quickest march to `destination` in hours of marching (petgraph's
    /// A* with no heuristic, that is Dijkstra), on roads troops can use.
    fn route(&mut self, entry: usize, known: &Known<'c>, destination: &RegionId) -> Option<Vec<RegionId>> {
        let Some(goal) = self.index.at(destination) else {
            let message = unknown_region(self.index.map, destination);
            self.problem(entry, Part::Action, message);
            return None;
        };
        let (here, road_ends) = self.start(known);
        let starts: Vec<usize> = here.into_iter().chain(road_ends).collect();
        let campaign = self.campaign;
        let index = &self.index;
        let graph = self.graph.get_or_insert_with(|| campaign.map.graph());
        let force = known.force;
        let cost = |road: usize, a: usize, b: usize| -> f64 {
            let (Some(r), Some(ra), Some(rb)) = (
                index.road(road),
                campaign.map.regions.get(a),
                campaign.map.regions.get(b),
            ) else {
                return f64::INFINITY;
            };
            if !index.is_passable(road) {
                return f64::INFINITY;
            }
            let per_move = force.map_or(1.0, |f| miles_per_move(campaign, f, r, ra.terrain, rb.terrain));
            if per_move > 0.0 {
                r.miles / per_move
            } else {
                f64::INFINITY
            }
        };
        let mut best: Option<(f64, Vec<usize>)> = None;
        for start in starts {
            let found = petgraph::algo::astar(
                &*graph,
                NodeIndex::new(start),
                |n| n.index() == goal,
                |e| {
                    use petgraph::visit::EdgeRef;
                    cost(*e.weight(), e.source().index(), e.target().index())
                },
                |_| 0.0,
            );
            if let Some((hours, nodes)) = found.filter(|(h, _)| h.is_finite())
                && best.as_ref().is_none_or(|(b, _)| hours < *b)
            {
                let mut path: Vec<usize> = nodes.iter().map(|n| n.index()).collect();
                if here.is_some() {
                    path.remove(0);
                }
                best = Some((hours, path));
            }
        }
        match best {
            Some((_, path)) => Some(path.iter().filter_map(|r| index.id(*r).cloned()).collect()),
            None => {
                let from = self.index.name(here.unwrap_or_default());
                let message = format!(
                    "no road leads from {from} to {}: roads that meet a river with no bridge or ford cannot be used",
                    self.index.name(goal)
                );
                self.problem(entry, Part::Action, message);
                None
            }
        }
    }

    /// Checks a journey by train or steamer: from a station (a landing
    /// place) the force is in, along railways (a river) all the way, to a
    /// station (a landing place), through no region the side knows the enemy
    /// holds, in one go: no forced march, and no bigger than a line carries
    /// in a game move.
    fn check_carried(&mut self, entry: usize, known: &Known<'c>, request: &OrderRequest) -> Option<Order> {
        let by = request.by;
        let id = &request.force;
        let (what, stop, way) = transport_words(by);
        if request.forced {
            self.problem(
                entry,
                Part::Forced,
                format!("a force going by {what} is carried, not force-marched: leave out `forced`"),
            );
            return None;
        }
        if !matches!(request.action, Action::March(_) | Action::To(_)) {
            self.problem(
                entry,
                Part::By,
                format!("`by = \"{by}\"` goes with a journey: `march = [..]` or `to = \"..\"`"),
            );
            return None;
        }
        let Some(force) = known.force else {
            self.problem(
                entry,
                Part::Force,
                format!("force `{id}` is made by this file's orders: it can board next game move"),
            );
            return None;
        };
        let Some(here) = self.index.at(&force.region).filter(|_| force.en_route.is_none()) else {
            self.problem(
                entry,
                Part::By,
                format!("force `{id}` is on the march between two regions: it can board only at a {stop}"),
            );
            return None;
        };
        if !is_stop(&self.index, here, by) {
            let message = format!(
                "{} is not a {stop} on a {way}: force `{id}` must march to one first{}",
                self.index.name(here),
                nearest_stops(&self.index, here, by)
            );
            self.problem(entry, Part::By, message);
            return None;
        }
        let capacity = self.campaign.transport.capacity(by);
        let stands = u32::try_from(force.stands.len()).unwrap_or(u32::MAX);
        if stands > capacity {
            let message = format!(
                "force `{id}` has {stands} stands, but a {way}'s {what}s carry {capacity} a game move: split it and send it in parts"
            );
            self.problem(entry, Part::By, message);
            return None;
        }
        // Regions the side knows the enemy holds: its forces seen there, or,
        // with none of the side's own there, an HQ it holds (HQs are public).
        let own_at: HashSet<usize> = self
            .campaign
            .forces_of(self.side)
            .filter(|f| f.en_route.is_none())
            .filter_map(|f| self.index.at(&f.region))
            .collect();
        let barred: HashSet<usize> = self
            .campaign
            .hqs
            .iter()
            .filter(|h| &h.held_by != self.side)
            .filter_map(|h| self.index.at(&h.region))
            .filter(|r| !own_at.contains(r))
            .chain(self.enemy_held.iter().copied())
            .collect();
        // Each region of the journey, with the step of the march list that names it.
        let path: Vec<(usize, Option<usize>)> = match &request.action {
            Action::To(destination) => {
                let Some(goal) = self.index.at(destination) else {
                    let message = unknown_region(self.index.map, destination);
                    self.problem(entry, Part::Action, message);
                    return None;
                };
                match carried_route(self.campaign, &self.index, here, goal, by, |r| {
                    barred.contains(&r)
                }) {
                    Some(path) => path.into_iter().map(|r| (r, None)).collect(),
                    None => {
                        let message = format!(
                            "no {way} joins {} to {}: travel by {what} goes only along {way}s",
                            self.index.name(here),
                            self.index.name(goal)
                        );
                        self.problem(entry, Part::Action, message);
                        return None;
                    }
                }
            }
            Action::March(regions) => {
                let skip = usize::from(regions.first() == Some(&force.region));
                let mut path = Vec::new();
                let mut ok = true;
                let mut previous = Some(here);
                for (step, region) in regions.iter().enumerate().skip(skip) {
                    let Some(at) = self.index.at(region) else {
                        let message = unknown_region(self.index.map, region);
                        self.problem(entry, Part::Step(step), message);
                        ok = false;
                        previous = None;
                        continue;
                    };
                    if let Some(from) = previous
                        && !self
                            .index
                            .roads_between(from, at)
                            .any(|r| self.index.carries(r, by))
                    {
                        let message = format!(
                            "no {way} joins {} to {}: a journey by {what} goes from {stop} to {stop} along the {way}",
                            self.index.name(from),
                            self.index.name(at)
                        );
                        self.problem(entry, Part::Step(step), message);
                        ok = false;
                    }
                    path.push((at, Some(step)));
                    previous = Some(at);
                }
                if !ok {
                    return None;
                }
                path
            }
            _ => return None,
        };
        let mut ok = true;
        for &(at, step) in &path {
            if barred.contains(&at) {
                let message = format!(
                    "the enemy holds {} on the {way}: a {what} cannot pass it (march there to attack)",
                    self.index.name(at),
                );
                self.problem(entry, step.map_or(Part::Action, Part::Step), message);
                ok = false;
            }
        }
        let path: Vec<usize> = path.into_iter().map(|(r, _)| r).collect();
        if let Some(&last) = path.last()
            && !is_stop(&self.index, last, by)
        {
            let message = format!(
                "{} is not a {stop}: a journey by {what} must end at one",
                self.index.name(last)
            );
            self.problem(entry, Part::Action, message);
            ok = false;
        }
        if !ok {
            return None;
        }
        // Every stretch between stops must fit in one game move's run, or the
        // journey would wait at a station for ever.
        if let Err(at) = super::transport::whole_journey(self.campaign, &self.index, here, &path, by) {
            // The stretch beyond `at`: the path after it (all of it from the start).
            let beyond = path.iter().position(|r| *r == at).map_or(0, |k| k + 1);
            let stop_ahead = path
                .iter()
                .skip(beyond)
                .copied()
                .find(|r| is_stop(&self.index, *r, by))
                .unwrap_or(at);
            let t = &self.campaign.transport;
            let rate = match by {
                Conveyance::River => format!(
                    "{} miles upstream, {} down",
                    t.river_upstream_miles_per_move, t.river_downstream_miles_per_move
                ),
                _ => format!("{} miles", t.miles_per_move(by, false)),
            };
            let message = format!(
                "from {} to the next {stop}, {}, is further than a {what} goes in a game move ({rate}): march that stretch, or give the campaign file a higher rate",
                self.index.name(at),
                self.index.name(stop_ahead),
            );
            self.problem(entry, Part::Action, message);
            return None;
        }
        let path = path.iter().filter_map(|r| self.index.id(*r).cloned()).collect();
        Some(self.march(id, path, false, by))
    }

    fn check_split(
        &mut self,
        entry: usize,
        id: &ForceId,
        known: &Known<'c>,
        stands: &[StandId],
        new_force: &ForceId,
        name: &str,
    ) -> Option<Order> {
        let Some(force) = known.force else {
            self.problem(
                entry,
                Part::Force,
                format!("force `{id}` is made by this file's orders: split it next move"),
            );
            return None;
        };
        let mut ok = true;
        if force.en_route.is_some() {
            let message =
                format!("force `{id}` is on the march between two regions: it can split only in a region");
            self.problem(entry, Part::Force, message);
            ok = false;
        }
        if stands.is_empty() {
            self.problem(
                entry,
                Part::Action,
                "a split names the stands that leave: `stands = [..]`",
            );
            ok = false;
        }
        let mut seen = HashSet::new();
        for (i, stand) in stands.iter().enumerate() {
            if !force.stands.iter().any(|s| s.id == *stand) {
                self.problem(
                    entry,
                    Part::Stand(i),
                    format!("stand {stand} is not in force `{id}`"),
                );
                ok = false;
            } else if !seen.insert(*stand) {
                self.problem(entry, Part::Stand(i), format!("stand {stand} is listed twice"));
                ok = false;
            }
        }
        if !stands.is_empty() && seen.len() == force.stands.len() {
            let message = format!(
                "the split takes every stand of `{id}`: leave at least one, or march the whole force"
            );
            self.problem(entry, Part::Action, message);
            ok = false;
        }
        if !crate::model::is_valid_key(new_force.as_str()) {
            let message = format!(
                "new force id `{new_force}` must start with a lowercase letter and hold only lowercase letters, digits, `-` and `_`"
            );
            self.problem(entry, Part::NewForce, message);
            ok = false;
        } else if self.campaign.force(new_force).is_some() || self.created.contains_key(new_force) {
            self.problem(
                entry,
                Part::NewForce,
                format!("a force `{new_force}` already exists: choose another id"),
            );
            ok = false;
        }
        if name.trim().is_empty() {
            self.problem(entry, Part::NewName, "the new force needs a name");
            ok = false;
        } else if let Some(problem) = crate::model::text::name_problem(name, "the new force's") {
            self.problem(entry, Part::NewName, problem);
            ok = false;
        } else if self.campaign.forces.iter().any(|f| f.name == name)
            || self.created.values().any(|(_, n)| n == name)
        {
            self.problem(
                entry,
                Part::NewName,
                format!("a force is already named `{name}`: choose another name"),
            );
            ok = false;
        }
        if !ok {
            return None;
        }
        self.created
            .insert(new_force.clone(), (&force.region, name.to_owned()));
        Some(Order::Split {
            force: id.clone(),
            stands: stands.to_vec(),
            new_force: new_force.clone(),
            name: name.to_owned(),
        })
    }

    fn check_merge(
        &mut self,
        entry: usize,
        id: &ForceId,
        known: &Known<'c>,
        into: &ForceId,
    ) -> Option<Order> {
        if into == id {
            self.problem(
                entry,
                Part::Action,
                format!("force `{id}` cannot merge into itself"),
            );
            return None;
        }
        let target = self.find_force(entry, into)?;
        let on_road = |k: &Known<'_>| k.force.is_some_and(|f| f.en_route.is_some());
        if on_road(known) || on_road(&target) || known.region != target.region {
            let message = format!(
                "forces `{id}` and `{into}` must both stand in one region to merge (`{id}` is at {}, `{into}` at {})",
                self.index.map.region_name(known.region),
                self.index.map.region_name(target.region)
            );
            self.problem(entry, Part::Action, message);
            return None;
        }
        self.gone.insert(id.clone());
        Some(Order::Merge {
            force: id.clone(),
            into: into.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// The orders file.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOrders {
    campaign: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    turn: Option<Spanned<i64>>,
    #[serde(default)]
    orders: Vec<Spanned<RawOrder>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOrder {
    force: Spanned<String>,
    march: Option<Spanned<Vec<Spanned<String>>>>,
    to: Option<Spanned<String>>,
    hold: Option<Spanned<bool>>,
    forced: Option<Spanned<bool>>,
    by: Option<Spanned<String>>,
    split: Option<Spanned<RawSplit>>,
    merge_into: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSplit {
    stands: Vec<Spanned<i64>>,
    id: Spanned<String>,
    name: Spanned<String>,
}

/// Reads an orders file for `side` and checks it against the campaign. The
/// file is refused whole if any order is bad, with a reason per bad line.
pub fn read_orders_file(campaign: &Campaign, side: &SideId, source: Source<'_>) -> Checked<OrderSet> {
    let mut sink = Sink::new(source);
    let raw: RawOrders = match toml::from_str(source.text) {
        Ok(raw) => raw,
        Err(error) => {
            sink.toml_error(&error);
            return sink.finish(|| None);
        }
    };
    if campaign.side(side).is_none() {
        let ids = campaign.sides.iter().map(|s| s.id.as_str());
        let known: Vec<String> = campaign.sides.iter().map(|s| format!("`{}`", s.id)).collect();
        let message = format!(
            "unknown side `{side}`{}: this campaign's sides are {}",
            suggestion(side.as_str(), ids),
            known.join(", ")
        );
        sink.error(&(0..0), message);
        return sink.finish(|| None);
    }
    if let Some(title) = &raw.campaign
        && title.get_ref() != &campaign.title
    {
        let message = format!(
            "these orders are for the campaign \"{}\", but the save holds \"{}\"",
            title.get_ref(),
            campaign.title
        );
        sink.error(&title.span(), message);
    }
    if let Some(file_side) = &raw.side
        && file_side.get_ref() != side.as_str()
    {
        let message = format!(
            "these orders are for side `{}`, but were given for side `{side}`",
            file_side.get_ref()
        );
        sink.error(&file_side.span(), message);
    }
    if let Some(turn) = &raw.turn
        && *turn.get_ref() != i64::from(campaign.turn)
    {
        let message = format!(
            "these orders are for game move {}, but the campaign is at game move {}",
            turn.get_ref(),
            campaign.turn
        );
        sink.error(&turn.span(), message);
    }
    if raw.orders.is_empty() {
        sink.warning(&(0..0), "no [[orders]]: every force keeps its standing orders");
    }

    let mut requests = Vec::new();
    let mut spans: Vec<&RawOrder> = Vec::new();
    for spanned in &raw.orders {
        let order = spanned.get_ref();
        let mut actions: Vec<(&str, Range<usize>)> = [
            order.march.as_ref().map(|m| ("march", m.span())),
            order.to.as_ref().map(|t| ("to", t.span())),
            order.hold.as_ref().map(|h| ("hold", h.span())),
            order.split.as_ref().map(|s| ("split", s.span())),
            order.merge_into.as_ref().map(|m| ("merge_into", m.span())),
        ]
        .into_iter()
        .flatten()
        .collect();
        // In the order the file writes them, so the second named is the later one.
        actions.sort_by_key(|(_, span)| span.start);
        let action = match actions.as_slice() {
            [] => {
                sink.error(
                    &order.force.span(),
                    format!(
                        "the order for `{}` says nothing to do: give one of march, to, hold, split or merge_into",
                        order.force.get_ref()
                    ),
                );
                continue;
            }
            [(first, _), (second, span), ..] => {
                sink.error(
                    span,
                    format!(
                        "one order does one thing: `{second}` comes with `{}`; write two orders",
                        first
                    ),
                );
                continue;
            }
            [(_, _)] => {
                if let Some(march) = &order.march {
                    Action::March(
                        march
                            .get_ref()
                            .iter()
                            .map(|r| RegionId::new(r.get_ref()))
                            .collect(),
                    )
                } else if let Some(to) = &order.to {
                    Action::To(RegionId::new(to.get_ref()))
                } else if let Some(hold) = &order.hold {
                    if !hold.get_ref() {
                        sink.error(
                            &hold.span(),
                            "`hold = false` orders nothing: write `hold = true`, or leave it out",
                        );
                        continue;
                    }
                    Action::Hold
                } else if let Some(split) = &order.split {
                    let split = split.get_ref();
                    let mut stands = Vec::new();
                    for stand in &split.stands {
                        match u32::try_from(*stand.get_ref()) {
                            Ok(id) => stands.push(StandId(id)),
                            Err(_) => sink.error(
                                &stand.span(),
                                format!("stand id {} is not a stand number", stand.get_ref()),
                            ),
                        }
                    }
                    Action::Split {
                        stands,
                        new_force: ForceId::new(split.id.get_ref()),
                        name: split.name.get_ref().clone(),
                    }
                } else if let Some(into) = &order.merge_into {
                    Action::MergeInto(ForceId::new(into.get_ref()))
                } else {
                    continue;
                }
            }
        };
        let by = match &order.by {
            None => Conveyance::Foot,
            Some(by) => match Conveyance::parse(by.get_ref()) {
                Some(by) => by,
                None => {
                    sink.error(
                        &by.span(),
                        format!(
                            "unknown way to travel `{}`: write `by = \"rail\"` or `by = \"river\"`, or leave it out to march on foot",
                            by.get_ref()
                        ),
                    );
                    continue;
                }
            },
        };
        requests.push(OrderRequest {
            force: ForceId::new(order.force.get_ref()),
            action,
            forced: order.forced.as_ref().is_some_and(|f| *f.get_ref()),
            by,
        });
        spans.push(order);
    }

    let checked = check_requests(campaign, side, &requests);
    let problems = match &checked {
        Ok(_) => Vec::new(),
        Err(problems) => problems.clone(),
    };
    for problem in problems {
        let Some(order) = spans.get(problem.entry) else {
            continue;
        };
        let action_span = [
            order.march.as_ref().map(|m| m.span()),
            order.to.as_ref().map(|t| t.span()),
            order.hold.as_ref().map(|h| h.span()),
            order.split.as_ref().map(|s| s.span()),
            order.merge_into.as_ref().map(|m| m.span()),
        ]
        .into_iter()
        .flatten()
        .next()
        .unwrap_or_else(|| order.force.span());
        let span = match problem.part {
            Part::Force => order.force.span(),
            Part::Action => action_span,
            Part::Step(i) => order
                .march
                .as_ref()
                .and_then(|m| m.get_ref().get(i).map(|r| r.span()))
                .unwrap_or(action_span),
            Part::Forced => order.forced.as_ref().map_or(action_span, |f| f.span()),
            Part::By => order.by.as_ref().map_or(action_span, |b| b.span()),
            Part::Stand(i) => order
                .split
                .as_ref()
                .and_then(|s| s.get_ref().stands.get(i).map(|x| x.span()))
                .unwrap_or(action_span),
            Part::NewForce => order
                .split
                .as_ref()
                .map_or(action_span, |s| s.get_ref().id.span()),
            Part::NewName => order
                .split
                .as_ref()
                .map_or(action_span, |s| s.get_ref().name.span()),
        };
        sink.error(&span, problem.message);
    }
    sink.finish(|| checked.ok())
}

#[derive(Serialize)]
struct FileOut<'a> {
    campaign: &'a str,
    side: &'a str,
    turn: u32,
    orders: Vec<OrderOut>,
}

#[derive(Serialize)]
struct OrderOut {
    force: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    march: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hold: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    split: Option<SplitOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    merge_into: Option<String>,
}

#[derive(Serialize)]
struct SplitOut {
    stands: Vec<u32>,
    id: String,
    name: String,
}

/// An orders file for [`read_orders_file`]: the header `campaign`, `side` and
/// `turn` (so `umpire orders` refuses it for another campaign, side or game
/// move) and one `[[orders]]` table per order, each march with its whole path.
pub fn write_orders_file(campaign: &str, orders: &OrderSet) -> String {
    let out = FileOut {
        campaign,
        side: orders.side.as_str(),
        turn: orders.turn,
        orders: orders
            .orders
            .iter()
            .map(|order| {
                let mut out = OrderOut {
                    force: String::new(),
                    march: None,
                    forced: None,
                    by: None,
                    hold: None,
                    split: None,
                    merge_into: None,
                };
                match order {
                    Order::March {
                        force,
                        path,
                        forced,
                        by,
                    } => {
                        out.force = force.to_string();
                        out.march = Some(path.iter().map(ToString::to_string).collect());
                        out.forced = forced.then_some(true);
                        out.by = (!by.is_foot()).then(|| by.as_str());
                    }
                    Order::Hold { force } => {
                        out.force = force.to_string();
                        out.hold = Some(true);
                    }
                    Order::Split {
                        force,
                        stands,
                        new_force,
                        name,
                    } => {
                        out.force = force.to_string();
                        out.split = Some(SplitOut {
                            stands: stands.iter().map(|s| s.0).collect(),
                            id: new_force.to_string(),
                            name: name.clone(),
                        });
                    }
                    Order::Merge { force, into } => {
                        out.force = force.to_string();
                        out.merge_into = Some(into.to_string());
                    }
                }
                out
            })
            .collect(),
    };
    let body = toml::to_string(&out).unwrap_or_default();
    format!(
        "# Orders for side `{}`, game move {}, written by umpire. Give them with `umpire orders SAVE {} FILE`.\n{body}",
        orders.side, orders.turn, orders.side
    )
}

/// "unknown region `beni_sueff` (did you mean `beni_suef`, Beni Suef?)".
fn unknown_region(map: &crate::model::Map, region: &RegionId) -> String {
    let regions = map.regions.iter().map(|r| (r.id.as_str(), r.name.as_str()));
    format!(
        "unknown region `{region}`{}",
        region_suggestion(region.as_str(), regions)
    )
}

/// "train", "station", "railway" and their river words, for messages.
pub fn transport_words(by: Conveyance) -> (&'static str, &'static str, &'static str) {
    match by {
        Conveyance::Rail => ("train", "station", "railway"),
        Conveyance::River => ("steamer", "landing place", "river"),
        Conveyance::Foot => ("road", "region", "road"),
    }
}

/// Whether a force may board or leave a train (a steamer) in `region`: a
/// station on a railway (a landing place on a river), that is a region with
/// the map's `station` (`port`) feature that a railway (river) reaches.
pub fn is_stop(index: &MapIndex<'_>, region: usize, by: Conveyance) -> bool {
    let Some(feature) = by.stop_feature() else {
        return false;
    };
    index.map.regions.get(region).is_some_and(|r| r.has(feature))
        && index
            .adjacent
            .get(region)
            .is_some_and(|roads| roads.iter().any(|(_, road)| index.carries(*road, by)))
}

/// ": the nearest are Cairo and Giza" when a railway (river) is near.
fn nearest_stops(index: &MapIndex<'_>, region: usize, by: Conveyance) -> String {
    let mut near: Vec<&str> = index
        .adjacent
        .get(region)
        .into_iter()
        .flatten()
        .filter(|(next, _)| is_stop(index, *next, by))
        .map(|(next, _)| index.name(*next))
        .collect();
    near.sort_unstable();
    near.dedup();
    match near.as_slice() {
        [] => String::new(),
        [one] => format!(" (the nearest is {one})"),
        many => format!(" (the nearest are {})", many.join(", ")),
    }
}

/// Whether going from `from` to `to` along `road` is against a river's
/// current: rivers are written from their upstream end.
pub fn upstream(index: &MapIndex<'_>, road: usize, from: usize) -> bool {
    index
        .road(road)
        .is_some_and(|r| r.kind == crate::model::RoadKind::River && index.at(&r.to) == Some(from))
}

/// Share of a game move one leg by train or steamer takes.
pub fn leg_share(campaign: &Campaign, index: &MapIndex<'_>, road: usize, from: usize, by: Conveyance) -> f64 {
    let Some(r) = index.road(road) else {
        return f64::INFINITY;
    };
    let rate = campaign.transport.miles_per_move(by, upstream(index, road, from));
    if rate > 0.0 { r.miles / rate } else { f64::INFINITY }
}

/// The quickest journey by train or steamer from `from` to `to` (regions
/// after `from`), along roads that carry it; Dijkstra over game-move shares.
pub fn carried_route(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    from: usize,
    to: usize,
    by: Conveyance,
    barred: impl Fn(usize) -> bool,
) -> Option<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    /// A share of game moves, ordered totally (never NaN here, but `total_cmp` anyway).
    struct Cost(f64);
    impl PartialEq for Cost {
        fn eq(&self, other: &Self) -> bool {
            self.cmp(other).is_eq()
        }
    }
    impl Eq for Cost {}
    impl PartialOrd for Cost {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Cost {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0)
        }
    }
    let mut best: HashMap<usize, (f64, usize)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(from, (0.0, from));
    heap.push(Reverse((Cost(0.0), from)));
    while let Some(Reverse((Cost(cost), here))) = heap.pop() {
        if here == to {
            break;
        }
        if best.get(&here).is_some_and(|(c, _)| *c < cost) {
            continue;
        }
        for &(next, road) in index.adjacent.get(here).into_iter().flatten() {
            // A barred region may end the search (the check then says why) but not be passed.
            if !index.carries(road, by) || (barred(here) && here != from) {
                continue;
            }
            let total = cost + leg_share(campaign, index, road, here, by);
            if total.is_finite() && best.get(&next).is_none_or(|(c, _)| total < *c) {
                best.insert(next, (total, here));
                heap.push(Reverse((Cost(total), next)));
            }
        }
    }
    best.get(&to)?;
    let mut path = vec![to];
    let mut at = to;
    while at != from {
        at = best.get(&at)?.1;
        if at != from {
            path.push(at);
        }
    }
    path.reverse();
    (from != to).then_some(path)
}
