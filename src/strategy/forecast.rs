//! Forecasts for the app: what an order will cost before it is given, and the
//! road each force's supply runs along. Pure, like the rest of `strategy`.

use super::index::MapIndex;
use super::movement::{FORCED_MARCH_MOVES, MARCH_HOURS_PER_DAY, miles_per_move};
use super::supply::{self, Holding};
use crate::model::report::Report;
use crate::model::status::Status;
use crate::model::{Campaign, Conveyance, Force, ForceId, Hq, RegionId, SideId, StandingOrder};

/// Game moves a forecast looks ahead at most; a march longer than this is
/// reported as taking this long.
const HORIZON_MOVES: u32 = 1000;

/// What a march order will cost, forecast from the force as it stands now.
#[derive(Debug, Clone, PartialEq)]
pub struct MarchForecast {
    /// Hours of marching along the whole path.
    pub hours: f64,
    /// Miles along the whole path.
    pub miles: f64,
    /// Game moves until it arrives, rests included.
    pub game_moves: u32,
    /// Game moves it must rest on the way (three forced marches in a row,
    /// Strategic Rules 3.2).
    pub rests: u32,
    /// Stands it loses on the way to forced marching (one for every ten or
    /// fewer marching, each forced game move; Strategic Rules 3.1).
    pub stands_lost: usize,
    /// Stands lost on the first game move of the march alone.
    pub stands_lost_first_move: usize,
    /// Stands in the force now.
    pub stands: usize,
    /// On foot, by train or by steamer.
    pub by: Conveyance,
}

/// "1 mile", "15 miles", "0.5 miles", "20.3 miles": a distance on the map in
/// words, to the tenth of a mile where it is not whole.
pub fn miles_text(miles: f64) -> String {
    let tenths = (miles * 10.0).round() / 10.0;
    let decimals = if tenths.fract() == 0.0 { 0 } else { 1 };
    crate::model::text::quantity(tenths, decimals, "mile", "miles")
}

impl MarchForecast {
    /// "2 game moves, 38 miles (24 hours); no losses", or with a forced
    /// march what it costs: the words the window's forecast and `umpire
    /// route` both show.
    pub fn text(&self, forced: bool) -> String {
        let s = |n: u32| if n == 1 { "" } else { "s" };
        if !self.by.is_foot() {
            let (what, _, _) = super::orders::transport_words(self.by);
            return format!(
                "{} game move{}, {} by {what}; no losses",
                self.game_moves,
                s(self.game_moves),
                miles_text(self.miles.round()),
            );
        }
        let hours = self.hours.round();
        let mut text = format!(
            "{} game move{}, {} ({:.0} hour{})",
            self.game_moves,
            s(self.game_moves),
            miles_text(self.miles.round()),
            hours,
            if hours == 1.0 { "" } else { "s" }
        );
        if forced {
            text.push_str(&format!(
                "; forced march loses {} of {} stand{} ({} on the first move)",
                self.stands_lost,
                self.stands,
                if self.stands == 1 { "" } else { "s" },
                self.stands_lost_first_move
            ));
            if self.rests > 0 {
                text.push_str(&format!(", with {} rest{}", self.rests, s(self.rests)));
            }
        } else {
            text.push_str("; no losses");
        }
        text
    }
}

/// Forecasts a march of `force` through `path` (the regions ahead, in
/// order), forced or not, as `strategy::resolve` would carry it out with no
/// enemy in the way. `None` when a leg of the path has no usable road.
pub fn march_forecast(
    campaign: &Campaign,
    force: &Force,
    path: &[RegionId],
    forced: bool,
) -> Option<MarchForecast> {
    march_forecast_on(campaign, &MapIndex::new(&campaign.map), force, path, forced)
}

/// The game move in which a march forecast as `forecast` ends, made from
/// `campaign`'s current game move: the march takes its game moves from this one.
pub fn arrival_turn(campaign: &Campaign, forecast: &MarchForecast) -> u32 {
    campaign
        .turn
        .saturating_add(forecast.game_moves.saturating_sub(1))
}

/// For every force on a march order, the game move it arrives at the end
/// of its path, as `march_forecast` of its standing order forecasts it (no
/// enemy in the way). Forces holding, or with no usable road, are left out.
pub fn arrivals(campaign: &Campaign) -> Vec<(ForceId, u32)> {
    let index = MapIndex::new(&campaign.map);
    campaign
        .forces
        .iter()
        .filter_map(|force| {
            let StandingOrder::March { path, forced, by } = &force.order else {
                return None;
            };
            let forecast = if by.is_foot() {
                march_forecast_on(campaign, &index, force, path, *forced)?
            } else {
                carried_forecast_on(campaign, &index, force, path, *by)?
            };
            Some((force.id.clone(), arrival_turn(campaign, &forecast)))
        })
        .collect()
}

/// Writes each marching force's arrival (`arrivals`) into a status report,
/// the umpire's or a side's (whose own forces are the only ones it lists).
pub fn fill_arrivals(campaign: &Campaign, status: &mut Status) {
    let arrivals: rustc_hash::FxHashMap<ForceId, u32> = arrivals(campaign).into_iter().collect();
    for force in status.sides.iter_mut().flat_map(|s| s.forces.iter_mut()) {
        force.arrives_turn = arrivals.get(&ForceId::new(force.id.as_str())).copied();
    }
}

fn march_forecast_on(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    force: &Force,
    path: &[RegionId],
    forced: bool,
) -> Option<MarchForecast> {
    let mut at = index.at(&force.region)?;
    let mut hours = 0.0;
    let mut miles = 0.0;
    let mut first = true;
    for region in path {
        let next = index.at(region)?;
        if next == at && first {
            continue;
        }
        let (leg_hours, leg_miles) = leg(campaign, index, force, at, next)?;
        // On the road already: the part of the first leg marched so far.
        let done = match (&force.en_route, first) {
            (Some(e), true) if &e.toward == region => e.miles,
            (Some(e), true) if next == at => leg_miles - e.miles,
            _ => 0.0,
        }
        .clamp(0.0, leg_miles);
        let part = if leg_miles > 0.0 {
            (leg_miles - done) / leg_miles
        } else {
            0.0
        };
        hours += leg_hours * part;
        miles += leg_miles - done;
        first = false;
        at = next;
    }
    let per_move = f64::from(
        MARCH_HOURS_PER_DAY
            .saturating_mul(campaign.days_per_turn.max(1))
            .saturating_mul(if forced { FORCED_MARCH_MOVES } else { 1 }),
    );
    let mut left = hours;
    let mut stands = force.stands.len();
    let mut in_row = force.fatigue.forced_in_row;
    let mut must_rest = force.fatigue.must_rest;
    let (mut game_moves, mut rests, mut lost, mut lost_first) = (0u32, 0u32, 0usize, None);
    while left > 1e-9 && stands > 0 && game_moves < HORIZON_MOVES {
        game_moves += 1;
        if must_rest {
            rests += 1;
            must_rest = false;
            in_row = 0;
            lost_first.get_or_insert(0);
            continue;
        }
        left -= per_move;
        if forced {
            let loss = campaign.house_rules.forced_march_losses(stands).min(stands);
            lost += loss;
            stands -= loss;
            lost_first.get_or_insert(loss);
            in_row += 1;
            must_rest = in_row >= campaign.house_rules.forced_marches_before_rest;
        } else {
            lost_first.get_or_insert(0);
            in_row = 0;
        }
    }
    Some(MarchForecast {
        hours,
        miles,
        game_moves,
        rests,
        stands_lost: lost,
        stands_lost_first_move: lost_first.unwrap_or(0),
        stands: force.stands.len(),
        by: Conveyance::Foot,
    })
}

/// Forecasts a journey of `force` through `path` by train or steamer
/// (`strategy::transport`), with no enemy in the way and room on the line;
/// by foot, `march_forecast`. `None` when a leg has no railway (river), or
/// the force could never go on from a station (landing place) in one move.
pub fn journey_forecast(
    campaign: &Campaign,
    force: &Force,
    path: &[RegionId],
    forced: bool,
    by: Conveyance,
) -> Option<MarchForecast> {
    let index = MapIndex::new(&campaign.map);
    if by.is_foot() {
        march_forecast_on(campaign, &index, force, path, forced)
    } else {
        carried_forecast_on(campaign, &index, force, path, by)
    }
}

fn carried_forecast_on(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    force: &Force,
    path: &[RegionId],
    by: Conveyance,
) -> Option<MarchForecast> {
    let at = index.at(&force.region)?;
    let skip = usize::from(path.first() == Some(&force.region));
    let rest = path
        .iter()
        .skip(skip)
        .map(|r| index.at(r))
        .collect::<Option<Vec<usize>>>()?;
    let (game_moves, miles) = super::transport::whole_journey(campaign, index, at, &rest, by).ok()?;
    Some(MarchForecast {
        hours: f64::from(game_moves) * f64::from(MARCH_HOURS_PER_DAY),
        miles,
        game_moves,
        rests: 0,
        stands_lost: 0,
        stands_lost_first_move: 0,
        stands: force.stands.len(),
        by,
    })
}

/// Hours and miles of the quickest usable road between two neighbouring regions.
fn leg(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    force: &Force,
    from: usize,
    to: usize,
) -> Option<(f64, f64)> {
    let (a, b) = (campaign.map.regions.get(from)?, campaign.map.regions.get(to)?);
    index
        .roads_between(from, to)
        .filter(|r| index.is_passable(*r))
        .filter_map(|r| {
            let road = index.road(r)?;
            let per_move = miles_per_move(campaign, force, road, a.terrain, b.terrain);
            (per_move > 0.0).then(|| (road.miles / per_move * f64::from(MARCH_HOURS_PER_DAY), road.miles))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
}

/// One force's supply: supplied or not, the road to its HQ, and where it is cut.
#[derive(Debug, Clone, PartialEq)]
pub struct SupplyLine {
    pub force: ForceId,
    pub side: SideId,
    /// Joined to a held HQ of its side by roads the enemy does not hold.
    pub supplied: bool,
    /// The regions from the force to the HQ it is supplied from, both ends
    /// included; when cut off, the shortest road to a held HQ as if nothing
    /// were held. Empty when no road at all leads to a held HQ.
    pub route: Vec<RegionId>,
    /// The enemy-held regions cutting `route`.
    pub cuts: Vec<RegionId>,
    /// Game moves cut off so far (from the last game move).
    pub cut_moves: u32,
    /// Game moves left before it loses stands, when cut off now
    /// (Strategic Rules 2.2: after 4 game moves cut off).
    pub moves_before_losses: u32,
}

/// Traces every force's supply from where the forces stand now, as the next
/// game move will (Strategic Rules 2), with the road each one uses.
pub fn supply_lines(campaign: &Campaign) -> Vec<SupplyLine> {
    let index = MapIndex::new(&campaign.map);
    let holding = Holding::of(campaign, &index);
    let grace = campaign.house_rules.cut_moves_before_losses();
    let mut lines = Vec::new();
    for (side, side_id) in campaign.sides.iter().map(|s| &s.id).enumerate() {
        let forces = campaign.forces_of(side_id);
        lines_of_side(
            &index,
            &holding,
            (side, side_id),
            &campaign.hqs,
            forces,
            grace,
            &mut lines,
        );
    }
    lines
}

/// The supply lines of a side's own forces as its report lets it trace
/// them (the window's side view draws the same): from the HQs it holds,
/// over the map's roads, cut where the report shows an enemy force in sight
/// now or an enemy-held HQ. Only what the report holds goes in, so no
/// hidden force can bend a line.
pub fn known_supply_lines(report: &Report) -> Vec<SupplyLine> {
    let index = MapIndex::new(&report.map);
    let own = report
        .forces
        .iter()
        .filter(|f| f.en_route.is_none() && !f.stands.is_empty())
        .map(|f| (&f.side, &f.region));
    let enemy = report
        .known
        .iter()
        .filter(|k| k.in_sight && k.en_route.is_none())
        .map(|k| (&k.side, &k.region));
    let holding = Holding::from_parts(&report.sides, &report.hqs, own.chain(enemy), &index);
    let Some(side) = report.sides.iter().position(|s| s.id == report.side) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let forces = report.forces.iter().filter(|f| f.side == report.side);
    let grace = report.house_rules.cut_moves_before_losses();
    lines_of_side(
        &index,
        &holding,
        (side, &report.side),
        &report.hqs,
        forces,
        grace,
        &mut lines,
    );
    // A force the last game move found cut off, whose road the side sees no
    // enemy on: cut where it cannot see, so its road home is not drawn as open.
    for line in &mut lines {
        if line.supplied && line.cut_moves > 0 {
            line.supplied = false;
        }
    }
    lines
}

/// The supply lines of side `side` (its number and id) for `forces` (its
/// own), pushed onto `lines`.
fn lines_of_side<'a>(
    index: &MapIndex<'_>,
    holding: &Holding,
    (side, side_id): (usize, &SideId),
    hqs: &[Hq],
    forces: impl Iterator<Item = &'a Force>,
    grace: u32,
    lines: &mut Vec<SupplyLine>,
) {
    let mut forces = forces.filter(|f| !f.stands.is_empty()).peekable();
    if forces.peek().is_none() {
        return;
    }
    let sources = supply::sources_among(hqs, index, side_id);
    let came_from = supply::search(index, &sources, |r| holding.enemy_holds(r, side));
    let mut open: Option<Vec<Option<usize>>> = None;
    for force in forces {
        let Some(region) = index.at(&force.region) else {
            continue;
        };
        let supplied = came_from.get(region).copied().flatten().is_some();
        let (route, cuts) = if supplied {
            (walk(&came_from, region, index.len()), Vec::new())
        } else {
            let open = open.get_or_insert_with(|| supply::search(index, &sources, |_| false));
            (
                walk(open, region, index.len()),
                supply::cuts(index, holding, side, open, region),
            )
        };
        let ids = |list: Vec<usize>| list.into_iter().filter_map(|r| index.id(r).cloned()).collect();
        lines.push(SupplyLine {
            force: force.id.clone(),
            side: side_id.clone(),
            supplied,
            route: ids(route),
            cuts: ids(cuts),
            cut_moves: force.supply.cut_moves,
            moves_before_losses: if supplied {
                grace
            } else {
                grace.saturating_sub(force.supply.cut_moves)
            },
        });
    }
}

/// The regions from `region` back to the search's source, both included.
fn walk(came_from: &[Option<usize>], region: usize, limit: usize) -> Vec<usize> {
    let mut route = vec![region];
    let mut at = region;
    for _ in 0..limit {
        match came_from.get(at).copied().flatten() {
            Some(previous) if previous != at => {
                route.push(previous);
                at = previous;
            }
            Some(_) => return route,
            None => return Vec::new(),
        }
    }
    route
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;

    fn region(id: &str, x: f64) -> Region {
        Region {
            id: RegionId::new(id),
            name: id.to_uppercase(),
            terrain: Terrain::Open,
            x,
            y: 0.0,
            features: vec![],
            shape: vec![],
        }
    }

    fn road(a: &str, b: &str, miles: f64) -> Road {
        Road {
            from: RegionId::new(a),
            to: RegionId::new(b),
            kind: RoadKind::Road,
            miles,
            river: None,
            name: None,
        }
    }

    fn force(id: &str, side: &str, at: &str, count: u32) -> Force {
        Force {
            id: ForceId::new(id),
            name: id.to_owned(),
            side: SideId::new(side),
            region: RegionId::new(at),
            fallen_out: Vec::new(),
            stands: (0..count)
                .map(|i| Stand {
                    id: StandId(i + count * 100),
                    name: format!("{id} {i}"),
                    kind: StandKind::LineInfantry,
                    quality: Quality::Trained,
                    strength: 100,
                    full: 100,
                })
                .collect(),
            en_route: None,
            order: StandingOrder::Hold,
            fatigue: Fatigue::default(),
            supply: Supply::default(),
        }
    }

    /// a - b - c - d - e in a line, 15 miles apart (an infantry day on the road).
    fn line(forces: Vec<Force>) -> Campaign {
        let ids = ["a", "b", "c", "d", "e"];
        let hq = |side: &str, at: &str, wing| Hq {
            side: SideId::new(side),
            wing,
            region: RegionId::new(at),
            name: None,
            held_by: SideId::new(side),
            captured_turn: None,
        };
        let side = |id: &str| Side {
            id: SideId::new(id),
            name: id.to_owned(),
            colour: Colour([0, 0, 0]),
            army: ArmyKind::Regular,
        };
        Campaign {
            title: "Line".to_owned(),
            description: None,
            map: Map {
                name: "Line".to_owned(),
                description: None,
                regions: ids
                    .iter()
                    .zip(0..)
                    .map(|(id, i)| region(id, f64::from(i) * 15.0))
                    .collect(),
                roads: ids.windows(2).map(|w| road(w[0], w[1], 15.0)).collect(),
                background: None,
                waters: Vec::new(),
            },
            turn: 1,
            start_turn: 1,
            start_date: Date::from_ymd(1895, 3, 1).unwrap(),
            days_per_turn: 1,
            rules: RuleSetId::Scruby1965,
            rng: RngState::new(1),
            miles_per_inch: DEFAULT_MILES_PER_INCH,
            transport: Default::default(),
            house_rules: Default::default(),
            sides: vec![side("red"), side("blue")],
            hqs: Wing::ALL
                .iter()
                .map(|w| hq("red", "a", *w))
                .chain(Wing::ALL.iter().map(|w| hq("blue", "e", *w)))
                .collect(),
            forces,
            battles: vec![],
            knowledge: Default::default(),
            reinforcements: Vec::new(),
            replacements: Vec::new(),
            end: Default::default(),
        }
    }

    fn path(ids: &[&str]) -> Vec<RegionId> {
        ids.iter().map(|r| RegionId::new(*r)).collect()
    }

    #[test]
    fn a_plain_march_costs_no_stands_and_takes_a_move_a_day_of_road() {
        let c = line(vec![force("f", "red", "a", 12)]);
        let f = &c.forces[0];
        let plain = march_forecast(&c, f, &path(&["b", "c", "d"]), false).unwrap();
        assert_eq!((plain.miles, plain.game_moves, plain.stands_lost), (45.0, 3, 0));
        assert!((plain.hours - 24.0).abs() < 1e-9, "{}", plain.hours);
    }

    #[test]
    fn forced_marches_cost_a_stand_per_ten_each_move_then_rest() {
        // Strategic Rules 3.1: 12 stands lose 2 on a forced move; 3.3: three
        // moves' march in one; 3.2: rest after three forced marches in a row.
        let c = line(vec![force("f", "red", "a", 12)]);
        let f = &c.forces[0];
        let forced = march_forecast(&c, f, &path(&["b", "c", "d"]), true).unwrap();
        assert_eq!(
            (
                forced.game_moves,
                forced.stands_lost,
                forced.stands_lost_first_move
            ),
            (1, 2, 2)
        );
        // 180 miles is 12 days of road, four forced game moves of three days
        // each, the fourth after a rest: 12 -> 10 -> 9 -> 8 stands, rest, 8 -> 7.
        let mut long = c.clone();
        long.map.roads = vec![road("a", "b", 180.0)];
        let f = &long.forces[0];
        let forecast = march_forecast(&long, f, &path(&["b"]), true).unwrap();
        assert_eq!(
            (forecast.game_moves, forecast.rests, forecast.stands_lost),
            (5, 1, 2 + 1 + 1 + 1)
        );
    }

    #[test]
    fn an_unjoined_region_has_no_forecast() {
        let c = line(vec![force("f", "red", "a", 3)]);
        assert!(march_forecast(&c, &c.forces[0], &path(&["c"]), false).is_none());
    }

    #[test]
    fn supply_lines_name_the_road_home_and_the_cut() {
        // Red at c supplies from a through b; blue at b cuts red's force at c off.
        let c = line(vec![force("red1", "red", "c", 2), force("blue1", "blue", "d", 2)]);
        let lines = supply_lines(&c);
        let red = lines.iter().find(|l| l.force.as_str() == "red1").unwrap();
        assert!(red.supplied);
        assert_eq!(red.route, path(&["c", "b", "a"]));
        let mut cut = line(vec![force("red1", "red", "c", 2), force("blue1", "blue", "b", 2)]);
        cut.forces[0].supply.cut_moves = 3;
        let lines = supply_lines(&cut);
        let red = lines.iter().find(|l| l.force.as_str() == "red1").unwrap();
        assert!(!red.supplied);
        assert_eq!(red.route, path(&["c", "b", "a"]));
        assert_eq!(red.cuts, path(&["b"]));
        assert_eq!(red.moves_before_losses, 1);
    }

    #[test]
    fn a_side_traces_its_supply_only_through_the_enemy_its_report_shows() {
        use crate::model::report::Report;
        use crate::model::{How, Seen, Sighting};
        // Blue at b truly cuts red's force at c off; red's report does not show it.
        let mut c = line(vec![force("red1", "red", "c", 2), force("blue1", "blue", "b", 2)]);
        let red = SideId::new("red");
        let unseen = Report::of(&c, &red, &[]).unwrap();
        let lines = known_supply_lines(&unseen);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].supplied,
            "a force red has not seen cuts nothing on its page"
        );
        assert_eq!(lines[0].route, path(&["c", "b", "a"]));
        // Seen there now, it cuts the line; remembered from an earlier game move, it does not.
        for (in_sight, cut) in [(true, true), (false, false)] {
            c.knowledge.sightings = vec![Sighting {
                by: red.clone(),
                force: ForceId::new("blue1"),
                side: SideId::new("blue"),
                marker: 1,
                turn: c.turn,
                region: RegionId::new("b"),
                en_route: None,
                in_sight,
                seen: Seen::Blind,
                how: How::Vision,
            }];
            let report = Report::of(&c, &red, &[]).unwrap();
            let lines = known_supply_lines(&report);
            assert_eq!(lines.len(), 1, "{lines:?}");
            assert_eq!(!lines[0].supplied, cut, "in sight {in_sight}: {lines:?}");
            assert_eq!(lines[0].cuts, if cut { path(&["b"]) } else { vec![] });
        }
        // Found cut off by the last game move, by an enemy red does not see:
        // its road is drawn as cut, with no cross on the hidden enemy's region.
        c.knowledge.sightings.clear();
        c.forces[0].supply.cut_moves = 1;
        let lines = known_supply_lines(&Report::of(&c, &red, &[]).unwrap());
        assert!(!lines[0].supplied && lines[0].cuts.is_empty(), "{lines:?}");
    }
}
