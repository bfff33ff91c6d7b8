//! What every registered rule set must do, checked for each of them
//! (`rules::rule_sets()`), and the golden battles: the same seed must give
//! the same battle as the committed fixtures in `tests/fixtures/rules_golden/`.
//!
//! The golden battles pin behaviour while the engines are reorganised. When a
//! rule set's results change on purpose, rewrite them with
//! `UPDATE_GOLDEN=1 cargo test --test rules_conformance` and review the diff.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::armies::{cordery, harman2021, scruby1961, scruby1965, scrubybasic};
use common::table::*;
use proptest::prelude::*;
use std::fmt::Write as _;
use umpire::model::{ArmyKind, RuleSetId, StandKind};
use umpire::rules::engine::Setting;
use umpire::rules::{EndState, Fate, Outcome, RuleSet, judge, odds, rule_set, rule_sets};
use umpire::scenario::{Cover, Ground, Objective, ObjectiveKind, Patch, Role, Scenario};

// ---------------------------------------------------------------------------
// The golden scenarios
// ---------------------------------------------------------------------------

/// Seeds fought per golden scenario.
const GOLDEN_SEEDS: u64 = 20;

/// A regular army with every arm against a native one, each with a reserve
/// arriving during the battle and one arriving too late, over a hill, a wood,
/// a wall and a road, on a table of `width` x `depth` cells.
fn mixed(width: u32, depth: u32, cell_inches: f64, grid: bool) -> Scenario {
    use StandKind::*;
    let red = vec![
        stand(1, LineInfantry, None),
        stand(2, LineInfantry, None),
        stand(3, GuardInfantry, None),
        stand(4, LightCavalry, None),
        stand(5, HeavyCavalry, None),
        stand(6, FootArtillery, None),
        stand(7, MachineGun, None),
        stand(8, Command, None),
    ];
    let blue = vec![
        stand(21, NativeSpearmen, None),
        stand(22, NativeSpearmen, None),
        stand(23, NativeSpearmen, None),
        stand(24, NativeRiflemen, None),
        stand(25, NativeRiflemen, None),
        stand(26, NativeRegulars, None),
        stand(27, LightCavalry, None),
        stand(28, FootArtillery, None),
    ];
    let mut red = side(
        "red",
        ArmyKind::Regular,
        Role::Attacker,
        area(0, 0, width, 3),
        red,
    );
    red.reserves = vec![
        reserve(
            2,
            area(0, 0, 4, 2),
            vec![stand(11, LightInfantry, None), stand(12, HorseArtillery, None)],
        ),
        reserve(99, area(0, 0, 4, 2), vec![stand(13, MountedInfantry, None)]),
    ];
    let mut blue = side(
        "blue",
        ArmyKind::Native,
        Role::Defender,
        area(0, depth - 3, width, 3),
        blue,
    );
    blue.reserves = vec![reserve(
        3,
        area(width - 4, depth - 2, 4, 2),
        vec![stand(31, NativeSpearmen, None), stand(32, NativeSpearmen, None)],
    )];
    let mut s = scenario(
        RuleSetId::Scruby1965,
        12,
        table(width, depth, cell_inches, grid),
        vec![red, blue],
    );
    let mid = width / 2;
    s.table.terrain = vec![
        Patch {
            road: Some(true),
            ..patch(mid, 0, 1, depth)
        },
        Patch {
            level: Some(1),
            ..patch(mid - 1, depth - 5, 3, 2)
        },
        ground(1, depth / 2 - 1, 2, 2, Ground::ForestEdge),
        Patch {
            cover: Some(Cover::WallOrHedge),
            ..patch(width - 4, depth - 4, 2, 1)
        },
    ];
    s.objectives = vec![Objective {
        name: "the hill".to_owned(),
        kind: ObjectiveKind::Hill,
        x: mid,
        y: depth - 5,
    }];
    s
}

/// Cavalry and horse guns of two regular armies, placed by hand, meeting in
/// the open.
fn cavalry_clash(cell_inches: f64, grid: bool) -> Scenario {
    use StandKind::*;
    let red = vec![
        stand_in(1, HeavyCavalry, Some((3, 1))),
        stand_in(2, HeavyCavalry, Some((4, 1))),
        stand_in(3, LightCavalry, Some((5, 1))),
        stand_in(4, HorseArtillery, Some((4, 0))),
        stand_in(5, MountedInfantry, Some((6, 1))),
    ];
    let blue = vec![
        stand_in(21, LightCavalry, Some((3, 6))),
        stand_in(22, LightCavalry, Some((4, 6))),
        stand_in(23, HeavyCavalry, Some((5, 6))),
        stand_in(24, HorseArtillery, Some((4, 7))),
        stand_in(25, LineInfantry, Some((6, 6))),
    ];
    scenario(
        RuleSetId::Scruby1965,
        10,
        table(10, 8, cell_inches, grid),
        vec![
            side("red", ArmyKind::Regular, Role::Attacker, area(0, 0, 10, 2), red),
            side("blue", ArmyKind::Regular, Role::Defender, area(0, 6, 10, 2), blue),
        ],
    )
}

/// The golden scenarios by name: the examples and the built ones.
fn golden_scenarios() -> Vec<(String, Scenario)> {
    let mut out: Vec<(String, Scenario)> = EXAMPLES
        .iter()
        .map(|name| (name.trim_end_matches(".json").to_owned(), example(name)))
        .collect();
    out.push(("mixed_inch".to_owned(), mixed(12, 12, 6.0, false)));
    out.push(("mixed_grid".to_owned(), mixed(14, 10, 2.0, true)));
    out.push(("cavalry_inch".to_owned(), cavalry_clash(6.0, false)));
    out.push(("cavalry_grid".to_owned(), cavalry_clash(2.0, true)));
    out
}

/// A stable 64-bit hash (FNV-1a) of the log: its turns and texts.
fn log_hash(outcome: &Outcome) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for line in &outcome.log {
        for b in format!("{}\t{}\n", line.turn, line.text).bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// One battle in a line: seed, turns, winner, field, verdict, each stand's
/// fate and strengths in the outcome's order, and the log's length and hash.
fn digest(seed: u64, o: &Outcome) -> String {
    let stands: Vec<String> = o
        .stands
        .iter()
        .map(|s| format!("{}:{}:{}>{}", s.id, s.fate, s.strength_before, s.strength_after))
        .collect();
    format!(
        "seed {seed}: {} turns, winner {}, field {}, {:?}; stands {}; log {} lines #{:016x}",
        o.turns,
        o.winner.as_deref().unwrap_or("-"),
        o.field_held_by.as_deref().unwrap_or("-"),
        o.verdict,
        stands.join(" "),
        o.log.len(),
        log_hash(o)
    )
}

/// The golden text of one rule set: every golden scenario, every seed.
fn golden_text(rules: &dyn RuleSet) -> String {
    let mut text = format!(
        "# Golden battles under {}: scenario, then one line per seed.\n\
         # Rewrite with UPDATE_GOLDEN=1 cargo test --test rules_conformance.\n",
        rules.id()
    );
    for (name, scenario) in golden_scenarios() {
        writeln!(text, "== {name}").unwrap();
        for i in 0..GOLDEN_SEEDS {
            let seed = scenario.seed.wrapping_add(i);
            let outcome = rules.fight(&scenario, seed, true);
            writeln!(text, "{}", digest(seed, &outcome)).unwrap();
        }
    }
    text
}

#[test]
fn every_rule_set_fights_the_golden_battles_as_before() {
    let dir = format!("{}/tests/fixtures/rules_golden", env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for rules in rule_sets() {
        let path = format!("{dir}/{}.txt", rules.id());
        let now = golden_text(rules);
        if update {
            std::fs::write(&path, &now).unwrap();
            continue;
        }
        let before = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}; write it with UPDATE_GOLDEN=1"));
        if before != now {
            let first = before.lines().zip(now.lines()).find(|(b, n)| b != n).map_or_else(
                || "the number of lines differs".to_owned(),
                |(b, n)| format!("was:\n  {b}\nnow:\n  {n}"),
            );
            failures.push(format!("{path}: first difference\n{first}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------
// What every rule set must do
// ---------------------------------------------------------------------------

/// Each engine throws its generals' resolve as its `resolve_throw` says
/// (which the briefing tells the table): every side's resolve in every
/// golden battle is a face of that throw, plus the engine's bonus for the
/// attacker, and over the battles every throw comes up.
#[test]
fn every_engine_throws_the_resolve_its_briefing_tells() {
    for rules in rule_sets() {
        let throw = rules.resolve_throw();
        let faces: Vec<f64> = (0..=5 * throw.dice)
            .map(|k| throw.share(throw.dice + k))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for (name, scenario) in golden_scenarios() {
            for i in 0..40 {
                let seed = scenario.seed.wrapping_add(i);
                let o = rules.fight(&scenario, seed, false);
                for (side, share) in o.resolve.breaks_at.iter().enumerate() {
                    let bonus = if scenario.sides[side].role == Role::Attacker {
                        rules.attacker_resolve()
                    } else {
                        0.0
                    };
                    let face = faces.iter().position(|f| (share - bonus - f).abs() < 1e-9);
                    assert!(
                        face.is_some(),
                        "{} on {name}, seed {seed}: a resolve of {share} is no throw of {}D6",
                        rules.id(),
                        throw.dice
                    );
                    seen.insert(face);
                }
            }
        }
        assert_eq!(
            seen.len(),
            faces.len(),
            "{}: every throw of {}D6 comes up; seen {seen:?}",
            rules.id(),
            throw.dice
        );
    }
}

/// Every engine's log tells each general's resolve in its first lines, and a
/// verdict of an army broken with stands still standing says the resolve it
/// broke past: a break after light losses (a resolve may be a twentieth)
/// reads as the general's, in his own figure.
#[test]
fn the_log_and_the_verdict_tell_each_generals_resolve() {
    for rules in rule_sets() {
        let mut broke = 0;
        for (name, scenario) in golden_scenarios() {
            for i in 0..10 {
                let seed = scenario.seed.wrapping_add(i);
                let o = rules.fight(&scenario, seed, true);
                // Its figure as `Resolve::percent` writes it (whole, or "32.5%").
                for side in 0..o.resolve.breaks_at.len() {
                    let general = &scenario.sides[side].name;
                    let told = format!(
                        "gives up the field past {} of its strength lost",
                        o.resolve.percent(side)
                    );
                    assert!(
                        o.log.iter().any(|l| l.turn == 1
                            && l.text.starts_with(general.as_str())
                            && l.text.contains(&told)),
                        "{} on {name}, seed {seed}: no first line of {general} says \"{told}\"",
                        rules.id()
                    );
                }
                for (side, s) in scenario.sides.iter().enumerate() {
                    if o.verdict.starts_with(&format!("{} broke with ", s.name)) {
                        let standing = o
                            .stands
                            .iter()
                            .any(|r| r.side == s.id && r.fate == Fate::Stood && r.strength_after > 0);
                        let past =
                            format!("(its general gave up the field past {})", o.resolve.percent(side));
                        assert_eq!(
                            o.verdict.ends_with(&past),
                            standing,
                            "{} on {name}, seed {seed}: {}",
                            rules.id(),
                            o.verdict
                        );
                        broke += 1;
                    }
                }
            }
        }
        assert!(
            broke > 0,
            "{}: no golden battle ends with an army broken",
            rules.id()
        );
    }
}

/// The scenarios the conformance checks fight: the golden ones without
/// objectives, so the judge can be asked again from the outcome alone.
fn plain_scenarios() -> Vec<(String, Scenario)> {
    golden_scenarios()
        .into_iter()
        .map(|(name, mut s)| {
            s.objectives.clear();
            (name, s)
        })
        .collect()
}

/// Every stand of the scenario is in the outcome exactly once, on its own
/// side; no stand ends stronger than it began; a reserve that never came on
/// is unchanged; and the judge, asked again on the outcome's stands, gives
/// the outcome's winner and verdict (the outcome and the end states agree).
fn check_outcome(rules: &dyn RuleSet, name: &str, scenario: &Scenario, o: &Outcome) {
    let what = format!("{} on {name}, seed {}", rules.id(), o.seed);
    let mut wanted: Vec<(u32, &str)> = scenario
        .sides
        .iter()
        .flat_map(|side| all_stands(side).map(move |t| (t.id.0, side.id.as_str())))
        .collect();
    let mut got: Vec<(u32, &str)> = o.stands.iter().map(|s| (s.id.0, s.side.as_str())).collect();
    wanted.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, wanted, "{what}: every stand exactly once, on its side");
    for s in &o.stands {
        assert!(
            s.strength_after <= s.strength_before,
            "{what}: {} rose from {} to {}",
            s.name,
            s.strength_before,
            s.strength_after
        );
        if s.fate == Fate::NotEngaged {
            assert_eq!(
                s.strength_after, s.strength_before,
                "{what}: {} never came on",
                s.name
            );
        }
    }
    let side_index = |id: &str| scenario.sides.iter().position(|s| s.id == id).unwrap();
    let ends: Vec<EndState> = o
        .stands
        .iter()
        .filter(|s| s.fate != Fate::NotEngaged)
        .map(|s| EndState {
            side: side_index(&s.side),
            strength_before: s.strength_before,
            strength_after: s.strength_after,
            standing: s.fate == Fate::Stood,
            at: (0.0, 0.0),
        })
        .collect();
    let (winner, field, verdict) = judge(scenario, &ends, &o.resolve, o.last_word.as_ref());
    let id = |s: Option<usize>| s.map(|s| scenario.sides[s].id.clone());
    assert_eq!(
        (id(winner), id(field), verdict.as_str()),
        (o.winner.clone(), o.field_held_by.clone(), o.verdict.as_str()),
        "{what}: the outcome and the judge agree"
    );
    assert!(o.turns <= scenario.turn_limit, "{what}: {} turns", o.turns);
    assert_eq!((o.rules, o.seed), (rules.id(), o.seed));
}

#[test]
fn the_same_seed_fights_the_same_battle_and_the_log_changes_nothing() {
    for rules in rule_sets() {
        for (name, scenario) in plain_scenarios() {
            for seed in [0, 1, u64::MAX] {
                let a = rules.fight(&scenario, seed, true);
                let b = rules.fight(&scenario, seed, true);
                assert_eq!(a, b, "{} on {name}, seed {seed}", rules.id());
                assert!(
                    !a.log.is_empty(),
                    "{} on {name}: a kept log has lines",
                    rules.id()
                );
                let bare = rules.fight(&scenario, seed, false);
                assert!(
                    bare.log.is_empty(),
                    "{} on {name}: no log unless kept",
                    rules.id()
                );
                assert_eq!(
                    Outcome {
                        log: Vec::new(),
                        ..a.clone()
                    },
                    bare,
                    "{} on {name}, seed {seed}: the log changes nothing",
                    rules.id()
                );
                check_outcome(rules, &name, &scenario, &a);
            }
            let other = rules.fight(&scenario, 2, true);
            assert_ne!(
                rules.fight(&scenario, 1, true).log,
                other.log,
                "{} on {name}: another seed, another battle",
                rules.id()
            );
        }
    }
}

#[test]
fn a_battle_on_a_shared_setting_is_the_battle_fought_on_its_own() {
    // `odds` sets a scenario out once and fights every battle on it; the
    // defenders' posts are drawn by the first battle whose plan asks for
    // them. Fought in reverse order, the later seeds' plans draw them first.
    for rules in rule_sets() {
        for (name, scenario) in golden_scenarios() {
            let setting = Setting::new(&scenario);
            for seed in (0..12).rev() {
                let shared = rules.fight_on(&setting, seed, true);
                let own = rules.fight(&scenario, seed, true);
                assert!(
                    shared == own,
                    "{} on {name}, seed {seed}: {} on the shared setting, {} on its own",
                    rules.id(),
                    digest(seed, &shared),
                    digest(seed, &own)
                );
            }
        }
    }
}

#[test]
fn odds_are_reproducible_from_their_seed() {
    let scenario = example("abu_tleih_1895.json");
    for rules in rule_sets() {
        let a = odds(&scenario, rules.id(), 40, 7).unwrap();
        let b = odds(&scenario, rules.id(), 40, 7).unwrap();
        assert_eq!(a, b, "{}", rules.id());
        let c = odds(&scenario, rules.id(), 40, 8).unwrap();
        assert_eq!(c.runs, 40);
        let counted: u32 = a.sides.iter().map(|s| s.wins.count).sum::<u32>() + a.draws.count;
        assert_eq!(counted, 40, "{}: every battle is a win or a draw", rules.id());
    }
}

// ---------------------------------------------------------------------------
// Each rule set on its own armies: its seed file, replays and odds
// ---------------------------------------------------------------------------

/// Every rule set, registered under its id with its seed file.
const SEED_FILES: [(RuleSetId, &str); 5] = [
    (RuleSetId::Cordery2009, "cordery-2009-late-19th-century-rules.txt"),
    (RuleSetId::Harman2021, "harman-2021-toy-soldier-battles.txt"),
    (RuleSetId::Scruby1961, "scruby-1961-strategy-tactical-wargame.txt"),
    (RuleSetId::Scruby1965, "scruby-1965-unbalanced-equality.txt"),
    (RuleSetId::ScrubyBasic, "scruby-basic-war-game-rules.txt"),
];

#[test]
fn every_rule_set_is_registered_with_its_seed_file() {
    for (id, seed_file) in SEED_FILES {
        let rules = rule_set(id).unwrap_or_else(|| panic!("{id} is registered"));
        assert_eq!((rules.id(), rules.seed_file()), (id, seed_file));
    }
    assert_eq!(rule_sets().count(), SEED_FILES.len(), "and no other");
}

/// Each rule set's own armies, as its tests fight them: its mirror images,
/// and 1961's scouting screen (concealed columns), Cordery's bridge.
fn own_battles() -> Vec<(RuleSetId, &'static str, Scenario)> {
    vec![
        (RuleSetId::Cordery2009, "mirror", cordery::mirror()),
        (RuleSetId::Cordery2009, "kassassin", cordery::kassassin()),
        (RuleSetId::Harman2021, "mirror", harman2021::mirror()),
        (RuleSetId::Scruby1961, "mirror", scruby1961::mirror()),
        (RuleSetId::Scruby1961, "scouted", scruby1961::scouted()),
        (RuleSetId::Scruby1965, "mirror", scruby1965::mirror()),
        (RuleSetId::ScrubyBasic, "mirror", scrubybasic::mirror()),
    ]
}

#[test]
fn each_rule_set_replays_its_own_battles_from_their_seed() {
    for (id, name, scenario) in own_battles() {
        let rules = rule_set(id).unwrap();
        for seed in 0..10 {
            let kept = rules.fight(&scenario, seed, true);
            assert_eq!(
                kept,
                rules.fight(&scenario, seed, true),
                "{id} on {name}, seed {seed}"
            );
            assert!(!kept.log.is_empty(), "{id} on {name}: a kept log has lines");
            let quiet = rules.fight(&scenario, seed, false);
            assert!(quiet.log.is_empty(), "{id} on {name}: no log unless kept");
            assert_eq!(
                Outcome {
                    log: Vec::new(),
                    ..kept
                },
                quiet,
                "{id} on {name}, seed {seed}: keeping the log changes nothing but the log"
            );
        }
    }
}

/// What the odds of 1,000 battles of a rule set's own armies must show.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Side 0 or 1, much the stronger, wins at least nine battles in ten.
    Wins(usize),
    /// Mirror-image armies: the sides' wins within 0.15 of each other; if
    /// `decided`, at least 0.3 of the battles won (not all drawn).
    Even { decided: bool },
}

/// Each rule set's odds on its own armies, with the seed of its odds.
fn odds_cases() -> Vec<(RuleSetId, &'static str, Scenario, u64, Expect)> {
    use Expect::{Even, Wins};
    use RuleSetId::*;
    let infantry = StandKind::LineInfantry;
    vec![
        (Cordery2009, "mismatch", cordery::mismatch(), 77, Wins(0)),
        (
            Cordery2009,
            "mirror",
            cordery::mirror(),
            78,
            Even { decided: false },
        ),
        (Harman2021, "mismatch", harman2021::mismatch(), 77, Wins(0)),
        (
            Harman2021,
            "mirror",
            harman2021::mirror(),
            78,
            Even { decided: false },
        ),
        (
            Scruby1961,
            "3 against 9",
            scruby1961::lines(3, 9, 3.0, infantry),
            11,
            Wins(1),
        ),
        (
            Scruby1961,
            "9 against 3",
            scruby1961::lines(9, 3, 3.0, infantry),
            12,
            Wins(0),
        ),
        (
            Scruby1961,
            "mirror",
            scruby1961::mirror(),
            13,
            Even { decided: true },
        ),
        (Scruby1965, "lopsided", scruby1965::lopsided(), 11, Wins(0)),
        (Scruby1965, "native host", scruby1965::native_host(), 12, Wins(1)),
        (
            Scruby1965,
            "mirror",
            scruby1965::mirror(),
            13,
            Even { decided: true },
        ),
        (
            ScrubyBasic,
            "weak defender",
            scrubybasic::weak_defender(),
            11,
            Wins(1),
        ),
        (
            ScrubyBasic,
            "weak attacker",
            scrubybasic::weak_attacker(),
            12,
            Wins(0),
        ),
        (
            ScrubyBasic,
            "mirror",
            scrubybasic::mirror(),
            13,
            Even { decided: true },
        ),
        (
            ScrubyBasic,
            "mirror, roles swapped",
            scrubybasic::swapped(),
            14,
            Even { decided: false },
        ),
    ]
}

#[test]
fn each_rule_set_gives_its_own_armies_the_odds_they_should_have() {
    let cases = odds_cases();
    for rules in rule_sets() {
        assert!(
            cases
                .iter()
                .any(|c| c.0 == rules.id() && matches!(c.4, Expect::Wins(_)))
                && cases
                    .iter()
                    .any(|c| c.0 == rules.id() && matches!(c.4, Expect::Even { .. })),
            "{}: a mismatch and a mirror",
            rules.id()
        );
    }
    for (id, name, scenario, seed, expect) in cases {
        let o = odds(&scenario, id, 1000, seed).unwrap();
        let counted: u32 = o.sides.iter().map(|s| s.wins.count).sum::<u32>() + o.draws.count;
        assert_eq!(counted, 1000, "{id} on {name}: every battle is a win or a draw");
        let (a, b) = (o.sides[0].wins.share, o.sides[1].wins.share);
        match expect {
            Expect::Wins(strong) => {
                let share = o.sides[strong].wins.share;
                assert!(
                    share >= 0.9,
                    "{id} on {name}: the strong side won {share:.3}: {o:#?}"
                );
            }
            Expect::Even { decided } => {
                assert!(
                    (a - b).abs() <= 0.15,
                    "{id} on {name}: {a:.3} against {b:.3}: {o:#?}"
                );
                if decided {
                    assert!(a + b >= 0.3, "{id} on {name}: the battles are fought out: {o:#?}");
                }
            }
        }
    }
}

/// A valid scenario: a table of any shape and scale, two sides of any
/// stands (placed by hand or by the doctrine, at any strength), reserves
/// coming on any turn, some terrain.
fn any_scenario() -> impl Strategy<Value = Scenario> {
    let kinds = prop::sample::select(StandKind::ALL.to_vec());
    let stand_spec = (kinds, 1_u32..=100, prop::option::of((0.0_f64..1.0, 0.0_f64..1.0)));
    let grounds = prop::sample::select(vec![
        Ground::Open,
        Ground::BuiltUpOuter,
        Ground::BuiltUpInner,
        Ground::ForestEdge,
        Ground::ForestInterior,
        Ground::River,
        Ground::Ford,
        Ground::TallCrops,
    ]);
    (
        4_u32..16,
        4_u32..16,
        any::<bool>(),
        1_u32..8,
        prop::collection::vec(stand_spec.clone(), 1..7),
        prop::collection::vec(stand_spec.clone(), 1..7),
        prop::collection::vec((1_u32..10, stand_spec), 0..3),
        prop::collection::vec((0_u32..16, 0_u32..16, grounds, 0_u8..3), 0..4),
        any::<bool>(),
    )
        .prop_map(
            |(width, depth, grid, turns, red, blue, reserves, patches, natives)| {
                let mut id = 0;
                let mut make = |(kind, percent, at): (StandKind, u32, Option<(f64, f64)>)| {
                    id += 1;
                    let mut t = stand(
                        id,
                        kind,
                        at.map(|(x, y)| (x * f64::from(width), y * f64::from(depth))),
                    );
                    t.strength = (t.full * percent / 100).max(1);
                    t
                };
                let band = (depth / 3).max(1);
                let red: Vec<_> = red.into_iter().map(&mut make).collect();
                let blue: Vec<_> = blue.into_iter().map(&mut make).collect();
                let reserves: Vec<_> = reserves
                    .into_iter()
                    .map(|(turn, spec)| reserve(turn, area(0, 0, width.min(3), band), vec![make(spec)]))
                    .collect();
                let army = if natives {
                    ArmyKind::Native
                } else {
                    ArmyKind::Regular
                };
                let mut red = side(
                    "red",
                    ArmyKind::Regular,
                    Role::Attacker,
                    area(0, 0, width, band),
                    red,
                );
                red.reserves = reserves;
                let blue = side(
                    "blue",
                    army,
                    Role::Defender,
                    area(0, depth - band, width, band),
                    blue,
                );
                let cell = if grid { 2.0 } else { 6.0 };
                let mut s = scenario(
                    RuleSetId::Scruby1965,
                    turns,
                    table(width, depth, cell, grid),
                    vec![red, blue],
                );
                s.table.terrain = patches
                    .into_iter()
                    .map(|(x, y, g, level)| Patch {
                        level: Some(level),
                        ..ground(x % width, y % depth, 2, 2, g)
                    })
                    .collect();
                s
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_rule_set_fights_any_valid_scenario(s in any_scenario(), seed in any::<u64>()) {
        prop_assert_eq!(s.problems(), vec![]);
        for rules in rule_sets() {
            let o = rules.fight(&s, seed, true);
            check_outcome(rules, "a generated scenario", &s, &o);
        }
    }
}
