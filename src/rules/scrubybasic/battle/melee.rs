//! scruby-basic's melee: charges, cavalry charges and pursuit, each melee
//! fought by the Combat Table's melee rows.

use super::*;
use crate::model::text::quantity;

/// A melee lined up ([`Battle::line_up`]): who fights on each side, nearest
/// the target first, and the kill power each brings against stands of 2, 3
/// and 4 models.
pub(super) struct Lineup {
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    pub att_pool: [f64; 3],
    pub def_pool: [f64; 3],
    /// The target caught in flank or rear.
    pub caught: bool,
    /// The target holds a house.
    pub house: bool,
    /// The target holds a defensive position.
    pub position: bool,
    /// The target's side.
    pub side: usize,
}

impl Battle<'_> {
    /// 5, 6. Melees of fire and charge and of pursuit, each judged.
    pub(super) fn melees(&mut self) {
        let mut charged = vec![false; self.units.len()];
        for u in &self.units {
            if let Charge::Volley(x) | Charge::Pursuit(x) = u.charge
                && let Some(c) = charged.get_mut(x)
            {
                *c = true;
            }
        }
        for t in self.target_order() {
            if !charged.get(t).copied().unwrap_or(false) {
                continue;
            }
            let attackers: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    self.u(i).is_some_and(|u| {
                        u.combatant()
                            && !u.fought
                            && matches!(u.charge, Charge::Volley(x) | Charge::Pursuit(x) if x == t)
                    })
                })
                .collect();
            if attackers.is_empty() {
                continue;
            }
            let ok = self.u(t).is_some_and(|e| e.combatant() && !e.fought);
            let reach_ok: Vec<usize> = attackers
                .iter()
                .copied()
                .filter(|&a| {
                    // Fire and charge: still in contact after the morale;
                    // pursuit: the beaten stand within the cavalry's move.
                    let reach = match self.u(a).map(|u| (u.charge, u.move_of(Going::Column))) {
                        Some((Charge::Pursuit(_), m)) => m * self.scale + CONTACT_INCHES,
                        _ => CONTACT_INCHES,
                    };
                    self.dist(a, t) <= reach + EPSILON
                })
                .collect();
            for &a in &attackers {
                self.set_charge(a, Charge::None);
            }
            if !ok || reach_ok.is_empty() {
                continue;
            }
            self.melee(&reach_ok, t, false);
        }
    }

    /// The stands charged, in the order their melees are fought: the
    /// charges of the side that moved first, then the other's.
    pub(super) fn target_order(&self) -> Vec<usize> {
        let charged = |s: usize| {
            self.side_units(s)
                .filter(move |(_, u)| u.side == s)
                .map(|(i, _)| i)
        };
        let mut order = Vec::with_capacity(self.units.len());
        order.extend(charged(1 - self.first));
        order.extend(charged(self.first));
        order
    }

    /// 7. The special cavalry charges, after the regulation combat.
    pub(super) fn cavalry_charges(&mut self) {
        let mut charged = vec![false; self.units.len()];
        for u in &self.units {
            if let Charge::Cavalry(x) = u.charge
                && let Some(c) = charged.get_mut(x)
            {
                *c = true;
            }
        }
        if !charged.contains(&true) {
            return;
        }
        for t in self.target_order() {
            if !charged.get(t).copied().unwrap_or(false) {
                continue;
            }
            let chargers: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    self.u(i)
                        .is_some_and(|u| u.combatant() && !u.fought && u.charge == Charge::Cavalry(t))
                })
                .collect();
            for &c in &chargers {
                self.set_charge(c, Charge::None);
            }
            let Some(e) = self.u(t) else { continue };
            if chargers.is_empty() || !e.combatant() || e.fought {
                continue;
            }
            let mut chargers: Vec<usize> = chargers
                .into_iter()
                .filter(|&c| {
                    let reach =
                        self.u(c).map_or(0.0, |u| u.move_of(Going::Column)) * self.scale + CONTACT_INCHES;
                    self.dist(c, t) <= reach + EPSILON
                })
                .collect();
            if chargers.is_empty() {
                continue;
            }
            // Fire withheld for the charging cavalry (Special Moves 2.4.1):
            // given once, so a stand whose range two rides pass through
            // fires at the first.
            let mut firers = Vec::new();
            let dead = self.shot_charging(e.side, &chargers, t, false, &mut firers);
            for j in firers {
                if let Some(f) = self.units.get_mut(j) {
                    f.withhold = false;
                }
            }
            for d in &dead {
                self.remove(*d, "is shot down charging");
            }
            chargers.retain(|c| !dead.contains(c));
            if !chargers.is_empty() {
                self.melee(&chargers, t, true);
            }
        }
    }

    /// The share of a kill (against 2, 3 and 4 models) that stand `j` adds
    /// to the fire withheld for the `chargers` riding at the stand at `tat`,
    /// if it has fire to give and their ride passes within its range
    /// (Special Moves 2.4.1: "withhold artillery or musket fire ... so that
    /// he can use it on the charging enemy cavalry as they charge over the
    /// ground into combat"): musketry, or a gun's fire, by canister where
    /// a ride passes within canister range (Artillery 7), if the gun has not
    /// moved more than it may and fire (Artillery 1).
    /// `ride` is the longest ride's length ([`Battle::longest_ride`]).
    fn withheld_share(&self, j: usize, chargers: &[usize], tat: Point, ride: f64) -> Option<[f64; 3]> {
        let f = self.u(j)?;
        let troop = f.troop?;
        let gun = troop == Troop::Artillery;
        if gun && f.moved > GUN_MOVE_AND_FIRE_INCHES * self.scale + EPSILON {
            return None;
        }
        let level = self.cell(f.at).level;
        let range = if gun {
            artillery_range(level)
        } else {
            musket_range(troop, level)?
        } * self.scale;
        // The rides are short: none passes within range of a stand farther
        // from the target than its range and the longest ride.
        if doctrine::farther(f.at, tat, range + ride + EPSILON) {
            return None;
        }
        // The least squared distance to a ride, its root taken once.
        let nearest = chargers
            .iter()
            .filter_map(|&c| self.u(c))
            .map(|r| doctrine::dist2_to_path(f.at, r.at, tat))
            .min_by(f64::total_cmp)?
            .sqrt();
        if nearest > range + EPSILON {
            return None;
        }
        Some(if gun {
            let close = nearest <= CANISTER_INCHES * self.scale + EPSILON;
            Self::shares(Troop::Artillery, 4, canister_factor(close))
        } else {
            Self::shares(troop, f.models, 1.0)
        })
    }

    /// The length of the longest of the `chargers`' rides to `tat`.
    fn longest_ride(&self, chargers: &[usize], tat: Point) -> f64 {
        chargers
            .iter()
            .filter_map(|&c| self.u(c))
            .map(|r| doctrine::dist2(r.at, tat))
            .fold(0.0, f64::max)
            .sqrt()
    }

    /// The `chargers` riding at stand `t` that the fire withheld for them
    /// shoots down before the melee ([`Battle::withheld_share`]), its kills
    /// taken nearest the target first: the fire of the stands of `side`
    /// that withhold it or, with `every`, of every one that could (as a
    /// general weighs a charge, or the fire to withhold).
    ///
    /// The stands whose fire reaches a ride are added to `firers`.
    pub(super) fn shot_charging(
        &self,
        side: usize,
        chargers: &[usize],
        t: usize,
        every: bool,
        firers: &mut Vec<usize>,
    ) -> Vec<usize> {
        let Some(tat) = self.u(t).map(|e| e.at) else {
            return Vec::new();
        };
        let ride = self.longest_ride(chargers, tat);
        let mut pool = [0.0; 3];
        let before = firers.len();
        for j in self.spans.get(side).cloned().unwrap_or(0..0) {
            let Some(f) = self.u(j) else { continue };
            let may = f.withhold || (every && (j == t || f.charge == Charge::None));
            if f.side != side || !f.combatant() || !may || f.shaken_until >= self.turn {
                continue;
            }
            if let Some(add) = self.withheld_share(j, chargers, tat, ride) {
                for (a, b) in pool.iter_mut().zip(add) {
                    *a += b;
                }
                firers.push(j);
            }
        }
        let mut dead = Vec::new();
        if firers.len() > before {
            let mut order: Vec<(f64, usize)> = chargers.iter().map(|&c| (self.dist(c, t), c)).collect();
            order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let order: Vec<usize> = order.into_iter().map(|x| x.1).collect();
            self.take_kills(pool, &order, &mut dead);
        }
        dead
    }

    /// Once every charge is ordered, the general of the side charged
    /// withholds, for each stand charged, the fire of the stands whose
    /// range the ride passes through if together it shoots a charger down;
    /// if it would not, they fire in the regular combat instead (Special
    /// Moves 2.4.1; which fire to withhold is this program's doctrine).
    pub(super) fn withhold_for_charges(&mut self) {
        let mut charged: Vec<usize> = Vec::new();
        for u in &mut self.units {
            u.withhold = false;
            if let Charge::Cavalry(t) = u.charge
                && !charged.contains(&t)
            {
                charged.push(t);
            }
        }
        charged.sort_unstable();
        for t in charged {
            let chargers: Vec<usize> = (0..self.units.len())
                .filter(|&c| self.u(c).is_some_and(|u| u.charge == Charge::Cavalry(t)))
                .collect();
            let Some(side) = self.u(t).map(|e| e.side) else {
                continue;
            };
            let mut firers = Vec::new();
            if chargers.is_empty()
                || self
                    .shot_charging(side, &chargers, t, true, &mut firers)
                    .is_empty()
            {
                continue;
            }
            let n = firers.len();
            for j in firers {
                if let Some(f) = self.units.get_mut(j) {
                    f.withhold = true;
                }
            }
            let them = self.name(t);
            self.log.say(self.turn, || {
                let n = f64::from(u32::try_from(n).unwrap_or(u32::MAX));
                format!(
                    "{} fire for the cavalry charging {them}",
                    quantity(n, 0, "stand withholds its", "stands withhold their")
                )
            });
        }
    }

    /// One melee: `attackers` at stand `t` and its close support.
    pub(super) fn melee(&mut self, attackers: &[usize], t: usize, cavalry_charge: bool) {
        let Some(tat) = self.u(t).map(|u| u.at) else {
            return;
        };
        for &a in attackers {
            self.close_in(a, tat);
        }
        // Named in the log: the stand that led the charge.
        let first = attackers.first().copied().unwrap_or(t);
        let Some(line) = self.line_up(attackers, t, cavalry_charge) else {
            return;
        };
        let (attackers, defenders, side) = (&line.attackers, &line.defenders, line.side);
        let (caught, house) = (line.caught, line.house);
        let pursued = self.u(t).is_some_and(|u| u.pursued);
        let (me, them) = (self.name(first), self.name(t));
        let (na, nd) = (attackers.len(), defenders.len());
        self.log.say(self.turn, || {
            format!(
                "melee: {me} and {} more ({na} stands) against {them} ({nd} stands){}{}{}",
                na.saturating_sub(1),
                if caught { ", caught in flank" } else { "" },
                if house { ", in a house" } else { "" },
                if pursued { ", pursued at half value" } else { "" }
            )
        });
        let mut dead = Vec::new();
        self.take_kills(line.att_pool, defenders, &mut dead);
        let mut dead_att = Vec::new();
        self.take_kills(line.def_pool, attackers, &mut dead_att);
        dead.extend(dead_att);
        for &d in &dead {
            self.remove(d, "falls in the melee");
        }
        for &x in attackers.iter().chain(defenders.iter()) {
            if let Some(u) = self.units.get_mut(x) {
                u.fought = true;
                u.pursued = false;
            }
        }
        let alive: Vec<usize> = attackers
            .iter()
            .chain(defenders.iter())
            .copied()
            .filter(|&x| self.u(x).is_some_and(Unit::combatant))
            .collect();
        let mut pos = [false; 2];
        if let Some(p) = pos.get_mut(side) {
            *p = line.position;
        }
        let loser = self.judge(&alive, &dead, pos, "the melee");
        // Pursuit: winning cavalry follow the beaten stand.
        if loser == Some(side) && self.u(t).is_some_and(Unit::combatant) {
            let mut any = false;
            for &a in attackers {
                if self
                    .u(a)
                    .is_some_and(|u| u.combatant() && u.is(Troop::is_cavalry))
                {
                    self.set_charge(a, Charge::Pursuit(t));
                    any = true;
                }
            }
            if any {
                if let Some(u) = self.units.get_mut(t) {
                    u.pursued = true;
                }
                self.log.say(self.turn, || format!("the cavalry pursue {them}"));
            }
        }
    }

    /// Who fights a melee of `attackers` at stand `t`, and the kill power
    /// each side brings by the Combat Table, where they stand now: the
    /// target's close support ("not over one 'open' move away from the
    /// melee"), the ranks that count (The Melee 1, 2; a house, The Melee 4),
    /// a flank caught (The Melee 8), a defensive position (Moving Stands 11)
    /// and pursuit at half value (Special Moves 1.1.1). [`Battle::melee`]
    /// fights it; the generals weigh a cavalry charge by it
    /// ([`Battle::cavalry_charge_pays`]).
    pub(super) fn line_up(&self, attackers: &[usize], t: usize, cavalry_charge: bool) -> Option<Lineup> {
        let target = self.u(t)?;
        let (side, tat) = (target.side, target.at);
        let square = target.formation == Formation::Square;
        let house = self.house(tat);
        let position = self.defensive(tat, side);
        let first = attackers.first().copied().unwrap_or(t);
        let caught = !square
            && self
                .u(first)
                .is_some_and(|a| caught_in_flank(tat, self.facing(side), a.at));
        // Close support: "not over one 'open' move away from the melee".
        let support = move_inches(Troop::Fusilier, Going::Open) * self.scale + CONTACT_INCHES;
        let mut defenders: Vec<(f64, usize)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(j, u)| {
                u.side == side
                    && u.combatant()
                    && !u.fought
                    && (*j == t || doctrine::dist(u.at, tat) <= support + EPSILON)
            })
            .map(|(j, u)| (doctrine::dist(u.at, tat), j))
            .collect();
        defenders.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut defenders: Vec<usize> = defenders.into_iter().map(|x| x.1).collect();
        let mut attackers: Vec<usize> = attackers.to_vec();
        attackers.sort_by(|&a, &b| self.dist(a, t).total_cmp(&self.dist(b, t)).then(a.cmp(&b)));
        let n_def = u32::try_from(defenders.len()).unwrap_or(u32::MAX);
        let column = !cavalry_charge
            && attackers
                .iter()
                .any(|&a| self.u(a).is_some_and(|u| u.is(Troop::is_infantry)));
        let cap = if house {
            house_attackers_allowed(n_def)
        } else {
            melee_ranks(column).saturating_mul(n_def)
        };
        attackers.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        if !square {
            let n_att = u32::try_from(attackers.len()).unwrap_or(u32::MAX);
            defenders
                .truncate(usize::try_from(melee_ranks(false).saturating_mul(n_att)).unwrap_or(usize::MAX));
        }
        let (att_flank, def_flank) = flank_factors(caught);
        let mut att_pool = [0.0; 3];
        for &a in &attackers {
            let Some(u) = self.u(a) else { continue };
            let Some(troop) = u.troop else { continue };
            let f = rank_factor(self.single_rank(a)) * attacker_position_factor(troop, position) * att_flank;
            for (p, s) in att_pool.iter_mut().zip(Self::shares(troop, u.models, f)) {
                *p += s;
            }
        }
        let mut def_pool = [0.0; 3];
        for &d in &defenders {
            let Some(u) = self.u(d) else { continue };
            let Some(troop) = u.troop else { continue };
            let half = if u.pursued { PURSUED_FACTOR } else { 1.0 };
            let f = rank_factor(self.single_rank(d)) * house_defence_factor(house) * def_flank * half;
            for (p, s) in def_pool.iter_mut().zip(Self::shares(troop, u.models, f)) {
                *p += s;
            }
        }
        Some(Lineup {
            attackers,
            defenders,
            att_pool,
            def_pool,
            caught,
            house,
            position,
            side,
        })
    }

    /// Whether side `side`'s general orders the special cavalry charge of
    /// `chargers` at stand `t` (Special Moves 2), weighing it as
    /// [`Battle::melee`] will fight it ([`Battle::line_up`]) after the fire
    /// the enemy may withhold for it ([`Battle::shot_charging`]): the stands
    /// each side would lose by the Combat Table, then, if those are equal, the
    /// models each side would judge the morale with (Judging the Morale 1,
    /// 2, 4; the defender's half again in a position, 6). He orders it if it
    /// costs the enemy more stands than his own; at equal losses, as his
    /// plan's boldness weighs the two counts of models; if it costs him
    /// more, only as an attacker late in the day, who must close or lose.
    /// (This program's doctrine. It had weighed a charge by the power within
    /// 2 inches of each side: a lone heavy cavalry stand, a third of a kill
    /// of infantry, rode at a company, an eighth, whose neighbours 3 inches
    /// away joined it in close support, and the attacker's horse lost 85 of
    /// its 102 charges at infantry in the mirror of 9 a side.)
    pub(super) fn cavalry_charge_pays(&self, side: usize, chargers: &[usize], t: usize) -> bool {
        let must_close = self.must_close(side);
        // A charge the melee alone does not pay for, the fire withheld for
        // it makes no better (but where the rider it shoots down was the one
        // that caught the target in flank, The Melee 8): that fire is looked
        // at only for a charge that would pay, or that an attacker late in
        // the day must make.
        if !must_close && !self.charge_pays_after(side, chargers, t, Vec::new(), must_close) {
            return false;
        }
        // The fire the enemy may withhold for the charge (Special Moves
        // 2.4.1).
        let shot = self.shot_charging(1 - side.min(1), chargers, t, true, &mut Vec::new());
        if shot.is_empty() && !must_close {
            return true;
        }
        self.charge_pays_after(side, chargers, t, shot, must_close)
    }

    /// Whether side `side` attacks late in the day, so must close whatever
    /// it costs (this program's doctrine, [`doctrine::late`]).
    pub(super) fn must_close(&self, side: usize) -> bool {
        self.side(side).role == Role::Attacker && doctrine::late(self.turn, self.scenario.turn_limit)
    }

    /// [`Battle::cavalry_charge_pays`], the `shot` of the `chargers` shot
    /// down before the melee.
    fn charge_pays_after(
        &self,
        side: usize,
        chargers: &[usize],
        t: usize,
        shot: Vec<usize>,
        must_close: bool,
    ) -> bool {
        let mut lost_att = shot;
        let riders: Vec<usize> = chargers
            .iter()
            .copied()
            .filter(|c| !lost_att.contains(c))
            .collect();
        if riders.is_empty() {
            return false;
        }
        let Some(line) = self.line_up(&riders, t, true) else {
            return false;
        };
        let mut lost_def = Vec::new();
        self.take_kills(line.att_pool, &line.defenders, &mut lost_def);
        self.take_kills(line.def_pool, &line.attackers, &mut lost_att);
        let weight = |v: &[usize]| v.iter().filter_map(|&k| self.u(k)).map(Unit::weight).sum::<u32>();
        let models = |all: &[usize], lost: &[usize]| {
            all.iter()
                .filter(|k| !lost.contains(k))
                .filter_map(|&k| self.u(k))
                .map(|u| u.models * u.weight())
                .sum::<u32>()
        };
        let mine = f64::from(models(&line.attackers, &lost_att));
        let theirs = f64::from(models(&line.defenders, &lost_def))
            * if line.position { DEFENCE_MORALE_FACTOR } else { 1.0 };
        match weight(&lost_att).cmp(&weight(&lost_def)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => mine > 0.0 && self.favoured(side, mine, theirs),
            std::cmp::Ordering::Greater => must_close,
        }
    }
}
