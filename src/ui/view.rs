//! Whose view the window draws: the umpire's (everything) or one side's
//! (what it knows, and nothing more).
//!
//! A side's view is built from the side's report ([`Report::of`], the same
//! filter `umpire report` writes), so what the window shows a side and what
//! a side's report file holds cannot differ: [`SideView::of`] builds it from
//! the campaign and its log, [`SideView::from_report`] from a report file.
//! Either way it is a [`Campaign`] as the side knows it, which the map, the
//! forces tree and the inspector draw like any other: the public map, sides
//! and HQs; the side's own forces in full; the forces of the battles it is in,
//! both sides in full; and every other enemy force it knows as a stand-in
//! where it was last seen, with a [`Mark`] saying how it is known (a blind
//! has no stands, no strength, and a made-up id, `blind N`). A force it has
//! not seen is not in it at all.
//!
//! [`Scene`] is what one frame draws from: the campaign of the view (the
//! save's own in the umpire's view), who looks, and the orders given.

use super::session::{Refusal, Session};
use crate::model::report::{self, HeardEvent, KnownForce, Report};
use crate::model::{
    Battle, BattleRecord, BattleStatus, Campaign, Date, Event, Fatigue, Force, ForceId, How, Knowledge,
    MarkerCount, Quality, RegionId, RngState, Seen, SideId, Sighting, Stand, StandId, StandKind,
    StandingOrder, Supply,
};
use crate::strategy::{self, Order, OrderRequest, OrderSet, SupplyLine};
use std::collections::HashMap;
use std::path::Path;

/// How a side knows an enemy force the window draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The side's number for it: "blind 3".
    pub marker: u32,
    /// Seen but not made out: no name, no strength.
    pub blind: bool,
    /// Seen at the end of the last game move; `false`: remembered where it was last seen.
    pub in_sight: bool,
    /// The game move in which it was last seen.
    pub seen_turn: u32,
    pub how: How,
    /// Its strength in roster points and stands when last seen in full.
    pub points: Option<u64>,
    pub stands: Option<usize>,
    /// In a pending battle the side is in: shown in full, stands and all.
    pub in_battle: bool,
}

impl Mark {
    fn of(known: &KnownForce) -> Mark {
        Mark {
            marker: known.marker,
            blind: known.blind,
            in_sight: known.in_sight,
            seen_turn: known.seen_turn,
            how: known.how,
            points: known.points,
            stands: known.stands,
            in_battle: false,
        }
    }

    /// What its counter says: the strength it was seen at, or `?3` for blind 3.
    pub fn counter_text(&self, force: &Force) -> String {
        if self.in_battle {
            force.points().to_string()
        } else if self.blind {
            format!("?{}", self.marker)
        } else {
            self.points.map_or_else(|| "?".to_owned(), |p| p.to_string())
        }
    }

    /// "in sight" or "last seen in game move 3".
    pub fn when(&self) -> String {
        if self.in_battle {
            "in battle, seen in full".to_owned()
        } else if self.in_sight {
            "in sight".to_owned()
        } else {
            format!("last seen game move {}", self.seen_turn)
        }
    }

    /// "blind: strength unknown" or "3 stands, 300 points when last seen".
    pub fn strength(&self, force: &Force) -> String {
        let stands = |n: Option<usize>| match n {
            Some(1) => "1 stand".to_owned(),
            Some(n) => format!("{n} stands"),
            None => "? stands".to_owned(),
        };
        if self.in_battle {
            format!(
                "{}, {} of {} points",
                stands(Some(force.stands.len())),
                force.points(),
                force.full_points()
            )
        } else if self.blind {
            "blind: name and strength unknown".to_owned()
        } else {
            format!(
                "{}, {} points when last seen",
                stands(self.stands),
                self.points.map_or_else(|| "?".to_owned(), |p| p.to_string())
            )
        }
    }

    /// How it was seen, in words.
    pub fn how_text(&self) -> &'static str {
        match self.how {
            How::Vision => "seen by its forces",
            How::Scouts => "found by its scouts",
            How::Battle => "met in battle",
        }
    }
}

/// The id the window gives blind `marker`: never a force's id, which holds no space.
pub fn blind_id(marker: u32) -> ForceId {
    ForceId::new(format!("blind {marker}"))
}

/// One side's view of the campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct SideView {
    pub side: SideId,
    pub side_name: String,
    /// The date of the game move; `None` past the calendar's end.
    pub date: Option<Date>,
    /// The campaign as the side knows it (see the module's doc).
    pub campaign: Campaign,
    /// How each enemy force in `campaign` is known, by its id there.
    pub marks: HashMap<ForceId, Mark>,
    /// The turn log as the side's commanders heard of it.
    pub log: Vec<HeardEvent>,
    /// The side's orders given this game move.
    pub orders: Vec<OrderSet>,
}

impl SideView {
    /// `side`'s view of `campaign`, whose event log is `log` (oldest first):
    /// what `umpire report` would write, with the whole log as the side
    /// heard it (each game move's events that still stand, filtered by
    /// [`report::heard_by`] as the campaign is now). `None` when the campaign
    /// has no such side.
    pub fn of(campaign: &Campaign, side: &SideId, log: &[Event]) -> Option<SideView> {
        let report = Report::of(campaign, side, log)?;
        let mut view = SideView::from_report(&report)?;
        view.campaign.description = campaign.description.clone();
        view.campaign.start_turn = campaign.start_turn;
        view.campaign.start_date = campaign.start_date;
        let first = log.first().map_or(campaign.turn, |e| e.turn);
        let standing: Vec<&Event> = (first..=campaign.turn)
            .flat_map(|turn| report::standing_events(log, turn))
            .collect();
        view.log = report::heard_by(campaign, side, log, &standing);
        Some(view)
    }

    /// The view a report holds. `None` only if the calendar has no year 1,
    /// which stands in for the date of a report dated past the calendar's end.
    pub fn from_report(report: &Report) -> Option<SideView> {
        let side = report.side.clone();
        let mut forces: Vec<Force> = report.forces.clone();
        let mut marks = HashMap::new();
        let known_as = |id: &ForceId| report.known.iter().find(|k| k.id.as_ref() == Some(id));
        // The forces of its battles, both sides in full.
        for battle in &report.battles {
            for shown in battle.forces.iter().chain(&battle.reserves) {
                if forces.iter().any(|f| f.id == shown.id) {
                    continue;
                }
                let known = known_as(&shown.id);
                forces.push(Force {
                    id: shown.id.clone(),
                    name: shown.name.clone(),
                    side: shown.side.clone(),
                    region: shown.region.clone(),
                    stands: shown.stands.clone(),
                    en_route: known.and_then(|k| k.en_route.clone()),
                    order: StandingOrder::Hold,
                    fatigue: Fatigue::default(),
                    supply: Supply::default(),
                    fallen_out: Vec::new(),
                });
                marks.insert(
                    shown.id.clone(),
                    Mark {
                        marker: known.map_or(0, |k| k.marker),
                        blind: false,
                        in_sight: true,
                        seen_turn: known.map_or(battle.turn, |k| k.seen_turn),
                        how: How::Battle,
                        points: Some(shown.stands.iter().map(|s| u64::from(s.strength)).sum()),
                        stands: Some(shown.stands.len()),
                        in_battle: true,
                    },
                );
            }
        }
        // Every other enemy force it knows, where it was last seen.
        let mut sightings = Vec::new();
        for known in &report.known {
            let id = match (&known.id, known.blind) {
                (Some(id), false) => id.clone(),
                _ => blind_id(known.marker),
            };
            sightings.push(Sighting {
                by: side.clone(),
                force: id.clone(),
                side: known.side.clone(),
                marker: known.marker,
                turn: known.seen_turn,
                region: known.region.clone(),
                en_route: known.en_route.clone(),
                in_sight: known.in_sight,
                seen: match (&known.name, known.blind) {
                    (Some(name), false) => Seen::Full {
                        name: name.clone(),
                        points: known.points.unwrap_or(0),
                        stands: known.stands.unwrap_or(0),
                    },
                    _ => Seen::Blind,
                },
                how: known.how,
            });
            if forces.iter().any(|f| f.id == id) {
                continue;
            }
            forces.push(Force {
                id: id.clone(),
                name: known.label(),
                side: known.side.clone(),
                region: known.region.clone(),
                stands: Vec::new(),
                en_route: known.en_route.clone(),
                order: StandingOrder::Hold,
                fatigue: Fatigue::default(),
                supply: Supply::default(),
                fallen_out: Vec::new(),
            });
            marks.insert(id, Mark::of(known));
        }
        let markers = report
            .known
            .iter()
            .map(|k| k.marker)
            .max()
            .map(|last| MarkerCount {
                side: side.clone(),
                last,
            })
            .into_iter()
            .collect();
        let battles = report
            .battles
            .iter()
            .map(|b| Battle {
                id: b.id,
                turn: b.turn,
                region: b.region.clone(),
                attacker: b.attacker.clone(),
                defender: b.defender.clone(),
                forces: b.forces.iter().map(|f| f.id.clone()).collect(),
                reserves: b.reserves.iter().map(|f| f.id.clone()).collect(),
                status: BattleStatus::Pending,
                came_from: b.came_from.clone(),
                record: BattleRecord::default(),
            })
            .collect();
        let start_date = report.date.or_else(|| Date::from_ymd(1, 1, 1))?;
        let campaign = Campaign {
            title: report.campaign.clone(),
            description: None,
            map: report.map.clone(),
            turn: report.turn,
            start_turn: report.turn,
            start_date,
            days_per_turn: report.days_per_turn,
            rules: report.rules,
            rng: RngState::new(0),
            miles_per_inch: report.miles_per_inch,
            transport: report.transport.clone(),
            sides: report.sides.clone(),
            hqs: report.hqs.clone(),
            forces,
            battles,
            knowledge: Knowledge { sightings, markers },
            reinforcements: Vec::new(),
            replacements: Vec::new(),
            house_rules: report.house_rules.clone(),
            end: report.end.clone(),
        };
        Some(SideView {
            side,
            side_name: report.side_name.clone(),
            date: report.date,
            campaign,
            marks,
            log: report.events.clone(),
            orders: Vec::new(),
        })
    }

    pub fn mark(&self, force: &ForceId) -> Option<&Mark> {
        self.marks.get(force)
    }
}

/// What one frame draws: the campaign as its viewer knows it.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    /// The save's campaign in the umpire's view, else the side's view of it.
    pub campaign: &'a Campaign,
    /// The side whose view it is; `None`: the umpire's, who sees everything.
    pub viewer: Option<&'a SideId>,
    pub view: Option<&'a SideView>,
    /// The orders given this game move that the viewer may see.
    pub orders: &'a [OrderSet],
    /// Moves whenever anything drawn changes.
    pub revision: u64,
    /// What the map is drawn for: the save, or the report file.
    pub source: &'a Path,
    /// The date of the game move.
    pub date: Option<Date>,
    /// Nothing is ordered from it: the umpire's view of a served campaign,
    /// where the sides give their own orders.
    pub read_only: bool,
}

impl<'a> Scene<'a> {
    /// The umpire's view of an open save.
    pub fn umpire(session: &'a Session) -> Scene<'a> {
        Scene {
            campaign: session.campaign(),
            viewer: None,
            view: None,
            orders: session.pending(),
            revision: session.revision(),
            source: session.path(),
            date: session.campaign().date(),
            read_only: false,
        }
    }

    /// A side's view, of a save or of a report file at `source`.
    pub fn side(view: &'a SideView, revision: u64, source: &'a Path) -> Scene<'a> {
        Scene {
            campaign: &view.campaign,
            viewer: Some(&view.side),
            view: Some(view),
            orders: &view.orders,
            revision,
            source,
            date: view.date,
            read_only: false,
        }
    }

    /// How the viewer knows an enemy force; `None` for its own forces and in the umpire's view.
    pub fn mark(&self, force: &ForceId) -> Option<&'a Mark> {
        self.view.and_then(|v| v.marks.get(force))
    }

    /// A stand-in for an enemy force known only from a distance: no stands to show.
    pub fn is_stand_in(&self, force: &ForceId) -> bool {
        self.mark(force).is_some_and(|m| !m.in_battle)
    }

    /// Whether the viewer may give orders to `side`'s forces: the umpire to
    /// every side's, a side only to its own.
    pub fn may_order(&self, side: &SideId) -> bool {
        self.viewer.is_none_or(|v| v == side)
    }

    /// Whether orders are given here to `side`'s forces: as [`Scene::may_order`],
    /// and never in a read-only view.
    pub fn may_give(&self, side: &SideId) -> bool {
        !self.read_only && self.may_order(side)
    }

    /// The march the orders given this game move send `force` on, if any:
    /// the last order for it wins, as in the game move.
    pub fn ordered_march(&self, force: &ForceId) -> Option<(&'a [RegionId], bool, crate::model::Conveyance)> {
        let mut found = None;
        for order in self.orders.iter().flat_map(|set| &set.orders) {
            match order {
                Order::March {
                    force: f,
                    path,
                    forced,
                    by,
                } if f == force => found = Some((path.as_slice(), *forced, *by)),
                Order::Hold { force: f } if f == force => found = None,
                _ => {}
            }
        }
        found
    }

    /// Orders given this game move, counted.
    pub fn orders_given(&self) -> usize {
        self.orders.iter().map(|s| s.orders.len()).sum()
    }

    /// Checks one request alone against what the viewer knows.
    pub fn check(&self, side: &SideId, request: &OrderRequest) -> Result<OrderSet, Refusal> {
        strategy::check_requests(self.campaign, side, std::slice::from_ref(request))
            .map_err(|problems| Refusal::Order(problems.into_iter().map(|p| p.message).collect()))
    }

    /// Supply lines as the viewer can trace them: in a side's view only its
    /// own forces', with the roads cut only where it sees the enemy now.
    pub fn supply_lines(&self) -> Vec<SupplyLine> {
        let (Some(side), Some(view)) = (self.viewer, self.view) else {
            return strategy::supply_lines(self.campaign);
        };
        let mut seen = self.campaign.clone();
        for force in &mut seen.forces {
            // A force holds its region only with stands: a stand-in in sight gets one.
            if force.stands.is_empty() && view.marks.get(&force.id).is_some_and(|m| m.in_sight) {
                force.stands.push(Stand {
                    id: StandId(0),
                    name: String::new(),
                    kind: StandKind::LineInfantry,
                    quality: Quality::Trained,
                    strength: 1,
                    full: 1,
                });
            }
        }
        let mut lines = strategy::supply_lines(&seen);
        lines.retain(|l| &l.side == side);
        lines
    }
}
