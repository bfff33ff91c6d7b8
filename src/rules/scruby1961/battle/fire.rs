//! scruby-1961 fire: artillery (cannon shot, canister, hits on guns), rifle fire and the casualty rates.

use super::*;

impl Battle<'_> {
    /// Whether a friend of `owner` stands in the gun's lane of fire ("Lanes
    /// of Fire must be left between infantry in order for the guns to
    /// fire"): within half a tray's length of the line from `a` to `b`.
    pub(super) fn lane_blocked(&self, owner: usize, a: Point, b: Point, skip: usize) -> bool {
        let len = doctrine::dist(a, b);
        if len < EPSILON {
            return false;
        }
        let dir = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        self.stands.iter().enumerate().any(|(k, f)| {
            if k == skip || f.owner != owner || !f.fighting() || f.is_gun() || f.troop.is_none() {
                return false;
            }
            let v = (f.at.0 - a.0, f.at.1 - a.1);
            let along = v.0 * dir.0 + v.1 * dir.1;
            if along <= TRAY_DEPTH_INCHES || along >= len - TRAY_DEPTH_INCHES {
                return false;
            }
            let across = (v.0 * dir.1 - v.1 * dir.0).abs();
            across < TRAY_LENGTH_INCHES / 2.0
        })
    }

    /// A gun's target: the nearest enemy it can see in range, not concealed,
    /// not in a melee ("no troops or guns may fire into the melee"), not in
    /// the inner area of a village or forest.
    pub(super) fn gun_target(&self, g: usize) -> Option<usize> {
        let gun = self.stands.get(g)?;
        if !gun.combatant() || !gun.is_gun() {
            return None;
        }
        let range = artillery_range_inches(self.cell(gun.at).level > 0);
        let mut best: Option<(usize, f64)> = None;
        // Passed by the bar: out of range or no nearer than the best, no
        // root taken.
        let mut bar = Bar::new(range + EPSILON);
        for (j, e) in self.stands.iter().enumerate() {
            if e.owner == gun.owner || !e.combatant() || e.concealed || e.engaged {
                continue;
            }
            let Some(d) = bar.root(gun.at, e.at) else { continue };
            if d > range + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                continue;
            }
            if immune_to_cannon(self.cell(e.at))
                || !self.clear_sight(gun.at, e.at)
                || self.lane_blocked(gun.owner, gun.at, e.at, g)
            {
                continue;
            }
            best = Some((j, d));
            bar.lower(d - TIE_INCHES);
        }
        best.map(|(j, _)| j)
    }

    /// Whether gun `g` has a target: `gun_target(g).is_some()`, for which
    /// any enemy it could fire at will do, so none is measured against
    /// another.
    pub(super) fn has_gun_target(&self, g: usize) -> bool {
        let Some(gun) = self.stands.get(g) else {
            return false;
        };
        if !gun.combatant() || !gun.is_gun() {
            return false;
        }
        let range = artillery_range_inches(self.cell(gun.at).level > 0);
        // In its side's move its foes are listed, with the box about them
        // ([`Battle::list_foes`]): beyond its range from the box, no target.
        if self.foes_of == Some(gun.owner)
            && self.foe_bounds.is_none_or(|b| b.beyond(gun.at, range + EPSILON))
        {
            return false;
        }
        self.stands.iter().any(|e| {
            if e.owner == gun.owner || !e.combatant() || e.concealed || e.engaged {
                return false;
            }
            if doctrine::farther(gun.at, e.at, range + EPSILON) {
                return false;
            }
            !immune_to_cannon(self.cell(e.at))
                && self.clear_sight(gun.at, e.at)
                && !self.lane_blocked(gun.owner, gun.at, e.at, g)
        })
    }

    /// Side `side`'s cannons fire, each once, results at once (COMBAT 1:
    /// "Cannons are fired and casualties removed immediately").
    pub(super) fn artillery(&mut self, side: usize) {
        for g in 0..self.stands.len() {
            let Some(gun) = self.stands.get(g) else { continue };
            if gun.owner != side || !gun.combatant() || !gun.is_gun() || gun.engaged {
                continue;
            }
            let Some(troop) = gun.troop else { continue };
            let moved_too_far = match troop {
                Troop::HorseArtillery => gun.moved > horse_artillery_half_move(troop) + EPSILON,
                _ => gun.moved > EPSILON,
            };
            if moved_too_far {
                continue;
            }
            let Some(t) = self.gun_target(g) else { continue };
            self.cannon_shot(g, t);
        }
    }

    pub(super) fn cannon_shot(&mut self, g: usize, t: usize) {
        let (Some(gun), Some(target)) = (self.stands.get(g), self.stands.get(t)) else {
            return;
        };
        let (gun_name, name, turn) = (gun.name(), target.name(), self.turn);
        let Some(ttroop) = target.troop else { return };
        let outer = outer_area(self.cell(target.at));
        let d = doctrine::dist(gun.at, target.at);
        if target.is_gun() {
            // Counter-battery fire: three hits destroy a gun.
            let face = self.dice.d6();
            if !counter_battery_hit(face) {
                self.log
                    .say(turn, || format!("{gun_name} fires on {name}: {face}, no hit"));
                return;
            }
            let Some(target) = self.stands.get_mut(t) else {
                return;
            };
            target.hits += 1;
            let hits = target.hits;
            let gone = gun_destroyed(hits);
            if gone {
                target.status = Status::Out(Fate::Destroyed);
            }
            self.log.say(turn, || {
                if gone {
                    format!("{gun_name} fires on {name}: {face}, the third hit destroys it")
                } else {
                    format!("{gun_name} fires on {name}: {face}, hit {hits}")
                }
            });
            return;
        }
        if d <= gun.range + EPSILON {
            // CANNISTER FIRE, with the target's simultaneous return fire.
            let shot = canister(outer);
            let face = if shot.needs_die() { self.dice.d6() } else { 0 };
            let killed = shot.kills(face);
            let back = crew_fire(ttroop, target.units);
            let back_face = if back.needs_die() { self.dice.d6() } else { 0 };
            let crew_lost = back.kills(back_face) > 0;
            self.kill(t, killed);
            if let Some(u) = self.stands.get_mut(t) {
                u.fired_back = true;
            }
            if crew_lost {
                self.lose_crew(g);
            }
            self.log.say(turn, || {
                let back = match back {
                    Kill::None => String::new(),
                    _ if crew_lost => format!("; their return fire ({back_face}) kills the crew"),
                    _ => format!("; their return fire ({back_face}) misses the crew"),
                };
                format!("{gun_name} fires canister into {name}, killing {killed}{back}")
            });
            return;
        }
        let face = self.dice.d6();
        match artillery_shot(face, ttroop, outer) {
            Shot::Kill => {
                self.kill(t, 1);
                self.log.say(turn, || {
                    format!("{gun_name} fires on {name}: {face}, one figure killed")
                });
            }
            Shot::DriveBack => {
                self.log.say(turn, || {
                    format!("{gun_name} fires on {name}: {face}, driven back in confusion")
                });
                self.retire(t, RETIRE_MOVES);
            }
            Shot::Miss => self
                .log
                .say(turn, || format!("{gun_name} fires on {name}: {face}, no effect")),
        }
    }

    pub(super) fn kill(&mut self, t: usize, n: u32) {
        let Some(u) = self.stands.get_mut(t) else { return };
        u.units = u.units.saturating_sub(n);
        if u.units == 0 && u.fighting() {
            u.status = Status::Out(Fate::Destroyed);
            let (turn, name) = (self.turn, u.name());
            self.log.say(turn, || format!("{name} has no figures left"));
        }
    }

    /// "When the crew of the gun is killed in this manner, the gun cannot be
    /// fired nor moved."
    pub(super) fn lose_crew(&mut self, g: usize) {
        if let Some(gun) = self.stands.get_mut(g) {
            gun.crewed = false;
            gun.held_by = None;
            gun.held_for = 0;
        }
    }

    /// Whether a stand in Cross Country Column is behind another of its
    /// column (a friend in column within a tray's length, nearer `target`):
    /// only the front of a column fights ("the same as if one Regiment were
    /// firing").
    pub(super) fn behind_in_column(&self, i: usize, target: Point) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        if u.formation != Formation::CrossCountryColumn {
            return false;
        }
        let mine = doctrine::dist(u.at, target);
        self.stands.iter().enumerate().any(|(k, f)| {
            k != i
                && f.owner == u.owner
                && f.fighter()
                && f.formation == Formation::CrossCountryColumn
                && doctrine::within(f.at, u.at, TRAY_LENGTH_INCHES + EPSILON)
                && nearer(doctrine::dist(f.at, target), mine)
        })
    }

    /// Rifle fire "on a simultaneous basis, with casualties immediately
    /// removed from both sides": every shot from the table as it stands,
    /// then all the losses together.
    pub(super) fn rifle_fire(&mut self) {
        self.kills.iter_mut().for_each(|k| *k = 0);
        self.crew_killed.iter_mut().for_each(|k| *k = false);
        let turn = self.turn;
        // The box about each side's targets: nothing moves, falls or hides
        // until every shot is taken.
        let targets = |side: usize| {
            Bounds::of(
                self.stands
                    .iter()
                    .filter(|e| e.owner != side && e.combatant() && !e.concealed && !e.engaged)
                    .map(|e| e.at),
            )
        };
        let bounds = SideBounds([targets(0), targets(1)]);
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            let Some(troop) = u.troop else { continue };
            if !troop.is_infantry() || !u.fighter() || u.concealed || u.engaged || u.fired_back {
                continue;
            }
            if bounds.beyond(u.owner, u.at, u.range.max(FOREST_FIRE_INCHES) + EPSILON) {
                continue;
            }
            let in_forest = self.cell(u.at).ground == Ground::ForestInterior;
            let mut best: Option<(usize, f64)> = None;
            // A stand passed by the bar is beyond both ranges or no nearer
            // than the best: no root taken.
            let mut bar = Bar::new(u.range.max(FOREST_FIRE_INCHES) + EPSILON);
            for (j, e) in self.stands.iter().enumerate() {
                if e.owner == u.owner || !e.combatant() || e.concealed || e.engaged {
                    continue;
                }
                let Some(d) = bar.root(u.at, e.at) else { continue };
                // Beyond both its ranges, or no nearer than the best so
                // far: passed over before its ground is looked up.
                if d > u.range.max(FOREST_FIRE_INCHES) + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                    continue;
                }
                let ec = self.cell(e.at);
                // Inside forests, fire only into the adjoining square.
                let range = if in_forest || ec.ground == Ground::ForestInterior {
                    FOREST_FIRE_INCHES
                } else {
                    u.range
                };
                if d > range + EPSILON || best.is_some_and(|(_, b)| !nearer(d, b)) {
                    continue;
                }
                if ec.ground == Ground::BuiltUpInner || !self.clear_sight(u.at, e.at) {
                    continue;
                }
                // A friend in its line of fire masks it, as for the guns
                // ("Lanes of Fire must be left between infantry").
                if self.lane_blocked(u.owner, u.at, e.at, i) {
                    continue;
                }
                best = Some((j, d));
                bar.lower(d - TIE_INCHES);
            }
            let Some((j, _)) = best else { continue };
            let Some(e) = self.stands.get(j) else { continue };
            if self.behind_in_column(i, e.at) {
                continue;
            }
            let (name, target) = (u.name(), e.name());
            if e.is_gun() {
                let kill = crew_fire(troop, u.units);
                let face = self.dice.d6();
                let hit = kill.kills(face) > 0;
                if hit && let Some(k) = self.crew_killed.get_mut(j) {
                    *k = true;
                }
                self.log.say(turn, || {
                    if hit {
                        format!("{name} fire on the crew of {target}: {face}, the crew is killed")
                    } else {
                        format!("{name} fire on the crew of {target}: {face}, missed")
                    }
                });
                continue;
            }
            let (rate, kill) = casualty_rate(
                troop,
                u.units,
                u.formation,
                self.defensive(u.at, u.side, e.at),
                self.defensive(e.at, e.side, u.at),
            );
            let face = if kill.needs_die() { self.dice.d6() } else { 0 };
            let n = kill.kills(face);
            if let Some(k) = self.kills.get_mut(j) {
                *k += n;
            }
            self.log.say(turn, || {
                let how = if kill.needs_die() {
                    format!("throw {face}")
                } else {
                    "automatic".to_owned()
                };
                format!("{name} fire on {target} (casualty rate {rate}, {how}): {n} killed")
            });
        }
        for j in 0..self.stands.len() {
            let n = self.kills.get(j).copied().unwrap_or(0);
            if n > 0 {
                self.kill(j, n);
            }
            if self.crew_killed.get(j).copied().unwrap_or(false) {
                self.lose_crew(j);
            }
        }
    }

    // -----------------------------------------------------------------------
    // Melee
    // -----------------------------------------------------------------------

    pub(super) fn strike(&mut self, from: usize, onto: usize) -> u32 {
        let Some(u) = self.stands.get(from) else { return 0 };
        let Some(troop) = u.troop else { return 0 };
        if !self.stands.get(onto).is_some_and(Unit::fighter) || u.units == 0 {
            return 0;
        }
        let kill = melee_kill(troop, u.units);
        let face = if kill.needs_die() { self.dice.d6() } else { 0 };
        kill.kills(face)
    }
}
