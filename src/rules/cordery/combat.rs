//! Fire and close combat, and what comes of them
//! (cordery-2009-late-19th-century-rules.txt, COMBAT).

use super::battle::{Battle, Withdrawal, centre, neighbours, show};
use super::tables::{
    Charge, CloseCombat, CombatResult, Facing, Firing, Square, cavalry_against_foot, close_combat_score,
    fire_score, fire_target_score, on_flank_or_rear, result_of, squares_apart,
};
use crate::model::StandId;
use crate::rules::doctrine;
use crate::scenario::Role;

/// The mean throw of a D12, for the doctrine's expected scores.
const MEAN_D12: f64 = 6.5;

/// Friendly support in close combat.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Support {
    /// Values of Command stands adjacent.
    pub(super) command: i32,
    /// Stands of the same type adjacent.
    pub(super) adjacent: i32,
    /// Stands of the same type in the same square.
    pub(super) same_square: i32,
}

/// How far a support field reaches: the longest move and a road.
const FIELD_RADIUS: i32 = 6;
const FIELD_SPAN: i32 = 2 * FIELD_RADIUS + 1;
/// `FIELD_SPAN * FIELD_SPAN` squares.
const FIELD: usize = 13 * 13;

/// The support one stand would have in each square round it.
#[derive(Debug, Clone)]
pub(super) struct SupportField {
    origin: Square,
    cells: [Support; FIELD],
}

impl SupportField {
    fn index(&self, sq: Square) -> Option<usize> {
        let (dx, dy) = (
            sq.0 - self.origin.0 + FIELD_RADIUS,
            sq.1 - self.origin.1 + FIELD_RADIUS,
        );
        if (0..FIELD_SPAN).contains(&dx) && (0..FIELD_SPAN).contains(&dy) {
            usize::try_from(dy * FIELD_SPAN + dx).ok()
        } else {
            None
        }
    }

    fn cell_mut(&mut self, sq: Square) -> Option<&mut Support> {
        self.index(sq).and_then(|k| self.cells.get_mut(k))
    }

    /// The support in `sq`, if it lies in the field.
    pub(super) fn at(&self, sq: Square) -> Option<Support> {
        self.index(sq).and_then(|k| self.cells.get(k)).copied()
    }
}

/// Which combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combat {
    Fire,
    Close,
}

impl Battle<'_> {
    /// The support stand `i` would have standing in `sq` (itself not
    /// counted), in one pass over the square and the eight around it:
    /// "the value of any friendly Command stand that is in an adjacent
    /// square", and the friendly stands of its type adjacent and in the same
    /// square.
    pub(super) fn support(&self, i: usize, sq: Square) -> Support {
        let mut support = Support::default();
        let Some(me) = self.pieces.get(i) else {
            return support;
        };
        let ours = u8::try_from(me.side + 1).unwrap_or(0);
        let (kind, tag) = (me.kind, u32::try_from(i).unwrap_or(super::battle::EMPTY));
        // A negative coordinate read as unsigned is past any edge: one test
        // a coordinate (the width and depth are never negative).
        let (width, depth) = (self.width.cast_unsigned(), self.depth.cast_unsigned());
        for dy in -1..=1 {
            let y = sq.1 + dy;
            if y.cast_unsigned() >= depth {
                continue;
            }
            for dx in -1..=1 {
                let x = sq.0 + dx;
                if x.cast_unsigned() >= width {
                    continue;
                }
                let Ok(slot) = usize::try_from(y * self.width + x) else {
                    continue;
                };
                if self.owner.get(slot) != Some(&ours) {
                    continue;
                }
                let here = dx == 0 && dy == 0;
                for o in self.squares.get(slot).copied().unwrap_or_default() {
                    if o == tag || o == super::battle::EMPTY {
                        continue;
                    }
                    let Some(p) = usize::try_from(o).ok().and_then(|o| self.pieces.get(o)) else {
                        continue;
                    };
                    if here {
                        support.same_square += i32::from(p.kind == kind);
                    } else if p.general {
                        support.command += p.value;
                    } else {
                        support.adjacent += i32::from(p.kind == kind);
                    }
                }
            }
        }
        support
    }

    /// The support stand `i` would have in each square within
    /// [`FIELD_RADIUS`] of where it stands, worked out in one pass over its
    /// friends: the same as [`Battle::support`] square by square.
    pub(super) fn support_field(&self, i: usize) -> SupportField {
        let mut field = SupportField {
            origin: self.pieces.get(i).map_or((0, 0), |p| p.at),
            cells: [Support::default(); FIELD],
        };
        let Some(me) = self.pieces.get(i) else {
            return field;
        };
        for (o, p) in self.pieces.iter().enumerate() {
            if o == i || p.side != me.side || !p.on_table() || !(p.general || p.kind == me.kind) {
                continue;
            }
            if squares_apart(p.at, field.origin) > FIELD_RADIUS + 1 {
                continue;
            }
            if p.kind == me.kind
                && let Some(cell) = field.cell_mut(p.at)
            {
                cell.same_square += 1;
            }
            for n in neighbours(p.at) {
                if let Some(cell) = field.cell_mut(n) {
                    if p.general {
                        cell.command += p.value;
                    } else {
                        cell.adjacent += 1;
                    }
                }
            }
        }
        field
    }

    /// The values of side `side`'s Generals adjacent to `sq`.
    pub(super) fn command_near(&self, side: usize, sq: Square) -> i32 {
        neighbours(sq)
            .filter(|&n| self.friends_in(n, side))
            .flat_map(|n| self.occupants(n))
            .flatten()
            .filter_map(|o| self.pieces.get(o))
            .filter(|p| p.general)
            .map(|p| p.value)
            .sum()
    }

    /// The firing stand `i`'s additions and subtractions, firing from `from`
    /// at stand `t`.
    pub(super) fn firing(&self, i: usize, from: Square, t: usize) -> Option<Firing> {
        let (me, them) = (self.pieces.get(i)?, self.pieces.get(t)?);
        Some(Firing {
            firer: me.kind,
            command: self.command_near(me.side, from),
            target_adjacent: squares_apart(from, them.at) == 1,
            target_in_cover: self.going(them.at).covered_from_fire(self.role(them.side)),
        })
    }

    /// The close-combat additions and subtractions of stand `i` initiating
    /// from `from` against stand `t`.
    pub(super) fn charging(&self, i: usize, from: Square, t: usize) -> Option<CloseCombat> {
        self.charging_with(i, from, t, self.support(i, from))
    }

    /// [`Battle::charging`] with the support at `from` already counted.
    pub(super) fn charging_with(
        &self,
        i: usize,
        from: Square,
        t: usize,
        support: Support,
    ) -> Option<CloseCombat> {
        let (me, them) = (self.pieces.get(i)?, self.pieces.get(t)?);
        let (mine, theirs) = (self.going(from), self.going(them.at));
        Some(CloseCombat {
            stand: me.kind,
            command: support.command,
            same_type_adjacent: support.adjacent,
            same_type_same_square: support.same_square,
            charge: Some(Charge {
                on_flank_or_rear: on_flank_or_rear(them.facing, them.at, from),
                cavalry_against_foot_in_open: cavalry_against_foot(
                    me.kind,
                    them.kind,
                    mine.flat_open_with(theirs),
                ),
                downhill: mine.level < theirs.level,
                enemy_behind_wall_or_entrenched: theirs.wall_or_trench(self.role(them.side)),
            }),
        })
    }

    /// The close-combat additions of stand `t`, engaged where it stands.
    pub(super) fn engaged(&self, t: usize) -> Option<CloseCombat> {
        let them = self.pieces.get(t)?;
        let support = self.support(t, them.at);
        Some(CloseCombat {
            stand: them.kind,
            command: support.command,
            same_type_adjacent: support.adjacent,
            same_type_same_square: support.same_square,
            charge: None,
        })
    }

    /// Stand `t`'s expected score when charged, for the doctrine.
    pub(super) fn expected_engaged(&self, t: usize) -> Option<f64> {
        Some(MEAN_D12 + f64::from(close_combat_score(0, &self.engaged(t)?)))
    }

    /// Whether the doctrine would have stand `i` charge stand `t` from
    /// `from` (`theirs`: `t`'s expected score), and how much the odds favour
    /// it (its expected score over the enemy's).
    pub(super) fn charge_odds(&self, i: usize, from: Square, t: usize, theirs: f64) -> Option<f64> {
        self.charge_odds_with(i, from, t, theirs, self.support(i, from))
    }

    /// [`Battle::charge_odds`] with the support at `from` already counted.
    pub(super) fn charge_odds_with(
        &self,
        i: usize,
        from: Square,
        t: usize,
        theirs: f64,
        support: Support,
    ) -> Option<f64> {
        let mine = MEAN_D12 + f64::from(close_combat_score(0, &self.charging_with(i, from, t, support)?));
        let plan = self.plan(self.pieces.get(i)?.side);
        (plan.charge_favoured(self.turn, self.last_turn, mine, theirs) && theirs > 0.0).then(|| mine / theirs)
    }

    /// The additions and subtractions if stand `firer` fired on stand `target`
    /// now: the firing stand's and the target's Command bonus (for tests and
    /// tools).
    pub fn fire_factors(&self, firer: StandId, target: StandId) -> Option<(Firing, i32)> {
        let (i, t) = (self.index_of(firer)?, self.index_of(target)?);
        let (from, to) = (self.at(i)?, self.at(t)?);
        let side = self.pieces.get(t)?.side;
        Some((self.firing(i, from, t)?, self.command_near(side, to)))
    }

    /// The additions and subtractions if stand `initiator` began a close
    /// combat with stand `enemy` now: the initiator's, then the enemy's.
    pub fn close_combat_factors(
        &self,
        initiator: StandId,
        enemy: StandId,
    ) -> Option<(CloseCombat, CloseCombat)> {
        let (i, t) = (self.index_of(initiator)?, self.index_of(enemy)?);
        let from = self.at(i)?;
        self.at(t)?;
        Some((self.charging(i, from, t)?, self.engaged(t)?))
    }

    /// Stand `i` fires on stand `t` (COMBAT, Fire Combat).
    pub(super) fn fire(&mut self, i: usize, t: usize) {
        let (Some(from), Some(to)) = (self.at(i), self.at(t)) else {
            return;
        };
        let (Some(firing), Some(target)) = (self.firing(i, from, t), self.pieces.get(t).map(|p| p.kind))
        else {
            return;
        };
        let command = self.pieces.get(t).map_or(0, |p| self.command_near(p.side, to));
        self.engage(i, to);
        // Fire Combat: "Both the firing and the enemy stand throw a D12.
        // Additions and subtractions are made, and the scores are compared."
        let mine = fire_score(self.dice.d12(), &firing);
        let theirs = fire_target_score(self.dice.d12(), target, command);
        self.settle(i, t, mine, theirs, Combat::Fire);
    }

    /// Stand `i` initiates a close combat with stand `t` (COMBAT, Close Combat).
    pub(super) fn close_combat(&mut self, i: usize, t: usize) {
        let (Some(from), Some(to)) = (self.at(i), self.at(t)) else {
            return;
        };
        // Close Combat: "A stand may only engage an enemy stand that is in
        // adjacent square."
        if squares_apart(from, to) != 1 {
            return;
        }
        let (Some(charging), Some(engaged)) = (self.charging(i, from, t), self.engaged(t)) else {
            return;
        };
        self.engage(i, to);
        let mine = close_combat_score(self.dice.d12(), &charging);
        let theirs = close_combat_score(self.dice.d12(), &engaged);
        self.settle(i, t, mine, theirs, Combat::Close);
    }

    /// Stand `i`'s square, if it is on the table.
    fn at(&self, i: usize) -> Option<Square> {
        self.pieces.get(i).filter(|p| p.on_table()).map(|p| p.at)
    }

    /// Stand `i` initiates a combat: it faces the enemy it engages, and it has
    /// initiated its one combat of the turn ("A stand may only initiate combat
    /// once per turn", COMBAT).
    fn engage(&mut self, i: usize, enemy: Square) {
        let Some(at) = self.at(i) else {
            return;
        };
        if let Some(f) = Facing::toward(at, enemy) {
            self.turn_to(i, f);
        }
        if let Some(p) = self.pieces.get_mut(i) {
            p.initiated = true;
        }
    }

    /// Combat Results, for initiator `i` scoring `mine` and enemy `t`
    /// scoring `theirs`.
    fn settle(&mut self, i: usize, t: usize, mine: i32, theirs: i32, combat: Combat) {
        let result = result_of(mine, theirs);
        let (from, to) = (self.at(i).unwrap_or((0, 0)), self.at(t).unwrap_or((0, 0)));
        let verb = match combat {
            Combat::Fire => "fires on",
            Combat::Close => "charges",
        };
        let distance = match combat {
            Combat::Fire => range_words(squares_apart(from, to)),
            Combat::Close => "",
        };
        match result {
            CombatResult::Ineffective => self.say(|me| {
                format!(
                    "{} {verb} {}{distance}: {mine} against {theirs}; ineffective.",
                    me.name(i),
                    me.name(t)
                )
            }),
            CombatResult::DiceOff => {
                // Combat Results: "If both stands' final scores are equal, each stand
                // throws a D12 and the stand with the lowest score must withdraw";
                // equal throws are thrown again, as for the initiative (note vii).
                let (a, b) = loop {
                    let (a, b) = (self.dice.d12(), self.dice.d12());
                    if a != b {
                        break (a, b);
                    }
                };
                let loser = if a < b { i } else { t };
                self.say(|me| {
                    format!(
                        "{} {verb} {}{distance}: {mine} against {theirs}, equal; they throw {a} to {b} \
                         and {} must withdraw.",
                        me.name(i),
                        me.name(t),
                        me.name(loser)
                    )
                });
                self.force_back(loser);
            }
            CombatResult::EnemyWithdraws => {
                self.say(|me| {
                    format!(
                        "{} {verb} {}{distance}: {mine} against {theirs}; it must withdraw.",
                        me.name(i),
                        me.name(t)
                    )
                });
                self.force_back(t);
            }
            CombatResult::EnemyDestroyed => {
                self.say(|me| {
                    format!(
                        "{} {verb} {}{distance}: {mine} against {theirs}, less than half; it is destroyed.",
                        me.name(i),
                        me.name(t)
                    )
                });
                self.destroy(t);
            }
        }
    }

    /// Stand `i` withdraws, or is destroyed if it cannot.
    fn force_back(&mut self, i: usize) {
        match self.withdrawal_of(i) {
            Withdrawal::To { square, squares } => {
                let from = self.at(i).unwrap_or(square);
                self.lift(i);
                self.put(i, square);
                self.say(|me| {
                    format!(
                        "{} withdraws {squares} square{} from {} to {}.",
                        me.name(i),
                        if squares == 1 { "" } else { "s" },
                        show(from),
                        show(square)
                    )
                });
            }
            Withdrawal::Destroyed => {
                self.say(|me| {
                    format!(
                        "{} cannot withdraw within four squares to its rear and is destroyed.",
                        me.name(i)
                    )
                });
                self.destroy(i);
            }
        }
    }

    /// Stand `i` is destroyed and removed from the table. A defender's place
    /// in the line passes to the defender posted farthest back, if that is
    /// farther from the goal: it moves up to fill the gap.
    fn destroy(&mut self, i: usize) {
        self.lift(i);
        let Some(p) = self.pieces.get_mut(i) else {
            return;
        };
        p.status = crate::rules::engine::Status::Out(crate::rules::Fate::Destroyed);
        let (side, post, holds_line) = (p.side, p.post, p.fighter());
        if self.role(side) != Role::Defender || !holds_line {
            return;
        }
        let goal = self.goal(side);
        let far = |sq: Square| doctrine::dist(centre(sq), goal);
        let filler = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, q)| q.side == side && q.on_table() && q.fighter() && far(q.post) > far(post))
            .max_by(|a, b| far(a.1.post).total_cmp(&far(b.1.post)).then(b.0.cmp(&a.0)))
            .map(|(k, _)| k);
        if let Some(q) = filler.and_then(|k| self.pieces.get_mut(k)) {
            q.post = post;
        }
    }
}

/// " at N squares", for the log: static words for the ranges the seed has.
fn range_words(n: i32) -> &'static str {
    match n {
        1 => " at 1 square",
        2 => " at 2 squares",
        3 => " at 3 squares",
        4 => " at 4 squares",
        5 => " at 5 squares",
        6 => " at 6 squares",
        7 => " at 7 squares",
        8 => " at 8 squares",
        _ => " at long range",
    }
}
