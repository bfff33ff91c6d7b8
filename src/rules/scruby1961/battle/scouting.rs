//! scruby-1961 concealment: columns exposed by sight, screens, and light cavalry scouting by the morale combat of rule 17.

use super::*;

impl Battle<'_> {
    /// Concealed columns seen: "Whenever enemy troops come within 16 inches
    /// of a Concealment Stand, and provided the Stand is not screened
    /// correctly ... the column must be completely exposed" (rule 5); a
    /// screen is a friend exposed within an inch of it and between it and
    /// the enemy (FIGURE 13, rule 8). In villages and forests they stay
    /// concealed until attacked or deployed (rules 10, 11).
    pub(super) fn expose(&mut self) {
        // The friends that could screen a column (exposed fighters within
        // an inch of it), listed once a column and only when an enemy is
        // within sight of it.
        let mut screens: Vec<Point> = Vec::new();
        // The box about each side's enemies as this look sees them (their
        // places and whether they fight do not change in it): a column
        // beyond it by both its sight and its range is passed over whole.
        let enemies = |side: usize| {
            Bounds::of(
                self.stands
                    .iter()
                    .filter(|e| e.owner != side && e.fighting() && e.troop.is_some())
                    .map(|e| e.at),
            )
        };
        let bounds = SideBounds([enemies(0), enemies(1)]);
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if !u.concealed || !u.fighting() {
                continue;
            }
            let c = self.cell(u.at);
            if is_town(c) || is_forest(c) {
                continue;
            }
            let (at, owner) = (u.at, u.owner);
            // Rule 13: a column screened by its friends "cannot ... return
            // fire", and "in order to fight, the player will have to expose
            // his column to get firepower from it": a general whose
            // concealed regiment has an exposed enemy within its musket
            // range exposes it to fire (this program's own reading: he
            // means to fight).
            let (range, infantry) = (u.range, u.troop.is_some_and(Troop::is_infantry));
            if bounds.beyond(owner, at, VISION_INCHES + EPSILON) && bounds.beyond(owner, at, range + EPSILON)
            {
                continue;
            }
            // One look at each enemy stand for both: whether it sees the
            // column unscreened, and whether the column could fire on it.
            let (mut seen, mut fights, mut listed) = (false, false, false);
            for e in self.stands.iter() {
                if e.owner == owner || !e.fighting() || e.troop.is_none() {
                    continue;
                }
                let d = doctrine::dist(e.at, at);
                if d <= VISION_INCHES + EPSILON {
                    if !listed {
                        listed = true;
                        screens.clear();
                        screens.extend(
                            self.stands
                                .iter()
                                .filter(|f| {
                                    f.owner == owner
                                        && !f.concealed
                                        && f.fighter()
                                        && doctrine::within(f.at, at, SCREEN_INCHES + EPSILON)
                                })
                                .map(|f| f.at),
                        );
                    }
                    if !screens.iter().any(|&f| doctrine::dist(f, e.at) < d) {
                        seen = true;
                        break;
                    }
                }
                fights = fights || (infantry && d <= range + EPSILON && !e.concealed && e.combatant());
            }
            if seen || fights {
                if let Some(u) = self.stands.get_mut(i) {
                    u.concealed = false;
                }
                let (turn, name) = (self.turn, self.stands.get(i).map_or("", |s| s.name()));
                self.log.say(turn, || {
                    if seen {
                        format!("{name} is seen within 16 inches: its column is exposed")
                    } else {
                        format!("{name} is exposed to fire on the enemy in range")
                    }
                });
            }
        }
    }

    /// The concealed friends stand `j` screens: its side's concealed stands
    /// within an inch of it (FIGURE 13), nearest first. Only an exposed
    /// fighter screens.
    pub(super) fn screened_by(&self, j: usize) -> Vec<usize> {
        let Some(f) = self.stands.get(j) else {
            return Vec::new();
        };
        if f.concealed || !f.fighter() {
            return Vec::new();
        }
        let mut near: Vec<(usize, f64)> = self
            .stands
            .iter()
            .enumerate()
            .filter(|&(k, c)| k != j && c.owner == f.owner && c.concealed && c.fighting())
            .map(|(k, c)| (k, doctrine::dist(c.at, f.at)))
            .filter(|&(_, d)| d <= SCREEN_INCHES + EPSILON)
            .collect();
        near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        near.into_iter().map(|(k, _)| k).collect()
    }

    /// THE USE OF LIGHT CAVALRY WHERE CONCEALMENT RULES ARE USED, rule 17:
    /// every exposed Light Cavalry stand "within 9 inches" of an enemy screen
    /// or enemy Light Cavalry fights the "morale combat" with it, each pair
    /// once a game move; a screen driven off no longer screens, so
    /// [`Battle::expose`] then finds its column (17C).
    pub(super) fn scouting(&mut self) {
        let n = self.stands.len();
        let mut met: Vec<(usize, usize)> = Vec::new();
        for i in 0..n {
            // Only light cavalry scouts (a stand's troop never changes), so
            // the pairs of any other stand need no look.
            if self
                .stands
                .get(i)
                .is_none_or(|a| a.troop != Some(Troop::LightCavalry))
            {
                continue;
            }
            for j in 0..n {
                let (Some(a), Some(b)) = (self.stands.get(i), self.stands.get(j)) else {
                    continue;
                };
                let ready = |u: &Unit<'_>| u.fighter() && !u.concealed && !u.engaged;
                // The pair's own checks first, the pairs met last.
                if a.owner == b.owner
                    || a.troop != Some(Troop::LightCavalry)
                    || !ready(b)
                    || !ready(a)
                    || doctrine::dist(a.at, b.at) > SCOUTING_INCHES + EPSILON
                {
                    continue;
                }
                let pair = (i.min(j), i.max(j));
                if met.contains(&pair) {
                    continue;
                }
                let b_screens = self.screened_by(j);
                let b_light = b.troop == Some(Troop::LightCavalry);
                if !b_screens.is_empty() {
                    met.push(pair);
                    self.scout(i, j, b_screens.first().copied());
                } else if b_light {
                    met.push(pair);
                    // Two light cavalry: the one screening is scouted.
                    let a_screens = self.screened_by(i);
                    match a_screens.first().copied() {
                        Some(c) => self.scout(j, i, Some(c)),
                        None => self.scout(i, j, None),
                    }
                }
            }
        }
    }

    /// Rule 17's morale combat of light cavalry `i` against `j` (screening
    /// `column`, if any). 17B: against Light Infantry or Grenadiers the
    /// light cavalry "first must take their casualties" (the fire tables'
    /// volley, which is that stand's fire for the move); then 17A: 5 points a
    /// light cavalryman, the other's combat points (THE MELEE's), a die each
    /// multiplying them; the low total retires 3 moves, equal totals throw
    /// again.
    pub(super) fn scout(&mut self, i: usize, j: usize, column: Option<usize>) {
        let turn = self.turn;
        let (sname, oname) = (self.name_of(i), self.name_of(j));
        let cname = column.map(|c| self.name_of(c));
        let (Some(s), Some(o)) = (self.stands.get(i), self.stands.get(j)) else {
            return;
        };
        let Some(otroop) = o.troop else { return };
        if matches!(otroop, Troop::LightInfantry | Troop::Grenadiers) {
            let (rate, kill) = casualty_rate(
                otroop,
                o.units,
                o.formation,
                self.defensive(o.at, o.side, s.at),
                self.defensive(s.at, s.side, o.at),
            );
            let face = if kill.needs_die() { self.dice.d6() } else { 0 };
            let n = kill.kills(face);
            self.log.say(turn, || {
                format!("{oname} fire on the scouts {sname} first (casualty rate {rate}): {n} killed")
            });
            self.kill(i, n);
            if let Some(o) = self.stands.get_mut(j) {
                o.fired_back = true;
            }
            if !self.stands.get(i).is_some_and(Unit::fighter) {
                return;
            }
        }
        let mine = scout_points(self.stands.get(i).map_or(0, |u| u.units));
        let theirs = self.stands.get(j).map_or(0, Unit::melee_points);
        if mine == 0 || theirs == 0 {
            return;
        }
        for _ in 0..100 {
            let (fs, fo) = (self.dice.d6(), self.dice.d6());
            let holds = match morale_combat(mine, fs, theirs, fo) {
                Scouting::ScoutHolds => true,
                Scouting::ScoutRetires => false,
                Scouting::ThrowAgain => continue,
            };
            let (ts, to) = (morale_total(mine, fs), morale_total(theirs, fo));
            let moves = RETIRE_MOVES;
            self.log.say(turn, || {
                let throw = format!("{mine} x {fs} = {ts} against {theirs} x {fo} = {to}");
                match (cname, holds) {
                    (Some(c), true) => format!(
                        "{sname} scouts the screen of {c}, {oname}: {throw}; the screen falls back {moves} moves"
                    ),
                    (Some(c), false) => format!(
                        "{sname} scouts the screen of {c}, {oname}: {throw}; the scouts fall back {moves} moves"
                    ),
                    (None, true) => format!("{sname} meets {oname}: {throw}; {oname} fall back {moves} moves"),
                    (None, false) => format!("{sname} meets {oname}: {throw}; {sname} fall back {moves} moves"),
                }
            });
            self.retire(if holds { j } else { i }, moves);
            return;
        }
    }

    // -----------------------------------------------------------------------
    // Fire
    // -----------------------------------------------------------------------
}
