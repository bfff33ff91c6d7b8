//! scruby-1961 melee: melee points and killing power, the morale throw, light cavalry meleed, retiring, guns held and captured.

use super::*;
use crate::model::text::quantity;

impl Battle<'_> {
    /// THE MELEE, for every stand charged: the original melee, the
    /// reinforcing troops against the remnants, then the morale throw.
    pub(super) fn melees(&mut self) {
        let n = self.stands.len();
        // The stands charged, in order: no melee changes who charges whom,
        // so the rest have no chargers to look for.
        let mut targets: Vec<usize> = self.charge_at.iter().flatten().copied().collect();
        if targets.is_empty() {
            return;
        }
        targets.sort_unstable();
        targets.dedup();
        let mut chargers: Vec<usize> = Vec::new();
        for t in targets {
            chargers.clear();
            chargers.extend((0..n).filter(|&i| self.charge_at.get(i).copied().flatten() == Some(t)));
            if chargers.is_empty() {
                continue;
            }
            chargers.sort_by(|&a, &b| self.gap(a, t).total_cmp(&self.gap(b, t)).then(a.cmp(&b)));
            chargers.retain(|&a| self.stands.get(a).is_some_and(Unit::fighter));
            let Some(&first) = chargers.first() else { continue };
            if !self.stands.get(t).is_some_and(Unit::combatant) {
                continue;
            }
            self.melee(t, first, &chargers.clone());
            if self.over() {
                return;
            }
        }
    }

    pub(super) fn melee(&mut self, t: usize, first: usize, chargers: &[usize]) {
        let turn = self.turn;
        let (tname, aname) = (self.name_of(t), self.name_of(first));
        let defender = self.stands.get(t).map_or(0, |u| u.owner);
        let attacker = 1 - defender;
        if self.stands.get(t).is_some_and(Unit::is_gun) {
            // MELEEING CANNON CREWS: the crew fires; 1-3-6 saves the gun.
            let face = self.dice.d6();
            if gun_crew_saves(face) {
                self.log.say(turn, || {
                    format!(
                        "the crew of {tname} throw {face}: {aname} and the other attackers are hurled back"
                    )
                });
                for &a in chargers {
                    self.retire(a, RETIRE_MOVES);
                }
                return;
            }
            self.log.say(turn, || {
                format!("the crew of {tname} throw {face}: killed by {aname}, the gun is taken")
            });
            self.lose_crew(t);
            if let Some(g) = self.stands.get_mut(t) {
                g.held_by = Some(attacker);
            }
        } else {
            // The original melee, simultaneous.
            let a_kills = self.strike(first, t);
            let t_kills = self.strike(t, first);
            self.log.say(turn, || {
                format!("{aname} and {tname} melee: {a_kills} and {t_kills} killed")
            });
            self.kill(t, a_kills);
            self.kill(first, t_kills);
        }
        // REINFORCED MELEES: the attacker's other chargers against the
        // target's remnant, the defender's stands at the attacker's flank or
        // rear against the first charger's remnant.
        let helpers: Vec<usize> = (0..self.stands.len())
            .filter(|&k| {
                self.stands.get(k).is_some_and(|f| {
                    k != t
                        && f.owner == defender
                        && f.fighter()
                        && !f.engaged
                        && !f.concealed
                        && doctrine::within(
                            f.at,
                            self.stands.get(first).map_or(f.at, |a| a.at),
                            REINFORCE_INCHES + EPSILON,
                        )
                })
            })
            .collect();
        let more: Vec<usize> = chargers.iter().copied().skip(1).collect();
        let target_fights = self.stands.get(t).is_some_and(Unit::fighter);
        if !more.is_empty() || !helpers.is_empty() {
            let mut blows: Vec<(usize, u32)> = Vec::new();
            for (n, &r) in more.iter().enumerate() {
                if target_fights {
                    blows.push((t, self.strike(r, t)));
                    if n == 0 {
                        blows.push((r, self.strike(t, r)));
                    }
                }
            }
            for (n, &h) in helpers.iter().enumerate() {
                blows.push((first, self.strike(h, first)));
                if n == 0 {
                    blows.push((h, self.strike(first, h)));
                }
            }
            for &h in &helpers {
                if let Some(f) = self.stands.get_mut(h) {
                    f.engaged = true;
                }
            }
            let total: u32 = blows.iter().map(|b| b.1).sum();
            self.log.say(turn, || {
                format!("reinforcements join the melee at {tname}: {total} more killed")
            });
            for (k, n) in blows {
                self.kill(k, n);
            }
        }
        // MORALE FACTOR AFTER A MELEE.
        let points = |b: &Battle<'_>, list: &[usize]| -> u32 {
            list.iter()
                .filter_map(|&k| b.stands.get(k))
                .filter(|u| u.fighter())
                .map(Unit::melee_points)
                .sum()
        };
        let mut defenders = helpers;
        if target_fights {
            defenders.push(t);
        }
        let (a_points, d_points) = (points(self, chargers), points(self, &defenders));
        if a_points == 0 || d_points == 0 {
            return;
        }
        let mut attacker_wins = false;
        for _ in 0..100 {
            let (fa, fd) = (self.dice.d6(), self.dice.d6());
            let (ta, td) = (morale_total(a_points, fa), morale_total(d_points, fd));
            if ta != td {
                attacker_wins = ta > td;
                self.log.say(turn, || {
                    format!(
                        "morale at {tname}: the attackers {a_points} x {fa} = {ta}, the defenders {d_points} x {fd} = {td}"
                    )
                });
                break;
            }
        }
        let (losers, winners): (Vec<usize>, Vec<usize>) = if attacker_wins {
            (defenders, chargers.to_vec())
        } else {
            (chargers.to_vec(), defenders)
        };
        self.light_cavalry_meleed(&losers, &winners);
        for k in losers {
            if self.stands.get(k).is_some_and(Unit::fighter) {
                self.retire(k, RETIRE_MOVES);
            }
        }
    }

    /// Rule 17D: "If Light Cavalry are meleed by Heavy Cavalry, the Moral
    /// Throw determines if the concealed column is exposed or not": light
    /// cavalry that lose the morale throw to a side with heavy cavalry in
    /// the melee expose the columns they screen at once; winning, the
    /// columns stay concealed.
    pub(super) fn light_cavalry_meleed(&mut self, losers: &[usize], winners: &[usize]) {
        let turn = self.turn;
        let heavy = |b: &Battle<'_>, list: &[usize]| {
            list.iter().any(|&k| {
                b.stands
                    .get(k)
                    .is_some_and(|u| u.fighter() && u.troop == Some(Troop::HeavyCavalry))
            })
        };
        for (light, other, lost) in [(losers, winners, true), (winners, losers, false)] {
            if !heavy(self, other) {
                continue;
            }
            for &k in light {
                if !self
                    .stands
                    .get(k)
                    .is_some_and(|u| u.troop == Some(Troop::LightCavalry))
                {
                    continue;
                }
                let lname = self.name_of(k);
                for c in self.screened_by(k) {
                    let cname = self.name_of(c);
                    if lost {
                        if let Some(u) = self.stands.get_mut(c) {
                            u.concealed = false;
                        }
                        self.log.say(turn, || {
                            format!("{lname} lose the morale throw to heavy cavalry: {cname}, which they screened, is exposed")
                        });
                    } else {
                        self.log.say(turn, || {
                            format!("{lname} hold against heavy cavalry: {cname} stays concealed")
                        });
                    }
                }
            }
        }
    }

    /// Stand `i` retires `moves` moves toward its own table edge; off the
    /// table it is Routed.
    pub(super) fn retire(&mut self, i: usize, moves: u32) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(troop) = u.troop else { return };
        let rear = self.side(u.owner).rear;
        let inches = retire_inches(troop, moves);
        let to = (u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches);
        let (name, turn) = (u.name(), self.turn);
        if !self.on_table(to) {
            if let Some(u) = self.stands.get_mut(i) {
                u.status = Status::Out(Fate::Routed);
            }
            self.log
                .say(turn, || format!("{name} retire {moves} moves, off the table"));
            return;
        }
        // It goes back over ground it may stand on; water stops it short.
        let mut end = u.at;
        let steps = board_steps(inches);
        for s in 1..=steps {
            let f = f64::from(s) / f64::from(steps);
            let p = (u.at.0 + rear.0 * inches * f, u.at.1 + rear.1 * inches * f);
            if self.cell(p).is_water() {
                break;
            }
            end = p;
        }
        self.log.say(turn, || {
            format!(
                "{name} retire {} ({})",
                quantity(f64::from(moves), 0, "move", "moves"),
                quantity(inches, 0, "inch", "inches")
            )
        });
        if let Some(u) = self.stands.get_mut(i) {
            u.at = end;
        }
    }

    /// Crewless guns: "Which ever force holds the gun at the end of 3 moves
    /// is then entitled to use the gun"; "it remains where it is until one
    /// side or the other has captured it and held it for three game moves".
    pub(super) fn hold_guns(&mut self) {
        let turn = self.turn;
        for g in 0..self.stands.len() {
            let Some(gun) = self.stands.get(g) else { continue };
            if !gun.fighting() || !gun.is_gun() || gun.crewed {
                continue;
            }
            let at = gun.at;
            let near = |s: usize| {
                self.stands
                    .iter()
                    .any(|f| f.owner == s && f.fighter() && doctrine::within(f.at, at, HOLD_INCHES + EPSILON))
            };
            let holder = match (near(0), near(1)) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            };
            let name = gun.name();
            let Some(gun) = self.stands.get_mut(g) else {
                continue;
            };
            match holder {
                None => gun.held_for = 0,
                Some(s) if gun.held_by == Some(s) => gun.held_for += 1,
                Some(s) => {
                    gun.held_by = Some(s);
                    gun.held_for = 1;
                }
            }
            if let Some(s) = holder
                && gun.held_for >= RECAPTURE_MOVES
            {
                gun.crewed = true;
                gun.owner = s;
                gun.held_by = None;
                gun.held_for = 0;
                let side = self.side(s).name;
                self.log.say(turn, || {
                    format!("{name}, held three moves, is manned again by {side}")
                });
            }
        }
    }

    /// Command and transport that an enemy reaches with no friend beside
    /// them are taken (the brief: no combat, "can be captured").
    pub(super) fn captures(&mut self) {
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if !u.fighting() || u.troop.is_some() {
                continue;
            }
            let (at, owner) = (u.at, u.owner);
            let close = |s: usize| {
                self.stands.iter().any(|e| {
                    e.owner == s && e.fighter() && doctrine::within(e.at, at, CONTACT_INCHES + EPSILON)
                })
            };
            if close(1 - owner) && !close(owner) {
                let (turn, name) = (self.turn, u.name());
                if let Some(u) = self.stands.get_mut(i) {
                    u.status = Status::Out(Fate::Captured);
                }
                self.log
                    .say(turn, || format!("the enemy reaches {name}, unescorted: taken"));
            }
        }
    }
}
