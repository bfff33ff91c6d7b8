//! scruby-1961 command: each side's general and his "plan of action" (THE
//! BATTLE: "a 'plan of action' must be thought out before the game ever
//! begins"), after the commanders' plans of FIGURE 14: a defender holds the
//! key positions with "a couple of units" left at each other one and a
//! reserve behind; an attacker marches on the objective as a "strong
//! column" by the flank its plan names and goes in when its body is up;
//! and at the end, the seed's own morale test says who holds the ground.

use super::*;
use crate::rules::LastWord;
use crate::rules::doctrine::HOLDS_WITHIN_CELLS;
use crate::scenario::Role;

/// The share of an attacker's fighters on the table that must be within
/// VISION RANGE of the enemy before it goes in to charge: its body is up
/// (this program's own: two columns in three; "a strong column moves to
/// capture the VILLAGE", FIGURE 14, not regiment by regiment).
pub(super) const BODY_UP_SHARE: f64 = 0.6;

/// Game moves the first of an attacker's stands to come up waits for the
/// rest before the attack goes in anyway (this program's own: about the
/// time a column 12 inches behind takes to come up at 4 inches a move).
pub(super) const WAIT_FOR_BODY_MOVES: u32 = 3;

/// The share of a defender's fighters kept back as its reserve, cavalry
/// first (this program's own: a quarter, to throw back an enemy who gains
/// a footing on the ground it guards).
pub(super) const RESERVE_SHARE: f64 = 0.25;

/// How far behind the ground it guards a defender's reserve stands, inches
/// (this program's own: two line moves, out of the enemy's musket range of
/// the front).
pub(super) const RESERVE_BACK_INCHES: f64 = 8.0;

/// A defender's reserve marches on an enemy that comes within this many
/// inches of the ground it guards (this program's own: a musket range and
/// a charge).
pub(super) const THREAT_INCHES: f64 = 7.0;

/// Stands a defender leaves at each objective beyond its main one:
/// FIGURE 14, "BLUE will have to maintain a couple of units at Bridge Z".
pub(super) const DETACHMENT: usize = 2;

/// Before its attack goes in, an attacker's stands halt this far from the
/// nearest enemy: out of cannon range even from a hill (ARTILLERY FIRE 1:
/// "16 inch range ... from a hill, increase the range to 18 inches") and
/// beyond VISION RANGE, so its columns stay concealed while the rest come
/// up (this program's own).
pub(super) const RALLY_INCHES: f64 = 18.5;

/// From this share of the day on, an attacker that has not taken the
/// ground charges at odds down to [`LAST_CHANCE_ODDS`] (this program's own:
/// an attacker that stands off until nightfall has lost anyway).
pub(super) const LAST_CHANCE_FROM: f64 = 2.0 / 3.0;
pub(super) const LAST_CHANCE_ODDS: f64 = 0.5;

/// In the attack, no stand goes more than this many inches nearer the
/// enemy than the middle of its side's line (the median distance of its
/// fighters to their nearest enemy), unless it can charge: the line goes in
/// together (this program's own: an inch, so that the line comes into
/// the enemy's musket range together and fires together).
pub(super) const DRESS_INCHES: f64 = 1.0;

/// Once its attack has gone in, an attacker's odds to charge are its
/// general's times this (this program's own: a line sent in means to come
/// to grips, and charging is how it escapes the defender's volleys, for "no
/// troops or guns may fire into the melee").
pub(super) const ASSAULT_ODDS: f64 = 0.5;

/// In the last game moves a defender that held back comes forward onto the
/// ground it guards, which it must hold at the end (this program's own:
/// two line moves cover the 4 inches it held back by).
pub(super) const COME_FORWARD_MOVES: u32 = 2;

/// A defender's line of more than this many stands stands in two ranks
/// (this program's own: FIGURE 8 deploys a column of six into "2 lines of
/// 3 Regiments").
pub(super) const ONE_RANK: usize = 6;

/// An attack on a flank (its plan's axis left or right) puts the middle of
/// its line this share of its front's width to that hand of the objective,
/// so that its line overlaps the end of the enemy's and more of its
/// regiments fire than the enemy's (this program's own: FIGURE 14's RED
/// "feint towards BLUE Right HQ and protect the flank of a column"; a
/// quarter of the front).
pub(super) const FLANK_SHIFT_SHARE: f64 = 0.25;

/// An attacker's stand within this many inches of its place in the line of
/// attack has come up: from there it closes on the nearest enemy (this
/// program's own: a tray's length and a half-inch, one place in the line).
pub(super) const IN_PLACE_INCHES: f64 = TRAY_LENGTH_INCHES + TRAY_DEPTH_INCHES;

/// What a stand is ordered to do this game move (other than charge).
#[derive(Debug, Clone, Copy)]
pub(super) struct Order {
    /// Where it makes for, inches.
    pub to: Point,
    /// How near it goes.
    pub stop: f64,
    /// Infantry stands and fires in Line there (else it keeps its column).
    pub line: bool,
    /// It keeps out of the musket range of every enemy regiment on its way.
    pub keep_out: bool,
    /// Nearer than `stop`, it falls back to it (columns waiting out of
    /// cannon range for their body to come up).
    pub back: bool,
}

impl Battle<'_> {
    /// The objectives' centres, inches, nearest side `side`'s deployment first.
    pub(super) fn objectives_for(&self, side: usize) -> Vec<Point> {
        let home = self
            .scenario
            .sides
            .get(side)
            .map_or((0.0, 0.0), |s| self.board.to_inches(s.deployment.centre()));
        let mut v: Vec<Point> = self
            .scenario
            .objectives
            .iter()
            .map(|o| self.board.to_inches((f64::from(o.x) + 0.5, f64::from(o.y) + 0.5)))
            .collect();
        v.sort_by(|a, b| doctrine::dist(*a, home).total_cmp(&doctrine::dist(*b, home)));
        v
    }

    /// Whether side `side` holds the objective at `at` (inches) as the judge
    /// counts: a stand of its within [`HOLDS_WITHIN_CELLS`], no enemy as near
    /// (at a crossing, no attacker's stand on it or across it).
    /// A stand of side `s` standing at the end counts (as [`Battle::outcome`]
    /// gives it, `Stood`): on the table, and a gun only while its side has it.
    fn stands_for(u: &Unit<'_>, s: usize) -> bool {
        u.side == s && u.fighting() && (!u.is_gun() || u.gun_counts())
    }

    pub(super) fn holds(&self, side: usize, at: Point) -> bool {
        // The objective at `at`, counted as the judge counts it (a crossing
        // only from on it or across it, crate::rules::ObjectiveHold).
        let objective = self
            .objective_holds
            .iter()
            .find(|(centre, _)| doctrine::dist(*centre, at) < 1e-6)
            .map(|(_, h)| h);
        let r = HOLDS_WITHIN_CELLS * self.board.cell_inches;
        let counts = |u: &Unit<'_>, s: usize| match objective {
            Some(h) => h.counts(s, self.board.to_cells(u.at)),
            None => doctrine::dist(u.at, at) <= r,
        };
        let near = |s: usize| self.stands.iter().any(|u| Self::stands_for(u, s) && counts(u, s));
        near(side) && !near(1 - side.min(1))
    }

    /// Whether the objectives would decide the battle now: one side holds
    /// more of them ([`crate::rules::judge`]).
    pub(super) fn objectives_decide(&self) -> bool {
        let count = |s: usize| {
            self.scenario
                .objectives
                .iter()
                .filter(|o| {
                    self.holds(
                        s,
                        self.board.to_inches((f64::from(o.x) + 0.5, f64::from(o.y) + 0.5)),
                    )
                })
                .count()
        };
        count(0) != count(1)
    }

    /// The defender's posts, once, at the start: the stands the doctrine
    /// deployed (not those the scenario places) are shared out: "a couple
    /// of units" at each objective beyond the main one (FIGURE 14), a
    /// reserve of a quarter of its fighters, cavalry first, behind the main
    /// one; the rest keep the posts the doctrine gave them about it.
    pub(super) fn assign_posts(&mut self, setting: &Setting<'_>) {
        for s in 0..2 {
            let side = *self.side(s);
            if side.role != Role::Defender {
                continue;
            }
            let objectives = self.objectives_for(s);
            let Some(&main) = objectives.first() else { continue };
            let movable = |u: &Unit<'_>| {
                u.side == s && u.fighting() && u.stand.at.is_none() && u.post.is_some() && u.troop.is_some()
            };
            let fighters: Vec<usize> = (0..self.stands.len())
                .filter(|&k| self.stands.get(k).is_some_and(|u| movable(u) && !u.is_gun()))
                .collect();
            let mut taken: Vec<usize> = Vec::new();
            // A couple of units at each other objective, while the main body
            // keeps at least half the fighters.
            for &other in objectives.iter().skip(1) {
                if (taken.len() + DETACHMENT) * 2 > fighters.len() {
                    break;
                }
                let mut near: Vec<(usize, f64)> = fighters
                    .iter()
                    .filter(|k| !taken.contains(k))
                    .filter_map(|&k| self.stands.get(k).map(|u| (k, doctrine::dist(u.at, other))))
                    .collect();
                near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                let detached: Vec<usize> = near.into_iter().take(DETACHMENT).map(|(k, _)| k).collect();
                taken.extend(&detached);
                self.post_stands(setting, other, side.rear, &detached);
            }
            // The rest, guns too, about the main objective.
            let main_posts: Vec<usize> = (0..self.stands.len())
                .filter(|k| !taken.contains(k))
                .filter(|&k| self.stands.get(k).is_some_and(movable))
                .collect();
            self.line_posts(setting, main, side.rear, &main_posts);
            // The reserve: cavalry first, then the infantry posted furthest
            // from the main objective.
            let mut main_body: Vec<(usize, bool, f64)> = fighters
                .iter()
                .filter(|k| !taken.contains(k))
                .filter_map(|&k| {
                    self.stands.get(k).map(|u| {
                        let cavalry = u.troop.is_some_and(Troop::is_cavalry);
                        (k, cavalry, u.post.map_or(0.0, |p| doctrine::dist(p, main)))
                    })
                })
                .collect();
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let reserve = (fighters.len() as f64 * RESERVE_SHARE).round() as usize;
            let reserve = reserve.min(main_body.len().saturating_sub(1));
            main_body.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
            let back = (
                main.0 + side.rear.0 * RESERVE_BACK_INCHES,
                main.1 + side.rear.1 * RESERVE_BACK_INCHES,
            );
            for (n, &(k, _, _)) in main_body.iter().enumerate() {
                let on_table = self.on_table(back) && !self.cell(back).is_water();
                let Some(u) = self.stands.get_mut(k) else { continue };
                u.guard = Some(main);
                if n < reserve {
                    u.reserve = true;
                    if on_table {
                        // Spread the reserve a tray's length apart along the front.
                        #[allow(clippy::cast_precision_loss)]
                        let off = (n as f64 - (reserve as f64 - 1.0) / 2.0) * TRAY_LENGTH_INCHES * 1.5;
                        let across = (side.rear.1, -side.rear.0);
                        u.post = Some((back.0 + across.0 * off, back.1 + across.1 * off));
                    }
                }
            }
        }
    }

    /// The generals look at the field at the start of each game move: the
    /// attacker's goal is the nearest objective it does not yet hold ("The
    /// attack continues towards Bridge X", FIGURE 14), and it goes in to
    /// charge once its body is up ([`BODY_UP_SHARE`]), once the first up has
    /// waited [`WAIT_FOR_BODY_MOVES`], or late in the day.
    pub(super) fn plan_move(&mut self) {
        let limit = self.scenario.turn_limit;
        for s in 0..2 {
            let side = *self.side(s);
            if side.role != Role::Attacker {
                continue;
            }
            let objectives = self.objectives_for(s);
            if let Some(goal) = objectives
                .iter()
                .copied()
                .find(|&o| !self.holds(s, o))
                .or_else(|| objectives.last().copied())
                && let Some(g) = self.goals.get_mut(s)
            {
                *g = goal;
            }
            let (mut fighters, mut up) = (0_u32, 0_u32);
            let mut line: Vec<f64> = Vec::new();
            // Its enemy combatants listed once: `nearest_foe(i)` is
            // `nearest(i, |e| e.combatant())`, and nothing moves here.
            self.list_foes(s);
            let mut nears = std::mem::take(&mut self.nears);
            for (i, u) in self.stands.iter().enumerate() {
                if u.owner != s || !u.fighter() {
                    continue;
                }
                fighters += 1;
                let found = self.nearest_foe(i);
                if let Some(n) = nears.get_mut(i) {
                    *n = found;
                }
                let near = found.map(|(_, d)| d);
                if near.is_some_and(|d| d <= RALLY_INCHES + TRAY_LENGTH_INCHES) {
                    up += 1;
                }
                if let Some(d) = near {
                    line.push(d);
                }
            }
            self.nears = nears;
            if let Some(h) = self.nears_hold.get_mut(s) {
                *h = true;
            }
            line.sort_by(f64::total_cmp);
            if let Some(f) = self.front.get_mut(s) {
                *f = line.get(line.len() / 2).copied().unwrap_or(0.0);
            }
            let turn = self.turn;
            if up > 0
                && self.up_since.get(s).copied().flatten().is_none()
                && let Some(since) = self.up_since.get_mut(s)
            {
                *since = Some(turn);
            }
            let waited = self
                .up_since
                .get(s)
                .copied()
                .flatten()
                .is_some_and(|t| turn >= t + WAIT_FOR_BODY_MOVES);
            let body = fighters > 0 && f64::from(up) >= BODY_UP_SHARE * f64::from(fighters);
            let go = body || waited || doctrine::late(turn, limit);
            // Once in, the attack stays in.
            if let Some(a) = self.assault.get_mut(s)
                && go
                && !*a
            {
                *a = true;
                let name = side.name;
                self.log.say(turn, || format!("{name} goes in to the attack"));
            }
        }
    }

    /// Whether side `side` holds the objective its attack aims at now.
    pub(super) fn holds_goal(&self, side: usize) -> bool {
        !self.scenario.objectives.is_empty() && self.holds(side, self.goal_of(side))
    }

    /// Posts on ground each stand may enter (SPECIAL MOVEMENT RULES: no
    /// horse or guns in a forest) about `guard` (inches) for stands `who`,
    /// in the doctrine's order ([`doctrine::posts`]: the cells holding the
    /// objective first, then the best defensive ground), foot first to the
    /// best of it; one stand a cell while cells last.
    fn post_stands(&mut self, setting: &Setting<'_>, guard: Point, rear: Point, who: &[usize]) {
        let cell = self.board.to_cells(guard);
        let cells = setting.posts(cell, rear, who.len().saturating_mul(4).max(8));
        let mut order: Vec<usize> = who.to_vec();
        let rank = |b: &Battle<'_>, k: usize| match b.stands.get(k).and_then(|u| u.troop) {
            Some(t) if t.is_infantry() => 0,
            Some(t) if t.is_gun() => 1,
            _ => 2,
        };
        order.sort_by_key(|&k| (rank(self, k), k));
        let mut used: Vec<Point> = Vec::new();
        for k in order {
            let Some(troop) = self.stands.get(k).and_then(|u| u.troop) else {
                continue;
            };
            let fits = |p: &Point| may_enter(troop, self.board.cell_at(*p).ground);
            let pick = cells
                .iter()
                .find(|p| fits(p) && !used.contains(p))
                .or_else(|| cells.iter().find(|p| fits(p)))
                .copied();
            let Some(p) = pick else { continue };
            used.push(p);
            let post = self.board.to_inches(p);
            if let Some(u) = self.stands.get_mut(k) {
                u.post = Some(post);
                u.guard = Some(guard);
            }
        }
    }

    /// Posts in a line across the front through `guard` (inches), `rear`
    /// the way to the side's own edge, for stands `who`: a rank a cell apart
    /// (a tray's length and a half-inch between trays), in two ranks when
    /// there are more than [`ONE_RANK`], foot in the middle of the front
    /// rank, then guns, horse at the back and ends (FIGURE 8's "2 lines of
    /// 3 Regiments spaced somewhat apart"; THE TERRAIN: "a complete 'army'
    /// will leave wide and vital gaps"); each set down on the nearest cell it
    /// may enter that no other took. The same stands about the same
    /// objective get the same posts in every battle on the table, so the
    /// [`Setting`] keeps them.
    fn line_posts(&mut self, setting: &Setting<'_>, guard: Point, rear: Point, who: &[usize]) {
        if who.is_empty() {
            return;
        }
        let key: Vec<u64> = [guard.0, guard.1, rear.0, rear.1]
            .map(f64::to_bits)
            .into_iter()
            .chain(who.iter().map(|&k| u64::try_from(k).unwrap_or(u64::MAX)))
            .collect();
        let posts = setting.engine_posts(&key, || self.draw_line_posts(guard, rear, who));
        for (&k, post) in who.iter().zip(posts) {
            let Some(post) = post else { continue };
            if let Some(u) = self.stands.get_mut(k) {
                u.post = Some(post);
                u.guard = Some(guard);
            }
        }
    }

    /// [`Battle::line_posts`]' posts, drawn: each of `who`'s, in its order
    /// (none for a stand no cell near its place in the line will take).
    fn draw_line_posts(&self, guard: Point, rear: Point, who: &[usize]) -> Vec<Option<Point>> {
        let n = who.len();
        let mut out = vec![None; n];
        let c = self.board.cell_inches;
        let spacing = c.max(TRAY_LENGTH_INCHES + TRAY_DEPTH_INCHES);
        let across = (rear.1, -rear.0);
        let wide = if n > ONE_RANK { n.div_ceil(2) } else { n };
        let mut slots: Vec<(usize, f64, Point)> = (0..n)
            .map(|k| {
                let (rank, file) = (k / wide, k % wide);
                #[allow(clippy::cast_precision_loss)]
                let off = (file as f64 - (wide as f64 - 1.0) / 2.0) * spacing;
                #[allow(clippy::cast_precision_loss)]
                let back = rank as f64 * spacing;
                let p = (
                    guard.0 + across.0 * off + rear.0 * back,
                    guard.1 + across.1 * off + rear.1 * back,
                );
                (rank, off.abs(), p)
            })
            .collect();
        slots.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        // Positions in `who`, foot first, then guns, then horse.
        let mut order: Vec<(usize, usize)> = who.iter().copied().enumerate().collect();
        let kind = |b: &Battle<'_>, k: usize| match b.stands.get(k).and_then(|u| u.troop) {
            Some(t) if t.is_infantry() => 0,
            Some(t) if t.is_gun() => 1,
            _ => 2,
        };
        order.sort_by_key(|&(_, k)| (kind(self, k), k));
        let mut used: Vec<(i64, i64)> = Vec::new();
        for ((at, k), (_, _, slot)) in order.into_iter().zip(slots) {
            let Some(troop) = self.stands.get(k).and_then(|u| u.troop) else {
                continue;
            };
            let want = self.board.to_cells(slot);
            let mut best: Option<((i64, i64), f64)> = None;
            let (cx, cy) = (
                crate::rules::board::floor(want.0),
                crate::rules::board::floor(want.1),
            );
            for dy in -4..=4_i64 {
                for dx in -4..=4_i64 {
                    let cell = (cx + dx, cy + dy);
                    #[allow(clippy::cast_precision_loss)]
                    let centre = (cell.0 as f64 + 0.5, cell.1 as f64 + 0.5);
                    // A cell no nearer than the best so far is passed over
                    // before its ground and the cells taken are looked at.
                    let d = doctrine::dist(centre, want);
                    if best.is_some_and(|(_, b)| d >= b - EPSILON) || !self.board.on_table(centre) {
                        continue;
                    }
                    let ground = self.board.cell(cell.0, cell.1);
                    if ground.is_water() || !may_enter(troop, ground.ground) || used.contains(&cell) {
                        continue;
                    }
                    best = Some((cell, d));
                }
            }
            let Some((cell, _)) = best else { continue };
            used.push(cell);
            #[allow(clippy::cast_precision_loss)]
            let post = ((cell.0 as f64 + 0.5) * c, (cell.1 as f64 + 0.5) * c);
            if let Some(o) = out.get_mut(at) {
                *o = Some(post);
            }
        }
        out
    }

    /// The attacker's line of attack, once, at the start: its foot in one
    /// line, a tray's length and a half-inch apart, so that each regiment
    /// has its own lane of fire, as the guns must have theirs ("Lanes of
    /// Fire must be left between infantry"), each keeping its place across
    /// the front from the left to the right (when the body is up, the
    /// columns deploy side by side, FIGURE 8). Horse and guns have no place
    /// in it (this program's own).
    pub(super) fn assign_slots(&mut self) {
        let spacing = self.line_spacing();
        for s in 0..2 {
            if self.side(s).role != Role::Attacker {
                continue;
            }
            let mut foot: Vec<(usize, f64)> = self
                .stands
                .iter()
                .enumerate()
                .filter(|(_, u)| u.side == s && u.troop.is_some_and(Troop::is_infantry))
                .map(|(k, u)| (k, u.across))
                .collect();
            foot.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            #[allow(clippy::cast_precision_loss)]
            let half = (foot.len().max(1) as f64 - 1.0) / 2.0;
            for (r, &(k, _)) in foot.iter().enumerate() {
                #[allow(clippy::cast_precision_loss)]
                let off = (half - r as f64) * spacing;
                if let Some(u) = self.stands.get_mut(k) {
                    u.slot = Some((off, 0.0));
                }
            }
        }
    }

    /// A tray's length and a half-inch between trays, or a cell if more.
    pub(super) fn line_spacing(&self) -> f64 {
        self.board.cell_inches.max(TRAY_LENGTH_INCHES + TRAY_DEPTH_INCHES)
    }

    /// Where stand `i` makes for in its side's line of attack, about
    /// `toward` (inches): its place across the front ([`Battle::assign_slots`]),
    /// the middle of the line shifted to the flank its plan names
    /// ([`FLANK_SHIFT_SHARE`]).
    pub(super) fn place_in_line(&self, i: usize, toward: Point) -> Option<Point> {
        let u = self.stands.get(i)?;
        let (slot, back) = u.slot?;
        let side = self.side(u.owner);
        let foot = self.foot.get(u.owner).copied().unwrap_or(0);
        #[allow(clippy::cast_precision_loss)]
        let width = foot as f64 * self.line_spacing();
        let shift = match side.plan.axis {
            doctrine::Axis::Left => width * FLANK_SHIFT_SHARE,
            doctrine::Axis::Right => -width * FLANK_SHIFT_SHARE,
            _ => 0.0,
        };
        let left = (-side.rear.1, side.rear.0);
        let p = (
            toward.0 + left.0 * (shift + slot) + side.rear.0 * back,
            toward.1 + left.1 * (shift + slot) + side.rear.1 * back,
        );
        // Kept on the table.
        let (w, d) = (
            f64::from(self.scenario.table.width) * self.board.cell_inches,
            f64::from(self.scenario.table.depth) * self.board.cell_inches,
        );
        Some((
            p.0.clamp(1.0, (w - 1.0).max(1.0)),
            p.1.clamp(1.0, (d - 1.0).max(1.0)),
        ))
    }

    /// Stand `i` makes for its place in the line of attack, no nearer the
    /// nearest enemy (`near`, its nearest enemy combatant) than `want`
    /// inches: `None` once it is in its place (or has none), when it closes
    /// on the enemy as before.
    pub(super) fn to_place(
        &self,
        i: usize,
        near: Option<(usize, f64)>,
        want: f64,
        keep_out: bool,
    ) -> Option<Order> {
        let u = self.stands.get(i)?;
        let to = self.place_in_line(i, self.goal_of(u.owner))?;
        let d = doctrine::dist(u.at, to);
        if d <= IN_PLACE_INCHES {
            return None;
        }
        let back = u.slot.map_or(0.0, |(_, b)| b);
        let near = near.map_or(f64::INFINITY, |(_, n)| n);
        let advance = (near - want - back).max(0.0);
        Some(Order {
            to,
            stop: (d - advance).max(0.0),
            line: false,
            keep_out,
            back: false,
        })
    }

    /// Where a defender's stand `i` stands now: its post, held back by its
    /// general's plan ([`doctrine::Plan::post`]) until the last
    /// [`COME_FORWARD_MOVES`], its guns with its foot (a line held back
    /// does not leave its guns in front of it); the reserve at its post.
    pub(super) fn held_post(&self, i: usize) -> Option<Point> {
        let u = self.stands.get(i)?;
        let post = u.post?;
        let side = self.side(u.owner);
        let forward = self.turn + COME_FORWARD_MOVES > self.scenario.turn_limit;
        Some(if u.reserve || forward {
            post
        } else {
            side.plan.post(post, side.rear, self.board.cell_inches)
        })
    }

    /// Whether side `side` is an attacker that has not taken the ground by
    /// [`LAST_CHANCE_FROM`] of the day.
    pub(super) fn last_chance(&self, side: usize) -> bool {
        self.side(side).role == Role::Attacker
            && f64::from(self.turn) > f64::from(self.scenario.turn_limit) * LAST_CHANCE_FROM
            && !self.holds_goal(side)
    }

    /// Where side `side`'s attack aims now, inches.
    pub(super) fn goal_of(&self, side: usize) -> Point {
        self.goals.get(side).copied().unwrap_or(self.side(side).goal)
    }

    /// What stand `i` does this game move, other than charge; `near` is
    /// its nearest enemy combatant (`self.nearest(i, |e| e.combatant())`).
    pub(super) fn order(&self, i: usize, near: Option<(usize, f64)>) -> Option<Order> {
        let u = self.stands.get(i)?;
        let troop = u.troop?;
        let side = *self.side(u.owner);
        let c = self.board.cell_inches;
        let reach = charge_inches(troop).unwrap_or(0.0);
        // Horse do not go for guns; for the rest the nearest combatant will do
        // (the enemy combatants from the side's list, [`Battle::move_side`]).
        let enemy = if troop.is_cavalry() {
            self.nearest_foe_to(u.at, f64::INFINITY, |f| !f.gun)
        } else {
            near
        };
        // An attacker's line goes in together ([`DRESS_INCHES`]).
        let dress = match side.role {
            Role::Attacker => self.front.get(u.owner).map_or(0.0, |f| f - DRESS_INCHES),
            Role::Defender => 0.0,
        };
        let close = |(j, _): (usize, f64)| -> Order {
            let at = self.stands.get(j).map_or(u.at, |e| e.at);
            let uphill = self.cell(at).level > self.cell(u.at).level;
            let reach = melee_reach(troop, uphill).unwrap_or(reach);
            let stop = self.approach(
                i,
                j,
                (reach + CONTACT_INCHES - STEP_INCHES).max(CONTACT_INCHES + STEP_INCHES),
            );
            // Ahead of its line, it waits out of the enemy's musket range
            // for the line to come up; then it goes in at full pace.
            let ahead = doctrine::dist(u.at, at) < dress;
            Order {
                to: at,
                stop,
                line: false,
                keep_out: ahead,
                back: false,
            }
        };
        if side.role == Role::Defender && u.owner == u.side {
            let post = self.held_post(i).unwrap_or(side.goal);
            // An enemy on the ground it guards is thrown back; the reserve
            // marches on one that comes near it.
            let (guard, radius) = self.guard_watch(u);
            let threat = kept_watch(&self.watches, guard, radius)
                .map_or_else(|| self.nearest_to(guard, radius), |w| w.2);
            if !u.is_gun()
                && let Some(j) = threat
            {
                return Some(close((j, 0.0)));
            }
            return Some(Order {
                to: post,
                stop: 0.0,
                line: true,
                keep_out: false,
                back: false,
            });
        }
        // The attacker (and a captured gun's new owner's men, and any
        // side with no post).
        let assault = self.assault.get(u.owner).copied().unwrap_or(true);
        // A gun whose crew was killed, near and not its own side's to hold:
        // its men go and hold it, to man it in three moves (CASUALTY RATES 8).
        if !troop.is_cavalry()
            && self.crewless
            && let Some((g, _)) = self
                .nearest(i, |e| {
                    e.fighting() && e.is_gun() && !e.crewed && e.held_by != Some(u.owner)
                })
                .filter(|&(_, d)| d <= reach + TRAY_DEPTH_INCHES)
            && enemy.is_none_or(|(_, d)| d > reach + TRAY_LENGTH_INCHES)
        {
            let at = self.stands.get(g).map_or(u.at, |e| e.at);
            return Some(Order {
                to: at,
                stop: TRAY_LENGTH_INCHES,
                line: false,
                keep_out: false,
                back: false,
            });
        }
        if let Some((j, d)) = enemy
            && d <= RALLY_INCHES
                + TRAY_LENGTH_INCHES
                + move_inches(troop, Formation::CrossCountryColumn, false)
        {
            let e = self.stands.get(j)?;
            let order = if !assault {
                // Its body is not up: it halts out of cannon range.
                Order {
                    to: e.at,
                    stop: self.approach(i, j, RALLY_INCHES),
                    line: false,
                    keep_out: false,
                    back: true,
                }
            } else if troop == Troop::LightCavalry {
                // Scouts close to scouting distance (rule 17A: "within 9
                // inches") and no nearer: they are "not used as combat
                // troops" (rule 14).
                Order {
                    to: e.at,
                    stop: self.approach(i, j, SCOUTING_INCHES - TRAY_DEPTH_INCHES),
                    line: false,
                    keep_out: false,
                    back: false,
                }
            } else if troop.is_cavalry() && !self.charge_prospect(i, j) {
                // Cavalry keep out of musket range until a charge is in
                // prospect.
                Order {
                    to: e.at,
                    stop: CONTACT_INCHES,
                    line: false,
                    keep_out: true,
                    back: false,
                }
            } else {
                let mut order = close((j, d));
                // Its foot halts in musket range to fire until a charge is
                // in prospect, rather than stand in the enemy's charge reach
                // and not its own ([`FIRE_FIGHT`]).
                // Not against an enemy in a defensive position: its fire
                // from there kills "automatically", the attacker's from the
                // open only on a 1-3-6 (CASUALTY RATES 5 and 6), so a fire
                // fight there is lost; it closes to charge.
                let position = self.defensive(e.at, e.side, u.at) && !troop.is_elite();
                if troop.is_infantry()
                    && !position
                    && !self.last_chance(u.owner)
                    && !self.charge_prospect(i, j)
                {
                    order.stop = order.stop.max(self.approach(i, j, u.range - STEP_INCHES));
                }
                // The line of attack comes up each in its place, then
                // closes on the nearest enemy.
                self.to_place(i, near, order.stop, order.keep_out)
                    .unwrap_or(order)
            };
            return Some(order);
        }
        let goal = self.goal_of(u.owner);
        let to = if side.role == Role::Attacker {
            let aim = side.plan.aim(u.at, goal, side.rear, c);
            self.place_in_line(i, aim).unwrap_or(aim)
        } else {
            goal
        };
        Some(Order {
            to,
            stop: 0.0,
            line: false,
            keep_out: false,
            back: false,
        })
    }

    /// How near stand `i` goes to enemy `j` when it means to halt `stop`
    /// inches off: into a forest only the adjoining square is fired on
    /// (FIGURES 2-3), and an enemy out of sight cannot be fired on at all,
    /// so it closes until it can, short of contact.
    pub(super) fn approach(&self, i: usize, j: usize, stop: f64) -> f64 {
        let (Some(u), Some(e)) = (self.stands.get(i), self.stands.get(j)) else {
            return stop;
        };
        let in_wood = self.cell(e.at).ground == Ground::ForestInterior
            || self.cell(u.at).ground == Ground::ForestInterior;
        if !self.clear_sight(u.at, e.at) {
            stop.min(CONTACT_INCHES + 1.0 + STEP_INCHES)
        } else if in_wood {
            stop.min(FOREST_FIRE_INCHES - STEP_INCHES)
        } else {
            stop
        }
    }

    /// How far `p` is outside the musket range of every enemy regiment of
    /// side `side` (negative: inside one's), with a tray's depth to spare,
    /// and the nearest such regiment.
    pub(super) fn musket_margin(&self, side: usize, p: Point) -> (f64, Option<usize>) {
        let mut best = (f64::INFINITY, None);
        for (k, e) in self.stands.iter().enumerate() {
            if e.owner == side || !e.fighter() || !e.troop.is_some_and(Troop::is_infantry) {
                continue;
            }
            let m = doctrine::dist(p, e.at) - e.range - TRAY_DEPTH_INCHES;
            if m < best.0 {
                best = (m, Some(k));
            }
        }
        best
    }

    /// The ground a defending stand guards and how far about it it looks
    /// for an enemy to throw back ([`Battle::order`]): its line's ground,
    /// held within [`HOLDS_WITHIN_CELLS`]; a reserve's, within
    /// [`THREAT_INCHES`].
    pub(super) fn guard_watch(&self, u: &Unit<'_>) -> (Point, f64) {
        let side = self.side(u.owner);
        let guard = u.guard.unwrap_or(side.goal);
        let held = HOLDS_WITHIN_CELLS * self.board.cell_inches + CONTACT_INCHES;
        (guard, if u.reserve { THREAT_INCHES } else { held })
    }

    /// Lists side `side`'s watches ([`Battle::watches`]) as its move begins,
    /// its foes listed: none for an attacker.
    pub(super) fn list_watches(&mut self, side: usize) {
        let mut watches = std::mem::take(&mut self.watches);
        watches.clear();
        if self.side(side).role == Role::Defender {
            for u in self.stands.iter() {
                if u.owner != side || u.owner != u.side {
                    continue;
                }
                let (guard, radius) = self.guard_watch(u);
                if kept_watch(&watches, guard, radius).is_none() {
                    watches.push((guard, radius, self.nearest_to(guard, radius)));
                }
            }
        }
        self.watches = watches;
    }

    /// The enemy fighter of the side moving nearest `at` within `radius`
    /// inches, from the side's list of foes ([`Battle::move_side`]): a
    /// fighter is a combatant that is not a gun.
    pub(super) fn nearest_to(&self, at: Point, radius: f64) -> Option<usize> {
        self.nearest_foe_to(at, radius + EPSILON, |f| !f.gun)
            .map(|(j, _)| j)
    }

    /// The seed's own last word, thrown at the end of the last game move
    /// when no army has broken: MORALE FACTOR AFTER A MELEE, "each player
    /// counts the total number of COMBAT POINTS he has left. He rolls one
    /// dice, and multiplies this by the total Combat Points he has. The
    /// High total wins the melee and holds his ground. The Low Total must
    /// retire three moves." Thrown for the two armies, every fighter on
    /// the table counted at THE MELEE's combat value (guns have none);
    /// equal totals throw again, as in the melee.
    pub(super) fn last_word(&mut self) -> Option<LastWord> {
        let points = |b: &Battle<'_>, s: usize| -> u32 {
            b.stands
                .iter()
                .filter(|u| u.side == s && u.owner == s && u.fighter())
                .map(Unit::melee_points)
                .sum()
        };
        let (a, b) = (points(self, 0), points(self, 1));
        if a == 0 && b == 0 {
            return None;
        }
        for _ in 0..100 {
            let (fa, fb) = (self.dice.d6(), self.dice.d6());
            let Some(holds) = army_holds(a, fa, b, fb) else {
                continue;
            };
            let (ta, tb) = (morale_total(a, fa), morale_total(b, fb));
            let (na, nb) = (self.side(0).name, self.side(1).name);
            let why = format!(
                "the last morale throw, {na} {a} combat points x {fa} = {ta} against {nb} {b} x {fb} = {tb}; the low total retires three moves"
            );
            let turn = self.turn;
            self.log.say(turn, || why.clone());
            return Some(LastWord {
                holds: Some(holds),
                why,
            });
        }
        None
    }
}

/// The watch kept for `guard` and `radius`, the same to the bit, so that
/// it gives what a look made afresh would ([`Battle::watches`]).
fn kept_watch(
    watches: &[(Point, f64, Option<usize>)],
    guard: Point,
    radius: f64,
) -> Option<&(Point, f64, Option<usize>)> {
    watches.iter().find(|w| {
        w.0.0.to_bits() == guard.0.to_bits()
            && w.0.1.to_bits() == guard.1.to_bits()
            && w.1.to_bits() == radius.to_bits()
    })
}
