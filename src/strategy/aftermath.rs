//! A fought battle's result applied to the campaign: strengths and losses,
//! captured guns, the loser's retreat, the HQ in the region, the record.
//!
//! Pure: takes the campaign and the verdict (from the engine or from a
//! results sheet) and returns the new state and its events.

use super::index::MapIndex;
use super::supply::{Holding, search, sources};
use crate::model::event as ev;
use crate::model::{
    Arm, Battle, BattleResult, BattleStatus, Campaign, Event, Force, ForceId, RegionId, ResultSource,
    RuleSetId, SideId, SideLoss, Stand, StandId,
};
use crate::model::{EventKind, EventLog};
use crate::rules::{Fate, Outcome};
use std::collections::{BTreeMap, HashMap};

/// How a battle came out, whoever fought it.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub rules: RuleSetId,
    pub source: ResultSource,
    /// `None`: a draw.
    pub winner: Option<SideId>,
    /// Each stand that was on the battle's roll, with its strength at the end.
    pub stands: Vec<StandAfter>,
    /// The engine's verdict, or the umpire's notes.
    pub verdict: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandAfter {
    pub id: StandId,
    /// Roster points at the end; 0: destroyed.
    pub after: u32,
    /// Taken by the enemy (guns whose crews were lost or driven off).
    pub captured: bool,
}

impl Verdict {
    /// The engine's outcome as a verdict.
    pub fn from_outcome(outcome: &Outcome) -> Verdict {
        Verdict {
            rules: outcome.rules,
            source: ResultSource::Engine { seed: outcome.seed },
            winner: outcome.winner.as_deref().map(SideId::new),
            stands: outcome
                .stands
                .iter()
                .map(|s| StandAfter {
                    id: s.id,
                    after: if s.fate == Fate::Destroyed {
                        0
                    } else {
                        s.strength_after
                    },
                    captured: s.fate == Fate::Captured,
                })
                .collect(),
            verdict: outcome.verdict.clone(),
        }
    }
}

/// Why a verdict cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AftermathError {
    #[error("there is no pending battle {0}")]
    NotPending(u32),
    #[error("stand {id} was not in battle {battle}")]
    NotInBattle { id: StandId, battle: u32 },
    #[error("stand {id} ({name}) ends with {after} points, more than the {before} it had")]
    Stronger {
        id: StandId,
        name: String,
        after: u32,
        before: u32,
    },
    #[error("the winner `{winner}` is not a side in battle {battle}; it was fought by {sides}")]
    WinnerNotThere {
        winner: SideId,
        battle: u32,
        sides: String,
    },
}

/// The state after applying `verdict` to pending battle `battle_id`, and what happened.
pub fn apply(
    campaign: &Campaign,
    battle_id: u32,
    verdict: &Verdict,
) -> Result<(Campaign, Vec<Event>), AftermathError> {
    let battle = campaign
        .battles
        .iter()
        .find(|b| b.id == battle_id && b.status == BattleStatus::Pending)
        .cloned()
        .ok_or(AftermathError::NotPending(battle_id))?;
    if let Some(w) = &verdict.winner
        && w != &battle.attacker
        && w != &battle.defender
    {
        return Err(AftermathError::WinnerNotThere {
            winner: w.clone(),
            battle: battle_id,
            sides: format!("{} and {}", battle.attacker, battle.defender),
        });
    }
    let mut run = Run {
        state: campaign.clone(),
        events: EventLog::new(campaign.turn),
        turn: campaign.turn,
    };
    let losses = run.strengths(&battle, verdict)?;
    run.record(&battle, verdict, &losses);
    match &verdict.winner {
        Some(winner) => {
            let loser = if winner == &battle.attacker {
                &battle.defender
            } else {
                &battle.attacker
            };
            run.retreat(&battle, loser, winner, true);
        }
        // A draw: the attacker falls back the way it came, if the way is open.
        // This program's rule: the seeds' campaign rules are silent on draws.
        None => run.retreat(&battle, &battle.attacker, &battle.defender, false),
    }
    run.hq_falls(&battle, verdict.winner.as_ref());
    run.strike_empty();
    run.learn(&battle, campaign);
    Ok((run.state, run.events.into_events()))
}

struct Run {
    state: Campaign,
    events: EventLog,
    turn: u32,
}

impl Run {
    fn side_name(&self, id: &SideId) -> String {
        self.state
            .side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    fn region_name(&self, id: &RegionId) -> String {
        self.state.map.region_name(id).to_owned()
    }

    /// Sets every stand's strength, strikes the destroyed and moves the
    /// captured; returns the points each side lost.
    fn strengths(
        &mut self,
        battle: &Battle,
        verdict: &Verdict,
    ) -> Result<BTreeMap<SideId, u64>, AftermathError> {
        let in_battle: Vec<&ForceId> = battle.forces.iter().chain(&battle.reserves).collect();
        let mut at: HashMap<StandId, (usize, usize)> = HashMap::new();
        for (f, force) in self.state.forces.iter().enumerate() {
            if in_battle.contains(&&force.id) {
                for (s, stand) in force.stands.iter().enumerate() {
                    at.insert(stand.id, (f, s));
                }
            }
        }
        // Check everything before changing anything. A stand ends no
        // stronger than it began, but for a gun the engine manned again with
        // men of its side's other stands (scruby-1965-unbalanced-equality.txt,
        // ARTILLERY AND MAXIM GUNS: a gun's crew "may be replaced by taking 60
        // points out of an Infantry unit"): up to its full strength, the
        // side's stands together no stronger than they began.
        let engine = matches!(verdict.source, ResultSource::Engine { .. });
        let mut side_change: HashMap<&SideId, i64> = HashMap::new();
        for s in &verdict.stands {
            if let Some(&(f, i)) = at.get(&s.id)
                && let Some(force) = self.state.forces.get(f)
                && let Some(stand) = force.stands.get(i)
            {
                // A gun taken leaves its side whole.
                let after = if s.captured { 0 } else { s.after };
                *side_change.entry(&force.side).or_default() += i64::from(after) - i64::from(stand.strength);
            }
        }
        for s in &verdict.stands {
            let Some(&(f, i)) = at.get(&s.id) else {
                return Err(AftermathError::NotInBattle {
                    id: s.id,
                    battle: battle.id,
                });
            };
            let manned_again = |force: &Force, stand: &Stand| {
                engine
                    && !s.captured
                    && stand.kind.arm() == Arm::Artillery
                    && s.after <= stand.full
                    && side_change.get(&force.side).is_some_and(|change| *change <= 0)
            };
            if let Some(force) = self.state.forces.get(f)
                && let Some(stand) = force.stands.get(i)
                && s.after > stand.strength
                && !manned_again(force, stand)
            {
                return Err(AftermathError::Stronger {
                    id: s.id,
                    name: stand.name.clone(),
                    after: s.after,
                    before: stand.strength,
                });
            }
        }
        let mut losses: BTreeMap<SideId, u64> = BTreeMap::new();
        losses.insert(battle.attacker.clone(), 0);
        losses.insert(battle.defender.clone(), 0);
        let mut per_force: BTreeMap<usize, (u64, Vec<String>)> = BTreeMap::new();
        // Each side's gun gains and the forces of those guns.
        let mut gains: BTreeMap<SideId, (u64, Vec<usize>)> = BTreeMap::new();
        let mut captured: Vec<(usize, Stand)> = Vec::new();
        for s in &verdict.stands {
            let Some(&(f, i)) = at.get(&s.id) else { continue };
            let Some(force) = self.state.forces.get_mut(f) else {
                continue;
            };
            let side = force.side.clone();
            let Some(stand) = force.stands.get_mut(i) else {
                continue;
            };
            // A gun taken is lost whole to its side.
            let lost = if s.captured {
                u64::from(stand.strength)
            } else {
                u64::from(stand.strength.saturating_sub(s.after))
            };
            // Men who went to man a gun are not lost: the gun's gain is taken
            // off its side's and force's losses below.
            let gained = if s.captured {
                0
            } else {
                u64::from(s.after.saturating_sub(stand.strength))
            };
            if gained > 0 {
                let entry = gains.entry(side.clone()).or_default();
                entry.0 += gained;
                entry.1.push(f);
            }
            *losses.entry(side).or_default() += lost;
            let entry = per_force.entry(f).or_default();
            entry.0 += lost;
            if s.captured {
                // A gun taken keeps what crew it has; one left without a crew
                // goes over at its starting strength, for the captor to man
                // (scruby-1965-unbalanced-equality.txt, ARTILLERY AND MAXIM
                // GUNS: a gun's crew "may be replaced by taking 60 points out
                // of an Infantry unit").
                let mut taken = stand.clone();
                if s.after > 0 {
                    taken.strength = s.after;
                }
                captured.push((f, taken));
                stand.strength = 0;
            } else {
                stand.strength = s.after;
                if s.after == 0 {
                    entry.1.push(stand.name.clone());
                }
            }
        }
        // The men who went to the guns came from the side's other stands: the
        // gains come off the side's losses, and off its forces' losses (the
        // guns' own forces first, then the others), so the forces' losses
        // add up to the side's.
        for (side, (gained, gun_forces)) in gains {
            if let Some(lost) = losses.get_mut(&side) {
                *lost = lost.saturating_sub(gained);
            }
            let of_side: Vec<usize> = per_force
                .keys()
                .copied()
                .filter(|f| self.state.forces.get(*f).is_some_and(|x| x.side == side))
                .collect();
            let order = gun_forces
                .iter()
                .copied()
                .chain(of_side.into_iter().filter(|f| !gun_forces.contains(f)));
            let mut left = gained;
            for f in order {
                if let Some(entry) = per_force.get_mut(&f) {
                    let take = entry.0.min(left);
                    entry.0 -= take;
                    left -= take;
                }
            }
        }
        for (f, (points, destroyed)) in &per_force {
            let Some(force) = self.state.forces.get(*f) else {
                continue;
            };
            if *points == 0 {
                continue;
            }
            let (id, name) = (force.id.clone(), force.name.clone());
            let struck = if destroyed.is_empty() {
                String::new()
            } else {
                format!("; struck off: {}", destroyed.join(", "))
            };
            self.events.tell(
                EventKind::BattleLosses(ev::BattleLosses {
                    battle: battle.id,
                    force: id,
                    points: *points,
                    destroyed: destroyed.clone(),
                }),
                format!(
                    "{name} lost {points} point{} in battle {}{struck}.",
                    if *points == 1 { "" } else { "s" },
                    battle.id
                ),
            );
        }
        // Strike the destroyed and the taken from their forces.
        for force in &mut self.state.forces {
            if in_battle.contains(&&force.id) {
                force.stands.retain(|s| s.strength > 0);
            }
        }
        for (from, stand) in captured {
            let Some(loser) = self.state.forces.get(from).map(|f| f.side.clone()) else {
                continue;
            };
            let captor_side = if loser == battle.attacker {
                &battle.defender
            } else {
                &battle.attacker
            };
            // The captor's strongest force in the battle takes the gun.
            let captor = self
                .state
                .forces
                .iter()
                .enumerate()
                .filter(|(_, f)| &f.side == captor_side && battle.forces.contains(&f.id))
                .max_by_key(|(i, f)| (f.points(), std::cmp::Reverse(*i)))
                .map(|(i, _)| i);
            let Some(c) = captor else { continue };
            let loser_name = self
                .state
                .forces
                .get(from)
                .map(|f| f.name.clone())
                .unwrap_or_default();
            let Some(force) = self.state.forces.get_mut(c) else {
                continue;
            };
            let (id, name) = (force.id.clone(), force.name.clone());
            let (stand_id, stand_name) = (stand.id, stand.name.clone());
            force.stands.push(stand);
            self.events.tell(
                EventKind::GunCaptured(ev::GunCaptured {
                    battle: battle.id,
                    stand: stand_id,
                    from: self.state.forces.get(from).map(|f| f.id.clone()),
                    to: id,
                }),
                format!(
                    "{name} captures {stand_name} from {loser_name}; it now fights for {}.",
                    self.side_name(captor_side)
                ),
            );
        }
        Ok(losses)
    }

    fn record(&mut self, battle: &Battle, verdict: &Verdict, losses: &BTreeMap<SideId, u64>) {
        let place = self.region_name(&battle.region);
        let how = match &verdict.source {
            ResultSource::Engine { seed } => format!("fought by the {} engine, seed {seed}", verdict.rules),
            ResultSource::Table { sheet } => {
                format!("fought on the table under {}, result from {sheet}", verdict.rules)
            }
        };
        let result = match &verdict.winner {
            Some(w) => format!("{} wins", self.side_name(w)),
            None => "a draw".to_owned(),
        };
        // Points are what the campaign loses: stands killed or taken. Routed
        // stands go back to their forces, so they count here for nothing,
        // though the verdict counts them against their army's resolve.
        let lost: Vec<String> = losses
            .iter()
            .map(|(side, points)| {
                format!(
                    "{} lost {points} point{}",
                    self.side_name(side),
                    if *points == 1 { "" } else { "s" }
                )
            })
            .collect();
        let sentence = format!(
            "Battle {} at {place} ({how}): {result}; {} (stands killed or taken; routed stands go back to their forces).",
            battle.id,
            lost.join(", ")
        );
        self.events.tell(
            EventKind::BattleFought(ev::BattleFought {
                battle: battle.id,
                region: battle.region.clone(),
                winner: verdict.winner.clone(),
                rules: verdict.rules,
                source: verdict.source.clone(),
                losses: losses
                    .iter()
                    .map(|(s, p)| SideLoss {
                        side: s.clone(),
                        points: *p,
                    })
                    .collect(),
            }),
            sentence,
        );
        if let Some(b) = self.state.battles.iter_mut().find(|b| b.id == battle.id) {
            b.status = BattleStatus::Fought;
            b.record.result = Some(BattleResult {
                rules: verdict.rules,
                source: verdict.source.clone(),
                winner: verdict.winner.clone(),
                losses: losses
                    .iter()
                    .map(|(side, points)| SideLoss {
                        side: side.clone(),
                        points: *points,
                    })
                    .collect(),
                verdict: verdict.verdict.clone(),
            });
        }
    }

    /// The side `going`'s forces in the battle region fall back to a
    /// neighbouring region free of the enemy, toward its supply; with
    /// `forced`, a force that cannot is destroyed (Cordery's withdrawal rule:
    /// `cordery-2009-late-19th-century-rules.txt`, MOVEMENT: a stand
    /// "prevented from doing so because of an obstacle or enemy stand ... is
    /// deemed to have been destroyed"). Without `forced` (a drawn attacker)
    /// it falls back the way it came, or stays.
    fn retreat(&mut self, battle: &Battle, going: &SideId, enemy: &SideId, forced: bool) {
        let map = self.state.map.clone();
        let index = MapIndex::new(&map);
        let Some(here) = index.at(&battle.region) else {
            return;
        };
        let holding = Holding::of(&self.state, &index);
        let Some(side_no) = self.state.sides.iter().position(|s| &s.id == going) else {
            return;
        };
        // Hops to the nearest HQ the side holds, over roads the enemy does not block.
        let own = sources(&self.state, &index, going);
        let reach = search(&index, &own, |r| holding.enemy_holds(r, side_no));
        let hops = |mut r: usize| -> Option<usize> {
            let mut n = 0;
            while let Some(Some(prev)) = reach.get(r) {
                if *prev == r {
                    return Some(n);
                }
                r = *prev;
                n += 1;
                if n > reach.len() {
                    return None;
                }
            }
            None
        };
        let enemy_came_from: Vec<&RegionId> = battle
            .came_from
            .iter()
            .filter(|a| self.state.force(&a.force).is_some_and(|f| &f.side == enemy))
            .map(|a| &a.from)
            .collect();
        let pending_elsewhere: Vec<RegionId> = self
            .state
            .battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending && b.id != battle.id)
            .map(|b| b.region.clone())
            .collect();
        let mut options: Vec<(bool, usize, String, usize)> = Vec::new();
        for (next, _) in index.passable_from(here) {
            let Some(id) = index.id(next) else { continue };
            if holding.enemy_holds(next, side_no)
                || enemy_came_from.contains(&id)
                || pending_elsewhere.contains(id)
            {
                continue;
            }
            let supplied = reach.get(next).is_some_and(Option::is_some);
            let distance = hops(next).unwrap_or(usize::MAX);
            options.push((!supplied, distance, index.name(next).to_owned(), next));
        }
        options.sort();
        options.dedup_by_key(|o| o.3);
        let leaving: Vec<usize> = self
            .state
            .forces
            .iter()
            .enumerate()
            .filter(|(_, f)| &f.side == going && f.region == battle.region && battle.forces.contains(&f.id))
            .map(|(i, _)| i)
            .collect();
        for i in leaving {
            let Some(force) = self.state.forces.get(i) else {
                continue;
            };
            let (id, name) = (force.id.clone(), force.name.clone());
            let target = if forced {
                options.first().map(|o| o.3)
            } else {
                battle
                    .came_from
                    .iter()
                    .find(|a| a.force == id)
                    .and_then(|a| index.at(&a.from))
                    .filter(|r| options.iter().any(|o| o.3 == *r))
            };
            let place = self.region_name(&battle.region);
            match target.and_then(|t| index.id(t).cloned()) {
                Some(to) => {
                    let to_name = self.region_name(&to);
                    if let Some(f) = self.state.forces.get_mut(i) {
                        f.region = to.clone();
                        f.en_route = None;
                        f.order = crate::model::StandingOrder::Hold;
                    }
                    let why = if forced { "beaten" } else { "after a drawn battle" };
                    self.events.tell(
                        EventKind::Retreated(ev::Retreated {
                            battle: battle.id,
                            force: id.clone(),
                            from: battle.region.clone(),
                            to: to.clone(),
                        }),
                        format!("{name}, {why} at {place}, falls back to {to_name}."),
                    );
                }
                None if forced => {
                    let stands = self.state.forces.get(i).map_or(0, |f| f.stands.len());
                    if let Some(f) = self.state.forces.get_mut(i) {
                        f.stands.clear();
                    }
                    self.events.tell(
                        EventKind::DestroyedInRetreat(ev::DestroyedInRetreat {
                            battle: battle.id,
                            force: id.clone(),
                            stands,
                        }),
                        format!(
                            "{name}, beaten at {place}, has no road open away from the enemy and is destroyed with its {} (Cordery's withdrawal rule).",
                            crate::model::text::count(stands as u64, "stand", "stands")
                        ),
                    );
                }
                None => {}
            }
        }
    }

    /// The HQ in the region falls to the winner if its holder lost and the
    /// winner stands there.
    fn hq_falls(&mut self, battle: &Battle, winner: Option<&SideId>) {
        let Some(winner) = winner else { return };
        let winner_there = self
            .state
            .forces
            .iter()
            .any(|f| &f.side == winner && f.region == battle.region && !f.stands.is_empty());
        if !winner_there {
            return;
        }
        for h in 0..self.state.hqs.len() {
            let Some(hq) = self.state.hqs.get(h) else { continue };
            if hq.region != battle.region || &hq.held_by == winner {
                continue;
            }
            if let Some((kind, sentence)) =
                super::hands::hand_over_hq(&mut self.state, h, winner, self.turn, Some(battle.id))
            {
                self.events.tell(kind, sentence);
            }
        }
    }

    /// What each side learns of the enemy forces of the battle (`before`:
    /// the campaign as it was before the result): their strength after it,
    /// and where they went as far as it can see (`fog::after_battle`).
    fn learn(&mut self, battle: &Battle, before: &Campaign) {
        let fought: Vec<Force> = before
            .forces
            .iter()
            .filter(|f| battle.forces.contains(&f.id) || battle.reserves.contains(&f.id))
            .cloned()
            .collect();
        // Dated the game move the battle's forces were last seen in, not
        // the one to come.
        let turn = self.turn.saturating_sub(1).max(battle.turn);
        for seen in super::fog::after_battle(&mut self.state, battle, &fought, turn) {
            self.events.tell(seen.kind, seen.sentence);
        }
    }

    fn strike_empty(&mut self) {
        for (kind, sentence) in super::hands::strike_empty(&mut self.state) {
            self.events.tell(kind, sentence);
        }
    }
}
