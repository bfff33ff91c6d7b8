//! The proving ground's machinery on a small sample: the battles it lays
//! (the bundled campaigns' contacts and the synthetic kinds), the table's
//! shape with every figure measured for every rule set, and the same
//! figures again from the same seed; and the targets held on the quick
//! sample: every target a rule set meets there stays met, and the ones it
//! still misses are listed, by name, in `tests/fixtures/proving_misses.txt`
//! (rewrite it with `UPDATE_GOLDEN=1 cargo test --test proving` once a
//! change meets one more, and review the diff).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::Path;
use umpire::files;
use umpire::proving::{self, CampaignInput, OrdersText, Probe};
use umpire::rules;

fn inputs() -> Vec<CampaignInput> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let (campaigns, orders) = files::load_proving_inputs(&dir).unwrap();
    campaigns
        .into_iter()
        .map(|(name, checked)| CampaignInput {
            name,
            campaign: checked.value.expect("the bundled campaigns check"),
            orders: orders
                .iter()
                .map(|(name, text)| OrdersText {
                    name: name.clone(),
                    text: text.clone(),
                })
                .collect(),
        })
        .collect()
}

#[test]
fn the_sample_is_laid_fought_and_reproducible_from_its_seed() {
    let inputs = inputs();
    let (battles, skipped) = proving::battles(&inputs, true);
    assert!(skipped.is_empty(), "{skipped:?}");
    let rule_sets = rules::rule_sets().count();
    // Beni Suef, battle 1 of the Egyptian Rebellion with its bundled orders.
    assert!(
        battles
            .iter()
            .any(|b| matches!(&b.probe, Probe::Contact { region, .. } if region == "Beni Suef")),
        "{:?}",
        battles.iter().map(|b| &b.name).collect::<Vec<_>>()
    );
    for kind in ["synthetic", "mirror", "plus25", "matchup"] {
        assert!(
            battles
                .iter()
                .any(|b| serde_json::to_value(&b.probe).unwrap()["kind"] == kind),
            "no {kind} battle"
        );
    }
    for b in &battles {
        assert_eq!(
            b.scenarios.len(),
            rule_sets,
            "{} is laid for every rule set",
            b.name
        );
        assert!(b.scenarios.iter().all(|s| s.problems().is_empty()), "{}", b.name);
    }
    let mut calls = 0;
    let fought = proving::fight(&battles, 2, 7, &mut |done, total| {
        calls += 1;
        assert!(done <= total);
    });
    assert_eq!(calls, battles.len(), "progress after every battle");
    let report = proving::report(&fought, skipped.clone());
    assert_eq!(report.rule_sets.len(), rule_sets);
    assert_eq!(report.figures.len(), 12, "the twelve figures of issue 14");
    for figure in &report.figures {
        assert_eq!(figure.values.len(), rule_sets, "{}", figure.name);
        assert!(!figure.target.is_empty());
        for m in &figure.values {
            assert!(m.pass.is_some(), "{} was not measured: {}", figure.name, m.text);
        }
    }
    let table = report.table();
    assert_eq!(
        table
            .lines()
            .filter(|l| l.contains(" PASS") || l.contains(" FAIL"))
            .count(),
        report.figures.len(),
        "{table}"
    );
    // The same seed fights the same battles.
    let again = proving::report(&proving::fight(&battles, 2, 7, &mut |_, _| {}), skipped);
    assert_eq!(
        serde_json::to_value(&report).unwrap(),
        serde_json::to_value(&again).unwrap()
    );
}

#[test]
fn the_command_prints_the_table_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let campaigns = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let out = umpire(
        dir.path(),
        &[
            "proving",
            "--quick",
            "--runs",
            "1",
            "--json",
            "--campaigns",
            campaigns.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["runs"], 1);
    assert!(stderr(&out).contains("battles fought"), "progress on stderr");
    let out = umpire(dir.path(), &["proving", "--quick", "--runs", "1"]);
    assert!(!out.status.success(), "no campaigns folder here");
    assert!(stderr(&out).contains("--campaigns"), "{}", stderr(&out));
}

/// The quick sample's battles, runs and seed the targets are held on.
const HELD_RUNS: u32 = 40;
const HELD_SEED: u64 = 1895;

#[test]
fn the_targets_met_on_the_quick_sample_stay_met() {
    let inputs = inputs();
    let (battles, skipped) = proving::battles(&inputs, true);
    let report = proving::report(
        &proving::fight(&battles, HELD_RUNS, HELD_SEED, &mut |_, _| {}),
        skipped,
    );
    let mut misses = format!(
        "# The targets each rule set still misses on the proving ground's quick sample\n\
         # ({} battles, {HELD_RUNS} runs each, {} for those of the 2:1, 3:1, town or entrenched\n\
         # and match-up figures, {} for the mirror; seed {HELD_SEED}); every other target is held by\n\
         # tests/proving.rs. Rewrite with UPDATE_GOLDEN=1 cargo test --test proving.\n",
        report.battles,
        HELD_RUNS * proving::TARGET_RUNS,
        HELD_RUNS * proving::MIRROR_RUNS,
    );
    for figure in &report.figures {
        for (rules, m) in report.rule_sets.iter().zip(&figure.values) {
            if m.pass != Some(true) {
                misses.push_str(&format!(
                    "{rules}: {} (target {}): {}\n",
                    figure.name, figure.target, m.text
                ));
            }
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/proving_misses.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, &misses).unwrap();
        return;
    }
    let held = std::fs::read_to_string(&path).unwrap();
    // Only which targets are missed is held, not the figures measured.
    let names = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.rsplit_once("): ").map_or(l, |(name, _)| name).to_owned())
            .collect()
    };
    let (was, now) = (names(&held), names(&misses));
    let newly_missed: Vec<&String> = now.iter().filter(|n| !was.contains(n)).collect();
    let now_met: Vec<&String> = was.iter().filter(|n| !now.contains(n)).collect();
    assert!(
        newly_missed.is_empty(),
        "targets met before are missed now:\n{newly_missed:#?}\n\n{}",
        report.table()
    );
    assert!(
        now_met.is_empty(),
        "targets missed before are met now: rewrite the list with UPDATE_GOLDEN=1 cargo test --test proving\n{now_met:#?}"
    );
}

/// The mirror figure gives each size's gap with the side ahead, in the order
/// fought, and passes only when every size is within 0.10: one size over
/// fails it however even the others are.
#[test]
fn the_mirror_figure_gives_every_size_and_the_side_ahead() {
    use umpire::proving::{Fought, FoughtBattle, Tally};
    let mirror = |stands: u32, attacker_wins: u32, defender_wins: u32| FoughtBattle {
        name: format!("mirror, {stands} a side"),
        probe: Probe::Mirror { stands },
        tallies: vec![Some(Tally {
            runs: 100,
            attacker_wins,
            defender_wins,
            draws: 100 - attacker_wins - defender_wins,
            ..Tally::default()
        })],
    };
    let cases = [
        // (attacker and defender wins at 9, 20 and 40 a side; text; met)
        ([(50, 50), (60, 40), (35, 65)], "0.00 / 0.20 A / 0.30 D", false),
        ([(45, 55), (52, 48), (50, 49)], "0.10 D / 0.04 A / 0.01 A", true),
        ([(60, 39), (50, 50), (50, 50)], "0.21 A / 0.00 / 0.00", false),
    ];
    for (wins, text, met) in cases {
        let fought = Fought {
            runs: 100,
            seed: 1,
            rule_sets: vec![umpire::model::RuleSetId::ScrubyBasic],
            battles: [9, 20, 40]
                .iter()
                .zip(wins)
                .map(|(&stands, (a, d))| mirror(stands, a, d))
                .collect(),
        };
        let report = proving::report(&fought, Vec::new());
        let figure = report
            .figures
            .iter()
            .find(|f| f.name.starts_with("mirror armies"))
            .unwrap();
        assert_eq!(figure.values[0].text, text);
        assert_eq!(figure.values[0].pass, Some(met), "{text}");
    }
}

/// The battles whose figure is a share held against a bound are fought
/// TARGET_RUNS times as often, the mirrors MIRROR_RUNS times, the rest once.
#[test]
fn the_battles_near_a_bound_are_fought_more_often() {
    use Ground::{Hills, Open, Town, Woods};
    use Posture::{Entrenched, Standing};
    use proving::{Arms, Ground, MIRROR_RUNS, Matchup, Posture, TARGET_RUNS};
    let cases = [
        // (ground, posture, attacker's and defender's stands, times the runs, why)
        (Open, Standing, 20, 10, TARGET_RUNS, "2:1 on open ground"),
        (Open, Standing, 10, 30, TARGET_RUNS, "3:1, the defender stronger"),
        (Town, Standing, 10, 10, TARGET_RUNS, "equal points in a town"),
        (Woods, Entrenched, 10, 10, TARGET_RUNS, "equal points entrenched"),
        (Open, Standing, 10, 10, 1, "1:1 on open ground"),
        (Open, Standing, 15, 10, 1, "1.5:1"),
        (Open, Entrenched, 20, 10, 1, "2:1 against works"),
        (Hills, Standing, 20, 10, 1, "2:1 on hills"),
    ];
    for (ground, posture, attacker_stands, defender_stands, times, why) in cases {
        let probe = Probe::Synthetic {
            ground,
            posture,
            attacker_stands,
            defender_stands,
            arms: Arms::Mixed,
        };
        assert_eq!(probe.runs_factor(), times, "{why}");
    }
    let matchup = Probe::Matchup {
        matchup: Matchup::GunsColumn,
    };
    assert_eq!(matchup.runs_factor(), TARGET_RUNS, "a match-up");
    assert_eq!(
        Probe::Mirror { stands: 20 }.runs_factor(),
        MIRROR_RUNS,
        "a mirror"
    );
    let plus = Probe::Plus25 {
        arms: Arms::Foot,
        stronger: umpire::scenario::Role::Attacker,
    };
    assert_eq!(plus.runs_factor(), 1, "+25%");
}

/// A figure over many battles counts each battle the same, however many
/// times it was fought: a mirror's 2,000 runs buy it precision, not weight.
#[test]
fn a_battle_fought_more_often_weighs_no_more_in_a_figure() {
    use umpire::proving::{Fought, FoughtBattle, Tally};
    let battle = |probe: Probe, runs: u32, no_loss: u32| FoughtBattle {
        name: format!("{probe:?}"),
        probe,
        tallies: vec![Some(Tally {
            runs,
            attacker_wins: runs,
            no_loss,
            ..Tally::default()
        })],
    };
    let fought = Fought {
        runs: 50,
        seed: 1,
        rule_sets: vec![umpire::model::RuleSetId::ScrubyBasic],
        battles: vec![
            // Every run of the 50 lost a point; none of the mirror's 2,000 did.
            battle(Probe::Mirror { stands: 9 }, 2000, 2000),
            battle(
                Probe::Matchup {
                    matchup: proving::Matchup::FootFoot,
                },
                400,
                0,
            ),
            battle(Probe::Mirror { stands: 20 }, 50, 0),
            battle(Probe::Mirror { stands: 40 }, 50, 0),
        ],
    };
    let report = proving::report(&fought, Vec::new());
    let figure = report
        .figures
        .iter()
        .find(|f| f.name.starts_with("no point lost"))
        .unwrap();
    // One battle of four: 25.0%, where the runs pooled would give 80.0%.
    assert_eq!(figure.values[0].text, "25.0%");
    assert_eq!(figure.values[0].pass, Some(false));
}
