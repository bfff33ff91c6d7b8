//! The fire phase, simultaneous: every stand's shot is worked out from the
//! table as it stands, then all the kills and hits are taken off together;
//! then the natives who came under fire dice for their morale.

use super::battle::{Battle, EPSILON, Status, Why, nearer};
use super::tables::{
    CANNON_RANGE_INCHES, Crew, Firepower, HORSE_HOLDER_POINTS, MAXIM_RANGE_INCHES, MORALE_RETIRE_MOVES,
    RIFLE_RANGE_INCHES, SPEAR_THROW_INCHES, STAND_FRONT_INCHES, Troop, artillery_kills, fire_kills,
    gun_knocked_out, halve, is_gun_hit, native_morale_holds, spear_kills, spearmen_leave,
};
use crate::model::text::quantity;
use crate::rules::Fate;
use crate::rules::board::Point;
use crate::rules::doctrine::{self, Bounds, SideBounds};

/// What one stand's fire did.
#[derive(Debug, Clone, Copy)]
struct Shot {
    kills: u32,
    /// A cannon aimed at the gun itself: whether the die was a hit.
    hit: Option<bool>,
    /// The die a cannon threw.
    face: Option<u32>,
}

/// A cannon's aim at a gun: scruby-1965-unbalanced-equality.txt, ARTILLERY
/// AND MAXIM GUNS, "he may fire to kill
/// the crew, or to destroy the cannon". The crew is the quicker mark, so it
/// is the aim unless the gun sits in a defensive position (fire at the crew
/// is halved there; a hit is not) or already has this many hits.
const AIM_AT_GUN_AFTER_HITS: u32 = 2;

/// How far beyond half a stand's front [`Battle::screened`]'s box about a
/// line of fire reaches: a thousand-millionth of an inch past it,
/// far more than the rounding of its sums (this program's own, for speed;
/// not a rule).
const BOX_HAIR_INCHES: f64 = 1e-9;

impl Battle<'_> {
    /// Whether stand `i` fires this move: it has men and a weapon, is not
    /// locked in melee, not thrown back, and (a cannon) did not make the
    /// move that forbids fire ("6″ no fire").
    fn can_fire(&self, i: usize) -> bool {
        self.stands.get(i).is_some_and(|u| {
            u.combatant()
                && !u.locked
                && !u.thrown_back
                && u.line.is_some_and(|l| {
                    !matches!(l.firepower, Firepower::Cannon { .. }) || u.moved <= l.move_and_fire + EPSILON
                })
        })
    }

    /// The stand's range: the spear throw, or RIFLE RANGE for all troops.
    fn range_of(&self, i: usize) -> f64 {
        match self.stands.get(i).and_then(|u| u.line).map(|l| l.firepower) {
            Some(Firepower::SpearThrow) => SPEAR_THROW_INCHES,
            Some(Firepower::Maxim { .. }) => MAXIM_RANGE_INCHES,
            Some(Firepower::Cannon { .. }) => CANNON_RANGE_INCHES,
            Some(Firepower::Rifle { .. }) => RIFLE_RANGE_INCHES,
            None => 0.0,
        }
    }

    /// The nearest enemy with men, in range and in sight, not locked in a
    /// melee: what stand `i` fires at. The stands of its side that may
    /// screen its fire are taken from `ranks` ([`Battle::ranks`], listed
    /// once for a fire phase) where given, else looked up.
    pub(super) fn fire_target(
        &self,
        i: usize,
        range: f64,
        ranks: Option<&[(usize, Point)]>,
    ) -> Option<(usize, f64)> {
        let me = self.stands.get(i)?;
        let mut best: Option<(usize, f64)> = None;
        for (j, e) in self.enemy_stands(me.side) {
            if e.side == me.side || !e.combatant() || e.locked {
                continue;
            }
            let d = doctrine::dist(me.at, e.at);
            if d > range + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                continue;
            }
            let screened = match ranks {
                Some(ranks) => screened_among(i, me.at, e.at, ranks.iter().copied()),
                None => self.screened(i, me.at, e.at),
            };
            if self.clear_sight(me.at, e.at) && !screened {
                best = Some((j, d));
            }
        }
        best
    }

    /// Whether stand `i` has an enemy to fire at within `range`: the same as
    /// `fire_target(i, range, None).is_some()` (any enemy it would consider will
    /// do), without looking on for the nearest.
    pub(super) fn sees_target(&self, i: usize, range: f64) -> bool {
        let Some(me) = self.stands.get(i) else {
            return false;
        };
        self.enemy_stands(me.side).any(|(_, e)| {
            e.side != me.side
                && e.combatant()
                && !e.locked
                // Not beyond the range, as fire_target reads it.
                && doctrine::dist(me.at, e.at).partial_cmp(&(range + EPSILON)) != Some(std::cmp::Ordering::Greater)
                && self.clear_sight(me.at, e.at)
                && !self.screened(i, me.at, e.at)
        })
    }

    /// Whether a stand of `i`'s side stands in the line of fire from `from`
    /// to `to`: its centre between them, within half a stand's front of the
    /// line. The seed has no rule for it; this program's own reading, after
    /// the basic stand's "3 inches represented the front which a company
    /// could occupy" and its author's scruby-1961 text ("we consider only
    /// the front rank of the column ... to be in position to fight"): a
    /// company fires over open ground, not through its own side's ranks.
    pub(super) fn screened(&self, i: usize, from: Point, to: Point) -> bool {
        let Some(side) = self.stands.get(i).map(|u| u.side) else {
            return false;
        };
        screened_among(i, from, to, self.ranks(side))
    }

    /// The box about the enemy stands side `side` may fire at: combatants
    /// not locked in a melee ([`Battle::fire_target`]).
    pub(super) fn targets_box(&self, side: usize) -> Option<Bounds> {
        Bounds::of(
            self.enemy_stands(side)
                .filter(|(_, e)| e.side != side && e.combatant() && !e.locked)
                .map(|(_, e)| e.at),
        )
    }

    /// The stands of side `side` on the table, index and centre: those
    /// that may stand in its own line of fire ([`Battle::screened`]).
    pub(super) fn ranks(&self, side: usize) -> impl Iterator<Item = (usize, Point)> + '_ {
        self.side_stands(side)
            .filter(move |(_, f)| f.side == side && f.fighting())
            .map(|(k, f)| (k, f.at))
    }

    /// Works out stand `i`'s fire at `j`.
    fn shoot(&mut self, i: usize, j: usize) -> Shot {
        let miss = Shot {
            kills: 0,
            hit: None,
            face: None,
        };
        let (Some(me), Some(target)) = (self.stands.get(i), self.stands.get(j)) else {
            return miss;
        };
        let Some(line) = me.line else { return miss };
        let half = me.half();
        let defensive = self.defended_against(target.at, target.side, me.at);
        match line.firepower {
            Firepower::Rifle {
                open_per_ten,
                closed_per_ten,
            } => {
                let dismounted = me.is_troop(Troop::BritishMountedInfantry) && !me.mounted;
                let per_ten = if me.closed_or_dismounted() {
                    closed_per_ten
                } else {
                    open_per_ten
                };
                let points = if dismounted {
                    me.strength.saturating_sub(HORSE_HOLDER_POINTS)
                } else {
                    me.strength
                };
                Shot {
                    kills: fire_kills(points, per_ten, half, defensive),
                    ..miss
                }
            }
            Firepower::SpearThrow => Shot {
                kills: spear_kills(me.strength, half, defensive),
                ..miss
            },
            Firepower::Maxim { kills_per_shot } => Shot {
                kills: halve(kills_per_shot, half, defensive),
                ..miss
            },
            Firepower::Cannon { crew } => {
                let at_gun = target.is_gun()
                    && (defensive
                        || target.gun_hits + self.scratch.hits.get(j).copied().unwrap_or(0)
                            >= AIM_AT_GUN_AFTER_HITS);
                let closed = target.is_regular_infantry() && target.closed;
                let face = self.dice.d6();
                if at_gun {
                    Shot {
                        kills: 0,
                        hit: Some(is_gun_hit(face)),
                        face: Some(face),
                    }
                } else {
                    Shot {
                        kills: halve(artillery_kills(crew, face, closed), half, defensive),
                        hit: None,
                        face: Some(face),
                    }
                }
            }
        }
    }

    /// The fire phase: every stand fires at its nearest enemy in range; the
    /// losses are then taken off all together.
    pub(super) fn fire(&mut self) {
        let n = self.stands.len();
        self.scratch.kills.iter_mut().for_each(|k| *k = 0);
        self.scratch.hits.iter_mut().for_each(|h| *h = 0);
        self.scratch.under_fire.iter_mut().for_each(|f| *f = false);
        // The box about the targets of each side's fire ([`Battle::fire_target`]):
        // no stand moves, falls or is locked in a melee until every shot is
        // taken, so a stand beyond its range of the box has none.
        let bounds = SideBounds([self.targets_box(0), self.targets_box(1)]);
        // The stands that may screen each side's fire, listed once for the
        // same reason.
        let ranks: [Vec<(usize, Point)>; 2] = [0, 1].map(|s| self.ranks(s).collect());
        for i in 0..n {
            if !self.can_fire(i) {
                continue;
            }
            let range = self.range_of(i);
            let out_of_range = self
                .stands
                .get(i)
                .is_some_and(|u| bounds.beyond(u.side, u.at, range + EPSILON));
            if out_of_range {
                continue;
            }
            let side = self.stands.get(i).map_or(0, |u| u.side);
            let Some((j, distance)) = self.fire_target(i, range, ranks.get(side).map(Vec::as_slice)) else {
                continue;
            };
            let shot = self.shoot(i, j);
            if let Some(k) = self.scratch.kills.get_mut(j) {
                *k += shot.kills;
            }
            if shot.hit == Some(true)
                && let Some(h) = self.scratch.hits.get_mut(j)
            {
                *h += 1;
            }
            let spears = self
                .stands
                .get(i)
                .is_some_and(|u| u.is_troop(Troop::NativeSpearmen));
            if !spears && let Some(f) = self.scratch.under_fire.get_mut(j) {
                *f = true;
            }
            self.say_shot(i, j, distance, shot);
        }
        for j in 0..n {
            self.take_fire_losses(j);
        }
    }

    fn say_shot(&mut self, i: usize, j: usize, distance: f64, shot: Shot) {
        let (Some(me), Some(target)) = (self.stands.get(i), self.stands.get(j)) else {
            return;
        };
        let (name, target_name) = (me.name(), target.name());
        let verb = match me.line.map(|l| l.firepower) {
            Some(Firepower::SpearThrow) => "throw spears at",
            Some(Firepower::Cannon {
                crew: Crew::British | Crew::Native,
            }) => "fires on",
            _ if me.closed => "fire a volley at",
            _ => "fire on",
        };
        self.log.say(self.turn, || {
            let die = shot.face.map(|f| format!(" (die {f})")).unwrap_or_default();
            let result = match shot.hit {
                Some(true) => "a hit on the gun".to_owned(),
                Some(false) => "misses the gun".to_owned(),
                None => format!("{} kills", shot.kills),
            };
            format!(
                "{name} {verb} {target_name} at {}{die}: {result}",
                quantity(distance, 0, "inch", "inches")
            )
        });
    }

    /// Takes this move's fire off stand `j`: kills from its strength, hits
    /// on a gun (four knock it out and it is taken), spearmen at 25 leave.
    fn take_fire_losses(&mut self, j: usize) {
        let kills = self.scratch.kills.get(j).copied().unwrap_or(0);
        let hits = self.scratch.hits.get(j).copied().unwrap_or(0);
        if kills == 0 && hits == 0 {
            return;
        }
        let turn = self.turn;
        let Some(u) = self.stands.get_mut(j) else { return };
        u.strength = u.strength.saturating_sub(kills);
        u.gun_hits += hits;
        let name = u.name();
        if u.is_gun() && gun_knocked_out(u.gun_hits) {
            u.status = Status::Out(Fate::Captured);
            self.log.say(turn, || {
                format!("{name} has taken four hits: the gun is knocked out")
            });
        } else if u.strength == 0 && u.is_gun() {
            self.log.say(turn, || {
                format!("the crew of {name} are all killed: the gun is silent")
            });
        } else if u.strength == 0 {
            u.status = Status::Out(Fate::Destroyed);
            self.log.say(turn, || format!("{name} is wiped out"));
        } else if u.is_troop(Troop::NativeSpearmen) && spearmen_leave(u.strength) {
            u.status = Status::Out(Fate::Routed);
            let left = u.strength;
            self.log.say(turn, || {
                format!("{name} are down to {left} points: they will no longer fight and leave the field")
            });
        }
    }

    /// MORALE: "Whenever Native cavalry, spearmen or Riflemen come under
    /// rifle fire, they must dice to see if they stand up to it (after they
    /// have fired their volley). A 1 or 2 on the die and they must retire 2
    /// moves. Native Regulars retire if a 1 is thrown."
    pub(super) fn morale(&mut self) {
        for j in 0..self.stands.len() {
            if !self.scratch.under_fire.get(j).copied().unwrap_or(false) {
                continue;
            }
            let Some(u) = self.stands.get(j) else { continue };
            let Some(troop) = u.troop() else { continue };
            if !u.combatant() || !troop.is_native() {
                continue;
            }
            let face = self.dice.d6();
            if !native_morale_holds(troop, face) {
                self.retire(j, MORALE_RETIRE_MOVES, Why::Morale(face));
            }
        }
    }
}

/// Whether one of `ranks` (index and centre) other than stand `i` stands in
/// the line of fire from `from` to `to` ([`Battle::screened`]).
fn screened_among(i: usize, from: Point, to: Point, mut ranks: impl Iterator<Item = (usize, Point)>) -> bool {
    let d = (to.0 - from.0, to.1 - from.1);
    let len2 = d.0 * d.0 + d.1 * d.1;
    if len2 < EPSILON {
        return false;
    }
    let half = STAND_FRONT_INCHES / 2.0;
    // A stand that masks the line lies within half a front of it, so
    // within the box about the line widened by that (and a hair, for
    // rounding): one outside it is passed over without the sums below.
    let margin = half + BOX_HAIR_INCHES;
    let (x0, x1) = (from.0.min(to.0) - margin, from.0.max(to.0) + margin);
    let (y0, y1) = (from.1.min(to.1) - margin, from.1.max(to.1) + margin);
    ranks.any(|(k, at)| {
        if at.0 < x0 || at.0 > x1 || at.1 < y0 || at.1 > y1 || k == i {
            return false;
        }
        let v = (at.0 - from.0, at.1 - from.1);
        let t = (v.0 * d.0 + v.1 * d.1) / len2;
        if t <= 0.0 || t >= 1.0 {
            return false;
        }
        let cross = v.0 * d.1 - v.1 * d.0;
        cross * cross < half * half * len2
    })
}
