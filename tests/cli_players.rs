//! What players need to write orders, at the command line: ids and arrivals
//! in `umpire status`, `umpire map`, `umpire route`, did-you-mean on regions,
//! `umpire turn` with battles pending, and the messages and briefing they read.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::{Path, PathBuf};
use umpire::model::status::Status;
use umpire::model::{Campaign, RegionId, SideId, StandingOrder};
use umpire::store::Store;
use umpire::strategy::{self, Action, Order, OrderRequest};

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

fn load(save: &Path) -> Campaign {
    Store::open(save).unwrap().load().unwrap()
}

/// The Egyptian Rebellion with the bundled orders given and `turns` game
/// moves resolved (battle 1 at Beni Suef is made in game move 4). The
/// Highland Brigade marches to Beni Suef on foot, as the bundled orders had
/// it before the railway (`tests/transport.rs` sends it by train), so these
/// tests see a force on the road for several game moves.
fn rebellion(dir: &Path, turns: u32) -> PathBuf {
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    ok(dir, &["new", campaign.to_str().unwrap(), "war.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let text = std::fs::read_to_string(repo.join("campaigns/orders").join(file)).unwrap();
        let on_foot = text.replace("by = \"rail\"\n", "");
        assert!(
            side != "british" || on_foot != text,
            "the bundled British orders send a brigade by train"
        );
        let orders = dir.join(file);
        std::fs::write(&orders, on_foot).unwrap();
        ok(dir, &["orders", "war.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..turns {
        ok(dir, &["turn", "war.umpire"]);
    }
    dir.join("war.umpire")
}

#[test]
fn status_shows_every_force_and_stand_id_and_when_a_march_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 2);
    let c = load(&save);
    let arrivals: std::collections::HashMap<String, u32> = strategy::forecast::arrivals(&c)
        .into_iter()
        .map(|(f, t)| (f.to_string(), t))
        .collect();
    let highland = c.force(&umpire::model::ForceId::new("highland-brigade")).unwrap();
    assert!(matches!(highland.order, StandingOrder::March { .. }));
    let due = arrivals["highland-brigade"];
    assert!(due > c.turn, "still marching at game move {}: {due}", c.turn);

    for args in [
        vec!["status", "war.umpire"],
        vec!["status", "war.umpire", "--side", "british"],
    ] {
        let text = ok(dir.path(), &args);
        for force in c.forces_of(&SideId::new("british")) {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{}  ", force.id)))
                .unwrap_or_else(|| panic!("{args:?}: no line starts with {}:\n{text}", force.id));
            assert!(line.contains(&force.name), "{line}");
            for stand in &force.stands {
                let line = format!("stand {:>4}  {}", stand.id.0, stand.name);
                assert!(
                    text.lines().any(|l| l.trim_start().starts_with(&line)),
                    "{args:?}: stand {} ({}) is listed with its id:\n{text}",
                    stand.id.0,
                    stand.name
                );
            }
        }
        let line = text.lines().find(|l| l.contains("highland-brigade")).unwrap();
        assert!(
            line.contains(&format!("marching to Beni Suef, arrives game move {due}")),
            "{args:?}: {line}"
        );
    }
    // An enemy force seen in full goes by its id in the side's view; the
    // rebels have seen the Highland Brigade on the road by game move 3.
    let save3 = {
        ok(dir.path(), &["turn", "war.umpire"]);
        load(&save)
    };
    let rebels = Status::for_side(&save3, &SideId::new("rebels")).unwrap();
    let seen: Vec<_> = rebels.known.iter().filter(|k| !k.blind).collect();
    assert!(!seen.is_empty(), "the rebels see someone in full");
    let text = ok(dir.path(), &["status", "war.umpire", "--side", "rebels"]);
    for k in seen {
        let id = k.id.as_deref().unwrap();
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(id) && l.contains(k.name.as_deref().unwrap())),
            "{id} in:\n{text}"
        );
    }
    // Blinds have no id to show.
    for k in rebels.known.iter().filter(|k| k.blind) {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("blind {}", k.marker)))
            .unwrap();
        assert!(
            line.trim_start().starts_with("blind "),
            "no id before a blind: {line}"
        );
    }

    // JSON: the documented fields stay, and the arrival is added.
    let json: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["status", "--json", "war.umpire"])).unwrap();
    let forces = json["sides"][0]["forces"].as_array().unwrap();
    let highland = forces.iter().find(|f| f["id"] == "highland-brigade").unwrap();
    for field in [
        "id",
        "name",
        "region",
        "region_name",
        "points",
        "stands",
        "order",
        "path",
        "destination_name",
        "supply",
    ] {
        assert!(highland.get(field).is_some(), "{field} kept");
    }
    let due = strategy::forecast::arrivals(&save3)
        .into_iter()
        .find(|(f, _)| f.as_str() == "highland-brigade")
        .map(|(_, t)| t);
    assert_eq!(highland["arrives_turn"].as_u64(), due.map(u64::from));
    let holding = forces.iter().find(|f| f["order"] == "hold").unwrap();
    assert!(holding["arrives_turn"].is_null());
}

#[test]
fn the_map_lists_regions_roads_with_march_hours_and_hqs() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 0);
    let c = load(&save);
    let text = ok(dir.path(), &["map", "war.umpire"]);
    for region in &c.map.regions {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(region.id.as_str())
                    && l.contains(&region.name)
                    && l.contains(region.terrain.as_str())),
            "{} in:\n{text}",
            region.id
        );
    }
    assert!(
        text.contains("Cairo - Giza") || text.contains("Giza - Cairo"),
        "{text}"
    );
    assert!(text.contains("HQs (6):"), "{text}");

    let json: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["map", "war.umpire", "--json"])).unwrap();
    assert_eq!(json["regions"].as_array().unwrap().len(), c.map.regions.len());
    assert_eq!(json["roads"].as_array().unwrap().len(), c.map.roads.len());
    assert_eq!(json["hqs"].as_array().unwrap().len(), c.hqs.len());
    // Each road's hours are the movement chart's, at the campaign's scale.
    for (road, entry) in c.map.roads.iter().zip(json["roads"].as_array().unwrap()) {
        assert_eq!(entry["from"], road.from.as_str());
        assert_eq!(entry["miles"].as_f64().unwrap(), road.miles);
        let terrain = |id: &RegionId| c.map.region(id).unwrap().terrain;
        for (i, (class, arm)) in strategy::map_sheet::ARMS.iter().enumerate() {
            let hours = entry["hours"][i].clone();
            assert_eq!(hours["arm"], *arm);
            if road.kind == umpire::model::RoadKind::River {
                // Only steamers use a river: no hours of marching.
                assert!(hours["there"].is_null(), "{entry}");
                continue;
            }
            let inches =
                strategy::movement::inches(*class, road.kind, terrain(&road.from), terrain(&road.to));
            let expected = road.miles / (inches * c.miles_per_inch) * 8.0;
            assert!(
                (hours["there"].as_f64().unwrap() - expected).abs() < 1e-9,
                "{entry}"
            );
        }
    }
    // Regions held: Cairo by the British (forces there), Asyut by the rebels.
    let held = |json: &serde_json::Value, id: &str| -> Vec<String> {
        json["regions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["held_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(held(&json, "cairo"), ["british"]);
    let minya_umpire = held(&json, "minya");
    assert_eq!(minya_umpire, ["rebels"], "the umpire sees the vanguard at Minya");
}

#[test]
fn a_sides_map_tells_only_what_its_status_tells() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 1);
    let c = load(&save);
    let umpires: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["map", "war.umpire", "--json"])).unwrap();
    let mut hidden = 0;
    for side in ["british", "rebels"] {
        let json: serde_json::Value =
            serde_json::from_str(&ok(dir.path(), &["map", "war.umpire", "--side", side, "--json"])).unwrap();
        assert_eq!(json["view"], side);
        let status = Status::for_side(&c, &SideId::new(side)).unwrap();
        for (region, truth) in json["regions"]
            .as_array()
            .unwrap()
            .iter()
            .zip(umpires["regions"].as_array().unwrap())
        {
            let id = region["id"].as_str().unwrap();
            for holder in region["held_by"].as_array().unwrap() {
                let holder = holder.as_str().unwrap();
                if holder == side {
                    continue;
                }
                // An enemy holds it in this side's sheet only where it knows
                // an enemy force, or the enemy holds an HQ there (public).
                let known = status.known.iter().any(|k| k.region == id && k.side == holder);
                let hq = c
                    .hqs
                    .iter()
                    .any(|h| h.region.as_str() == id && h.held_by.as_str() == holder);
                assert!(known || hq, "{side}'s map says {holder} holds {id}");
            }
            let enemy = |v: &serde_json::Value| {
                v["held_by"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|h| h.as_str() != Some(side))
            };
            if enemy(truth) && !enemy(region) {
                hidden += 1;
            }
        }
    }
    assert!(
        hidden > 0,
        "some enemy-held region is unknown to a side, and its map does not show it"
    );
}

/// The path the orders' check gives a `to` order, as the window's preview does.
fn routed(c: &Campaign, force: &str, to: &str, forced: bool) -> Vec<RegionId> {
    let force = c.force(&umpire::model::ForceId::new(force)).unwrap();
    let request = OrderRequest {
        force: force.id.clone(),
        action: Action::To(RegionId::new(to)),
        forced,
        by: Default::default(),
    };
    let set = strategy::check_requests(c, &force.side, &[request]).unwrap();
    match &set.orders[0] {
        Order::March { path, .. } => path.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn route_shows_the_windows_forecast() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 1);
    let c = load(&save);
    for (force, to, name, forced) in [
        ("guards-brigade", "cairo", "Cairo", false),
        ("guards-brigade", "cairo", "cairo", true),
        ("army-of-asyut", "minya", "Minya", false),
        ("highland-brigade", "beni_suef", "beni suef", false),
        ("alexandria-garrison", "tanta", "TANTA", true),
    ] {
        let mut args = vec!["route", "war.umpire", force, name];
        if forced {
            args.push("--forced");
        }
        let text = ok(dir.path(), &args);
        let f = c.force(&umpire::model::ForceId::new(force)).unwrap();
        let path = routed(&c, force, to, forced);
        let forecast = strategy::march_forecast(&c, f, &path, forced).unwrap();
        // The very words of the window's forecast, from the same function.
        assert!(
            text.contains(&umpire::ui::forecast_text(&forecast, forced)),
            "{text}"
        );
        let arrives = strategy::forecast::arrival_turn(&c, &forecast);
        assert!(text.contains(&format!("arrives game move {arrives}")), "{text}");
        let names: Vec<&str> = path.iter().map(|r| c.map.region_name(r)).collect();
        assert!(text.contains(&names.join(" -> ")), "{names:?} in {text}");
        assert!(text.contains(&format!("to = \"{to}\"")), "{text}");
        assert_eq!(forced, text.contains("forced = true"), "{text}");
    }
    // A misspelt region or a wrong force: refused, with a did-you-mean.
    let out = umpire(
        dir.path(),
        &["route", "war.umpire", "guards-brigade", "Beni Sueff"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no region `Beni Sueff` on the map (did you mean `beni_suef`, Beni Suef?)"),
        "{}",
        stderr(&out)
    );
    let out = umpire(dir.path(), &["route", "war.umpire", "gaurds-brigade", "cairo"]);
    assert!(
        stderr(&out).contains("did you mean `guards-brigade`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn orders_naming_a_region_wrongly_get_a_did_you_mean_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    rebellion(dir.path(), 0);
    for (to, expected) in [
        (
            "Beni Sueff",
            "unknown region `Beni Sueff` (did you mean `beni_suef`, Beni Suef?)",
        ),
        (
            "Beni Suef",
            "unknown region `Beni Suef` (did you mean `beni_suef`, Beni Suef?)",
        ),
        (
            "benisuef",
            "unknown region `benisuef` (did you mean `beni_suef`, Beni Suef?)",
        ),
        (
            "El Wasta",
            "unknown region `El Wasta` (did you mean `wasta`, El Wasta?)",
        ),
    ] {
        for order in [format!("to = \"{to}\""), format!("march = [\"{to}\"]")] {
            std::fs::write(
                dir.path().join("o.toml"),
                format!("[[orders]]\nforce = \"highland-brigade\"\n{order}\n"),
            )
            .unwrap();
            let out = umpire(dir.path(), &["orders", "war.umpire", "british", "o.toml"]);
            assert!(!out.status.success());
            assert!(stderr(&out).contains(expected), "{order}: {}", stderr(&out));
            assert!(stderr(&out).contains("o.toml:3:"), "{}", stderr(&out));
        }
    }
}

#[test]
fn a_campaign_file_naming_a_region_by_its_name_gets_a_did_you_mean() {
    let campaign = CAMPAIGN.replacen(
        "region = \"south\"\n\n  [[forces.stands]]",
        "region = \"South Hill\"\n\n  [[forces.stands]]",
        1,
    );
    assert_ne!(campaign, CAMPAIGN);
    let dir = campaign_dir(MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    assert!(!out.status.success());
    assert!(
        stdout(&out).contains("unknown region `South Hill`: the map has no region with that id (did you mean `south`, South Hills?)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn turn_with_battles_pending_refuses_unless_told() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 4);
    let before = load(&save);
    assert_eq!(before.turn, 5);
    let out = umpire(dir.path(), &["turn", "war.umpire"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("1 battle is still pending, so game move 5 was not resolved: battle 1 at Beni Suef (since game move 4): Army of the Rebellion attacking British Field Force"),
        "{err}"
    );
    assert!(err.contains("umpire resolve war.umpire 1"), "{err}");
    assert!(err.contains("--with-pending"), "{err}");
    assert!(stdout(&out).is_empty());
    assert_eq!(load(&save).turn, 5, "nothing was resolved");

    let out = umpire(dir.path(), &["turn", "war.umpire", "--with-pending"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("battle 1 at Beni Suef"), "{}", stderr(&out));
    assert_eq!(load(&save).turn, 6);

    // Once decided, the game move goes on without being told.
    ok(dir.path(), &["resolve", "war.umpire", "1"]);
    ok(dir.path(), &["turn", "war.umpire"]);
}

#[test]
fn marches_say_where_the_force_began_the_game_move() {
    let dir = tempfile::tempdir().unwrap();
    rebellion(dir.path(), 0);
    let first = ok(dir.path(), &["turn", "war.umpire"]);
    assert!(
        first.contains("Highland Brigade marched 15.0 miles from Cairo and is 10.0 of 50.0 miles along the road from Giza to El Wasta."),
        "{first}"
    );
    let second = ok(dir.path(), &["turn", "war.umpire"]);
    assert!(
        second.contains("Highland Brigade, 10.0 miles out of Giza on the road to El Wasta, marched 15.0 miles and is 25.0 of 50.0 miles along the road from Giza to El Wasta."),
        "{second}"
    );
    assert!(!second.contains("marched 15.0 miles from Giza"), "{second}");
}

#[test]
fn a_march_sentence_uses_one_unit_of_distance() {
    // At a tenth of a mile to the inch, infantry covers 0.6 miles a day on
    // the road: under a mile marched, on a road of eight.
    let campaign = CAMPAIGN.replacen(
        "rules = \"scruby-1965\"",
        "rules = \"scruby-1965\"\nmiles_per_inch = 0.1",
        1,
    );
    let dir = campaign_dir(MAP, &campaign);
    ok(dir.path(), &["new", "campaign.toml", "war.umpire"]);
    std::fs::write(
        dir.path().join("red.toml"),
        "[[orders]]\nforce = \"red-column\"\nmarch = [\"ford\"]\n",
    )
    .unwrap();
    ok(dir.path(), &["orders", "war.umpire", "red", "red.toml"]);
    for _ in 0..2 {
        let text = ok(dir.path(), &["turn", "war.umpire"]);
        let line = text.lines().find(|l| l.contains("Red Column")).unwrap();
        assert!(line.contains("miles"), "{line}");
        assert!(!line.contains("yards"), "one unit: {line}");
    }
}

#[test]
fn the_briefing_is_dated_by_its_game_move_and_cites_the_publication() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 4);
    let c = load(&save);
    let made = c.battles[0].turn;
    assert_eq!(made, 4);
    let date = c.date_of_turn(made).unwrap().to_string();
    assert_eq!(date, "1895-03-04", "game move 4 is the fourth day");
    // The same however many game moves later the pack is made.
    ok(dir.path(), &["turn", "war.umpire", "--with-pending"]);
    ok(dir.path(), &["scenario", "war.umpire", "1", "--out", "pack"]);
    let briefing = std::fs::read_to_string(dir.path().join("pack/briefing.md")).unwrap();
    assert!(
        briefing.contains(&format!("made in game move 4, {date}.")),
        "{}",
        briefing.lines().take(4).collect::<Vec<_>>().join("\n")
    );
    assert!(
        briefing.contains(
            "(Jack Scruby, \u{201c}Unbalanced Equality\u{201d} War Game Rules, Table Top Talk, November 1965)"
        ),
        "{}",
        briefing.lines().take(12).collect::<Vec<_>>().join("\n")
    );
    assert!(!briefing.contains(".txt"), "no seed file names");
}

#[test]
fn a_short_march_is_one_mile_in_one_hour_not_one_miles() {
    let dir = tempfile::tempdir().unwrap();
    rebellion(dir.path(), 4);
    ok(dir.path(), &["turn", "war.umpire", "--with-pending"]);
    // The Highland Brigade is a mile short of Beni Suef.
    let text = ok(
        dir.path(),
        &["route", "war.umpire", "highland-brigade", "Beni Suef"],
    );
    assert!(text.contains("1 game move, 1 mile (1 hour); no losses"), "{text}");
    assert!(text.contains("with 9 of its 9 stands"), "{text}");
}

#[test]
fn the_battle_summary_says_what_its_shares_and_its_points_count() {
    let dir = tempfile::tempdir().unwrap();
    let save = rebellion(dir.path(), 4);
    let before = load(&save);
    let text = ok(dir.path(), &["resolve", "war.umpire", "1"]);
    let after = load(&save);
    // The verdict's shares count stands routed as well as killed or taken;
    // the points lost, what the campaign loses, count only the killed and taken.
    let verdict = text.lines().next().unwrap();
    assert!(verdict.contains("killed, routed or taken"), "{verdict}");
    let summary = text
        .lines()
        .find(|l| l.contains("Battle 1 at Beni Suef"))
        .unwrap();
    assert!(
        summary.ends_with("(stands killed or taken; routed stands go back to their forces)."),
        "{summary}"
    );
    for side in ["british", "rebels"] {
        let side = SideId::new(side);
        let name = &before.side(&side).unwrap().name;
        let points = |c: &Campaign| -> u64 { c.forces_of(&side).map(|f| f.points()).sum() };
        let lost = points(&before) - points(&after);
        let said = format!("{name} lost {lost} point{}", if lost == 1 { "" } else { "s" });
        assert!(summary.contains(&said), "{said} in {summary}");
    }
    // The side that broke: its share is at least its points lost, of those in the battle.
    let (side, share) = verdict
        .split(": ")
        .nth(1)
        .and_then(|v| v.split_once(" broke with "))
        .map(|(side, rest)| {
            (
                side.to_owned(),
                rest.split('%').next().unwrap().parse::<f64>().unwrap(),
            )
        })
        .expect("a side broke in battle 1 with its seed");
    let battle = &before.battles[0];
    let in_battle = |c: &Campaign| -> u64 {
        battle
            .forces
            .iter()
            .filter_map(|f| c.force(f))
            .filter(|f| before.side(&f.side).unwrap().name == side)
            .map(|f| f.points())
            .sum()
    };
    let lost = in_battle(&before) - in_battle(&after);
    assert!(
        share + 0.5 >= lost as f64 * 100.0 / in_battle(&before) as f64,
        "{share}% against {lost} of {} points",
        in_battle(&before)
    );
}
