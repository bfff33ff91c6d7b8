//! `umpire battle` and `umpire odds` on the example scenarios.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use serde_json::Value;

const SCENARIOS: [(&str, &str); 2] = [
    ("campaigns/scenarios/abu_tleih_1895.json", "scruby-1965"),
    ("campaigns/scenarios/kassassin_bridge.json", "cordery-2009"),
];

fn run(args: &[&str]) -> std::process::Output {
    umpire(&repo(), args)
}

#[test]
fn each_example_scenario_is_fought_to_a_result_with_a_log() {
    for (file, rules) in SCENARIOS {
        let out = run(&["battle", file, "--json"]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(outcome["rules"], rules);
        let turns = outcome["turns"].as_u64().unwrap();
        assert!((1..=12).contains(&turns), "{file}: {turns} turns");
        assert!(
            !outcome["log"].as_array().unwrap().is_empty(),
            "{file}: a log to follow"
        );
        assert!(outcome["verdict"].as_str().is_some_and(|v| !v.is_empty()));
        // Every stand of the scenario is accounted for, by its campaign id.
        let scenario: Value =
            serde_json::from_str(&std::fs::read_to_string(repo().join(file)).unwrap()).unwrap();
        let mut ids: Vec<u64> = scenario["sides"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| {
                let reserves = s["reserves"].as_array().cloned().unwrap_or_default();
                s["stands"].as_array().unwrap().clone().into_iter().chain(
                    reserves
                        .into_iter()
                        .flat_map(|r| r["stands"].as_array().unwrap().clone()),
                )
            })
            .map(|s| s["id"].as_u64().unwrap())
            .collect();
        let mut got: Vec<u64> = outcome["stands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_u64().unwrap())
            .collect();
        ids.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, ids, "{file}");
        for s in outcome["stands"].as_array().unwrap() {
            assert!(
                s["strength_after"].as_u64() <= s["strength_before"].as_u64(),
                "{s}"
            );
        }
    }
}

#[test]
fn the_same_seed_fights_the_same_battle() {
    for (file, _) in SCENARIOS {
        let a = run(&["battle", file, "--seed", "99"]);
        let b = run(&["battle", file, "--seed", "99"]);
        assert!(a.status.success(), "{}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "{file}");
        let c = run(&["battle", file, "--seed", "100"]);
        assert_ne!(stdout(&a), stdout(&c), "{file}: another seed, other dice");
    }
}

#[test]
fn the_battle_reads_as_a_log_and_a_result() {
    let out = run(&["battle", "campaigns/scenarios/abu_tleih_1895.json"]);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "The wells at Abu Tleih (Egyptian Rebellion, 1895) under scruby-1965, seed 1895\nTurn 1: "
        ),
        "{text}"
    );
    assert!(text.contains("British Field Force: lost "), "{text}");
    assert!(text.contains("Army of the Rebellion: lost "), "{text}");
}

#[test]
fn odds_are_reported_with_intervals_and_add_up() {
    for (file, _) in SCENARIOS {
        let out = run(&["odds", file, "--runs", "200", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let odds: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(odds["runs"], 200);
        let counts: u64 = odds["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["wins"]["count"].as_u64().unwrap())
            .sum::<u64>()
            + odds["draws"]["count"].as_u64().unwrap();
        assert_eq!(counts, 200);
        for s in odds["sides"].as_array().unwrap() {
            let w = &s["wins"];
            assert!(
                w["low"].as_f64() <= w["share"].as_f64() && w["share"].as_f64() <= w["high"].as_f64(),
                "{w}"
            );
        }
        // Reproducible from the seed.
        assert_eq!(
            stdout(&run(&["odds", file, "--runs", "200", "--json"])),
            stdout(&out)
        );
    }
    let text = stdout(&run(&[
        "odds",
        "campaigns/scenarios/abu_tleih_1895.json",
        "--runs",
        "100",
    ]));
    assert!(text.contains("British Field Force wins "), "{text}");
    assert!(text.contains("(95% sure: "), "{text}");
}

#[test]
fn bad_scenarios_and_unknown_rule_sets_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.json"), "{\n  \"title\": 3\n}\n").unwrap();
    let out = umpire(dir.path(), &["battle", "bad.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "error: bad.json:2:12: invalid type: integer `3`, expected a string: fix the scenario file (its format is in README.md)"
    );
    let out = run(&[
        "battle",
        "campaigns/scenarios/abu_tleih_1895.json",
        "--rules",
        "kriegsspiel",
    ]);
    assert!(
        stderr(&out).contains("unknown rule set `kriegsspiel`: use one of scruby-1961 | scruby-basic"),
        "{}",
        stderr(&out)
    );
    let mut scenario: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join(SCENARIOS[0].0)).unwrap()).unwrap();
    scenario["sides"][0]["role"] = Value::String("attacker".to_owned());
    std::fs::write(dir.path().join("roles.json"), scenario.to_string()).unwrap();
    let out = umpire(dir.path(), &["battle", "roles.json"]);
    assert!(
        stderr(&out).contains(
            "the scenario cannot be fought: one side must be the attacker and the other the defender"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn every_rule_set_fights_both_example_scenarios_and_gives_odds() {
    for rules in [
        "scruby-1961",
        "scruby-basic",
        "harman-2021",
        "scruby-1965",
        "cordery-2009",
    ] {
        for (file, _) in SCENARIOS {
            let out = run(&["battle", file, "--rules", rules, "--json"]);
            assert!(out.status.success(), "{rules} on {file}: {}", stderr(&out));
            let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(outcome["rules"], rules);
            assert!(
                !outcome["log"].as_array().unwrap().is_empty(),
                "{rules} on {file}: a log"
            );
            let odds = run(&["odds", file, "--rules", rules, "--runs", "50", "--json"]);
            assert!(odds.status.success(), "{rules} on {file}: {}", stderr(&odds));
        }
    }
}
