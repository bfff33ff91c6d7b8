//! The movement phase: re-crewing guns, charges, and every other move the
//! doctrine orders (`crate::rules::doctrine`: the attacker makes for its
//! goal, the defender holds its best ground, both charge when favoured).

use super::battle::{Battle, EPSILON, by_distance, nearer, unit_vector};
use super::tables::{
    CANNON_RANGE_INCHES, CONTACT_INCHES, MAXIM_RANGE_INCHES, MOUNT_OR_DISMOUNT_INCHES, OPEN_GAP_INCHES,
    RECREW_POINTS, RIFLE_RANGE_INCHES, SPEAR_THROW_INCHES, STAND_DEPTH_INCHES, STAND_FRONT_INCHES, Troop,
    morale_value,
};
use crate::model::text::quantity;
use crate::rules::board::Point;
use crate::rules::doctrine::{self, Bounds};
use crate::scenario::Role;

/// A defender's reserve within this many cells of its side's goal holds its
/// ground: the radius the doctrine searches for the best ground
/// ([`doctrine::goal`] uses `best_ground_near(.., 3.0)`).
const HOLD_RADIUS_CELLS: f64 = 3.0;

/// The share of an attacker's foot and guns that must be within a move of
/// the enemy's RIFLE RANGE before its line goes in (this program's own:
/// three in four, so a straggling wing does not hold the rest back).
const FORMED_UP_SHARE: f64 = 0.75;

/// A defender's stand within this many inches of its post holds it: the
/// 3-inch front it may shift to close up, and the inch of the open gap.
const POST_SLACK_INCHES: f64 = STAND_FRONT_INCHES + OPEN_GAP_INCHES;

impl Battle<'_> {
    /// Side `side` moves: crews its silent guns, charges where the odds
    /// favour it, then every other stand moves by the doctrine.
    pub(super) fn move_side(&mut self, side: usize) {
        self.recrew(side);
        // From here until the move is done no enemy moves, falls or is
        // locked in a melee: what the side's stands find of them holds.
        self.scratch.nearest.iter().for_each(|k| k.set(None));
        self.scratch.moving = Some(side);
        self.scratch.targets_box = self.targets_box(side);
        let mut foes = std::mem::take(&mut self.scratch.foes);
        foes.clear();
        foes.extend(self.enemy_combatants(side));
        self.scratch.foes = foes;
        self.scratch.foes_box = Bounds::of(
            self.enemy_stands(side)
                .filter(|(_, e)| e.side != side && e.fighting())
                .map(|(_, e)| e.at),
        );
        self.mark_engaged(side);
        self.scratch.formed = self.formed_up(side);
        self.scratch.ahead = self.ahead_in_fire(side);
        self.plan_charges(side);
        for i in 0..self.stands.len() {
            let Some(u) = self.stands.get(i) else { continue };
            if u.side != side || !u.fighting() || u.locked || u.thrown_back || u.held {
                continue;
            }
            match self.scratch.target.get(i).copied().flatten() {
                Some(target) => self.charge(i, target),
                None => self.manoeuvre(i),
            }
        }
        self.scratch.moving = None;
    }

    /// Marks the enemies of side `side` within RIFLE RANGE of one of its
    /// combatants: where the fighting is.
    pub(super) fn mark_engaged(&mut self, side: usize) {
        let mut engaged = std::mem::take(&mut self.scratch.engaged);
        // An enemy beyond RIFLE RANGE of the box about the side's
        // combatants is beyond it of each (exact as computed: `Bounds`).
        let ours = Bounds::of(
            self.side_stands(side)
                .filter(|(_, f)| f.side == side && f.combatant())
                .map(|(_, f)| f.at),
        );
        for (j, e) in self.stands.iter().enumerate() {
            let hot = e.side != side
                && e.combatant()
                && ours.is_some_and(|b| !b.beyond(e.at, RIFLE_RANGE_INCHES + EPSILON))
                && self.side_stands(side).any(|(_, f)| {
                    f.side == side
                        && f.combatant()
                        && doctrine::dist(f.at, e.at) <= RIFLE_RANGE_INCHES + EPSILON
                });
            if let Some(slot) = engaged.get_mut(j) {
                *slot = hot;
            }
        }
        self.scratch.engaged = engaged;
    }

    /// Whether side `side`'s attack is formed up to go in: at least
    /// [`FORMED_UP_SHARE`] of its foot and guns on the table from the start
    /// are within a move of RIFLE RANGE of the enemy, or the day is half
    /// gone. Until then its foot and guns halt an inch beyond the enemy's
    /// RIFLE RANGE, so the line goes in together rather than company by
    /// company into the whole enemy line's fire (this program's doctrine).
    pub(super) fn formed_up(&self, side: usize) -> bool {
        if doctrine::late(self.turn, self.scenario.turn_limit) {
            return true;
        }
        let (mut near, mut all) = (0_u32, 0_u32);
        for (i, u) in self.side_stands(side) {
            let foot_or_guns = u
                .troop()
                .is_some_and(|t| !t.is_cavalry() && t != Troop::NativeSpearmen);
            if u.side != side || !u.combatant() || u.arrives > 1 || !foot_or_guns {
                continue;
            }
            all += 1;
            let reach = RIFLE_RANGE_INCHES + u.full_move() + OPEN_GAP_INCHES;
            // While the side moves, not near when the box about the enemy
            // is beyond the reach (exact as computed: `Bounds`; the nearest
            // is one of them).
            let far = self.scratch.moving == Some(side)
                && self
                    .scratch
                    .foes_box
                    .is_none_or(|b| b.beyond(u.at, reach + EPSILON));
            if !far && self.nearest_enemy(i).is_some_and(|(_, d)| d <= reach + EPSILON) {
                near += 1;
            }
        }
        f64::from(near) >= FORMED_UP_SHARE * f64::from(all)
    }

    /// Where a defender's stand with nothing in range marches to: the
    /// nearest enemy its side is fighting (this program's doctrine: the
    /// reserves march to the fighting, rather than stand idle at their
    /// posts while the line is shot away). The stand holding the objective
    /// stays; attackers make for their goal.
    pub(super) fn march_to_fighting(&self, i: usize) -> Option<Point> {
        let u = self.stands.get(i)?;
        if u.holds || self.side(u.side).role != Role::Defender {
            return None;
        }
        let mut best: Option<(Point, f64)> = None;
        for (j, e) in self.stands.iter().enumerate() {
            if !self.scratch.engaged.get(j).copied().unwrap_or(false) {
                continue;
            }
            let d = doctrine::dist(u.at, e.at);
            if best.is_none_or(|(_, b)| nearer(d, b)) {
                best = Some((e.at, d));
            }
        }
        best.map(|(p, _)| p)
    }

    /// ARTILLERY AND MAXIM GUNS: "If the crew of a gun is killed, it may be
    /// replaced by taking 60 points out of an Infantry unit".
    fn recrew(&mut self, side: usize) {
        for g in 0..self.stands.len() {
            let Some(gun) = self.stands.get(g) else { continue };
            if gun.side != side || !gun.fighting() || !gun.is_gun() || gun.strength > 0 {
                continue;
            }
            if self.enemy_within(g, CONTACT_INCHES) {
                continue;
            }
            // No more men than the gun had when the battle began: a battle
            // does not reinforce a stand, and a gun that came on under
            // strength (21 of its 60 points, say) is not sent back to the
            // campaign at 60, its new crew counted twice.
            let crew = RECREW_POINTS.min(gun.full).min(gun.stand.strength);
            if crew == 0 {
                continue;
            }
            let at = gun.at;
            let giver = (0..self.stands.len()).find(|&k| {
                self.stands.get(k).is_some_and(|f| {
                    f.side == side
                        && f.combatant()
                        && f.troop().is_some_and(Troop::is_infantry)
                        && f.strength > crew
                        && !f.locked
                        && !f.thrown_back
                        && !f.held
                        && doctrine::dist(f.at, at) <= f.full_move() + EPSILON
                }) && !self.enemy_within(k, RIFLE_RANGE_INCHES)
            });
            let Some(k) = giver else { continue };
            if let Some(f) = self.stands.get_mut(k) {
                f.strength -= crew;
                f.held = true;
            }
            if let Some(gun) = self.stands.get_mut(g) {
                gun.strength = crew;
            }
            let (gun_name, giver_name) = (
                self.stands.get(g).map_or("", |u| u.name()),
                self.stands.get(k).map_or("", |u| u.name()),
            );
            self.log.say(self.turn, || {
                format!("{giver_name} gives {crew} men to crew {gun_name} again")
            });
        }
    }

    /// Whether stand `i` charges: any stand with men but a gun, fit to
    /// fight (THE MELEE is fought by all troops in contact; infantry is
    /// "formed up ... to withstand charges", and the doctrine sends it in
    /// when its general's odds favour it).
    fn may_charge(&self, i: usize) -> bool {
        self.stands.get(i).is_some_and(|u| {
            u.combatant() && !u.locked && !u.thrown_back && !u.held && u.troop().is_some_and(|t| !t.is_gun())
        })
    }

    /// Whether side `side`'s general charges at these odds this turn.
    fn favoured(&self, side: usize, mine: f64, theirs: f64) -> bool {
        self.side(side)
            .plan
            .charge_favoured(self.turn, self.scenario.turn_limit, mine, theirs)
    }

    /// How far stand `i` reaches with a charge: its move, and for spearmen
    /// the spear throw's 8 inches besides (NATIVES: "move a stand of
    /// spearmen one game move 8 inches, throw their spears (which is 8
    /// inches), and then charge- all on the same move").
    fn charge_reach(&self, i: usize) -> f64 {
        self.stands.get(i).map_or(0.0, |u| {
            u.full_move()
                + if u.is_troop(Troop::NativeSpearmen) {
                    SPEAR_THROW_INCHES
                } else {
                    0.0
                }
        })
    }

    /// A stand that may be charged: any enemy on the table with men, or
    /// command, transport and crewless guns to take.
    fn chargeable(&self, j: usize, by_side: usize) -> bool {
        self.stands
            .get(j)
            .is_some_and(|e| e.side != by_side && (e.combatant() || e.can_be_taken()))
    }

    /// Chooses this move's charges, the weakest target first: for each
    /// enemy within some charger's reach, in order of its combat value (with
    /// its friends in contact), the nearest chargers not yet sent are sent
    /// in, one by one, until their combat value (with friends already in
    /// contact) beats it by the doctrine's odds. If all of them together are
    /// not enough, none go at it. Chargers not needed hold back: each stand
    /// on a melee's winning side loses by the Melee Result Table, so a
    /// needless stand is a needless loss.
    fn plan_charges(&mut self, side: usize) {
        let n = self.stands.len();
        self.scratch.target.iter_mut().for_each(|t| *t = None);
        // The box about the chargers and the farthest charge: an enemy
        // beyond both is reached by none, and its scan is passed over.
        let mut farthest = f64::NEG_INFINITY;
        for i in 0..n {
            let mine = self.stands.get(i).is_some_and(|u| u.side == side) && self.may_charge(i);
            let reach = if mine {
                self.charge_reach(i)
            } else {
                f64::NEG_INFINITY
            };
            farthest = farthest.max(reach);
            if let Some(r) = self.scratch.reach.get_mut(i) {
                *r = reach;
            }
        }
        let chargers = self.stands.iter().zip(&self.scratch.reach);
        let Some(chargers_box) = Bounds::of(chargers.filter(|(_, r)| **r >= 0.0).map(|(u, _)| u.at)) else {
            return;
        };
        // Only the side's own stands may charge: the scans look at its span.
        let span = self.spans.get(side).cloned().unwrap_or(0..0);
        let mut targets = std::mem::take(&mut self.scratch.targets);
        let mut chargers = std::mem::take(&mut self.scratch.chargers);
        targets.clear();
        for j in 0..n {
            if !self.chargeable(j, side) {
                continue;
            }
            // Exact as computed (`Bounds`): no charger's gap, less a stand's
            // depth, is within its reach when the box's is beyond the farthest.
            let at = self.stands.get(j).map_or((f64::NAN, f64::NAN), |e| e.at);
            if chargers_box.dist_from(at) - STAND_DEPTH_INCHES > farthest + EPSILON {
                continue;
            }
            let mut nearest: Option<(usize, f64)> = None;
            for i in span.clone() {
                if let Some(d) = self.reach_gap(i, j)
                    && nearest.is_none_or(|(_, b)| nearer(d, b))
                {
                    nearest = Some((i, d));
                }
            }
            if let Some((i, _)) = nearest {
                let from = self.stands.get(i).map_or((0.0, 0.0), |u| u.at);
                targets.push((self.odds_in_contact(side, j, from).1, j));
            }
        }
        targets.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for &(_, j) in &targets {
            chargers.clear();
            chargers.extend(
                span.clone()
                    .filter(|&i| self.scratch.target.get(i) == Some(&None))
                    .filter_map(|i| self.reach_gap(i, j).map(|d| (d, i))),
            );
            chargers.sort_by(|a, b| by_distance(a.0, b.0).then(a.1.cmp(&b.1)));
            let Some(from) = chargers
                .first()
                .and_then(|&(_, i)| self.stands.get(i))
                .map(|u| u.at)
            else {
                continue;
            };
            let (mut mine, theirs) = self.odds_in_contact(side, j, from);
            let mut sent = 0;
            for &(_, i) in &chargers {
                mine += self.charging_value(i);
                sent += 1;
                if self.favoured(side, mine, theirs) {
                    break;
                }
            }
            if sent > 0 && self.favoured(side, mine, theirs) {
                for &(_, i) in chargers.iter().take(sent) {
                    if let Some(slot) = self.scratch.target.get_mut(i) {
                        *slot = Some(j);
                    }
                }
            }
        }
        self.scratch.targets = targets;
        self.scratch.chargers = chargers;
    }

    /// Whether stand `i` may charge `j` this move: it is one of the moving
    /// side's chargers and `j` is within its reach (set by `plan_charges`).
    fn reaches(&self, i: usize, j: usize) -> bool {
        self.reach_gap(i, j).is_some()
    }

    /// The gap between stands `i` and `j` when `i` may charge `j` this
    /// move ([`Battle::reaches`]); `None` when it may not.
    fn reach_gap(&self, i: usize, j: usize) -> Option<f64> {
        let reach = self.scratch.reach.get(i).copied().filter(|r| *r >= 0.0)?;
        let (a, b) = (self.stands.get(i)?, self.stands.get(j)?);
        let gap = doctrine::dist(a.at, b.at);
        // No charge across water: it is not crossed.
        (gap - STAND_DEPTH_INCHES <= reach + EPSILON && self.dry_way(a.at, b.at)).then_some(gap)
    }

    /// A charger's combat value: its points times its morale value on open
    /// ground (it leaves its own ground to charge).
    fn charging_value(&self, i: usize) -> f64 {
        self.stands.get(i).map_or(0.0, |u| match u.line {
            Some(line) if u.combatant() => {
                let morale = morale_value(&line, u.closed_or_dismounted(), false);
                f64::from(u.strength) * f64::from(morale)
            }
            _ => 0.0,
        })
    }

    /// The combat values already in contact with `j` before a charge from
    /// `from`: side `side`'s stands there, and `j` with its friends there.
    fn odds_in_contact(&self, side: usize, j: usize, from: Point) -> (f64, f64) {
        let target_at = self.stands.get(j).map_or(from, |t| t.at);
        let mut mine = 0.0;
        let mut theirs = 0.0;
        for (k, u) in self.stands.iter().enumerate() {
            if !u.combatant() || self.gap(k, j) > CONTACT_INCHES + EPSILON {
                continue;
            }
            let charging = self.scratch.target.get(k).copied().flatten().is_some();
            if charging || self.reaches(k, j) {
                continue;
            }
            if u.side == side {
                mine += self.value_against(k, target_at);
            } else {
                theirs += self.value_against(k, from);
            }
        }
        (mine, theirs)
    }

    /// Stand `i` charges `j`: it moves base to base with it.
    fn charge(&mut self, i: usize, j: usize) {
        let (Some(u), Some(target)) = (self.stands.get(i), self.stands.get(j)) else {
            return;
        };
        let dir = unit_vector(target.at, u.at).unwrap_or((0.0, 1.0));
        let to = (
            target.at.0 + dir.0 * STAND_DEPTH_INCHES,
            target.at.1 + dir.1 * STAND_DEPTH_INCHES,
        );
        let to = self.clamp(to);
        let inches = doctrine::dist(u.at, to);
        let (name, target_name, turn) = (u.name(), target.name(), self.turn);
        let throw = u.is_troop(Troop::NativeSpearmen);
        self.log.say(turn, || {
            if throw {
                format!(
                    "{name} rush {}, throw spears and charge {target_name}",
                    quantity(inches, 0, "inch", "inches")
                )
            } else {
                format!(
                    "{name} charge {target_name} ({})",
                    quantity(inches, 0, "inch", "inches")
                )
            }
        });
        if let Some(u) = self.stands.get_mut(i) {
            u.at = to;
            u.moved += inches;
            u.forming = false;
        }
    }

    /// Where stand `i` makes for: the attacker's goal, by way of its plan's
    /// flank; a defender's post ([`Battle::post_defenders`]), or for its
    /// reserves the side's goal.
    pub(super) fn destination(&self, i: usize) -> Point {
        let Some(u) = self.stands.get(i) else {
            return (0.0, 0.0);
        };
        let side = self.side(u.side);
        let cell = self.board.cell_inches;
        match side.role {
            Role::Attacker => side.plan.aim(u.at, side.goal, side.rear, cell),
            Role::Defender => u.post.unwrap_or(side.goal),
        }
    }

    /// Whether a defender's stand holds where it is: at its post, or (a
    /// reserve) near its side's goal. Attackers never hold.
    fn at_post(&self, i: usize) -> bool {
        let Some(u) = self.stands.get(i) else { return false };
        let side = self.side(u.side);
        if side.role == Role::Attacker {
            return false;
        }
        match u.post {
            Some(post) => doctrine::dist(u.at, post) <= POST_SLACK_INCHES + EPSILON,
            None => doctrine::dist(u.at, side.goal) <= HOLD_RADIUS_CELLS * self.board.cell_inches,
        }
    }

    /// Every move but a charge, by the stand's kind and side's role.
    fn manoeuvre(&mut self, i: usize) {
        let Some(u) = self.stands.get(i) else { return };
        let goal = self.destination(i);
        let Some(line) = u.line else {
            self.follow_side(i);
            return;
        };
        if u.strength == 0 {
            return;
        }
        let side = self.side(u.side);
        if side.role == Role::Attacker && side.plan.waits(u.across, self.turn) {
            return;
        }
        let enemy = self.nearest_enemy(i);
        // A stand halts to fire only at an enemy it can see within range:
        // one out of sight in a wood or town is closed with.
        // While its side moves, none to fire at when the box about the
        // targets is out of range (exact as computed: `Bounds`).
        let out_of_range = self.scratch.moving == Some(u.side)
            && self
                .scratch
                .targets_box
                .is_none_or(|b| b.beyond(u.at, RIFLE_RANGE_INCHES + EPSILON));
        let in_range = !out_of_range && self.sees_target(i, RIFLE_RANGE_INCHES);
        let fighting = if in_range { None } else { self.march_to_fighting(i) };
        let goal = fighting.unwrap_or(goal);
        let at_post = fighting.is_none() && self.at_post(i);
        let keep_off = if side.role == Role::Attacker && !self.scratch.formed {
            RIFLE_RANGE_INCHES + OPEN_GAP_INCHES
        } else {
            Self::keep_off()
        };
        match line.troop {
            t if t.is_gun() => self.move_gun(i, line.troop, at_post, enemy, goal),
            Troop::BritishMountedInfantry => self.move_mounted_infantry(i, in_range || at_post, goal),
            t if t.is_regular_infantry() => {
                if in_range && self.presses_on(i) {
                    // Closed order moves 3 inches and still volleys.
                    if self.touching(i) {
                        self.go(i, goal, line.move_closed, keep_off, "press on in closed order");
                    } else {
                        self.close_up(i);
                    }
                } else if in_range || at_post {
                    self.close_up(i);
                } else if side.role == Role::Attacker
                    && self.touching(i)
                    && enemy
                        .is_some_and(|(_, d)| d <= RIFLE_RANGE_INCHES + line.move_closed + OPEN_GAP_INCHES)
                {
                    // The last steps into range in closed order, to volley on arrival.
                    self.go(i, goal, line.move_closed, keep_off, "advance in closed order");
                } else {
                    self.set_forming(i, false);
                    self.go(i, goal, line.move_open, keep_off, "advance in open order");
                }
            }
            Troop::NativeRiflemen => {
                if !(in_range || at_post) {
                    self.go(i, goal, line.move_open, keep_off, "advance");
                }
            }
            Troop::NativeSpearmen => {
                if !at_post {
                    // Make for the nearest enemy within a move and a throw, to throw at it.
                    let dest = match enemy {
                        Some((j, d)) if d <= line.move_open + SPEAR_THROW_INCHES => {
                            self.stands.get(j).map_or(goal, |e| e.at)
                        }
                        _ => goal,
                    };
                    self.go(i, dest, line.move_open, keep_off, "advance");
                }
            }
            _ => {
                // Cavalry rides at enemy horse within a move and a charge, to
                // charge it; else it waits out of rifle range for a charge
                // the odds favour, but the attacker's closes late in the day.
                let horse = enemy.filter(|&(j, d)| {
                    d <= 2.0 * line.move_open
                        && self
                            .stands
                            .get(j)
                            .is_some_and(|e| e.troop().is_some_and(Troop::is_cavalry))
                });
                if let Some((j, _)) = horse {
                    let at = self.stands.get(j).map_or(goal, |e| e.at);
                    self.go(i, at, line.move_open, keep_off, "ride at the enemy horse");
                } else if !at_post {
                    let plan = self.side(u.side).plan;
                    let closes =
                        plan.role == Role::Attacker && doctrine::late(self.turn, self.scenario.turn_limit);
                    let keep_out = if closes {
                        keep_off
                    } else {
                        RIFLE_RANGE_INCHES + OPEN_GAP_INCHES
                    };
                    self.go(i, goal, line.move_open, keep_out, "ride");
                }
            }
        }
    }

    /// Whether an attacker's company in range of the enemy presses on
    /// toward its goal in closed order (3 inches a move, volleying as it
    /// goes: REGULAR INFANTRY, "In Closed Formation, the stand may only
    /// move 3 inches", and fires "2 enemy points for each 10") rather than
    /// halting to fire: a general who would charge at even odds this move
    /// (a bold one all day, the others late in the day, when the attacker
    /// must close or lose), once his fire is winning ([`Self::ahead_in_fire`])
    /// or the day is half gone. This program's doctrine: an attacker that
    /// stands off at the edge of rifle range cannot take the ground, and one
    /// that walks on before its fire has told is shot down on the way (a
    /// bold attacker pressing on from the first volley won 38% of the mirror
    /// battles of 40 a side, a cautious one, halting to fire, 55%).
    pub(super) fn presses_on(&self, i: usize) -> bool {
        self.stands.get(i).is_some_and(|u| {
            let side = self.side(u.side);
            side.role == Role::Attacker
                && (self.scratch.ahead || doctrine::late(self.turn, self.scenario.turn_limit))
                && side.plan.charge_odds(self.turn, self.scenario.turn_limit)
                    <= doctrine::BOLD_CHARGE_ODDS + EPSILON
        })
    }

    /// Whether side `side` is winning the firefight: the enemy has lost a
    /// greater share of the points it brought on than `side` has.
    pub(super) fn ahead_in_fire(&self, side: usize) -> bool {
        let share_lost = |s: usize| {
            let (before, after) = self
                .stands
                .points(s, |u| if u.fighting() { u.strength } else { 0 });
            if before == 0 {
                0.0
            } else {
                before.saturating_sub(after) as f64 / before as f64
            }
        };
        share_lost(side ^ 1) > share_lost(side)
    }

    fn set_forming(&mut self, i: usize, forming: bool) {
        if let Some(u) = self.stands.get_mut(i) {
            u.forming = forming;
        }
    }

    /// Guns hold while they have a target in range (or their post); else
    /// they come on: Maxims "6″ and fire", cannons "3″ and fire" when that
    /// brings a target into range, else "6″ no fire" (TABLES, Combat Table).
    fn move_gun(&mut self, i: usize, troop: Troop, at_post: bool, enemy: Option<(usize, f64)>, goal: Point) {
        let range = if matches!(troop, Troop::MaximBritishCrew | Troop::MaximNativeCrew) {
            MAXIM_RANGE_INCHES
        } else {
            CANNON_RANGE_INCHES
        };
        let distance = enemy.map_or(f64::INFINITY, |(_, d)| d);
        if at_post || distance <= range + EPSILON {
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        let Some(line) = u.line else { return };
        if distance <= range + line.move_and_fire {
            self.go(i, goal, line.move_and_fire, Self::keep_off(), "come on");
        } else {
            self.go(i, goal, line.move_open, Self::keep_off(), "limber up and come on");
        }
    }

    /// MOUNTED INFANTRY: they ride 8 inches; with the enemy near they
    /// dismount ("the horse may move 4 inches, the man dismount and move 4
    /// inches"); on foot they hold and fire, or mount to ride on ("or
    /// vise-versa in mounting").
    fn move_mounted_infantry(&mut self, i: usize, stay: bool, goal: Point) {
        let Some(u) = self.stands.get(i) else { return };
        let Some(line) = u.line else { return };
        let (mounted, name) = (u.mounted, u.name());
        let near = self.enemy_within(i, RIFLE_RANGE_INCHES + line.move_open);
        let keep_off = Self::keep_off();
        let turn = self.turn;
        match (mounted, stay) {
            (true, true) => {
                self.set_mounted(i, false);
                self.log.say(turn, || format!("{name} dismount to fire"));
            }
            (true, false) => {
                if near {
                    self.advance(i, goal, 2.0 * MOUNT_OR_DISMOUNT_INCHES, keep_off);
                    self.set_mounted(i, false);
                    self.log.say(turn, || {
                        format!("{name} ride 4 inches, dismount and go on 4 on foot")
                    });
                } else {
                    self.go(i, goal, line.move_open, keep_off, "ride");
                }
            }
            (false, true) => {}
            (false, false) => {
                if near {
                    self.go(i, goal, line.move_closed, keep_off, "advance on foot");
                } else {
                    self.advance(i, goal, 2.0 * MOUNT_OR_DISMOUNT_INCHES, keep_off);
                    self.set_mounted(i, true);
                    self.log
                        .say(turn, || format!("{name} go 4 inches on foot, mount and ride 4"));
                }
            }
        }
    }

    fn set_mounted(&mut self, i: usize, mounted: bool) {
        if let Some(u) = self.stands.get_mut(i) {
            u.mounted = mounted;
        }
    }

    /// Regular infantry forms closed order: it stays if it touches a friend,
    /// else moves (no more than its closed move, 3 inches) to stand beside
    /// the nearest regular infantry stand of its side. A defender does not
    /// leave its post to do it: the nearer company may come to it instead.
    fn close_up(&mut self, i: usize) {
        if self.touching(i) {
            return;
        }
        let Some(u) = self.stands.get(i) else { return };
        let Some(line) = u.line else { return };
        let mut partner: Option<(Point, f64)> = None;
        for (j, f) in self.side_stands(u.side) {
            if j == i || f.side != u.side || !f.combatant() || !f.is_regular_infantry() || f.thrown_back {
                continue;
            }
            let d = doctrine::dist(u.at, f.at);
            if partner.is_none_or(|(_, b)| nearer(d, b)) {
                partner = Some((f.at, d));
            }
        }
        let Some((p, _)) = partner else { return };
        let dir = unit_vector(p, u.at).unwrap_or((1.0, 0.0));
        let slot = (p.0 + dir.0 * STAND_FRONT_INCHES, p.1 + dir.1 * STAND_FRONT_INCHES);
        let off_post = u
            .post
            .is_some_and(|post| doctrine::dist(slot, post) > POST_SLACK_INCHES + EPSILON);
        if off_post && self.side(u.side).role == Role::Defender {
            return;
        }
        self.go(
            i,
            slot,
            line.move_closed,
            Self::keep_off(),
            "close up to form closed order,",
        );
    }

    /// Command and transport keep with their side: toward the middle of its
    /// fighting stands.
    fn follow_side(&mut self, i: usize) {
        let Some(u) = self.stands.get(i) else { return };
        let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
        for (_, f) in self
            .side_stands(u.side)
            .filter(|(_, f)| f.side == u.side && f.combatant())
        {
            sx += f.at.0;
            sy += f.at.1;
            n += 1.0;
        }
        if n == 0.0 {
            return;
        }
        let centre = (sx / n, sy / n);
        let inches = super::battle::COMMAND_MOVE_INCHES;
        self.go(i, centre, inches, Self::keep_off(), "keep up with the army,");
    }

    /// Moves stand `i` up to `inches` toward `dest`, stopping short of
    /// coming within `keep_off` inches of any enemy on the table, short of
    /// water, and on the table.
    pub(super) fn advance(&mut self, i: usize, dest: Point, inches: f64, keep_off: f64) -> f64 {
        let Some(from) = self.stands.get(i).map(|u| u.at) else {
            return 0.0;
        };
        // Where water lies between, the stand makes for the bridge or ford
        // ([`crate::rules::route`]), and never steps over a river.
        let dest = self.routes.round_water(self.board, from, dest).unwrap_or(dest);
        let to = doctrine::step_toward(from, dest, inches);
        let t = self.free_run(i, from, to, keep_off);
        let end = self.dry_reach(from, lerp(from, to, t));
        if self.is_water(end) {
            return 0.0;
        }
        let end = self.clamp(end);
        let moved = doctrine::dist(from, end);
        if let Some(u) = self.stands.get_mut(i) {
            u.at = end;
            u.moved += moved;
        }
        moved
    }

    /// Moves stand `i` as [`Self::advance`] does and logs it with `verb`
    /// ("advance", "close up").
    fn go(&mut self, i: usize, dest: Point, inches: f64, keep_off: f64, verb: &'static str) {
        let moved = self.advance(i, dest, inches, keep_off);
        if moved >= 0.5 {
            let name = self.stands.get(i).map_or("", |u| u.name());
            self.log.say(self.turn, || {
                format!("{name} {verb} {}", quantity(moved, 0, "inch", "inches"))
            });
        }
    }

    /// The share (0 to 1) of the path from `from` to `to` stand `i` may go
    /// before it comes within `keep_off` of an enemy. Moving away from an
    /// enemy it is already near is free.
    fn free_run(&self, i: usize, from: Point, to: Point, keep_off: f64) -> f64 {
        let Some(me) = self.stands.get(i) else { return 0.0 };
        let d = (to.0 - from.0, to.1 - from.1);
        let a = d.0 * d.0 + d.1 * d.1;
        if a < EPSILON {
            return 0.0;
        }
        // While its side moves, no enemy is come near when the box about
        // them is farther from `from` than the move and the keep-off, and
        // an inch besides: each is then outside its circle below by far
        // more than any rounding of the sums, and the whole run is free.
        if self.scratch.moving == Some(me.side)
            && self
                .scratch
                .foes_box
                .is_none_or(|b| b.beyond(from, a.sqrt() + keep_off + FREE_RUN_MARGIN_INCHES))
        {
            return 1.0;
        }
        let mut t_max: f64 = 1.0;
        for (_, e) in self
            .enemy_stands(me.side)
            .filter(|(_, e)| e.side != me.side && e.fighting())
        {
            let f = (from.0 - e.at.0, from.1 - e.at.1);
            let b = 2.0 * (f.0 * d.0 + f.1 * d.1);
            // Command, transport and silent guns are no threat: only the
            // inch of the open gap is kept from them.
            let keep_off = if e.combatant() {
                keep_off
            } else {
                keep_off.min(Self::keep_off())
            };
            let c = f.0 * f.0 + f.1 * f.1 - keep_off * keep_off;
            if c <= 0.0 {
                if b < 0.0 {
                    t_max = 0.0;
                }
                continue;
            }
            let disc = b * b - 4.0 * a * c;
            if disc < 0.0 {
                continue;
            }
            let t = (-b - disc.sqrt()) / (2.0 * a);
            if (0.0..=1.0).contains(&t) {
                t_max = t_max.min(t);
            }
        }
        t_max.max(0.0)
    }
}

/// How much farther than a move and its keep-off the enemy must be for a
/// run to be free without working it out ([`Battle::free_run`]): not a
/// rule, a margin far beyond the rounding of inches.
const FREE_RUN_MARGIN_INCHES: f64 = 1.0;

fn lerp(a: Point, b: Point, t: f64) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}
