//! The bundled campaigns: they check clean, and a new save's status shows the
//! seeds' armies.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use serde_json::Value;

/// Makes a save from a bundled campaign and returns `status --json`.
fn status_of(campaign: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("campaign.umpire");
    let campaign = repo().join(campaign);
    let new = umpire(
        dir.path(),
        &["new", campaign.to_str().unwrap(), save.to_str().unwrap()],
    );
    assert!(new.status.success(), "{}", stderr(&new));
    let out = umpire(dir.path(), &["status", "--json", save.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn side<'a>(status: &'a Value, id: &str) -> &'a Value {
    status["sides"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
}

fn count_kind(side: &Value, kind: &str) -> usize {
    side["forces"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["stands"].as_array().unwrap())
        .filter(|s| s["kind"] == kind)
        .count()
}

#[test]
fn the_bundled_files_check_clean() {
    let out = umpire(
        &repo(),
        &[
            "check",
            "campaigns/egyptian_rebellion_1895.toml",
            "campaigns/scruby_jumbo_1961.toml",
            "maps/egypt_1895.toml",
            "maps/scruby_jumbo.toml",
        ],
    );
    let report = stdout(&out);
    assert!(out.status.success(), "{report}");
    assert_eq!(report.matches(": 0 errors, 0 warnings;").count(), 4, "{report}");
}

#[test]
fn the_egyptian_rebellion_fields_2900_british_and_4400_native_points() {
    let status = status_of("campaigns/egyptian_rebellion_1895.toml");
    assert_eq!(status["title"], "The Egyptian Rebellion of 1895");
    assert_eq!(status["turn"], 1);
    assert_eq!(status["rules"], "scruby-1965");
    // scruby-1965-unbalanced-equality.txt: "a British force valued at 2900
    // points and a Native force ... valued at 4400 points".
    let british = side(&status, "british");
    let natives = side(&status, "rebels");
    assert_eq!(
        (british["army"].as_str(), british["points"].as_u64()),
        (Some("regular"), Some(2900))
    );
    assert_eq!(
        (natives["army"].as_str(), natives["points"].as_u64()),
        (Some("native"), Some(4400))
    );
    for s in [british, natives] {
        let wings: Vec<&str> = s["hqs_held"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["wing"].as_str().unwrap())
            .collect();
        assert_eq!(wings, ["left", "centre", "right"]);
    }
    // "with a sprinkling of native regular infantry as the hard core".
    assert!(count_kind(natives, "native_regulars") >= 4);
    assert_eq!(count_kind(british, "native_spearmen"), 0);
}

#[test]
fn the_egyptian_map_has_the_regions_of_the_delta_canal_valley_and_coast() {
    let dir = tempfile::tempdir().unwrap();
    let out = umpire(
        dir.path(),
        &["check", repo().join("maps/egypt_1895.toml").to_str().unwrap()],
    );
    let report = stdout(&out);
    let regions: usize = report
        .split(": ")
        .last()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(regions >= 30, "{report}");
    let text = std::fs::read_to_string(repo().join("maps/egypt_1895.toml")).unwrap();
    for town in [
        "Alexandria",
        "Cairo",
        "Port Said",
        "Ismailia",
        "Suez",
        "Tel el-Kebir",
        "Asyut",
        "Aswan",
        "Suakin",
    ] {
        assert!(
            text.contains(&format!("name = \"{town}\"")),
            "{town} is on the map"
        );
    }
    assert!(text.contains("kind = \"railway\""));
    assert!(text.contains("river = \"bridge\""));
}

#[test]
fn the_jumbo_game_fields_an_army_corps_a_side() {
    let status = status_of("campaigns/scruby_jumbo_1961.toml");
    assert_eq!(status["rules"], "scruby-1961");
    for id in ["red", "blue"] {
        let s = side(&status, id);
        // scruby-1961-strategy-tactical-wargame.txt, THE TROOPS: 6 divisions of
        // 4 line, 1 light and 1 grenadier regiment and 1 cannon; 2 heavy and
        // 2 light cavalry regiments of two squadrons each.
        assert_eq!(count_kind(s, "line_infantry"), 24);
        assert_eq!(count_kind(s, "light_infantry"), 6);
        assert_eq!(count_kind(s, "grenadier_infantry"), 6);
        assert_eq!(count_kind(s, "foot_artillery"), 6);
        assert_eq!(count_kind(s, "heavy_cavalry"), 4);
        assert_eq!(count_kind(s, "light_cavalry"), 4);
        assert_eq!(s["points"], 4280);
        assert_eq!(s["hqs_held"].as_array().unwrap().len(), 3);
    }
    let map = std::fs::read_to_string(repo().join("maps/scruby_jumbo.toml")).unwrap();
    for place in [
        "Bridge X", "Bridge Y", "Bridge Z", "Woods A", "Hill 3", "Hill 5", "Hill 6",
    ] {
        assert!(
            map.contains(&format!("name = \"{place}")),
            "{place} is on the Figure 14 map"
        );
    }
    assert_eq!(
        map.matches("river = \"bridge\"").count(),
        3,
        "the river is crossed at X, Y and Z only"
    );
}

#[test]
fn status_text_names_forces_regions_and_points() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    assert!(
        umpire(dir.path(), &["new", "campaign.toml", "t.umpire"])
            .status
            .success()
    );
    let out = umpire(dir.path(), &["status", "t.umpire"]);
    assert_eq!(
        stdout(&out),
        "Test campaign
Game move 1, 1895-03-01. Map: Test valley. Battles fought under scruby-1965.

Red Army (regular army): 160 of 200 points in 2 stands; holds 3 HQs
  HQ left    Red Army left HQ at North Town
  HQ centre  Red Army centre HQ at North Town
  HQ right   Red Army right HQ at The Ford
  red-column  Red Column  North Town   2 stands   160/200 pts  supplied
      stand    1  1st Company  line infantry   100/100 pts
      stand    2  2nd Company  line infantry    60/100 pts

Blue Army (native army): 200 of 200 points in 2 stands; holds 3 HQs
  HQ left    Blue Army left HQ at South Hills
  HQ centre  Blue Army centre HQ at East Farm
  HQ right   Blue Army right HQ at East Farm
  blue-host  Blue Host  South Hills   2 stands   200/200 pts  supplied
      stand   10  Spearmen of the Hills  native spearmen   150/150 pts
      stand   11  Riflemen of the Hills  native riflemen    50/50 pts
"
    );
}

#[test]
fn the_example_orders_are_taken_and_a_game_move_resolves() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("rebellion.umpire");
    let save = save.to_str().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    assert!(
        umpire(dir.path(), &["new", campaign.to_str().unwrap(), save])
            .status
            .success()
    );
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo().join("campaigns/orders").join(file);
        let out = umpire(dir.path(), &["orders", save, side, orders.to_str().unwrap()]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
    }
    let out = umpire(dir.path(), &["turn", save]);
    let text = stdout(&out);
    assert!(
        text.contains("Cavalry Brigade marched 50.0 miles from Giza to El Wasta by forced march."),
        "{text}"
    );
    assert!(
        text.contains("falls out of Cavalry Brigade on the forced march"),
        "{text}"
    );
    let status = status_of_save(dir.path(), save);
    assert_eq!(status["turn"], 2);
}

fn status_of_save(dir: &std::path::Path, save: &str) -> Value {
    serde_json::from_slice(&umpire(dir, &["status", "--json", save]).stdout).unwrap()
}
