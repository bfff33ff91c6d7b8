//! harman-2021 fire: line of sight and of fire, artillery and musketry by the tactical dice, hits, flags, officers, rallying.

use super::*;

impl Battle<'_> {
    /// Whether `viewer` at `a` sees `b`: traced once per battle, then remembered.
    pub(super) fn sight(&self, a: Square, b: Square, viewer: Unit) -> bool {
        if !self.blind || cheb(a, b) <= 1 {
            return true;
        }
        // Only whether the viewer sees over tall crops depends on it.
        let class = usize::from(viewer.is_cavalry() || viewer.is_leader());
        let (Some(from), Some(to)) = (self.slot(a), self.slot(b)) else {
            return self.trace_sight(a, b, viewer);
        };
        let n = self.cells.len();
        let known = self
            .sight_memo
            .borrow()
            .get(from)
            .and_then(|row| row.get(to * 2 + class))
            .copied()
            .unwrap_or(0);
        if known != 0 {
            return known == 1;
        }
        let seen = self.blinds_between(a, b) == 0 || self.trace_sight(a, b, viewer);
        if let Some(row) = self.sight_memo.borrow_mut().get_mut(from) {
            if row.is_empty() {
                row.resize(n * 2, 0);
            }
            if let Some(slot) = row.get_mut(to * 2 + class) {
                *slot = if seen { 1 } else { 2 };
            }
        }
        seen
    }

    /// The prefix counts of the squares that could block someone's sight
    /// (`blocks_sight` for a viewer who does not see over crops, from the
    /// plain: every other viewer and height is blocked by fewer).
    pub(super) fn count_blinds(&self) -> Vec<u32> {
        let (w, d) = (
            usize::try_from(self.width).unwrap_or(0),
            usize::try_from(self.depth).unwrap_or(0),
        );
        let mut sum = vec![0_u32; (w + 1) * (d + 1)];
        for y in 0..d {
            let mut row = 0;
            for x in 0..w {
                let cell = self.cells.get(y * w + x).copied().unwrap_or_default();
                row += u32::from(blocks_sight(&cell, Unit::FootArtillery, 0));
                let above = sum.get(y * (w + 1) + x + 1).copied().unwrap_or(0);
                if let Some(s) = sum.get_mut((y + 1) * (w + 1) + x + 1) {
                    *s = above + row;
                }
            }
        }
        sum
    }

    /// How many squares that could block sight lie in the box with corners
    /// `a` and `b`, not counting `a` and `b`: none, and the line between
    /// them (which never leaves the box) is clear.
    pub(super) fn blinds_between(&self, a: Square, b: Square) -> u32 {
        let w = usize::try_from(self.width).unwrap_or(0) + 1;
        let at = |x: i32, y: i32| {
            let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
                return 0;
            };
            self.blinds_before.get(y * w + x).copied().unwrap_or(0)
        };
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0) + 1);
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1) + 1);
        let in_box = (at(x1, y1) + at(x0, y0)).saturating_sub(at(x0, y1) + at(x1, y0));
        let own = |sq: Square| u32::from(blocks_sight(&self.cell(sq), Unit::FootArtillery, 0));
        in_box.saturating_sub(own(a) + own(b))
    }

    /// Whether `sq` could block someone's sight (see [`Battle::count_blinds`]).
    fn may_block(&self, sq: Square) -> bool {
        self.slot(sq)
            .and_then(|k| self.may_block.get(k))
            .copied()
            .unwrap_or(true)
    }

    pub(super) fn trace_sight(&self, a: Square, b: Square, viewer: Unit) -> bool {
        let steps = 2 * cheb(a, b);
        let top = self.cell(a).level.max(self.cell(b).level);
        let (fa, fb) = (centre(a), centre(b));
        for t in 1..steps {
            let f = f64::from(t) / f64::from(steps);
            let p = (fa.0 + (fb.0 - fa.0) * f, fa.1 + (fb.1 - fa.1) * f);
            let sq = square_of(p);
            if sq != a && sq != b && self.may_block(sq) && blocks_sight(&self.cell(sq), viewer, top) {
                return false;
            }
        }
        true
    }

    /// Whether the guns at `a` have a line of fire to `b`: not over troops,
    /// unless "firing from a hill ... over friendly troops on lower ground".
    pub(super) fn line_of_fire(&self, a: Square, b: Square) -> bool {
        self.line_of_fire_from(a, self.cell(a).level, b)
    }

    /// [`Battle::line_of_fire`] from `a`, whose level is `level` (asked once
    /// by a caller tracing many lines from one square).
    fn line_of_fire_from(&self, a: Square, level: u8, b: Square) -> bool {
        if cheb(a, b) <= 1 {
            return true;
        }
        let steps = 2 * cheb(a, b);
        let (fa, fb) = (centre(a), centre(b));
        if self.slot(a).is_some() && self.slot(b).is_some() {
            // Both ends on the table, as they always are: every point traced
            // lies between their centres, on the table, so truncation is
            // `square_of` and the square's index is `slot`, found without
            // their checks (the same squares, at less cost a point).
            for t in 1..steps {
                let f = f64::from(t) / f64::from(steps);
                #[allow(clippy::cast_possible_truncation)]
                let sq: Square = (
                    (fa.0 + (fb.0 - fa.0) * f) as i32,
                    (fa.1 + (fb.1 - fa.1) * f) as i32,
                );
                let k = usize::try_from(sq.1 * self.width + sq.0).unwrap_or(usize::MAX);
                if sq != a
                    && sq != b
                    && self.grid.get(k).is_some_and(|&g| g != EMPTY)
                    && !(level > 0 && self.cells.get(k).map_or(0, |c| c.level) < level)
                {
                    return false;
                }
            }
            return true;
        }
        for t in 1..steps {
            let f = f64::from(t) / f64::from(steps);
            let sq = square_of((fa.0 + (fb.0 - fa.0) * f, fa.1 + (fb.1 - fa.1) * f));
            if sq != a
                && sq != b
                && self.occupant(sq).is_some()
                && !(level > 0 && self.cell(sq).level < level)
            {
                return false;
            }
        }
        true
    }

    pub(super) fn gun_target(&mut self, i: usize) -> Option<(usize, u32, Hit)> {
        let at = self.at(i);
        self.gun_target_from(i, at)
    }

    /// Whether battery `i` has a target where it stands:
    /// `gun_target(i).is_some()`, for which any enemy will do
    /// ([`Battle::has_gun_target_from`]).
    pub(super) fn has_gun_target(&mut self, i: usize) -> bool {
        let at = self.at(i);
        self.has_gun_target_from(i, at)
    }

    /// What battery `i` would fire at were it unlimbered in square `from`.
    pub(super) fn gun_target_from(&mut self, i: usize, from: Square) -> Option<(usize, u32, Hit)> {
        self.refresh(self.side(i));
        let p = self.pieces.get(i)?;
        if !p.combatant() || p.condition() != Condition::Fresh || p.retiring {
            return None;
        }
        let on_hill = self.cell(from).level > 0;
        // The nearest enemy in range that the guns can see and fire at:
        // nearest first, so sight is traced only as far as needed.
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        // Each as one number, distance then index, so the sort is cheap.
        candidates.extend(
            self.foes(p.side)
                .iter()
                .map(|&(f, e)| (cheb(from, f), e))
                .filter(|&(d, _)| artillery_fire(p.unit, on_hill, d).is_some())
                .map(|(d, e)| u64::from(d) << 32 | u64::from(u32::try_from(e).unwrap_or(u32::MAX))),
        );
        candidates.sort_unstable();
        let found = candidates.iter().find_map(|&k| {
            let (d, e) = (
                u32::try_from(k >> 32).unwrap_or(u32::MAX),
                usize::try_from(k & 0xFFFF_FFFF).unwrap_or(usize::MAX),
            );
            let at = self.at(e);
            let (dice, hit) = artillery_fire(p.unit, on_hill, d)?;
            // The line of fire first: most often blocked at its first square.
            (self.line_of_fire(from, at) && self.sight(from, at, p.unit)).then_some((e, dice, hit))
        });
        self.candidates = candidates;
        found
    }

    /// Whether battery `i` would have a target were it unlimbered in square
    /// `from`: `gun_target_from(i, from).is_some()`, for which any enemy in
    /// range, line of fire and sight will do, so none are sorted.
    pub(super) fn has_gun_target_from(&mut self, i: usize, from: Square) -> bool {
        self.refresh(self.side(i));
        let Some(p) = self.pieces.get(i) else {
            return false;
        };
        if !p.combatant() || p.condition() != Condition::Fresh || p.retiring {
            return false;
        }
        let level = self.cell(from).level;
        let on_hill = level > 0;
        // The map was refreshed above: each enemy stands where it lists.
        self.foes(p.side).iter().any(|&(f, _)| {
            artillery_fire(p.unit, on_hill, cheb(from, f)).is_some()
                && self.line_of_fire_from(from, level, f)
                && self.sight(from, f, p.unit)
        })
    }

    pub(super) fn gun_fire(&mut self, i: usize) {
        if let Some((e, dice, hit)) = self.gun_target(i) {
            let dice = dice.saturating_sub(self.pieces.get(i).map_or(0, |p| p.penalty));
            self.fire(i, e, dice, hit, false);
            if let Some(p) = self.pieces.get_mut(i) {
                p.fought = true;
            }
        }
    }

    pub(super) fn artillery_phase(&mut self) {
        // Simultaneous: every battery picks and throws, then all the hits fall.
        let mut shots = Vec::new();
        for i in 0..self.pieces.len() {
            let Some(p) = self.pieces.get(i) else { continue };
            if !(p.unit == Unit::FootArtillery || p.unit == Unit::HorseArtillery) || p.limbered {
                continue;
            }
            if let Some((e, dice, hit)) = self.gun_target(i) {
                let (dice, hit) = fire_at(dice, hit, &self.cell(self.at(e)));
                shots.push((i, e, self.throw(dice), hit));
                if let Some(p) = self.pieces.get_mut(i) {
                    p.fought = p.unit == Unit::HorseArtillery;
                }
            }
        }
        for (i, e, t, hit) in shots {
            self.land(i, e, t, hit, false);
        }
    }

    pub(super) fn musketry(&mut self, i: usize, e: usize) {
        let dice = self.pieces.get(i).map_or(0, Piece::dice);
        self.fire(i, e, dice, Hit::Target, true);
    }

    /// Fire by `i` at `e`: the terrain's reductions, the throw, its effects.
    pub(super) fn fire(&mut self, i: usize, e: usize, dice: u32, hit: Hit, musketry: bool) {
        let (dice, hit) = fire_at(dice, hit, &self.cell(self.at(e)));
        let t = self.throw(dice);
        self.land(i, e, t, hit, musketry);
    }

    pub(super) fn land(&mut self, i: usize, e: usize, t: Throw, hit: Hit, musketry: bool) {
        let screened = musketry && self.screened(e);
        let hits = if screened { 0 } else { t.hits(hit) };
        self.say(|me| {
            format!(
                "{} fires at {} ({} {}): {hits} hit{}, {} Flag{}{}.",
                me.name(i),
                me.name(e),
                t.dice,
                if t.dice == 1 { "die" } else { "dice" },
                plural(hits),
                t.flags,
                plural(t.flags),
                if screened {
                    "; its skirmishers screen it"
                } else {
                    ""
                }
            )
        });
        if self.unit(i) == Unit::Skirmishers
            && let Some(p) = self.pieces.get_mut(e)
        {
            p.skirmish_flags += t.flags;
        }
        if let Some(p) = self.pieces.get_mut(e) {
            p.attacked = true;
        }
        self.officers(e, &t, hits);
        self.suffer(e, hits, t.flags);
    }

    /// Skirmishing: "Skirmishers deploy ... covering the front of a unit ...
    /// which cannot receive hits from musketry while the skirmishers remain
    /// in front of it": a friendly skirmisher in the square ahead of it or
    /// either forward diagonal.
    pub(super) fn screened(&self, e: usize) -> bool {
        let Some(p) = self.pieces.get(e) else { return false };
        if !p.unit.is_formed() {
            return false;
        }
        let f = self.fronts.get(p.side).copied().unwrap_or((0, 1));
        let ahead = (p.at.0 + f.0, p.at.1 + f.1);
        let side_step = (f.1, f.0);
        [
            ahead,
            (ahead.0 + side_step.0, ahead.1 + side_step.1),
            (ahead.0 - side_step.0, ahead.1 - side_step.1),
        ]
        .into_iter()
        .any(|sq| {
            self.occupant(sq)
                .and_then(|o| self.pieces.get(o))
                .is_some_and(|o| o.side == p.side && o.unit == Unit::Skirmishers && o.combatant())
        })
    }

    /// Skirmishers against skirmishers: one die a line each, Fire hits,
    /// "Only Fire and Flags count"; more Flags fall back a square.
    pub(super) fn skirmish(&mut self, a: usize, b: usize) {
        let ta = self.throw(SKIRMISH_DICE);
        let tb = self.throw(SKIRMISH_DICE);
        self.say(|me| {
            format!(
                "{} and {} skirmish: {} Fire and {} Flag against {}, {} Fire and {} Flag against {}.",
                me.name(a),
                me.name(b),
                ta.fires,
                ta.flags,
                me.name(b),
                tb.fires,
                tb.flags,
                me.name(a)
            )
        });
        for (who, t) in [(b, ta), (a, tb)] {
            if let Some(p) = self.pieces.get_mut(who) {
                p.attacked = true;
            }
            self.hit(who, t.fires);
        }
        match skirmish_falls_back(tb.flags, ta.flags) {
            Some(true) => self.fall_back(a),
            Some(false) => self.fall_back(b),
            None => {}
        }
    }

    /// Beaten skirmishers fall back one square; into their own formed
    /// troops' square they are "driven in" and leave the screen.
    pub(super) fn fall_back(&mut self, i: usize) {
        if !self.pieces.get(i).is_some_and(Piece::combatant) {
            return;
        }
        let side = self.side(i);
        let at = self.at(i);
        let f = self.fronts.get(side).copied().unwrap_or((0, 1));
        let back = (at.0 - f.0, at.1 - f.1);
        if self.free(back) && may_enter(self.unit(i), &self.cell(back)) {
            self.move_to(i, back);
            self.say(|me| format!("{} fall back to {}.", me.name(i), show(back)));
        } else if self.slot(back).is_none() {
            self.leave(i, "are driven off the field");
        } else {
            // Driven in behind their formed troops.
            let further = (back.0 - f.0, back.1 - f.1);
            if self.free(further) {
                self.move_to(i, further);
            }
            self.say(|me| format!("{} are driven in.", me.name(i)));
        }
    }

    // ------------------------------------------------------------------------
    // Losses.

    /// Hits off the Combat Value. A unit at 0 CV retires; one hit again
    /// routs ("any further ... hits or Flags will cause it to rout").
    pub(super) fn hit(&mut self, i: usize, hits: u32) {
        if hits == 0 {
            return;
        }
        let Some(p) = self.pieces.get_mut(i) else { return };
        if !p.combatant() {
            return;
        }
        if p.cv == 0 {
            self.leave(i, "is struck again while spent and routs");
            return;
        }
        p.cv = p.cv.saturating_sub(hits);
        if p.cv == 0 {
            p.retiring = true;
            self.say(|me| format!("{} has lost all its Combat Value and retires.", me.name(i)));
        }
    }

    /// Hits and Flags suffered together.
    pub(super) fn suffer(&mut self, i: usize, hits: u32, flags: u32) {
        let was_spent = self.pieces.get(i).is_some_and(|p| p.cv == 0);
        self.hit(i, hits);
        if flags == 0 || !self.pieces.get(i).is_some_and(Piece::combatant) {
            return;
        }
        if was_spent {
            self.leave(i, "suffers a Flag while spent and routs");
            return;
        }
        let quality = self.pieces.get(i).map_or(0, |p| p.quality);
        let effect = flag_effect(flags, quality, self.general_with(i));
        self.flags(i, effect);
    }

    pub(super) fn flags(&mut self, i: usize, effect: FlagEffect) {
        let Some(p) = self.pieces.get_mut(i) else { return };
        match effect {
            FlagEffect::None => return,
            FlagEffect::OneDieLess => p.penalty += 1,
            FlagEffect::Halts => {
                p.penalty += 1;
                p.halted = true;
            }
            FlagEffect::Retires => {
                p.halted = true;
                p.retiring = true;
            }
            FlagEffect::Routs => {
                self.leave(i, "routs at its falling Flags");
                return;
            }
        }
        self.say(|me| format!("{} suffers Flags: {effect}.", me.name(i)));
    }

    /// General and ADC casualties (General Officers and ADCs).
    pub(super) fn officers(&mut self, i: usize, t: &Throw, hits: u32) {
        if !t.endangers_officers(hits) {
            return;
        }
        for l in 0..self.pieces.len() {
            if !self.pieces.get(l).is_some_and(|p| p.with == Some(i) && p.on()) {
                continue;
            }
            let c = casualty(self.dice.d6());
            let wounded_before = self.pieces.get(l).is_some_and(|p| p.wounded);
            if let Some(p) = self.pieces.get_mut(l) {
                match c {
                    crate::rules::harman2021::tables::Casualty::Killed => {
                        p.status = Status::Out(Fate::Destroyed);
                        p.with = None;
                    }
                    crate::rules::harman2021::tables::Casualty::Wounded if wounded_before => {}
                    crate::rules::harman2021::tables::Casualty::Wounded => p.wounded = true,
                    crate::rules::harman2021::tables::Casualty::Unscathed => {}
                }
            }
            self.say(|me| format!("{} is in danger: {c}.", me.name(l)));
        }
    }

    pub(super) fn wounded_leaders(&mut self) {
        for l in 0..self.pieces.len() {
            if !self.pieces.get(l).is_some_and(|p| p.on() && p.wounded) {
                continue;
            }
            if wounded_leaves(self.dice.d6()) {
                if let Some(p) = self.pieces.get_mut(l) {
                    p.status = Status::Out(Fate::Routed);
                    p.with = None;
                }
                self.say(|me| format!("{} is forced from the field by his wound.", me.name(l)));
            }
        }
    }

    /// Rallying: a General or ADC with a unit that suffered a Falling Flag,
    /// stationary and not charged or fired upon this turn, on a 6.
    pub(super) fn rally(&mut self) {
        for l in 0..self.pieces.len() {
            let Some(u) = self.pieces.get(l).filter(|p| p.on()).and_then(|p| p.with) else {
                continue;
            };
            let Some(p) = self.pieces.get(u) else { continue };
            if !p.combatant() || !(p.retiring || p.halted) || p.cv == 0 {
                continue;
            }
            let (stationary, attacked) = (!p.moved, p.attacked);
            if rallies(self.dice.d6(), stationary, attacked) {
                if let Some(p) = self.pieces.get_mut(u) {
                    p.retiring = false;
                    p.halted = false;
                }
                self.say(|me| format!("{} rallies {}.", me.name(l), me.name(u)));
            }
        }
    }

    // ------------------------------------------------------------------------
    // Close combat.
}
