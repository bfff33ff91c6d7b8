//! scruby-1961 movement: each side moves in turn, stands travel by road, column and line, charges are declared, guns are moved up.

use super::*;

impl Battle<'_> {
    /// Lists side `side`'s enemy combatants in `self.foes`
    /// ([`Battle::nearest_foe`]).
    pub(super) fn list_foes(&mut self, side: usize) {
        let mut foes = std::mem::take(&mut self.foes);
        foes.clear();
        let mut reach: f64 = 0.0;
        foes.extend(
            self.stands
                .iter()
                .enumerate()
                .filter(|(_, e)| e.owner != side && e.combatant())
                .map(|(j, e)| {
                    reach = reach.max(e.range.max(CONTACT_INCHES));
                    Foe {
                        index: j,
                        at: e.at,
                        gun: e.is_gun(),
                    }
                }),
        );
        self.foe_bounds = Bounds::of(foes.iter().map(|f| f.at));
        self.foe_reach = reach;
        self.foes = foes;
        self.foes_of = Some(side);
    }

    pub(super) fn move_side(&mut self, side: usize) {
        self.list_foes(side);
        self.list_watches(side);
        // No gun loses or regains its crew while a side moves.
        self.crewless = self
            .stands
            .iter()
            .any(|e| e.fighting() && e.is_gun() && !e.crewed);
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if u.owner != side || !u.combatant() || u.engaged {
                continue;
            }
            if u.is_gun() {
                self.move_gun(i);
                continue;
            }
            // The nearest enemy combatant, found once: the charge, the order
            // and the deployment all ask (nothing moves between); as the
            // plan found it if nothing has moved since.
            let near = match self.nears.get(i) {
                Some(&n) if self.nears_hold.get(side).copied().unwrap_or(false) => n,
                _ => self.nearest_foe(i),
            };
            if !self.try_charge(i, near) {
                self.manoeuvre(i, near);
            }
        }
        // Its move done, the enemy may move, fall or change hands, and
        // the plan's nearest enemies no longer hold for either side.
        self.foes_of = None;
        self.nears_hold = [false; 2];
        self.watches.clear();
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
        let mut at = start;
        // On level ground it may enter, with no forest, only the table's
        // edge, its budget and the way's end can stop a step: the same steps
        // are walked without looking up each one's ground (every step then
        // costs its length, and the budget is the cap). With that ground
        // wholly on the table, a step off it would be past the budget, so
        // the edge is not looked at either.
        let far = total.min(budget + EPSILON);
        if let Some(inside) = self.level_going(
            troop,
            start,
            (start.0 + dir.0 * far, start.1 + dir.1 * far),
            c0.level,
        ) {
            return if inside {
                level_walk(start, dir, total, budget, |_| true)
            } else {
                level_walk(start, dir, total, budget, |p| self.on_table(p))
            };
        }
        let mut spent = 0.0;
        let mut walked = 0.0;
        let mut level = c0.level;
        let mut in_forest = is_forest(c0);
        // The cell of `at`, carried from the step before.
        let mut here = c0;
        while walked < total - EPSILON {
            let step = STEP_INCHES.min(total - walked);
            let next = (at.0 + dir.0 * step, at.1 + dir.1 * step);
            if !self.on_table(next) {
                break;
            }
            let c = self.cell(next);
            // Ground it may not enter stops it, unless it stands on such
            // ground already (set down there): then it may walk out of it.
            let barred = !may_enter(troop, c.ground) && may_enter(troop, here.ground);
            if barred || c.level > c0.level + 1 {
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
            here = c;
        }
        at
    }

    /// Whether every cell of the table in the box with corners `a` and `b`
    /// (inches), with a little to spare, is at `level`, not forest, and
    /// ground `troop` may enter: nothing on a straight way between them can
    /// bar, slow or stop it ([`Battle::travel`]). If so, whether the box
    /// lies wholly on the table.
    fn level_going(&self, troop: Troop, a: Point, b: Point, level: u8) -> Option<bool> {
        // Well beyond the drift of a float walk of a few dozen steps.
        const SPARE_INCHES: f64 = 0.01;
        let c = self.board.cell_inches;
        let cells = |lo: f64, hi: f64, cap: u32| {
            let (first, last) = (
                crate::rules::board::floor((lo - SPARE_INCHES) / c),
                crate::rules::board::floor((hi + SPARE_INCHES) / c),
            );
            let cap = i64::from(cap) - 1;
            (first.max(0)..=last.min(cap), first >= 0 && last <= cap)
        };
        let (xs, x_inside) = cells(a.0.min(b.0), a.0.max(b.0), self.board.width);
        let (ys, y_inside) = cells(a.1.min(b.1), a.1.max(b.1), self.board.depth);
        let level_going = ys.into_iter().all(|y| {
            xs.clone().all(|x| {
                let cell = self.board.cell(x, y);
                cell.level == level && !is_forest(cell) && may_enter(troop, cell.ground)
            })
        });
        level_going.then_some(x_inside && y_inside)
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

    /// The Charge Move, when its general's odds favour it: the weakest
    /// enemy within the charge reach that this stand may melee.
    /// `near` is its nearest enemy combatant ([`Battle::nearest_foe`]).
    pub(super) fn try_charge(&mut self, i: usize, near: Option<(usize, f64)>) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        let Some(troop) = u.troop else { return false };
        if charge_inches(troop).is_none() {
            return false;
        }
        let (at, owner) = (u.at, u.owner);
        let my_level = self.cell(at).level;
        // The longer of its reaches, up or down hill: an enemy beyond it is
        // passed over before its ground is looked up.
        let far = [false, true]
            .into_iter()
            .filter_map(|uphill| melee_reach(troop, uphill))
            .fold(f64::NEG_INFINITY, f64::max);
        // With its nearest enemy beyond that reach, so is every other: the
        // nearest is within a tie's slack of the nearest of all
        // ([`nearer`]), so a little more is allowed for.
        if near.is_none_or(|(_, d)| d - 2.0 * TIE_INCHES > far + CONTACT_INCHES + EPSILON) {
            return false;
        }
        let mut best: Option<(usize, f64, f64)> = None;
        // The enemy combatants, from the side's list ([`Battle::move_side`]):
        // while it moves only whether one is engaged or concealed changes.
        for f in &self.foes {
            let (j, e_at) = (f.index, f.at);
            let Some(e) = self.stands.get(j) else { continue };
            if e.concealed || e.engaged {
                continue;
            }
            let d = doctrine::dist(at, e_at);
            if d > far + CONTACT_INCHES + EPSILON {
                continue;
            }
            let uphill = self.cell(e.at).level > my_level;
            let Some(reach) = melee_reach(troop, uphill) else {
                continue;
            };
            if d > reach + CONTACT_INCHES + EPSILON {
                continue;
            }
            if !self.may_charge(troop, my_level, j) {
                continue;
            }
            let (mine, theirs) = self.local_odds(i, j);
            if !self.will_charge(owner, mine, theirs) {
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
        let uphill = self.cell(target_at).level > my_level;
        let budget = melee_reach(troop, uphill).unwrap_or(0.0);
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
        if uphill && !may_charge_uphill(troop) {
            self.log.say(turn, || {
                format!("{name} climbs to melee {target} (no charge uphill)")
            });
        } else {
            self.log.say(turn, || format!("{name} charges {target}"));
        }
        true
    }

    /// Whether `troop` at level `my_level` may charge stand `j` at all.
    pub(super) fn may_charge(&self, troop: Troop, my_level: u8, j: usize) -> bool {
        let Some(e) = self.stands.get(j) else { return false };
        let _ = my_level;
        let c = self.cell(e.at);
        // Villages: outer areas "cannot be attacked by cavalry"; forests:
        // cavalry and guns cannot enter; "At no time can Light Cavalry be
        // used to attack a cannon" (rule 18).
        if troop.is_cavalry() && (c.ground == Ground::BuiltUpOuter || is_forest(c)) {
            return false;
        }
        // Rule 14: light cavalry are "not used as combat troops"; rule
        // 17: they meet Line Infantry and Light Cavalry (and screens of
        // any kind) by the morale combat, not the charge; rule 16: in
        // melee only heavy cavalry kill them.
        !(troop == Troop::LightCavalry
            || (e.troop == Some(Troop::LightCavalry) && troop != Troop::HeavyCavalry))
    }

    /// The melee points stand `i` would bring to a charge on stand `j`, its
    /// friends already charging it and those near enough to charge it too
    /// (REINFORCED MELEES: "it is legal to reinforce a melee"), against
    /// `j`'s and its supports' (for a gun, its supports' alone: its crew
    /// fights by the dice of MELEEING CANNON CREWS).
    pub(super) fn local_odds(&self, i: usize, j: usize) -> (f64, f64) {
        let (Some(u), Some(e)) = (self.stands.get(i), self.stands.get(j)) else {
            return (0.0, f64::INFINITY);
        };
        let mut mine = f64::from(u.melee_points()) + self.charging_points(j);
        for (k, f) in self.stands.iter().enumerate() {
            if k == i
                || f.owner != u.owner
                || !f.fighter()
                || f.concealed
                || f.engaged
                || self.charge_at.get(k).copied().flatten().is_some()
            {
                continue;
            }
            let Some(reach) = f.troop.and_then(charge_inches) else {
                continue;
            };
            if f.troop == Some(Troop::LightCavalry) {
                continue;
            }
            if doctrine::within(f.at, e.at, reach + CONTACT_INCHES + EPSILON) {
                mine += f64::from(f.melee_points());
            }
        }
        let own = if e.is_gun() {
            0.0
        } else {
            f64::from(e.melee_points())
        };
        // The target's friends that can strike the charger: those at its
        // flank or rear where it ends, front to front with the target
        // (REINFORCED MELEES: reinforcing troops "must be able to get ... to
        // the flank or rear of the ENEMY troops to count"; "It does no good
        // to send reinforcing troops to the REAR of his unit").
        let end = match unit_vector(e.at, u.at) {
            Some(v) => (e.at.0 + v.0 * TRAY_DEPTH_INCHES, e.at.1 + v.1 * TRAY_DEPTH_INCHES),
            None => e.at,
        };
        let helpers: f64 = self
            .stands
            .iter()
            .enumerate()
            .filter(|&(k, f)| {
                k != j
                    && f.owner == e.owner
                    && f.fighter()
                    && !f.concealed
                    && !f.engaged
                    && doctrine::within(f.at, end, REINFORCE_INCHES + EPSILON)
            })
            .map(|(_, f)| f64::from(f.melee_points()))
            .sum();
        let theirs = if e.is_gun() {
            self.support(j, e.owner)
        } else {
            own + helpers
        };
        (mine, theirs)
    }

    /// Whether stand `i` has a charge in prospect on stand `j`: its local
    /// odds would favour it, were it in reach.
    pub(super) fn charge_prospect(&self, i: usize, j: usize) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        let Some(troop) = u.troop else { return false };
        if charge_inches(troop).is_none() || !self.may_charge(troop, self.cell(u.at).level, j) {
            return false;
        }
        let (mine, theirs) = self.local_odds(i, j);
        self.will_charge(u.owner, mine, theirs)
    }

    /// Whether side `side` charges at these odds: by its general's plan
    /// ([`doctrine::Plan::charge_favoured`]): a bold general at even odds, a
    /// steady one at 5:4, a cautious one at 3:2, and at less in the second
    /// half of the day, when the attacker must take the ground or lose and
    /// the defender throw back those who close.
    /// An attacker that has not taken the ground by
    /// [`command::LAST_CHANCE_FROM`] of the day charges at odds down to
    /// [`command::LAST_CHANCE_ODDS`].
    pub(super) fn will_charge(&self, side: usize, mine: f64, theirs: f64) -> bool {
        let limit = self.scenario.turn_limit;
        let plan = self.side(side).plan;
        if plan.charge_favoured(self.turn, limit, mine, theirs) {
            return true;
        }
        // An attack gone in means to close: its odds are cut by
        // [`command::ASSAULT_ODDS`].
        let odds = plan.charge_odds(self.turn, limit) * command::ASSAULT_ODDS;
        if plan.role == Role::Attacker
            && self.assault.get(side).copied().unwrap_or(false)
            && mine > 0.0
            && mine >= theirs * odds
        {
            return true;
        }
        let last_chance = plan.role == Role::Attacker
            && f64::from(self.turn) > f64::from(limit) * command::LAST_CHANCE_FROM
            && !self.holds_goal(side);
        last_chance && mine > 0.0 && mine >= theirs * command::LAST_CHANCE_ODDS
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
                    && doctrine::within(f.at, t.at, REINFORCE_INCHES + EPSILON)
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

    /// Every other move, by its general's order ([`Battle::order`]):
    /// deploy, advance, hold.
    /// `near` is its nearest enemy combatant ([`Battle::nearest_foe`]).
    pub(super) fn manoeuvre(&mut self, i: usize, near: Option<(usize, f64)>) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let plan = self.side(side).plan;
        // In echelon, the trailing wing waits.
        if plan.waits(u.across, self.turn) {
            return;
        }
        let Some(order) = self.order(i, near) else { return };
        // Deploying from column into Line: "no forward movement is allowed";
        // concealed troops deployed into Line "must expose" (Concealed
        // Forces). Infantry deploy where they are to stand and fire, with
        // an enemy within VISION RANGE.
        let seen = near.is_some_and(|(_, d)| d <= VISION_INCHES + EPSILON);
        let Some(u) = self.stands.get(i) else { return };
        let here = u.at;
        let d = doctrine::dist(here, order.to);
        let arrived =
            d <= order.stop + EPSILON || (order.stop == 0.0 && d <= POST_SLACK_INCHES && u.post.is_some());
        if troop.is_infantry() && u.formation != Formation::Line && seen && (order.line || arrived) {
            if let Some(u) = self.stands.get_mut(i) {
                u.formation = Formation::Line;
                u.concealed = false;
            }
            let (turn, name) = (self.turn, self.stands.get(i).map_or("", |s| s.name()));
            self.log
                .say(turn, || format!("{name} deploys from column into line"));
            return;
        }
        if order.keep_out {
            let (margin, from) = self.musket_margin(side, here);
            if margin < -EPSILON {
                if let Some(from) = from.and_then(|k| self.stands.get(k)).map(|e| e.at) {
                    self.fall_back(i, from, -margin);
                }
                return;
            }
        }
        if arrived {
            // Too near for its order (cavalry keeping out of musket range,
            // columns waiting out of cannon range): it falls back to it.
            if order.back && order.stop > d + TRAY_LENGTH_INCHES {
                self.fall_back(i, order.to, order.stop - d);
            }
            return;
        }
        let aim = doctrine::step_toward(here, order.to, d - order.stop);
        let aim = self.steer(i, aim);
        let budget = self.move_budget(i, aim);
        // Road Column only on roads, and never for concealed troops.
        let road = self.cell(here).road && self.cell(aim).road;
        let mut end = self.travel(i, aim, budget);
        if order.keep_out {
            // Only as far as it stays out of musket range: each step is
            // [`Battle::musket_margin`]`(side, p).0 < 0.0` asked of the enemy
            // regiments near enough to matter (every step is within `total`
            // of `here`, so one further off than that and its range cannot
            // be reached).
            let total = doctrine::dist(here, end);
            let mut threats = std::mem::take(&mut self.threats);
            threats.clear();
            threats.extend(
                self.stands
                    .iter()
                    .filter(|e| e.owner != side && e.fighter() && e.troop.is_some_and(Troop::is_infantry))
                    .filter(|e| {
                        doctrine::dist(here, e.at) - total - TRAY_LENGTH_INCHES < e.range + TRAY_DEPTH_INCHES
                    })
                    .map(|e| (e.at, e.range)),
            );
            let mut safe = here;
            let mut walked = STEP_INCHES;
            while walked <= total + EPSILON {
                let p = doctrine::step_toward(here, end, walked);
                if threats
                    .iter()
                    .any(|&(at, range)| doctrine::dist(p, at) - range - TRAY_DEPTH_INCHES < 0.0)
                {
                    break;
                }
                safe = p;
                walked += STEP_INCHES;
            }
            self.threats = threats;
            end = safe;
        }
        // Keep off: a stand not charging does not end in contact (no foe
        // looked at when their box is beyond the reach).
        let contact = CONTACT_INCHES + STEP_INCHES / 2.0;
        let clash = self.foe_bounds.is_some_and(|b| !b.beyond(end, contact))
            && self.foes.iter().any(|f| doctrine::within(f.at, end, contact));
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

    /// Stand `i` goes back `inches` (at most its move) straight away from
    /// `from`, over ground it may stand on.
    pub(super) fn fall_back(&mut self, i: usize, from: Point, inches: f64) {
        let Some(u) = self.stands.get(i) else { return };
        let here = u.at;
        let Some(away) = unit_vector(from, here) else {
            return;
        };
        let budget = self.move_budget(i, here);
        let back = inches.min(budget);
        let aim = (here.0 + away.0 * back, here.1 + away.1 * back);
        let end = self.travel(i, aim, budget);
        self.go(i, end);
    }

    /// ARTILLERY: "Artillery may move OR fire, but cannot do both"; horse
    /// artillery "make a half-move, unlimber and fire". A gun with a target
    /// stays to fire; otherwise it moves with its side, stopping when a
    /// target would be in range, and out of the enemy's musket range.
    pub(super) fn move_gun(&mut self, i: usize) {
        if self.has_gun_target(i) {
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let side = u.owner;
        let role = self.side(side).role;
        let (to, stop) = match (role, self.held_post(i)) {
            (Role::Defender, Some(post)) => (post, 0.0),
            _ => match self.nearest_foe(i) {
                Some((j, d)) if d <= ENGAGE_INCHES => {
                    let at = self.stands.get(j).map_or(u.at, |e| e.at);
                    (at, artillery_range_inches(false) - 1.0)
                }
                _ => (self.goal_of(side), 0.0),
            },
        };
        let here = u.at;
        let d = doctrine::dist(here, to);
        if d <= stop + EPSILON || (role == Role::Defender && d <= POST_SLACK_INCHES) {
            return;
        }
        let aim = doctrine::step_toward(here, to, d - stop);
        let aim = self.steer(i, aim);
        let budget = if troop == Troop::HorseArtillery {
            horse_artillery_half_move(troop)
        } else {
            self.move_budget(i, aim)
        };
        let end = self.travel(i, aim, budget);
        // Its foes are the enemy combatants ([`Battle::list_foes`]): none
        // reaches it from beyond the box about them.
        let far = self.foes_of == Some(side)
            && self
                .foe_bounds
                .is_none_or(|b| b.beyond(end, self.foe_reach + 1.0));
        let threatened = !far
            && self.stands.iter().any(|e| {
                e.owner != side
                    && e.combatant()
                    && doctrine::within(e.at, end, e.range.max(CONTACT_INCHES) + 1.0)
            });
        if !threatened {
            self.go(i, end);
        }
    }
}

/// Where a walk from `start` along the unit vector `dir` ends, toward a
/// point `total` inches off, with `budget` inches to spend, over level
/// ground it may enter, stopping before a step to where `stays` does not
/// hold (the table's edge; always holds when that ground is wholly on the
/// table): [`Battle::travel`]'s steps of [`STEP_INCHES`], each costing its
/// length, to the bit.
///
/// The distance walked is not added up step by step but counted: `k` whole
/// steps walk exactly `k` times a step (a quarter inch, a power of two),
/// and what is spent is what is walked. A part step, if any, is last: it
/// is taken only where less than a step is left, so the count after it is
/// past `total`. (A walk of four billion steps, a thousand miles, is cut
/// there.)
fn level_walk(start: Point, dir: Point, total: f64, budget: f64, stays: impl Fn(Point) -> bool) -> Point {
    let mut at = start;
    let mut steps = 0_u32;
    let mut walked = 0.0;
    while walked < total - EPSILON {
        let step = STEP_INCHES.min(total - walked);
        let next = (at.0 + dir.0 * step, at.1 + dir.1 * step);
        if walked + step > budget + EPSILON || !stays(next) {
            break;
        }
        at = next;
        let Some(more) = steps.checked_add(1) else { break };
        steps = more;
        walked = f64::from(steps) * STEP_INCHES;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk as [`Battle::travel`] added it up, step by step.
    fn added_up(start: Point, dir: Point, total: f64, budget: f64, stays: impl Fn(Point) -> bool) -> Point {
        let (mut spent, mut walked, mut at) = (0.0, 0.0, start);
        while walked < total - EPSILON {
            let step = STEP_INCHES.min(total - walked);
            let next = (at.0 + dir.0 * step, at.1 + dir.1 * step);
            if spent + step > budget + EPSILON || !stays(next) {
                break;
            }
            spent += step;
            walked += step;
            at = next;
        }
        at
    }

    fn same(a: Point, b: Point) -> bool {
        a.0.to_bits() == b.0.to_bits() && a.1.to_bits() == b.1.to_bits()
    }

    #[test]
    fn a_counted_walk_ends_where_one_added_up_does_at_the_edges() {
        let dir = (0.6, -0.8);
        let start = (13.37, 41.5);
        // Ends and budgets on a step, a hair either side of one, a part
        // step, none at all, and what is not a number.
        let near = [
            0.0,
            1e-7,
            0.1,
            0.25,
            0.25 + 1e-6,
            0.5 - 1e-7,
            3.0,
            3.0 + 1e-6,
            3.0 - 1e-6,
            6.1,
            12.0,
        ];
        for total in near.iter().copied().chain([f64::NAN, f64::INFINITY, -1.0]) {
            for budget in near.iter().copied().chain([f64::NAN, f64::INFINITY, -1.0, 1e6]) {
                if total.is_infinite() && (budget.is_nan() || budget > 1e6) {
                    continue; // a walk without end, added up
                }
                // On the table throughout, and with an edge 1.63 inches
                // to the east, reached in the third inch.
                for edge in [f64::INFINITY, 15.0] {
                    let stays = |p: Point| p.0 < edge;
                    let (a, b) = (
                        level_walk(start, dir, total, budget, stays),
                        added_up(start, dir, total, budget, stays),
                    );
                    assert!(
                        same(a, b),
                        "total {total} budget {budget} edge {edge}: {a:?} against {b:?}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        /// Over any way and budget a move takes, to the bit.
        #[test]
        fn a_counted_walk_ends_where_one_added_up_does(
            start in (0.0..200.0_f64, 0.0..200.0_f64),
            angle in 0.0..std::f64::consts::TAU,
            total in 0.0..60.0_f64,
            budget in 0.0..40.0_f64,
            on_a_step in proptest::bool::ANY,
            edge in 0.0..250.0_f64,
        ) {
            // Half the ends a whole number of steps, where the tests turn.
            let total = if on_a_step { (total * 4.0).round() / 4.0 } else { total };
            let dir = (angle.cos(), angle.sin());
            // A table's edge at `edge` inches both ways, or none.
            let within_edge = |p: Point| p.0 < edge && p.1 < edge;
            let (a, b) = (
                level_walk(start, dir, total, budget, within_edge),
                added_up(start, dir, total, budget, within_edge),
            );
            proptest::prop_assert!(same(a, b), "{:?} against {:?} (edge {})", a, b, edge);
            let (a, b) = (level_walk(start, dir, total, budget, |_| true), added_up(start, dir, total, budget, |_| true));
            proptest::prop_assert!(same(a, b), "{:?} against {:?}", a, b);
        }
    }
}
