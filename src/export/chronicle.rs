//! The campaign's chronicle: its after-action report as one HTML page, what
//! `umpire chronicle SAVE OUT.html [--side SIDE]` writes.
//!
//! Built from the campaign as it stood after each change still standing in
//! the log (the states the checkpoints keep) and the log's typed events: for
//! each game move a map with the marches as arrows and the battles ringed,
//! the battles met and fought (linked to their entries), losses by cause,
//! HQs changing hands, the umpire's edits and rulings, and the move's log;
//! charts of strength, losses and HQs held over the game moves
//! ([`Timeline`]); the battles with their packs and results; each force's
//! service record.
//!
//! For a side, each game move is what the side knew then: its map is drawn
//! from the side's [`Report`] on that state (its own forces, the enemy as it
//! knew them, the public map and HQs), its words are the events it heard
//! ([`heard_by`], as its report tells them), its losses the ones it heard of,
//! its battles the ones it fought, its service records its own forces'. Once
//! the campaign has ended, a side's chronicle tells everything.

use super::charts::{self, Series, dash};
use super::escape;
use super::map_svg::{self, Arrow, COUNTER_EDGE, CUT_OFF, Counter, Place, Ring, Scene};
use super::report_page::{self, plural};
use crate::model::event::{Edit, Event, EventKind};
use crate::model::history::History;
use crate::model::report::{Report, heard_by};
use crate::model::timeline::{Cause, Timeline, stands_lost};
use crate::model::{
    Battle, BattleStatus, Campaign, Conveyance, ForceId, ResultSource, SideId, StandingOrder,
};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

/// One game move of the chronicle: the move and the battle results and
/// edits made after it, before the next.
struct Chapter<'a> {
    /// The game move; `None`: the start, and what was done before the first move.
    turn: Option<u32>,
    /// The campaign when the chapter began (the chapter before's end).
    before: Option<&'a Campaign>,
    /// The campaign when it ended.
    after: &'a Campaign,
    /// Indexes in the log of the events its changes made, in order.
    made: Vec<usize>,
}

/// A chapter as its reader sees it.
struct Told<'a> {
    chapter: Chapter<'a>,
    /// The events the reader knows of, by index in the log, with their
    /// sentences as told to it.
    events: Vec<(usize, String)>,
    /// A side's report on the chapter's end: what the side knew then.
    report: Option<Report>,
}

impl Told<'_> {
    /// The game move on the charts' axis: the start is the first move less one.
    fn x(&self) -> u32 {
        self.chapter
            .turn
            .unwrap_or_else(|| self.chapter.after.start_turn.saturating_sub(1))
    }
}

/// What every part of the page reads.
struct Book<'a> {
    /// The campaign now.
    now: &'a Campaign,
    /// The chapters as the reader sees them.
    told: Vec<Told<'a>>,
    log: &'a [Event],
    /// The battles the page tells of: every one for the umpire, a side's own.
    battles: BTreeSet<u32>,
    /// Strength and losses over the game moves; for a side, the losses it heard of.
    timeline: Timeline,
    /// The side whose chronicle it is; `None`: the umpire's, everything.
    viewer: Option<&'a SideId>,
    /// The umpire's own chronicle (no side asked for, ended or not): only it
    /// names the folders on the umpire's machine.
    umpire: bool,
}

/// The chronicle of the campaign as one self-contained page.
///
/// `states` holds the campaign after each change still standing in `log`
/// (the start, game moves, battle results, edits), each with the index in
/// `log` of its `campaign_created` or checkpoint event, oldest first; the
/// last is the campaign now. `log` is the save's whole event log. With
/// `side`, only what that side knew at each game move, unless the campaign
/// has ended; a side the campaign does not have gets a page with nothing of
/// the campaign's forces on it.
pub fn chronicle_page(states: &[(usize, Campaign)], log: &[Event], side: Option<&SideId>) -> String {
    let Some((_, now)) = states.last() else {
        return empty_page("The save keeps no state to tell the campaign from.");
    };
    let ended = now.end.ended.is_some();
    let viewer = side.filter(|_| !ended);
    if let Some(s) = viewer
        && now.side(s).is_none()
    {
        return empty_page(&format!("The campaign has no side `{}`.", s.as_str()));
    }
    let history = History::of(log);
    let told: Vec<Told<'_>> = chapters(&history, states)
        .into_iter()
        .map(|chapter| tell(chapter, log, viewer))
        .collect();
    let heard: HashSet<usize> = told
        .iter()
        .flat_map(|t| t.events.iter().map(|(i, _)| *i))
        .collect();
    let timeline = match viewer {
        None => Timeline::of(now, log),
        Some(_) => Timeline::counting(now, log, |i| heard.contains(&i)),
    };
    // The battles the page tells of: every one for the umpire, a side's own.
    let heard_kinds = told
        .iter()
        .flat_map(|t| t.events.iter())
        .filter_map(|(i, _)| log.get(*i))
        .map(|e| &e.kind);
    let battles = battles_told(&now.battles, heard_kinds, viewer);

    let book = Book {
        now,
        told,
        log,
        battles,
        timeline,
        viewer,
        umpire: side.is_none(),
    };
    let told = &book.told;
    let mut page = String::with_capacity(256 * 1024);
    let campaign = escape(&now.title);
    let whose = match (side, viewer) {
        (_, Some(s)) => format!(
            "As <b>{}</b> knew it at each game move: its own forces, the enemy as it saw them, what it heard.",
            map_svg::side_name(&now.sides, s)
        ),
        (Some(_), None) => "The campaign has ended: everything is told, to every side.".to_owned(),
        (None, None) => "The umpire's chronicle: everything that happened.".to_owned(),
    };
    let last = told.last().map_or(now.turn, Told::x);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{campaign}: the chronicle</title>\n<style>{}{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{campaign}: the chronicle</h1>\n<p class=\"sub\">{whose} Game moves {} to {last}, from {}.</p>\n",
        report_page::STYLE,
        now.start_turn,
        now.start_date,
    );
    if ended
        && let Some(e) = log
            .iter()
            .enumerate()
            .rev()
            .find(|(i, e)| matches!(e.kind, EventKind::CampaignEnded(_)) && !history.is_undone(*i))
            .map(|(_, e)| e)
    {
        let _ = writeln!(page, "<p class=\"ended\">{}</p>", escape(&e.sentence));
    }
    page.push_str("</header>\n<nav><a href=\"#charts\">Charts</a> · Game moves:");
    for t in told {
        let _ = write!(
            page,
            " <a href=\"#{}\">{}</a>",
            anchor(t),
            t.chapter.turn.map_or("start".to_owned(), |n| n.to_string())
        );
    }
    page.push_str(" · <a href=\"#battles\">Battles</a> · <a href=\"#forces\">Service records</a></nav>\n");

    page.push_str(&charts_section(&book));
    page.push_str("<section id=\"moves\">\n");
    for t in told {
        page.push_str(&chapter_section(t, &book));
    }
    page.push_str("</section>\n");
    page.push_str(&battles_section(&book));
    page.push_str(&forces_section(&book));
    page.push_str(match viewer {
        Some(_) => "<footer>Written by umpire from the side's reports at each game move: it holds only what this side knew.</footer>\n",
        None => "<footer>Written by umpire from the save's event log and the states it keeps.</footer>\n",
    });
    page.push_str("</body>\n</html>\n");
    page
}

const STYLE: &str = "
nav{margin:8px 0;font-size:.95em;line-height:1.8}nav a{margin-right:2px}
svg.chart{width:100%;max-width:840px;height:auto;display:block;background:#fffdf6;border:1px solid #c8b88f;margin:6px 0 14px}
article svg.map{width:auto;max-width:100%;max-height:82vh;min-width:0;margin:0 auto}
@media (max-width:700px){article svg.map{width:100%;max-width:none;max-height:none;min-width:640px}}
article{border-top:1px solid #c8b88f;margin-top:22px}
ul.told{padding-left:1.2em;margin:4px 0}
details{margin:6px 0}summary{cursor:pointer;color:#5a4a2a}
";

fn empty_page(why: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Chronicle</title>\n</head>\n<body>\n<p>{}</p>\n</body>\n</html>\n",
        escape(why)
    )
}

/// The chapters: one for the start and one for each game move still
/// standing, each with the results and edits made after it.
fn chapters<'a>(history: &History, states: &'a [(usize, Campaign)]) -> Vec<Chapter<'a>> {
    let by_at: HashMap<usize, &Campaign> = states.iter().map(|(at, c)| (*at, c)).collect();
    let mut chapters: Vec<Chapter<'a>> = Vec::new();
    for change in &history.standing {
        let Some(state) = by_at.get(&change.at).copied() else {
            continue;
        };
        let game_move = change.start || (change.battle.is_none() && !change.edit);
        match chapters.last_mut() {
            Some(last) if !game_move => {
                last.after = state;
                last.made.extend(change.made.iter().copied());
            }
            _ => {
                let before = chapters.last().map(|c| c.after);
                chapters.push(Chapter {
                    turn: (!change.start).then_some(change.turn),
                    before,
                    after: state,
                    made: change.made.clone(),
                });
            }
        }
    }
    chapters
}

/// The chapter as `viewer` sees it: every event for the umpire; for a side,
/// the events it heard, as it heard them, and its report on the chapter's end.
fn tell<'a>(chapter: Chapter<'a>, log: &[Event], viewer: Option<&SideId>) -> Told<'a> {
    let made: Vec<(usize, &Event)> = chapter
        .made
        .iter()
        .filter_map(|i| log.get(*i).map(|e| (*i, e)))
        .filter(|(_, e)| !e.kind.is_bookkeeping())
        .collect();
    let Some(side) = viewer else {
        let events = made.iter().map(|(i, e)| (*i, e.sentence.clone())).collect();
        return Told {
            chapter,
            events,
            report: None,
        };
    };
    let events: Vec<&Event> = made.iter().map(|(_, e)| *e).collect();
    let index: HashMap<(u32, u32), usize> = made.iter().map(|(i, e)| ((e.turn, e.seq), *i)).collect();
    let events = heard_by(chapter.after, side, log, &events)
        .into_iter()
        .filter_map(|h| index.get(&(h.turn, h.seq)).map(|i| (*i, h.sentence)))
        .collect();
    let report = Report::of(chapter.after, side, log);
    Told {
        chapter,
        events,
        report,
    }
}

/// The chapter's anchor: `start` or `move-N`.
fn anchor(t: &Told<'_>) -> String {
    t.chapter
        .turn
        .map_or_else(|| "start".to_owned(), |n| format!("move-{n}"))
}

fn heading(t: &Told<'_>) -> String {
    let campaign = t.chapter.after;
    match t.chapter.turn {
        None => format!("The start, {}", campaign.start_date),
        Some(n) => match campaign.date_of_turn(n) {
            Some(date) => format!("Game move {n}, {date}"),
            None => format!("Game move {n}"),
        },
    }
}

// -- Charts -------------------------------------------------------------------

/// The last value the timeline has for each game move, by side.
fn by_move(timeline: &Timeline) -> Vec<(u32, &crate::model::timeline::Moment)> {
    let mut moments: Vec<(u32, &crate::model::timeline::Moment)> = Vec::new();
    for m in &timeline.moments {
        match moments.last_mut() {
            Some(last) if last.0 == m.turn => *last = (m.turn, m),
            _ => moments.push((m.turn, m)),
        }
    }
    moments
}

fn charts_section(book: &Book<'_>) -> String {
    let (now, told, timeline, viewer) = (book.now, &book.told, &book.timeline, book.viewer);
    let mut out = String::from("<section id=\"charts\">\n<h2>Strength and losses over the game moves</h2>\n");
    let moments = by_move(timeline);
    let shown: Vec<(usize, &crate::model::Side)> = now
        .sides
        .iter()
        .enumerate()
        .filter(|(_, s)| viewer.is_none_or(|v| v == &s.id))
        .collect();
    // Strength: each side's (a side sees its own), and for a side the enemy as it knew it.
    let mut strength: Vec<Series> = shown
        .iter()
        .map(|(i, s)| Series {
            name: s.name.clone(),
            colour: s.colour.to_string(),
            dash: dash(0),
            points: moments
                .iter()
                .filter_map(|(turn, m)| m.sides.get(*i).map(|t| (f64::from(*turn), t.points as f64)))
                .collect(),
        })
        .collect();
    if let Some(me) = viewer {
        for (n, enemy) in now.sides.iter().filter(|s| &s.id != me).enumerate() {
            let points = told
                .iter()
                .filter_map(|t| {
                    let report = t.report.as_ref()?;
                    let seen: u64 = report
                        .known
                        .iter()
                        .filter(|k| k.side == enemy.id)
                        .filter_map(|k| k.points)
                        .sum();
                    Some((f64::from(t.x()), seen as f64))
                })
                .collect();
            strength.push(Series {
                name: format!("{}, as seen", enemy.name),
                colour: enemy.colour.to_string(),
                dash: dash(1 + n),
                points,
            });
        }
    }
    out.push_str("<h3>Strength in roster points after each game move</h3>\n");
    out.push_str(&charts::line_chart(
        "Strength in roster points after each game move",
        "game move (0: the start)",
        "roster points",
        &strength,
    ));

    // Losses: stands lost, a running total by side and cause.
    let x_all: Vec<u32> = told.iter().map(Told::x).collect();
    let mut losses = Vec::new();
    for (i, s) in now.sides.iter().enumerate() {
        for (c, cause) in Cause::ALL.iter().enumerate() {
            let of = |turn: u32| -> usize {
                timeline
                    .losses
                    .iter()
                    .filter(|l| l.side == i && l.cause == *cause && l.turn <= turn)
                    .map(|l| l.stands)
                    .sum()
            };
            if x_all.last().is_none_or(|t| of(*t) == 0) {
                continue;
            }
            losses.push(Series {
                name: format!("{}: {}", s.name, cause.label()),
                colour: s.colour.to_string(),
                dash: dash(c),
                points: x_all.iter().map(|t| (f64::from(*t), of(*t) as f64)).collect(),
            });
        }
    }
    out.push_str("<h3>Stands lost, running total by side and cause</h3>\n");
    if losses.is_empty() {
        out.push_str("<p>No stand lost yet.</p>\n");
    } else {
        out.push_str(&charts::line_chart(
            "Stands lost, running total by side and cause",
            "game move (0: the start)",
            "stands lost",
            &losses,
        ));
    }
    if viewer.is_some() {
        out.push_str(
            "<p class=\"key\">The enemy's strength is that of its forces this side had seen in full, as last seen; \
             its losses are those of the battles this side fought.</p>\n",
        );
    }

    // HQs held: public, every side.
    let hqs: Vec<Series> = now
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| Series {
            name: s.name.clone(),
            colour: s.colour.to_string(),
            dash: dash(i),
            points: moments
                .iter()
                .filter_map(|(turn, m)| m.sides.get(i).map(|t| (f64::from(*turn), t.hqs_held as f64)))
                .collect(),
        })
        .collect();
    out.push_str("<h3>HQs held</h3>\n");
    out.push_str(&charts::line_chart(
        "HQs held after each game move",
        "game move (0: the start)",
        "HQs held",
        &hqs,
    ));
    out.push_str("</section>\n");
    out
}

// -- A game move ----------------------------------------------------------------

fn chapter_section(t: &Told<'_>, book: &Book<'_>) -> String {
    let (log, timeline) = (book.log, &book.timeline);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<article id=\"{}\">\n<h2>{}</h2>",
        anchor(t),
        escape(&heading(t))
    );
    let kinds: Vec<(&EventKind, &str)> = t
        .events
        .iter()
        .filter_map(|(i, s)| log.get(*i).map(|e| (&e.kind, s.as_str())))
        .collect();
    let marches = kinds
        .iter()
        .filter(|(k, _)| matches!(k, EventKind::Moved(_)))
        .count();
    let scene = scene(t, book);
    out.push_str("<div class=\"mapbox\">\n");
    out.push_str(&map_svg::map_svg(&scene));
    out.push_str("</div>\n");
    let _ = writeln!(
        out,
        "<p class=\"key\">{}; arrows: marches (dashed by train or steamer); rings: battles (dashed while pending); flags: HQs in the holder's colour.</p>",
        plural(marches, "march", "marches")
    );

    // Battles met and fought, each linked to its entry.
    let battle_lines: Vec<String> = kinds
        .iter()
        .filter(|(k, _)| {
            matches!(
                k,
                EventKind::BattleCreated(_)
                    | EventKind::BattleJoined(_)
                    | EventKind::BattleCalledOff(_)
                    | EventKind::BattleFought(_)
            )
        })
        .map(|(k, s)| match k.battle().filter(|b| book.battles.contains(b)) {
            Some(b) => format!("{} <a href=\"#battle-{b}\">Battle {b}</a>", escape(s)),
            None => escape(s),
        })
        .collect();
    list(&mut out, "Battles", &battle_lines);

    // Losses by cause.
    let turn = t.x();
    let sides = &t.chapter.after.sides;
    let rows: Vec<String> = sides
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let cells: Vec<String> = Cause::ALL
                .iter()
                .map(|c| {
                    let (stands, points) = timeline
                        .losses
                        .iter()
                        .filter(|l| l.turn == turn && l.side == i && l.cause == *c)
                        .fold((0, 0), |(n, p), l| (n + l.stands, p + l.points));
                    (stands, points)
                })
                .map(|(n, p)| match (n, p) {
                    (0, 0) => "<td class=\"n pale\">–</td>".to_owned(),
                    // Strength lost in battle by stands that stayed.
                    (0, p) => format!("<td class=\"n\">{p} points</td>"),
                    (n, p) => format!(
                        "<td class=\"n\">{} ({p} points)</td>",
                        plural(n, "stand", "stands")
                    ),
                })
                .collect();
            cells.iter().any(|c| !c.contains("pale")).then(|| {
                format!(
                    "<tr><td><span class=\"chip\" style=\"background:{}\"></span>{}</td>{}</tr>",
                    s.colour,
                    escape(&s.name),
                    cells.join("")
                )
            })
        })
        .collect();
    if !rows.is_empty() {
        out.push_str("<h3>Losses by cause</h3>\n<table><tr><th>Side</th>");
        for c in Cause::ALL {
            let _ = write!(out, "<th>{}</th>", c.label());
        }
        out.push_str("</tr>\n");
        out.push_str(&rows.join("\n"));
        out.push_str("\n</table>\n");
    }

    let hqs: Vec<String> = kinds
        .iter()
        .filter(|(k, _)| match k {
            EventKind::HqCaptured(_) | EventKind::HqRetaken(_) => true,
            EventKind::Edited(e) => matches!(e.edit, Edit::HandOverHq { .. }),
            _ => false,
        })
        .map(|(_, s)| escape(s))
        .collect();
    list(&mut out, "HQs changing hands", &hqs);
    let rulings: Vec<String> = kinds
        .iter()
        .filter(|(k, _)| matches!(k, EventKind::Edited(_)))
        .map(|(_, s)| escape(s))
        .collect();
    list(&mut out, "The umpire's rulings and edits", &rulings);
    for (k, s) in &kinds {
        if matches!(k, EventKind::CampaignEnded(_)) {
            let _ = writeln!(out, "<p class=\"ended\">{}</p>", escape(s));
        }
    }
    let _ = writeln!(
        out,
        "<details><summary>The log of this game move: {}</summary>\n<ol class=\"events\">",
        plural(t.events.len(), "event", "events")
    );
    for (_, s) in &t.events {
        let _ = writeln!(out, "<li>{}</li>", escape(s));
    }
    out.push_str("</ol></details>\n</article>\n");
    out
}

/// A titled list, left out when empty; `items` are HTML.
fn list(out: &mut String, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h3>{title}</h3>\n<ul class=\"told\">");
    for item in items {
        let _ = writeln!(out, "<li>{item}</li>");
    }
    out.push_str("</ul>\n");
}

/// The chapter's map: for a side, its report's map; for the umpire, every
/// force; with the marches the reader knows of and the battles it fought.
fn scene<'a>(t: &'a Told<'_>, book: &Book<'_>) -> Scene<'a> {
    let (log, battles, viewer) = (book.log, &book.battles, book.viewer);
    let after = t.chapter.after;
    let link = |id: u32| battles.contains(&id).then(|| format!("#battle-{id}"));
    let mut scene = match (&t.report, viewer) {
        (Some(report), Some(_)) => {
            let mut scene = report_page::scene(report);
            // The chronicle's maps are of the marches: no supply roads.
            scene.supply.clear();
            scene.label = format!("Map of what {} knew, {}", report.side_name, heading(t));
            for ring in &mut scene.rings {
                ring.href = ring
                    .label
                    .strip_prefix("Battle ")
                    .and_then(|n| n.parse().ok())
                    .and_then(link);
            }
            scene
        }
        _ => Scene {
            map: &after.map,
            sides: &after.sides,
            hqs: &after.hqs,
            counters: if viewer.is_some() {
                Vec::new()
            } else {
                after.forces.iter().map(|f| counter(after, f)).collect()
            },
            rings: after
                .battles
                .iter()
                .filter(|b| b.status == BattleStatus::Pending && viewer.is_none())
                .map(|b| ring(after, b, link(b.id)))
                .collect(),
            arrows: Vec::new(),
            supply: Vec::new(),
            label: format!("Map of the campaign, {}", heading(t)),
        },
    };
    // Battles fought in this game move, solid rings.
    for (i, _) in &t.events {
        if let Some(Event {
            kind: EventKind::BattleFought(f),
            ..
        }) = log.get(*i)
            && let Some(b) = after.battles.iter().find(|b| b.id == f.battle)
            && !scene.rings.iter().any(|r| r.region == b.region)
        {
            scene.rings.push(ring(after, b, link(b.id)));
        }
    }
    scene.arrows = t
        .events
        .iter()
        .filter_map(|(i, sentence)| match log.get(*i).map(|e| &e.kind) {
            Some(EventKind::Moved(m)) => Some(arrow(&t.chapter, m, sentence)),
            _ => None,
        })
        .collect();
    scene
}

/// A force on the umpire's map: its side's colour, its points, its name.
fn counter(campaign: &Campaign, f: &crate::model::Force) -> Counter {
    let cut = f.supply.cut_moves > 0;
    Counter {
        at: Place {
            region: f.region.clone(),
            en_route: f.en_route.clone(),
        },
        key: f.id.as_str().to_owned(),
        fill: map_svg::colour_css(&campaign.sides, &f.side),
        edge: if cut { CUT_OFF } else { COUNTER_EDGE }.to_owned(),
        edge_width: if cut { 3.0 } else { 1.0 },
        text: f.points().to_string(),
        ink: "#ffffff".to_owned(),
        label: escape(&f.name),
        note: cut.then(|| "cut off".to_owned()),
        title: format!(
            "{} ({}) of {}: {} points, {}",
            escape(&f.name),
            escape(f.id.as_str()),
            map_svg::side_name(&campaign.sides, &f.side),
            f.points(),
            plural(f.stands.len(), "stand", "stands")
        ),
    }
}

fn ring(campaign: &Campaign, b: &Battle, href: Option<String>) -> Ring {
    let pending = b.status == BattleStatus::Pending;
    Ring {
        region: b.region.clone(),
        label: format!("Battle {}", b.id),
        title: format!(
            "Battle {} at {}{}",
            b.id,
            escape(campaign.map.region_name(&b.region)),
            if pending { ", pending" } else { "" }
        ),
        pending,
        href,
    }
}

/// A march as an arrow: from where the force stood when the move began,
/// through the regions of its route it reached, to where it ended.
fn arrow(chapter: &Chapter<'_>, m: &crate::model::event::Moved, sentence: &str) -> Arrow {
    let before = chapter.before.and_then(|c| c.force(&m.force));
    let side = before
        .or_else(|| chapter.after.force(&m.force))
        .map(|f| f.side.clone());
    let mut through = vec![match before {
        Some(f) => Place {
            region: f.region.clone(),
            en_route: f.en_route.clone(),
        },
        None => Place {
            region: m.from.clone().unwrap_or_else(|| m.to.clone()),
            en_route: None,
        },
    }];
    if let Some(StandingOrder::March { path, .. }) = before.map(|f| &f.order)
        && let Some(reached) = path.iter().position(|r| r == &m.to)
    {
        through.extend(path.iter().take(reached + 1).map(|r| Place {
            region: r.clone(),
            en_route: None,
        }));
    }
    through.push(Place {
        region: m.to.clone(),
        en_route: m.en_route.clone(),
    });
    Arrow {
        through,
        colour: side.map_or(crate::model::Colour([96, 96, 96]), |s| {
            map_svg::side_colour(&chapter.after.sides, &s)
        }),
        carried: m.by != Conveyance::Foot,
        title: escape(sentence),
    }
}

// -- Battles and service records -------------------------------------------------

/// The battles a chronicle tells of: every one for the umpire (`viewer`
/// `None`); for a side, those named by an event it heard (`heard`) that its
/// side fought in. An HQ's owner hears that a battle took it without being
/// told of a battle between two other sides.
fn battles_told<'e>(
    battles: &[crate::model::Battle],
    heard: impl Iterator<Item = &'e EventKind>,
    viewer: Option<&SideId>,
) -> BTreeSet<u32> {
    match viewer {
        None => battles.iter().map(|b| b.id).collect(),
        Some(s) => heard
            .filter_map(EventKind::battle)
            .filter(|id| {
                battles
                    .iter()
                    .any(|b| b.id == *id && (&b.attacker == s || &b.defender == s))
            })
            .collect(),
    }
}

/// A `file:` address for `name` in the folder `dir` (as the umpire's
/// machine writes it: `/home/...` or `C:\\...`), each byte outside the
/// letters, digits, `-._~` and `/` written as `%XX`.
fn file_url(dir: &str, name: &str) -> String {
    let path = format!("{}/{name}", dir.replace('\\', "/").trim_end_matches('/'));
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let mut url = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) || (byte == b':' && url.len() < 12) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

fn battles_section(book: &Book<'_>) -> String {
    let (now, told, log, battles, viewer) = (book.now, &book.told, book.log, &book.battles, book.viewer);
    let mut out = String::from("<section id=\"battles\">\n<h2>Battles</h2>\n");
    if battles.is_empty() {
        out.push_str("<p>No battle yet.</p>\n");
    }
    // The game move each battle was fought in, for its link back.
    let mut fought_in: HashMap<u32, String> = HashMap::new();
    for t in told {
        for (i, _) in &t.events {
            if let Some(EventKind::BattleFought(f)) = log.get(*i).map(|e| &e.kind) {
                fought_in.insert(f.battle, anchor(t));
            }
        }
    }
    let name = |id: &ForceId| {
        now.force(id).map_or_else(
            || force_names(told, id).map_or_else(|| escape(id.as_str()), |n| escape(&n)),
            |f| escape(&f.name),
        )
    };
    for b in now.battles.iter().filter(|b| battles.contains(&b.id)) {
        let _ = writeln!(
            out,
            "<article id=\"battle-{id}\">\n<h3>Battle {id} at {region}</h3>\n<p>Met in <a href=\"#move-{turn}\">game move {turn}</a>: {att} attacking {def}.</p>",
            id = b.id,
            region = escape(now.map.region_name(&b.region)),
            turn = b.turn,
            att = map_svg::side_name(&now.sides, &b.attacker),
            def = map_svg::side_name(&now.sides, &b.defender),
        );
        let forces: Vec<String> = b.forces.iter().map(&name).collect();
        let reserves: Vec<String> = b.reserves.iter().map(&name).collect();
        let _ = writeln!(
            out,
            "<p>Forces: {}. Reserves within a move: {}.</p>",
            forces.join(", "),
            if reserves.is_empty() {
                "none".to_owned()
            } else {
                reserves.join(", ")
            }
        );
        let pack =
            b.record.scenario.as_deref().and_then(|text| {
                let s: crate::scenario::Scenario = serde_json::from_str(text).ok()?;
                // The umpire's chronicle links the pack's files on the umpire's
                // machine; a side's does not name the umpire's folders.
                let files = b.record.pack.as_deref().filter(|_| book.umpire).map_or_else(
                String::new,
                |dir| {
                    format!(
                        " (<a href=\"{}\">pack.pdf</a>, <a href=\"{}\">result.toml</a> in <code>{}</code>)",
                        escape(&file_url(dir, "pack.pdf")),
                        escape(&file_url(dir, "result.toml")),
                        escape(dir)
                    )
                },
            );
                Some(format!(
                    "the battle pack was made for {}{files}",
                    escape(s.rules.as_str())
                ))
            });
        match (&b.record.result, b.status) {
            (Some(r), _) => {
                let winner = r.winner.as_ref().map_or_else(
                    || "a draw".to_owned(),
                    |w| format!("{} won", map_svg::side_name(&now.sides, w)),
                );
                let lost: Vec<String> = r
                    .losses
                    .iter()
                    .map(|l| {
                        format!(
                            "{} lost {} points",
                            map_svg::side_name(&now.sides, &l.side),
                            l.points
                        )
                    })
                    .collect();
                let source = match &r.source {
                    ResultSource::Engine { seed } => {
                        format!("fought by the {} engine, seed {seed}", escape(r.rules.as_str()))
                    }
                    ResultSource::Table { sheet } => format!(
                        "fought on the table under {}, results sheet <code>{}</code>",
                        escape(r.rules.as_str()),
                        escape(sheet)
                    ),
                };
                let _ = writeln!(
                    out,
                    "<p><b>{winner}</b>; {}. {}{}{}.</p>",
                    lost.join(", "),
                    report_page::capitalised(&source),
                    pack.map_or_else(String::new, |p| format!("; {p}")),
                    fought_in.get(&b.id).map_or_else(String::new, |a| format!(
                        "; told in <a href=\"#{a}\">its game move</a>"
                    ))
                );
                if !r.verdict.is_empty() {
                    let _ = writeln!(out, "<p class=\"pale\">{}</p>", escape(&r.verdict));
                }
            }
            (None, BattleStatus::Pending) => {
                let _ = writeln!(
                    out,
                    "<p>Pending: it waits to be fought{}.</p>",
                    pack.map_or_else(String::new, |p| format!("; {p}"))
                );
            }
            (None, BattleStatus::Fought) => out.push_str("<p>Fought; its result was not kept.</p>\n"),
            (_, BattleStatus::CalledOff) => out
                .push_str("<p>Called off: one side had no force left there before it could be fought.</p>\n"),
        }
        // The engine's odds are the umpire's, not the players'.
        if viewer.is_none()
            && let Some(p) = &b.record.prediction
        {
            let odds: Vec<String> = p
                .sides
                .iter()
                .map(|s| {
                    format!(
                        "{} {:.0}%",
                        map_svg::side_name(&now.sides, &s.side),
                        s.wins * 100.0
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "<p class=\"key\">The odds before it ({} battles under {}): {}, draw {:.0}%.</p>",
                p.runs,
                escape(p.rules.as_str()),
                odds.join(", "),
                p.draws * 100.0
            );
        }
        out.push_str("</article>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The name a force had in the last state that held it.
fn force_names(told: &[Told<'_>], id: &ForceId) -> Option<String> {
    told.iter()
        .rev()
        .find_map(|t| t.chapter.after.force(id).map(|f| f.name.clone()))
}

fn forces_section(book: &Book<'_>) -> String {
    let (now, told, log, battles, viewer) = (book.now, &book.told, book.log, &book.battles, book.viewer);
    let mut out = String::from("<section id=\"forces\">\n<h2>Service records</h2>\n");
    // Every force the page may tell of, in the order it first appears.
    let mut ids: Vec<(&ForceId, &crate::model::Force)> = Vec::new();
    let mut seen: HashSet<&ForceId> = HashSet::new();
    for t in told {
        for f in &t.chapter.after.forces {
            if viewer.is_none_or(|v| v == &f.side) && seen.insert(&f.id) {
                ids.push((&f.id, f));
            }
        }
    }
    if ids.is_empty() {
        out.push_str("<p>No force to tell of.</p>\n");
    }
    out.push_str(
        "<table><tr><th>Force</th><th>Where it went</th><th>Battles</th><th>Stands lost</th><th>Now</th></tr>\n",
    );
    for (id, first) in ids {
        let last = now.force(id);
        let f = last.unwrap_or(first);
        // Where it stood at the end of each game move, when that changed.
        let mut route: Vec<String> = Vec::new();
        let mut at: Option<Place> = None;
        for t in told {
            let Some(g) = t.chapter.after.force(id) else {
                continue;
            };
            let place = Place {
                region: g.region.clone(),
                en_route: g.en_route.clone(),
            };
            if at.as_ref() == Some(&place)
                || at.as_ref().is_some_and(|a| {
                    a.region == place.region && a.en_route.is_some() && place.en_route.is_some()
                })
            {
                continue;
            }
            let name = now.map.region_name(&g.region);
            let text = match &g.en_route {
                None => escape(name),
                Some(e) => format!("toward {}", escape(now.map.region_name(&e.toward))),
            };
            route.push(format!(
                "{text} <a class=\"pale\" href=\"#{}\">({})</a>",
                anchor(t),
                t.chapter
                    .turn
                    .map_or_else(|| "start".to_owned(), |n| format!("move {n}"))
            ));
            at = Some(place);
        }
        let fought: Vec<String> = now
            .battles
            .iter()
            .filter(|b| battles.contains(&b.id) && (b.forces.contains(id) || b.reserves.contains(id)))
            .map(|b| format!("<a href=\"#battle-{0}\">{0}</a>", b.id))
            .collect();
        let mut lost: Vec<(Cause, usize, u64)> = Vec::new();
        let mut fate = None;
        for t in told {
            for (i, _) in &t.events {
                let Some(kind) = log.get(*i).map(|e| &e.kind) else {
                    continue;
                };
                if let Some((cause, force, stands)) = stands_lost(kind)
                    && force == id
                {
                    // A battle's losses count their points too: a stand
                    // may lose strength and stay.
                    let points = match kind {
                        EventKind::BattleLosses(b) => b.points,
                        _ => 0,
                    };
                    match lost.iter_mut().find(|(c, _, _)| *c == cause) {
                        Some((_, n, p)) => {
                            *n += stands;
                            *p += points;
                        }
                        None => lost.push((cause, stands, points)),
                    }
                }
                let turn = t.chapter.turn.unwrap_or_default();
                match kind {
                    EventKind::ForceDestroyed(d) if &d.force == id => {
                        fate = Some(format!("destroyed in game move {turn}"));
                    }
                    EventKind::DestroyedInRetreat(d) if &d.force == id => {
                        fate = Some(format!("destroyed in retreat, battle {}", d.battle));
                    }
                    EventKind::ForcesMerged(m) if &m.force == id => {
                        let into = now
                            .force(&m.into)
                            .map_or_else(|| escape(m.into.as_str()), |f| escape(&f.name));
                        fate = Some(format!("merged into {into} in game move {turn}"));
                    }
                    _ => {}
                }
            }
        }
        lost.sort_by_key(|(c, _, _)| *c);
        let lost: Vec<String> = lost
            .iter()
            .map(|(c, n, p)| match (n, p) {
                (_, 0) => format!("{} ({})", plural(*n, "stand", "stands"), c.label()),
                (0, p) => format!("{p} points ({})", c.label()),
                (n, p) => format!("{}, {p} points ({})", plural(*n, "stand", "stands"), c.label()),
            })
            .collect();
        let state = match last {
            Some(f) => format!(
                "{} points, {} at {}",
                f.points(),
                plural(f.stands.len(), "stand", "stands"),
                escape(now.map.region_name(&f.region))
            ),
            None => fate.unwrap_or_else(|| "off the map".to_owned()),
        };
        let _ = writeln!(
            out,
            "<tr id=\"force-{}\"><td><span class=\"chip\" style=\"background:{}\"></span>{} <code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{state}</td></tr>",
            escape(id.as_str()),
            map_svg::colour_css(&now.sides, &f.side),
            escape(&f.name),
            escape(id.as_str()),
            route.join(" → "),
            if fought.is_empty() {
                "none".to_owned()
            } else {
                fought.join(", ")
            },
            if lost.is_empty() {
                "none".to_owned()
            } else {
                lost.join(", ")
            },
        );
    }
    out.push_str("</table>\n</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{battles_told, file_url};
    use crate::model::event::{EventKind, HqChange};
    use crate::model::{Battle, BattleStatus, ForceId, RegionId, SideId, Wing};

    #[test]
    fn a_side_is_told_only_the_battles_its_side_fought() {
        // Blue attacked red at green's HQ, which red held: green, its owner,
        // hears the HQ change hands in battle 7, a battle it did not fight.
        let battle = Battle {
            id: 7,
            turn: 3,
            region: RegionId::new("green-home"),
            attacker: SideId::new("blue"),
            defender: SideId::new("red"),
            forces: vec![ForceId::new("blue-column"), ForceId::new("red-garrison")],
            reserves: Vec::new(),
            status: BattleStatus::Fought,
            came_from: Vec::new(),
            record: Default::default(),
        };
        let heard = [EventKind::HqCaptured(HqChange {
            side: SideId::new("green"),
            wing: Wing::Left,
            region: RegionId::new("green-home"),
            held_by: SideId::new("blue"),
            battle: Some(7),
        })];
        let told = |viewer: Option<&str>| {
            let viewer = viewer.map(SideId::new);
            battles_told(std::slice::from_ref(&battle), heard.iter(), viewer.as_ref())
                .into_iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(told(Some("green")), Vec::<u32>::new(), "green fought no battle");
        assert_eq!(told(Some("blue")), [7]);
        assert_eq!(told(Some("red")), [7]);
        assert_eq!(told(None), [7], "the umpire is told every battle");
    }

    #[test]
    fn a_folder_becomes_a_file_address() {
        for (dir, url) in [
            ("/home/club/battle-1", "file:///home/club/battle-1/pack.pdf"),
            ("/home/club/pack 1/", "file:///home/club/pack%201/pack.pdf"),
            ("C:\\Umpire\\Beni Suef", "file:///C:/Umpire/Beni%20Suef/pack.pdf"),
            ("/tmp/Māhdī&<x>", "file:///tmp/M%C4%81hd%C4%AB%26%3Cx%3E/pack.pdf"),
        ] {
            assert_eq!(file_url(dir, "pack.pdf"), url, "{dir}");
        }
    }
}
