//! harman-2021 generals: deployment, reserves coming on, each side's phase, which unit acts and where it goes, retiring.

use super::*;

/// How far (squares) an attacking unit looks for an open square next to
/// the enemy: the six squares within which the attacker already makes for
/// the nearest enemy rather than the objective (`goal_of`; this program's
/// own, about two turns' march of formed infantry).
const FLANK_SEARCH: u32 = 6;

impl<'a> Battle<'a> {
    /// Musters side `s` with the core's grid muster: each unit set down in
    /// the free square nearest the one it wants; leaders hold no square and
    /// join the unit nearest them.
    pub(super) fn deploy_side(&mut self, setting: &Setting<'a>, s: usize) {
        let first = self.pieces.len();
        let mut commands = 0;
        let wants = self.pieces.muster_grid(setting, s, |stand| {
            let is_command = stand.kind == StandKind::Command;
            let unit = unit_of(stand.kind, is_command && commands == 0);
            if is_command {
                commands += 1;
            }
            let cv = combat_value(unit, stand.quality, stand.strength, stand.full);
            Stand {
                unit,
                quality: tactical_dice(unit, stand.quality),
                cv_start: cv,
                cv,
                penalty: 0,
                halted: false,
                retiring: false,
                limbered: false,
                in_square: false,
                moved: false,
                attacked: false,
                fought: false,
                blown: 0,
                skirmish_flags: 0,
                wounded: false,
                with: None,
                post: None,
            }
        });
        for (i, wanted) in wants {
            if self.unit(i).is_leader() {
                if let Some(p) = self.pieces.get_mut(i) {
                    p.at = wanted;
                    p.status = Status::Fighting;
                }
                continue;
            }
            if let Some(sq) = self.free_near(wanted, i) {
                self.put(i, sq);
            }
        }
        for i in first..self.pieces.len() {
            if self.unit(i).is_leader() && self.pieces.get(i).is_some_and(Piece::on) {
                self.join_nearest(i, u32::MAX);
            }
        }
        if self.roles.get(s) == Some(&Role::Defender) {
            self.post_defenders(setting, s, first);
        }
    }

    /// The defender's posts: its foot, formed then skirmishers (mustered
    /// from piece `first` on), each given a square on and about the
    /// objective it guards (`doctrine::posts`: the squares holding it
    /// first, then the best ground about it), each a square its unit may
    /// enter; a general who holds back posts them that much farther back
    /// (`doctrine::Plan::post`). The seed is silent on deployment; this
    /// program's doctrine: the defender's foot occupies what it guards and
    /// holds it, marching there from its deployment and back there when
    /// the enemy is not near. Its horse, the reserve, keeps the doctrine's
    /// goal, the best ground near the objective (`doctrine::goal`): posted
    /// about a town or a crossing it could neither hold nor fight in, it
    /// left more battles undecided on the proving ground (10.4% of the
    /// uneven ones drawn against 9.6% at seed 7).
    pub(super) fn post_defenders(&mut self, setting: &Setting<'a>, s: usize, first: usize) {
        let scenario = self.scenario;
        let Some(guard) = doctrine::nearest_objective(scenario, s) else {
            return;
        };
        let rear = doctrine::rear_of(scenario, s);
        let plan = self.plans.get(s).copied();
        let guard = plan.map_or(guard, |p| self.board.clamp(p.post(guard, rear, 1.0)));
        let mut units: Vec<(u8, usize)> = (first..self.pieces.len())
            .filter_map(|i| match self.unit(i) {
                Unit::FormedInfantry { .. } => Some((0, i)),
                Unit::Skirmishers => Some((1, i)),
                _ => None,
            })
            .collect();
        units.sort_unstable();
        let all = usize::try_from(self.width.saturating_mul(self.depth)).unwrap_or(0);
        let mut cells = setting.posts(guard, rear, all.max(1));
        // `posts` deals the cells round again when asked for more: one round.
        if let Some(c0) = cells.first().copied()
            && let Some(k) = cells.iter().skip(1).position(|c| *c == c0)
        {
            cells.truncate(k + 1);
        }
        let mut taken = vec![false; cells.len()];
        for (_, i) in units {
            let unit = self.unit(i);
            // Not a square it may enter only along a road: horse and guns
            // "can only enter a BUA if moving through it on a road", formed
            // units a forest "following a road that goes through it"
            // (TERRAIN EFFECTS); they pass through, they do not hold it.
            let pick = cells.iter().zip(taken.iter()).position(|(c, t)| {
                let cell = Cell {
                    road: false,
                    ..self.cell(square_of(*c))
                };
                !*t && may_enter(unit, &cell)
            });
            let Some(k) = pick else { continue };
            if let Some(t) = taken.get_mut(k) {
                *t = true;
            }
            let post = cells.get(k).map(|c| square_of(*c));
            if let Some(p) = self.pieces.get_mut(i) {
                p.post = post;
            }
        }
    }

    pub(super) fn free_near(&self, wanted: Square, i: usize) -> Option<Square> {
        let unit = self.unit(i);
        engine::nearest_square(wanted, self.width.max(self.depth), |sq| {
            self.free(sq) && may_enter(unit, &self.cell(sq))
        })
    }

    /// Leader `l` joins the friendly unit most in need within `reach`
    /// squares: one that has suffered a Flag (to rally it), else the one
    /// nearest the enemy.
    pub(super) fn join_nearest(&mut self, l: usize, reach: u32) {
        let (side, at) = (self.side(l), self.at(l));
        let best = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side && p.combatant() && p.cv > 0)
            .map(|(k, p)| {
                let need = u32::from(!(p.halted || p.retiring));
                let front = self.nearest_enemy(k).map_or(u32::MAX, |e| e.1);
                (need, front, k, p.at)
            })
            .filter(|t| cheb(at, t.3) <= reach)
            .min_by_key(|t| (t.0, t.1, t.2));
        if let Some(p) = self.pieces.get_mut(l) {
            if let Some((_, _, k, sq)) = best {
                p.with = Some(k);
                p.at = sq;
            } else {
                p.with = None;
            }
        }
    }

    pub(super) fn bring_on_reserves(&mut self) {
        for i in 0..self.pieces.len() {
            let Some(area) = self.pieces.due_in(i, self.turn) else {
                continue;
            };
            let c = square_of(area.centre());
            if self.unit(i).is_leader() {
                if let Some(p) = self.pieces.get_mut(i) {
                    p.at = c;
                    p.status = Status::Fighting;
                }
                self.join_nearest(i, u32::MAX);
                continue;
            }
            if let Some(sq) = self
                .free_near(c, i)
                .filter(|sq| cheb(*sq, c) <= area.w.max(area.h))
            {
                self.put(i, sq);
                if let Some(p) = self.pieces.get_mut(i) {
                    p.fought = true;
                }
                self.say(|me| format!("{} comes on at {}.", me.name(i), show(sq)));
            }
        }
    }

    // ------------------------------------------------------------------------
    // The turn sequence.

    pub fn play_turn(&mut self) {
        engine::play_turn(self);
    }

    pub(super) fn side_phase(&mut self, side: usize) {
        self.refresh(side);
        let mut order: Vec<(u32, usize)> = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side && p.combatant())
            .map(|(k, _)| (self.nearest_enemy(k).map_or(u32::MAX, |e| e.1), k))
            .collect();
        order.sort_unstable();
        for (_, i) in order {
            if self.clock.over {
                return;
            }
            self.act(i);
        }
        for l in 0..self.pieces.len() {
            let p = self.pieces.get(l);
            if p.is_some_and(|p| p.side == side && p.on() && p.unit.is_leader()) {
                // He stays with his unit while it fights, unless a shaken
                // unit within his reach needs rallying.
                let flagged = |u: &Piece<'_>| u.combatant() && (u.halted || u.retiring) && u.cv > 0;
                let with = p.and_then(|p| p.with).and_then(|w| self.pieces.get(w));
                let at = p.map_or((0, 0), |p| p.at);
                let needed = self
                    .pieces
                    .iter()
                    .any(|u| u.side == side && flagged(u) && cheb(u.at, at) <= LEADER_MOVE);
                let keep = with.is_some_and(|u| flagged(u) || (u.combatant() && u.cv > 0 && !needed));
                if !keep {
                    self.join_nearest(l, LEADER_MOVE);
                }
            }
        }
    }

    pub(super) fn act(&mut self, i: usize) {
        let Some(p) = self.pieces.get(i) else { return };
        if !p.combatant() || p.fought || p.unit == Unit::Transport {
            return;
        }
        if p.retiring || p.cv == 0 {
            self.retire(i);
            return;
        }
        if p.blown > 0 {
            if let Some(p) = self.pieces.get_mut(i) {
                p.blown -= 1;
            }
            return;
        }
        match p.unit {
            Unit::FormedInfantry { fires } => self.infantry(i, fires),
            Unit::Skirmishers => self.skirmishers(i),
            Unit::Cavalry => self.cavalry(i),
            Unit::FootArtillery | Unit::HorseArtillery => self.artillery_move(i),
            _ => {}
        }
    }

    // ------------------------------------------------------------------------
    // Movement.

    /// Squares reachable by `i` in `budget` orthogonal steps; `self.dist`
    /// holds the steps. Squares next to an enemy end a move (Close Combat).
    pub(super) fn reach(&mut self, i: usize, budget: u32) {
        self.refresh(self.side(i));
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.dist.fill((0, FAR));
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let (unit, side, start) = (self.unit(i), self.side(i), self.at(i));
        let budget = budget.min(terrain_move_cap(unit, &self.cell(start)));
        self.reach_radius = u8::try_from(budget).unwrap_or(FAR);
        let Some(k0) = self.slot(start) else { return };
        if let Some(d) = self.dist.get_mut(k0) {
            *d = (stamp, 0);
        }
        let passage = self.passage_of(unit);
        let contact = self
            .contact
            .get_mut(side.min(1))
            .map(std::mem::take)
            .unwrap_or_default();
        // The squares reached, in the order reached, are the search's own
        // queue: those of each step follow those of the step before, so the
        // frontier of a step is the run of squares the step before added.
        let mut reached = std::mem::take(&mut self.reached);
        reached.clear();
        reached.push(start);
        let (mut first, mut steps) = (0, 0);
        while steps < budget && first < reached.len() {
            steps += 1;
            let last = reached.len();
            for f in first..last {
                let Some(&sq) = reached.get(f) else { break };
                let Some(k) = self.slot(sq) else { continue };
                let pass = passage.get(k).copied().unwrap_or(0);
                let stops =
                    sq != start && (pass & Passage::STOP != 0 || contact.get(k).copied().unwrap_or(false));
                if stops
                    || steps > Passage::cap(pass)
                    || (sq != start && self.grid.get(k).is_some_and(|&g| g != EMPTY))
                {
                    continue;
                }
                for d in ORTHOGONAL {
                    let n = (sq.0 + d.0, sq.1 + d.1);
                    let Some(k) = self.slot(n) else { continue };
                    if self.dist.get(k).is_none_or(|&v| v.0 == stamp) {
                        continue;
                    }
                    if passage.get(k).copied().unwrap_or(0) & Passage::ENTER == 0 {
                        continue;
                    }
                    let enemy = self.occupant(n).is_some_and(|o| self.side(o) != side);
                    if enemy {
                        continue;
                    }
                    if let Some(v) = self.dist.get_mut(k) {
                        *v = (stamp, u8::try_from(steps).unwrap_or(FAR));
                    }
                    reached.push(n);
                }
            }
            first = last;
        }
        self.reached = reached;
        if let Some(c) = self.contact.get_mut(side.min(1)) {
            *c = contact;
        }
        if let Some(p) = self.passages.get_mut(Passage::class(unit)) {
            *p = passage;
        }
    }

    /// Cuts the last [`Battle::reach`] of unit `i` (with a larger budget,
    /// and nothing moved since) down to what `reach(i, budget)` would give:
    /// the search goes square by square in rings, so the squares within the
    /// smaller budget, their steps and their order are the same.
    pub(super) fn shrink_reach(&mut self, i: usize, budget: u32) {
        let start = self.at(i);
        let budget = budget.min(terrain_move_cap(self.unit(i), &self.cell(start)));
        let small = u8::try_from(budget).unwrap_or(FAR);
        if small >= self.reach_radius {
            return;
        }
        self.reach_radius = small;
        let stamp = self.stamp;
        let mut reached = std::mem::take(&mut self.reached);
        reached.retain(|&sq| {
            let Some(k) = self.slot(sq) else { return false };
            match self.dist.get_mut(k) {
                Some(v) if v.0 == stamp && v.1 <= small => true,
                Some(v) => {
                    *v = (0, FAR);
                    false
                }
                None => false,
            }
        });
        self.reached = reached;
    }

    /// What the terrain of each square asks of a `unit` moving (worked out
    /// once a battle for each kind of unit): taken out of the battle, to be
    /// put back by the caller.
    fn passage_of(&mut self, unit: Unit) -> Vec<u8> {
        let class = Passage::class(unit);
        let mut passage = self
            .passages
            .get_mut(class)
            .map(std::mem::take)
            .unwrap_or_default();
        if passage.len() != self.cells.len() {
            passage = self.cells.iter().map(|c| Passage::of(unit, c)).collect();
        }
        passage
    }

    pub(super) fn steps_to(&self, sq: Square) -> Option<u32> {
        self.slot(sq)
            .and_then(|k| self.dist.get(k))
            .copied()
            .filter(|&(g, d)| g == self.stamp && d != FAR)
            .map(|(_, d)| u32::from(d))
    }

    /// The reachable free square nearest `goal` that no enemy is
    /// orthogonally next to, at least `keep` squares from every enemy.
    pub(super) fn best_move(&mut self, i: usize, goal: Point, keep: u32) -> Option<Square> {
        self.refresh(self.side(i));
        let side = self.side(i);
        let here = self.at(i);
        // Nearer by less than this is not nearer (the arithmetic's margin).
        const MARGIN: f64 = 1e-9;
        let mut best: Option<(f64, Square)> = None;
        // A square passed by the bar is no nearer than the best less the
        // margin: no root taken.
        let mut bar = doctrine::Bar::new(f64::INFINITY);
        for &sq in &self.reached {
            // The nearest first: the other tests only for a square that
            // would be the best so far.
            let Some(d) = bar.root(centre(sq), goal) else {
                continue;
            };
            if best.is_some_and(|(b, _)| d >= b - MARGIN) {
                continue;
            }
            if sq != here && !self.free(sq) {
                continue;
            }
            if self.in_contact(sq, side) {
                continue;
            }
            if keep > 0 && self.threatened(side, sq, keep) {
                continue;
            }
            best = Some((d, sq));
            bar.lower(d - MARGIN);
        }
        best.map(|b| b.1)
    }

    pub(super) fn goal_of(&self, i: usize) -> Point {
        let side = self.side(i);
        match (self.roles.get(side), self.nearest_enemy(i)) {
            (Some(Role::Attacker), Some((e, d))) if d <= 6 => {
                let closes = matches!(self.unit(i), Unit::FormedInfantry { .. } | Unit::Cavalry);
                let open = if closes { self.open_flank(i) } else { None };
                centre(open.unwrap_or(self.at(e)))
            }
            (Some(Role::Attacker), _) => self.goals.get(side).copied().unwrap_or_default(),
            (_, Some((e, d))) if d <= 3 => centre(self.at(e)),
            _ => self
                .pieces
                .get(i)
                .and_then(|p| p.post)
                .map(centre)
                .or_else(|| self.goals.get(side).copied())
                .unwrap_or_default(),
        }
    }

    /// The attacker closes where it can: the free square nearest unit `i`
    /// (and within [`FLANK_SEARCH`] squares of it) orthogonally next to an
    /// enemy it may engage from there, so that the troops behind a front
    /// already in contact march round it to the enemy's open flanks rather
    /// than queue behind their own line ("Any unit that moves into a square
    /// adjacent (orthogonally, not diagonally) to an enemy unit will engage
    /// it in Close Combat", The Turn Sequence).
    pub(super) fn open_flank(&self, i: usize) -> Option<Square> {
        let (side, at, unit) = (self.side(i), self.at(i), self.unit(i));
        let mut best: Option<(u32, Square)> = None;
        for &(f, _) in self.foes(side) {
            if cheb(at, f) > FLANK_SEARCH + 1 {
                continue;
            }
            for d in ORTHOGONAL {
                let sq = (f.0 + d.0, f.1 + d.1);
                let far = cheb(at, sq);
                if best.is_some_and(|b| (far, sq) >= b) {
                    continue;
                }
                if (sq == at || self.free(sq))
                    && may_enter(unit, &self.cell(sq))
                    && may_engage(unit, &self.cell(sq), &self.cell_held(f, side ^ 1))
                {
                    best = Some((far, sq));
                }
            }
        }
        best.map(|b| b.1)
    }

    /// A retiring unit falls back a square from the enemy; from its own
    /// edge it leaves the field.
    pub(super) fn retire(&mut self, i: usize) {
        let side = self.side(i);
        let at = self.at(i);
        let back = self.fronts.get(side).copied().unwrap_or((0, 1));
        let behind = (at.0 - back.0, at.1 - back.1);
        if self.slot(behind).is_none() {
            // Off its own edge: a unit that must retire leaves the field;
            // one only falling back to rally stays.
            if self.pieces.get(i).is_some_and(|p| p.retiring || p.cv == 0) {
                self.leave(i, "retires off the field");
            }
            return;
        }
        let unit = self.unit(i);
        let choice = [
            behind,
            (at.0 + back.1, at.1 + back.0),
            (at.0 - back.1, at.1 - back.0),
        ]
        .into_iter()
        .find(|&sq| self.free(sq) && may_enter(unit, &self.cell(sq)));
        match choice {
            Some(sq) => {
                self.move_to(i, sq);
                self.say(|me| format!("{} falls back to {}.", me.name(i), show(sq)));
            }
            // Hemmed in: it stays where it is (the seed is silent).
            None => self.say(|me| format!("{} cannot fall back and stands.", me.name(i))),
        }
    }

    pub(super) fn leave(&mut self, i: usize, why: &'static str) {
        self.lift(i);
        if let Some(p) = self.pieces.get_mut(i) {
            p.status = Status::Out(Fate::Routed);
        }
        self.say(|me| format!("{} {why}.", me.name(i)));
        for l in 0..self.pieces.len() {
            if self.pieces.get(l).is_some_and(|p| p.with == Some(i)) {
                self.join_nearest(l, LEADER_MOVE);
            }
        }
    }
}
