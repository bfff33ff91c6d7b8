//! harman-2021 each arm's action: infantry advancing, firing or charging, skirmishers, cavalry, artillery moving up.

use super::*;

impl Battle<'_> {
    pub(super) fn infantry(&mut self, i: usize, fires: bool) {
        let side = self.side(i);
        if let Some(e) = self.enemy_orthogonal(self.at(i), side) {
            // In contact already (a halted charge): an exchange of Fire.
            // Foot with no fire, next to horse, fights it hand to hand
            // (CLOSE COMBAT: "Any unit that moves into a square adjacent
            // ... to an enemy unit will engage it in Close Combat").
            if self.pieces.get(i).is_some_and(Piece::may_attack) {
                if fires {
                    self.musketry(i, e);
                } else if self.unit(e).is_cavalry() {
                    self.close_combat(i, e);
                }
            }
            return;
        }
        let may_attack = self.pieces.get(i).is_some_and(Piece::may_attack);
        self.refresh(side);
        let distance = self.nearest_enemy(i).map_or(u32::MAX, |e| e.1);
        // A charge needs an enemy within two squares, musketry within one.
        if distance <= INFANTRY_TACTICAL + 1 {
            self.reach(i, INFANTRY_TACTICAL);
            if may_attack && let Some((sq, e)) = self.charge_target(i, false) {
                let from = self.at(i);
                self.move_to(i, sq);
                if self.unit(e).is_cavalry() {
                    self.close_combat(i, e);
                } else {
                    self.bayonet(i, e, 1, from);
                }
                return;
            }
            if fires
                && may_attack
                && let Some(e) = self.musket_target(i)
            {
                self.musketry(i, e);
                return;
            }
        }
        let near = distance <= 3;
        // The defender holds its post (or, with none, its ground) until the
        // enemy comes near; off its post, it marches back to it.
        let off_post = self
            .pieces
            .get(i)
            .and_then(|p| p.post)
            .is_some_and(|post| post != self.at(i));
        if !near && self.roles.get(side) == Some(&Role::Defender) && !off_post {
            return;
        }
        let goal = self.goal_of(i);
        // "Formed infantry can move two squares non-tactically ... one
        // square and engage in Fire": near the enemy it moves a square
        // (searched above when a charge was weighed), else marches two.
        if !near {
            self.reach(i, INFANTRY_MARCH);
        } else if distance > INFANTRY_TACTICAL + 1 {
            self.reach(i, INFANTRY_TACTICAL);
        }
        if let Some(sq) = self.best_move(i, goal, 0) {
            self.move_to(i, sq);
            self.say_if_posted(i, sq);
        }
        if near
            && fires
            && may_attack
            && let Some(e) = self.musket_target(i)
        {
            self.musketry(i, e);
        }
    }

    /// A square reachable (see [`Battle::reach`]) orthogonally next to an
    /// enemy this unit may and would charge. `cavalry`: charging squares
    /// must finish straight.
    pub(super) fn charge_target(&mut self, i: usize, cavalry: bool) -> Option<(Square, usize)> {
        let side = self.side(i);
        self.refresh(side);
        let me = self.pieces.get(i)?;
        let mine = me.dice() + u32::from(self.general_with(i));
        let mut best: Option<(u32, u32, usize, Square)> = None;
        let plan = self.plans.get(side).copied();
        let commits = self.commits(side);
        let reach = u32::from(self.reach_radius) + 1;
        for &(at, e) in self.foes(side) {
            if cheb(me.at, at) > reach {
                continue;
            }
            let them = self.pieces.get(e)?;
            // Foot charge foot and guns with the bayonet, and close with horse
            // in Close Combat ("Any unit that moves into a square adjacent
            // ... to an enemy unit will engage it in Close Combat", The Turn
            // Sequence): horse astride the foot's road is not left to stand
            // there all day.
            let foot_at_horse = !cavalry && me.unit.is_formed_infantry() && them.unit.is_cavalry();
            if !(cavalry || them.unit.is_infantry() || them.unit.is_artillery() || foot_at_horse) {
                continue;
            }
            if cavalry && them.in_square {
                continue;
            }
            // Whether this enemy is worth charging does not depend on the
            // square it is charged from: weighed once.
            // The Defenders answer a bayonet charge with at most their own
            // dice ("Fire back, throwing one less Tactical Die", or "with
            // all their Tactical Dice", Bayonet Charges).
            let theirs = them.dice();
            let favoured = plan.is_some_and(|p| {
                p.charge_favoured(self.turn, self.last_turn, f64::from(mine), f64::from(theirs))
            }) || commits
                || (cavalry && horse_meets_horse(them.unit))
                || them.halted
                || them.condition() != Condition::Fresh
                || (!cavalry && mine >= theirs && them.cv <= me.cv);
            let cav_ok = !cavalry
                || them.unit.is_cavalry()
                || them.unit.is_artillery()
                || them.condition() != Condition::Fresh
                || mine > them.quality;
            if !favoured || !cav_ok {
                continue;
            }
            for d in ORTHOGONAL {
                let sq = (them.at.0 + d.0, them.at.1 + d.1);
                let Some(steps) = self.steps_to(sq) else { continue };
                if sq != me.at && !self.free(sq) {
                    continue;
                }
                if !may_engage(me.unit, &self.cell(sq), &self.cell_held(them.at, them.side)) {
                    continue;
                }
                if cavalry && !self.straight_into(sq, (-d.0, -d.1)) {
                    continue;
                }
                let key = (them.cv, steps, e, sq);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|b| (b.3, b.2))
    }

    /// Whether a charge can end in `sq` moving in direction `d` with its
    /// last two squares in a straight line (Cavalry Regiments).
    pub(super) fn straight_into(&self, sq: Square, d: Square) -> bool {
        let one = (sq.0 - d.0, sq.1 - d.1);
        let two = (sq.0 - 2 * d.0, sq.1 - 2 * d.1);
        match (self.steps_to(one), self.steps_to(two)) {
            (Some(0), _) => true,
            (Some(a), Some(b)) => a == b + 1 && self.free(one),
            _ => false,
        }
    }

    pub(super) fn musket_target(&mut self, i: usize) -> Option<usize> {
        let (side, at, unit) = (self.side(i), self.at(i), self.unit(i));
        self.refresh(side);
        self.foes(side)
            .iter()
            .filter(|&&(f, _)| cheb(at, f) <= MUSKET_RANGE)
            .map(|&(_, e)| e)
            .filter(|&e| self.sight(at, self.at(e), unit))
            .filter(|&e| {
                unit != Unit::Skirmishers
                    || forest_allows_skirmish_fire(
                        &self.cell(at),
                        &self.cell(self.at(e)),
                        self.unit(e) == Unit::Skirmishers,
                        cheb(at, self.at(e)),
                    )
            })
            .min_by_key(|&e| (self.pieces.get(e).map_or(0, |p| p.cv), e))
    }

    pub(super) fn skirmishers(&mut self, i: usize) {
        let may_attack = self.pieces.get(i).is_some_and(Piece::may_attack);
        if !may_attack {
            return;
        }
        if self.musket_target(i).is_none() {
            let (side, at) = (self.side(i), self.at(i));
            let goal = self.goal_of(i);
            self.reach(i, SKIRMISHER_MOVE);
            // The best square in musket range of an enemy, else toward the goal.
            let mut best: Option<(u32, f64, Square)> = None;
            for &sq in &self.reached {
                if sq != at && !self.free(sq) {
                    continue;
                }
                if self.in_contact(sq, side) {
                    continue;
                }
                let in_range = self.foes(side).iter().any(|&(f, _)| cheb(f, sq) <= MUSKET_RANGE);
                let key = (u32::from(!in_range), doctrine::dist(centre(sq), goal), sq);
                if best.is_none_or(|b| key.0 < b.0 || (key.0 == b.0 && key.1 < b.1 - 1e-9)) {
                    best = Some(key);
                }
            }
            if let Some((_, _, sq)) = best {
                self.move_to(i, sq);
            }
        }
        if let Some(e) = self.musket_target(i) {
            if self.unit(e) == Unit::Skirmishers {
                self.skirmish(i, e);
            } else {
                self.fire(i, e, SKIRMISH_DICE, Hit::Fire, true);
            }
        }
    }

    pub(super) fn cavalry(&mut self, i: usize) {
        if !self.pieces.get(i).is_some_and(Piece::may_attack) {
            return;
        }
        self.refresh(self.side(i));
        let distance = self.nearest_enemy(i).map_or(u32::MAX, |e| e.1);
        let searched = distance <= CAVALRY_CHARGE + 1;
        if searched
            && let Some((sq, e)) = {
                self.reach(i, CAVALRY_CHARGE);
                self.charge_target(i, true)
            }
        {
            let from = self.at(i);
            self.move_to(i, sq);
            if self.unit(e).is_cavalry() {
                self.cavalry_charge(i, e, 1, from);
            } else {
                self.cavalry_against_foot(i, e, from);
            }
            return;
        }
        if searched {
            // The charge's search already holds the manoeuvre's squares.
            self.shrink_reach(i, CAVALRY_MANOEUVRE);
        } else {
            self.reach(i, CAVALRY_MANOEUVRE);
        }
        let goal = self.goal_of(i);
        if let Some(sq) = self.best_move(i, goal, 2) {
            self.move_to(i, sq);
            self.say_if_posted(i, sq);
        }
    }

    /// Logs a defending unit's arrival at its post.
    pub(super) fn say_if_posted(&mut self, i: usize, sq: Square) {
        if self.pieces.get(i).and_then(|p| p.post) == Some(sq) && self.pieces.get(i).is_some_and(|p| p.moved)
        {
            self.say(|me| format!("{} takes post at {}.", me.name(i), show(sq)));
        }
    }

    pub(super) fn artillery_move(&mut self, i: usize) {
        let unit = self.unit(i);
        let horse = unit == Unit::HorseArtillery;
        if self.has_gun_target(i) {
            if self.pieces.get(i).is_some_and(|p| p.limbered) {
                // Unlimber: foot artillery fires next turn; horse artillery
                // having not moved may fire now.
                if let Some(p) = self.pieces.get_mut(i) {
                    p.limbered = false;
                }
                if horse {
                    self.gun_fire(i);
                }
            } else if horse && !self.pieces.get(i).is_some_and(|p| p.fought) {
                self.gun_fire(i);
            }
            return;
        }
        let full = if horse {
            HORSE_ARTILLERY_MOVE
        } else {
            FOOT_ARTILLERY_MOVE
        };
        // "Limbering up reduces movement by one square."
        let limbered = self.pieces.get(i).is_some_and(|p| p.limbered);
        let budget = if limbered { full } else { full - 1 };
        self.reach(i, budget);
        let goal = self.goal_of(i);
        let post = self
            .gun_position(i, goal)
            .or_else(|| self.best_move(i, goal, GUNS_KEEP_OFF));
        if let Some(sq) = post {
            self.move_to(i, sq);
        }
        if let Some(p) = self.pieces.get_mut(i) {
            p.limbered = true;
        }
        // Horse artillery may "move one square, unlimber and Fire the same turn".
        if horse && self.has_gun_target(i) {
            if let Some(p) = self.pieces.get_mut(i) {
                p.limbered = false;
            }
            self.gun_fire(i);
        }
    }

    /// Artillery takes position: of the squares the battery can reach (the
    /// last [`Battle::reach`]), free, out of contact and at least
    /// [`GUNS_KEEP_OFF`] squares from every enemy, the one nearest `goal`
    /// from which it would have a target in range and in sight, its line of
    /// fire clear of its own troops ("Artillery ... may fire over friendly
    /// troops" only from a hill, Hill squares). None when no such square.
    /// Asked only of a battery with no target where it stands
    /// ([`Battle::artillery_move`] asks that first, and nothing has moved
    /// since), so its own square is not asked again.
    pub(super) fn gun_position(&mut self, i: usize, goal: Point) -> Option<Square> {
        let side = self.side(i);
        self.refresh(side);
        let here = self.at(i);
        // Nearest the goal first; a square is weighed (free, out of contact
        // and of the enemy's reach, a target from it) only until one will do.
        let mut squares = std::mem::take(&mut self.gun_squares);
        squares.clear();
        squares.extend(
            self.reached
                .iter()
                .filter(|&&sq| sq != here)
                .map(|&sq| (doctrine::dist(centre(sq), goal), sq)),
        );
        squares.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let found = squares.iter().map(|&(_, sq)| sq).find(|&sq| {
            self.free(sq)
                && !self.in_contact(sq, side)
                && !self.threatened(side, sq, GUNS_KEEP_OFF)
                && self.has_gun_target_from(i, sq)
        });
        self.gun_squares = squares;
        found
    }

    // ------------------------------------------------------------------------
    // Fire.
}

impl Battle<'_> {
    /// Whether side `side` commits everything it has now
    /// ([`attacker_commits`]).
    pub(super) fn commits(&self, side: usize) -> bool {
        self.roles
            .get(side)
            .is_some_and(|&r| attacker_commits(r, self.turn, self.last_turn))
    }
}

/// Guns keep this many squares from every enemy when they move: the seed's
/// canister range of foot artillery ("Ranges: Canister (3 MR)", Foot
/// Artillery Batteries), so a battery comes into action where its own
/// canister reaches and no enemy can close on it in one infantry move.
pub(super) const GUNS_KEEP_OFF: u32 = 3;

/// Cavalry charges enemy cavalry within its reach whatever the dice:
/// CAVALRY Vs CAVALRY gives the charger the first throw ("the charging unit
/// throws ... Sabres scoring hits") and the charged unit at best an even
/// reply ("If no Flags are thrown, the enemy unit counter-charges
/// simultaneously"; with Flags it "fights at a disadvantage" or "retires or
/// routs"), so waiting to be charged never beats charging. (The doctrine,
/// read from the seed: horse standing off from horse fights no battle.)
pub(super) fn horse_meets_horse(target: Unit) -> bool {
    target.is_cavalry()
}
