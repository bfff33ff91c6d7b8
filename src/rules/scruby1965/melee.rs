//! THE MELEE, "broken up into three definite sequences": every group of
//! enemy stands in contact fights once a game move.

use super::battle::{Battle, EPSILON, Status, Unit, Why};
use super::tables::{
    CONTACT_INCHES, PANIC_MOVES, PURSUED_MORALE_FACTOR, PURSUIT_MOVES, Troop, even_share, gun_meleed,
    melee_loser_loss, melee_winner_loss, spearmen_leave,
};
use crate::rules::Fate;
use crate::rules::board::Point;
use crate::rules::doctrine;
use crate::scenario::Role;

/// Throws in Sequence 2 before giving up on equal totals (which only a
/// side of no value could make endless).
const MAX_THROWS: u32 = 100;

/// The entry for side `s` of a pair.
fn of<T: Copy>(pair: [T; 2], s: usize) -> T {
    let [first, second] = pair;
    if s == 0 { first } else { second }
}

/// The names of side `s`'s stands among `members`, for the log.
fn names(stands: &[Unit<'_>], members: &[usize], s: usize) -> String {
    let list: Vec<&str> = members
        .iter()
        .filter_map(|&i| stands.get(i))
        .filter(|u| u.side == s)
        .map(|u| u.name())
        .collect();
    list.join(", ")
}

impl Battle<'_> {
    /// Stand `i` in a melee group: on the table with men (guns with crews).
    fn in_melee(&self, i: usize) -> bool {
        self.stands.get(i).is_some_and(Unit::combatant)
    }

    /// A stand of side `s` among the group that takes melee losses by the
    /// Melee Result Table: with men, and not a gun.
    fn takes_table_loss(&self, i: usize, s: usize) -> bool {
        self.stands
            .get(i)
            .is_some_and(|u| u.side == s && u.combatant() && !u.is_gun())
    }

    fn root(&self, mut i: usize) -> usize {
        for _ in 0..self.stands.len() {
            let parent = self.scratch.group.get(i).copied().unwrap_or(i);
            if parent == i {
                break;
            }
            i = parent;
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb
            && let Some(slot) = self.scratch.group.get_mut(ra.max(rb))
        {
            *slot = ra.min(rb);
        }
    }

    /// The melee phase: groups of enemies in contact, each fought through
    /// the three sequences.
    pub(super) fn melee(&mut self) {
        let n = self.stands.len();
        for i in 0..n {
            let Some(u) = self.stands.get_mut(i) else { continue };
            if let Some(p) = self.scratch.was_pursued.get_mut(i) {
                *p = u.pursued;
            }
            u.pursued = false;
            u.locked = false;
            if let Some(g) = self.scratch.group.get_mut(i) {
                *g = i;
            }
        }
        for i in 0..n {
            if !self.in_melee(i) {
                continue;
            }
            for j in i + 1..n {
                let enemies = match (self.stands.get(i), self.stands.get(j)) {
                    (Some(a), Some(b)) => a.side != b.side,
                    _ => false,
                };
                if enemies && self.in_melee(j) && self.gap(i, j) <= CONTACT_INCHES + EPSILON {
                    self.join(i, j);
                }
            }
        }
        self.scratch.heads.fill(false);
        for i in 0..n {
            let r = self.root(i);
            if let Some(g) = self.scratch.group.get_mut(i) {
                *g = r;
            }
            if r != i
                && let Some(h) = self.scratch.heads.get_mut(r)
            {
                *h = true;
            }
        }
        let mut members = std::mem::take(&mut self.scratch.members);
        // Each group is headed by its lowest index (`join`), so its members
        // are found from there on; a stand alone in its group fights no
        // melee (it needs an enemy), so only the heads of groups are looked at.
        for r in 0..n {
            if !self.scratch.heads.get(r).copied().unwrap_or(false) {
                continue;
            }
            members.clear();
            members.extend((r..n).filter(|&i| self.scratch.group.get(i) == Some(&r) && self.in_melee(i)));
            let sides = |s: usize| {
                members
                    .iter()
                    .any(|&i| self.stands.get(i).is_some_and(|u| u.side == s))
            };
            if sides(0) && sides(1) {
                self.fight_melee(&members);
            }
        }
        self.scratch.members = members;
    }

    /// Whether side `s` fights at half morale: it lost the last melee and
    /// was pursued, and no fresh troops have joined it (Sequence 3: "unless
    /// the Loser's force can be supported by fresh troops, the Morale Value
    /// of his men is cut in half").
    fn pursued_unsupported(&self, members: &[usize], s: usize) -> bool {
        let mut pursued = false;
        let mut fresh = false;
        for &i in members {
            if self.stands.get(i).is_some_and(|u| u.side == s) {
                if self.scratch.was_pursued.get(i).copied().unwrap_or(false) {
                    pursued = true;
                } else {
                    fresh = true;
                }
            }
        }
        pursued && !fresh
    }

    /// Where side `s`'s stands in the melee face the enemy from: the
    /// enemy stand standing highest (a hill is a defensive position only
    /// above the enemy, so the highest enemy decides).
    fn highest_enemy(&self, members: &[usize], s: usize) -> Point {
        let level = |p: Point| self.board.cell_at(self.in_cells(p)).level;
        members
            .iter()
            .filter_map(|&i| self.stands.get(i))
            .filter(|u| u.side != s)
            .map(|u| u.at)
            .reduce(|best, p| if level(p) > level(best) { p } else { best })
            .or_else(|| members.first().and_then(|&i| self.stands.get(i)).map(|u| u.at))
            .unwrap_or_default()
    }

    /// The combat value of side `s`'s stands in the melee (those taking
    /// table losses only, with `table_only`).
    fn side_value(&self, members: &[usize], s: usize, table_only: bool) -> f64 {
        let enemy = self.highest_enemy(members, s);
        members
            .iter()
            .filter(|&&i| self.stands.get(i).is_some_and(|u| u.side == s))
            .filter(|&&i| !table_only || self.takes_table_loss(i, s))
            .map(|&i| self.value_against(i, enemy))
            .sum()
    }

    /// One melee, the three sequences.
    fn fight_melee(&mut self, members: &[usize]) {
        let halved = [
            self.pursued_unsupported(members, 0),
            self.pursued_unsupported(members, 1),
        ];
        let value_of = |s: usize| {
            let factor = if of(halved, s) { PURSUED_MORALE_FACTOR } else { 1.0 };
            self.side_value(members, s, false) * factor
        };
        let value = [value_of(0), value_of(1)];
        {
            let stands = &self.stands;
            self.log.say(self.turn, || {
                let half = |s: usize| if of(halved, s) { ", morale halved" } else { "" };
                format!(
                    "melee: {} (combat value {:.0}{}) against {} ({:.0}{})",
                    names(stands, members, 0),
                    value[0],
                    half(0),
                    names(stands, members, 1),
                    value[1],
                    half(1)
                )
            });
        }
        self.first_sequence(members, value);
        let fighters = |s: usize| members.iter().any(|&i| self.takes_table_loss(i, s));
        if !(fighters(0) && fighters(1)) {
            return;
        }
        let winner = self.second_sequence(value);
        self.third_sequence(members, winner);
    }

    /// Sequence 1: the higher combat value wins; the winner loses by the
    /// Melee Result Table, the loser a third more, spread evenly over its
    /// stands; guns meleed lose their whole crew, and the other side half
    /// as many.
    fn first_sequence(&mut self, members: &[usize], value: [f64; 2]) {
        let table = |s: usize| {
            members
                .iter()
                .filter(|&&i| self.takes_table_loss(i, s))
                .filter_map(|&i| self.stands.get(i).and_then(|u| u.line))
                .map(|l| melee_winner_loss(l.power))
                .sum::<u32>()
        };
        let table = [table(0), table(1)];
        let winner = if value[0] > value[1] {
            Some(0)
        } else if value[1] > value[0] {
            Some(1)
        } else {
            None
        };
        let mut loss = match winner {
            Some(w) => {
                let lost = of(table, w);
                let beaten = melee_loser_loss(lost);
                if w == 0 { [lost, beaten] } else { [beaten, lost] }
            }
            None => table,
        };
        let crews = [self.kill_crews(members, 0), self.kill_crews(members, 1)];
        loss[0] += gun_meleed(crews[1]).1;
        loss[1] += gun_meleed(crews[0]).1;
        let taken = [
            self.spread_loss(members, 0, loss[0]),
            self.spread_loss(members, 1, loss[1]),
        ];
        let (name0, name1) = (self.side(0).name, self.side(1).name);
        self.log.say(self.turn, || {
            let head = match winner {
                Some(0) => format!("sequence 1: {name0} win"),
                Some(_) => format!("sequence 1: {name1} win"),
                None => "sequence 1: the values are equal, neither wins".to_owned(),
            };
            let lost = |s: usize| {
                let crew = of(crews, s);
                if crew > 0 {
                    format!("{} and a gun crew of {crew}", of(taken, s))
                } else {
                    of(taken, s).to_string()
                }
            };
            format!("{head}; {name0} lose {}, {name1} lose {}", lost(0), lost(1))
        });
        self.melee_fates(members);
    }

    /// The Melee Result Table's last row: "all the gun crew is killed".
    /// Returns the crews killed of side `s`'s guns in the melee.
    fn kill_crews(&mut self, members: &[usize], s: usize) -> u32 {
        let mut killed = 0;
        let turn = self.turn;
        for &i in members {
            let Some(u) = self.stands.get_mut(i) else { continue };
            if u.side != s || !u.is_gun() || u.strength == 0 {
                continue;
            }
            let (crew, _) = gun_meleed(u.strength);
            killed += crew;
            u.strength = 0;
            let name = u.name();
            self.log.say(turn, || {
                format!("the crew of {name} are cut down at their gun ({crew} men)")
            });
        }
        killed
    }

    /// Spreads `total` losses evenly over side `s`'s stands (not guns) in
    /// the melee; what a stand cannot take passes to the others. Returns
    /// the points taken.
    fn spread_loss(&mut self, members: &[usize], s: usize, total: u32) -> u32 {
        let mut left = total;
        for _ in 0..members.len().max(1) {
            let count = members.iter().filter(|&&i| self.takes_table_loss(i, s)).count();
            let count = u32::try_from(count).unwrap_or(u32::MAX);
            if count == 0 || left == 0 {
                break;
            }
            let round = left;
            let mut k = 0;
            for &i in members {
                if !self.takes_table_loss(i, s) {
                    continue;
                }
                let share = even_share(round, count, k);
                k += 1;
                if let Some(u) = self.stands.get_mut(i) {
                    let take = share.min(u.strength);
                    u.strength -= take;
                    left -= take;
                }
            }
        }
        total - left
    }

    /// After the losses: stands at 0 are destroyed; spearmen at 25 or
    /// fewer leave the table.
    fn melee_fates(&mut self, members: &[usize]) {
        let turn = self.turn;
        for &i in members {
            let Some(u) = self.stands.get_mut(i) else { continue };
            if !u.fighting() || u.is_gun() {
                continue;
            }
            let name = u.name();
            if u.strength == 0 {
                u.status = Status::Out(Fate::Destroyed);
                self.log.say(turn, || format!("{name} are cut to pieces"));
            } else if u.is_troop(Troop::NativeSpearmen) && spearmen_leave(u.strength) {
                u.status = Status::Out(Fate::Routed);
                let left = u.strength;
                self.log.say(turn, || {
                    format!("{name} are down to {left} points: they will no longer fight and leave the field")
                });
            }
        }
    }

    /// Sequence 2: each side throws a die against its original combat
    /// value; the higher product wins (equal products throw again).
    /// Returns the winner.
    fn second_sequence(&mut self, value: [f64; 2]) -> usize {
        for _ in 0..MAX_THROWS {
            let faces = [self.dice.d6(), self.dice.d6()];
            let totals = [value[0] * f64::from(faces[0]), value[1] * f64::from(faces[1])];
            if totals[0] == totals[1] {
                continue;
            }
            let winner = usize::from(totals[1] > totals[0]);
            let (name0, name1) = (self.side(0).name, self.side(1).name);
            let won = self.side(winner).name;
            self.log.say(self.turn, || {
                format!(
                    "sequence 2: {name0} throw {} ({:.0}), {name1} throw {} ({:.0}): {won} win",
                    faces[0], totals[0], faces[1], totals[1]
                )
            });
            return winner;
        }
        usize::from(value[1] > value[0])
    }

    /// Sequence 3: the winner sends the loser back 4 moves in panic, or
    /// pursues (the loser goes back 2 moves, the winner follows, still
    /// locked in melee).
    fn third_sequence(&mut self, members: &[usize], winner: usize) {
        let loser = 1 - winner;
        if self.pursues(members, winner) {
            self.pursue(members, winner);
        } else {
            let won = self.side(winner).name;
            self.log
                .say(self.turn, || format!("sequence 3: {won} send them back in panic"));
            for &i in members {
                if self.takes_table_loss(i, loser) {
                    self.retire(i, PANIC_MOVES, Why::Panic);
                }
            }
        }
    }

    /// The winner's choice (this program's doctrine): a defender holds its
    /// ground and orders the panic; an attacker orders the panic if it
    /// drives a loser off the table, else pursues when the odds against the
    /// loser at half morale favour it.
    fn pursues(&self, members: &[usize], winner: usize) -> bool {
        if self.side(winner).role == Role::Defender {
            return false;
        }
        let loser = 1 - winner;
        let rear = self.side(loser).rear;
        let panic_drives_off = members.iter().any(|&i| {
            self.takes_table_loss(i, loser)
                && self.stands.get(i).is_some_and(|u| {
                    let inches = f64::from(PANIC_MOVES) * u.full_move();
                    !self.on_table((u.at.0 + rear.0 * inches, u.at.1 + rear.1 * inches))
                })
        });
        if panic_drives_off {
            return false;
        }
        doctrine::charge_favoured(
            self.side_value(members, winner, true),
            self.side_value(members, loser, true) * PURSUED_MORALE_FACTOR,
        )
    }

    /// The pursuit: the loser retires 2 moves, the winner follows, and both
    /// stay locked in the melee for the next game move.
    fn pursue(&mut self, members: &[usize], winner: usize) {
        let loser = 1 - winner;
        let won = self.side(winner).name;
        self.log.say(self.turn, || format!("sequence 3: {won} pursue"));
        let (mut dx, mut dy, mut count) = (0.0, 0.0, 0.0);
        for &i in members {
            if !self.takes_table_loss(i, loser) {
                continue;
            }
            let from = self.stands.get(i).map_or((0.0, 0.0), |u| u.at);
            if self.retire(i, PURSUIT_MOVES, Why::Pursued)
                && let Some(u) = self.stands.get_mut(i)
            {
                dx += u.at.0 - from.0;
                dy += u.at.1 - from.1;
                count += 1.0;
                u.thrown_back = false;
                u.locked = true;
                u.pursued = true;
            }
        }
        if count == 0.0 {
            return;
        }
        let shift = (dx / count, dy / count);
        for &i in members {
            if !self.takes_table_loss(i, winner) {
                continue;
            }
            let Some(at) = self.stands.get(i).map(|u| u.at) else {
                continue;
            };
            let to = self.dry_reach(at, self.clamp((at.0 + shift.0, at.1 + shift.1)));
            if let Some(u) = self.stands.get_mut(i) {
                u.at = to;
                u.locked = true;
            }
        }
    }
}
