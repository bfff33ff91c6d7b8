//! Where the defender stands: a firing line on the best ground about the
//! objective it guards, one company on the objective itself, the cavalry
//! behind as a reserve (this program's doctrine; the seed leaves the
//! generals to the players).

use super::battle::{Battle, Status};
use super::tables::Troop;
use crate::rules::board::Point;
use crate::rules::doctrine;
use crate::scenario::Role;

/// The defender's line stands within this many cells of the objective it
/// guards (this program's own: six 3-inch cells, 18 inches, so every post
/// keeps the objective within the 20-inch RIFLE RANGE).
pub(super) const LINE_RADIUS_CELLS: f64 = 6.0;

/// How far toward the enemy of the objective the line may stand, in cells
/// (this program's own: the front of a town or wood about an objective at
/// its heart; none when its general holds back).
pub(super) const LINE_FORWARD_CELLS: f64 = 4.0;

/// The cavalry's reserve post, this many cells behind the objective (this
/// program's own: out of the enemy's fire at the line, within a charge of it).
pub(super) const RESERVE_BACK_CELLS: f64 = 3.0;

/// Where an arm stands in the order of battle, front first: foot, guns,
/// horse, then command and transport (this program's doctrine: the guns
/// come into action close behind a line of foot, not ahead of it, and the
/// horse wait behind them as the reserve).
fn arm_rank(troop: Option<Troop>) -> u8 {
    match troop {
        Some(t) if t.is_gun() => 1,
        Some(t) if t.is_cavalry() || t == Troop::BritishMountedInfantry => 2,
        Some(_) => 0,
        None => 3,
    }
}

impl Battle<'_> {
    /// The attacker's stands on the table at the start that the scenario
    /// does not place change places so that its foot stand nearest the
    /// enemy, its horse behind them, its guns behind the horse, command and
    /// transport last: the places the doctrine deployed them on, dealt out
    /// again by [`arm_rank`].
    pub(super) fn order_of_battle(&mut self) {
        for s in 0..2 {
            if self.side(s).role != Role::Attacker {
                continue;
            }
            let enemy = self
                .scenario
                .sides
                .get(1 - s)
                .map_or(self.side(s).goal, |e| self.board.to_inches(e.deployment.centre()));
            let mine: Vec<usize> = (0..self.stands.len())
                .filter(|&i| {
                    self.stands
                        .get(i)
                        .is_some_and(|u| u.side == s && u.fighting() && u.stand.at.is_none())
                })
                .collect();
            // Nearest the enemy first; among equals (to the thousandth of an
            // inch) the original order, which a table turned end for end keeps.
            let mut places: Vec<(f64, Point)> = mine
                .iter()
                .filter_map(|&i| self.stands.get(i))
                .map(|u| ((doctrine::dist(u.at, enemy) * 1000.0).round(), u.at))
                .collect();
            places.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut order = mine;
            order.sort_by_key(|&i| self.stands.get(i).map_or(u8::MAX, |u| arm_rank(u.troop())));
            for (&i, &(_, at)) in order.iter().zip(&places) {
                if let Some(u) = self.stands.get_mut(i) {
                    u.at = at;
                }
            }
        }
    }

    /// Posts the defender's stands on the table at the start: the line's
    /// posts to its foot and guns, the objective's to the first of them,
    /// its cavalry in reserve behind the objective; a general who holds
    /// back keeps the line no further forward than the objective. Command
    /// and transport follow the army and have no post.
    pub(super) fn post_defenders(&mut self, setting: &crate::rules::engine::Setting<'_>) {
        for s in 0..2 {
            let side = self.side(s);
            if side.role != Role::Defender {
                continue;
            }
            let (rear, hold_back) = (side.rear, side.plan.hold_back);
            let guard = doctrine::nearest_objective(self.scenario, s)
                .unwrap_or_else(|| self.board.to_cells(side.goal));
            let forward = if hold_back { 0.0 } else { LINE_FORWARD_CELLS };
            // A stand the scenario places holds where it is put.
            let posted = |u: &super::battle::Unit<'_>| {
                u.side == s && u.post.is_some() && u.status == Status::Fighting && u.stand.at.is_none()
            };
            let mut line: Vec<usize> = (0..self.stands.len())
                .filter(|&i| {
                    self.stands.get(i).is_some_and(|u| {
                        posted(u) && u.line.is_some() && !u.troop().is_some_and(Troop::is_cavalry)
                    })
                })
                .collect();
            // An army of horse alone holds with its horse.
            if line.is_empty() {
                line = (0..self.stands.len())
                    .filter(|&i| self.stands.get(i).is_some_and(|u| posted(u) && u.line.is_some()))
                    .collect();
            }
            // The foot take the objective and the best of the line, the guns the rest.
            line.sort_by_key(|&i| self.stands.get(i).map_or(u8::MAX, |u| arm_rank(u.troop())));
            let posts = setting.line_posts(guard, rear, forward, LINE_RADIUS_CELLS, line.len());
            for (k, (&i, &p)) in line.iter().zip(&posts).enumerate() {
                let at = self.board.to_inches(p);
                if let Some(u) = self.stands.get_mut(i) {
                    u.post = Some(at);
                    u.holds = k == 0;
                }
            }
            self.deploy_toward_posts(s);
            let reserve = self.board.to_inches(self.board.clamp((
                guard.0 + rear.0 * RESERVE_BACK_CELLS,
                guard.1 + rear.1 * RESERVE_BACK_CELLS,
            )));
            for (i, u) in self.stands.iter_mut().enumerate() {
                if !posted(u) || line.contains(&i) {
                    continue;
                }
                if u.line.is_none() {
                    u.post = None;
                } else if u.troop().is_some_and(Troop::is_cavalry) {
                    u.post = Some(reserve);
                }
            }
        }
    }

    /// Side `s`'s posted stands deploy as near their posts as their
    /// deployment zone allows (on the post itself when it lies in the
    /// zone), not on the zone's best ground wherever it lies: the defender
    /// deploys for the ground it will hold (this program's doctrine).
    fn deploy_toward_posts(&mut self, s: usize) {
        let Some(zone) = self.scenario.sides.get(s).map(|x| x.deployment) else {
            return;
        };
        let (x0, y0) = (f64::from(zone.x), f64::from(zone.y));
        let (x1, y1) = (x0 + f64::from(zone.w) - 0.5, y0 + f64::from(zone.h) - 0.5);
        for i in 0..self.stands.len() {
            let Some(post) = self
                .stands
                .get(i)
                .filter(|u| u.side == s && u.stand.at.is_none())
                .and_then(|u| u.post)
            else {
                continue;
            };
            let p = self.board.to_cells(post);
            let at = (
                p.0.clamp(x0 + 0.5, x1.max(x0 + 0.5)),
                p.1.clamp(y0 + 0.5, y1.max(y0 + 0.5)),
            );
            if self.board.cell_at(at).is_water() || !self.board.on_table(at) {
                continue;
            }
            let at = self.board.to_inches(at);
            if let Some(u) = self.stands.get_mut(i) {
                u.at = at;
            }
        }
    }
}
