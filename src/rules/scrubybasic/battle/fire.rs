//! scruby-basic's fire: artillery and musketry by the Combat Tables, kills
//! taken from the stands fired at, morale judged for each fight, retiring.

use super::*;
use crate::model::text::quantity;

impl Battle<'_> {
    /// Command and transport an enemy reaches with no friend beside them.
    pub(super) fn captures(&mut self) {
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(u.fighting() && u.troop.is_none()) {
                continue;
            }
            let near = |s: usize| {
                self.side_units(s).any(|(_, e)| {
                    e.side == s && e.combatant() && doctrine::dist(u.at, e.at) <= RANK_INCHES + EPSILON
                })
            };
            if near(1 - u.side) && !near(u.side) {
                let name = u.name();
                if let Some(u) = self.units.get_mut(i) {
                    u.status = Status::Out(Fate::Captured);
                }
                self.log.say(self.turn, || {
                    format!("the enemy reaches {name}, unescorted: taken")
                });
            }
        }
    }

    /// The stands a kill at `primary` may fall on: it, then its friends in
    /// the fight, nearest first.
    pub(super) fn victims(&self, primary: usize) -> Vec<usize> {
        let Some(p) = self.u(primary) else {
            return Vec::new();
        };
        let mut v: Vec<(f64, usize)> = self
            .side_units(p.side)
            .filter(|(j, e)| {
                *j != primary
                    && e.side == p.side
                    && e.combatant()
                    && doctrine::dist(e.at, p.at) <= FIGHT_INCHES * self.scale.max(0.5) + EPSILON
            })
            .map(|(j, e)| (doctrine::dist(e.at, p.at), j))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        std::iter::once(primary)
            .chain(v.into_iter().map(|x| x.1))
            .collect()
    }

    /// Takes the kills of `pool` (shares against 2, 3 and 4 models) from
    /// `victims` in order; marks them in `out`, skipping stands already in it.
    pub(super) fn take_kills(&self, mut pool: [f64; 3], victims: &[usize], out: &mut Vec<usize>) {
        for &v in victims {
            if out.contains(&v) {
                continue;
            }
            let Some(u) = self.u(v) else { continue };
            let k = pool_index(u.models);
            let f = pool.get(k).copied().unwrap_or(0.0);
            if f >= 1.0 - 1e-9 {
                out.push(v);
                let keep = (f - 1.0).max(0.0) / f;
                for p in &mut pool {
                    *p *= keep;
                }
            } else {
                if f > 0.5 + 1e-9 {
                    out.push(v);
                }
                return;
            }
        }
    }

    pub(super) fn shares(troop: Troop, models: u32, factor: f64) -> [f64; 3] {
        [2, 3, 4].map(|m| stand_share(troop, models, m) * factor)
    }

    pub(super) fn remove(&mut self, i: usize, how: &str) {
        let name = self.name(i);
        if let Some(u) = self.units.get_mut(i) {
            u.status = Status::Out(Fate::Destroyed);
            u.charge = Charge::None;
        }
        self.log.say(self.turn, || format!("{name} {how}"));
    }

    /// 2. Artillery fire, each side's combatants as listed for the orders.
    pub(super) fn artillery(&mut self) {
        for p in &mut self.pools {
            *p = [0.0; 3];
        }
        let mut canister = vec![false; self.units.len()];
        let mut targets = Vec::new();
        let mut silenced = Vec::new();
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            // A gun withholding its fire for charging cavalry keeps it for
            // them (Special Moves 2.4.1).
            if !(self.can_act(i) && u.is(|t| t == Troop::Artillery)) || u.withhold {
                continue;
            }
            if u.moved > GUN_MOVE_AND_FIRE_INCHES * self.scale + EPSILON {
                continue;
            }
            let (at, side) = (u.at, u.side);
            let range = artillery_range(self.cell(at).level) * self.scale;
            let visible = |e: &Unit<'_>| doctrine::dist(at, e.at) <= range + EPSILON && self.sight(at, e.at);
            let target = self
                .nearest_enemy(i, |e| !e.is(|t| t == Troop::Artillery) && visible(e))
                .or_else(|| self.nearest_enemy(i, |e| visible(e)));
            let Some((t, d)) = target else { continue };
            self.links.push(Link { a: i, b: t, by: side });
            let Some(e) = self.u(t) else { continue };
            if e.is(|t| t == Troop::Artillery) {
                // 3. Counter-battery: four hits destroy a gun.
                let face = self.dice.d6();
                let hit = counter_battery_hit(face);
                let (me, them) = (self.name(i), self.name(t));
                let hits = if let Some(e) = self.units.get_mut(t) {
                    e.gun_hits += u32::from(hit);
                    e.gun_hits
                } else {
                    0
                };
                self.log.say(self.turn, || {
                    format!(
                        "{me} fire on the gun {them}: {face}, {}",
                        if hit {
                            format!("a hit ({hits})")
                        } else {
                            "a miss".to_owned()
                        }
                    )
                });
                if hits >= GUN_HITS_TO_DESTROY && !silenced.contains(&t) {
                    silenced.push(t);
                }
                continue;
            }
            let close = d <= CANISTER_INCHES * self.scale + EPSILON;
            let factor = canister_factor(close)
                * defensive_fire_factor(Troop::Artillery, self.defensive(e.at, e.side));
            let add = Self::shares(Troop::Artillery, 4, factor);
            if let Some(p) = self.pools.get_mut(t) {
                for (a, b) in p.iter_mut().zip(add) {
                    *a += b;
                }
            }
            if close && let Some(c) = canister.get_mut(t) {
                *c = true;
            }
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        for g in silenced {
            if self.u(g).is_some_and(Unit::fighting) {
                self.killed.push(g);
                self.remove(g, "is destroyed by counter-battery fire");
            }
        }
        for t in targets {
            let pool = self.pools.get(t).copied().unwrap_or([0.0; 3]);
            let mut dead = Vec::new();
            if pool.iter().any(|&p| p > 0.5) {
                self.take_kills(pool, &self.victims(t), &mut dead);
            }
            for v in dead {
                self.killed.push(v);
                if canister.get(t).copied().unwrap_or(false) {
                    if let Some(u) = self.units.get_mut(v) {
                        u.doomed = true;
                    }
                    let name = self.name(v);
                    self.log
                        .say(self.turn, || format!("{name} is cut down by canister"));
                } else {
                    self.remove(v, "is killed by artillery fire");
                }
            }
        }
    }

    /// 3. Musket fire, simultaneous; then canister's dead go too.
    pub(super) fn musket(&mut self) {
        self.list_present();
        for p in &mut self.pools {
            *p = [0.0; 3];
        }
        let mut targets = Vec::new();
        // Who can fire at whom: the doctrine concentrates each side's fire
        // on the enemy stand most of its firers reach (then the nearest).
        // (firer, enemy in reach, distance), grouped by firer.
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        let mut exposure = vec![0_u32; self.units.len()];
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !self.can_act(i) || u.withhold {
                continue;
            }
            let Some(troop) = u.troop else { continue };
            let Some(range) = musket_range(troop, self.cell(u.at).level) else {
                continue;
            };
            let (at, side) = (u.at, u.side);
            let range = range * self.scale;
            let r2 = (range + EPSILON) * (range + EPSILON);
            // None in reach from beyond the box about them.
            if self
                .present_bounds
                .0
                .get(1 - side.min(1))
                .is_some_and(|b| b.is_none_or(|b| b.dist2_from(at) > r2))
            {
                continue;
            }
            for e in self.enemies(side) {
                let j = e.i;
                let (dx, dy) = (e.at.0 - at.0, e.at.1 - at.1);
                let d2 = dx * dx + dy * dy;
                if d2 <= r2 && self.sight(at, e.at) {
                    seen.push((i, j, d2));
                    if let Some(x) = exposure.get_mut(j) {
                        *x += 1;
                    }
                }
            }
        }
        // Whether each stand in reach stands in a defensive position, looked
        // up once.
        let mut covered: Vec<Option<bool>> = vec![None; self.units.len()];
        for &(_, j, _) in &seen {
            if let Some(c) = covered.get_mut(j).filter(|c| c.is_none()) {
                *c = Some(self.u(j).is_some_and(|e| self.defensive(e.at, e.side)));
            }
        }
        let mut start = 0;
        while start < seen.len() {
            let i = seen.get(start).map_or(0, |x| x.0);
            let end = seen
                .iter()
                .skip(start)
                .position(|x| x.0 != i)
                .map_or(seen.len(), |n| start + n);
            let options = seen.get(start..end).unwrap_or(&[]);
            start = end;
            let Some(u) = self.u(i) else { continue };
            let Some(troop) = u.troop else { continue };
            let (side, models, column) = (u.side, u.models, u.formation == Formation::Column);
            // Fire into a defensive position counts half (Musket Fire 3):
            // the firers prefer a stand in the open at equal exposure.
            let weight = |t: usize| {
                let covered = covered.get(t).copied().flatten().unwrap_or(false);
                f64::from(exposure.get(t).copied().unwrap_or(0)) * defensive_fire_factor(troop, covered)
            };
            let best = options.iter().map(|x| (x.1, x.2)).max_by(|a, b| {
                weight(a.0)
                    .total_cmp(&weight(b.0))
                    .then(b.1.total_cmp(&a.1))
                    .then(b.0.cmp(&a.0))
            });
            let Some((t, _)) = best else { continue };
            let ranks = if column { 0.5 } else { 1.0 };
            let factor =
                ranks * defensive_fire_factor(troop, covered.get(t).copied().flatten().unwrap_or(false));
            let add = Self::shares(troop, models, factor);
            if let Some(p) = self.pools.get_mut(t) {
                for (a, b) in p.iter_mut().zip(add) {
                    *a += b;
                }
            }
            self.links.push(Link { a: i, b: t, by: side });
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        self.seen = seen;
        // The kills of a firefight are the stands its firers make together
        // ("13 to 16 four man stands would kill two enemy four-man stands",
        // Judging the Morale, Explanation): the fire at the stands of one
        // fight (firers and targets joined by their volleys) is pooled per
        // side fired at, its kills taken from the stand most fired at, then
        // the next, then their friends beside them.
        let links = std::mem::take(&mut self.links);
        self.join_fights(&links);
        self.links = links;
        let mut fights: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        for &t in &targets {
            let (r, side) = (self.find(t), self.u(t).map_or(0, |u| u.side));
            match fights.iter_mut().find(|f| f.0 == r && f.1 == side) {
                Some(f) => f.2.push(t),
                None => fights.push((r, side, vec![t])),
            }
        }
        let mut dead = Vec::new();
        for (_, _, mut ts) in fights {
            let pool_of = |t: usize| self.pools.get(t).copied().unwrap_or([0.0; 3]);
            ts.sort_by(|&a, &b| pool_of(b)[2].total_cmp(&pool_of(a)[2]).then(a.cmp(&b)));
            let mut pool = [0.0; 3];
            for &t in &ts {
                for (a, b) in pool.iter_mut().zip(pool_of(t)) {
                    *a += b;
                }
            }
            if pool.iter().any(|&p| p > 0.5) {
                let friends = ts.first().map(|&first| self.victims(first)).unwrap_or_default();
                for v in friends {
                    if !ts.contains(&v) {
                        ts.push(v);
                    }
                }
                self.take_kills(pool, &ts, &mut dead);
            }
        }
        for v in dead {
            if !self.killed.contains(&v) {
                self.killed.push(v);
            }
            self.remove(v, "is killed by musket fire");
        }
        for i in 0..self.units.len() {
            if self.u(i).is_some_and(|u| u.doomed && u.fighting()) {
                self.remove(i, "falls to the canister");
            }
        }
    }

    /// 3.1 Fire and charge: the chargers who fired advance into contact.
    pub(super) fn fire_and_charge(&mut self) {
        // The side that moved first charges first.
        let order: Vec<usize> = self.target_order().into_iter().rev().collect();
        for i in order {
            let Some(u) = self.u(i) else { continue };
            let Charge::Volley(t) = u.charge else { continue };
            if !u.combatant() {
                continue;
            }
            let reach = u.move_of(Going::Column) * self.scale + CONTACT_INCHES;
            match self.u(t) {
                Some(e) if e.combatant() && self.dist(i, t) <= reach + EPSILON => {
                    let (to, by) = (e.at, u.side);
                    self.close_in(i, to);
                    self.links.push(Link { a: i, b: t, by });
                }
                _ => self.set_charge(i, Charge::None),
            }
        }
    }

    /// Puts stand `i` in contact with a stand at `to`.
    pub(super) fn close_in(&mut self, i: usize, to: Point) {
        if let Some(u) = self.units.get_mut(i) {
            let d = doctrine::dist(u.at, to);
            if d > CONTACT_INCHES {
                let at = doctrine::step_toward(u.at, to, d - CONTACT_INCHES);
                u.moved += doctrine::dist(u.at, at);
                u.at = at;
            }
        }
    }

    /// Joins the stands of each fight, firers and the stands they fire at,
    /// in [`Self::find`]'s sets, afresh.
    fn join_fights(&mut self, links: &[Link]) {
        for (i, p) in self.parent.iter_mut().enumerate() {
            *p = i;
        }
        for l in links {
            let (ra, rb) = (self.find(l.a), self.find(l.b));
            if let Some(p) = self.parent.get_mut(ra) {
                *p = rb;
            }
        }
    }

    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let gp = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = gp;
            }
            x = gp;
        }
        x
    }

    /// 4. Post-volley morale, fight by fight.
    pub(super) fn judge_fire(&mut self) {
        if self.links.is_empty() {
            return;
        }
        let links = std::mem::take(&mut self.links);
        self.join_fights(&links);
        let n = self.units.len();
        let root_of: Vec<usize> = (0..n).map(|i| self.find(i)).collect();
        let mut roots: Vec<usize> = Vec::new();
        for l in &links {
            let r = root_of.get(l.a).copied().unwrap_or(usize::MAX);
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
        for root in roots {
            let members: Vec<usize> = (0..n).filter(|&i| root_of.get(i) == Some(&root)).collect();
            let mut fired = [false; 2];
            for l in &links {
                if root_of.get(l.a) == Some(&root)
                    && let Some(f) = fired.get_mut(l.by)
                {
                    *f = true;
                }
            }
            let killed: Vec<usize> = members
                .iter()
                .copied()
                .filter(|m| self.killed.contains(m))
                .collect();
            let alive: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&m| self.u(m).is_some_and(|u| u.combatant() && !u.fought))
                .collect();
            // "Post-volley morale" after "a firefight" (Sequence of Action
            // 4; Judging the Morale): both sides fired. A stand shot at by
            // guns or muskets it cannot answer has no firefight to lose; it
            // takes its losses, and its general's resolve decides.
            if !(fired[0] && fired[1]) {
                continue;
            }
            // Rule 5: "No morale judging is required when soldiers are
            // attacking defensive positions by fire fighting": a firefight
            // with any of its stands in a defensive position is not judged.
            if alive
                .iter()
                .filter_map(|&m| self.u(m))
                .any(|u| self.defensive(u.at, u.side))
            {
                continue;
            }
            self.judge(&alive, &killed, [false, false], "the firefight");
        }
        self.links = links;
        self.links.clear();
    }

    /// Judges the morale of one fight: the stands `alive` in it, those
    /// `killed`; `position` says which sides hold a defensive position.
    /// Returns the loser; its stands retire.
    pub(super) fn judge(
        &mut self,
        alive: &[usize],
        killed: &[usize],
        position: [bool; 2],
        what: &str,
    ) -> Option<usize> {
        let mut loss = [0_u32; 2];
        for &k in killed {
            if let Some(u) = self.u(k)
                && let Some(l) = loss.get_mut(u.side)
            {
                *l += u.weight();
            }
        }
        let mut models = [0_u32; 2];
        for &a in alive {
            if let Some(u) = self.u(a)
                && let Some(m) = models.get_mut(u.side)
            {
                *m += u.models * u.weight();
            }
        }
        let [s0, s1] = models;
        let [p0, p1] = position;
        let loser = match greater_loss(loss) {
            Some(l) => Some(l),
            None if s0 == 0 && s1 == 0 => None,
            None => {
                let mut loser = usize::from(self.side(0).role == Role::Defender);
                let (n0, n1) = (self.side(0).name, self.side(1).name);
                for _ in 0..MAX_RETHROWS {
                    let (f0, f1) = (self.dice.d6(), self.dice.d6());
                    let (v0, v1) = (morale_value(s0, f0, p0), morale_value(s1, f1, p1));
                    self.log.say(self.turn, || {
                        let count = |models: u32, face: u32, position: bool, value: f64| {
                            let plus = if position {
                                ", half again in its position,"
                            } else {
                                ""
                            };
                            format!(
                                "{models} models{plus} times {} (a throw of {face}): {value}",
                                morale_multiplier(face)
                            )
                        };
                        format!(
                            "equal losses in {what}: {n0} {}; {n1} {}",
                            count(s0, f0, p0, v0),
                            count(s1, f1, p1, v1)
                        )
                    });
                    if (v0 - v1).abs() > EPSILON {
                        loser = usize::from(v1 < v0);
                        break;
                    }
                }
                Some(loser)
            }
        };
        let loser = loser?;
        let (winner_name, loser_name) = (self.side(1 - loser).name, self.side(loser).name);
        let [l0, l1] = loss;
        self.log.say(self.turn, || {
            format!("{loser_name} lose {what} ({l0} to {l1} stands lost); {winner_name} win the morale")
        });
        for &a in alive {
            if self.u(a).is_some_and(|u| u.side == loser && u.combatant()) {
                self.retire(a);
            }
        }
        Some(loser)
    }

    /// "Retire two regular moves to the rear" (Judging the Morale 2).
    pub(super) fn retire(&mut self, i: usize) {
        let Some(u) = self.u(i) else { return };
        let rear = self.side(u.side).rear;
        let inches = f64::from(RETIRE_MOVES) * u.move_of(Going::Open) * self.scale;
        let to = (u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches);
        let off = !self.on_table(to);
        // A river behind stops the retreat at its bank (no chart figure:
        // water is not crossed).
        let to = if off { to } else { self.dry_reach(u.at, to) };
        let went = doctrine::dist(u.at, to);
        let (name, turn) = (u.name(), self.turn);
        self.log.say(turn, || {
            if off {
                format!("{name} retire off the table")
            } else if went < inches - EPSILON {
                format!(
                    "{name} retire two moves, stopped by the river after {}",
                    quantity(went, 1, "inch", "inches")
                )
            } else {
                format!(
                    "{name} retire two moves ({})",
                    quantity(inches, 1, "inch", "inches")
                )
            }
        });
        let Some(u) = self.units.get_mut(i) else { return };
        u.charge = Charge::None;
        u.formation = Formation::Line;
        u.shaken_until = turn + 1;
        if off {
            u.status = Status::Out(Fate::Routed);
        } else if !self
            .board
            .cell_at((to.0 / self.board.cell_inches, to.1 / self.board.cell_inches))
            .is_water()
        {
            u.at = to;
        }
    }
}
