//! The briefing: what each side's players need to fight the battle on the
//! table, as Markdown.

use super::build::{Edge, Handoff};
use crate::model::{Battle, Campaign, Force, SideId};
use crate::rules::{CLEAR_MARGIN, HOLDS_WHILE_OUTNUMBERING, ResolveThrow, rule_set};
use crate::scenario::{Ground, Role, Scenario};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The briefing for `battle`, handed off as `handoff`.
pub fn write_briefing(campaign: &Campaign, battle: &Battle, handoff: &Handoff) -> String {
    let s = &handoff.scenario;
    let plan = &handoff.plan;
    let region = campaign.map.region(&battle.region);
    let place = campaign.map.region_name(&battle.region);
    let rules = rule_set(s.rules);
    let mut out = String::new();
    // The date of the game move the battle was made in, not of the one now.
    let date = campaign
        .date_of_turn(battle.turn)
        .map(|d| format!(", {d}"))
        .unwrap_or_default();
    let _ = writeln!(out, "# The battle at {place}\n");
    let _ = writeln!(
        out,
        "Battle {} of *{}*, made in game move {}{date}. {} attacks; {} defends.\n",
        battle.id,
        campaign.title,
        battle.turn,
        side_name(campaign, &battle.attacker),
        side_name(campaign, &battle.defender),
    );

    let _ = writeln!(out, "## The game\n");
    let _ = writeln!(
        out,
        "- Rule set: **{}**{}.",
        s.rules,
        rules
            .map(|r| format!(" ({})", r.publication()))
            .unwrap_or_default()
    );
    let (w_in, d_in) = (
        f64::from(s.table.width) * s.table.cell_inches,
        f64::from(s.table.depth) * s.table.cell_inches,
    );
    let cells = if s.table.grid { "squares" } else { "cells" };
    let _ = writeln!(
        out,
        "- Table: {} x {} {cells} of {} inches: {:.0} x {:.0} inches ({:.1} x {:.1} feet). See `table.png`, or the table at one page and the sheets at true scale in `pack.pdf`.",
        s.table.width,
        s.table.depth,
        s.table.cell_inches,
        w_in,
        d_in,
        w_in / 12.0,
        d_in / 12.0
    );
    let _ = writeln!(
        out,
        "- Length: {} turns, each {:.0} minutes of the battle day.",
        s.turn_limit,
        plan.hours_a_turn * 60.0
    );
    // The campaign's house rules: the table does not play them, but the
    // players should know what brought their troops here.
    let house_rules = crate::model::house_rules::differences(campaign);
    if !house_rules.is_empty() {
        let _ = writeln!(
            out,
            "- House rules of the campaign (where it differs from the seeds):"
        );
        for rule in &house_rules {
            let _ = writeln!(out, "  - {}.", rule.sentence());
        }
    }
    let _ = writeln!(
        out,
        "- Seed for the engine: {} (`umpire resolve` replays the battle from it).\n",
        s.seed
    );

    let _ = writeln!(out, "## The ground\n");
    if let Some(r) = region {
        let _ = writeln!(
            out,
            "{place} is {} country{}.",
            r.terrain,
            if r.features.is_empty() {
                String::new()
            } else {
                format!(
                    ", with {}",
                    r.features
                        .iter()
                        .map(|f| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );
    }
    let _ = writeln!(
        out,
        "The table is turned so that the attacker's main approach is the near edge (the bottom of `table.png` and of the table in `pack.pdf`).\n"
    );
    let _ = writeln!(out, "| edge | faces | comes on there |");
    let _ = writeln!(out, "|---|---|---|");
    for (edge, faces) in [
        (Edge::Near, plan.near_faces),
        (Edge::Far, plan.far_faces),
        (Edge::Left, plan.left_faces),
        (Edge::Right, plan.right_faces),
    ] {
        let names: Vec<String> = plan
            .forces
            .iter()
            .filter(|f| f.edge == edge)
            .map(|f| {
                let from = f
                    .from
                    .as_ref()
                    .map(|r| format!(" from {}", campaign.map.region_name(r)))
                    .unwrap_or_default();
                let when = if f.arrives == 0 {
                    String::new()
                } else {
                    format!(", turn {}", f.arrives)
                };
                format!("{}{from}{when}", f.name)
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {faces} | {} |",
            edge.label(),
            if names.is_empty() {
                "-".to_owned()
            } else {
                names.join("; ")
            }
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Terrain on the table, in {cells}: {}.\n", terrain_counts(s));

    let _ = writeln!(out, "## Objectives\n");
    for o in &s.objectives {
        let _ = writeln!(
            out,
            "- **{}** ({:?}): {} {} across from the left edge, {} in from the far edge.",
            o.name, o.kind, cells, o.x, o.y
        );
    }
    let _ = writeln!(out);

    let _ = writeln!(out, "## Victory\n");
    let throw = rules.map_or(ResolveThrow::TWO_DICE, |r| r.resolve_throw());
    let _ = writeln!(
        out,
        "- Before the first turn each general throws {}D6 for his army's resolve: it breaks and quits the field once it has lost more than {:.0}% of the points it brought on, and {:.1} more in a hundred for every pip over {} ({:.0}% at a {}); the other side wins. An army whose standing points are still {} times the enemy's or more does not break, whatever its losses. If both pass theirs at once, the one further past it breaks.",
        throw.dice,
        throw.base * 100.0,
        throw.step * 100.0,
        throw.dice,
        throw.share(6 * throw.dice) * 100.0,
        6 * throw.dice,
        HOLDS_WHILE_OUTNUMBERING
    );
    if let Some(bonus) = rules.map(|r| r.attacker_resolve()).filter(|b| *b > 0.0) {
        let _ = writeln!(
            out,
            "- The attacker adds {:.1} in a hundred to its resolve (under this rule set the attacker comes on under the fire of a standing line; this program's own, set so that the same army each side comes out even).",
            bonus * 100.0
        );
    }
    let last_word = rules
        .and_then(|r| r.last_word_rule())
        .map(|w| format!("{w}; failing that, "))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "- Otherwise, at the end of turn {}: the side holding more of the objectives wins (an objective with enemy stands as near as friends counts for neither; the attacker contests a river crossing only from on it or across it); failing that, {last_word}the side whose losses (as shares of its points) are lighter by more than {:.0} points in a hundred; else a draw.",
        s.turn_limit,
        CLEAR_MARGIN * 100.0
    );
    let _ = writeln!(
        out,
        "- The loser falls back to a neighbouring region away from the enemy and toward its supply; a force with no such road open is destroyed. An HQ in {place} falls if its defenders lose.\n"
    );

    for side in &s.sides {
        let side_id = SideId::new(&side.id);
        let role = match side.role {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        };
        let _ = writeln!(out, "## {} ({role})\n", side.name);
        let _ = writeln!(out, "### Situation\n");
        let forces: Vec<&Force> = plan
            .forces
            .iter()
            .filter(|f| f.side == side_id)
            .filter_map(|f| campaign.force(&f.force))
            .collect();
        for f in &forces {
            let entry = plan.forces.iter().find(|e| e.force == f.id);
            let whence = match entry.and_then(|e| e.from.as_ref()) {
                Some(r) if battle.reserves.contains(&f.id) => {
                    format!(
                        "stands at {} within a move, and comes on",
                        campaign.map.region_name(r)
                    )
                }
                Some(r) => format!("marched in from {}, and deploys", campaign.map.region_name(r)),
                None => format!("holds {place}, and deploys"),
            };
            let edge = entry.map_or("", |e| e.edge.label());
            let when = match entry.map(|e| e.arrives) {
                Some(0) | None => "at the start".to_owned(),
                Some(t) => format!("on turn {t}"),
            };
            let _ = writeln!(
                out,
                "- **{}** ({}, {} of {} points) {whence} at the {edge} {when}.",
                f.name,
                crate::model::text::count(
                    f.stands.iter().filter(|s| s.strength > 0).count() as u64,
                    "stand",
                    "stands"
                ),
                f.points(),
                f.full_points()
            );
            let supply = if f.supply.cut_moves == 0 {
                "in supply".to_owned()
            } else {
                format!(
                    "out of supply for {}",
                    crate::model::text::count(u64::from(f.supply.cut_moves), "game move", "game moves")
                )
            };
            let fatigue = if f.fatigue.must_rest {
                "worn out by forced marching: it must rest after the battle".to_owned()
            } else if f.fatigue.forced_in_row > 0 {
                format!("has made {} forced march(es) in a row", f.fatigue.forced_in_row)
            } else {
                "fresh".to_owned()
            };
            let _ = writeln!(out, "  Supply: {supply}. Fatigue: {fatigue}.");
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "### Order of battle\n");
        let _ = writeln!(
            out,
            "| id | stand | kind | quality | points | under {} | arrives |",
            s.rules
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
        let groups =
            std::iter::once((&side.stands, 0)).chain(side.reserves.iter().map(|r| (&r.stands, r.turn)));
        for (stands, turn) in groups {
            for t in stands {
                let muster = rules.map(|r| r.muster(t, side.army)).unwrap_or_default();
                let when = if turn == 0 {
                    "start".to_owned()
                } else {
                    format!("turn {turn}")
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {:?} | {} of {} | {muster} | {when} |",
                    t.id.0,
                    t.name,
                    t.kind.label(),
                    t.quality,
                    t.strength,
                    t.full
                );
            }
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "### Deployment\n");
        let d = side.deployment;
        let _ = writeln!(
            out,
            "- At the start: {cells} {} to {} across from the left edge, {} to {} in from the far edge ({:.0} x {:.0} inches).",
            d.x,
            d.x + d.w.saturating_sub(1),
            d.y,
            d.y + d.h.saturating_sub(1),
            f64::from(d.w) * s.table.cell_inches,
            f64::from(d.h) * s.table.cell_inches
        );
        for r in &side.reserves {
            let _ = writeln!(
                out,
                "- Turn {}: {} come on at {cells} {} to {} across, {} to {} in from the far edge.",
                r.turn,
                crate::model::text::count(r.stands.len() as u64, "stand", "stands"),
                r.area.x,
                r.area.x + r.area.w.saturating_sub(1),
                r.area.y,
                r.area.y + r.area.h.saturating_sub(1)
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "### Special rules\n");
        let mut special = Vec::new();
        if forces.iter().any(|f| f.fatigue.must_rest) {
            special.push("Forces worn out by forced marching rest the next game move whatever the result (Strategic Rules 3.3).".to_owned());
        }
        if forces.iter().any(|f| f.supply.cut_moves > 0) {
            special.push("Forces out of supply keep losing stands after the battle until their road to an HQ is open again.".to_owned());
        }
        if side.reserves.iter().any(|r| r.turn > s.turn_limit) {
            special.push(format!(
                "Reserves due after turn {} arrive too late to fight unless the battle lasts longer.",
                s.turn_limit
            ));
        }
        if special.is_empty() {
            special.push("None beyond the rule set's.".to_owned());
        }
        for line in special {
            let _ = writeln!(out, "- {line}");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "## After the battle\n");
    let _ = writeln!(
        out,
        "Fill in `result.toml` (every stand's strength at the end, captured guns, the winner) and give it to the umpire:\n\n    umpire result SAVE {} result.toml\n\nor let the engine fight it: `umpire resolve SAVE {}`.",
        battle.id, battle.id
    );
    out
}

fn side_name(campaign: &Campaign, id: &SideId) -> String {
    campaign
        .side(id)
        .map_or_else(|| id.to_string(), |s| s.name.clone())
}

fn terrain_counts(s: &Scenario) -> String {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for c in s.table.cells() {
        let name = match c.ground {
            Ground::Open if c.level > 0 => "hill",
            Ground::Open => "open",
            Ground::BuiltUpOuter | Ground::BuiltUpInner => "built-up",
            Ground::ForestEdge | Ground::ForestInterior => "woods",
            Ground::River => "river",
            Ground::Bridge => "bridge",
            Ground::Ford => "ford or marsh",
            Ground::TallCrops => "tall crops",
        };
        *counts.entry(name).or_default() += 1;
        if c.road {
            *counts.entry("road").or_default() += 1;
        }
        if c.cover.is_some() {
            *counts.entry("walls, hedges or entrenchments").or_default() += 1;
        }
    }
    counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
