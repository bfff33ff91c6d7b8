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

    /// [`Battle::line_of_fire`] from `a`, whose level is `level`.
    fn line_of_fire_from(&self, a: Square, level: u8, b: Square) -> bool {
        if cheb(a, b) <= 1 {
            return true;
        }
        match self.line_in_table(a, b) {
            Some(line) => self.squares_clear(a, level, line.squares()),
            None => self.trace_line_of_fire(a, level, b),
        }
    }

    /// What a caller tracing many lines of fire from square `at` (its level
    /// `level`) asks once.
    fn lines_from(&self, at: Square, level: u8) -> LinesFrom {
        LinesFrom {
            at,
            level,
            table: self.slot(at).is_some() && at.0.max(at.1) < LINES_EXACT_BELOW,
            near: self.stops_near(at, level),
        }
    }

    /// [`Battle::line_of_fire_from`] `from.at` to `b`, a line's squares
    /// near its start looked at together.
    #[inline(always)]
    fn fire_clear(&self, from: &LinesFrom, b: Square) -> bool {
        let a = from.at;
        if cheb(a, b) <= 1 {
            return true;
        }
        let line = if from.table && self.slot(b).is_some() {
            line_to(b.0 - a.0, b.1 - a.1)
        } else {
            None
        };
        match line {
            Some(line) => line.near & from.near == 0 && self.squares_clear(a, from.level, line.far()),
            None => self.trace_line_of_fire(a, from.level, b),
        }
    }

    /// Which squares within [`LINE_NEAR`] of `a` (its level `level`) stop a
    /// line of fire from it, as bits of [`Line::near`]: troops stand there,
    /// on ground not lower than `a` when `a` is a hill. Off the hills, on a
    /// table of [`Battle::rows`], read from those a row at a time.
    fn stops_near(&self, a: Square, level: u8) -> u32 {
        let side = 2 * LINE_NEAR + 1;
        let mut stops = 0;
        if level == 0 && !self.rows.is_empty() {
            let window = (1_u64 << side) - 1;
            for dy in -LINE_NEAR..=LINE_NEAR {
                let Some(&row) = usize::try_from(a.1 + dy).ok().and_then(|y| self.rows.get(y)) else {
                    continue;
                };
                // Column `a.0 - LINE_NEAR` to bit 0.
                let left = a.0 - LINE_NEAR;
                let shifted = if left >= 0 {
                    row.checked_shr(left.unsigned_abs()).unwrap_or(0)
                } else {
                    row.checked_shl(left.unsigned_abs()).unwrap_or(0)
                };
                let bits = u32::try_from(shifted & window).unwrap_or(0);
                stops |= bits << ((dy + LINE_NEAR) * side).unsigned_abs();
            }
            return stops;
        }
        for dy in -LINE_NEAR..=LINE_NEAR {
            for dx in -LINE_NEAR..=LINE_NEAR {
                let Some(k) = self.slot((a.0 + dx, a.1 + dy)) else {
                    continue;
                };
                if self.stops_fire(k, level) {
                    stops |= near_bit(dx, dy);
                }
            }
        }
        stops
    }

    /// Whether troops in square `k` stop a line of fire from a square at
    /// `level`: "firing from a hill ... over friendly troops on lower ground"
    /// they do not.
    #[inline(always)]
    fn stops_fire(&self, k: usize, level: u8) -> bool {
        self.grid.get(k).is_some_and(|&g| g != EMPTY)
            && !(level > 0 && self.cells.get(k).map_or(0, |c| c.level) < level)
    }

    /// The line from `a` to `b` from the table of lines: both ends on the
    /// table, within [`LINE_REACH`] of each other, and the line even.
    fn line_in_table(&self, a: Square, b: Square) -> Option<&'static Line> {
        if self.slot(a).is_none() || self.slot(b).is_none() || a.0.max(a.1) >= LINES_EXACT_BELOW {
            return None;
        }
        line_to(b.0 - a.0, b.1 - a.1)
    }

    /// Whether none of `squares` (offsets from `a`, on the table, its level
    /// `level`) stops a line of fire: every square a line crosses lies
    /// between its ends, on the table, so each is found by its index alone.
    #[inline(always)]
    fn squares_clear(&self, a: Square, level: u8, squares: &[(i8, i8)]) -> bool {
        squares.iter().all(|&(dx, dy)| {
            let k = (a.1 + i32::from(dy)) * self.width + a.0 + i32::from(dx);
            !self.stops_fire(usize::try_from(k).unwrap_or(usize::MAX), level)
        })
    }

    /// [`Battle::line_of_fire_from`] traced point by point: the points at
    /// every half square along the longer axis, each in the square it
    /// falls in.
    #[inline(never)]
    fn trace_line_of_fire(&self, a: Square, level: u8, b: Square) -> bool {
        let steps = 2 * cheb(a, b);
        let (fa, fb) = (centre(a), centre(b));
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
        // In range: `artillery_fire` throws at canister range or within the
        // effective range.
        let (canister, effective) = artillery_ranges(p.unit, level > 0);
        let (range, unit) = (canister.max(effective), p.unit);
        let lines = self.lines_from(from, level);
        // The map was refreshed above: each enemy stands where it lists.
        self.foes(p.side)
            .iter()
            .any(|&(f, _)| cheb(from, f) <= range && self.fire_clear(&lines, f) && self.sight(from, f, unit))
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
                let (dice, hit) = fire_at(dice, hit, &self.cell_held(self.at(e), self.side(e)));
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
        let (dice, hit) = fire_at(dice, hit, &self.cell_held(self.at(e), self.side(e)));
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

// ----------------------------------------------------------------------------
// Lines of fire, worked out when the program is built.

/// The longest line of fire the table of lines holds, in squares: foot
/// artillery's effective range from a hill (`artillery_ranges`: 8, and one
/// more from a hill). A longer line is traced point by point.
const LINE_REACH: i32 = 9;
/// Lines a side of the table of lines: every offset from `-LINE_REACH` to `LINE_REACH`.
const LINE_SPAN: usize = 2 * LINE_REACH.unsigned_abs() as usize + 1;
/// The most squares a line crosses between its ends: it is traced at
/// `2 * cheb - 1` points.
const LINE_POINTS: usize = 2 * LINE_REACH.unsigned_abs() as usize - 1;

/// The squares a line of fire crosses between its two ends, as
/// [`Battle::line_of_fire_from`] traces it (its points at every half
/// square along the longer axis, truncated), as offsets from the square it
/// starts in: each once, in order, neither end among them. Which squares
/// a point falls in does not depend on the square the line starts from
/// unless the point lies within a hair of a square's edge and below it,
/// where the rounding of the start's coordinate could tip it over: such a
/// line is `uneven` and traced point by point.
#[derive(Debug, Clone, Copy)]
struct Line {
    len: u8,
    /// How many of the first squares lie within [`LINE_NEAR`] of the start.
    near_len: u8,
    /// Those squares, as bits ([`near_bit`]).
    near: u32,
    uneven: bool,
    squares: [(i8, i8); LINE_POINTS],
}

impl Line {
    const EMPTY: Line = Line {
        len: 0,
        near_len: 0,
        near: 0,
        uneven: false,
        squares: [(0, 0); LINE_POINTS],
    };

    /// The squares it crosses, from its start.
    fn squares(&self) -> &[(i8, i8)] {
        self.squares.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The squares it crosses beyond [`LINE_NEAR`] of its start.
    fn far(&self) -> &[(i8, i8)] {
        self.squares
            .get(usize::from(self.near_len)..usize::from(self.len))
            .unwrap_or(&[])
    }
}

/// The line to offset `(dx, dy)` from the table of lines, when it holds
/// it and the line is even.
#[inline(always)]
fn line_to(dx: i32, dy: i32) -> Option<&'static Line> {
    let x = usize::try_from(dx + LINE_REACH).ok()?;
    let y = usize::try_from(dy + LINE_REACH).ok()?;
    LINES.get(y)?.get(x).filter(|line| !line.uneven)
}

/// Lines of fire from one square: what [`Battle::fire_clear`] asks of it
/// once ([`Battle::lines_from`]).
#[derive(Debug, Clone, Copy)]
struct LinesFrom {
    at: Square,
    level: u8,
    /// Whether its lines may be read from the table of lines.
    table: bool,
    /// Which squares near it stop a line ([`Battle::stops_near`]).
    near: u32,
}

/// How far about a square the squares that stop its lines of fire are
/// looked up together ([`Battle::stops_near`]): most lines from a battery
/// seeking a position are stopped by its own troops within two squares.
const LINE_NEAR: i32 = 2;

/// The bit of [`Line::near`] for the square `(dx, dy)` from a line's start.
#[allow(clippy::cast_sign_loss)]
const fn near_bit(dx: i32, dy: i32) -> u32 {
    1 << ((dy + LINE_NEAR) * (2 * LINE_NEAR + 1) + dx + LINE_NEAR) as u32
}

/// Every line of fire of up to [`LINE_REACH`] squares, by its offset
/// `(dx, dy)` at `[dy + LINE_REACH][dx + LINE_REACH]`.
static LINES: [[Line; LINE_SPAN]; LINE_SPAN] = lines();

/// The table of [`LINES`] (evaluated when the program is built: an index
/// out of its arrays would fail the build, not a battle).
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)]
const fn lines() -> [[Line; LINE_SPAN]; LINE_SPAN] {
    let mut table = [[Line::EMPTY; LINE_SPAN]; LINE_SPAN];
    let mut y = 0;
    while y < LINE_SPAN {
        let mut x = 0;
        while x < LINE_SPAN {
            table[y][x] = line(x as i32 - LINE_REACH, y as i32 - LINE_REACH);
            x += 1;
        }
        y += 1;
    }
    table
}

/// The line to offset `(dx, dy)`: its points worked out as the trace
/// works them out, `f = t / steps` and `from + (to - from) * f` on each
/// axis, `to - from` being the offset exactly.
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)]
const fn line(dx: i32, dy: i32) -> Line {
    let mut line = Line::EMPTY;
    let steps = 2 * if dx.abs() > dy.abs() { dx.abs() } else { dy.abs() };
    let mut last = (0, 0);
    let mut t = 1;
    while t < steps {
        let f = t as f64 / steps as f64;
        let (ox, uneven_x) = offset(dx as f64 * f);
        let (oy, uneven_y) = offset(dy as f64 * f);
        line.uneven |= uneven_x || uneven_y;
        let here = (ox as i8, oy as i8);
        let end = here.0 as i32 == dx && here.1 as i32 == dy;
        let start = here.0 == 0 && here.1 == 0;
        let repeat = here.0 == last.0 && here.1 == last.1;
        if !(end || start || repeat) {
            line.squares[line.len as usize] = here;
            line.len += 1;
            last = here;
            // Squares near the start come first: each is no nearer it than the last.
            if ox.abs() <= LINE_NEAR && oy.abs() <= LINE_NEAR {
                line.near |= near_bit(ox, oy);
                line.near_len += 1;
            }
        }
        t += 1;
    }
    line
}

/// The square, counted from the one a line starts in, that a point `r`
/// from the start's centre falls in along one axis (the floor of
/// `r + 1/2`), and whether `r` lies within a hair below a square's edge
/// (a half), where the start's own coordinate, added in floating point,
/// could round it onto the edge. Elsewhere the sum is far enough from a
/// whole number that its rounding (under 1e-10 on a table under a million
/// squares) cannot change the square.
#[allow(clippy::cast_possible_truncation)]
const fn offset(r: f64) -> (i32, bool) {
    // Far along the axis, so that the sum is positive and truncation the floor.
    let far = 1 << 12;
    let square = ((far as f64 + 0.5 + r) as i32) - far;
    let edge = square as f64;
    (square, just_below(r, edge + 0.5) || just_below(r, edge - 0.5))
}

/// Whether `r` lies below `edge` by less than a hair.
const fn just_below(r: f64, edge: f64) -> bool {
    r < edge && edge - r < 1e-9
}

/// The table of lines is exact for a line starting below this square on
/// both axes (see [`offset`]).
const LINES_EXACT_BELOW: i32 = 1 << 19;

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares the float trace visits between `a` and `b`, each once.
    fn traced(a: Square, b: Square) -> Vec<Square> {
        let steps = 2 * cheb(a, b);
        let (fa, fb) = (centre(a), centre(b));
        let mut squares: Vec<Square> = Vec::new();
        for t in 1..steps {
            let f = f64::from(t) / f64::from(steps);
            let sq = square_of((fa.0 + (fb.0 - fa.0) * f, fa.1 + (fb.1 - fa.1) * f));
            if sq != a && sq != b && squares.last() != Some(&sq) {
                squares.push(sq);
            }
        }
        squares
    }

    #[test]
    fn the_table_of_lines_crosses_the_squares_the_trace_crosses() {
        let mut even = 0;
        for dy in -LINE_REACH..=LINE_REACH {
            for dx in -LINE_REACH..=LINE_REACH {
                let Some(line) = line_to(dx, dy) else {
                    continue;
                };
                even += 1;
                let offsets: Vec<Square> = line
                    .squares()
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect();
                // The squares near the start first, and the bits of those.
                let near = |&(x, y): &Square| x.abs() <= LINE_NEAR && y.abs() <= LINE_NEAR;
                let near_len = usize::from(line.near_len);
                assert!(offsets.iter().take(near_len).all(near), "{dx}, {dy}");
                assert!(!offsets.iter().skip(near_len).any(near), "{dx}, {dy}");
                let bits = offsets
                    .iter()
                    .take(near_len)
                    .fold(0, |m, &(x, y)| m | near_bit(x, y));
                assert_eq!(line.near, bits, "{dx}, {dy}");
                assert_eq!(line.far().len(), offsets.len() - near_len);
                // From every start on a table of 60 squares a side.
                for y in 0..60 {
                    for x in 0..60 {
                        let (a, b) = ((x, y), (x + dx, y + dy));
                        if b.0 < 0 || b.1 < 0 || b.0 >= 60 || b.1 >= 60 || cheb(a, b) <= 1 {
                            continue;
                        }
                        let from_table: Vec<Square> =
                            offsets.iter().map(|&(ox, oy)| (x + ox, y + oy)).collect();
                        assert_eq!(from_table, traced(a, b), "{a:?} to {b:?}");
                    }
                }
            }
        }
        assert_eq!(even, 19 * 19, "every line within the guns' reach is even");
    }
}
