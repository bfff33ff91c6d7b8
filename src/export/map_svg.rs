//! The map as inline SVG, shared by the pages: a side's report
//! (`report_page`) and the chronicle (`chronicle`).
//!
//! Drawn from the regions' miles as the window's `ui::map_view` draws them,
//! in the window's colours copied from `ui::theme` (the export may not use
//! egui): waters and the regions' territories (`model::shapes`), roads by kind, HQ flags in the holder's colour,
//! counters, battles ringed, marches as arrows, a scale bar. Counters are
//! moved past each other and names left out where they would cover a counter
//! or another name ([`Taken`], boxes measured by an average letter width).
//! What goes on the map is the caller's [`Scene`]: each page decides what its
//! reader may see.

use super::escape;
use crate::model::shapes;
use crate::model::{
    Colour, EnRoute, Hq, Map, MapPoint, RegionId, RiverCrossing, RoadKind, Side, SideId, Water, WaterKind,
};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

// The window's colours (`ui::theme`), as CSS.
const MAP_GROUND: &str = "#e8d6a8";
const ROAD: &str = "#784828";
const TRACK: &str = "#a07850";
const RAILWAY: &str = "#282828";
const RIVER: &str = "#4682c8";
const REGION_DOT: &str = "#463c32";
const WATER: &str = "#a8c8e6";
const COAST: &str = "#4f7fae";
const BORDER: &str = "#6e6250";
pub(super) const LABEL_STRONG: &str = "#1e1914";
const FLAGPOLE: &str = "#32281e";
pub(super) const COUNTER_EDGE: &str = "#141414";
pub(super) const CUT_OFF: &str = "#dc1e1e";
pub(super) const BATTLE: &str = "#b4003c";
pub(super) const BLIND_FILL: &str = "#faf6e8";

/// The map's drawing size: the longer side of the map's miles is drawn this
/// many SVG units long (the page scales it to the screen).
const MAP_UNITS: f64 = 1000.0;
/// A counter's size in SVG units, as the window's at zoom 1.
const COUNTER_W: f64 = 34.0;
const COUNTER_H: f64 = 17.0;
/// Above this many regions only the regions with something on them are named.
const NAME_EVERY_REGION_UP_TO: usize = 300;

/// A side's colour; grey for a side not in `sides`.
pub(super) fn side_colour(sides: &[Side], side: &SideId) -> Colour {
    sides
        .iter()
        .find(|s| &s.id == side)
        .map_or(Colour([128, 128, 128]), |s| s.colour)
}

/// A side's colour as CSS; grey for a side not in `sides`.
pub(super) fn colour_css(sides: &[Side], side: &SideId) -> String {
    side_colour(sides, side).to_string()
}

/// A side's name, escaped; its id for a side not in `sides`.
pub(super) fn side_name(sides: &[Side], side: &SideId) -> String {
    escape(
        sides
            .iter()
            .find(|s| &s.id == side)
            .map_or(side.as_str(), |s| s.name.as_str()),
    )
}

/// A colour washed out towards grey: a force remembered, not seen now (the
/// window's `ui::text::remembered`).
pub(super) fn remembered(colour: Colour) -> Colour {
    let grey = |c: u8| u8::try_from((u16::from(c) + 2 * 150) / 3).unwrap_or(150);
    let [r, g, b] = colour.0;
    Colour([grey(r), grey(g), grey(b)])
}

/// A place on the map: a region, or part-way along a road out of it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Place {
    pub region: RegionId,
    pub en_route: Option<EnRoute>,
}

/// One counter to draw. Texts other than `text` are HTML, escaped already.
#[derive(Debug, Clone)]
pub(super) struct Counter {
    pub at: Place,
    /// What it stands for (plain text), in its `data-force` attribute: a
    /// force's id, or `blind 3`.
    pub key: String,
    pub fill: String,
    pub edge: String,
    pub edge_width: f64,
    /// On the counter (plain text; escaped when drawn): points, or `?3`.
    pub text: String,
    pub ink: String,
    /// Beside it, where there is room.
    pub label: String,
    /// After the label, or alone when the label finds no room.
    pub note: Option<String>,
    pub title: String,
}

/// A battle ringed: dashed while pending, solid once fought; a link when
/// the page has the battle's section.
#[derive(Debug, Clone)]
pub(super) struct Ring {
    pub region: RegionId,
    pub label: String,
    pub title: String,
    pub pending: bool,
    pub href: Option<String>,
}

/// A march: a line in the force's side's colour through `through`, with an
/// arrowhead at its end; dashed for a train or steamer.
#[derive(Debug, Clone)]
pub(super) struct Arrow {
    pub through: Vec<Place>,
    pub colour: Colour,
    pub carried: bool,
    pub title: String,
}

/// A force's supply road: from its region to the HQ it is supplied from, in
/// its side's colour (CSS), or, when cut, the shortest road home, dashed
/// red, with a cross on each region in `cuts` (`strategy::forecast::SupplyLine`).
#[derive(Debug, Clone)]
pub(super) struct SupplyRoad {
    pub route: Vec<RegionId>,
    pub supplied: bool,
    pub cuts: Vec<RegionId>,
    pub colour: String,
}

/// What a map shows: the public map and HQs, and what the page's reader may
/// see of forces, battles, marches and supply roads.
#[derive(Debug, Clone)]
pub(super) struct Scene<'a> {
    pub map: &'a Map,
    pub sides: &'a [Side],
    pub hqs: &'a [Hq],
    pub counters: Vec<Counter>,
    pub rings: Vec<Ring>,
    pub arrows: Vec<Arrow>,
    pub supply: Vec<SupplyRoad>,
    /// The map's name for screen readers (plain text).
    pub label: String,
}

/// How map miles become SVG units.
struct Frame {
    left: f64,
    top: f64,
    scale: f64,
    width: f64,
    height: f64,
}

impl Frame {
    fn of(map: &Map) -> Frame {
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        let mut xs = map.regions.iter().map(|r| finite(r.x));
        let first = xs.next().unwrap_or(0.0);
        let (min_x, max_x) = xs.fold((first, first), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let mut ys = map.regions.iter().map(|r| finite(r.y));
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
fn places(map: &Map, frame: &Frame) -> HashMap<RegionId, (f64, f64)> {
    map.regions
        .iter()
        .map(|r| (r.id.clone(), frame.at(r.x, r.y)))
        .collect()
}

/// A place part-way along the road from `region` toward `en_route.toward`.
fn place_of(map: &Map, places: &HashMap<RegionId, (f64, f64)>, place: &Place) -> Option<(f64, f64)> {
    let at = *places.get(&place.region)?;
    let Some(e) = &place.en_route else {
        return Some(at);
    };
    let Some(&to) = places.get(&e.toward) else {
        return Some(at);
    };
    let length = map
        .roads_from(&place.region)
        .find(|r| r.other_end(&place.region) == Some(&e.toward))
        .map_or(1.0, |r| r.miles.max(0.1));
    let t = (e.miles / length).clamp(0.0, 1.0);
    let t = if t.is_finite() { t } else { 0.0 };
    Some((at.0 + (to.0 - at.0) * t, at.1 + (to.1 - at.1) * t))
}

/// The scene as one `<svg>` element.
pub(super) fn map_svg(scene: &Scene<'_>) -> String {
    let map = scene.map;
    let frame = Frame::of(map);
    let places = places(map, &frame);
    let mut svg = String::with_capacity(32 * 1024);
    let _ = writeln!(
        svg,
        "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"{label}\">",
        w = frame.width,
        h = frame.height,
        label = escape(&scene.label)
    );
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{:.0}\" height=\"{:.0}\" fill=\"{MAP_GROUND}\"/>",
        frame.width, frame.height
    );

    // Waters and the regions' territories, under everything.
    svg.push_str(&land_svg(map, &frame));
    svg.push_str(&roads_svg(map, &places));
    svg.push_str(&supply_svg(scene, &places));
    svg.push_str(&arrows_svg(scene, &places));

    // Battles: a ring round the region, its name above, over the counters.
    let mut taken = Taken::default();
    let mut battles_svg = String::new();
    for ring in &scene.rings {
        let Some(&(x, y)) = places.get(&ring.region) else {
            continue;
        };
        let dash = if ring.pending {
            " stroke-dasharray=\"6 3\""
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"24\" fill=\"none\" stroke=\"{BATTLE}\" stroke-width=\"3\"{dash}><title>{}</title></circle>",
            ring.title
        );
        let (tx, ty) = (x - 30.0, y - 10.0);
        taken.take(text_box(&ring.label, tx, ty, 12.0, Anchor::End));
        let text = format!(
            "<text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\" font-size=\"12\" font-weight=\"bold\" fill=\"{BATTLE}\" class=\"lbl\">{}</text>",
            escape(&ring.label)
        );
        match &ring.href {
            Some(href) => {
                let _ = writeln!(battles_svg, "<a href=\"{}\">{text}</a>", escape(href));
            }
            None => {
                let _ = writeln!(battles_svg, "{text}");
            }
        }
    }

    // Region centres, under the flags and counters.
    for r in &map.regions {
        let (x, y) = frame.at(r.x, r.y);
        let _ = writeln!(
            svg,
            "<circle data-region=\"{}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{REGION_DOT}\"><title>{} ({})</title></circle>",
            escape(r.id.as_str()),
            escape(&r.name),
            escape(r.id.as_str())
        );
    }
    svg.push_str(&flags_svg(scene, &places));

    // Each counter beside its place, moved down past the counters already
    // there (a stack, or a near place's), so none hides another.
    let boxes: Vec<Option<(f64, f64)>> = scene
        .counters
        .iter()
        .map(|c| {
            let at = place_of(map, &places, &c.at)?;
            // Right of the place, then left of it, a row lower each time.
            let top = at.1 - COUNTER_H - 4.0;
            let (right, left) = (at.0 + 7.0, at.0 - 7.0 - COUNTER_W);
            let mut spots = (0..8u32).flat_map(|row| {
                let y = top + f64::from(row) * (COUNTER_H + 4.0);
                [(right, y), (left, y)]
            });
            let (x, y) = spots
                .find(|&(x, y)| x >= 0.0 && taken.is_free((x, y, x + COUNTER_W, y + COUNTER_H)))
                .unwrap_or((right, top));
            taken.take((x - 1.0, y - 1.0, x + COUNTER_W + 1.0, y + COUNTER_H + 1.0));
            Some((x, y))
        })
        .collect();
    let placed = || {
        scene
            .counters
            .iter()
            .zip(&boxes)
            .filter_map(|(c, b)| b.map(|b| (c, b)))
    };
    let mut counters_svg = String::new();
    for (c, (x, y)) in placed() {
        let _ = writeln!(
            counters_svg,
            "<g data-force=\"{key}\"><title>{title}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{COUNTER_W}\" height=\"{COUNTER_H}\" fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{ew}\"/>\
             <text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"{ink}\">{text}</text></g>",
            key = escape(&c.key),
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
    let busy: HashSet<&RegionId> = scene
        .counters
        .iter()
        .map(|c| &c.at.region)
        .chain(scene.hqs.iter().map(|h| &h.region))
        .chain(scene.rings.iter().map(|r| &r.region))
        .collect();
    let mut names_svg = String::new();
    let name_all = map.regions.len() <= NAME_EVERY_REGION_UP_TO;
    let name_regions = |first: bool, taken: &mut Taken, names_svg: &mut String| {
        for r in &map.regions {
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
    let mut labels_svg = String::new();
    for (c, (x, y)) in placed() {
        // Its name beside it where there is room; the note alone when not.
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

/// The map's waters and each region's territory ([`shapes::region_outlines`]):
/// lakes and the sea filled with their coast drawn, the territories in their
/// terrain's colour with a thin border, then rivers and canals over them.
fn land_svg(map: &Map, frame: &Frame) -> String {
    let mut svg = String::new();
    let path = |svg: &mut String, rings: &mut dyn Iterator<Item = &[MapPoint]>| {
        for ring in rings {
            for (k, p) in ring.iter().enumerate() {
                let (x, y) = frame.at(p[0], p[1]);
                let _ = write!(svg, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
            svg.push('Z');
        }
    };
    let areas: Vec<&Water> = map.waters.iter().filter(|w| w.kind.is_area()).collect();
    if !areas.is_empty() {
        let _ = writeln!(
            svg,
            "<g class=\"water\" fill=\"{WATER}\" stroke=\"{COAST}\" stroke-width=\"1.5\" stroke-linejoin=\"round\">"
        );
        for w in areas {
            svg.push_str("<path d=\"");
            path(&mut svg, &mut std::iter::once(w.points.as_slice()));
            svg.push('"');
            water_title(&mut svg, w);
        }
        svg.push_str("</g>\n");
    }
    let _ = writeln!(
        svg,
        "<g class=\"territories\" fill-rule=\"evenodd\" fill-opacity=\"0.75\" stroke=\"{BORDER}\" stroke-width=\"0.8\" stroke-opacity=\"0.6\" stroke-linejoin=\"round\">"
    );
    for (r, outline) in map.regions.iter().zip(shapes::region_outlines(map)) {
        if outline.rings.is_empty() {
            continue;
        }
        svg.push_str("<path d=\"");
        path(&mut svg, &mut outline.rings.iter().map(Vec::as_slice));
        let _ = writeln!(svg, "\" fill=\"{}\"/>", terrain_colour(r.terrain));
    }
    svg.push_str("</g>\n");
    let lines: Vec<&Water> = map.waters.iter().filter(|w| !w.kind.is_area()).collect();
    if !lines.is_empty() {
        let _ = writeln!(
            svg,
            "<g class=\"water\" fill=\"none\" stroke=\"{RIVER}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
        );
        for w in lines {
            let width = if w.kind == WaterKind::River { 3.0 } else { 2.0 };
            let _ = write!(svg, "<path stroke-width=\"{width}\" d=\"");
            for (k, p) in w.points.iter().enumerate() {
                let (x, y) = frame.at(p[0], p[1]);
                let _ = write!(svg, "{}{x:.1} {y:.1}", if k == 0 { "M" } else { "L" });
            }
            svg.push('"');
            water_title(&mut svg, w);
        }
        svg.push_str("</g>\n");
    }
    svg
}

/// Ends a water's `<path`: its name as a title, when it has one.
fn water_title(svg: &mut String, water: &Water) {
    match &water.name {
        Some(name) => {
            let _ = writeln!(svg, "><title>{}</title></path>", escape(name));
        }
        None => svg.push_str("/>\n"),
    }
}

/// Roads by kind: roads solid, tracks dashed, railways with sleepers, rivers
/// blue and broad; bridges, fords and crossings refused marked halfway.
fn roads_svg(map: &Map, places: &HashMap<RegionId, (f64, f64)>) -> String {
    let mut svg = String::from("<g fill=\"none\" stroke-linecap=\"round\">\n");
    for road in &map.roads {
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
    svg
}

/// The marches: a line through each arrow's places with a head at its end,
/// one marker per colour.
/// The supply roads: each road of them once, broad and pale in the side's
/// colour, dashed red where cut, and a red cross on each region cutting one.
fn supply_svg(scene: &Scene<'_>, places: &HashMap<RegionId, (f64, f64)>) -> String {
    if scene.supply.is_empty() {
        return String::new();
    }
    let mut drawn = std::collections::HashSet::new();
    let mut svg = String::from("<g class=\"supply\" fill=\"none\" stroke-linecap=\"round\">\n");
    for road in &scene.supply {
        for pair in road.route.windows(2) {
            let [a, b] = pair else { continue };
            let key = if a <= b {
                (a, b, road.supplied)
            } else {
                (b, a, road.supplied)
            };
            if !drawn.insert(key) {
                continue;
            }
            let (Some(&(x1, y1)), Some(&(x2, y2))) = (places.get(a), places.get(b)) else {
                continue;
            };
            let (stroke, extra) = if road.supplied {
                (road.colour.as_str(), "")
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
    for road in scene.supply.iter().filter(|r| !r.supplied) {
        for region in &road.cuts {
            let Some(&(x, y)) = places.get(region).filter(|_| crossed.insert(region)) else {
                continue;
            };
            let _ = writeln!(
                svg,
                "<path d=\"M{:.1} {:.1}l12 12m0 -12l-12 12\" stroke=\"{CUT_OFF}\" stroke-width=\"3\"><title>Supply cut at {}</title></path>",
                x - 6.0,
                y - 6.0,
                escape(scene.map.region_name(region))
            );
        }
    }
    svg.push_str("</g>\n");
    svg
}

fn arrows_svg(scene: &Scene<'_>, places: &HashMap<RegionId, (f64, f64)>) -> String {
    if scene.arrows.is_empty() {
        return String::new();
    }
    let mut colours: Vec<Colour> = scene.arrows.iter().map(|a| a.colour).collect();
    colours.sort_by_key(|c| c.0);
    colours.dedup();
    let mut svg = String::from("<defs>");
    for c in &colours {
        let [r, g, b] = c.0;
        let _ = write!(
            svg,
            "<marker id=\"head{r:02x}{g:02x}{b:02x}\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"{c}\"/></marker>"
        );
    }
    svg.push_str("</defs>\n<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n");
    for arrow in &scene.arrows {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for p in arrow
            .through
            .iter()
            .filter_map(|p| place_of(scene.map, places, p))
        {
            if points.last() != Some(&p) {
                points.push(p);
            }
        }
        if points.len() < 2 {
            continue;
        }
        let d: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let [r, g, b] = arrow.colour.0;
        // A pale casing under the line, so it shows over roads and railways.
        let _ = writeln!(
            svg,
            "<g class=\"march\"><title>{}</title><polyline points=\"{points}\" stroke=\"#fffdf6\" stroke-width=\"10\" stroke-opacity=\"0.75\"/>\
             <polyline points=\"{points}\" stroke=\"{}\" stroke-width=\"6\"{} marker-end=\"url(#head{r:02x}{g:02x}{b:02x})\"/></g>",
            arrow.title,
            arrow.colour,
            if arrow.carried {
                " stroke-dasharray=\"9 5\""
            } else {
                ""
            },
            points = d.join(" "),
        );
    }
    svg.push_str("</g>\n");
    svg
}

/// HQ flags in the holder's colour, edged in the owner's (thick when taken).
fn flags_svg(scene: &Scene<'_>, places: &HashMap<RegionId, (f64, f64)>) -> String {
    let mut svg = String::new();
    for hq in scene.hqs {
        let Some(&(x, y)) = places.get(&hq.region) else {
            continue;
        };
        let size = 11.0;
        let bx = x - size * 0.9;
        let top = y - size * 1.9;
        let captured = hq.held_by != hq.side;
        let owner = side_name(scene.sides, &hq.side);
        let title = format!(
            "{} at {}: {}'s HQ, held by {}",
            escape(&hq.label(&owner)),
            escape(scene.map.region_name(&hq.region)),
            owner,
            side_name(scene.sides, &hq.held_by)
        );
        let _ = writeln!(
            svg,
            "<g><title>{title}</title><line x1=\"{bx:.1}\" y1=\"{y:.1}\" x2=\"{bx:.1}\" y2=\"{top:.1}\" stroke=\"{FLAGPOLE}\" stroke-width=\"1.8\"/>\
             <path d=\"M{bx:.1} {top:.1}l{:.1} {:.1}l{:.1} {:.1}z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/></g>",
            size * 1.2,
            size * 0.4,
            -size * 1.2,
            size * 0.4,
            colour_css(scene.sides, &hq.held_by),
            colour_css(scene.sides, &hq.side),
            if captured { 2.5 } else { 1.0 }
        );
    }
    svg
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
