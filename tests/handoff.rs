//! The hand-off to battles through the CLI, on the Egyptian Rebellion:
//! orders that bring two forces into contact, the battle pack, the engine's
//! result, a hand-filled results sheet, and every way a sheet is refused.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::{Path, PathBuf};
use umpire::model::{BattleStatus, Campaign, ResultSource, StandId};
use umpire::rules::Outcome;
use umpire::scenario::Scenario;
use umpire::store::Store;

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = umpire(dir, args);
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// A save of the Egyptian Rebellion in which the Vanguard of the Rebellion
/// has marched from Minya onto the Egyptian Army Column at Beni Suef:
/// battle 1, made in game move 4.
fn beni_suef(dir: &Path) -> PathBuf {
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    ok(dir, &["new", campaign.to_str().unwrap(), "war.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        ok(dir, &["orders", "war.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..4 {
        ok(dir, &["turn", "war.umpire"]);
    }
    let save = dir.join("war.umpire");
    let c = load(&save);
    let battle = c.battles.iter().find(|b| b.id == 1).expect("battle 1 was made");
    assert_eq!(battle.region.as_str(), "beni_suef");
    assert_eq!(battle.status, BattleStatus::Pending);
    assert_eq!(
        (battle.attacker.as_str(), battle.defender.as_str()),
        ("rebels", "british")
    );
    assert_eq!(
        battle.came_from.len(),
        1,
        "the vanguard's approach is kept: {:?}",
        battle.came_from
    );
    assert_eq!(battle.came_from[0].from.as_str(), "minya");
    save
}

fn load(save: &Path) -> Campaign {
    Store::open(save).unwrap().load().unwrap()
}

/// Every stand's strength in the campaign, by id.
fn strengths(c: &Campaign) -> std::collections::BTreeMap<u32, (String, u32)> {
    c.forces
        .iter()
        .flat_map(|f| {
            f.stands
                .iter()
                .map(move |s| (s.id.0, (f.side.to_string(), s.strength)))
        })
        .collect()
}

#[test]
fn the_full_loop_with_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    let before = load(&save);
    let text = ok(dir.path(), &["scenario", "war.umpire", "1", "--out", "pack"]);
    assert!(text.contains("wrote pack/scenario.json"), "{text}");

    // The pack: every file there, and each parses.
    let pack = dir.path().join("pack");
    for name in [
        "scenario.json",
        "briefing.md",
        "table.png",
        "result.toml",
        "pack.pdf",
    ] {
        assert!(pack.join(name).is_file(), "{name} was written");
    }
    let scenario: Scenario =
        serde_json::from_str(&std::fs::read_to_string(pack.join("scenario.json")).unwrap()).unwrap();
    assert!(scenario.problems().is_empty(), "{:?}", scenario.problems());
    assert_eq!(scenario.rules, before.rules, "the campaign's rule set by default");
    let battle = &before.battles[0];
    let in_battle: Vec<u32> = battle
        .forces
        .iter()
        .flat_map(|f| before.force(f).unwrap().stands.iter().map(|s| s.id.0))
        .collect();
    let on_table: Vec<u32> = scenario
        .sides
        .iter()
        .flat_map(|s| {
            s.stands
                .iter()
                .chain(s.reserves.iter().flat_map(|r| r.stands.iter()))
        })
        .map(|t| t.id.0)
        .collect();
    let mut sorted = on_table.clone();
    sorted.sort_unstable();
    let mut expected = in_battle.clone();
    expected.sort_unstable();
    assert_eq!(
        sorted, expected,
        "every stand of the battle is on the table, once"
    );
    let defender = scenario.sides.iter().find(|s| s.id == "british").unwrap();
    assert!(
        scenario.objectives.iter().any(|o| defender
            .deployment
            .contains(f64::from(o.x) + 0.5, f64::from(o.y) + 0.5)),
        "the defender deploys on an objective"
    );
    // table.png: the table's proportions, and every ground on the table in its colour.
    let png = image::load_from_memory(&std::fs::read(pack.join("table.png")).unwrap())
        .unwrap()
        .to_rgb8();
    let picture = umpire::handoff::picture::table_picture(&scenario);
    assert_eq!(png.dimensions(), picture.image.dimensions());
    let t = picture.table;
    let (w_in, d_in) = (
        f64::from(scenario.table.width) * scenario.table.cell_inches,
        f64::from(scenario.table.depth) * scenario.table.cell_inches,
    );
    assert!(
        (f64::from(t.w) / f64::from(t.h) - w_in / d_in).abs() < 0.01,
        "{t:?} for {w_in} x {d_in} in"
    );
    let colours: std::collections::BTreeSet<[u8; 3]> = scenario
        .table
        .cells()
        .iter()
        .map(umpire::handoff::picture::cell_colour)
        .collect();
    for colour in colours {
        let seen = (t.x..t.x + t.w).step_by(2).any(|x| {
            (t.y..t.y + t.h)
                .step_by(2)
                .any(|y| png.get_pixel(x, y).0 == colour)
        });
        assert!(seen, "the colour {colour:?} is on the table picture");
    }
    let briefing = std::fs::read_to_string(pack.join("briefing.md")).unwrap();
    for needle in [
        "## British Field Force (defender)",
        "## Army of the Rebellion (attacker)",
        "Order of battle",
        "marched in from Minya",
        "Victory",
        "Supply: in supply",
    ] {
        assert!(
            briefing.contains(needle),
            "the briefing says {needle:?}:\n{briefing}"
        );
    }
    for f in &battle.forces {
        for s in &before.force(f).unwrap().stands {
            assert!(briefing.contains(&s.name), "the briefing lists {}", s.name);
        }
    }
    let sheet: toml::Table =
        toml::from_str(&std::fs::read_to_string(pack.join("result.toml")).unwrap()).unwrap();
    let ids: Vec<i64> = sheet["stands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_integer().unwrap())
        .collect();
    assert_eq!(ids.len(), in_battle.len(), "the sheet lists every stand");

    // The odds were kept with the battle before it is fought.
    let recorded = load(&save);
    let record = &recorded.battles[0].record;
    assert!(
        record.scenario.is_some() && record.prediction.is_some(),
        "{record:?}"
    );

    // Fight it with the engine; the campaign changes as the outcome says.
    let events: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["resolve", "war.umpire", "1", "--json"])).unwrap();
    let kinds: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"battle_fought"), "{kinds:?}");
    let after = load(&save);
    let b = &after.battles[0];
    assert_eq!(b.status, BattleStatus::Fought);
    let result = b.record.result.as_ref().unwrap();
    let ResultSource::Engine { seed } = result.source else {
        panic!("the engine fought it: {:?}", result.source)
    };
    assert_eq!(seed, scenario.seed);
    // The same battle again, by `umpire battle`, gives the outcome applied.
    let replay: Outcome = {
        let out = ok(dir.path(), &["battle", "pack/scenario.json", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        outcome_from_json(&v)
    };
    assert_eq!(result.winner.as_ref().map(|w| w.to_string()), replay.winner);
    let now = strengths(&after);
    for s in &replay.stands {
        let left = now.get(&s.id.0).map(|(_, st)| *st).unwrap_or(0);
        let expected = if s.fate == umpire::rules::Fate::Destroyed || s.fate == umpire::rules::Fate::Captured
        {
            0
        } else {
            s.strength_after
        };
        if s.fate == umpire::rules::Fate::Captured {
            continue; // changed side: checked in tests/aftermath.rs
        }
        assert_eq!(left, expected, "stand {} ({}) after the battle", s.id, s.name);
    }
    // The loser left Beni Suef.
    let loser = if result.winner.as_ref().unwrap().as_str() == "british" {
        "rebels"
    } else {
        "british"
    };
    assert!(
        after
            .forces
            .iter()
            .filter(|f| f.side.as_str() == loser)
            .all(|f| f.region.as_str() != "beni_suef"),
        "the beaten side fell back or was destroyed"
    );
    assert!(
        kinds.contains(&"retreated") || kinds.contains(&"destroyed_in_retreat"),
        "{kinds:?}"
    );

    // A fought battle cannot be fought again.
    let again = umpire(dir.path(), &["resolve", "war.umpire", "1"]);
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("battle 1 at Beni Suef was already fought"),
        "{}",
        stderr(&again)
    );

    // Calibration counts it.
    let cal: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["calibration", "war.umpire", "--json"])).unwrap();
    assert_eq!(cal["fought"], 1);
    assert_eq!(cal["rows"][0]["rules"], before.rules.as_str());
    assert_eq!(cal["rows"][0]["source"], "engine");
    assert_eq!(cal["rows"][0]["battles"], 1);

    // Undo takes the result back: the battle is pending again, the state as before.
    let text = ok(dir.path(), &["undo", "war.umpire"]);
    assert!(text.contains("Took back the result of battle 1"), "{text}");
    let undone = load(&save);
    assert_eq!(undone.battles[0].status, BattleStatus::Pending);
    assert_eq!(strengths(&undone), strengths(&before));
    assert_eq!(undone.forces, before.forces);
}

fn outcome_from_json(v: &serde_json::Value) -> Outcome {
    use umpire::rules::{Fate, StandResult};
    let fate = |t: &str| match t {
        "stood" => Fate::Stood,
        "destroyed" => Fate::Destroyed,
        "routed" => Fate::Routed,
        "captured" => Fate::Captured,
        _ => Fate::NotEngaged,
    };
    Outcome {
        rules: serde_json::from_value(v["rules"].clone()).unwrap(),
        seed: v["seed"].as_u64().unwrap(),
        turns: 0,
        winner: v["winner"].as_str().map(str::to_owned),
        field_held_by: None,
        verdict: String::new(),
        resolve: Default::default(),
        last_word: None,
        stands: v["stands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| StandResult {
                id: StandId(u32::try_from(s["id"].as_u64().unwrap()).unwrap()),
                name: s["name"].as_str().unwrap().to_owned(),
                kind: serde_json::from_value(s["kind"].clone()).unwrap(),
                side: s["side"].as_str().unwrap().to_owned(),
                strength_before: u32::try_from(s["strength_before"].as_u64().unwrap()).unwrap(),
                strength_after: u32::try_from(s["strength_after"].as_u64().unwrap()).unwrap(),
                fate: fate(s["fate"].as_str().unwrap()),
            })
            .collect(),
        log: vec![],
    }
}

/// The pack's results sheet, changed by `edit`, written as `name`.
fn filled(dir: &Path, name: &str, edit: impl FnOnce(&mut toml::Table)) -> PathBuf {
    let text = std::fs::read_to_string(dir.join("pack/result.toml")).unwrap();
    let mut sheet: toml::Table = toml::from_str(&text).unwrap();
    edit(&mut sheet);
    let path = dir.join(name);
    std::fs::write(&path, toml::to_string(&sheet).unwrap()).unwrap();
    path
}

fn stands_mut(sheet: &mut toml::Table) -> &mut Vec<toml::Value> {
    sheet.get_mut("stands").unwrap().as_array_mut().unwrap()
}

#[test]
fn the_full_loop_with_a_hand_filled_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    ok(dir.path(), &["scenario", "war.umpire", "1", "--out", "pack"]);
    let before = load(&save);
    // The British win; every rebel stand loses half, the first is destroyed;
    // the 4th Egyptian Battalion (32) loses 40 points.
    let sheet = filled(dir.path(), "filled.toml", |s| {
        s.insert("winner".into(), "british".into());
        s.insert("notes".into(), "The Sudanese held the bridge.".into());
        let mut first = true;
        for st in stands_mut(s) {
            let t = st.as_table_mut().unwrap();
            let before = t["before"].as_integer().unwrap();
            if t["side"].as_str() == Some("rebels") {
                let after = if first { 0 } else { before / 2 };
                first = false;
                t.insert("after".into(), after.into());
            } else if t["id"].as_integer() == Some(32) {
                t.insert("after".into(), (before - 40).into());
            }
        }
    });
    let text = ok(
        dir.path(),
        &["result", "war.umpire", "1", sheet.to_str().unwrap()],
    );
    assert!(text.contains("British Field Force wins"), "{text}");
    assert!(text.contains("Army of the Rebellion lost"), "{text}");
    let after = load(&save);
    let now = strengths(&after);
    let was = strengths(&before);
    assert_eq!(now[&32].1, was[&32].1 - 40);
    assert!(!now.contains_key(&110), "the first rebel stand was destroyed");
    assert_eq!(now[&111].1, was[&111].1 / 2);
    let vanguard = after
        .force(&umpire::model::ForceId::new("minya-vanguard"))
        .unwrap();
    assert_eq!(
        vanguard.region.as_str(),
        "minya",
        "the beaten rebels fall back toward their supply"
    );
    let b = &after.battles[0];
    assert_eq!(b.status, BattleStatus::Fought);
    let result = b.record.result.as_ref().unwrap();
    assert_eq!(
        result.source,
        ResultSource::Table {
            sheet: "filled.toml".into()
        }
    );
    assert_eq!(result.verdict, "The Sudanese held the bridge.");
    let log = ok(dir.path(), &["log", "war.umpire"]);
    assert!(log.contains("result from filled.toml"), "{log}");
    assert!(log.contains("falls back to Minya"), "{log}");
    let cal = ok(dir.path(), &["calibration", "war.umpire"]);
    assert!(cal.contains("table"), "{cal}");
}

/// What a save shows, to check nothing changed.
fn snapshot(dir: &Path) -> (String, String) {
    (
        ok(dir, &["status", "war.umpire", "--json"]),
        ok(dir, &["log", "war.umpire"]),
    )
}

#[test]
fn a_bad_results_sheet_is_refused_whole_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    beni_suef(dir.path());
    ok(dir.path(), &["scenario", "war.umpire", "1", "--out", "pack"]);
    type Edit = Box<dyn Fn(&mut toml::Table)>;
    let win: Edit = Box::new(|s| {
        s.insert("winner".into(), "british".into());
    });
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a stand not in the battle",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                let mut extra = stands_mut(s)[0].clone();
                extra.as_table_mut().unwrap().insert("id".into(), 9999.into());
                stands_mut(s).push(extra);
            }),
            "stand 9999 was not in battle 1",
        ),
        (
            "a strength below zero",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                stands_mut(s)[0]
                    .as_table_mut()
                    .unwrap()
                    .insert("after".into(), (-5).into());
            }),
            "a strength cannot be below 0",
        ),
        (
            "a strength above what it had",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                stands_mut(s)[0]
                    .as_table_mut()
                    .unwrap()
                    .insert("after".into(), 1000.into());
            }),
            "more than the",
        ),
        ("no winner", Box::new(|_| {}), "no winner is given"),
        (
            "a winner that was not there",
            Box::new(|s| {
                s.insert("winner".into(), "dervishes".into());
            }),
            "the winner \"dervishes\" did not fight in battle 1",
        ),
        (
            "a sheet from another turn",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                s.insert("turn".into(), 3.into());
            }),
            "this sheet is from game move 3, but battle 1 was made in game move 4",
        ),
        (
            "a sheet from another campaign",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                s.insert("campaign".into(), "The Zulu War".into());
            }),
            "this sheet is for campaign \"The Zulu War\"",
        ),
        (
            "a stand left off",
            Box::new(|s| {
                s.insert("winner".into(), "british".into());
                stands_mut(s).pop();
            }),
            "are not on the sheet",
        ),
    ];
    let before = snapshot(dir.path());
    for (what, edit, message) in &cases {
        let sheet = filled(dir.path(), "bad.toml", edit);
        let out = umpire(
            dir.path(),
            &["result", "war.umpire", "1", sheet.to_str().unwrap()],
        );
        assert!(!out.status.success(), "{what}: refused");
        let err = stderr(&out);
        assert!(err.contains(message), "{what}: says {message:?}:\n{err}");
        assert!(
            err.contains("bad.toml:"),
            "{what}: names the sheet and line:\n{err}"
        );
        assert!(err.contains("nothing was changed"), "{what}:\n{err}");
        assert_eq!(snapshot(dir.path()), before, "{what}: the save is unchanged");
    }
    // A battle already resolved.
    let good = filled(dir.path(), "good.toml", |s| win(s));
    ok(dir.path(), &["result", "war.umpire", "1", good.to_str().unwrap()]);
    let after_first = snapshot(dir.path());
    let out = umpire(dir.path(), &["result", "war.umpire", "1", good.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("was already fought"), "{}", stderr(&out));
    assert_eq!(
        snapshot(dir.path()),
        after_first,
        "a second result changes nothing"
    );
}

#[test]
fn the_pack_can_be_made_for_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    beni_suef(dir.path());
    for rules in [
        "scruby-1961",
        "scruby-basic",
        "scruby-1965",
        "harman-2021",
        "cordery-2009",
    ] {
        let out = format!("pack-{rules}");
        ok(
            dir.path(),
            &["scenario", "war.umpire", "1", "--rules", rules, "--out", &out],
        );
        let s: Scenario = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(&out).join("scenario.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(s.rules.as_str(), rules);
        assert!(s.problems().is_empty(), "{rules}: {:?}", s.problems());
        let grid = matches!(rules, "harman-2021" | "cordery-2009");
        assert_eq!(s.table.grid, grid, "{rules}");
        // The orders of battle in the rule set's own units.
        let briefing = std::fs::read_to_string(dir.path().join(&out).join("briefing.md")).unwrap();
        let unit = match rules {
            "scruby-1961" => "figures on a tray",
            "scruby-basic" => "company stand",
            "scruby-1965" => "points (",
            "harman-2021" => "Combat Value",
            _ => "stand value",
        };
        assert!(briefing.contains(unit), "{rules}: {unit:?} in the briefing");
        // The attacker's resolve as the engine has it, told to the table.
        let bonus = "The attacker adds 2.5 in a hundred to its resolve";
        assert_eq!(
            briefing.contains(bonus),
            matches!(rules, "scruby-1961" | "harman-2021"),
            "{rules}: {bonus:?}"
        );
        // The resolve's throw as the engine throws it: one die under
        // scruby-basic and scruby-1965, two under the rest.
        let throw = if matches!(rules, "scruby-basic" | "scruby-1965") {
            "each general throws 1D6 for his army's resolve: it breaks and quits the field once it has lost more than 5% of the points it brought on, and 10.0 more in a hundred for every pip over 1 (55% at a 6)"
        } else {
            "each general throws 2D6 for his army's resolve: it breaks and quits the field once it has lost more than 5% of the points it brought on, and 5.0 more in a hundred for every pip over 2 (55% at a 12)"
        };
        assert!(briefing.contains(throw), "{rules}: {throw:?} in\n{briefing}");
        // And the engine can fight each.
        ok(dir.path(), &["battle", &format!("{out}/scenario.json")]);
    }
    let bad = umpire(dir.path(), &["scenario", "war.umpire", "7", "--out", "x"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("there is no battle 7 in this campaign; its battles are: 1 at Beni Suef"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn undo_takes_back_the_latest_change_first_orders_or_result() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    let before = load(&save);
    ok(dir.path(), &["resolve", "war.umpire", "1"]);
    let orders = dir.path().join("hold.toml");
    std::fs::write(
        &orders,
        "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"british\"\nturn = 5\n\n[[orders]]\nforce = \"guards-brigade\"\nhold = true\n",
    )
    .unwrap();
    ok(
        dir.path(),
        &["orders", "war.umpire", "british", orders.to_str().unwrap()],
    );
    let first = ok(dir.path(), &["undo", "war.umpire"]);
    assert!(
        first.contains("Withdrew the orders"),
        "the orders came last: {first}"
    );
    let second = ok(dir.path(), &["undo", "war.umpire"]);
    assert!(second.contains("Took back the result of battle 1"), "{second}");
    assert_eq!(load(&save).forces, before.forces);
    let third = ok(dir.path(), &["undo", "war.umpire"]);
    assert!(third.contains("Undid game move 4"), "{third}");
}
