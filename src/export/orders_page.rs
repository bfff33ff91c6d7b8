//! A side's orders page: the report's map and the side's own forces, each with
//! a form to hold, march (to a region chosen from a list or by clicking the
//! map; forced; on foot, by train or by steamer), split or merge, and a button
//! that gives the orders to the umpire's server (`umpire serve`).
//!
//! The page writes the orders as an orders file (docs/FILES.md, "Orders
//! files") and sends its text, so the server checks them with the very code
//! `umpire orders` uses; each problem comes back at its line, and the page
//! shows it under the force whose order that line is. Everything on it comes
//! from the side's [`Report`] (and the orders it already gave), so it shows
//! no more than the report page. Pure: the page is a string; the server sends
//! it. The script is inline and small; it talks only to the URL it is given.

use super::escape;
use super::map_svg;
use super::report_page::{STYLE, scene};
use crate::model::report::Report;
use crate::model::{Conveyance, Force, StandingOrder};
use crate::strategy::Order;
use std::fmt::Write as _;

/// What the page needs beyond the report: where to send the orders, and the
/// state the report was computed from.
#[derive(Debug, Clone)]
pub struct OrdersForm<'a> {
    /// The address the page sends the orders to (`PUT`) and reads them from.
    pub orders_url: &'a str,
    /// The side's report page, for a link.
    pub report_url: &'a str,
    /// The side's token, sent back as `Authorization: Bearer`.
    pub token: &'a str,
    /// The save's revision the report was computed from: an order sent on an
    /// older one is refused, so no one's change is undone unseen.
    pub revision: i64,
    /// The orders the side already gave for this game move, if any.
    pub given: Option<&'a [Order]>,
    /// When the game move is resolved, as the umpire set it, if set.
    pub deadline: Option<&'a str>,
}

/// The orders page for `report`.
pub fn orders_page(report: &Report, form: &OrdersForm<'_>) -> String {
    let mut page = String::with_capacity(64 * 1024);
    let side_name = escape(&report.side_name);
    let campaign = escape(&report.campaign);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{campaign}: orders of {side_name}, game move {turn}</title>\n<style>{STYLE}{ORDERS_STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{campaign}</h1>\n<p class=\"sub\">Orders of <b>{side_name}</b> for game move <b>{turn}</b> \
         · <a href=\"{report}\">our report</a></p>\n",
        turn = report.turn,
        report = escape(form.report_url),
    );
    let given = match form.given {
        Some(orders) if !orders.is_empty() => format!(
            "Orders given for this game move ({}); you may change them until it is resolved.",
            orders.len()
        ),
        _ => "No orders given yet for this game move: forces not ordered keep their orders.".to_owned(),
    };
    let deadline = form.deadline.map_or_else(
        || "The umpire resolves the game move once every side has given its orders.".to_owned(),
        |d| {
            format!(
                "Deadline: {}. If this side has given no orders by then, every force holds.",
                escape(d)
            )
        },
    );
    let _ = writeln!(
        page,
        "<p id=\"given\">{}</p>\n<p id=\"deadline\">{deadline}</p>",
        escape(&given)
    );
    if let Some(ended) = &report.end.ended {
        let _ = writeln!(
            page,
            "<p class=\"ended\">The campaign ended at game move {}: no more orders are taken.</p>",
            ended.turn
        );
    }
    page.push_str("</header>\n");

    // Side by side on a wide screen (the map kept in view while the list
    // scrolls), one above the other on a phone.
    page.push_str("<div class=\"desk\">\n<section id=\"orders\">\n<h2>Our orders</h2>\n");
    page.push_str("<table id=\"forces\">\n<tr><th>Force</th><th>Order</th></tr>\n");
    for force in &report.forces {
        page.push_str(&force_row(report, force, form.given.unwrap_or(&[])));
    }
    page.push_str("</table>\n");
    if report.end.ended.is_none() {
        page.push_str(
            "<p><button id=\"give\" type=\"button\">Give these orders</button> <span id=\"status\" role=\"status\"></span></p>\n",
        );
    }
    page.push_str("</section>\n");
    page.push_str("<section id=\"map\">\n<h2>The map</h2>\n");
    page.push_str(
        "<p class=\"key\">Choose a force in the list, then click a region on the map to march it there.</p>\n",
    );
    page.push_str("<div class=\"mapbox\" id=\"mapbox\">\n");
    page.push_str(&map_svg::map_svg(&scene(report)));
    page.push_str("</div>\n</section>\n");

    page.push_str("</div>\n");

    // The script's data: JSON in a script element, every `<` written as
    // `\u003c` so no text in it can close the element.
    let data = serde_json::json!({
        "campaign": report.campaign,
        "side": report.side.as_str(),
        "turn": report.turn,
        "revision": form.revision,
        "orders_url": form.orders_url,
        "token": form.token,
        "regions": report.map.regions.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
    });
    let data = data.to_string().replace('<', "\\u003c");
    let _ = writeln!(
        page,
        "<script type=\"application/json\" id=\"orders-data\">{data}</script>\n<script>{SCRIPT}</script>"
    );
    page.push_str(
        "<footer>Written by umpire from the side's report: it holds only what this side knows.</footer>\n",
    );
    page.push_str("</body>\n</html>\n");
    page
}

/// The order a force's row starts with: the one given this game move, else
/// "keep" (its standing order goes on).
enum Start<'a> {
    Keep,
    Hold,
    March {
        to: &'a str,
        forced: bool,
        by: Conveyance,
    },
    Split {
        stands: Vec<u32>,
        name: &'a str,
    },
    Merge {
        into: &'a str,
    },
}

fn start_of<'a>(force: &Force, given: &'a [Order]) -> Start<'a> {
    // A later order for a force replaces an earlier one, as the file says.
    let mine = given.iter().rev().find(|o| match o {
        Order::March { force: f, .. }
        | Order::Hold { force: f }
        | Order::Split { force: f, .. }
        | Order::Merge { force: f, .. } => f == &force.id,
    });
    match mine {
        None => Start::Keep,
        Some(Order::Hold { .. }) => Start::Hold,
        Some(Order::March { path, forced, by, .. }) => match path.last() {
            Some(to) => Start::March {
                to: to.as_str(),
                forced: *forced,
                by: *by,
            },
            None => Start::Hold,
        },
        Some(Order::Split { stands, name, .. }) => Start::Split {
            stands: stands.iter().map(|s| s.0).collect(),
            name,
        },
        Some(Order::Merge { into, .. }) => Start::Merge { into: into.as_str() },
    }
}

fn selected(yes: bool) -> &'static str {
    if yes { " selected" } else { "" }
}

fn checked(yes: bool) -> &'static str {
    if yes { " checked" } else { "" }
}

/// One force's row: who and where, and its order's controls.
fn force_row(report: &Report, force: &Force, given: &[Order]) -> String {
    let id = escape(force.id.as_str());
    let place = match &force.en_route {
        None => escape(report.map.region_name(&force.region)),
        Some(e) => format!(
            "on the road from {} to {}, {:.1} miles out",
            escape(report.map.region_name(&force.region)),
            escape(report.map.region_name(&e.toward)),
            e.miles
        ),
    };
    let standing = match &force.order {
        StandingOrder::Hold => "holds".to_owned(),
        StandingOrder::March { path, forced, .. } => format!(
            "{} to {}",
            if *forced { "forced march" } else { "marches" },
            path.last()
                .map_or_else(String::new, |r| escape(report.map.region_name(r)))
        ),
    };
    let start = start_of(force, given);
    let mut row = String::new();
    let _ = write!(
        row,
        "<tr data-force=\"{id}\"><td><b>{}</b><br><span class=\"pale\">{place}; {} stand{}, {} points; {standing}{}</span></td><td>",
        escape(&force.name),
        force.stands.len(),
        if force.stands.len() == 1 { "" } else { "s" },
        force.points(),
        if force.fatigue.must_rest {
            "; must rest this game move"
        } else {
            ""
        },
    );
    let _ = write!(
        row,
        "<select name=\"action\" aria-label=\"order of {name}\">\
         <option value=\"keep\"{}>Keep its orders</option>\
         <option value=\"hold\"{}>Hold</option>\
         <option value=\"march\"{}>March to</option>\
         <option value=\"split\"{}>Split off stands</option>\
         <option value=\"merge\"{}>Merge into</option></select>",
        selected(matches!(start, Start::Keep)),
        selected(matches!(start, Start::Hold)),
        selected(matches!(start, Start::March { .. })),
        selected(matches!(start, Start::Split { .. })),
        selected(matches!(start, Start::Merge { .. })),
        name = escape(&force.name),
    );
    // March: the destination (routed by the quickest road, as `to` in a file).
    let (to, forced, by) = match &start {
        Start::March { to, forced, by } => (Some(*to), *forced, *by),
        _ => (None, false, Conveyance::Foot),
    };
    row.push_str(" <span class=\"march\"><select name=\"to\">");
    let mut regions: Vec<_> = report.map.regions.iter().collect();
    regions.sort_by(|a, b| a.name.cmp(&b.name));
    for r in regions {
        let _ = write!(
            row,
            "<option value=\"{}\"{}>{}</option>",
            escape(r.id.as_str()),
            selected(to == Some(r.id.as_str())),
            escape(&r.name)
        );
    }
    let _ = write!(
        row,
        "</select> <label><input type=\"checkbox\" name=\"forced\"{}> forced march</label> \
         <select name=\"by\"><option value=\"foot\"{}>on foot</option><option value=\"rail\"{}>by train</option>\
         <option value=\"river\"{}>by steamer</option></select></span>",
        checked(forced),
        selected(by == Conveyance::Foot),
        selected(by == Conveyance::Rail),
        selected(by == Conveyance::River),
    );
    // Split: stands ticked go into a new force in the same region.
    let (split, split_name) = match &start {
        Start::Split { stands, name } => (stands.clone(), *name),
        _ => (Vec::new(), ""),
    };
    row.push_str(" <span class=\"split\">");
    for s in &force.stands {
        let _ = write!(
            row,
            "<label><input type=\"checkbox\" name=\"stand\" value=\"{}\"{}> {} ({}, {} points)</label> ",
            s.id.0,
            checked(split.contains(&s.id.0)),
            escape(&s.name),
            s.kind.label(),
            s.strength
        );
    }
    let _ = write!(
        row,
        "<label>into a new force named <input name=\"split_name\" value=\"{}\" placeholder=\"{} Detachment\"></label></span>",
        escape(split_name),
        escape(&force.name)
    );
    // Merge: into another of the side's forces in the same region.
    let into = match &start {
        Start::Merge { into } => Some(*into),
        _ => None,
    };
    row.push_str(" <span class=\"merge\"><select name=\"into\">");
    let mates = report
        .forces
        .iter()
        .filter(|f| f.id != force.id && f.region == force.region && f.en_route.is_none());
    for f in mates {
        let _ = write!(
            row,
            "<option value=\"{}\"{}>{}</option>",
            escape(f.id.as_str()),
            selected(into == Some(f.id.as_str())),
            escape(&f.name)
        );
    }
    row.push_str("</select></span><div class=\"problem\"></div></td></tr>\n");
    row
}

const ORDERS_STYLE: &str = "
body{max-width:1600px}
@media (min-width:1000px){.desk{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px;align-items:start}
#map{position:sticky;top:0}#map svg.map{min-width:0;max-height:82vh}}
#forces{width:100%}#forces tr.chosen td{background:#fff6d8}
#forces .march,#forces .split,#forces .merge{display:none}
#forces tr[data-action=march] .march,#forces tr[data-action=split] .split,#forces tr[data-action=merge] .merge{display:inline}
.problem{color:#b4003c;font-weight:bold}.problem:empty{display:none}
#status.ok{color:#1e6e1e;font-weight:bold}#status.bad{color:#b4003c;font-weight:bold}
button{font:inherit;padding:4px 14px}svg.map{cursor:crosshair}svg.map text{pointer-events:none}
";

/// The page's script: keeps each row's controls to its order, picks a region
/// by a click on the map (the nearest region's point: its cell), writes the
/// orders file, sends it with the revision and one idempotency key per
/// attempt (a retry after a lost answer is applied once), and shows each
/// problem under the force its line orders.
const SCRIPT: &str = r##"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("orders-data").textContent);
  var rows = Array.prototype.slice.call(document.querySelectorAll("#forces tr[data-force]"));
  var chosen = null;
  function choose(row) {
    if (chosen) chosen.classList.remove("chosen");
    chosen = row;
    if (row) row.classList.add("chosen");
  }
  rows.forEach(function (row) {
    var action = row.querySelector("select[name=action]");
    function show() { row.setAttribute("data-action", action.value); }
    action.addEventListener("change", show);
    show();
    row.addEventListener("click", function () { choose(row); });
  });
  if (rows.length) choose(rows[0]);
  // A click on the map: the nearest region point, in the map's own units.
  var svg = document.querySelector("#mapbox svg");
  if (svg) {
    svg.addEventListener("click", function (e) {
      if (!chosen || !svg.getScreenCTM) return;
      var m = svg.getScreenCTM().inverse();
      var p = svg.createSVGPoint(); p.x = e.clientX; p.y = e.clientY; p = p.matrixTransform(m);
      var best = null, bestD = Infinity;
      svg.querySelectorAll("circle[data-region]").forEach(function (c) {
        var dx = c.cx.baseVal.value - p.x, dy = c.cy.baseVal.value - p.y, d = dx * dx + dy * dy;
        if (d < bestD) { bestD = d; best = c.getAttribute("data-region"); }
      });
      if (best === null) return;
      chosen.querySelector("select[name=action]").value = "march";
      chosen.setAttribute("data-action", "march");
      chosen.querySelector("select[name=to]").value = best;
    });
  }
  // A TOML basic string: JSON's escapes are TOML's, but for DEL (written
  // raw by JSON, refused raw by TOML) and lone surrogates (no character).
  function q(text) {
    var whole = text.toWellFormed ? text.toWellFormed() : text.replace(/[\uD800-\uDFFF]/g, "\uFFFD");
    return JSON.stringify(whole).replace(/\x7f/g, "\\u007F");
  }
  // An id as the files take one: a lowercase letter first, at most 64 characters.
  function slug(text) {
    var id = text.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    if (!/^[a-z]/.test(id)) id = "force-" + id;
    return id.slice(0, 56).replace(/-$/, "");
  }
  // The orders file, and the line each force's order starts at.
  function write() {
    var lines = ["campaign = " + q(data.campaign), "side = " + q(data.side), "turn = " + data.turn];
    var at = [];
    var used = {};
    rows.forEach(function (row) { used[row.getAttribute("data-force")] = true; });
    rows.forEach(function (row) {
      var force = row.getAttribute("data-force");
      var action = row.querySelector("select[name=action]").value;
      if (action === "keep") return;
      lines.push("");
      at.push([lines.length + 1, row]);
      lines.push("[[orders]]", "force = " + q(force));
      if (action === "hold") lines.push("hold = true");
      if (action === "march") {
        lines.push("to = " + q(row.querySelector("select[name=to]").value));
        if (row.querySelector("input[name=forced]").checked) lines.push("forced = true");
        var by = row.querySelector("select[name=by]").value;
        if (by !== "foot") lines.push("by = " + q(by));
      }
      if (action === "split") {
        var stands = Array.prototype.map.call(row.querySelectorAll("input[name=stand]:checked"), function (c) { return c.value; });
        var input = row.querySelector("input[name=split_name]");
        var name = input.value.trim() || input.placeholder;
        var id = slug(name), n = 2, base = id;
        while (used[id]) { id = base + "-" + n; n += 1; }
        used[id] = true;
        lines.push("split = { stands = [" + stands.join(", ") + "], id = " + q(id) + ", name = " + q(name) + " }");
      }
      if (action === "merge") lines.push("merge_into = " + q(row.querySelector("select[name=into]").value));
    });
    return { text: lines.join("\n") + "\n", at: at };
  }
  function rowOf(line, at) {
    var found = null;
    at.forEach(function (pair) { if (pair[0] <= line) found = pair[1]; });
    return found;
  }
  var status = document.getElementById("status");
  function say(text, ok) { status.textContent = text; status.className = ok ? "ok" : "bad"; }
  function key() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + Math.random().toString(16).slice(2);
  }
  function send(file, idem, tries) {
    return fetch(data.orders_url, {
      method: "PUT",
      headers: {
        "Authorization": "Bearer " + data.token,
        "Content-Type": "application/json",
        "Idempotency-Key": idem
      },
      body: JSON.stringify({ revision: data.revision, orders: file.text })
    }).catch(function (err) {
      if (tries > 1) return new Promise(function (ok) { setTimeout(ok, 500); }).then(function () { return send(file, idem, tries - 1); });
      throw err;
    });
  }
  var give = document.getElementById("give");
  if (give) give.addEventListener("click", function () {
    rows.forEach(function (row) { row.querySelector(".problem").textContent = ""; });
    var file = write();
    give.disabled = true;
    say("Giving the orders…", true);
    send(file, key(), 3).then(function (answer) {
      return answer.json().catch(function () { return {}; }).then(function (body) { return [answer.status, body]; });
    }).then(function (pair) {
      var code = pair[0], body = pair[1];
      if (code >= 200 && code < 300) {
        if (typeof body.revision === "number") data.revision = body.revision;
        say(body.summary ? "Orders taken: " + body.summary + "." : "Orders taken.", true);
        document.getElementById("given").textContent = "Orders given for this game move; you may change them until it is resolved.";
        return;
      }
      var problems = body.problems || [];
      var loose = [];
      problems.forEach(function (p) {
        var row = typeof p.line === "number" ? rowOf(p.line, file.at) : null;
        if (row) {
          var box = row.querySelector(".problem");
          box.textContent = (box.textContent ? box.textContent + " " : "") + p.message;
        } else {
          loose.push(p.message);
        }
      });
      say((body.error || ("The server answered " + code + ".")) + (loose.length ? " " + loose.join(" ") : ""), false);
    }).catch(function () {
      say("The server could not be reached: the orders were not given. Try again.", false);
    }).then(function () { give.disabled = false; });
  });
})();
"##;
