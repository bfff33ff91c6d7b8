//! scruby-1961 movement: each side moves in turn, stands travel by road, column and line, charges are declared, guns are moved up.

use super::*;

impl Battle<'_> {
    pub(super) fn move_side(&mut self, side: usize) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if u.owner != side || !u.combatant() || u.engaged {
                continue;
            }
            if u.is_gun() {
                self.move_gun(i);
            } else if !self.try_charge(i) {
                self.manoeuvre(i);
            }
        }
    }

    /// Walks stand `i` toward `to`, `budget` inches of its move, over the
    /// ground: it stops short of ground it may not enter (Forests, rivers);
    /// in a forest it goes one square; uphill costs double ("All movement
    /// uphill is cut in half") and it climbs one level ("slope") at most.
    /// Returns where it ends.
    pub(super) fn travel(&self, i: usize, to: Point, budget: f64) -> Point {
        let Some(u) = self.stands.get(i) else {
            return to;
        };
        let Some(troop) = u.troop else { return u.at };
        let start = u.at;
        let c0 = self.cell(start);
        let Some(dir) = unit_vector(start, to) else {
            return start;
        };
        let total = doctrine::dist(start, to);
        let mut budget = budget;
        if is_town(c0) {
            // Towns: "at ROAD MOVE speed for all troops".
            budget = budget.max(town_move_inches(troop));
        }
        let mut spent = 0.0;
        let mut walked = 0.0;
        let mut at = start;
        let mut level = c0.level;
        let mut in_forest = is_forest(c0);
        while walked < total - EPSILON {
            let step = STEP_INCHES.min(total - walked);
            let next = (at.0 + dir.0 * step, at.1 + dir.1 * step);
            if !self.on_table(next) {
                break;
            }
            let c = self.cell(next);
            if !may_enter(troop, c.ground) || c.level > c0.level + 1 {
                break;
            }
            in_forest = in_forest || is_forest(c);
            let cost = if c.level > level || c.level > c0.level {
                2.0 * step
            } else {
                step
            };
            let cap = if in_forest {
                budget.min(forest_move_inches(troop))
            } else {
                budget
            };
            if spent + cost > cap + EPSILON {
                break;
            }
            spent += cost;
            walked += step;
            level = c.level;
            at = next;
        }
        at
    }

    pub(super) fn go(&mut self, i: usize, to: Point) {
        let Some(u) = self.stands.get_mut(i) else { return };
        u.moved += doctrine::dist(u.at, to);
        u.at = to;
    }

    /// Its move this game move, by formation and road.
    pub(super) fn move_budget(&self, i: usize, to: Point) -> f64 {
        let Some(u) = self.stands.get(i) else { return 0.0 };
        let Some(t) = u.troop else { return 0.0 };
        let on_road = self.cell(u.at).road && self.cell(to).road;
        move_inches(t, u.formation, on_road)
    }

    /// The Charge Move, when the doctrine's odds favour it: the weakest
    /// enemy within the charge reach that this stand may melee.
    pub(super) fn try_charge(&mut self, i: usize) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        let Some(troop) = u.troop else { return false };
        let Some(reach) = charge_inches(troop) else {
            return false;
        };
        let (me, at, owner) = (u.melee_points(), u.at, u.owner);
        let my_level = self.cell(at).level;
        let mut best: Option<(usize, f64, f64)> = None;
        for (j, e) in self.stands.iter().enumerate() {
            if e.owner == owner || !e.combatant() || e.concealed || e.engaged {
                continue;
            }
            let d = doctrine::dist(at, e.at);
            if d > reach + TRAY_DEPTH_INCHES + EPSILON {
                continue;
            }
            let c = self.cell(e.at);
            // "The Charge Move cannot be made by any troops uphill".
            if c.level > my_level && !may_charge_uphill(troop) {
                continue;
            }
            // Villages: outer areas "cannot be attacked by cavalry"; forests:
            // cavalry and guns cannot enter; "At no time can Light Cavalry be
            // used to attack a cannon" (rule 18).
            if troop.is_cavalry() && (c.ground == Ground::BuiltUpOuter || is_forest(c)) {
                continue;
            }
            if troop == Troop::LightCavalry && e.is_gun() {
                continue;
            }
            // Rule 14: light cavalry are "not used as combat troops"; rule
            // 17: they meet Line Infantry and Light Cavalry (and screens of
            // any kind) by the morale combat, not the charge; rule 16: in
            // melee only heavy cavalry kill them.
            if troop == Troop::LightCavalry
                || (e.troop == Some(Troop::LightCavalry) && troop != Troop::HeavyCavalry)
            {
                continue;
            }
            let theirs = f64::from(e.melee_points()) + self.support(j, e.owner);
            let mine = f64::from(me) + self.charging_points(j);
            if !e.is_gun() && !self.will_charge(owner, mine, theirs) {
                continue;
            }
            if e.is_gun() && !self.will_charge(owner, mine, self.support(j, e.owner)) {
                continue;
            }
            if best
                .is_none_or(|(_, bt, bd)| theirs < bt - EPSILON || (theirs <= bt + EPSILON && nearer(d, bd)))
            {
                best = Some((j, theirs, d));
            }
        }
        let Some((j, _, _)) = best else { return false };
        let Some(target_at) = self.stands.get(j).map(|e| e.at) else {
            return false;
        };
        // It ends front to front, a tray's depth from the target.
        let stop = match unit_vector(target_at, at) {
            Some(v) => (
                target_at.0 + v.0 * TRAY_DEPTH_INCHES,
                target_at.1 + v.1 * TRAY_DEPTH_INCHES,
            ),
            None => target_at,
        };
        let mut budget = reach;
        if self.cell(target_at).level > my_level {
            budget = crate::rules::scruby1961::tables::uphill_inches(reach);
        }
        let end = self.travel(i, stop, budget + 2.0 * TRAY_DEPTH_INCHES);
        if doctrine::dist(end, target_at) > CONTACT_INCHES + EPSILON {
            return false;
        }
        self.go(i, end);
        if let Some(c) = self.charge_at.get_mut(i) {
            *c = Some(j);
        }
        for k in [i, j] {
            if let Some(s) = self.stands.get_mut(k) {
                s.engaged = true;
                s.concealed = false;
                if s.troop.is_some_and(Troop::is_infantry) && s.formation == Formation::RoadColumn {
                    s.formation = Formation::CrossCountryColumn;
                }
            }
        }
        let (turn, name, target) = (
            self.turn,
            self.stands.get(i).map_or("", |s| s.name()),
            self.stands.get(j).map_or("", |s| s.name()),
        );
        self.log.say(turn, || format!("{name} charges {target}"));
        true
    }

    /// Whether side `side` charges at these odds: the defender when the
    /// doctrine's odds favour it ([`doctrine::charge_favoured`]); the
    /// attacker, who must come to grips to take the ground, at even odds or
    /// better (this program's own doctrine: the fire tables kill alike on
    /// both sides, and an attacker who only traded volleys would never win).
    pub(super) fn will_charge(&self, side: usize, mine: f64, theirs: f64) -> bool {
        match self.side(side).role {
            Role::Attacker => mine >= theirs && mine > 0.0,
            Role::Defender => doctrine::charge_favoured(mine, theirs),
        }
    }

    /// Melee points of side `side`'s fighters within reinforcing distance
    /// of stand `j` (not `j` itself).
    pub(super) fn support(&self, j: usize, side: usize) -> f64 {
        let Some(t) = self.stands.get(j) else { return 0.0 };
        self.stands
            .iter()
            .enumerate()
            .filter(|(k, f)| {
                *k != j
                    && f.owner == side
                    && f.fighter()
                    && !f.concealed
                    && doctrine::dist(f.at, t.at) <= REINFORCE_INCHES + EPSILON
            })
            .map(|(_, f)| f64::from(f.melee_points()))
            .sum()
    }

    /// Melee points already charging stand `j`.
    pub(super) fn charging_points(&self, j: usize) -> f64 {
        self.charge_at
            .iter()
            .zip(&self.stands)
            .filter(|(c, _)| **c == Some(j))
            .map(|(_, f)| f64::from(f.melee_points()))
            .sum()
    }

    /// Every other move, by the doctrine: deploy, advance, hold.
    pub(super) fn manoeuvre(&mut self, i: usize) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let role = self.side(side).role;
        // Cavalry do not ride at guns (their canister reaches further than
        // the charge); they charge one only when it is within reach.
        let nearest_any = self.nearest(i, |e| {
            e.fighting() && e.troop.is_some() && !(troop.is_cavalry() && e.is_gun())
        });
        // The attacker's infantry that means to charge goes on in column
        // (4 inches a move, then the charge) rather than deploy.
        let assault = role == Role::Attacker
            && nearest_any.is_some_and(|(j, _)| {
                self.stands.get(j).is_some_and(|e| {
                    self.will_charge(
                        side,
                        f64::from(u.melee_points()),
                        f64::from(e.melee_points()) + self.support(j, e.owner),
                    )
                })
            });
        // Deploying from column into Line: "no forward movement is allowed";
        // concealed troops deployed into Line "must expose" (Concealed Forces).
        if troop.is_infantry()
            && !assault
            && u.formation != Formation::Line
            && nearest_any.is_some_and(|(_, d)| d <= VISION_INCHES + EPSILON)
        {
            if let Some(u) = self.stands.get_mut(i) {
                u.formation = Formation::Line;
                u.concealed = false;
            }
            let (turn, name) = (self.turn, self.stands.get(i).map_or("", |s| s.name()));
            self.log
                .say(turn, || format!("{name} deploys from column into line"));
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        // Where it makes for, and how near it goes.
        let (to, stop) = match (role, u.post) {
            (Role::Defender, Some(post)) => (post, 0.0),
            _ => match nearest_any {
                Some((j, d)) if d <= ENGAGE_INCHES => {
                    let at = self.stands.get(j).map_or(u.at, |e| e.at);
                    let enemy_range = self.stands.get(j).map_or(9.0, |e| e.range);
                    let stop = if troop.is_cavalry() || role == Role::Attacker {
                        // Cavalry keep out of musket range until a charge is
                        // in prospect, then close to the charge reach.
                        let reach = charge_inches(troop).unwrap_or(6.0);
                        let favoured = self.stands.get(j).is_some_and(|e| {
                            self.will_charge(
                                side,
                                f64::from(u.melee_points()),
                                f64::from(e.melee_points()) + self.support(j, e.owner),
                            )
                        });
                        if favoured {
                            reach - 0.5
                        } else if troop.is_cavalry() {
                            enemy_range + 0.5
                        } else {
                            u.range - STEP_INCHES
                        }
                    } else {
                        u.range - STEP_INCHES
                    };
                    // Into a forest only the adjoining square is fired on
                    // (Figures 2-3), and an enemy out of sight cannot be
                    // fired on at all: close in until it can, short of contact.
                    let in_wood = self.cell(at).ground == Ground::ForestInterior
                        || self.cell(u.at).ground == Ground::ForestInterior;
                    let stop = if !self.clear_sight(u.at, at) {
                        stop.min(CONTACT_INCHES + 1.0 + STEP_INCHES)
                    } else if in_wood {
                        stop.min(FOREST_FIRE_INCHES - STEP_INCHES)
                    } else {
                        stop
                    };
                    (at, stop)
                }
                _ => (self.side(side).goal, 0.0),
            },
        };
        let here = u.at;
        if role == Role::Defender && u.post.is_some() && doctrine::dist(here, to) <= POST_SLACK_INCHES {
            return;
        }
        let d = doctrine::dist(here, to);
        if d <= stop + EPSILON {
            return;
        }
        let aim = doctrine::step_toward(here, to, d - stop);
        let budget = self.move_budget(i, aim);
        // Road Column only on roads, and never for concealed troops.
        let road = self.cell(here).road && self.cell(aim).road;
        let end = self.travel(i, aim, budget);
        // Keep off: a stand not charging does not end in contact.
        let clash = self.stands.iter().any(|e| {
            e.owner != side
                && e.combatant()
                && doctrine::dist(e.at, end) <= CONTACT_INCHES + STEP_INCHES / 2.0
        });
        if clash {
            return;
        }
        self.go(i, end);
        if let Some(u) = self.stands.get_mut(i)
            && troop.is_infantry()
            && u.formation != Formation::Line
        {
            u.formation = if road && !u.concealed {
                Formation::RoadColumn
            } else {
                Formation::CrossCountryColumn
            };
        }
    }

    /// ARTILLERY: "Artillery may move OR fire, but cannot do both"; horse
    /// artillery "make a half-move, unlimber and fire". A gun with a target
    /// stays to fire; otherwise it moves with its side, stopping when a
    /// target would be in range, and out of the enemy's musket range.
    pub(super) fn move_gun(&mut self, i: usize) {
        if self.gun_target(i).is_some() {
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let role = self.side(side).role;
        let (to, stop) = match (role, u.post) {
            (Role::Defender, Some(post)) => (post, 0.0),
            _ => match self.nearest(i, |e| e.fighting() && e.troop.is_some()) {
                Some((j, d)) if d <= ENGAGE_INCHES => {
                    let at = self.stands.get(j).map_or(u.at, |e| e.at);
                    (at, artillery_range_inches(false) - 1.0)
                }
                _ => (self.side(side).goal, 0.0),
            },
        };
        let here = u.at;
        let d = doctrine::dist(here, to);
        if d <= stop + EPSILON || (role == Role::Defender && d <= POST_SLACK_INCHES) {
            return;
        }
        let aim = doctrine::step_toward(here, to, d - stop);
        let budget = if troop == Troop::HorseArtillery {
            horse_artillery_half_move(troop)
        } else {
            self.move_budget(i, aim)
        };
        let end = self.travel(i, aim, budget);
        let threatened = self.stands.iter().any(|e| {
            e.owner != side && e.combatant() && doctrine::dist(e.at, end) <= e.range.max(CONTACT_INCHES) + 1.0
        });
        if !threatened {
            self.go(i, end);
        }
    }
}
