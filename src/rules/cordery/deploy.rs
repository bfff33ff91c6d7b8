//! Setting out the table: each side's muster (the defender's posts on and
//! about what it guards, pairs for the charge), the General the umpire
//! supplies to a side with none, and reserves coming on.

use super::battle::{Battle, Stand, centre, piece, show, square_of_point};
use super::tables::{STANDS_PER_SQUARE, Square, StandType, move_squares, stand_value};
use crate::rules::doctrine;
use crate::rules::engine::{self, Member, Setting};
use crate::scenario::Role;

impl<'a> Battle<'a> {
    /// Musters side `s` with the core's grid muster and sets each stand
    /// down in the free square nearest the one it wants, its post.
    pub(super) fn deploy_side(&mut self, setting: &Setting<'a>, s: usize) {
        let scenario = self.scenario;
        let army = scenario
            .sides
            .get(s)
            .map_or(crate::model::ArmyKind::Regular, |x| x.army);
        let front = self.front(s);
        let mut wants = self
            .pieces
            .muster_grid(setting, s, |stand| piece(stand, army, front));
        // A cautious general keeps every stand in the line, its rifles all
        // firing; a steady or bold one forms his pairs for the charge.
        if self.plan(s).boldness != doctrine::Boldness::Cautious {
            self.pair_up(&mut wants);
        }
        for &(i, wanted) in &wants {
            if let Some(sq) = self.free_square_near(wanted, s) {
                self.put(i, sq);
                if let Some(p) = self.pieces.get_mut(i) {
                    p.post = sq;
                }
            }
        }
        if self.role(s) == Role::Defender {
            self.post_defenders(setting, s, &wants);
        }
    }

    /// The defender's posts: on and about the objective it guards
    /// (`doctrine::posts`: the squares holding it first, then the best
    /// ground about it), a post to each square its stands were set down in
    /// (a pair shares one), in the muster's order. Stands the scenario
    /// places hold where they are put. The defender marches to its posts
    /// and holds them.
    fn post_defenders(&mut self, setting: &Setting<'a>, s: usize, wants: &[(usize, Square)]) {
        let scenario = self.scenario;
        let guard = doctrine::nearest_objective(scenario, s).unwrap_or(self.goal(s));
        let rear = doctrine::rear_of(scenario, s);
        let mut groups: Vec<(Square, Vec<usize>)> = Vec::new();
        for &(i, _) in wants {
            let Some(p) = self
                .pieces
                .get(i)
                .filter(|p| p.on_table() && p.stand.at.is_none())
            else {
                continue;
            };
            let at = p.at;
            match groups.iter_mut().find(|(sq, _)| *sq == at) {
                Some((_, members)) => members.push(i),
                None => groups.push((at, vec![i])),
            }
        }
        let posts = setting.posts(guard, rear, groups.len());
        for ((_, members), post) in groups.iter().zip(posts) {
            let sq = square_of_point(self.board.clamp(post));
            for &i in members {
                if let Some(p) = self.pieces.get_mut(i) {
                    p.post = sq;
                }
            }
        }
    }

    /// Both sides set their infantry and cavalry down in pairs, two stands
    /// of the same type to a square, where the scenario does not place them
    /// (the attacker's columns, the defender's posts held with a supporting
    /// stand behind):
    /// "the number of stands – or pairs of stands that are sharing the same
    /// square – they may activate this turn" (TURN SEQUENCE) makes a pair
    /// cost one activation, and the stand behind "supports the front stand
    /// in any Close Combat" (note ix) with "+2 for each friendly stand of the
    /// same type that is in the same square". (The author's own comment on
    /// the rules: pairing "should give natives troops who are operating en
    /// masse an advantage in Close Combat".) The second stand of a pair wants
    /// the first one's square.
    fn pair_up(&self, wants: &mut [(usize, Square)]) {
        let pairs_with = |a: usize, b: usize| {
            let (Some(p), Some(q)) = (self.pieces.get(a), self.pieces.get(b)) else {
                return false;
            };
            p.fighter() && p.kind == q.kind && p.stand.at.is_none() && q.stand.at.is_none()
        };
        let mut paired = vec![false; wants.len()];
        for k in 0..wants.len() {
            if paired.get(k).copied().unwrap_or(true) {
                continue;
            }
            let Some(&(first, square)) = wants.get(k) else {
                continue;
            };
            let mate = (k + 1..wants.len()).find(|&m| {
                !paired.get(m).copied().unwrap_or(true)
                    && wants.get(m).is_some_and(|&(second, _)| pairs_with(first, second))
            });
            if let Some(m) = mate {
                for j in [k, m] {
                    if let Some(p) = paired.get_mut(j) {
                        *p = true;
                    }
                }
                if let Some(w) = wants.get_mut(m) {
                    w.1 = square;
                }
            }
        }
    }

    /// The nearest square to `wanted` a stand of `side` may be set down in:
    /// on the table, not water, with room and no enemy.
    pub(super) fn free_square_near(&self, wanted: Square, side: usize) -> Option<Square> {
        let usable = |sq: Square| {
            self.on_table(sq)
                && !self.going(sq).water()
                && self.stands_in(sq) < STANDS_PER_SQUARE
                && !self.enemy_in(sq, side)
        };
        engine::nearest_square(wanted, self.width.max(self.depth), usable)
    }

    /// "Each side's army must have a Command stand"
    /// (cordery-2009-late-19th-century-rules.txt, ARMIES): a side with none
    /// is given an Average General behind the centre of its line.
    pub(super) fn supply_general(&mut self, s: usize) {
        if self.pieces.iter().any(|p| p.side == s && p.general) {
            return;
        }
        let Some(side) = self.scenario.sides.get(s) else {
            return;
        };
        let kind = StandType::General {
            rating: super::tables::Generalship::Average,
            mounted: true,
        };
        let front = self.front(s);
        let placed: Vec<Square> = self
            .pieces
            .iter()
            .filter(|p| p.side == s && p.on_table())
            .map(|p| p.at)
            .collect();
        let centre = if placed.is_empty() {
            square_of_point(side.deployment.centre())
        } else {
            let n = i32::try_from(placed.len()).unwrap_or(1);
            let sum = placed.iter().fold((0, 0), |a, q| (a.0 + q.0, a.1 + q.1));
            (sum.0 / n, sum.1 / n)
        };
        let behind = (centre.0 - front.dx, centre.1 - front.dy);
        let i = self.pieces.len();
        self.pieces.push(Member::supplied(
            s,
            behind,
            Stand {
                kind,
                value: stand_value(kind),
                moves: move_squares(kind),
                range: 0,
                infantry: false,
                cavalry: false,
                artillery: false,
                general: true,
                transport: false,
                facing: front,
                activated: false,
                initiated: false,
                post: behind,
            },
        ));
        let Some(sq) = self.free_square_near(behind, s) else {
            return;
        };
        self.put(i, sq);
        if let Some(p) = self.pieces.get_mut(i) {
            p.post = sq;
        }
        self.say(|_| {
            format!(
                "{} has no Command stand, and \"each side's army must have a Command stand\": \
                 an Average General takes post at {} behind its centre.",
                side.name,
                show(sq)
            )
        });
    }

    /// Reserves due by this turn come on in their area, nearest their
    /// side's goal first; those with no room wait for the next turn.
    pub(super) fn bring_on_reserves(&mut self) {
        for i in 0..self.pieces.len() {
            let Some(area) = self.pieces.due_in(i, self.turn) else {
                continue;
            };
            let side = self.pieces.get(i).map_or(0, |p| p.side);
            let goal = self.goal(side);
            let mut best: Option<(f64, Square)> = None;
            for y in area.y..area.y.saturating_add(area.h) {
                for x in area.x..area.x.saturating_add(area.w) {
                    let sq = (i32::try_from(x).unwrap_or(-1), i32::try_from(y).unwrap_or(-1));
                    if !self.on_table(sq)
                        || self.going(sq).water()
                        || self.stands_in(sq) >= STANDS_PER_SQUARE
                        || self.enemy_in(sq, side)
                    {
                        continue;
                    }
                    let d = doctrine::dist(centre(sq), goal);
                    if best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, sq));
                    }
                }
            }
            if let Some((_, sq)) = best {
                self.put(i, sq);
                if let Some(p) = self.pieces.get_mut(i) {
                    p.post = sq;
                    // Reserves do not act on the turn they come on.
                    p.activated = true;
                }
                self.say(|me| format!("{} comes on at {}.", me.name(i), show(sq)));
            }
        }
    }
}
