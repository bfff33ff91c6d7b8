//! The battle rules engines: one module per rule set, a registry by id, and
//! what they share (dice, the board, the doctrine, judging the result, odds).
//!
//! Pure: a battle is a function of its scenario and seed. No I/O, no panics.

pub(crate) mod approach;
pub mod board;
pub mod cordery;
pub mod dice;
pub mod doctrine;
pub mod engine;
pub mod harman2021;
pub(crate) mod route;
pub mod scruby1961;
pub mod scruby1965;
pub mod scrubybasic;

use crate::model::{ArmyKind, RuleSetId, StandId, StandKind};
use crate::scenario::{Role, Scenario, ScenarioProblem, TableStand};
use serde::Serialize;

/// What became of a stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Still on the table at the end, whatever its losses.
    Stood,
    /// Killed or broken up: struck from the roll.
    Destroyed,
    /// Ran from the field and did not come back.
    Routed,
    /// Taken by the enemy (guns whose crews were lost).
    Captured,
    /// Never came on (a reserve that did not arrive before the end).
    NotEngaged,
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fate::Stood => "stood",
            Fate::Destroyed => "destroyed",
            Fate::Routed => "routed",
            Fate::Captured => "captured",
            Fate::NotEngaged => "not engaged",
        })
    }
}

/// One stand's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandResult {
    pub id: StandId,
    pub name: String,
    pub kind: StandKind,
    /// The side's id.
    pub side: String,
    pub strength_before: u32,
    pub strength_after: u32,
    pub fate: Fate,
}

/// A line of the battle log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogLine {
    pub turn: u32,
    pub text: String,
}

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub rules: RuleSetId,
    pub seed: u64,
    pub turns: u32,
    /// The winning side's id; `None` for a draw.
    pub winner: Option<String>,
    /// The side left holding the field, if any.
    pub field_held_by: Option<String>,
    /// Why the battle ended as it did, in a sentence.
    pub verdict: String,
    /// Each side's resolve, as drawn before the battle and judged by.
    pub resolve: Resolve,
    /// The rule set's own morale test at the end, where it threw one.
    pub last_word: Option<LastWord>,
    pub stands: Vec<StandResult>,
    pub log: Vec<LogLine>,
}

impl Outcome {
    /// Points lost by side `id` (strength before less strength after).
    pub fn losses(&self, side: &str) -> u64 {
        self.stands
            .iter()
            .filter(|s| s.side == side)
            .map(|s| u64::from(s.strength_before.saturating_sub(s.strength_after)))
            .sum()
    }
}

/// Where a set of rules was published: who wrote it, its title, and where
/// and when it appeared (with the year, where the text gives one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Publication {
    pub author: &'static str,
    pub title: &'static str,
    /// The periodical or page and the date, e.g. "Table Top Talk, November 1965".
    pub published: &'static str,
}

impl std::fmt::Display for Publication {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, {}, {}", self.author, self.title, self.published)
    }
}

/// Jack Scruby's Basic War Game Rules, whose Strategic Rules and Movement
/// chart the campaign follows, whichever rule set fights its battles.
pub const SCRUBY_BASIC: Publication = Publication {
    author: "Jack Scruby (with Mike Frank)",
    title: "Basic War Game Rules",
    published: "Soldier Factory News no. 1 (undated)",
};

/// Jack Scruby's Strategy-Tactical Wargame: the campaign's HQs and concealed forces.
pub const SCRUBY_1961: Publication = Publication {
    author: "Jack Scruby (with George Clark)",
    title: "The Strategy Tactical Wargame",
    published: "rules dated September 1961",
};

/// A rule set the engine can fight a battle under.
pub trait RuleSet: Sync {
    fn id(&self) -> RuleSetId;
    /// The seed text it follows, in `../shared/seeds/`.
    fn seed_file(&self) -> &'static str;
    /// Where its rules were published, as players cite them (the briefing,
    /// Help > Rule sources): not the seed file, which is not in the program.
    fn publication(&self) -> Publication;
    /// Fights the battle. The scenario has been checked (see [`fight`]).
    /// With `keep_log` false no log is written (odds fight thousands).
    fn fight(&self, scenario: &Scenario, seed: u64, keep_log: bool) -> Outcome {
        self.fight_on(&engine::Setting::new(scenario), seed, keep_log)
    }
    /// Fights the battle on its scenario's table as [`engine::Setting`] sets
    /// it out, the same battle as [`RuleSet::fight`] gives: [`odds`] sets a
    /// scenario out once for all its battles.
    fn fight_on(&self, setting: &engine::Setting<'_>, seed: u64, keep_log: bool) -> Outcome;
    /// Fights a battle for each of `seeds` on `setting`, on every core, no
    /// log kept, handing `each` every outcome (in no set order): the same
    /// battles as [`RuleSet::fight_on`] gives. An engine may share between
    /// them the work their dice leave the same ([`odds`] fights its battles
    /// so).
    fn fight_each(&self, setting: &engine::Setting<'_>, seeds: Seeds<'_>, each: &(dyn Fn(&Outcome) + Sync)) {
        use rayon::prelude::*;
        seeds
            .par_bridge()
            .for_each(|seed| each(&self.fight_on(setting, seed, false)));
    }
    /// How `stand` of an `army` is fielded under this rule set, for the
    /// orders of battle: its troop type and the rule set's own measure.
    fn muster(&self, stand: &TableStand, army: ArmyKind) -> String;
    /// The losses `stand` can take as this rule set counts them, for the
    /// roster's tick boxes in the battle pack (`pack.pdf`): figures, models
    /// or points. By default a box is a tenth of its full roster points.
    fn losses(&self, stand: &TableStand, _army: ArmyKind) -> Losses {
        Losses::in_points(stand)
    }
    /// The rule set's last word ([`LastWord`]) in a sentence for the
    /// briefing's victory conditions, as the players throw it on the table;
    /// `None` where its seed has no such test.
    fn last_word_rule(&self) -> Option<&'static str> {
        None
    }

    /// What the attacker adds to its resolve ([`Resolve::draw`]), as a share
    /// of its points: the engine's own, which the briefing tells the table.
    fn attacker_resolve(&self) -> f64 {
        0.0
    }

    /// How each general throws for his resolve ([`Resolve::draw_by`]): the
    /// engine's own, which the briefing tells the table.
    fn resolve_throw(&self) -> ResolveThrow {
        ResolveThrow::TWO_DICE
    }
}

/// What a roster's tick boxes count for one stand: `boxes` of `each`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Losses {
    pub boxes: u32,
    /// What one box is, for people: "figure", "10 points".
    pub each: String,
}

impl Losses {
    /// A box for each tenth of the stand's full roster points it still has,
    /// a tenth rounded up to a whole point: ten boxes at most, fewer for a
    /// stand of under ten points (a box a point).
    pub fn in_points(stand: &TableStand) -> Losses {
        let step = stand.full.div_ceil(10).max(1);
        Losses {
            boxes: stand.strength.div_ceil(step),
            each: if step == 1 {
                "point".to_owned()
            } else {
                format!("{step} points")
            },
        }
    }
}

/// `HeavyCavalry` as "heavy cavalry": a troop type's name for people.
pub fn words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push(' ');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The battle log, written only when kept; lines are formatted only then.
#[derive(Debug, Clone, Default)]
pub struct Log {
    keep: bool,
    lines: Vec<LogLine>,
}

impl Log {
    pub fn new(keep: bool) -> Log {
        Log {
            keep,
            lines: Vec::new(),
        }
    }

    /// Adds a line for `turn`; `text` is called only when the log is kept.
    pub fn say(&mut self, turn: u32, text: impl FnOnce() -> String) {
        if self.keep {
            self.lines.push(LogLine { turn, text: text() });
        }
    }

    pub fn into_lines(self) -> Vec<LogLine> {
        self.lines
    }
}

/// The rule sets built so far, by id.
pub fn rule_set(id: RuleSetId) -> Option<&'static dyn RuleSet> {
    rule_sets().find(|r| r.id() == id)
}

/// Every rule set built so far. Each module offers its rule set as
/// `RULE_SET`, `None` until it is complete.
pub fn rule_sets() -> impl Iterator<Item = &'static dyn RuleSet> {
    [
        scruby1961::RULE_SET,
        scrubybasic::RULE_SET,
        harman2021::RULE_SET,
        scruby1965::RULE_SET,
        cordery::RULE_SET,
    ]
    .into_iter()
    .flatten()
}

/// Why a battle could not be fought.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FightError {
    #[error("the scenario cannot be fought: {}", .0.iter().map(|p| p.0.as_str()).collect::<Vec<_>>().join("; "))]
    BadScenario(Vec<ScenarioProblem>),
    #[error("rule set `{0}` is not built yet; the built ones are: {1}")]
    NotBuilt(RuleSetId, String),
}

fn built_list() -> String {
    let built: Vec<&str> = rule_sets().map(|r| r.id().as_str()).collect();
    if built.is_empty() {
        "none yet".to_owned()
    } else {
        built.join(", ")
    }
}

/// Checks the scenario and fights it under rule set `id` with `seed`.
pub fn fight(scenario: &Scenario, id: RuleSetId, seed: u64) -> Result<Outcome, FightError> {
    let problems = scenario.problems();
    if !problems.is_empty() {
        return Err(FightError::BadScenario(problems));
    }
    let rules = rule_set(id).ok_or_else(|| FightError::NotBuilt(id, built_list()))?;
    Ok(rules.fight(scenario, seed, true))
}

/// A stand's state at the end, for judging the battle.
#[derive(Debug, Clone, Copy)]
pub struct EndState {
    /// Index of its side in `scenario.sides`.
    pub side: usize,
    pub strength_before: u32,
    pub strength_after: u32,
    /// On the table and fighting at the end.
    pub standing: bool,
    pub at: board::Point,
}

/// A side whose losses pass this share of its starting points breaks and
/// quits the field, where no general's resolve was drawn (a results sheet,
/// an old battle). The program's own rule: the seeds fight to the end of
/// the table's time or the players' patience.
pub const ARMY_BREAKS_AT_LOSS: f64 = 0.5;

/// Each side's resolve, drawn by dice before the battle: the share of the
/// points it brought on that it can lose before it breaks and quits the
/// field. Armies of the period gave up a battle at very different losses
/// (some ran at their first losses, some fought on past half their men), so the
/// break is not one number for every army: each general throws 2D6 and his
/// army breaks past [`RESOLVE_BASE`] plus [`RESOLVE_STEP`] for every pip
/// over 2, from 5% (a throw of 2) to 55% (12), 30% on average (under
/// scruby-basic and scruby-1965 one die, the same 5% to 55%, every break as
/// likely: [`ResolveThrow`], each rule set's `RuleSet::resolve_throw`). This is
/// the program's own rule (the seeds are silent on when an army gives up;
/// scruby-1961-strategy-tactical-wargame.txt notes only that "often combat
/// was not fought 'to the last man' ... when one found himself outnumbered
/// at key positions"), and it is what leaves room for surprise in a battle
/// of many dice: the larger army still wears the smaller down faster, but
/// which one gives up first is not certain until it does. An army that
/// still stands at least three times the enemy's points does not break
/// whatever its losses ([`Resolve::broken_against`]): a low throw gives a
/// small army's surprise, not a great army's rout before a handful.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Resolve {
    /// Per side, in scenario order: the share of its points it can lose.
    pub breaks_at: [f64; 2],
}

/// The least resolve, at a throw of 2 on 2D6 (this program's own, see [`Resolve`]).
pub const RESOLVE_BASE: f64 = 0.05;
/// The resolve each pip over 2 adds (this program's own, see [`Resolve`]).
pub const RESOLVE_STEP: f64 = 0.05;

/// How a general throws for his resolve: `dice` D6, his army breaking past
/// `base` plus `step` for every pip over the least throw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResolveThrow {
    pub dice: u32,
    pub base: f64,
    pub step: f64,
}

impl ResolveThrow {
    /// The share of his points a general can lose at a throw of `pips`
    /// (the least throw, `dice`, gives `base`).
    pub fn share(self, pips: u32) -> f64 {
        self.base + self.step * f64::from(pips.saturating_sub(self.dice))
    }

    /// 2D6, from [`RESOLVE_BASE`] (a throw of 2) by [`RESOLVE_STEP`] a pip:
    /// 5% to 55%, 30% on average (the throw of [`Resolve`]).
    pub const TWO_DICE: ResolveThrow = ResolveThrow {
        dice: 2,
        base: RESOLVE_BASE,
        step: RESOLVE_STEP,
    };
    /// 1D6, from [`RESOLVE_BASE`] (a throw of 1) by twice [`RESOLVE_STEP`] a
    /// pip: the same 5% to 55% and 30% on average, every break as likely.
    pub const ONE_DIE: ResolveThrow = ResolveThrow {
        dice: 1,
        base: RESOLVE_BASE,
        step: 2.0 * RESOLVE_STEP,
    };
}

impl Default for Resolve {
    /// Both sides break at [`ARMY_BREAKS_AT_LOSS`].
    fn default() -> Self {
        Resolve {
            breaks_at: [ARMY_BREAKS_AT_LOSS; 2],
        }
    }
}

impl Resolve {
    /// Each side of `scenario` throws 2D6 for its resolve, the first side
    /// first; the attacker's resolve is `attacker_bonus` (a share of its
    /// points) higher than its throw gives, as the rule set asks
    /// (each engine's `ATTACKER_RESOLVE`).
    pub fn draw(dice: &mut dice::Dice, scenario: &crate::scenario::Scenario, attacker_bonus: f64) -> Resolve {
        Resolve::draw_by(dice, scenario, ResolveThrow::TWO_DICE, attacker_bonus)
    }

    /// [`Resolve::draw`] with the throw `throw` (a rule set's own, see
    /// [`ResolveThrow`]).
    pub fn draw_by(
        dice: &mut dice::Dice,
        scenario: &crate::scenario::Scenario,
        throw: ResolveThrow,
        attacker_bonus: f64,
    ) -> Resolve {
        let mut throw = |side: usize| {
            let bonus = match scenario.sides.get(side).map(|s| s.role) {
                Some(crate::scenario::Role::Attacker) => attacker_bonus,
                _ => 0.0,
            };
            let pips: u32 = (0..throw.dice).map(|_| dice.d6()).sum();
            throw.share(pips) + bonus
        };
        let first = throw(0);
        Resolve {
            breaks_at: [first, throw(1)],
        }
    }

    /// The share of its points side `side` can lose.
    pub fn of(&self, side: usize) -> f64 {
        self.breaks_at.get(side).copied().unwrap_or(ARMY_BREAKS_AT_LOSS)
    }

    /// Side `side`'s resolve in words, for the log's first lines, where each
    /// general's plan is told: "gives up the field past 35% of its strength
    /// lost".
    pub fn words(&self, side: usize) -> String {
        format!(
            "gives up the field past {} of its strength lost",
            self.percent(side)
        )
    }

    /// Side `side`'s resolve as a percentage ([`crate::model::end::percent`]):
    /// whole ("35%"), or with the half an attacker's bonus makes ("32.5%"),
    /// so that it never reads as the share it broke with.
    pub fn percent(&self, side: usize) -> String {
        crate::model::end::percent(self.of(side))
    }

    /// How far side `side` is toward breaking, having brought `before`
    /// points and keeping `standing`: its share lost over its resolve (1
    /// or more: broken).
    pub fn strain(&self, side: usize, before: u64, standing: u64) -> f64 {
        if before == 0 {
            return 0.0;
        }
        let lost = before.saturating_sub(standing) as f64 / before as f64;
        lost / self.of(side).max(f64::EPSILON)
    }

    /// Whether side `side`, having brought `before` points and keeping
    /// `standing`, has lost more than its resolve: it breaks.
    pub fn broken(&self, side: usize, before: u64, standing: u64) -> bool {
        before > 0 && before.saturating_sub(standing) as f64 > self.of(side) * before as f64
    }

    /// [`Resolve::broken`], unless the side still has standing at least
    /// [`HOLDS_WHILE_OUTNUMBERING`] times the `enemy`'s standing points: an
    /// army that sees itself far the stronger on the field does not give up
    /// the day (this program's own rule, with the resolve's).
    pub fn broken_against(&self, side: usize, before: u64, standing: u64, enemy: u64) -> bool {
        self.broken(side, before, standing)
            && !(enemy > 0 && standing as f64 >= HOLDS_WHILE_OUTNUMBERING * enemy as f64)
    }
}

/// A side whose standing points are at least this many times the enemy's
/// does not break whatever its losses (this program's own, see
/// [`Resolve::broken_against`]).
pub const HOLDS_WHILE_OUTNUMBERING: f64 = 3.0;

/// Whether an army that brought `before` points and has `standing` points
/// still fighting has broken at [`ARMY_BREAKS_AT_LOSS`].
pub fn has_broken(before: u64, standing: u64) -> bool {
    Resolve::default().broken(0, before, standing)
}

/// A rule set's own word on a battle that reaches its turn limit with
/// neither army broken and the objectives not deciding it: the morale test
/// its seed uses to say who holds the ground and who retires (for example
/// scruby-1961's "each player counts the total number of COMBAT POINTS he
/// has left ... rolls one dice ... The Low Total must retire"), thrown for
/// the two armies at the end. Each engine throws it, or gives none where its
/// seed has no such test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastWord {
    /// The side that holds its ground, by index in `scenario.sides`; `None`
    /// when the test itself leaves both sides where they are (a draw).
    pub holds: Option<usize>,
    /// The throw, in words, for the verdict.
    pub why: String,
}

/// Losses, as shares of starting points, that must differ by this much for
/// a battle ending at the turn limit to count as a win on losses.
pub const CLEAR_MARGIN: f64 = 0.15;

/// Which way (-1 or +1 in rows) the defender's bank lies from objective
/// `o`, when it is a crossing: a bridge or ford objective with river beside
/// it in its row, the river running across the table between the two
/// deployment zones. The attacker takes a crossing by coming onto it or
/// across it; until then the defender, guarding it from its own bank, holds
/// it (issue 14: "each side's deployment zone on its own side of a river
/// (the crossing is the objective)"; this program's own reading).
pub fn crossing_toward_defender(scenario: &Scenario, o: &crate::scenario::Objective) -> Option<f64> {
    use crate::scenario::{Ground, ObjectiveKind};
    if o.kind != ObjectiveKind::Bridge {
        return None;
    }
    let (x, y) = (i64::from(o.x), i64::from(o.y));
    let river = |dx: i64| scenario.table.ground_at(x + dx, y) == Some(Ground::River);
    if !(river(-1) || river(1)) {
        return None;
    }
    let zone_y = |role: Role| {
        scenario
            .sides
            .iter()
            .find(|s| s.role == role)
            .map(|s| s.deployment.centre().1)
    };
    let row = f64::from(o.y) + 0.5;
    let (defender, attacker) = (zone_y(Role::Defender)?, zone_y(Role::Attacker)?);
    // The river must lie between the two zones.
    if (defender - row) * (attacker - row) >= 0.0 {
        return None;
    }
    Some(if defender < row { -1.0 } else { 1.0 })
}

/// How the judge counts stands at one objective: a standing stand within
/// [`doctrine::HOLDS_WITHIN_CELLS`] of it counts, holding it when no enemy
/// stand counts too, else contesting it; at a crossing
/// ([`crossing_toward_defender`]) an attacker's stand on its own bank does
/// not count. Engines that plan by the objectives (scruby-1961) count them
/// the same way.
#[derive(Debug, Clone, Copy)]
pub struct ObjectiveHold {
    /// The objective's centre, in cells.
    pub at: board::Point,
    toward_defender: Option<f64>,
    attacker: Option<usize>,
}

impl ObjectiveHold {
    pub fn of(scenario: &Scenario, o: &crate::scenario::Objective) -> ObjectiveHold {
        ObjectiveHold {
            at: (f64::from(o.x) + 0.5, f64::from(o.y) + 0.5),
            toward_defender: crossing_toward_defender(scenario, o),
            attacker: scenario.sides.iter().position(|s| s.role == Role::Attacker),
        }
    }

    /// Whether a standing stand of side `side` at `p` (in cells) counts here.
    pub fn counts(&self, side: usize, p: board::Point) -> bool {
        let crossed = match self.toward_defender {
            // An attacker's stand still on its own bank has not crossed.
            Some(sign) if Some(side) == self.attacker => (p.1 - self.at.1) * sign > -0.5,
            _ => true,
        };
        crossed && doctrine::dist(p, self.at) <= doctrine::HOLDS_WITHIN_CELLS
    }
}

/// Decides a battle: (winner, field held by, verdict). A side with nothing
/// standing, or that lost more than its resolve, has lost; when both did,
/// the one further past its resolve broke first. Otherwise,
/// at the end of the turns, the side holding more objectives wins (a stand
/// within [`doctrine::HOLDS_WITHIN_CELLS`] and no enemy as near: a contested
/// objective counts for nobody; an attacker's stand on its own bank of a
/// crossing, [`crossing_toward_defender`], does not contest it); failing that, the rule set's own last word
/// ([`LastWord`]) where it has one; failing that, the side with clearly
/// lighter losses; failing that, a draw, the defender keeping the field.
pub fn judge(
    scenario: &Scenario,
    ends: &[EndState],
    resolve: &Resolve,
    last_word: Option<&LastWord>,
) -> (Option<usize>, Option<usize>, String) {
    // Points brought on, and points still standing, of a side.
    let points = |side: usize| -> (u64, u64) {
        ends.iter()
            .filter(|e| e.side == side)
            .fold((0, 0), |(before, after), e| {
                let standing = if e.standing {
                    u64::from(e.strength_after)
                } else {
                    0
                };
                (before + u64::from(e.strength_before), after + standing)
            })
    };
    let share_lost = |side: usize| {
        let (before, after) = points(side);
        if before == 0 {
            1.0
        } else {
            1.0 - after as f64 / before as f64
        }
    };
    let standing = |side: usize| {
        ends.iter()
            .any(|e| e.side == side && e.standing && e.strength_after > 0)
    };
    let name = |side: usize| {
        scenario
            .sides
            .get(side)
            .map_or("?", |s| s.name.as_str())
            .to_owned()
    };
    let (a, b) = (0, 1);
    let (lost_a, lost_b) = (share_lost(a), share_lost(b));
    let broken = |side: usize| {
        let (before, after) = points(side);
        let (_, enemy) = points(side ^ 1);
        !standing(side) || resolve.broken_against(side, before, after, enemy)
    };
    // How far past its resolve a side is: one with nothing standing, furthest.
    let strain = |side: usize| {
        let (before, after) = points(side);
        if standing(side) {
            resolve.strain(side, before, after)
        } else {
            f64::INFINITY
        }
    };
    // Why a side that still had stands standing gave up the field: past
    // the share of its strength its general would lose ([`Resolve`]), which
    // may be as little as a twentieth; said, so that a break after light
    // losses reads as the general's, not as a slip of the count.
    let past_resolve = |side: usize| {
        if standing(side) {
            format!(" (its general gave up the field past {})", resolve.percent(side))
        } else {
            String::new()
        }
    };
    let (broke_a, broke_b) = match (broken(a), broken(b)) {
        (true, true) if strain(a) > strain(b) => (true, false),
        (true, true) if strain(b) > strain(a) => (false, true),
        both => both,
    };
    match (broke_a, broke_b) {
        (true, false) => {
            return (
                Some(b),
                Some(b),
                format!(
                    "{} broke with {:.0}% of its strength killed, routed or taken{}",
                    name(a),
                    lost_a * 100.0,
                    past_resolve(a)
                ),
            );
        }
        (false, true) => {
            return (
                Some(a),
                Some(a),
                format!(
                    "{} broke with {:.0}% of its strength killed, routed or taken{}",
                    name(b),
                    lost_b * 100.0,
                    past_resolve(b)
                ),
            );
        }
        (true, true) => {
            return (
                None,
                None,
                format!(
                    "both armies broke: {} with {:.0}% of its strength killed, routed or taken{}, {} with {:.0}%{}",
                    name(a),
                    lost_a * 100.0,
                    past_resolve(a),
                    name(b),
                    lost_b * 100.0,
                    past_resolve(b)
                ),
            );
        }
        (false, false) => {}
    }
    let holds = |side: usize| {
        scenario
            .objectives
            .iter()
            .filter(|o| {
                let hold = ObjectiveHold::of(scenario, o);
                let near = |s: usize| {
                    ends.iter()
                        .any(|e| e.side == s && e.standing && hold.counts(s, e.at))
                };
                near(side) && !near(1 - side)
            })
            .count()
    };
    let (held_a, held_b) = (holds(a), holds(b));
    if held_a != held_b {
        let w = if held_a > held_b { a } else { b };
        return (
            Some(w),
            Some(w),
            format!(
                "{} holds {} of the {} objectives at the end",
                name(w),
                held_a.max(held_b),
                scenario.objectives.len()
            ),
        );
    }
    if let Some(word) = last_word {
        let defender = scenario.sides.iter().position(|s| s.role == Role::Defender);
        return match word.holds {
            Some(w) => (
                Some(w),
                Some(w),
                format!("{} holds its ground: {}", name(w), word.why),
            ),
            None => (None, defender, format!("neither side gives way: {}", word.why)),
        };
    }
    if (lost_a - lost_b).abs() >= CLEAR_MARGIN {
        let (w, l) = if lost_a < lost_b { (a, b) } else { (b, a) };
        return (
            Some(w),
            Some(w),
            format!(
                "{} keeps the field with {:.0}% of its strength killed, routed or taken, against {:.0}% of {}'s",
                name(w),
                lost_a.min(lost_b) * 100.0,
                lost_a.max(lost_b) * 100.0,
                name(l)
            ),
        );
    }
    let defender = scenario.sides.iter().position(|s| s.role == Role::Defender);
    (None, defender, "neither side gained the day: a draw".to_owned())
}

/// The odds of a battle: how often each side won in many seeded fights.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    pub rules: RuleSetId,
    pub runs: u32,
    /// Per side, in scenario order.
    pub sides: Vec<SideOdds>,
    pub draws: Chance,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideOdds {
    pub id: String,
    pub name: String,
    pub wins: Chance,
    /// Average points lost per battle.
    pub expected_losses: f64,
    pub starting_points: u64,
}

/// A share of battles with its 95% interval (Wilson score interval).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Chance {
    pub count: u32,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Chance {
    /// `count` of `runs`, with the Wilson 95% interval (z = 1.96).
    pub fn of(count: u32, runs: u32) -> Chance {
        if runs == 0 {
            return Chance {
                count,
                share: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = f64::from(runs);
        let p = f64::from(count) / n;
        let z = 1.96_f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        Chance {
            count,
            share: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// The seeds of the battles [`RuleSet::fight_each`] fights, drawn one by
/// one as a core takes the next battle.
pub type Seeds<'s> = &'s mut (dyn Iterator<Item = u64> + Send);

/// Fights `runs` battles with seeds drawn from `seed`'s stream, on every
/// core, and counts the results. The same seed gives the same odds.
pub fn odds(scenario: &Scenario, id: RuleSetId, runs: u32, seed: u64) -> Result<Odds, FightError> {
    odds_counted(scenario, id, runs, seed, &std::sync::atomic::AtomicU32::new(0))
}

/// [`odds`], adding one to `done` as each battle is fought, so a window can
/// show a progress bar while it works on another thread.
pub fn odds_counted(
    scenario: &Scenario,
    id: RuleSetId,
    runs: u32,
    seed: u64,
    done: &std::sync::atomic::AtomicU32,
) -> Result<Odds, FightError> {
    use rand::{Rng, SeedableRng};
    use std::sync::atomic::{AtomicU64, Ordering};
    let problems = scenario.problems();
    if !problems.is_empty() {
        return Err(FightError::BadScenario(problems));
    }
    let rules = rule_set(id).ok_or_else(|| FightError::NotBuilt(id, built_list()))?;
    let sides: Vec<&str> = scenario.sides.iter().map(|s| s.id.as_str()).collect();
    // What does not depend on the dice, worked out once for every battle.
    let setting = engine::Setting::new(scenario);
    // The battles' seeds are drawn from one stream in order, each as a core
    // takes the next battle, and each battle is counted as it ends: memory
    // stays the same however many battles are fought, and the same seed
    // gives the same seeds and the same odds.
    let mut stream = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Each side's wins and losses, and the draws, as the battles end.
    let tally = || sides.iter().map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let (won, lost, drawn) = (tally(), tally(), AtomicU64::new(0));
    let count_in = |outcome: &Outcome| {
        done.fetch_add(1, Ordering::Relaxed);
        let winner = outcome
            .winner
            .as_deref()
            .and_then(|w| sides.iter().position(|id| *id == w));
        match winner.and_then(|w| won.get(w)) {
            Some(count) => count.fetch_add(1, Ordering::Relaxed),
            None => drawn.fetch_add(1, Ordering::Relaxed),
        };
        for (total, id) in lost.iter().zip(&sides) {
            total.fetch_add(outcome.losses(id), Ordering::Relaxed);
        }
    };
    let mut seeds = (0..runs).map(|_| stream.next_u64());
    rules.fight_each(&setting, &mut seeds, &count_in);
    let read = |counts: Vec<AtomicU64>| counts.into_iter().map(AtomicU64::into_inner).collect::<Vec<_>>();
    let (wins, losses, draws) = (read(won), read(lost), drawn.into_inner());
    let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let side_odds = scenario
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| SideOdds {
            id: s.id.clone(),
            name: s.name.clone(),
            wins: Chance::of(count(wins.get(i).copied().unwrap_or(0)), runs),
            expected_losses: if runs == 0 {
                0.0
            } else {
                losses.get(i).copied().unwrap_or(0) as f64 / f64::from(runs)
            },
            starting_points: s
                .stands
                .iter()
                .chain(s.reserves.iter().flat_map(|r| r.stands.iter()))
                .map(|t| u64::from(t.strength))
                .sum(),
        })
        .collect();
    Ok(Odds {
        rules: id,
        runs,
        sides: side_odds,
        draws: Chance::of(count(draws), runs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled Abu Tleih scenario (also the rules engines' own tests'
    /// example).
    pub(super) fn scenario() -> Scenario {
        let path = format!(
            "{}/campaigns/scenarios/abu_tleih_1895.json",
            env!("CARGO_MANIFEST_DIR")
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// A stand of `side` that brought 100 points and has `after` left, at `at`.
    fn end(side: usize, after: u32, at: board::Point) -> EndState {
        EndState {
            side,
            strength_before: 100,
            strength_after: after,
            standing: after > 0,
            at,
        }
    }

    const FAR: board::Point = (0.5, 11.5);
    const ON_THE_WELLS: board::Point = (8.5, 3.5);

    /// A resolve reads whole, or to a tenth where the attacker's half-pip
    /// bonus (2.5% under scruby-1961 and Harman) makes it a half.
    #[test]
    fn a_resolve_is_told_whole_or_to_a_tenth() {
        let cases = [
            (0.05, "5%"),
            (0.55, "55%"),
            (0.30 + 0.025, "32.5%"),
            (0.05 + 0.025, "7.5%"),
            (0.5, "50%"),
        ];
        for (share, told) in cases {
            let resolve = Resolve {
                breaks_at: [share, 0.3],
            };
            assert_eq!(resolve.percent(0), told, "{share}");
            assert_eq!(
                resolve.words(0),
                format!("gives up the field past {told} of its strength lost")
            );
        }
    }

    #[test]
    fn an_army_that_loses_more_than_half_breaks_and_loses() {
        let s = scenario();
        // Side 1 keeps 49 of 100 points on each of two stands: 51% lost.
        let ends = [
            end(0, 100, FAR),
            end(0, 100, FAR),
            end(1, 49, FAR),
            end(1, 49, FAR),
        ];
        let (winner, field, verdict) = judge(&s, &ends, &Resolve::default(), None);
        assert_eq!((winner, field), (Some(0), Some(0)));
        assert_eq!(
            verdict,
            "Army of the Rebellion broke with 51% of its strength killed, routed or taken \
             (its general gave up the field past 50%)"
        );
        // Exactly half lost is not broken.
        assert!(!has_broken(200, 100));
        assert!(has_broken(200, 99));
        assert!(!has_broken(0, 0), "an army of nothing cannot break");
    }

    /// Each throw gives this program's numbers: 2D6 from 5% at a 2
    /// to 55% at a 12 by 5% a pip, the two dice thrown as before; 1D6 the
    /// same 5% to 55% by 10% a pip, every face as likely, the attacker's
    /// bonus added to either.
    #[test]
    fn a_resolve_is_thrown_on_two_dice_or_on_one() {
        let s = scenario();
        let attacker = s
            .sides
            .iter()
            .position(|x| x.role == crate::scenario::Role::Attacker)
            .unwrap();
        let mut ones = std::collections::BTreeMap::new();
        for seed in 0..600 {
            let mut a = dice::Dice::new(seed);
            let mut b = dice::Dice::new(seed);
            let two = Resolve::draw(&mut a, &s, 0.025);
            let mut by_hand = |bonus: f64| 0.05 + 0.05 * f64::from(b.d6() + b.d6() - 2) + bonus;
            let first = by_hand(if attacker == 0 { 0.025 } else { 0.0 });
            let second = by_hand(if attacker == 1 { 0.025 } else { 0.0 });
            assert_eq!(two.breaks_at, [first, second], "seed {seed}");
            let one = Resolve::draw_by(&mut dice::Dice::new(seed), &s, ResolveThrow::ONE_DIE, 0.0);
            for share in one.breaks_at {
                let face = (0..6_u32).find(|&k| (share - (0.05 + 0.10 * f64::from(k))).abs() < 1e-12);
                assert!(face.is_some(), "seed {seed}: {share} is no face of the die");
                *ones.entry(face).or_insert(0) += 1;
            }
        }
        assert_eq!(
            ones.keys().copied().collect::<Vec<_>>(),
            (0..6).map(Some).collect::<Vec<_>>()
        );
        // 1,200 throws: each face about 200 (a fair die: within 5 sigma).
        assert!(ones.values().all(|&n| (140..=260).contains(&n)), "{ones:?}");
    }

    #[test]
    fn a_side_past_its_resolve_holds_while_it_has_three_times_the_enemy_standing() {
        let resolve = Resolve {
            breaks_at: [0.2, 0.5],
        };
        // 400 brought, 300 standing: 25% lost, past a resolve of 20%.
        assert!(resolve.broken(0, 400, 300));
        assert!(!resolve.broken_against(0, 400, 300, 100), "three to one: holds");
        assert!(
            resolve.broken_against(0, 400, 300, 101),
            "under three to one: breaks"
        );
        assert!(
            resolve.broken_against(0, 400, 300, 0),
            "no enemy standing: the losses decide"
        );
        assert!(!resolve.broken_against(0, 400, 320, 10), "not past its resolve");
        // The judge counts it so: four stands against one, one of the four
        // lost, the one standing whole at the end; the third of the four
        // with `third` points standing.
        let s = scenario();
        let ends = |third: u32| {
            [
                end(0, 100, FAR),
                end(0, 100, FAR),
                end(0, third, FAR),
                end(0, 0, FAR),
                end(1, 100, FAR),
            ]
        };
        let (_, _, verdict) = judge(&s, &ends(100), &resolve, None);
        assert!(!verdict.contains("broke"), "{verdict}");
        let (winner, _, verdict) = judge(&s, &ends(99), &resolve, None);
        assert_eq!(winner, Some(1), "{verdict}");
        assert!(verdict.contains("broke with 25%"), "{verdict}");
        // The verdict says the resolve it broke past.
        assert!(
            verdict.ends_with("(its general gave up the field past 20%)"),
            "{verdict}"
        );
    }

    #[test]
    fn at_the_end_the_side_holding_more_objectives_wins() {
        let s = scenario();
        let ends = [end(0, 90, FAR), end(1, 60, ON_THE_WELLS), end(1, 100, FAR)];
        let (winner, _, verdict) = judge(&s, &ends, &Resolve::default(), None);
        assert_eq!(winner, Some(1));
        assert_eq!(
            verdict,
            "Army of the Rebellion holds 1 of the 1 objectives at the end"
        );
        // An enemy within a cell contests it: nobody holds it.
        let ends = [end(0, 90, (8.5, 4.5)), end(1, 90, ON_THE_WELLS)];
        assert_eq!(judge(&s, &ends, &Resolve::default(), None).0, None);
    }

    #[test]
    fn an_attacker_on_its_own_bank_does_not_contest_the_crossing() {
        use crate::scenario::{Area, Ground, ObjectiveKind, Patch};
        // Side 0 (the British, defending rows 1-4) behind a river along row
        // 6, bridged at column 8; side 1 (the rebels) attacking from rows 9-11.
        let mut s = scenario();
        let patch = |x, w, ground| Patch {
            area: Area { x, y: 6, w, h: 1 },
            ground: Some(ground),
            level: None,
            road: None,
            cover: None,
        };
        s.table.terrain.push(patch(0, 16, Ground::River));
        s.table.terrain.push(patch(8, 1, Ground::Bridge));
        s.objectives[0].kind = ObjectiveKind::Bridge;
        (s.objectives[0].x, s.objectives[0].y) = (8, 6);
        assert_eq!(crossing_toward_defender(&s, &s.objectives[0]), Some(-1.0));
        let (home_bank, bridge, far_bank) = ((8.5, 5.5), (8.5, 6.5), (8.5, 7.5));
        let cases = [
            // (defender's stand, attacker's stand, who holds it)
            (
                Some(home_bank),
                Some(far_bank),
                Some(0),
                "the attacker waits on its own bank",
            ),
            (
                Some(home_bank),
                Some(bridge),
                None,
                "the attacker is on the bridge: contested",
            ),
            (None, Some(bridge), Some(1), "the attacker holds the bridge alone"),
            (None, Some(far_bank), None, "nobody is at the crossing"),
            (
                Some(far_bank),
                Some((9.5, 7.5)),
                Some(0),
                "the defender's bridgehead holds it until the attacker is on the bridge",
            ),
        ];
        for (defender, attacker, holder, why) in cases {
            let mut ends = vec![end(0, 100, FAR), end(1, 100, (0.5, 10.5))];
            ends.extend(defender.map(|at| end(0, 100, at)));
            ends.extend(attacker.map(|at| end(1, 100, at)));
            assert_eq!(judge(&s, &ends, &Resolve::default(), None).0, holder, "{why}");
        }
        // Without the river it is an objective as any other: contested.
        s.table.terrain.truncate(s.table.terrain.len() - 2);
        assert_eq!(crossing_toward_defender(&s, &s.objectives[0]), None);
        let ends = [end(0, 100, home_bank), end(1, 100, far_bank)];
        assert_eq!(judge(&s, &ends, &Resolve::default(), None).0, None);
    }

    #[test]
    fn failing_objectives_clearly_lighter_losses_win_else_a_draw() {
        let s = scenario();
        let ends = [end(0, 90, FAR), end(1, 70, FAR)];
        let (winner, _, verdict) = judge(&s, &ends, &Resolve::default(), None);
        assert_eq!(winner, Some(0), "10% against 30% lost");
        let (won, lost) = (&s.sides[0].name, &s.sides[1].name);
        assert_eq!(
            verdict,
            format!(
                "{won} keeps the field with 10% of its strength killed, routed or taken, against 30% of {lost}'s"
            ),
            "each share names its side"
        );
        let ends = [end(0, 90, FAR), end(1, 80, FAR)];
        let (winner, field, verdict) = judge(&s, &ends, &Resolve::default(), None);
        assert_eq!(
            (winner, field),
            (None, Some(0)),
            "a draw: the defender keeps the field"
        );
        assert_eq!(verdict, "neither side gained the day: a draw");
    }

    #[test]
    fn the_wilson_interval_brackets_the_share() {
        let c = Chance::of(50, 100);
        assert_eq!(c.share, 0.5);
        assert!(
            (c.low - 0.4038).abs() < 1e-3 && (c.high - 0.5962).abs() < 1e-3,
            "{c:?}"
        );
        let none = Chance::of(0, 1000);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.00383).abs() < 1e-4, "{none:?}");
        assert_eq!(Chance::of(0, 0).high, 1.0, "no runs: nothing is known");
    }
}
