//! scruby-basic's movement: each stand's advance by the Movement chart, the
//! generals' orders, squares formed against cavalry.

use super::*;

impl Battle<'_> {
    /// Moves stand `i` up to its allowance toward `to`, stopping `short`
    /// inches from it; road and slope by the Movement chart.
    pub(super) fn advance(&mut self, i: usize, to: Point, going: Going, short: f64) {
        let Some(from) = self.u(i).map(|u| u.at) else {
            return;
        };
        let mut d = doctrine::dist(from, to) - short;
        if d <= EPSILON {
            return;
        }
        // Where water lies between, the stand makes for where it would stop
        // by the way round: the bridge or ford ([`crate::rules::route`]).
        let mut to = to;
        let stop = doctrine::step_toward(from, to, d);
        if let Some(aim) = self.routes.round_water(self.board, from, stop) {
            to = aim;
            d = doctrine::dist(from, to);
            if d <= EPSILON {
                return;
            }
        }
        let Some(u) = self.u(i) else { return };
        let mut going = going;
        let start = self.cell(from);
        let base = u.move_of(going) * self.scale;
        let probe = doctrine::step_toward(from, to, base.min(d));
        if going == Going::Column && start.road && self.cell(probe).road {
            going = Going::Road;
        }
        let mut allowance = u.move_of(going) * self.scale;
        let end_level = self.cell(doctrine::step_toward(from, to, allowance.min(d))).level;
        if let Some(t) = u.troop
            && end_level != start.level
        {
            allowance = (allowance + slope_inches(t, end_level > start.level) * self.scale).max(0.0);
        }
        // Water stops a stand at its edge (no chart figure: it does not
        // cross): the way is looked at all along, not only where it ends.
        let dest = self.dry_reach(from, doctrine::step_toward(from, to, allowance.min(d)));
        if self.cell(dest).is_water() || !self.on_table(dest) || doctrine::dist(from, dest) <= EPSILON {
            return;
        }
        if let Some(u) = self.units.get_mut(i) {
            u.moved += doctrine::dist(from, dest);
            u.at = dest;
            if u.is(Troop::is_infantry) {
                self.front = None;
            }
        }
    }

    pub(super) fn move_side(&mut self, side: usize) {
        self.list_present();
        self.front = None;
        self.mark_engaged(side);
        self.list_guns(side);
        self.forming = self.forming_on_guns(side);
        for i in 0..self.units.len() {
            if self.u(i).is_some_and(|u| u.side == side && u.fighting()) {
                self.move_stand(i);
            }
        }
    }

    /// The doctrine's move for stand `i`.
    pub(super) fn move_stand(&mut self, i: usize) {
        let Some(u) = self.u(i) else { return };
        let (side, role) = (u.side, self.side(u.side).role);
        let (plan, rear, cell) = (self.side(side).plan, self.side(side).rear, self.board.cell_inches);
        let post = u.post;
        let goal = post.unwrap_or(self.side(side).goal);
        // The attacker concentrates: every stand makes for the goal, wide on
        // the flank its general's plan attacks while far from it.
        // Under the enemy's guns the attack goes straight in: no swing to
        // the flank, no wing holding back (this program's doctrine: a
        // stand that stands or marches wide under artillery fire only
        // loses companies; Artillery 2, range 18"); so does all of it while
        // its foot forms to storm the guns ([`Self::forming_on_guns`]).
        let under_guns = role == Role::Attacker && (self.forming || self.under_gun_fire(i));
        let goal = if post.is_none() && role == Role::Attacker && !under_guns {
            plan.aim(u.at, goal, rear, cell)
        } else {
            goal
        };
        if role == Role::Attacker && !under_guns && plan.waits(u.across, self.turn) {
            return; // the trailing wing of an attack in echelon
        }
        let Some(troop) = u.troop else {
            // Command and transport follow the middle of their side.
            let mut n = 0.0;
            let mut c = (0.0, 0.0);
            for (_, f) in self
                .side_units(side)
                .filter(|(_, f)| f.side == side && f.combatant())
            {
                c = (c.0 + f.at.0, c.1 + f.at.1);
                n += 1.0;
            }
            if n > 0.0 {
                self.advance(i, (c.0 / n, c.1 / n), Going::Open, RANK_INCHES);
            }
            return;
        };
        if let Charge::Pursuit(t) = u.charge {
            // Pursuers follow the beaten troops into contact.
            if let Some(at) = self.u(t).filter(|t| t.fighting()).map(|t| t.at) {
                self.advance(i, at, Going::Column, CONTACT_INCHES);
            }
            return;
        }
        if u.shaken_until >= self.turn {
            return; // "no forward movement or offensive action for one game move"
        }
        let nearest = self.nearest_enemy(i, |_| true);
        if troop.is_infantry() && u.formation == Formation::Square && self.threatened_by_cavalry(i) {
            return; // the square stands
        }
        let range = musket_range(troop, 0).unwrap_or(6.0) * self.scale;
        let reach = move_inches(troop, Going::Column) * self.scale;
        let far = range + reach + move_inches(troop, Going::Open) * self.scale;
        let at = self.u(i).map_or((0.0, 0.0), |u| u.at);
        // The attacker's foot come on in attack column (The Melee 2) and
        // deploy into line a column move from the musket range of enemy
        // foot or horse; at guns, whose fire takes no account of the
        // formation, they keep the column to the charge (deploying only
        // within musket range). Others deploy a column move and an open move
        // from musket range.
        let at_guns = nearest
            .and_then(|(j, _)| self.u(j))
            .is_some_and(|e| e.is(|t| t == Troop::Artillery));
        let deploy_at = match (role, troop.is_infantry(), at_guns) {
            (Role::Attacker, true, true) => range,
            (Role::Attacker, true, false) => range + reach,
            _ => far,
        };
        let formation = match nearest {
            Some((_, d)) if d <= deploy_at + EPSILON => Formation::Line,
            _ => Formation::Column,
        };
        if let Some(u) = self.units.get_mut(i) {
            u.formation = formation;
        }
        let going = if formation == Formation::Column {
            Going::Column
        } else {
            Going::Open
        };
        // The defender holds its post; off good ground, it meets an enemy
        // come close as the attacker does.
        let near = |reach: f64| nearest.is_some_and(|(_, d)| d <= reach + EPSILON);
        let strong_post = post.is_some_and(|p| self.defensive(p, side));
        let hold = |engaged: bool| role == Role::Defender && post.is_some() && (strong_post || !engaged);
        match troop {
            Troop::Artillery => {
                let gun_range = artillery_range(self.cell(at).level) * self.scale;
                let in_range = nearest.is_some_and(|(_, d)| d <= gun_range);
                if hold(near(gun_range * ENGAGE_FACTOR)) || in_range {
                    if !in_range {
                        self.advance(i, goal, going, 0.0);
                    }
                } else {
                    let to = nearest.and_then(|(j, _)| self.u(j)).map_or(goal, |e| e.at);
                    // A gun that a move of 2 inches brings within range of
                    // the enemy moves only that and fires (Artillery 1:
                    // "Cannons can move 2″ and fire that move"); farther
                    // off it marches up to within an inch of its range.
                    let unlimber = GUN_MOVE_AND_FIRE_INCHES * self.scale;
                    let short = match nearest {
                        Some((_, d)) if d <= gun_range + unlimber + EPSILON => d - unlimber,
                        _ => gun_range - 1.0,
                    };
                    self.advance(i, to, going, short);
                }
            }
            Troop::LightCavalry | Troop::HeavyCavalry => {
                let standoff = 6.0 * self.scale + CAVALRY_STANDOFF_INCHES;
                if hold(near((standoff + reach) * ENGAGE_FACTOR)) {
                    self.advance(i, goal, going, 0.0);
                    return;
                }
                // Horse that will not charge steps back from enemy foot
                // that could fire on it this game move
                // ([`Self::foot_closing_on`]).
                if let Some(away) = self.foot_closing_on(i).filter(|_| !self.will_charge(i)) {
                    self.advance(i, away, going, 0.0);
                    return;
                }
                let to = nearest.and_then(|(j, _)| self.u(j)).map_or(goal, |e| e.at);
                // The horse follows its foot's advance a little behind it
                // until the foot is within musket range (this program's
                // doctrine: horse ahead of its infantry is shot to pieces
                // by guns it cannot reach, Artillery 2; close behind, it
                // is there to charge the horse that charges its foot).
                let short = match self.foot_front_unengaged(side) {
                    Some(front) => standoff.max(front + RANK_INCHES),
                    None => standoff,
                };
                self.advance(i, to, going, short);
            }
            _ => {
                let engage = if role == Role::Defender {
                    far * ENGAGE_FACTOR
                } else {
                    far
                };
                let fighting = if role == Role::Defender && !near(range) {
                    self.nearest_engaged(i)
                } else {
                    None
                };
                if let Some(to) = fighting {
                    // The reserves march to the fighting, to musket range.
                    self.advance(i, to, going, range);
                } else if role == Role::Attacker && at_guns && self.forming && !near(range) {
                    // Foot going in against guns halts just outside their
                    // canister until enough of it can go in together to
                    // kill a gun ([`Self::forming_on_guns`]).
                    let to = nearest.and_then(|(j, _)| self.u(j)).map_or(goal, |e| e.at);
                    self.advance(i, to, going, range + ASSAULT_EDGE_INCHES);
                } else if hold(near(engage)) {
                    self.advance(i, goal, going, 0.0);
                } else {
                    let short = reach.min(range);
                    match nearest {
                        Some((j, d)) if d <= engage + EPSILON => {
                            let to = self.u(j).map_or(goal, |e| e.at);
                            self.advance(i, to, going, short);
                        }
                        _ => self.advance(i, goal, going, 0.0),
                    }
                }
            }
        }
    }

    /// Where horse `i` steps back to when enemy foot could fire on it this
    /// game move: straight away from the foot nearest to that, to beyond
    /// its musket range and, while the foot has still to move, its column
    /// move; `None` when no foot could. This program's doctrine: horse that
    /// stands under musketry it will not charge only loses troops (Musket
    /// Fire 1: 6″, more from a height; Movement chart: foot 4″ in column),
    /// and a side "retires by its own decision" when it will (Judging the
    /// Morale 5); horse that will charge stays ([`Self::will_charge`]).
    fn foot_closing_on(&self, i: usize) -> Option<Point> {
        let me = self.u(i)?;
        // The enemy's foot has still to move when the horse's side moves first.
        let still_to_move = me.side == self.first;
        // (how far inside its reach, the foot, its distance)
        let mut worst: Option<(f64, Point, f64)> = None;
        for e in self.enemies(me.side) {
            let Some(keep) = self.foot_reach(e.troop, e.at, still_to_move) else {
                continue;
            };
            let d = doctrine::dist(me.at, e.at);
            if d < keep && worst.is_none_or(|(w, ..)| keep - d > w) {
                worst = Some((keep - d, e.at, d));
            }
        }
        let (short, from, d) = worst?;
        let k = short / d.max(EPSILON);
        Some((me.at.0 + (me.at.0 - from.0) * k, me.at.1 + (me.at.1 - from.1) * k))
    }

    /// How far horse keeps from enemy foot of `troop` at `at` so that it
    /// cannot fire on the horse this game move: beyond its musket range (6″,
    /// more from a height: Musket Fire 1) and, if it has `still_to_move`,
    /// its column move (Movement chart), and [`CAVALRY_STANDOFF_INCHES`]
    /// more; `None` for troops that are not foot.
    fn foot_reach(&self, troop: Troop, at: Point, still_to_move: bool) -> Option<f64> {
        if !troop.is_infantry() {
            return None;
        }
        let range = musket_range(troop, self.cell(at).level)?;
        let closing = if still_to_move {
            move_inches(troop, Going::Column)
        } else {
            0.0
        };
        Some((range + closing) * self.scale + CAVALRY_STANDOFF_INCHES)
    }

    /// Whether side `side`, attacking, is forming its foot to storm the
    /// enemy's guns: some of its foot able to act stand within a column move
    /// of musket range of an enemy gun (where they stand as the move begins),
    /// but fewer than it takes to kill a gun by the Combat Table (eight Line
    /// stands to a 4-model stand, five by "One stand over one-half required
    /// to kill is counted as full amount", [`kills`]) and fewer than all its
    /// foot (this program's doctrine: companies that go in one or two at a
    /// time are cut down by the canister, Artillery 7, without killing a
    /// gun; the attack goes in together).
    ///
    /// The enemy guns are those listed as the move begins ([`Battle::guns`]).
    fn forming_on_guns(&self, side: usize) -> bool {
        let guns = &self.guns;
        if guns.is_empty() || self.side(side).role != Role::Attacker {
            return false;
        }
        let required = stands_to_kill(KillRow::LineLight, Troop::Artillery.models());
        let need = (1..=required)
            .find(|&n| kills(n, required) > 0)
            .unwrap_or(required);
        let (mut foot, mut ready) = (0_u32, 0_u32);
        for (j, u) in self.side_units(side) {
            if u.side != side || !u.fighting() || !u.is(Troop::is_infantry) || !self.can_act(j) {
                continue;
            }
            foot += 1;
            let Some(troop) = u.troop else { continue };
            let reach =
                (musket_range(troop, 0).unwrap_or(6.0) + move_inches(troop, Going::Column)) * self.scale;
            if guns
                .iter()
                .any(|&(g, _)| doctrine::dist(u.at, g) <= reach + EPSILON)
            {
                ready += 1;
            }
        }
        ready > 0 && ready < need.min(foot)
    }

    /// Lists the enemy guns of side `side`, as last listed, with the reach
    /// of their fire ([`Battle::guns`]): they stand still while it moves.
    fn list_guns(&mut self, side: usize) {
        let mut guns = std::mem::take(&mut self.guns);
        guns.clear();
        guns.extend(
            self.enemies(side)
                .iter()
                .filter(|e| e.troop == Troop::Artillery)
                .map(|e| {
                    (
                        e.at,
                        artillery_range(self.cell(e.at).level) * self.scale + EPSILON,
                    )
                }),
        );
        self.guns = guns;
    }

    /// Whether stand `i` of the side moving stands within the range of an
    /// enemy gun able to fire (Artillery 2), its guns as listed when the
    /// move began.
    fn under_gun_fire(&self, i: usize) -> bool {
        let Some(me) = self.u(i) else { return false };
        self.guns
            .iter()
            .any(|&(at, reach)| doctrine::dist(me.at, at) <= reach)
    }

    /// How near the foremost foot of side `side` stands to its nearest
    /// enemy, while none of its foot is within musket range of an enemy;
    /// `None` once one is, or when it has no foot or the enemy no
    /// combatant. One pass over the pairs, stopping at the first in range;
    /// kept while side `side` moves, until one of its foot moves.
    fn foot_front_unengaged(&mut self, side: usize) -> Option<f64> {
        if let Some(front) = self.front {
            return front;
        }
        let front = self.foot_front(side);
        self.front = Some(front);
        front
    }

    /// [`Self::foot_front_unengaged`] worked out: side `side`'s own foot
    /// where they stand now, its enemy as last listed (it does not move).
    fn foot_front(&self, side: usize) -> Option<f64> {
        let range = musket_range(Troop::Fusilier, 0).unwrap_or(0.0) * self.scale;
        // The least squared distance, its root taken at the end: the same
        // as the least distance (the root is monotonic).
        let mut front: Option<f64> = None;
        let enemies = self.enemies(side);
        for f in &self.units {
            if f.side != side || !f.combatant() || !f.is(Troop::is_infantry) {
                continue;
            }
            for e in enemies {
                let d2 = (f.at.0 - e.at.0).powi(2) + (f.at.1 - e.at.1).powi(2);
                // `doctrine::dist(f.at, e.at)`, the same sum's root.
                if d2.sqrt() <= range + EPSILON {
                    return None;
                }
                if front.is_none_or(|x| d2 < x) {
                    front = Some(d2);
                }
            }
        }
        front.map(f64::sqrt)
    }

    /// Marks the enemies of side `side` within musket range of one of its
    /// combatants: where the fighting is (both sides as just listed).
    fn mark_engaged(&mut self, side: usize) {
        let range = musket_range(Troop::Fusilier, 0).unwrap_or(0.0) * self.scale;
        let mut engaged = std::mem::take(&mut self.engaged);
        engaged.clear();
        engaged.resize(self.units.len(), false);
        let mine = self.present(side);
        for e in self.enemies(side) {
            let hot = !self.present_bounds.beyond(side, e.at, range + EPSILON)
                && mine.iter().any(|f| doctrine::dist(f.at, e.at) <= range + EPSILON);
            if let Some(x) = engaged.get_mut(e.i) {
                *x = hot;
            }
        }
        self.engaged = engaged;
    }

    /// Where a defender's company with no enemy in musket range marches
    /// to: the nearest enemy its side is fighting (this program's doctrine:
    /// the reserves march to the fighting rather than stand idle at their
    /// posts while the attack beats the line company by company).
    fn nearest_engaged(&self, i: usize) -> Option<Point> {
        let me = self.u(i)?;
        self.units
            .iter()
            .enumerate()
            .filter(|(j, _)| self.engaged.get(*j).copied().unwrap_or(false))
            .map(|(_, e)| (doctrine::dist(me.at, e.at), e.at))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
    }

    /// A rough fighting value of the stands of `side` within `radius` of
    /// `at`, for the doctrine's choice of charges.
    pub(super) fn strength_near(&self, side: usize, at: Point, radius: f64, attacking_position: bool) -> f64 {
        let r2 = (radius + EPSILON) * (radius + EPSILON);
        let mut sum = 0.0;
        for u in &self.units {
            if u.side != side || !u.combatant() {
                continue;
            }
            let (dx, dy) = (u.at.0 - at.0, u.at.1 - at.1);
            if dx * dx + dy * dy <= r2 {
                let elite = u.troop.is_some_and(Troop::is_elite);
                sum += if attacking_position && !elite {
                    u.power * 0.5
                } else {
                    u.power
                };
            }
        }
        sum
    }

    /// The doctrine's value of stand `t` and its friends within 2 inches,
    /// 50% more in a house; kept in `cache`.
    pub(super) fn defence_near(&self, t: usize, cache: &mut [Option<f64>]) -> f64 {
        if let Some(Some(v)) = cache.get(t) {
            return *v;
        }
        let Some(e) = self.u(t) else { return 0.0 };
        let v = self.strength_near(e.side, e.at, 2.0 * self.scale, false)
            * house_defence_factor(self.house(e.at));
        if let Some(c) = cache.get_mut(t) {
            *c = Some(v);
        }
        v
    }

    /// Fire and charge, and special cavalry charges, ordered before combat,
    /// each side's combatants as listed after the moves.
    pub(super) fn orders(&mut self) {
        self.deploy_in_range();
        self.form_squares();
        // The defence of each stand charged, worked out once.
        let mut cache: Vec<Option<f64>> = vec![None; self.units.len()];
        // The stands that may fire and charge each enemy stand
        // ([`Self::volley_group`]), worked out once until a charge is
        // ordered (those charging are out of every group).
        let mut groups: Vec<Option<Vec<usize>>> = vec![None; self.units.len()];
        for i in 0..self.units.len() {
            if !self.can_act(i) {
                continue;
            }
            let Some(u) = self.u(i) else { continue };
            let Some(troop) = u.troop else { continue };
            if u.formation == Formation::Square || u.charge != Charge::None {
                continue;
            }
            let (side, at) = (u.side, u.at);
            let reach = move_inches(troop, Going::Column) * self.scale + CONTACT_INCHES;
            if troop.is_cavalry() {
                let Some(t) = self.charge_target(i, 0.0) else {
                    continue;
                };
                let chargers = self.chargers_at(i, t);
                if self.cavalry_charge_pays(side, &chargers, t) {
                    self.set_charge(i, Charge::Cavalry(t));
                    groups.fill(None);
                    let (me, them) = (self.name(i), self.name(t));
                    self.log
                        .say(self.turn, || format!("{me} order a cavalry charge at {them}"));
                }
            } else if let Some(range) = musket_range(troop, self.cell(at).level) {
                // A defender in a defensive position holds it and fires: it
                // does not leave it to charge (this program's doctrine).
                if self.side(side).role == Role::Defender && self.defensive(at, side) {
                    continue;
                }
                let within = (range * self.scale).min(reach) + EPSILON;
                // The general picks, among the enemy stands his foot can
                // fire and charge, the one where his odds are best: a
                // stand in the open before one behind a wall, a lone
                // company before a supported one (this program's doctrine;
                // Moving Stands 11 halves the attack on a defensive
                // position).
                let mut best: Option<(f64, usize, f64, f64)> = None;
                let enemies = if self.present_bounds.beyond(1 - side.min(1), at, within) {
                    &[][..]
                } else {
                    self.enemies(side)
                };
                for e in enemies {
                    let t = e.i;
                    if doctrine::dist(at, e.at) > within || !self.dry_way(at, e.at) {
                        continue;
                    }
                    let position = self.defensive(e.at, 1 - side);
                    if let Some(g) = groups.get_mut(t).filter(|g| g.is_none()) {
                        *g = Some(self.volley_group(side, t));
                    }
                    let group = groups.get(t).and_then(Option::as_deref).unwrap_or(&[]);
                    let mine: f64 = group
                        .iter()
                        .filter_map(|&j| self.u(j))
                        .map(|u| {
                            let elite = u.troop.is_some_and(Troop::is_elite);
                            if position && !elite {
                                u.power * 0.5
                            } else {
                                u.power
                            }
                        })
                        .sum();
                    let theirs = self.defence_near(t, &mut cache);
                    let odds = mine / theirs.max(1e-9);
                    if best.as_ref().is_none_or(|b| odds > b.0 + EPSILON) {
                        best = Some((odds, t, mine, theirs));
                    }
                }
                let Some((_, t, mine, theirs)) = best else {
                    continue;
                };
                if self.favoured(side, mine, theirs) {
                    let group = groups.get_mut(t).and_then(Option::take).unwrap_or_default();
                    groups.fill(None);
                    for &j in &group {
                        self.set_charge(j, Charge::Volley(t));
                    }
                    let (me, them, n) = (self.name(i), self.name(t), group.len());
                    self.log.say(self.turn, || {
                        format!("{me} call 'fire and charge' at {them} ({n} stands)")
                    });
                }
            }
        }
        self.withhold_for_charges();
    }

    /// Whether horse `i` is to charge this game move, so does not step back
    /// from the foot closing on it ([`Self::foot_closing_on`]). Either an
    /// enemy it may charge is within reach ([`Self::charge_target`]), is not
    /// foot that forms square against it as the horse stands now
    /// ([`Self::threatened_by_cavalry`]), and the charge pays as its general
    /// weighs it ([`Self::cavalry_charge_pays`]); or its side attacks late
    /// in the day and must close whatever it costs, and an enemy it may
    /// charge is within its move and a charge (it closes on the enemy
    /// nearest it first; the foot before it may yet form square, leaving it
    /// a gun or horse to ride at once the orders are given).
    fn will_charge(&self, i: usize) -> bool {
        let Some((side, troop)) = self.u(i).and_then(|u| Some((u.side, u.troop?))) else {
            return false;
        };
        if self.must_close(side) {
            return self
                .charge_target(i, move_inches(troop, Going::Column) * self.scale)
                .is_some();
        }
        self.charge_target(i, 0.0).is_some_and(|t| {
            !(self.u(t).is_some_and(|e| e.is(Troop::is_infantry)) && self.threatened_by_cavalry(t))
                && self.cavalry_charge_pays(side, &self.chargers_at(i, t), t)
        })
    }

    /// The enemy stand horse `i` may charge this game move: the nearest
    /// that is not foot in square (Special Moves 2), within a column move
    /// and the inch of contact (and `beyond` that), not foot in walls or
    /// woods, and not across water (no chart figure: it is not crossed).
    fn charge_target(&self, i: usize, beyond: f64) -> Option<usize> {
        let u = self.u(i)?;
        let troop = u.troop?;
        let at = u.at;
        let reach = move_inches(troop, Going::Column) * self.scale + CONTACT_INCHES;
        let ok = |e: &Unit<'_>| {
            !e.is(Troop::is_infantry) || cavalry_may_charge(false, e.formation == Formation::Square, false)
        };
        let (t, d) = self.nearest_enemy(i, ok)?;
        let target = self.u(t).map_or(at, |e| e.at);
        if d > reach + beyond + EPSILON
            || (self.u(t).is_some_and(|e| e.is(Troop::is_infantry)) && self.walls_or_woods(target))
            || !self.dry_way(at, target)
        {
            return None;
        }
        Some(t)
    }

    /// Horse `i` with the rest of its side's horse that could ride at stand
    /// `t` this game move: the general weighs a charge as the melee will be
    /// fought.
    fn chargers_at(&self, i: usize, t: usize) -> Vec<usize> {
        let Some(side) = self.u(i).map(|u| u.side) else {
            return Vec::new();
        };
        let target = self.u(t).map_or((0.0, 0.0), |e| e.at);
        std::iter::once(i)
            .chain((0..self.units.len()).filter(|&k| {
                k != i
                    && self.can_act(k)
                    && self.u(k).is_some_and(|f| {
                        f.side == side
                            && f.is(Troop::is_cavalry)
                            && (f.charge == Charge::None || f.charge == Charge::Cavalry(t))
                            && doctrine::dist(f.at, target)
                                <= f.move_of(Going::Column) * self.scale + CONTACT_INCHES + EPSILON
                    })
            }))
            .collect()
    }

    /// The stands of `side` that may fire and charge stand `t` this game
    /// move: foot and light cavalry able to act, not in square nor charging
    /// already, with `t` in musket (or carbine) range and within a column
    /// move of contact (Fire and Charge 1, 4; this program's doctrine: a
    /// defender in a defensive position holds it).
    fn volley_group(&self, side: usize, t: usize) -> Vec<usize> {
        let Some(tat) = self.u(t).map(|e| e.at) else {
            return Vec::new();
        };
        self.side_units(side)
            .filter(|&(j, u)| {
                let Some(troop) = u.troop else { return false };
                if u.side != side
                    || !self.can_act(j)
                    || u.formation == Formation::Square
                    || u.charge != Charge::None
                    || (self.side(side).role == Role::Defender && self.defensive(u.at, side))
                {
                    return false;
                }
                let Some(range) = musket_range(troop, self.cell(u.at).level) else {
                    return false;
                };
                let reach = move_inches(troop, Going::Column) * self.scale + CONTACT_INCHES;
                doctrine::dist(u.at, tat) <= (range * self.scale).min(reach) + EPSILON
                    && self.dry_way(u.at, tat)
            })
            .map(|(j, _)| j)
            .collect()
    }

    /// Foot that came on in column and ended its move within musket range
    /// of an enemy deploys into line to fire (this program's reading: the
    /// seed sets no cost on changing formation; "Two ranks of Infantry ...
    /// are counted for musket fire", Musket Fire 7).
    fn deploy_in_range(&mut self) {
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(u.combatant() && u.formation == Formation::Column && u.is(Troop::is_infantry)) {
                continue;
            }
            let Some(range) = u.troop.and_then(|t| musket_range(t, self.cell(u.at).level)) else {
                continue;
            };
            let range = range * self.scale;
            // None within range when the box about the enemy is beyond it
            // (exact as computed: `Bounds`).
            if self
                .present_bounds
                .beyond(1 - u.side.min(1), u.at, range + EPSILON)
            {
                continue;
            }
            if self
                .nearest_enemy(i, |_| true)
                .is_some_and(|(_, d)| d <= range + EPSILON)
                && let Some(u) = self.units.get_mut(i)
            {
                u.formation = Formation::Line;
            }
        }
    }

    /// Infantry within an enemy cavalry charge, and no enemy infantry near,
    /// form square "at the double" (The Melee 3.2); others leave square.
    pub(super) fn form_squares(&mut self) {
        for i in 0..self.units.len() {
            let Some(u) = self.u(i) else { continue };
            if !(u.combatant() && u.is(Troop::is_infantry)) || matches!(u.charge, Charge::Pursuit(_)) {
                continue;
            }
            let (at, was) = (u.at, u.formation);
            let square = self.threatened_by_cavalry(i) && !self.walls_or_woods(at);
            if square != (was == Formation::Square) {
                if let Some(u) = self.units.get_mut(i) {
                    u.formation = if square {
                        Formation::Square
                    } else {
                        Formation::Line
                    };
                }
                if square {
                    let name = self.name(i);
                    self.log
                        .say(self.turn, || format!("{name} form square against cavalry"));
                }
            }
        }
    }

    /// Enemy cavalry within a charge of stand `i`, and no enemy infantry
    /// within half again its musket range.
    pub(super) fn threatened_by_cavalry(&self, i: usize) -> bool {
        let enemy = self.u(i).map_or(0, |u| 1 - u.side.min(1));
        if !self.cavalry.get(enemy).copied().unwrap_or(false) {
            return false;
        }
        let Some(me) = self.u(i) else { return false };
        // No cavalry within a charge when the box about the enemy is beyond
        // the longest (exact as computed: `Bounds`).
        let charge = |t: Troop| move_inches(t, Going::Column) * self.scale + CONTACT_INCHES + 2.0;
        let longest = charge(Troop::LightCavalry).max(charge(Troop::HeavyCavalry));
        if self.present_bounds.beyond(enemy, me.at, longest) {
            return false;
        }
        let mut threat = false;
        for e in self.enemies(me.side) {
            let t = e.troop;
            let d = doctrine::dist(me.at, e.at);
            if t.is_infantry() && d <= 6.0 * self.scale * 1.5 {
                return false;
            }
            if t.is_cavalry() && d <= charge(t) {
                threat = true;
            }
        }
        threat
    }

    /// Whether side `side`'s general orders a charge at these odds this
    /// game move (its plan's boldness, bolder late in the day).
    pub(super) fn favoured(&self, side: usize, mine: f64, theirs: f64) -> bool {
        self.side(side)
            .plan
            .charge_favoured(self.turn, self.scenario.turn_limit, mine, theirs)
    }

    pub(super) fn set_charge(&mut self, i: usize, c: Charge) {
        if let Some(u) = self.units.get_mut(i) {
            u.charge = c;
        }
    }
}
