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
use crate::model::report::{KnownForce, Report};
use crate::model::{
    Colour, Conveyance, EnRoute, Force, ForceId, Prediction, RegionId, RiverCrossing, RoadKind, SideId,
    StandingOrder,
};
use crate::strategy::forecast::known_supply_lines;
use std::collections::HashMap;
use std::fmt::Write as _;

// The window's colours (`ui::theme`), as CSS.
const MAP_GROUND: &str = "#e8d6a8";
const ROAD: &str = "#784828";
const TRACK: &str = "#a07850";
const RAILWAY: &str = "#282828";
const RIVER: &str = "#4682c8";
const REGION_DOT: &str = "#463c32";
const LABEL_STRONG: &str = "#1e1914";
const FLAGPOLE: &str = "#32281e";
const COUNTER_EDGE: &str = "#141414";
const CUT_OFF: &str = "#dc1e1e";
const BATTLE: &str = "#b4003c";
const BLIND_FILL: &str = "#faf6e8";

/// The map's drawing size: the longer side of the map's miles is drawn this
/// many SVG units long (the page scales it to the screen).
const MAP_UNITS: f64 = 1000.0;
/// A counter's size in SVG units, as the window's at zoom 1.
const COUNTER_W: f64 = 34.0;
const COUNTER_H: f64 = 17.0;
/// Above this many regions only the regions with something on them are named.
const NAME_EVERY_REGION_UP_TO: usize = 300;

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
    page.push_str(&map_svg(report));
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

const STYLE: &str = "
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
    report
        .sides
        .iter()
        .find(|s| &s.id == side)
        .map_or_else(|| "#808080".to_owned(), |s| s.colour.to_string())
}

fn side_label(report: &Report, side: &SideId) -> String {
    escape(
        report
            .sides
            .iter()
            .find(|s| &s.id == side)
            .map_or(side.as_str(), |s| s.name.as_str()),
    )
}

fn region_label(report: &Report, region: &RegionId) -> String {
    escape(report.map.region_name(region))
}

/// A colour washed out towards grey: a force remembered, not seen now (the
/// window's `ui::text::remembered`).
fn remembered(colour: Colour) -> Colour {
    let grey = |c: u8| u8::try_from((u16::from(c) + 2 * 150) / 3).unwrap_or(150);
    let [r, g, b] = colour.0;
    Colour([grey(r), grey(g), grey(b)])
}

fn side_colour(report: &Report, side: &SideId) -> Colour {
    report
        .sides
        .iter()
        .find(|s| &s.id == side)
        .map_or(Colour([128, 128, 128]), |s| s.colour)
}

fn plural(n: usize, one: &str, many: &str) -> String {
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

// -- The map ------------------------------------------------------------------

/// How map miles become SVG units.
struct Frame {
    left: f64,
    top: f64,
    scale: f64,
    width: f64,
    height: f64,
}

impl Frame {
    fn of(report: &Report) -> Frame {
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        let mut xs = report.map.regions.iter().map(|r| finite(r.x));
        let first = xs.next().unwrap_or(0.0);
        let (min_x, max_x) = xs.fold((first, first), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let mut ys = report.map.regions.iter().map(|r| finite(r.y));
        let first = ys.next().unwrap_or(0.0);
        let (min_y, max_y) = ys.fold((first, first), |(lo, hi), y| (lo.min(y), hi.max(y)));
        let span = (max_x - min_x).max(max_y - min_y).max(1.0);
        let scale = MAP_UNITS / span;
        // Room round the edge for names, flags and counters.
        let pad = 60.0;
        Frame {
            left: min_x - pad / scale,
            top: min_y - pad / scale,
            scale,
            width: (max_x - min_x) * scale + 2.0 * pad + 120.0,
            height: (max_y - min_y) * scale + 2.0 * pad + 30.0,
        }
    }

    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        (
            (finite(x) - self.left) * self.scale,
            (finite(y) - self.top) * self.scale,
        )
    }
}

/// Every region's place in SVG units, by id.
fn places(report: &Report, frame: &Frame) -> HashMap<RegionId, (f64, f64)> {
    report
        .map
        .regions
        .iter()
        .map(|r| (r.id.clone(), frame.at(r.x, r.y)))
        .collect()
}

/// A place part-way along the road from `region` toward `en_route.toward`.
fn place_of(
    report: &Report,
    places: &HashMap<RegionId, (f64, f64)>,
    region: &RegionId,
    en_route: Option<&EnRoute>,
) -> Option<(f64, f64)> {
    let at = *places.get(region)?;
    let Some(e) = en_route else { return Some(at) };
    let Some(&to) = places.get(&e.toward) else {
        return Some(at);
    };
    let length = report
        .map
        .roads_from(region)
        .find(|r| r.other_end(region) == Some(&e.toward))
        .map_or(1.0, |r| r.miles.max(0.1));
    let t = (e.miles / length).clamp(0.0, 1.0);
    let t = if t.is_finite() { t } else { 0.0 };
    Some((at.0 + (to.0 - at.0) * t, at.1 + (to.1 - at.1) * t))
}

/// One counter to draw.
struct Counter {
    at: (f64, f64),
    fill: String,
    edge: String,
    edge_width: f64,
    text: String,
    ink: String,
    label: String,
    note: Option<String>,
    title: String,
}

fn map_svg(report: &Report) -> String {
    let frame = Frame::of(report);
    let places = places(report, &frame);
    let mut svg = String::with_capacity(32 * 1024);
    let _ = writeln!(
        svg,
        "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"Map of what {side} knows\">",
        w = frame.width,
        h = frame.height,
        side = escape(&report.side_name)
    );
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{:.0}\" height=\"{:.0}\" fill=\"{MAP_GROUND}\"/>",
        frame.width, frame.height
    );

    // Region areas, under everything: the terrain's colour.
    svg.push_str("<g opacity=\"0.75\">\n");
    for r in &report.map.regions {
        let (x, y) = frame.at(r.x, r.y);
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"14\" fill=\"{}\"/>",
            terrain_colour(r.terrain)
        );
    }
    svg.push_str("</g>\n");

    // Roads by kind: roads solid, tracks dashed, railways with sleepers, rivers blue and broad.
    svg.push_str("<g fill=\"none\" stroke-linecap=\"round\">\n");
    for road in &report.map.roads {
        let (Some(&(x1, y1)), Some(&(x2, y2))) = (places.get(&road.from), places.get(&road.to)) else {
            continue;
        };
        let opacity = if road.river == Some(RiverCrossing::None) {
            " opacity=\"0.45\""
        } else {
            ""
        };
        let title = road
            .name
            .as_deref()
            .map_or_else(String::new, |n| format!("<title>{}</title>", escape(n)));
        let line = |stroke: &str, width: f64, extra: &str| {
            format!(
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{extra}{opacity}>{title}</line>\n"
            )
        };
        match road.kind {
            RoadKind::Road => svg.push_str(&line(ROAD, 2.6, "")),
            RoadKind::Track => svg.push_str(&line(TRACK, 1.6, " stroke-dasharray=\"7 5\"")),
            RoadKind::Railway => {
                svg.push_str(&line(RAILWAY, 2.0, ""));
                svg.push_str(&line(
                    RAILWAY,
                    7.0,
                    " stroke-dasharray=\"1.5 7\" stroke-linecap=\"butt\"",
                ));
            }
            RoadKind::River => svg.push_str(&line(RIVER, 6.0, " stroke-opacity=\"0.85\"")),
        }
        if let Some(crossing) = road.river {
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let mark = match crossing {
                RiverCrossing::Bridge => format!(
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"7\" height=\"7\" fill=\"#3c3c3c\"><title>bridge</title></rect>\n",
                    mx - 3.5,
                    my - 3.5
                ),
                RiverCrossing::Ford => format!(
                    "<circle cx=\"{mx:.1}\" cy=\"{my:.1}\" r=\"4\" fill=\"#f0f0f0\" stroke=\"{RIVER}\" stroke-width=\"1.5\"><title>ford</title></circle>\n"
                ),
                RiverCrossing::None => format!(
                    "<path d=\"M{:.1} {:.1}l8 8m0 -8l-8 8\" stroke=\"{CUT_OFF}\" stroke-width=\"2\"><title>no way over the river</title></path>\n",
                    mx - 4.0,
                    my - 4.0
                ),
            };
            svg.push_str(&mark);
        }
    }
    svg.push_str("</g>\n");

    svg.push_str(&supply_svg(report, &places));

    // Pending battles: a ring round the region, its name above, over the counters.
    let mut taken = Taken::default();
    let mut battles_svg = String::new();
    for b in &report.battles {
        let Some(&(x, y)) = places.get(&b.region) else {
            continue;
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"24\" fill=\"none\" stroke=\"{BATTLE}\" stroke-width=\"3\" stroke-dasharray=\"6 3\"><title>Battle {id} pending at {name}</title></circle>",
            id = b.id,
            name = region_label(report, &b.region),
        );
        let label = format!("Battle {}", b.id);
        let (tx, ty) = (x - 30.0, y - 10.0);
        taken.take(text_box(&label, tx, ty, 12.0, Anchor::End));
        let _ = writeln!(
            battles_svg,
            "<text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\" font-size=\"12\" font-weight=\"bold\" fill=\"{BATTLE}\" class=\"lbl\">{label}</text>"
        );
    }

    // Region centres, under the flags and counters.
    for r in &report.map.regions {
        let (x, y) = frame.at(r.x, r.y);
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{REGION_DOT}\"><title>{} ({})</title></circle>",
            escape(&r.name),
            escape(r.id.as_str())
        );
    }

    // HQ flags in the holder's colour, edged in the owner's.
    for hq in &report.hqs {
        let Some(&(x, y)) = places.get(&hq.region) else {
            continue;
        };
        let size = 11.0;
        let bx = x - size * 0.9;
        let top = y - size * 1.9;
        let captured = hq.held_by != hq.side;
        let owner = side_label(report, &hq.side);
        let title = format!(
            "{} at {}: {}'s HQ, held by {}",
            escape(&hq.label(&owner)),
            region_label(report, &hq.region),
            owner,
            side_label(report, &hq.held_by)
        );
        let _ = writeln!(
            svg,
            "<g><title>{title}</title><line x1=\"{bx:.1}\" y1=\"{y:.1}\" x2=\"{bx:.1}\" y2=\"{top:.1}\" stroke=\"{FLAGPOLE}\" stroke-width=\"1.8\"/>\
             <path d=\"M{bx:.1} {top:.1}l{:.1} {:.1}l{:.1} {:.1}z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/></g>",
            size * 1.2,
            size * 0.4,
            -size * 1.2,
            size * 0.4,
            colour_of(report, &hq.held_by),
            colour_of(report, &hq.side),
            if captured { 2.5 } else { 1.0 }
        );
    }

    // Counters: own forces, then the enemy as known; stacked where they share a place.
    let counters = counters(report, &places);
    // Each counter beside its place, moved down past the counters already
    // there (a stack, or a near place's), so none hides another.
    let boxes: Vec<(f64, f64)> = counters
        .iter()
        .map(|c| {
            // Right of the place, then left of it, a row lower each time.
            let top = c.at.1 - COUNTER_H - 4.0;
            let (right, left) = (c.at.0 + 7.0, c.at.0 - 7.0 - COUNTER_W);
            let mut spots = (0..8u32).flat_map(|row| {
                let y = top + f64::from(row) * (COUNTER_H + 4.0);
                [(right, y), (left, y)]
            });
            let (x, y) = spots
                .find(|&(x, y)| x >= 0.0 && taken.is_free((x, y, x + COUNTER_W, y + COUNTER_H)))
                .unwrap_or((right, top));
            taken.take((x - 1.0, y - 1.0, x + COUNTER_W + 1.0, y + COUNTER_H + 1.0));
            (x, y)
        })
        .collect();
    let mut counters_svg = String::new();
    let mut labels_svg = String::new();
    let mut names_svg = String::new();
    for (c, &(x, y)) in counters.iter().zip(&boxes) {
        let _ = writeln!(
            counters_svg,
            "<g><title>{title}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{COUNTER_W}\" height=\"{COUNTER_H}\" fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{ew}\"/>\
             <text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"{ink}\">{text}</text></g>",
            title = c.title,
            fill = c.fill,
            edge = c.edge,
            ew = c.edge_width,
            tx = x + COUNTER_W / 2.0,
            ty = y + COUNTER_H - 4.5,
            ink = c.ink,
            text = escape(&c.text),
        );
    }
    // Region names where they do not cover a counter or another name,
    // the regions with something on them first.
    let busy: std::collections::HashSet<&RegionId> = report
        .forces
        .iter()
        .map(|f| &f.region)
        .chain(report.known.iter().map(|k| &k.region))
        .chain(report.hqs.iter().map(|h| &h.region))
        .chain(report.battles.iter().map(|b| &b.region))
        .collect();
    let name_all = report.map.regions.len() <= NAME_EVERY_REGION_UP_TO;
    let name_regions = |first: bool, taken: &mut Taken, names_svg: &mut String| {
        for r in &report.map.regions {
            if busy.contains(&r.id) != first || !(first || name_all) {
                continue;
            }
            let (x, y) = frame.at(r.x, r.y);
            let name = escape(&r.name);
            for (dx, dy, anchor) in [
                (0.0, 16.0, Anchor::Middle),
                (0.0, -7.0, Anchor::Middle),
                (-6.0, 4.0, Anchor::End),
                (6.0, 4.0, Anchor::Start),
            ] {
                let area = text_box(&r.name, x + dx, y + dy, 12.0, anchor);
                if area.0 < 0.0 || area.2 > frame.width || !taken.is_free(area) {
                    continue;
                }
                taken.take(area);
                let _ = writeln!(
                    *names_svg,
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{}\" font-size=\"12\" fill=\"{LABEL_STRONG}\" class=\"lbl\">{name}</text>",
                    x + dx,
                    y + dy,
                    anchor.css()
                );
                break;
            }
        }
    };
    name_regions(true, &mut taken, &mut names_svg);
    for (c, &(x, y)) in counters.iter().zip(&boxes) {
        // Its name beside it where there is room; the cut-off note alone when not.
        let line = |with_name: bool| {
            let mut line = if with_name { c.label.clone() } else { String::new() };
            if let Some(note) = &c.note {
                if !line.is_empty() {
                    line.push_str(", ");
                }
                line.push_str(note);
            }
            line
        };
        let at = (x + COUNTER_W + 4.0, y + COUNTER_H - 4.5);
        for text in [line(true), line(false)] {
            if text.is_empty() {
                break;
            }
            let area = text_box(&text, at.0, at.1, 10.5, Anchor::Start);
            if taken.is_free(area) && area.2 <= frame.width {
                taken.take(area);
                let colour = if c.note.as_deref().is_some_and(|n| n.starts_with("cut")) {
                    CUT_OFF
                } else {
                    LABEL_STRONG
                };
                let _ = writeln!(
                    labels_svg,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10.5\" fill=\"{colour}\" class=\"lbl\">{text}</text>",
                    at.0, at.1
                );
                break;
            }
        }
    }

    name_regions(false, &mut taken, &mut names_svg);
    svg.push_str(&names_svg);
    svg.push_str(&counters_svg);
    svg.push_str(&labels_svg);
    svg.push_str(&battles_svg);
    svg.push_str(&scale_bar(&frame));
    svg.push_str("</svg>\n");
    svg
}

/// What an enemy counter says: the strength it was seen at, or `?3` for blind 3.
/// The side's supply lines as its report lets it trace them
/// (`strategy::forecast::known_supply_lines`): each road of a line once, in
/// the side's colour, dashed red where the line is cut, and a red cross on
/// each region that cuts it.
fn supply_svg(report: &Report, places: &HashMap<RegionId, (f64, f64)>) -> String {
    let lines = known_supply_lines(report);
    if lines.is_empty() {
        return String::new();
    }
    let own = colour_of(report, &report.side);
    let mut drawn = std::collections::HashSet::new();
    let mut svg = String::from("<g class=\"supply\" fill=\"none\" stroke-linecap=\"round\">\n");
    for line in &lines {
        for pair in line.route.windows(2) {
            let [a, b] = pair else { continue };
            let key = if a <= b {
                (a, b, line.supplied)
            } else {
                (b, a, line.supplied)
            };
            if !drawn.insert(key) {
                continue;
            }
            let (Some(&(x1, y1)), Some(&(x2, y2))) = (places.get(a), places.get(b)) else {
                continue;
            };
            let (stroke, extra) = if line.supplied {
                (own.as_str(), "")
            } else {
                (CUT_OFF, " stroke-dasharray=\"5 4\"")
            };
            let _ = writeln!(
                svg,
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{stroke}\" stroke-width=\"3.5\" stroke-opacity=\"0.55\"{extra}/>"
            );
        }
    }
    let mut crossed = std::collections::HashSet::new();
    for line in lines.iter().filter(|l| !l.supplied) {
        for region in &line.cuts {
            let Some(&(x, y)) = places.get(region).filter(|_| crossed.insert(region)) else {
                continue;
            };
            let _ = writeln!(
                svg,
                "<path d=\"M{:.1} {:.1}l12 12m0 -12l-12 12\" stroke=\"{CUT_OFF}\" stroke-width=\"3\"><title>Our supply is cut at {}</title></path>",
                x - 6.0,
                y - 6.0,
                region_label(report, region)
            );
        }
    }
    svg.push_str("</g>\n");
    svg
}

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

/// The terrain's fill (the window's `ui::theme::terrain`).
fn terrain_colour(terrain: crate::model::Terrain) -> &'static str {
    use crate::model::Terrain;
    match terrain {
        Terrain::Open => "#d6dea0",
        Terrain::Desert => "#e8cd8c",
        Terrain::Cultivated => "#a0c86e",
        Terrain::Hills => "#bea06e",
        Terrain::Mountains => "#967d64",
        Terrain::Forest => "#5a9650",
        Terrain::Marsh => "#8cb4aa",
        Terrain::Urban => "#b9aaa0",
    }
}

/// A scale bar of a round number of miles, about 150 units long, bottom left.
fn scale_bar(frame: &Frame) -> String {
    let target = 150.0 / frame.scale;
    let nice = [
        1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0,
    ];
    let miles = nice.iter().copied().rev().find(|m| *m <= target).unwrap_or(1.0);
    let width = miles * frame.scale;
    let x = 16.0;
    let y = frame.height - 14.0;
    format!(
        "<g stroke=\"{LABEL_STRONG}\" stroke-width=\"2\" fill=\"none\"><path d=\"M{x} {y1:.1}v6h{width:.1}v-6\"/></g>\
         <text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" font-size=\"12\" fill=\"{LABEL_STRONG}\" class=\"lbl\">{label}</text>\n",
        y1 = y - 6.0,
        tx = x + width / 2.0,
        ty = y - 9.0,
        label = crate::model::text::quantity(miles, 0, "mile", "miles")
    )
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
fn counters(report: &Report, places: &HashMap<RegionId, (f64, f64)>) -> Vec<Counter> {
    let mut counters = Vec::new();
    let grace = report.house_rules.cut_moves_before_losses();
    for f in &report.forces {
        let Some(at) = place_of(report, places, &f.region, f.en_route.as_ref()) else {
            continue;
        };
        let cut = f.supply.cut_moves > 0;
        counters.push(Counter {
            at,
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
        let Some(at) = place_of(report, places, &k.region, k.en_route.as_ref()) else {
            continue;
        };
        let colour = side_colour(report, &k.side);
        let shown = if k.in_sight { colour } else { remembered(colour) };
        counters.push(Counter {
            at,
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

/// Where a text starts, in SVG's `text-anchor` words.
#[derive(Debug, Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn css(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// A box: left, top, right, bottom.
type Area = (f64, f64, f64, f64);

/// The box a line of `text` at `size` takes with its baseline at (`x`, `y`),
/// by an average letter width of 0.58 of the size (Helvetica's is about 0.55).
fn text_box(text: &str, x: f64, y: f64, size: f64, anchor: Anchor) -> Area {
    let letters = f64::from(u32::try_from(text.chars().count()).unwrap_or(u32::MAX));
    let width = letters * size * 0.58;
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    };
    (left, y - size * 0.85, left + width, y + size * 0.25)
}

/// The boxes drawn so far that a name must not cover.
#[derive(Debug, Default)]
struct Taken(Vec<Area>);

impl Taken {
    fn take(&mut self, area: Area) {
        self.0.push(area);
    }

    fn is_free(&self, a: Area) -> bool {
        self.0
            .iter()
            .all(|b| a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1)
    }
}

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
