//! The plain doctrine (`src/rules/doctrine.rs`) played under Cordery's
//! activations: which stands each side activates, and what each does.
//!
//! The attacker advances on its goal; the defender holds its post on and
//! about the objective, moving only to get there or back to it (after a
//! withdrawal or a charge) or to fill a gap. Both fire at what is in range,
//! and charge when the odds favour it by their general's plan
//! (`doctrine::Plan::charge_favoured` on the expected scores: a D12's mean,
//! 6.5, plus the close-combat additions), moving to the charge if need be.
//! Cavalry, stands with hand-held weapons and pairs look for a charge before
//! they fire; riflemen and gunners fire first. A pair of the same type is
//! activated as one: the stand behind goes where the front stand goes (to a
//! square with room for both) and supports its charge, or stays with it.
//! The General keeps next to as many of his stands as he can, out of
//! contact and, where he can, out of the reach of enemy stands that could
//! fire on him or charge him. Transport stays with the baggage.
//!
//! In the second half of the day a defender pushed off its post about the
//! objective goes back to it before it fires.
//!
//! Each side activates its stands in this order: the General if an enemy
//! stand could strike him where he is (he moves out of reach); those that
//! can fight where they stand, nearest the enemy first; then those with
//! ground to cover or a charge within reach; the General last. Stands with nothing to do are not
//! activated.

use super::battle::{Battle, Piece, centre, neighbours};
use super::movement::Reach;
use super::tables::{ROAD_BONUS, Square, in_front_arc, squares_apart};
use crate::rules::doctrine;
use crate::scenario::Role;

/// Order of activation: a General within the enemy's reach first (to get
/// out of it), then stands able to fight, then those with ground to cover,
/// the General last.
const GENERAL_IN_DANGER: u8 = 0;
const CAN_FIGHT: u8 = 1;
const MUST_MOVE: u8 = 2;
const GENERAL: u8 = 3;

/// What each enemy stand able to strike a square costs it as the
/// General's place (this program's own: a General of the period commanded
/// from behind his line, and the seed's General is a stand of 1 to 3 points
/// that any enemy stand may fire on or charge, his army losing his value
/// in every adjacent stand's combat when he falls; a threat weighs more
/// than the two a square gains for each stand of his next to it).
const GENERAL_THREAT: i32 = 3;

/// How far a defending stand with nothing in range may step from its post
/// to bring the enemy under its fire (this program's own: one square, the
/// line stepping up to the crest or the hedge in front of it, as both sides
/// "close to the range their rules can actually hit at"; the attacker fires
/// as it comes on, and a defender that only waits is shot at first every
/// time the enemy closes).
const STEP_UP_SQUARES: i32 = 1;

/// A square is "at" the goal within this many cells of it.
const AT_GOAL: f64 = 1.5;

impl Battle<'_> {
    /// Side `side` activates up to `allowed` stands or pairs of stands.
    pub(super) fn side_phase(&mut self, side: usize, allowed: u32) {
        self.plan_activations(side);
        let order = std::mem::take(&mut self.order);
        let mut used = 0;
        for &(_, _, i) in &order {
            if used >= allowed {
                break;
            }
            let Some(at) = self
                .pieces
                .get(i)
                .filter(|p| p.on_table() && !p.activated)
                .map(|p| p.at)
            else {
                continue;
            };
            used += 1;
            // ACTIVATION of a stand, or of the pair of stands sharing its square:
            // the front stand acts first, then the one behind it. A pair of
            // the same type acts as one: the stand behind goes where the front
            // stand goes, to support it (note ix), or stays with it.
            let ready = |b: &Self, j: usize| {
                b.pieces
                    .get(j)
                    .is_some_and(|p| p.on_table() && !p.activated && p.side == side)
            };
            let [front, rear] = self.occupants(at);
            let follower = match (front, rear) {
                (Some(f), Some(r)) if ready(self, f) && ready(self, r) && self.pair_of(f, r) => Some(r),
                _ => None,
            };
            if let (Some(f), Some(r)) = (front, follower) {
                if let Some(p) = self.pieces.get_mut(r) {
                    p.activated = true;
                }
                self.act(f, Some(r));
                continue;
            }
            for j in self.occupants(at).into_iter().flatten() {
                if ready(self, j) {
                    self.act(j, None);
                }
            }
        }
        self.order = order;
    }

    /// Orders side `side`'s stands for activation; stands with nothing to do
    /// are left out.
    fn plan_activations(&mut self, side: usize) {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        let mut enemies = std::mem::take(&mut self.enemy_squares);
        enemies.clear();
        enemies.extend(
            self.pieces
                .iter()
                .filter(|p| p.side != side && p.on_table())
                .map(|p| p.at),
        );
        for (i, p) in self.pieces.iter().enumerate() {
            if p.side != side || !p.on_table() || p.activated || p.transport {
                continue;
            }
            // Squares to the nearest enemy stand on the table (`i32::MAX` if none).
            let nearest = enemies
                .iter()
                .map(|&e| squares_apart(p.at, e))
                .min()
                .unwrap_or(i32::MAX);
            let can_fight =
                self.is_front(i) && ((p.fighter() && nearest <= 1) || (p.range > 0 && nearest <= p.range));
            let priority = if p.general && self.threats_to(side, p.at) > 0 {
                GENERAL_IN_DANGER
            } else if p.general {
                GENERAL
            } else if can_fight {
                CAN_FIGHT
            } else if self.wants_to_move(i, nearest) {
                MUST_MOVE
            } else {
                continue;
            };
            order.push((priority, nearest, i));
        }
        order.sort_unstable();
        self.order = order;
        self.enemy_squares = enemies;
    }

    /// Whether stands `f` and `r` sharing a square are a pair that moves
    /// and fights as one: fighting stands of the same type.
    pub(super) fn pair_of(&self, f: usize, r: usize) -> bool {
        match (self.pieces.get(f), self.pieces.get(r)) {
            (Some(a), Some(b)) => a.fighter() && a.kind == b.kind && a.side == b.side,
            _ => false,
        }
    }

    /// Whether stand `i` has ground to cover or may charge: an attacker
    /// short of its goal, a defender off its post, a fighting stand within a
    /// move and a charge of the enemy.
    fn wants_to_move(&self, i: usize, nearest: i32) -> bool {
        let Some(p) = self.pieces.get(i) else {
            return false;
        };
        let may_charge = p.fighter() && nearest <= p.moves + ROAD_BONUS + 1;
        may_charge
            || match self.role(p.side) {
                Role::Attacker => doctrine::dist(centre(p.at), self.goal(p.side)) > AT_GOAL,
                Role::Defender => p.at != p.post || (p.range > 0 && nearest <= p.range + STEP_UP_SQUARES),
            }
    }

    /// ACTIVATION: "When a stand is activated it can move and then engage in
    /// combat or engage the enemy in combat and then move." The doctrine
    /// fights where it stands if it can, else moves and then fights.
    /// `follower`: the stand behind it in a pair, which moves with it.
    fn act(&mut self, i: usize, follower: Option<usize>) {
        let Some(p) = self.pieces.get_mut(i) else {
            return;
        };
        p.activated = true;
        let (at, range, fighter, cavalry) = (p.at, p.range, p.fighter(), p.cavalry);
        if p.general {
            self.place_general(i);
            return;
        }
        if p.transport {
            return;
        }
        if fighter
            && self.may_initiate(i)
            && let Some(t) = self.best_charge_from(i, at)
        {
            self.close_combat(i, t);
            return;
        }
        // Cavalry, stands with hand-held weapons and pairs (the massed
        // charge) look for a charge before firing; riflemen and gunners
        // fire at what is in range first.
        let shock = fighter && (cavalry || range <= 1 || follower.is_some());
        // The move is searched at most once: nothing changes on the table
        // until the stand acts.
        let mut reach = None;
        if shock && self.charge_after_move(i, follower, &mut reach) {
            return;
        }
        // Attacking foot with ground still to cover come on and then fire
        // (ACTIVATION: "it can move and then engage in combat"), rather than
        // stand and fire where the enemy's fire first found them.
        if range > 0
            && self.may_initiate(i)
            && let Some((to, t)) = self.advance_to_fire(i, follower, &mut reach)
        {
            self.move_to(i, to);
            self.follow(i, follower, to);
            let t = self.fire_target(i, to, true).unwrap_or(t);
            self.fire(i, t);
            return;
        }
        // In the second half of the day a defender pushed off its post
        // about the objective goes back to it before it fires, and fires
        // from there: the objective held at the end decides the battle.
        if self.back_to_the_objective(i)
            && let Some(to) = self.destination(i, follower, &mut reach)
        {
            self.move_then_fire(i, follower, to);
            return;
        }
        // Fire where it stands, turning to face the target if need be (the
        // turn is its move).
        if range > 0
            && self.may_initiate(i)
            && let Some(t) = self.fire_target(i, at, false)
        {
            self.fire(i, t);
            return;
        }
        if fighter && !shock && self.charge_after_move(i, follower, &mut reach) {
            return;
        }
        // A defender out of range steps forward from its post to fire.
        if range > 0
            && self.may_initiate(i)
            && let Some((to, t)) = self.step_up_to_fire(i, follower, &mut reach)
        {
            self.move_to(i, to);
            self.follow(i, follower, to);
            self.fire(i, t);
            return;
        }
        if let Some(to) = self.destination(i, follower, &mut reach) {
            self.move_then_fire(i, follower, to);
        }
    }

    /// Whether stand `i` may initiate a combat now. COMBAT: "If there are
    /// two stands in the same square, only the front stand may initiate a
    /// combat"; "A stand may only initiate combat once per turn".
    fn may_initiate(&self, i: usize) -> bool {
        self.is_front(i) && self.pieces.get(i).is_some_and(|p| !p.initiated)
    }

    /// Stand `i` (and the stand behind it in a pair) moves to `to`, then
    /// fires if it may, only within its arc to the front after the move.
    fn move_then_fire(&mut self, i: usize, follower: Option<usize>, to: Square) {
        self.move_to(i, to);
        self.follow(i, follower, to);
        let shoots = self.pieces.get(i).is_some_and(|p| p.range > 0);
        if shoots
            && self.may_initiate(i)
            && let Some(t) = self.fire_target(i, to, true)
        {
            self.fire(i, t);
        }
    }

    /// Whether defending stand `i` is off a post that holds the objective
    /// (within [`doctrine::HOLDS_WITHIN_CELLS`] of its side's goal, as the
    /// judge counts) in the second half of the day (`doctrine::late`). This
    /// program's own: a withdrawal pushes a stand back a square or more, and
    /// a stand that then fired from where it stood, having the enemy in
    /// range, never went back; the attacker's stands took the ring about the
    /// objective and held it at the end in a fifth of the mirror battles of
    /// 40 a side, the defender in one in twenty.
    fn back_to_the_objective(&self, i: usize) -> bool {
        self.pieces.get(i).is_some_and(|p| {
            self.role(p.side) == Role::Defender
                && p.at != p.post
                && doctrine::late(self.turn, self.last_turn)
                && doctrine::dist(centre(p.post), self.goal(p.side)) <= doctrine::HOLDS_WITHIN_CELLS
        })
    }

    /// The stand behind a pair goes where the front stand `i` went, `to`,
    /// if there is room: it reaches any square its front stand does (same
    /// type, same square, same move).
    fn follow(&mut self, i: usize, follower: Option<usize>, to: Square) {
        let Some(r) = follower else {
            return;
        };
        if self.pieces.get(i).is_some_and(|p| p.at == to) && self.has_room(to, r) {
            self.move_to(r, to);
        }
    }

    /// Stand `i` moves to charge, if the odds favour a charge it can reach;
    /// the stand behind it in a pair goes with it and supports it.
    fn charge_after_move(&mut self, i: usize, follower: Option<usize>, reach: &mut Option<Reach>) -> bool {
        let Some((sq, t)) = self.best_charge_after_move(i, follower.is_some(), reach) else {
            return false;
        };
        self.move_to(i, sq);
        self.follow(i, follower, sq);
        if self.is_front(i) {
            self.close_combat(i, t);
        }
        true
    }

    /// The enemy stand adjacent to `from` that stand `i` would best charge,
    /// if the odds favour any.
    fn best_charge_from(&self, i: usize, from: Square) -> Option<usize> {
        let side = self.pieces.get(i)?.side;
        let mut best: Option<(f64, usize)> = None;
        for n in neighbours(from) {
            if !self.enemy_in(n, side) {
                continue;
            }
            let Some(t) = self.front_at(n) else {
                continue;
            };
            if let Some(odds) = self
                .expected_engaged(t)
                .and_then(|theirs| self.charge_odds(i, from, t, theirs))
                && best.is_none_or(|(b, _)| odds > b)
            {
                best = Some((odds, t));
            }
        }
        best.map(|(_, t)| t)
    }

    /// An empty square stand `i` can reach and an enemy stand next to it
    /// that the odds favour charging: the best odds, then the shortest move.
    /// The move is searched first, if any enemy front stand is within it and
    /// a square, and the odds weighed only from the squares it reaches.
    /// `paired`: the stand behind it comes too, adding its support.
    fn best_charge_after_move(
        &self,
        i: usize,
        paired: bool,
        reach: &mut Option<Reach>,
    ) -> Option<(Square, usize)> {
        let me = self.pieces.get(i)?;
        let within = me.moves + ROAD_BONUS;
        // The support in each square weighed, counted once for them all.
        let mut field = None;
        let mut best: Option<(f64, u8, Square, usize)> = None;
        for (t, q) in self.pieces.iter().enumerate() {
            if q.side == me.side
                || !q.on_table()
                || squares_apart(me.at, q.at) > within + 1
                || self.front_at(q.at) != Some(t)
            {
                continue;
            }
            // An enemy front stand within a square of the move: the move is
            // searched (once for all).
            let reach = reach.get_or_insert_with(|| self.reach(i));
            let mut theirs = None;
            for n in neighbours(q.at) {
                // A square the move reaches is on the table and within it.
                let Some(cost) = reach.cost_at(n).filter(|_| n != me.at && self.stands_in(n) == 0) else {
                    continue;
                };
                let Some(theirs) = *theirs.get_or_insert_with(|| self.expected_engaged(t)) else {
                    break;
                };
                let field = field.get_or_insert_with(|| self.support_field(i));
                let mut support = field.at(n).unwrap_or_else(|| self.support(i, n));
                support.same_square += i32::from(paired);
                if let Some(odds) = self.charge_odds_with(i, n, t, theirs, support)
                    && best.is_none_or(|(b, c, _, _)| odds > b || (odds == b && cost < c))
                {
                    best = Some((odds, cost, n, t));
                }
            }
        }
        best.map(|(_, _, sq, t)| (sq, t))
    }

    /// The enemy stand stand `i` would fire on from `from`: the nearest it can
    /// see within range (and within its arc to the front if `in_arc`).
    /// "A stand may only fire at enemy stands they can see. The enemy stand
    /// must be within range and within a 90° arc to the front of the firing
    /// stand" (Fire Combat – General Rules). Only the front stand of a
    /// square can be fired on: the one behind is hidden by it.
    pub(super) fn fire_target(&self, i: usize, from: Square, in_arc: bool) -> Option<usize> {
        let me = self.pieces.get(i)?;
        let origin = centre(from);
        let targets = || {
            self.pieces
                .iter()
                .enumerate()
                .filter(|(_, q)| q.side != me.side && q.on_table())
                .filter(|(_, q)| (1..=me.range).contains(&squares_apart(from, q.at)))
                .filter(|(_, q)| !in_arc || in_front_arc(me.facing, from, q.at))
                .filter(|(k, q)| self.front_at(q.at) == Some(*k))
        };
        // The nearest of all is the nearest it can see, if it can see it:
        // sight is asked of the others only when it cannot.
        let nearest =
            doctrine::nearest_in_range(origin, f64::INFINITY, targets().map(|(k, q)| (k, centre(q.at))))?;
        if self.pieces.get(nearest).is_some_and(|q| self.can_see(from, q.at)) {
            return Some(nearest);
        }
        let seen = targets()
            .filter(|(_, q)| self.can_see(from, q.at))
            .map(|(k, q)| (k, centre(q.at)));
        doctrine::nearest_in_range(origin, f64::INFINITY, seen)
    }

    /// Where stand `i` moves: an attacker to the square nearest its goal, a
    /// defender back to its post; `None` to stay. A pair (`follower`) looks
    /// for a square with room for both.
    fn destination(&self, i: usize, follower: Option<usize>, reach: &mut Option<Reach>) -> Option<Square> {
        let p = self.pieces.get(i)?;
        let target = match self.role(p.side) {
            Role::Attacker => self.goal(p.side),
            Role::Defender if p.at == p.post => return None,
            Role::Defender => centre(p.post),
        };
        let far = |sq: Square| {
            let c = centre(sq);
            (c.0 - target.0).powi(2) + (c.1 - target.1).powi(2)
        };
        let here = far(p.at);
        if here <= 0.25 {
            return None;
        }
        // The reachable square nearest the target, then the cheapest to reach.
        let mut best: Option<(f64, u8, Square)> = None;
        for (sq, cost) in reach.get_or_insert_with(|| self.reach(i)).squares() {
            let d = far(sq);
            if d < here - 1e-9
                && best.is_none_or(|(b, c, _)| d < b || (d == b && cost < c))
                && self.can_stop(i, sq)
                && follower.is_none_or(|r| self.room_for_pair(sq, i, r))
            {
                best = Some((d, cost, sq));
            }
        }
        best.map(|(_, _, sq)| sq)
    }

    /// Where defending stand `i`, with nothing in range, steps to so as to
    /// fire, and on whom: the square nearest its post (then the cheapest to
    /// reach), no farther from the post than [`STEP_UP_SQUARES`], from which
    /// it sees an enemy stand in range within its arc to the front once it
    /// has moved. `None` for an attacker (it fires as it comes on, moving to
    /// its goal).
    fn step_up_to_fire(
        &self,
        i: usize,
        follower: Option<usize>,
        reach: &mut Option<Reach>,
    ) -> Option<(Square, usize)> {
        let p = self.pieces.get(i)?;
        if self.role(p.side) != Role::Defender || p.range <= 0 {
            return None;
        }
        let (post, at, side) = (p.post, p.at, p.side);
        let front = self.front(side);
        // No enemy within its move and its range: nothing to step up to.
        if !self
            .pieces
            .iter()
            .any(|q| q.side != side && q.on_table() && squares_apart(at, q.at) <= p.moves + p.range)
        {
            return None;
        }
        let mut best: Option<(i32, u8, Square)> = None;
        for (sq, cost) in reach.get_or_insert_with(|| self.reach(i)).squares() {
            let from_post = squares_apart(sq, post);
            if sq == at
                || from_post > STEP_UP_SQUARES
                || best.is_some_and(|(b, c, _)| from_post > b || (from_post == b && cost >= c))
                || !self.can_stop(i, sq)
                || follower.is_some_and(|r| !self.room_for_pair(sq, i, r))
            {
                continue;
            }
            best = Some((from_post, cost, sq))
                .filter(|_| self.would_fire_from(i, sq, front).is_some())
                .or(best);
        }
        let (_, _, sq) = best?;
        let t = self.would_fire_from(i, sq, front)?;
        Some((sq, t))
    }

    /// Where attacking infantry stand `i`, with ground still to cover to
    /// its goal, advances to before it fires, and on whom: its
    /// [`Battle::destination`], if it still has an enemy stand in range and
    /// within its arc to the front once there. `None` for a defender, for
    /// guns, machine guns and horse (guns may not close on the enemy, and
    /// horse charge), and where the move would leave it with nothing to fire
    /// on. The seed's fire does not weaken with range (COMBAT, Fire Combat),
    /// so coming on before firing costs the firing nothing; this program's
    /// own reason for it: the attack must reach the objective within the
    /// twelve turns (TURN SEQUENCE), and a line that halts to fire at the
    /// first enemy in range stands off until the turn limit.
    fn advance_to_fire(
        &self,
        i: usize,
        follower: Option<usize>,
        reach: &mut Option<Reach>,
    ) -> Option<(Square, usize)> {
        let p = self.pieces.get(i)?;
        if self.role(p.side) != Role::Attacker || !p.infantry {
            return None;
        }
        let front = self.front(p.side);
        let to = self.destination(i, follower, reach)?;
        let t = self.would_fire_from(i, to, front)?;
        Some((to, t))
    }

    /// The stand `i` would fire on after moving to `sq`, facing as
    /// [`Battle::move_to`] would leave it.
    fn would_fire_from(&self, i: usize, sq: Square, front: super::tables::Facing) -> Option<usize> {
        let at = self.pieces.get(i)?.at;
        let went = super::tables::Facing::toward(at, sq)?;
        let facing = if went.dx * front.dx + went.dy * front.dy > 0 {
            went
        } else {
            front
        };
        let t = self.fire_target(i, sq, false)?;
        let there = self.pieces.get(t)?.at;
        in_front_arc(facing, sq, there).then_some(t)
    }

    /// Whether `sq` has room for the pair `i` and `r`: no other stand in it.
    fn room_for_pair(&self, sq: Square, i: usize, r: usize) -> bool {
        self.occupants(sq).into_iter().flatten().all(|o| o == i || o == r)
    }

    /// The General moves to the square next to most of his fighting stands,
    /// out of contact with the enemy and out of its reach, and not sharing a
    /// square if he can help it. He stays put while he is next to a stand of
    /// his and neither next to an enemy nor within its reach.
    fn place_general(&mut self, i: usize) {
        let Some((at, side)) = self.pieces.get(i).map(|p| (p.at, p.side)) else {
            return;
        };
        let with_his_stands = neighbours(at).any(|n| self.friends_in(n, side));
        if with_his_stands && !self.enemy_adjacent(at, side) && self.threats_to(side, at) == 0 {
            return;
        }
        let reach = self.reach(i);
        let strikers = self.strikers(side);
        let mut fighters = std::mem::take(&mut self.fighters);
        self.count_fighters(i, &mut fighters);
        let threatened = |sq: Square| GENERAL_THREAT.saturating_mul(strikers.count(sq));
        let here = self.general_ground(i, at, self.friends_about(at, &fighters)) - threatened(at);
        // The best square: the highest score, then the cheapest to reach,
        // then the last of equals in the order of `Reach::squares`. Each
        // part of a square's score after twice the stands about it only
        // lowers it, so a square whose score so far could not beat the
        // square he stands on or the best so far is passed over before the
        // rest is looked at: its enemies and sharers, then the threats.
        let mut best: Option<(Square, i32, u8)> = None;
        let may_win = |so_far: i32, best: Option<(Square, i32, u8)>| {
            so_far > here && best.is_none_or(|(_, b, _)| so_far >= b)
        };
        for (sq, cost) in reach.squares() {
            if sq == at || !self.can_stop(i, sq) {
                continue;
            }
            let friends = self.friends_about(sq, &fighters);
            if !may_win(2 * friends, best) {
                continue;
            }
            let ground = self.general_ground(i, sq, friends);
            if !may_win(ground, best) {
                continue;
            }
            let score = ground - threatened(sq);
            if best.is_none_or(|(_, b, c)| score > b || (score == b && cost <= c)) {
                best = Some((sq, score, cost));
            }
        }
        self.fighters = fighters;
        if let Some((sq, score, _)) = best
            && score > here
        {
            self.move_to(i, sq);
        }
    }

    /// How many enemy stands of side `side`'s enemy could strike a lone
    /// stand in `sq` in their next activation: a fighting stand within its
    /// move and a charge, or a stand that fires within its range. (Only the
    /// front stand of a square can be fired on or charged; the General is
    /// alone or in front when he is struck.)
    pub(super) fn threats_to(&self, side: usize, sq: Square) -> i32 {
        count_threats(self.pieces.iter().filter_map(|q| strike_reach(q, side)), sq)
    }

    /// The enemy stands of side `side` that could strike anywhere, each
    /// with its square and how far it strikes ([`Battle::threats_to`]),
    /// found once for the many squares a General weighs.
    fn strikers(&self, side: usize) -> Strikers {
        // Room for every stand at once: a General asks at every activation,
        // and a list grown a push at a time is copied at each growth.
        let n = self.pieces.len();
        let mut strikers = Strikers {
            xs: Vec::with_capacity(n),
            ys: Vec::with_capacity(n),
            reach: Vec::with_capacity(n),
        };
        for ((x, y), reach) in self.pieces.iter().filter_map(|q| strike_reach(q, side)) {
            strikers.xs.push(x);
            strikers.ys.push(y);
            strikers.reach.push(reach);
        }
        strikers
    }

    /// Counts, square by square, the fighting stands of General `i`'s side
    /// in it (`fighters`, one a square, `y * width + x`).
    fn count_fighters(&self, i: usize, fighters: &mut Vec<u8>) {
        let side = self.pieces.get(i).map_or(usize::MAX, |p| p.side);
        fighters.clear();
        fighters.extend(self.squares.iter().map(|places| {
            let mine = places
                .iter()
                .filter_map(|&o| usize::try_from(o).ok())
                .filter(|&o| o != i && self.pieces.get(o).is_some_and(|p| p.side == side && p.fighter()))
                .count();
            u8::try_from(mine).unwrap_or(u8::MAX)
        }));
    }

    /// How many fighting stands of a General's side stand next to `sq`
    /// (`fighters`, [`Battle::count_fighters`]).
    fn friends_about(&self, sq: Square, fighters: &[u8]) -> i32 {
        // Off the table's edge, the three rows about it are one run each.
        if sq.0 > 0
            && sq.1 > 0
            && sq.0 < self.width - 1
            && sq.1 < self.depth - 1
            && let Ok(k) = usize::try_from(sq.1 * self.width + sq.0)
            && let Ok(w) = usize::try_from(self.width)
            && let (Some(above), Some([left, _, right]), Some(below)) = (
                fighters.get(k - w - 1..k - w + 2),
                fighters.get(k - 1..k + 2),
                fighters.get(k + w - 1..k + w + 2),
            )
        {
            let row = |r: &[u8]| r.iter().map(|&n| i32::from(n)).sum::<i32>();
            return row(above) + i32::from(*left) + i32::from(*right) + row(below);
        }
        neighbours(sq)
            .filter_map(|n| self.slot(n).and_then(|k| fighters.get(k)))
            .map(|&n| i32::from(n))
            .sum()
    }

    /// How good `sq` is for General `i` before the enemy's reach is
    /// counted: two for each fighting stand of his next to it (`friends`,
    /// [`Battle::friends_about`]), less ten next to an enemy, less one
    /// sharing a square. Less [`GENERAL_THREAT`] for each enemy stand that
    /// could strike him there, it is the square's score.
    fn general_ground(&self, i: usize, sq: Square, friends: i32) -> i32 {
        let Some(side) = self.pieces.get(i).map(|p| p.side) else {
            return i32::MIN / 2;
        };
        let shared = self.occupants(sq).into_iter().flatten().any(|o| o != i);
        2 * friends - if self.enemy_adjacent(sq, side) { 10 } else { 0 } - i32::from(shared)
    }
}

/// Enemy stand `q` of side `side`'s enemy as a threat: its square and how
/// many squares off it strikes, the farther of its move and a charge (a
/// fighting stand) and its range (one that fires); `None` for a stand of
/// `side`, off the table, a General, transport, or one that strikes nothing.
fn strike_reach(q: &Piece<'_>, side: usize) -> Option<(Square, i32)> {
    if q.side == side || !q.on_table() || q.general || q.transport {
        return None;
    }
    let charge = q.fighter().then_some(q.moves + ROAD_BONUS + 1);
    let fire = (q.range > 0).then_some(q.range);
    charge.max(fire).map(|reach| (q.at, reach))
}

/// The enemy stands that could strike anywhere ([`Battle::strikers`]):
/// their columns, rows and reaches, each in a list of its own, in the same
/// order, so that the count of those that could strike a square is done
/// several at a time.
#[derive(Debug)]
struct Strikers {
    xs: Vec<i32>,
    ys: Vec<i32>,
    reach: Vec<i32>,
}

impl Strikers {
    /// How many could strike `sq`: [`count_threats`] over them.
    fn count(&self, sq: Square) -> i32 {
        self.xs
            .iter()
            .zip(&self.ys)
            .zip(&self.reach)
            .map(|((&x, &y), &reach)| {
                // `squares_apart`, wrapping where it would overflow (it
                // cannot on a table) so that no check stands in the way.
                let apart = x
                    .wrapping_sub(sq.0)
                    .wrapping_abs()
                    .max(y.wrapping_sub(sq.1).wrapping_abs());
                i32::from(apart <= reach)
            })
            .fold(0, i32::wrapping_add)
    }
}

/// How many of `strikers` ([`strike_reach`]) could strike `sq`.
fn count_threats(strikers: impl Iterator<Item = (Square, i32)>, sq: Square) -> i32 {
    let n = strikers
        .filter(|&(at, reach)| squares_apart(at, sq) <= reach)
        .count();
    i32::try_from(n).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::model::{ArmyKind, RuleSetId, StandId, StandKind};
    use crate::scenario::{Area, Objective, ObjectiveKind, Scenario, ScenarioSide, Table, TableStand};

    fn stand(id: u32, at: (f64, f64)) -> TableStand {
        TableStand {
            at: Some(at),
            ..TableStand::fresh(id, StandKind::LineInfantry)
        }
    }

    /// A defender's company posted on the crossroads at (6, 4), an
    /// attacker's next to it.
    fn crossroads() -> Scenario {
        let side = |id: &str, role, y, stands| ScenarioSide {
            id: id.to_owned(),
            name: id.to_owned(),
            army: ArmyKind::Regular,
            role,
            colour: None,
            deployment: Area { x: 0, y, w: 12, h: 3 },
            stands,
            reserves: Vec::new(),
        };
        Scenario {
            title: "test".to_owned(),
            rules: RuleSetId::Cordery2009,
            seed: 0,
            turn_limit: 12,
            table: Table {
                width: 12,
                depth: 12,
                cell_inches: 2.0,
                grid: true,
                terrain: Vec::new(),
            },
            sides: vec![
                side("blue", Role::Defender, 0, vec![stand(1, (6.5, 4.5))]),
                side("red", Role::Attacker, 9, vec![stand(2, (6.5, 5.5))]),
            ],
            objectives: vec![Objective {
                name: "crossroads".to_owned(),
                kind: ObjectiveKind::Crossroads,
                x: 6,
                y: 4,
            }],
            notes: None,
        }
    }

    #[test]
    fn late_in_the_day_a_defender_pushed_off_the_objective_goes_back_before_it_fires() {
        let scenario = crossroads();
        let mut b = Battle::new(&scenario, 1, false);
        let i = b.pieces.iter().position(|p| p.stand.id == StandId(1)).unwrap();
        let post = b.pieces[i].post;
        assert!(doctrine::dist(centre(post), b.goal(0)) <= doctrine::HOLDS_WITHIN_CELLS);
        // Pushed two squares back from its post, the enemy in range.
        let back = (post.0, post.1 - 2);
        b.move_to(i, back);
        assert!(b.fire_target(i, back, false).is_some(), "the enemy is in range");
        b.turn = 2;
        assert!(
            !b.back_to_the_objective(i),
            "early in the day it fires from where it stands"
        );
        b.turn = 7;
        assert!(b.back_to_the_objective(i));
        b.act(i, None);
        let now = b.pieces[i].at;
        assert!(
            squares_apart(now, post) < squares_apart(back, post),
            "it went back toward its post: {now:?}, post {post:?}"
        );
        // On its post, it stays to fight.
        b.move_to(i, post);
        assert!(!b.back_to_the_objective(i));
    }

    /// Horse at the centre of an open table with sixteen enemy stands about
    /// it: more than 64 squares from which a charge is favoured come
    /// before the best, which a general who listed only the first 64 (as
    /// the search did until 29 November) never weighed.
    #[test]
    fn horse_weighs_every_charge_within_its_move() {
        let mut scenario = crossroads();
        scenario.table.width = 24;
        scenario.table.depth = 24;
        let at = |id, kind, (dx, dy): (i32, i32)| TableStand {
            kind,
            strength: kind.roster_points(),
            full: kind.roster_points(),
            at: Some((f64::from(12 + dx) + 0.5, f64::from(12 + dy) + 0.5)),
            ..stand(id, (0.0, 0.0))
        };
        scenario.sides[1].stands = vec![at(100, StandKind::HeavyCavalry, (0, 0))];
        let spots = [-5, -2, 2, 5];
        let mut guards: Vec<_> = spots
            .iter()
            .flat_map(|&dx| spots.iter().map(move |&dy| (dx, dy)))
            .filter(|&spot| spot != (2, 2))
            .zip(1..)
            .map(|(spot, id)| at(id, StandKind::GuardInfantry, spot))
            .collect();
        // Weaker than a guard: the best charge, and the last enemy listed.
        guards.push(at(99, StandKind::NativeSpearmen, (2, 2)));
        scenario.sides[0].stands = guards;
        let mut b = Battle::new(&scenario, 1, false);
        b.plans[1].boldness = doctrine::Boldness::Bold;
        let i = b.pieces.iter().position(|p| p.stand.id == StandId(100)).unwrap();
        let me = b.pieces[i].at;
        let within = b.pieces[i].moves + ROAD_BONUS;
        let reach = b.reach(i);
        // Every favoured charge in the order the search lists them, and the
        // best of those the move reaches: the odds, then the shorter move.
        let mut favoured = Vec::new();
        for t in 0..b.pieces.len() {
            let q = &b.pieces[t];
            if q.side == b.pieces[i].side || b.front_at(q.at) != Some(t) {
                continue;
            }
            for n in neighbours(q.at) {
                if n == me || squares_apart(me, n) > within || !b.on_table(n) || b.stands_in(n) != 0 {
                    continue;
                }
                let theirs = b.expected_engaged(t).unwrap();
                if let Some(odds) = b.charge_odds(i, n, t, theirs) {
                    favoured.push((odds, reach.cost_at(n), n, t));
                }
            }
        }
        let (place, &(odds, cost, sq, t)) = favoured
            .iter()
            .enumerate()
            .filter(|(_, o)| o.1.is_some())
            .reduce(|x, y| {
                if y.1.0 > x.1.0 || (y.1.0 == x.1.0 && y.1.1 < x.1.1) {
                    y
                } else {
                    x
                }
            })
            .unwrap();
        assert!(place >= 64, "{place} favoured charges come before the best");
        assert_eq!(
            b.pieces[t].stand.id,
            StandId(99),
            "the spearmen, at odds {odds:.2} from {sq:?} ({cost:?})"
        );
        assert_eq!(b.best_charge_after_move(i, false, &mut None), Some((sq, t)));
    }

    /// `slot`'s one unsigned test a coordinate agrees with the four
    /// comparisons it replaced, on the table, just off each edge and at
    /// the far ends of the coordinates.
    #[test]
    fn slot_finds_every_square_on_the_table_and_none_off_it() {
        let scenario = crossroads();
        let b = Battle::new(&scenario, 1, false);
        crate::rules::board::assert_slots(b.width, b.depth, |sq| b.slot(sq));
    }

    /// A stand's support in a square, counted with one unsigned test a
    /// coordinate, agrees with the stands of its side found square by square
    /// about it with the four comparisons, on every square of the table and
    /// just off it: stands of both sides stand in the corners and along the
    /// edges, where a square read one past the end of a row would be the
    /// first of the next.
    #[test]
    fn support_counts_the_stands_of_its_side_on_the_table_about_a_square() {
        use super::super::combat::Support;
        let mut scenario = crossroads();
        let at = |k: u32| (f64::from(k % 12) + 0.5, f64::from(k / 12 % 3) + 0.5);
        for k in 0..6 {
            scenario.sides[0].stands.push(stand(10 + k, at(k)));
            scenario.sides[1]
                .stands
                .push(stand(20 + k, (at(k).0, at(k).1 + 9.0)));
        }
        let mut b = Battle::new(&scenario, 1, false);
        let (w, d) = (b.width, b.depth);
        let edges = [(0, 0), (0, 1), (11, 0), (11, 1), (0, 6), (11, 5)];
        for (n, &sq) in edges.iter().enumerate() {
            for (side, row) in [(0, sq), (1, (sq.0, d - 1 - sq.1))] {
                let id = StandId(if side == 0 { 10 } else { 20 } + u32::try_from(n).unwrap());
                let i = b.pieces.iter().position(|p| p.stand.id == id).unwrap();
                b.move_to(i, row);
                assert_eq!(b.pieces[i].at, row, "stand {id:?} to {row:?}");
            }
        }
        let mut checked = 0;
        for (i, me) in b.pieces.iter().enumerate() {
            if !me.on_table() {
                continue;
            }
            for y in -1..=d {
                for x in -1..=w {
                    let mut expected = Support::default();
                    for (nx, ny) in (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy))) {
                        if nx < 0 || ny < 0 || nx >= w || ny >= d {
                            continue;
                        }
                        for o in b.occupants((nx, ny)).into_iter().flatten() {
                            let p = &b.pieces[o];
                            if o == i || p.side != me.side {
                                continue;
                            }
                            if (nx, ny) == (x, y) {
                                expected.same_square += i32::from(p.kind == me.kind);
                            } else if p.general {
                                expected.command += p.value;
                            } else {
                                expected.adjacent += i32::from(p.kind == me.kind);
                            }
                        }
                    }
                    let got = b.support(i, (x, y));
                    assert_eq!(
                        (got.command, got.adjacent, got.same_square),
                        (expected.command, expected.adjacent, expected.same_square),
                        "stand {i} in square ({x}, {y})"
                    );
                    checked += usize::from(expected.adjacent + expected.same_square + expected.command > 0);
                }
            }
        }
        assert!(checked >= 10, "only {checked} squares with any support");
    }

    /// The strikers' count, several at a time, is the count of the
    /// strikers one by one, from every square of the table and round it,
    /// for both sides, as the battle moves.
    #[test]
    fn the_strikers_count_is_the_count_one_by_one() {
        let scenario = crossroads();
        let mut b = Battle::new(&scenario, 1, false);
        let (w, d) = (b.width, b.depth);
        let mut struck = 0;
        for turn in 1..=4 {
            for side in 0..2 {
                let strikers = b.strikers(side);
                let listed: Vec<(Square, i32)> =
                    b.pieces.iter().filter_map(|q| strike_reach(q, side)).collect();
                assert_eq!(strikers.xs.len(), listed.len());
                for y in -2..d + 2 {
                    for x in -2..w + 2 {
                        let one_by_one = count_threats(listed.iter().copied(), (x, y));
                        assert_eq!(strikers.count((x, y)), one_by_one, "side {side} at ({x}, {y})");
                        assert_eq!(b.threats_to(side, (x, y)), one_by_one);
                        struck += usize::from(one_by_one > 0);
                    }
                }
            }
            crate::rules::engine::Turns::phases(&mut b, turn);
        }
        assert!(struck > 0, "some squares are threatened");
    }

    /// A General's count of his stands about a square reads the three rows
    /// about it as runs away from the table's edge: on every square, edges
    /// and corners too, it counts what the eight squares about it hold.
    #[test]
    fn friends_about_a_square_are_the_eight_squares_about_it() {
        let scenario = crossroads();
        let b = Battle::new(&scenario, 1, false);
        let (w, d) = (b.width, b.depth);
        let n = usize::try_from(w * d).unwrap();
        // Counts that differ from square to square (0 to 2, a square's most).
        let fighters: Vec<u8> = (0..n)
            .map(|k| u8::try_from((k * 7 + k / 5) % 3).unwrap())
            .collect();
        for y in 0..d {
            for x in 0..w {
                let eight: i32 = neighbours((x, y))
                    .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < w && ny < d)
                    .map(|(nx, ny)| i32::from(fighters[usize::try_from(ny * w + nx).unwrap()]))
                    .sum();
                assert_eq!(b.friends_about((x, y), &fighters), eight, "square ({x}, {y})");
            }
        }
    }
}
