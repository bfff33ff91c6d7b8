//! `umpire chronicle SAVE OUT.html [--side SIDE]`: the campaign's
//! after-action report as one page (`umpire::export::chronicle_page`), on the
//! bundled Egyptian Rebellion played through battle 1 to game move 6: a map
//! per game move with its marches, every battle with its result, the charts,
//! every force's service record; a side's map at each game move holding
//! every force the side knew then and no other; everything once the
//! campaign has ended.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::{stderr, stdout, umpire};
use std::collections::BTreeSet;
use std::path::Path;

const LAST: u32 = 6;

/// The Egyptian Rebellion with the bundled orders, played to game move
/// `LAST`: battle 1 at Beni Suef met in game move 4 and fought by the engine
/// (seed 2) before game move 5. `seen(game move)` is called with each game
/// move once it is over (its battles fought), before the next is played.
fn rebellion(mut seen: impl FnMut(&Path, u32)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let repo = common::repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    let run = |args: &[&str]| {
        let out = umpire(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    run(&["new", campaign.to_str().unwrap(), "r.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        run(&["orders", "r.umpire", side, orders.to_str().unwrap()]);
    }
    seen(d, 0);
    for n in 1..=LAST {
        run(&["turn", "r.umpire"]);
        if n == 4 {
            // Its pack written first, into a folder whose name needs escaping.
            run(&["scenario", "r.umpire", "1", "--out", "pack 1"]);
            let fought = run(&["resolve", "r.umpire", "1", "--seed", "2"]);
            assert!(fought.contains("Battle 1 at Beni Suef"), "{fought}");
        }
        seen(d, n);
    }
    dir
}

/// The part of `page` from `<article id="ID">` to its end.
fn article<'p>(page: &'p str, id: &str) -> &'p str {
    let start = page
        .find(&format!("<article id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no article {id}"));
    let rest = &page[start..];
    &rest[..rest.find("</article>").unwrap()]
}

/// The `data-force` of every counter on the (first) map in `html`.
fn counters(html: &str) -> BTreeSet<String> {
    let map = &html[html.find("<svg class=\"map\"").unwrap()..];
    let map = &map[..map.find("</svg>").unwrap()];
    map.split("<g data-force=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_owned())
        .collect()
}

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = umpire(dir, args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn the_chronicle_has_a_map_per_game_move_every_battle_the_charts_and_every_force() {
    let mut forces = BTreeSet::new();
    let dir = rebellion(|d, _| {
        let status = json(d, &["status", "r.umpire", "--json"]);
        for s in status["sides"].as_array().unwrap() {
            for f in s["forces"].as_array().unwrap() {
                forces.insert(f["id"].as_str().unwrap().to_owned());
            }
        }
    });
    let d = dir.path();
    let out = umpire(d, &["chronicle", "r.umpire", "chronicle.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stdout(&out);
    assert!(
        said.starts_with(
            "Wrote the chronicle of The Egyptian Rebellion of 1895 to chronicle.html: game moves 1 to 6, "
        ),
        "{said}"
    );
    let page = std::fs::read_to_string(d.join("chronicle.html")).unwrap();
    // One self-contained page: nothing fetched, no scripts.
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    for never in ["<script", "src=", "href=\"http", "@import", "url(http"] {
        assert!(!page.contains(never), "`{never}` in the page");
    }
    // Battle 1 links its pack's files where the umpire wrote them.
    let folder = std::path::absolute(d.join("pack 1")).unwrap();
    let url = format!(
        "file://{}/pack.pdf",
        folder.display().to_string().replace(' ', "%20")
    );
    assert!(
        article(&page, "battle-1").contains(&format!("<a href=\"{url}\">pack.pdf</a>")),
        "{}",
        article(&page, "battle-1")
    );
    // The start and each game move: a map of its own.
    assert_eq!(page.matches("<svg class=\"map\"").count(), 1 + LAST as usize);
    let start = article(&page, "start");
    assert_eq!(start.matches("<svg class=\"map\"").count(), 1);
    assert_eq!(
        counters(start),
        forces.iter().filter(|f| !f.contains("indian")).cloned().collect()
    );
    for n in 1..=LAST {
        let move_n = article(&page, &format!("move-{n}"));
        assert_eq!(move_n.matches("<svg class=\"map\"").count(), 1, "game move {n}");
        assert!(
            move_n.contains(&format!("<h2>Game move {n}, 1895-03-0{n}</h2>")),
            "game move {n}"
        );
    }
    // Game move 1's marches as arrows: the Highland Brigade by train (dashed)
    // through Giza and El Wasta, the Cavalry Brigade, the two rebel columns.
    let move_1 = article(&page, "move-1");
    assert_eq!(move_1.matches("<g class=\"march\">").count(), 4, "{move_1}");
    assert_eq!(move_1.matches("stroke-dasharray=\"9 5\"").count(), 1);
    assert!(
        move_1.contains("<title>Highland Brigade went 78.0 miles by train from Cairo to Beni Suef.</title>")
    );
    // Its losses by cause: the Hussars fallen out on the forced march.
    assert!(move_1.contains("<h3>Losses by cause</h3>"), "{move_1}");
    assert!(move_1.contains("<td class=\"n\">1 stand ("), "{move_1}");
    // Battle 1: met and fought in game move 4, ringed on its map, linked to its entry.
    let move_4 = article(&page, "move-4");
    assert!(
        move_4.contains("Battle at Beni Suef (battle 1, pending)"),
        "{move_4}"
    );
    assert!(move_4.contains("Battle 1 at Beni Suef (fought by the scruby-1965 engine, seed 2)"));
    assert!(
        move_4.contains("<a href=\"#battle-1\"><text"),
        "the ring's label links"
    );
    assert!(move_4.contains("<td>battle</td>") || move_4.contains("<th>battle</th>"));
    let battle = article(&page, "battle-1");
    assert!(battle.contains("<h3>Battle 1 at Beni Suef</h3>"), "{battle}");
    assert!(battle.contains(
        "Met in <a href=\"#move-4\">game move 4</a>: Army of the Rebellion attacking British Field Force."
    ));
    assert!(battle.contains(" won</b>; British Field Force lost "), "{battle}");
    assert!(
        battle.contains("Fought by the scruby-1965 engine, seed 2"),
        "{battle}"
    );
    // The charts: strength, losses and HQs, axes labelled, each side in the key.
    let charts =
        &page[page.find("<section id=\"charts\">").unwrap()..page.find("<section id=\"moves\">").unwrap()];
    assert_eq!(charts.matches("<svg class=\"chart\"").count(), 3);
    for label in [
        "game move (0: the start)",
        "roster points",
        "stands lost",
        "HQs held",
    ] {
        assert!(charts.contains(&format!(">{label}</text>")), "{label}");
    }
    for name in [
        "British Field Force",
        "Army of the Rebellion",
        "British Field Force: forced march",
        "Army of the Rebellion: battle",
    ] {
        assert!(
            charts.contains(&format!(">{name}</text>")),
            "{name} in a chart's key"
        );
    }
    // Every force that served, with its record.
    for id in &forces {
        assert!(
            page.contains(&format!("<tr id=\"force-{id}\">")),
            "{id}'s service record"
        );
    }
    let highland = &page[page.find("<tr id=\"force-highland-brigade\">").unwrap()..];
    let highland = &highland[..highland.find("</tr>").unwrap()];
    assert!(
        highland.contains("Cairo <a") && highland.contains("Beni Suef <a"),
        "{highland}"
    );
    assert!(highland.contains("<a href=\"#battle-1\">1</a>"), "{highland}");
}

#[test]
fn a_sides_map_holds_every_force_it_knew_at_each_game_move_and_no_other() {
    // What the British knew as each game move ended: their own forces by id,
    // the enemy seen in full by id, blinds by number.
    let mut knew: Vec<BTreeSet<String>> = Vec::new();
    let mut unknown: Vec<Vec<String>> = Vec::new();
    let dir = rebellion(|d, _| {
        let mine = json(d, &["status", "r.umpire", "--side", "british", "--json"]);
        let all = json(d, &["status", "r.umpire", "--json"]);
        let mut ids = BTreeSet::new();
        for s in mine["sides"].as_array().unwrap() {
            for f in s["forces"].as_array().unwrap() {
                ids.insert(f["id"].as_str().unwrap().to_owned());
            }
        }
        for k in mine["known"].as_array().unwrap() {
            ids.insert(match k["id"].as_str() {
                Some(id) if k["blind"] == false => id.to_owned(),
                _ => format!("blind {}", k["marker"]),
            });
        }
        let hidden = all["sides"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["forces"].as_array().unwrap().clone())
            .filter(|f| !ids.contains(f["id"].as_str().unwrap()))
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect();
        knew.push(ids);
        unknown.push(hidden);
    });
    let d = dir.path();
    let out = umpire(d, &["chronicle", "r.umpire", "british.html", "--side", "british"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(" as British Field Force knew it to british.html"));
    let page = std::fs::read_to_string(d.join("british.html")).unwrap();
    for (n, ids) in knew.iter().enumerate() {
        let id = if n == 0 {
            "start".to_owned()
        } else {
            format!("move-{n}")
        };
        let part = article(&page, &id);
        assert_eq!(&counters(part), ids, "game move {n}");
        // The enemy it did not know then is named nowhere in that game move.
        for name in &unknown[n] {
            assert!(
                !part.contains(name.as_str()),
                "{name} in the British game move {n}:\n{part}"
            );
        }
    }
    // The umpire's folders are not named to a side.
    assert!(!page.contains("pack%201") && !page.contains("pack 1"));
    // The British knew the rebel vanguard (seen from game move 3, fought in battle 1).
    assert!(knew[3].contains("minya-vanguard") && knew[4].contains("minya-vanguard"));
    // Service records: the British forces only; the rebels' strength only as seen.
    assert!(page.contains("<tr id=\"force-highland-brigade\">"));
    assert!(!page.contains("<tr id=\"force-minya-vanguard\">"));
    assert!(page.contains(">Army of the Rebellion, as seen</text>"));
    // The battle it fought is told; the engine's odds are the umpire's.
    assert!(page.contains("<article id=\"battle-1\">"));
    assert!(!page.contains("The odds before it"));
}

#[test]
fn once_the_campaign_has_ended_a_sides_chronicle_tells_everything() {
    let dir = rebellion(|_, _| {});
    let d = dir.path();
    let hidden = "Beja Hillmen of Sinkat";
    let chronicle = |out: &str| {
        let run = umpire(d, &["chronicle", "r.umpire", out, "--side", "british"]);
        assert!(run.status.success(), "{}", stderr(&run));
        (stdout(&run), std::fs::read_to_string(d.join(out)).unwrap())
    };
    let (_, before) = chronicle("before.html");
    assert!(!before.contains(hidden));
    let out = umpire(
        d,
        &[
            "edit",
            "r.umpire",
            "end-campaign",
            "--reason",
            "The Khedive sues for peace.",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (said, after) = chronicle("after.html");
    assert!(
        said.contains("(the campaign has ended: everything is told)"),
        "{said}"
    );
    assert!(after.contains(hidden) && after.contains("<tr id=\"force-hillmen-of-sinkat\">"));
    assert!(after.contains("The campaign has ended: everything is told, to every side."));
    // The umpire's ruling is told in its game move.
    assert!(article(&after, "move-6").contains("<h3>The umpire's rulings and edits</h3>"));
    // Battle 1 is told, but not where the umpire keeps its pack.
    assert!(article(&after, "battle-1").contains("the battle pack was made for"));
    assert!(!after.contains("pack%201") && !after.contains("pack 1") && !after.contains("file:"));
}

#[test]
fn the_chronicle_is_refused_for_an_unknown_side_or_the_save_itself() {
    let dir = rebellion(|_, _| {});
    let d = dir.path();
    let out = umpire(d, &["chronicle", "r.umpire", "c.html", "--side", "french"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("unknown side `french`: this campaign's sides are `british`, `rebels`"),
        "{}",
        stderr(&out)
    );
    let out = umpire(d, &["chronicle", "r.umpire", "r.umpire"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("r.umpire is the save itself"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("c.html").exists());
}

/// A pack written for a pending battle is linked at once, though writing it
/// made no checkpoint of its own.
#[test]
fn a_pending_battles_pack_is_linked_as_soon_as_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let repo = common::repo();
    let run = |args: &[&str]| {
        let out = umpire(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    run(&["new", campaign.to_str().unwrap(), "r.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        run(&["orders", "r.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..4 {
        run(&["turn", "r.umpire"]);
    }
    run(&["scenario", "r.umpire", "1", "--out", "pack"]);
    run(&["chronicle", "r.umpire", "c.html"]);
    let page = std::fs::read_to_string(d.join("c.html")).unwrap();
    let battle = article(&page, "battle-1");
    assert!(
        battle.contains("Pending") && battle.contains(">pack.pdf</a>"),
        "{battle}"
    );
}
