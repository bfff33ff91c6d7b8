//! `umpire report SAVE SIDE OUT.html`: the side's report as one page a
//! player reads in a browser (`umpire::export::report_page`), on the bundled
//! Egyptian Rebellion played to battle 1: one self-contained HTML document
//! with its map as SVG, every region, every own force and every enemy force
//! the side knows on it, no force it has not seen, the events it heard, and
//! an orders template that `umpire orders` takes; names with markup escaped.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::{stderr, stdout, umpire};
use std::path::Path;
use umpire::export::escape;
use umpire::model::report::{Report, read_report};

/// The Egyptian Rebellion as README plays it to battle 1 at Beni Suef (game
/// move 4, the Highland Brigade marching on foot), with `edit` applied to the
/// campaign file's text first. The folder holds `r.umpire`.
fn rebellion(edit: impl Fn(String) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::repo();
    std::fs::create_dir_all(dir.path().join("campaigns")).unwrap();
    std::fs::create_dir_all(dir.path().join("maps")).unwrap();
    std::fs::copy(
        repo.join("maps/egypt_1895.toml"),
        dir.path().join("maps/egypt_1895.toml"),
    )
    .unwrap();
    let campaign =
        edit(std::fs::read_to_string(repo.join("campaigns/egyptian_rebellion_1895.toml")).unwrap());
    std::fs::write(dir.path().join("campaigns/rebellion.toml"), &campaign).unwrap();
    // The orders files name the campaign by its title, as edited.
    let title = campaign.lines().find_map(|l| l.strip_prefix("title = ")).unwrap();
    let retitle = |text: String| text.replace("\"The Egyptian Rebellion of 1895\"", title);
    let out = umpire(dir.path(), &["new", "campaigns/rebellion.toml", "r.umpire"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let orders = repo.join("campaigns/orders");
    let british = std::fs::read_to_string(orders.join("british_move1.toml"))
        .unwrap()
        .replace("by = \"rail\"\n", "");
    std::fs::write(dir.path().join("british1.toml"), retitle(british)).unwrap();
    let rebels = std::fs::read_to_string(orders.join("rebels_move1.toml")).unwrap();
    std::fs::write(dir.path().join("rebels1.toml"), retitle(rebels)).unwrap();
    for (side, file) in [("british", "british1.toml"), ("rebels", "rebels1.toml")] {
        let out = umpire(dir.path(), &["orders", "r.umpire", side, file]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    for _ in 0..4 {
        let out = umpire(dir.path(), &["turn", "r.umpire"]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    dir
}

/// `side`'s report as a page and as JSON, written by the CLI.
fn page_and_report(dir: &Path, side: &str) -> (String, Report) {
    let out = umpire(dir, &["report", "r.umpire", side, "page.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Wrote ") && stdout(&out).contains("'s report page for game move"),
        "{}",
        stdout(&out)
    );
    let out = umpire(dir, &["report", "r.umpire", side, "report.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = read_report(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    (std::fs::read_to_string(dir.join("page.html")).unwrap(), report)
}

/// The text between the first `open` and the `close` after it.
fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("no `{open}` in:\n{text}"));
    let rest = &text[start..];
    let end = rest
        .find(close)
        .unwrap_or_else(|| panic!("no `{close}` after `{open}`"));
    &rest[..end + close.len()]
}

/// Every enemy force `side` does not know in full, from the umpire's status:
/// its id, name and stands' names.
fn hidden_from(dir: &Path, report: &Report) -> Vec<String> {
    let out = umpire(dir, &["status", "r.umpire", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let status: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let known: Vec<&str> = report
        .known
        .iter()
        .filter_map(|k| k.id.as_ref())
        .map(|id| id.as_str())
        .collect();
    let mut hidden = Vec::new();
    for s in status["sides"].as_array().unwrap() {
        if s["id"] == report.side.as_str() {
            continue;
        }
        for f in s["forces"].as_array().unwrap() {
            if known.contains(&f["id"].as_str().unwrap()) {
                continue;
            }
            hidden.push(f["id"].as_str().unwrap().to_owned());
            hidden.push(f["name"].as_str().unwrap().to_owned());
            for stand in f["stands"].as_array().unwrap() {
                hidden.push(stand["name"].as_str().unwrap().to_owned());
            }
        }
    }
    hidden
}

#[test]
fn the_rebels_page_shows_what_they_know_and_nothing_they_have_not_seen() {
    let dir = rebellion(|c| c);
    let (page, report) = page_and_report(dir.path(), "rebels");

    // One HTML document, self-contained: no script, no link, nothing fetched.
    assert!(page.starts_with("<!DOCTYPE html>\n<html"), "{}", &page[..200]);
    assert!(page.ends_with("</html>\n"));
    for once in ["<html", "</html>", "<body>", "</body>", "<svg", "</svg>"] {
        assert_eq!(page.matches(once).count(), 1, "`{once}` not once");
    }
    for outside in ["<script", "<link", "<img", "src=", "href=", "url(", "@import"] {
        assert!(!page.contains(outside), "`{outside}` is in the page");
    }
    assert!(page.contains(&format!("<h1>{}</h1>", escape("The Egyptian Rebellion of 1895"))));
    assert!(page.contains(&format!(
        "orders for game move <b>{}</b>, {}",
        report.turn,
        report.date.unwrap()
    )));

    // The map: every region, every own force, every enemy force it knows.
    let svg = between(&page, "<svg", "</svg>");
    for r in &report.map.regions {
        let title = format!("<title>{} ({})</title>", escape(&r.name), escape(r.id.as_str()));
        assert!(svg.contains(&title), "region {} not on the map", r.id);
    }
    assert!(!report.forces.is_empty());
    for f in &report.forces {
        let title = format!(
            "<title>{} ({}): {} points",
            escape(&f.name),
            escape(f.id.as_str()),
            f.points()
        );
        assert!(svg.contains(&title), "own force {} not on the map", f.id);
        let forces = between(&page, "<section id=\"forces\">", "</section>");
        assert!(forces.contains(&format!("<code>{}</code>", escape(f.id.as_str()))));
        for s in &f.stands {
            assert!(
                forces.contains(&format!(
                    "<td class=\"n\">{}</td><td>{}</td>",
                    s.id,
                    escape(&s.name)
                )),
                "stand {} of {}",
                s.id,
                f.id
            );
        }
    }
    assert!(report.known.iter().any(|k| k.blind), "the rebels know a blind");
    assert!(
        report.known.iter().any(|k| !k.blind),
        "the rebels know a force in full"
    );
    for k in &report.known {
        if k.blind {
            assert!(
                svg.contains(&format!(">?{}</text>", k.marker)),
                "blind {}",
                k.marker
            );
        } else {
            let id = k.id.as_ref().unwrap();
            assert!(
                svg.contains(&escape(k.name.as_deref().unwrap())),
                "{id} not on the map"
            );
            assert!(
                page.contains(&format!("<code>{}</code>", escape(id.as_str()))),
                "{id}"
            );
        }
    }
    // The HQs, both sides', with who holds them.
    for hq in &report.hqs {
        assert!(
            svg.contains(&escape(hq.name.as_deref().unwrap())),
            "{:?}",
            hq.name
        );
    }
    // The battle the rebels are in, with its forces.
    assert_eq!(report.battles.len(), 1);
    let battles = between(&page, "<section id=\"battles\">", "</section>");
    assert!(battles.contains("Battle 1 at Beni Suef"), "{battles}");
    assert!(svg.contains("Battle 1"));
    for f in report.battles[0].forces.iter().chain(&report.battles[0].reserves) {
        assert!(
            battles.contains(&escape(f.id.as_str())),
            "{} not in the battle",
            f.id
        );
    }

    // Nothing of a force the rebels have not seen.
    let hidden = hidden_from(dir.path(), &report);
    assert!(!hidden.is_empty());
    for h in &hidden {
        assert!(
            !page.contains(h.as_str()) && !page.contains(&escape(h)),
            "`{h}` is in the rebels' page"
        );
    }

    // The events they heard, in sentences, newest game move first.
    let events = between(&page, "<section id=\"events\">", "</section>");
    assert!(!report.events.is_empty());
    let mut at = Vec::new();
    for e in &report.events {
        let place = events
            .find(&format!("<li>{}</li>", escape(&e.sentence)))
            .unwrap_or_else(|| panic!("not heard: {}", e.sentence));
        at.push((e.turn, place));
    }
    for (a, b) in at.iter().zip(at.iter().skip(1)) {
        if a.0 > b.0 {
            assert!(a.1 < b.1, "game move {} is not above game move {}", a.0, b.0);
        }
    }
}

/// The orders template in `page`, as the browser shows it: unescaped.
fn template(page: &str) -> String {
    let pre = between(page, "<pre>", "</pre>");
    pre.trim_start_matches("<pre>")
        .trim_end_matches("</pre>")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The template with each force's `[[orders]]`, `force` and `hold` lines uncommented.
fn uncommented(template: &str) -> String {
    template
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest) if rest == "[[orders]]" || rest.starts_with("force = ") || rest == "hold = true" => {
                rest
            }
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_orders_template_is_taken_by_umpire_orders() {
    let dir = rebellion(|c| c);
    let (page, report) = page_and_report(dir.path(), "rebels");
    let template = template(&page);
    let header = format!(
        "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"rebels\"\nturn = {}\n",
        report.turn
    );
    assert!(template.contains(&header), "{template}");
    for f in &report.forces {
        assert!(
            template.contains(&format!("# [[orders]]\n# force = \"{}\"\n# hold = true", f.id)),
            "{}:\n{template}",
            f.id
        );
    }
    assert!(page.contains(&format!(
        "umpire orders SAVE rebels rebels_move{}.toml",
        report.turn
    )));

    // As it stands: the header alone, no orders.
    std::fs::write(dir.path().join("as_is.toml"), &template).unwrap();
    let out = umpire(dir.path(), &["orders", "r.umpire", "rebels", "as_is.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // Filled in: every force holds.
    let filled = uncommented(&template);
    assert_eq!(
        filled.matches("\n[[orders]]").count(),
        report.forces.len(),
        "{filled}"
    );
    std::fs::write(dir.path().join("filled.toml"), &filled).unwrap();
    let out = umpire(dir.path(), &["orders", "r.umpire", "rebels", "filled.toml"]);
    assert!(out.status.success(), "{}\n{filled}", stderr(&out));
    assert!(
        stdout(&out).contains(&report.forces.len().to_string()),
        "{}",
        stdout(&out)
    );
}

#[test]
fn names_with_markup_are_escaped_and_the_template_still_reads() {
    let dir = rebellion(|c| {
        c.replace(
            "title = \"The Egyptian Rebellion of 1895\"",
            "title = \"Egypt <1895> & \\\"the Mahdi's\\\" war\"",
        )
        .replace(
            "name = \"Army of the Rebellion\"",
            "name = \"Army <of> the Rebellion & Co\"",
        )
        .replace(
            "name = \"Highland Brigade\"",
            "name = \"<b>Highland</b> & Brigade\"",
        )
    });
    let (page, report) = page_and_report(dir.path(), "rebels");
    assert_eq!(report.campaign, "Egypt <1895> & \"the Mahdi's\" war");
    for raw in ["<1895>", "<of>", "<b>Highland", "& Co", "& \"the"] {
        assert!(!page.contains(raw), "`{raw}` is in the page unescaped");
    }
    assert!(page.contains("<h1>Egypt &lt;1895&gt; &amp; &quot;the Mahdi&#39;s&quot; war</h1>"));
    assert!(page.contains("Army &lt;of&gt; the Rebellion &amp; Co"));
    // The Highland Brigade is in battle 1 with the rebels: seen in full, escaped.
    assert!(
        report
            .known
            .iter()
            .any(|k| k.name.as_deref() == Some("<b>Highland</b> & Brigade"))
    );
    assert!(page.contains("&lt;b&gt;Highland&lt;/b&gt; &amp; Brigade"));
    // The template, unescaped by the browser, is a TOML file umpire takes.
    let template = template(&page);
    assert!(template.contains("\nside = \"rebels\"\n"), "{template}");
    assert!(
        template.contains("Egypt <1895> & \"the Mahdi's\" war\"\"\"\n"),
        "{template}"
    );
    std::fs::write(dir.path().join("filled.toml"), uncommented(&template)).unwrap();
    let out = umpire(dir.path(), &["orders", "r.umpire", "rebels", "filled.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn the_extension_chooses_page_or_json() {
    let dir = rebellion(|c| c);
    for (file, page) in [
        ("a.html", true),
        ("b.HTM", true),
        ("c.json", false),
        ("d.txt", false),
    ] {
        let out = umpire(dir.path(), &["report", "r.umpire", "british", file]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert_eq!(text.starts_with("<!DOCTYPE html>"), page, "{file}");
        assert_eq!(read_report(&text).is_ok(), !page, "{file}");
    }
}

/// Odd maps the check lets through, or a save could hold, make a page all
/// the same: every region in one place, a coordinate that is not a number,
/// a force further along its road than the road is long, a force in a region
/// the map does not have, a map of one region.
#[test]
fn odd_maps_still_make_a_page() {
    use common::world::*;
    use umpire::model::{EnRoute, RegionId, RoadKind, Terrain};
    let mut regions = vec![
        region("a", Terrain::Open),
        region("b", Terrain::Hills),
        region("c", Terrain::Forest),
    ];
    for r in &mut regions {
        (r.x, r.y) = (10.0, 10.0);
    }
    regions[2].x = f64::NAN;
    let roads = vec![
        road("a", "b", RoadKind::Railway, 0.0),
        road("b", "c", RoadKind::River, 5.0),
    ];
    let mut far = force(
        "far",
        "red",
        "a",
        stands(umpire::model::StandKind::LineInfantry, 2, 1),
    );
    far.en_route = Some(EnRoute {
        toward: RegionId::new("b"),
        miles: 1e9,
    });
    let mut lost = force(
        "lost",
        "red",
        "a",
        stands(umpire::model::StandKind::LineInfantry, 1, 3),
    );
    lost.region = RegionId::new("nowhere");
    let blue = force(
        "blue-host",
        "blue",
        "c",
        stands(umpire::model::StandKind::LineInfantry, 1, 4),
    );
    let c = campaign(regions, roads, "a", "c", vec![far, lost, blue]);
    for side in ["red", "blue"] {
        let report = Report::of(&c, &umpire::model::SideId::new(side), &[]).unwrap();
        let page = umpire::export::report_page(&report, &[], &[]);
        assert!(page.contains("<svg") && page.ends_with("</html>\n"), "{page}");
        for number in ["NaN", "inf\"", "inf "] {
            assert!(!page.contains(number), "`{number}` in the page:\n{page}");
        }
    }
    let mut one = campaign(
        vec![region("a", Terrain::Open), region("b", Terrain::Open)],
        vec![road("a", "b", RoadKind::Road, 3.0)],
        "a",
        "b",
        vec![],
    );
    one.map.regions.truncate(1);
    one.map.roads.clear();
    let report = Report::of(&one, &umpire::model::SideId::new("red"), &[]).unwrap();
    let page = umpire::export::report_page(&report, &[], &[]);
    assert!(
        page.contains("None left on the map.") && page.contains("<svg"),
        "{page}"
    );
}

/// The percentages of an odds paragraph ("wins N%", "drawn N%").
fn shares(odds: &str) -> Vec<u32> {
    odds.split('%')
        .filter_map(|part| {
            let digits: String = part
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            (part.ends_with(|c: char| c.is_ascii_digit())).then(|| digits.parse().unwrap())
        })
        .collect()
}

#[test]
fn battle_odds_are_on_the_page_only_where_the_umpire_allows_them() {
    // The seeds give no odds: without the house rule, none on either side's page.
    let dir = rebellion(|text| text);
    for side in ["british", "rebels"] {
        let (page, _) = page_and_report(dir.path(), side);
        assert!(!page.contains("class=\"odds\""), "{side}");
    }
    // With `odds_in_reports`, battle 1's odds on both pages, the same for both,
    // each side's share and the draws making 100%.
    let dir = rebellion(|text| text.replacen("[end]", "[house_rules]\nodds_in_reports = true\n\n[end]", 1));
    let mut seen = Vec::new();
    for side in ["british", "rebels"] {
        let (page, _) = page_and_report(dir.path(), side);
        let odds = between(
            between(&page, "<section id=\"battles\">", "</section>"),
            "<p class=\"odds\">",
            "</p>",
        );
        assert!(
            odds.contains("British Field Force wins ") && odds.contains("Army of the Rebellion wins "),
            "{odds}"
        );
        assert!(
            odds.contains("1000 of the engine's battles under scruby-1965"),
            "{odds}"
        );
        let total: u32 = shares(odds).iter().sum();
        assert!((99..=101).contains(&total), "{odds}: {total}%");
        seen.push(odds.to_owned());
    }
    assert_eq!(seen[0], seen[1], "both sides are told the same odds");
    // `umpire status` says the campaign plays with the setting.
    let out = umpire(dir.path(), &["status", "r.umpire"]);
    assert!(
        stdout(&out).contains("each side's report page gives the engine's odds of its pending battles"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_page_draws_the_sides_own_supply_roads() {
    let dir = rebellion(|text| text);
    let (page, _) = page_and_report(dir.path(), "british");
    let supply = between(&page, "<g class=\"supply\"", "</g>");
    // The British red (the side's colour in the bundled campaign) on at least
    // one road from a force to its HQ; nothing cut at battle 1.
    assert!(supply.matches("<line ").count() >= 3, "{supply}");
    assert!(!supply.contains("supply is cut"), "{supply}");
}

/// The orders page `umpire serve` sends a side (`umpire::export::orders_page`).
fn orders_page_of(report: &Report, given: Option<&[umpire::strategy::Order]>) -> String {
    let form = umpire::export::OrdersForm {
        orders_url: "/api/campaigns/r/orders",
        report_url: "/play/r/report",
        token: "secret-token",
        revision: 7,
        given,
        deadline: Some("Sunday 20:00"),
    };
    umpire::export::orders_page(report, &form)
}

#[test]
fn the_orders_page_has_a_form_for_each_own_force_and_nothing_hidden() {
    use umpire::strategy::Order;
    let dir = rebellion(|c| c);
    let (_, report) = page_and_report(dir.path(), "british");
    let first = &report.forces[0];
    let second = &report.forces[1];
    let given = [
        Order::Hold {
            force: first.id.clone(),
        },
        Order::March {
            force: second.id.clone(),
            path: vec![report.map.regions[0].id.clone()],
            forced: true,
            by: Default::default(),
        },
    ];
    let page = orders_page_of(&report, Some(&given));
    assert!(page.starts_with("<!DOCTYPE html>\n<html"), "{}", &page[..200]);
    assert_eq!(page.matches("<tr data-force=").count(), report.forces.len());
    for f in &report.forces {
        assert!(
            page.contains(&format!("<tr data-force=\"{}\">", escape(f.id.as_str()))),
            "{}",
            f.id
        );
    }
    // The orders given this game move are where the form starts.
    let row = |id: &str| between(&page, &format!("<tr data-force=\"{id}\">"), "</tr>").to_owned();
    assert!(row(first.id.as_str()).contains("<option value=\"hold\" selected>"));
    let marching = row(second.id.as_str());
    assert!(
        marching.contains("<option value=\"march\" selected>"),
        "{marching}"
    );
    assert!(marching.contains(&format!(
        "<option value=\"{}\" selected>",
        escape(report.map.regions[0].id.as_str())
    )));
    assert!(marching.contains("name=\"forced\" checked"));
    let others = report.forces.iter().skip(2);
    for f in others {
        assert!(
            row(f.id.as_str()).contains("<option value=\"keep\" selected>"),
            "{}",
            f.id
        );
    }
    assert!(page.contains("Orders given for this game move (2)"));
    assert!(page.contains("Deadline: Sunday 20:00."));
    // Only what the British know: no enemy force they have not seen.
    for hidden in hidden_from(dir.path(), &report) {
        assert!(
            !page.contains(&hidden),
            "`{hidden}` is on the British orders page"
        );
    }
    // The script's data: the revision the report was computed from, where to send.
    let data = between(
        &page,
        "<script type=\"application/json\" id=\"orders-data\">",
        "</script>",
    );
    let data: serde_json::Value = serde_json::from_str(
        data.trim_start_matches("<script type=\"application/json\" id=\"orders-data\">")
            .trim_end_matches("</script>"),
    )
    .unwrap();
    assert_eq!(data["revision"], 7);
    assert_eq!(data["side"], "british");
    assert_eq!(data["orders_url"], "/api/campaigns/r/orders");
    assert_eq!(data["turn"], report.turn);
    // Every region on the map can be clicked.
    for r in &report.map.regions {
        assert!(
            page.contains(&format!("data-region=\"{}\"", escape(r.id.as_str()))),
            "{}",
            r.id
        );
    }
    if let Ok(out) = std::env::var("UMPIRE_ORDERS_PAGE_OUT") {
        std::fs::write(out, &page).unwrap();
    }
}

#[test]
fn the_orders_page_escapes_names_even_in_its_script_data() {
    let dir = rebellion(|c| {
        c.replace(
            "title = \"The Egyptian Rebellion of 1895\"",
            "title = \"Egypt </script><script>alert(1)</script>\"",
        )
        .replace(
            "name = \"Highland Brigade\"",
            "name = \"<b>Highland</b> & Brigade\"",
        )
    });
    let (_, report) = page_and_report(dir.path(), "british");
    let page = orders_page_of(&report, None);
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the page's own two scripts close"
    );
    assert!(!page.contains("<b>Highland"));
    assert!(page.contains("&lt;b&gt;Highland&lt;/b&gt; &amp; Brigade"));
    assert!(page.contains("No orders given yet for this game move"));
}
