//! A side's report as one HTML page: what `umpire report SAVE SIDE OUT.html`
//! writes for a player to open in any browser or phone.
//!
//! Everything on it comes from the side's [`Report`] (and the arrival game
//! moves of its own forces), so it shows no more than the JSON report: the
//! public map, the side's own forces, the enemy forces as the side knows them
//! (a blind as a `?N` marker), the battles it is in, the events it heard.
//! One file, no network, no scripts: inline CSS, the map as inline SVG drawn
//! from the regions' miles as the window draws it (`ui::map_view`), with the
//! window's colours (`ui::theme`), and every text escaped ([`escape`]).

use super::escape;
use super::map_svg::{
    self, BATTLE, BLIND_FILL, COUNTER_EDGE, CUT_OFF, Counter, LABEL_STRONG, Place, Ring, Scene, SupplyRoad,
};
use crate::model::Prediction;
use crate::model::report::{KnownForce, Report};
use crate::model::{Conveyance, EnRoute, Force, ForceId, RegionId, SideId, StandingOrder};
use crate::strategy::forecast::known_supply_lines;
use std::fmt::Write as _;

/// `report` as one self-contained HTML page. `arrivals` gives the game move
/// each of the side's marching forces arrives (`strategy::forecast::arrivals`);
/// entries for forces not the side's own are ignored. `odds` gives the
/// engine's odds of its battles, by battle id, where the umpire allows them
/// (the house rule `odds_in_reports`); empty otherwise.
pub fn report_page(report: &Report, arrivals: &[(ForceId, u32)], odds: &[(u32, Prediction)]) -> String {
    let mut page = String::with_capacity(64 * 1024);
    let side_name = escape(&report.side_name);
    let campaign = escape(&report.campaign);
    let date = report
        .date
        .map_or_else(|| "past the calendar's end".to_owned(), |d| d.to_string());
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{campaign}: {side_name}, game move {turn}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{campaign}</h1>\n<p class=\"sub\">Report for <b>{side_name}</b>: \
         orders for game move <b>{turn}</b>, {date} ({days} day{s} a game move)</p>\n",
        turn = report.turn,
        days = report.days_per_turn,
        s = if report.days_per_turn == 1 { "" } else { "s" },
    );
    if let Some(ended) = &report.end.ended {
        let _ = writeln!(
            page,
            "<p class=\"ended\">The campaign ended at game move {}: no more orders are taken.</p>",
            ended.turn
        );
    }
    page.push_str("</header>\n");

    page.push_str("<section id=\"map\">\n<h2>What we know</h2>\n");
    // On a narrow screen the map keeps a readable size and scrolls sideways.
    page.push_str("<div class=\"mapbox\">\n");
    page.push_str(&map_svg::map_svg(&scene(report)));
    page.push_str("</div>\n");
    page.push_str(&map_key(report));
    page.push_str("</section>\n");

    page.push_str(&forces_section(report, arrivals));
    page.push_str(&events_section(report));
    page.push_str(&battles_section(report, odds));
    // After the campaign's end no orders are taken: no template to fill in.
    if report.end.ended.is_none() {
        page.push_str(&orders_section(report));
    }
    page.push_str(
        "<footer>Written by umpire from the side's report: it holds only what this side knows.</footer>\n",
    );
    page.push_str("</body>\n</html>\n");
    page
}

pub(super) const STYLE: &str = "
body{font-family:Georgia,'Times New Roman',serif;background:#f6f0e0;color:#1e1914;margin:0 auto;max-width:1100px;padding:0 12px 24px;line-height:1.4}
h1{margin:16px 0 4px;font-size:1.7em}h2{border-bottom:2px solid #b8a47c;margin-top:28px;font-size:1.3em}
h3{margin:16px 0 4px;font-size:1.05em}.sub{margin:0;font-size:1.05em}.ended{color:#b4003c;font-weight:bold}
.mapbox{overflow-x:auto}svg.map{width:100%;min-width:640px;height:auto;border:1px solid #8a7850;background:#e8d6a8;display:block}
svg text{font-family:Helvetica,Arial,sans-serif}
.lbl{paint-order:stroke;stroke:#f4ead0;stroke-width:3px;stroke-linejoin:round}
table{border-collapse:collapse;margin:4px 0 10px;font-size:.95em}
td,th{border:1px solid #c8b88f;padding:2px 7px;text-align:left;vertical-align:top}th{background:#ece0c0}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.chip{display:inline-block;width:.9em;height:.9em;border:1px solid #141414;vertical-align:-.1em;margin-right:4px}
.cut{color:#dc1e1e;font-weight:bold}.pale{color:#6b6355}
ol.events{padding-left:1.4em}ol.events li{margin:2px 0}
pre{background:#fffdf6;border:1px solid #b8a47c;padding:10px;overflow-x:auto;font-size:.9em}
code{background:#fffdf6}
footer{margin-top:28px;font-size:.85em;color:#6b6355}
.key{font-size:.9em}
";

/// A side's colour as CSS; grey for a side the report does not list.
fn colour_of(report: &Report, side: &SideId) -> String {
    map_svg::colour_css(&report.sides, side)
}

fn side_label(report: &Report, side: &SideId) -> String {
    map_svg::side_name(&report.sides, side)
}

fn region_label(report: &Report, region: &RegionId) -> String {
    escape(report.map.region_name(region))
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Where a force is or was: "Minya" or "on the road from Minya to Beni Suef, 5.0 miles out".
fn where_text(report: &Report, region: &RegionId, en_route: Option<&EnRoute>) -> String {
    match en_route {
        None => region_label(report, region),
        Some(e) => format!(
            "on the road from {} to {}, {:.1} miles out",
            region_label(report, region),
            region_label(report, &e.toward),
            e.miles
        ),
    }
}

/// What an enemy counter says: the strength it was seen at, or `?3` for blind 3.
fn known_counter_text(k: &KnownForce) -> String {
    if k.blind {
        format!("?{}", k.marker)
    } else {
        k.points.map_or_else(|| "?".to_owned(), |p| p.to_string())
    }
}

/// "blind: name and strength unknown" or "3 stands, 300 points".
fn known_strength(k: &KnownForce) -> String {
    if k.blind {
        "blind: name and strength unknown".to_owned()
    } else {
        format!(
            "{}, {} points",
            k.stands
                .map_or_else(|| "? stands".to_owned(), |n| plural(n, "stand", "stands")),
            k.points.map_or_else(|| "?".to_owned(), |p| p.to_string())
        )
    }
}

/// The map of what the side knows: its own forces, the enemy as known, the
/// HQs, its pending battles.
pub(super) fn scene(report: &Report) -> Scene<'_> {
    Scene {
        map: &report.map,
        sides: &report.sides,
        hqs: &report.hqs,
        counters: counters(report),
        rings: report
            .battles
            .iter()
            .map(|b| Ring {
                region: b.region.clone(),
                label: format!("Battle {}", b.id),
                title: format!("Battle {} pending at {}", b.id, region_label(report, &b.region)),
                pending: true,
                href: None,
            })
            .collect(),
        arrows: Vec::new(),
        supply: known_supply_lines(report)
            .into_iter()
            .map(|line| SupplyRoad {
                colour: colour_of(report, &line.side),
                route: line.route,
                supplied: line.supplied,
                cuts: line.cuts,
            })
            .collect(),
        label: format!("Map of what {} knows", report.side_name),
    }
}

/// Under the map: the key, the HQs and who holds them, the enemy forces known.
fn map_key(report: &Report) -> String {
    let mut out = String::new();
    let own = colour_of(report, &report.side);
    let _ = writeln!(
        out,
        "<p class=\"key\"><span class=\"chip\" style=\"background:{own}\"></span>our forces (points) \
         · <span class=\"chip\" style=\"background:{BLIND_FILL};border:2px solid #888\"></span>a blind: seen, not made out \
         · pale: not in sight now, where last seen \
         · <span style=\"color:{own}\">broad line: our supply road to an HQ</span> \
         · <span style=\"color:{CUT_OFF}\">red edge, dashed red road, cross: cut off from supply, and where</span> \
         · flags: HQs in the holder's colour \
         · roads solid, tracks dashed, railways with sleepers, rivers blue \
         · <span style=\"color:{BATTLE}\">ring: battle pending</span></p>"
    );
    out.push_str("<h3>HQs</h3>\n<table><tr><th>HQ</th><th>Region</th><th>Side</th><th>Held by</th></tr>\n");
    for hq in &report.hqs {
        let owner = side_label(report, &hq.side);
        let held = if hq.held_by == hq.side {
            side_label(report, &hq.held_by)
        } else {
            format!(
                "<b>{}</b>{}",
                side_label(report, &hq.held_by),
                hq.captured_turn
                    .map_or_else(String::new, |t| format!(" (taken game move {t})"))
            )
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td><span class=\"chip\" style=\"background:{}\"></span>{owner}</td><td>{held}</td></tr>",
            escape(&hq.label(&owner)),
            region_label(report, &hq.region),
            colour_of(report, &hq.side)
        );
    }
    out.push_str("</table>\n<h3>Enemy forces known</h3>\n");
    if report.known.is_empty() {
        out.push_str("<p>None in sight, and none remembered.</p>\n");
        return out;
    }
    out.push_str("<table><tr><th>Force</th><th>Side</th><th>Where</th><th>Strength</th><th>When</th></tr>\n");
    for k in &report.known {
        let name = match (&k.id, k.blind) {
            (Some(id), false) => format!("{} <code>{}</code>", escape(&k.label()), escape(id.as_str())),
            _ => escape(&k.label()),
        };
        let when = if k.in_sight {
            "in sight".to_owned()
        } else {
            format!("<span class=\"pale\">last seen game move {}</span>", k.seen_turn)
        };
        let _ = writeln!(
            out,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{when}</td></tr>",
            side_label(report, &k.side),
            where_text(report, &k.region, k.en_route.as_ref()),
            known_strength(k)
        );
    }
    out.push_str("</table>\n");
    out
}

// -- Forces, events, battles, orders -------------------------------------------

fn order_text(report: &Report, force: &Force, arrives: Option<u32>) -> String {
    let mut text = match &force.order {
        StandingOrder::Hold => "holds".to_owned(),
        StandingOrder::March { path, forced, by } => {
            let how = match (by, forced) {
                (Conveyance::Rail, _) => "by train",
                (Conveyance::River, _) => "by steamer",
                (Conveyance::Foot, true) => "forced march",
                (Conveyance::Foot, false) => "march",
            };
            let goal = path
                .last()
                .map_or_else(|| "?".to_owned(), |r| region_label(report, r));
            let by_way: Vec<String> = path.iter().map(|r| region_label(report, r)).collect();
            if by_way.len() > 1 {
                format!("{how} to <b>{goal}</b> by {}", by_way.join(" → "))
            } else {
                format!("{how} to <b>{goal}</b>")
            }
        }
    };
    if let Some(turn) = arrives {
        let _ = write!(text, "; arrives game move {turn}");
    }
    if force.fatigue.must_rest {
        text.push_str("; <b>must rest</b> this game move");
    } else if force.fatigue.forced_in_row > 0 {
        let _ = write!(
            text,
            "; {} in a row",
            plural(
                usize::try_from(force.fatigue.forced_in_row).unwrap_or(usize::MAX),
                "forced march",
                "forced marches"
            )
        );
    }
    text
}

fn supply_text(report: &Report, force: &Force) -> String {
    if force.supply.cut_moves == 0 {
        return "in supply".to_owned();
    }
    let grace = report.house_rules.cut_moves_before_losses();
    let left = grace.saturating_sub(force.supply.cut_moves);
    format!(
        "<span class=\"cut\">cut off {} game move{}</span>: {}",
        force.supply.cut_moves,
        if force.supply.cut_moves == 1 { "" } else { "s" },
        if left == 0 {
            "it loses a stand each game move until the road is reopened (Strategic Rules 2.2)".to_owned()
        } else {
            format!(
                "{left} game move{} before it loses stands (Strategic Rules 2.2)",
                if left == 1 { "" } else { "s" }
            )
        }
    )
}

fn forces_section(report: &Report, arrivals: &[(ForceId, u32)]) -> String {
    let mut out = String::from("<section id=\"forces\">\n<h2>Our forces</h2>\n");
    if report.forces.is_empty() {
        out.push_str("<p>None left on the map.</p>\n");
    }
    for f in &report.forces {
        let arrives = arrivals.iter().find(|(id, _)| id == &f.id).map(|(_, t)| *t);
        let _ = writeln!(
            out,
            "<h3><span class=\"chip\" style=\"background:{}\"></span>{} <code>{}</code></h3>\n\
             <p>{}: {} of {} points, {}. Order: {}. Supply: {}.</p>",
            colour_of(report, &f.side),
            escape(&f.name),
            escape(f.id.as_str()),
            match &f.en_route {
                None => format!("At {}", region_label(report, &f.region)),
                Some(_) => capitalised(&where_text(report, &f.region, f.en_route.as_ref())),
            },
            f.points(),
            f.full_points(),
            plural(f.stands.len(), "stand", "stands"),
            order_text(report, f, arrives),
            supply_text(report, f)
        );
        out.push_str(
            "<table><tr><th>Stand</th><th>Name</th><th>Kind</th><th>Quality</th><th>Strength</th></tr>\n",
        );
        for s in &f.stands {
            let _ = writeln!(
                out,
                "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}/{}</td></tr>",
                s.id,
                escape(&s.name),
                escape(s.kind.label()),
                escape(s.quality.as_str()),
                s.strength,
                s.full
            );
        }
        out.push_str("</table>\n");
        if !f.fallen_out.is_empty() {
            let names: Vec<String> = f
                .fallen_out
                .iter()
                .map(|o| {
                    format!(
                        "{} (stand {}, game move {})",
                        escape(&o.stand.name),
                        o.stand.id,
                        o.turn
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "<p>Fallen out on the march, to rejoin: {}.</p>",
                names.join(", ")
            );
        }
    }
    out.push_str("</section>\n");
    out
}

fn events_section(report: &Report) -> String {
    let mut out = String::from("<section id=\"events\">\n<h2>What we heard</h2>\n");
    if report.events.is_empty() {
        out.push_str("<p>Nothing this game move.</p>\n");
    }
    let mut turns: Vec<u32> = report.events.iter().map(|e| e.turn).collect();
    turns.sort_unstable_by(|a, b| b.cmp(a));
    turns.dedup();
    for turn in turns {
        let _ = writeln!(out, "<h3>Game move {turn}</h3>\n<ol class=\"events\">");
        for e in report.events.iter().filter(|e| e.turn == turn) {
            let _ = writeln!(out, "<li>{}</li>", escape(&e.sentence));
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</section>\n");
    out
}

fn battles_section(report: &Report, odds: &[(u32, Prediction)]) -> String {
    let mut out = String::from("<section id=\"battles\">\n<h2>Our battles</h2>\n");
    if report.battles.is_empty() {
        out.push_str("<p>No battle waits to be fought.</p>\n");
    }
    for b in &report.battles {
        let _ = writeln!(
            out,
            "<h3>Battle {} at {} (met in game move {})</h3>\n<p>Attacker: {}. Defender: {}. It waits to be fought on the table.</p>",
            b.id,
            region_label(report, &b.region),
            b.turn,
            side_label(report, &b.attacker),
            side_label(report, &b.defender)
        );
        out.push_str(
            "<table><tr><th>Force</th><th>Side</th><th>Came from</th><th>Stands</th><th>Points</th></tr>\n",
        );
        for (f, reserve) in b
            .forces
            .iter()
            .map(|f| (f, false))
            .chain(b.reserves.iter().map(|f| (f, true)))
        {
            let from = b
                .came_from
                .iter()
                .find(|a| a.force == f.id)
                .map_or_else(String::new, |a| region_label(report, &a.from));
            let stands: Vec<String> = f
                .stands
                .iter()
                .map(|s| format!("{} {}/{}", escape(&s.name), s.strength, s.full))
                .collect();
            let points: u64 = f.stands.iter().map(|s| u64::from(s.strength)).sum();
            let _ = writeln!(
                out,
                "<tr><td>{}{} <code>{}</code></td><td>{}</td><td>{from}</td><td>{}</td><td class=\"n\">{points}</td></tr>",
                escape(&f.name),
                if reserve { " (reserve within a move)" } else { "" },
                escape(f.id.as_str()),
                side_label(report, &f.side),
                stands.join("; ")
            );
        }
        out.push_str("</table>\n");
        if let Some((_, odds)) = odds.iter().find(|(id, _)| *id == b.id) {
            out.push_str(&odds_text(report, odds));
        }
    }
    out.push_str("</section>\n");
    out
}

/// A battle's odds as a paragraph: each side's share of the engine's
/// battles won and the points it loses on average, then the draws.
fn odds_text(report: &Report, odds: &Prediction) -> String {
    let percent = |share: f64| format!("{:.0}%", (share * 100.0).clamp(0.0, 100.0));
    let sides: Vec<String> = odds
        .sides
        .iter()
        .map(|s| {
            format!(
                "{} wins {} (losing {:.0} points on average)",
                side_label(report, &s.side),
                percent(s.wins),
                s.expected_losses.max(0.0)
            )
        })
        .collect();
    format!(
        "<p class=\"odds\"><b>Odds</b> (the umpire allows them: {} of the engine's battles under {}): {}; drawn {}.</p>\n",
        odds.runs,
        escape(odds.rules.as_str()),
        sides.join("; "),
        percent(odds.draws)
    )
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// The orders file to send back, ready to fill in: `campaign`, `side` and
/// `turn` set, one commented `[[orders]]` per own force.
pub(super) fn orders_template(report: &Report) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# Orders of {} for game move {} of {}.",
        one_line(&report.side_name),
        report.turn,
        one_line(&report.campaign)
    );
    t.push_str(
        "# For each force you order, remove the \"# \" before its [[orders]], force and\n\
         # hold lines, then change `hold = true` to what it does:\n\
         #   to = \"region-id\"          march there by the quickest road\n\
         #   march = [\"a\", \"b\"]        march through these regions in order\n\
         #     (add forced = true for a forced march, or by = \"rail\" / by = \"river\")\n\
         #   merge_into = \"force-id\"   join another force in the same region\n\
         # A force left out keeps its standing order.\n",
    );
    let _ = writeln!(t, "campaign = {}", quoted(&report.campaign));
    let _ = writeln!(t, "side = {}", quoted(report.side.as_str()));
    let _ = writeln!(t, "turn = {}", report.turn);
    for f in &report.forces {
        let now = match &f.order {
            StandingOrder::Hold => "holds".to_owned(),
            StandingOrder::March { path, .. } => format!(
                "marching to {}",
                path.last().map_or("?", |r| report.map.region_name(r))
            ),
        };
        let place = match &f.en_route {
            None => format!("at {}", report.map.region_name(&f.region)),
            Some(e) => format!(
                "on the road from {} to {}",
                report.map.region_name(&f.region),
                report.map.region_name(&e.toward)
            ),
        };
        let _ = writeln!(
            t,
            "\n# {}, {}: {}.\n# [[orders]]\n# force = {}\n# hold = true",
            one_line(&f.name),
            one_line(&place),
            one_line(&now),
            quoted(f.id.as_str())
        );
    }
    t
}

/// A text on one line of a TOML comment: line breaks as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn orders_section(report: &Report) -> String {
    let mut out = String::from("<section id=\"orders\">\n<h2>Our orders</h2>\n");
    let _ = writeln!(
        out,
        "<p>Copy this into a file, e.g. <code>{side}_move{turn}.toml</code>, fill it in and send it to the umpire:</p>\n<pre>{}</pre>\n\
         <p>The umpire gives it with <code>umpire orders SAVE {side} {side}_move{turn}.toml</code>; \
         a wrong line is refused with its line number, and nothing is taken until the whole file is right.</p>",
        escape(&orders_template(report)),
        side = escape(report.side.as_str()),
        turn = report.turn
    );
    let ids: Vec<String> = report
        .map
        .regions
        .iter()
        .map(|r| format!("<code>{}</code> {}", escape(r.id.as_str()), escape(&r.name)))
        .collect();
    let _ = writeln!(out, "<p class=\"key\">Region ids: {}.</p>", ids.join(" · "));
    out.push_str("</section>\n");
    out
}

/// The counters to draw: the side's own forces, then the enemy forces it knows.
pub(super) fn counters(report: &Report) -> Vec<Counter> {
    let mut counters = Vec::new();
    let grace = report.house_rules.cut_moves_before_losses();
    for f in &report.forces {
        let at = Place {
            region: f.region.clone(),
            en_route: f.en_route.clone(),
        };
        let cut = f.supply.cut_moves > 0;
        counters.push(Counter {
            at,
            key: f.id.as_str().to_owned(),
            fill: colour_of(report, &f.side),
            edge: if cut {
                CUT_OFF.to_owned()
            } else {
                COUNTER_EDGE.to_owned()
            },
            edge_width: if cut { 3.0 } else { 1.0 },
            text: f.points().to_string(),
            ink: "#ffffff".to_owned(),
            label: escape(&f.name),
            note: cut.then(|| {
                let left = grace.saturating_sub(f.supply.cut_moves);
                if left == 0 {
                    "cut off: losing stands".to_owned()
                } else {
                    format!("cut off: {left} move{} left", if left == 1 { "" } else { "s" })
                }
            }),
            title: format!(
                "{} ({}): {} points, {}",
                escape(&f.name),
                escape(f.id.as_str()),
                f.points(),
                plural(f.stands.len(), "stand", "stands")
            ),
        });
    }
    for k in &report.known {
        let at = Place {
            region: k.region.clone(),
            en_route: k.en_route.clone(),
        };
        let colour = map_svg::side_colour(&report.sides, &k.side);
        let shown = if k.in_sight {
            colour
        } else {
            map_svg::remembered(colour)
        };
        counters.push(Counter {
            at,
            key: match (&k.id, k.blind) {
                (Some(id), false) => id.as_str().to_owned(),
                _ => format!("blind {}", k.marker),
            },
            fill: if k.blind {
                BLIND_FILL.to_owned()
            } else {
                shown.to_string()
            },
            edge: if k.blind {
                shown.to_string()
            } else {
                COUNTER_EDGE.to_owned()
            },
            edge_width: if k.blind { 2.0 } else { 1.0 },
            text: known_counter_text(k),
            ink: if k.blind {
                shown.to_string()
            } else if k.in_sight {
                "#ffffff".to_owned()
            } else {
                LABEL_STRONG.to_owned()
            },
            label: if k.blind {
                String::new()
            } else {
                escape(&k.label())
            },
            note: (!k.in_sight).then(|| format!("last seen game move {}", k.seen_turn)),
            title: format!(
                "{} of {}: {}{}",
                escape(&k.label()),
                side_label(report, &k.side),
                known_strength(k),
                if k.in_sight {
                    String::new()
                } else {
                    format!(", last seen game move {}", k.seen_turn)
                }
            ),
        });
    }
    counters
}

/// `text` with its first letter a capital.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
