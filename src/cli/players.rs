//! What players need to write orders: `umpire map` (regions, roads and march
//! times, HQs) and `umpire route` (a march's route, time and cost, as the
//! window forecasts it).

use super::{column_width, known_side, pad, plural};
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use umpire::model::status::Status;
use umpire::model::text::printable;
use umpire::model::{Campaign, Conveyance};
use umpire::store::Store;
use umpire::strategy::map_sheet::{ARMS, MapSheet};
use umpire::strategy::{self, Action, Order, OrderRequest};

pub fn map(save: &Path, side: Option<&str>, json: bool) -> Result<ExitCode> {
    let (_, campaign) = Store::open_and_load(save)?;
    let status = match side {
        Some(side) => {
            let side = known_side(&campaign, side)?;
            Status::for_side(&campaign, &side).context("building the side's view")?
        }
        None => Status::of(&campaign),
    };
    let sheet = MapSheet::of(&campaign, &status);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &sheet).context("writing the map as JSON")?;
        writeln!(out)?;
    } else {
        write_map_text(&mut out, &campaign, &sheet)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_map_text(out: &mut impl Write, campaign: &Campaign, sheet: &MapSheet) -> Result<()> {
    let side_name = |id: &str| {
        campaign
            .sides
            .iter()
            .find(|s| s.id.as_str() == id)
            .map_or_else(|| printable(id).into_owned(), |s| printable(&s.name).into_owned())
    };
    let view = match &sheet.view {
        Some(side) => format!("as {} knows it", side_name(side)),
        None => "the umpire's view".to_owned(),
    };
    writeln!(
        out,
        "{}: game move {}, {view}.",
        printable(&sheet.map),
        sheet.turn
    )?;
    writeln!(out)?;
    writeln!(out, "Regions ({}):", sheet.regions.len())?;
    let id_width = column_width(sheet.regions.iter().map(|r| r.id.as_str()));
    let name_width = column_width(sheet.regions.iter().map(|r| r.name.as_str()));
    let terrain_width = column_width(sheet.regions.iter().map(|r| r.terrain.as_str()));
    let features = |r: &umpire::strategy::map_sheet::RegionEntry| {
        r.features
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let features_width = column_width(sheet.regions.iter().map(features)).max("features".len());
    writeln!(
        out,
        "  {}  {}  {}  {}  held by",
        pad("id", id_width),
        pad("name", name_width),
        pad("terrain", terrain_width),
        pad("features", features_width)
    )?;
    for region in &sheet.regions {
        let held = if region.held_by.is_empty() {
            "-".to_owned()
        } else {
            let names: Vec<String> = region.held_by.iter().map(|s| side_name(s)).collect();
            let contested = if names.len() > 1 { " (contested)" } else { "" };
            let last = if region.last_seen { " (as last seen)" } else { "" };
            format!("{}{contested}{last}", names.join(" and "))
        };
        writeln!(
            out,
            "  {}  {}  {}  {}  {held}",
            pad(&region.id, id_width),
            pad(&region.name, name_width),
            pad(region.terrain.as_str(), terrain_width),
            pad(&features(region), features_width)
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Roads ({}): miles, and hours of marching there / back by arm ({} hours a day; a force marches at its slowest stand's rate):",
        sheet.roads.len(),
        strategy::movement::MARCH_HOURS_PER_DAY
    )?;
    let way = |r: &umpire::strategy::map_sheet::RoadEntry| format!("{} - {}", r.from_name, r.to_name);
    let way_width = column_width(sheet.roads.iter().map(way));
    let hours = |h: f64| {
        if h.is_finite() {
            format!("{h:.1}")
        } else {
            "-".to_owned()
        }
    };
    let arm_cells = |r: &umpire::strategy::map_sheet::RoadEntry| -> Vec<String> {
        r.hours
            .iter()
            .map(|h| {
                if (h.there - h.back).abs() < 0.05 {
                    hours(h.there)
                } else {
                    format!("{}/{}", hours(h.there), hours(h.back))
                }
            })
            .collect()
    };
    let arm_titles: Vec<String> = ARMS.iter().map(|(_, arm)| arm.replace('_', " ")).collect();
    let cell_width = sheet
        .roads
        .iter()
        .flat_map(arm_cells)
        .map(|c| c.chars().count())
        .chain(arm_titles.iter().map(|t| t.chars().count()))
        .max()
        .unwrap_or(0);
    let header: Vec<String> = arm_titles.iter().map(|t| format!("{t:>cell_width$}")).collect();
    writeln!(
        out,
        "  {}  {:<7}  {:>6}  {}",
        pad("road", way_width),
        "kind",
        "miles",
        header.join("  ")
    )?;
    for road in &sheet.roads {
        let cells: Vec<String> = if road.impassable {
            vec!["no crossing: impassable".to_owned()]
        } else {
            arm_cells(road)
                .into_iter()
                .map(|c| format!("{c:>cell_width$}"))
                .collect()
        };
        writeln!(
            out,
            "  {}  {:<7}  {:>6.1}  {}",
            pad(&way(road), way_width),
            road.kind.as_str(),
            road.miles,
            cells.join("  ")
        )?;
    }
    writeln!(out)?;
    writeln!(out, "HQs ({}):", sheet.hqs.len())?;
    let hq_width = column_width(sheet.hqs.iter().map(|h| h.name.as_str()));
    let at = |h: &umpire::strategy::map_sheet::HqEntry| format!("{} ({})", h.region_name, h.region);
    let at_width = column_width(sheet.hqs.iter().map(at));
    for hq in &sheet.hqs {
        let held = if hq.held_by == hq.side {
            format!("held by {}", side_name(&hq.held_by))
        } else {
            format!("captured by {}", side_name(&hq.held_by))
        };
        writeln!(
            out,
            "  {:<7} {}  at {}  {held}",
            hq.wing.as_str(),
            pad(&hq.name, hq_width),
            pad(&at(hq), at_width)
        )?;
    }
    Ok(())
}

pub fn route(save: &Path, force: &str, to: &str, forced: bool, by: Option<&str>) -> Result<ExitCode> {
    let by = match by {
        None => Conveyance::Foot,
        Some(word) => Conveyance::parse(word).ok_or_else(|| {
            anyhow::anyhow!("unknown way to travel `{word}`: write `--by rail` or `--by river`, or leave it out to march on foot")
        })?,
    };
    let (_, campaign) = Store::open_and_load(save)?;
    // Named by id or name, with a did-you-mean, as the pencil names them.
    let force_id = strategy::edit::find_force(&campaign, force).map_err(|why| anyhow::anyhow!("{why}"))?;
    let region_id = strategy::edit::find_region(&campaign, to)
        .map_err(|why| anyhow::anyhow!("{why}; `umpire map SAVE` lists the regions"))?;
    let (Some(force), Some(target)) = (campaign.force(&force_id), campaign.map.region(&region_id)) else {
        bail!(
            "force `{force_id}` or region `{region_id}` was named but could not be read back from the save: run `umpire check` on its campaign, or the command again"
        );
    };
    let request = OrderRequest {
        force: force.id.clone(),
        action: Action::To(target.id.clone()),
        forced,
        by,
    };
    let set = strategy::check_requests(&campaign, &force.side, std::slice::from_ref(&request)).map_err(
        |problems| {
            let reasons: Vec<String> = problems.into_iter().map(|p| p.message).collect();
            anyhow::anyhow!(
                "no march of {} to {}: {}",
                printable(&force.name),
                printable(&target.name),
                printable(&reasons.join("; "))
            )
        },
    )?;
    let path = set
        .orders
        .iter()
        .find_map(|o| match o {
            Order::March { path, .. } => Some(path.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let name = |r: &umpire::model::RegionId| printable(campaign.map.region_name(r)).into_owned();
    let start = match &force.en_route {
        Some(e) => {
            format!(
                "on the road from {} toward {}, {}",
                name(&force.region),
                name(&e.toward),
                strategy::forecast::miles_text(e.miles)
            ) + " out"
        }
        None => format!("at {}", name(&force.region)),
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} ({}), {start}, to {} ({}){}:",
        printable(&force.name),
        printable(force.id.as_str()),
        printable(&target.name),
        printable(target.id.as_str()),
        match by {
            Conveyance::Foot if forced => " by forced march".to_owned(),
            Conveyance::Foot => String::new(),
            by => format!(" {}", by.phrase()),
        }
    )?;
    if path.is_empty() {
        writeln!(out, "  already there: no march.")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "  route: {}",
        std::iter::once(match &force.en_route {
            Some(_) => format!("({})", name(&force.region)),
            None => name(&force.region),
        })
        .chain(path.iter().map(name))
        .collect::<Vec<_>>()
        .join(" -> ")
    )?;
    let Some(forecast) = strategy::journey_forecast(&campaign, force, &path, forced, by) else {
        bail!(
            "no forecast for the march of {} to {}: a leg of its route has no road it can use",
            printable(&force.name),
            printable(&target.name)
        );
    };
    writeln!(out, "  {}", forecast.text(forced))?;
    writeln!(
        out,
        "  arrives game move {} (no enemy in the way) with {} of its {}.",
        strategy::forecast::arrival_turn(&campaign, &forecast),
        forecast.stands.saturating_sub(forecast.stands_lost),
        plural(forecast.stands, "stand")
    )?;
    writeln!(out, "  In an orders file:")?;
    writeln!(out, "    [[orders]]")?;
    writeln!(out, "    force = \"{}\"", printable(force.id.as_str()))?;
    writeln!(out, "    to = \"{}\"", printable(target.id.as_str()))?;
    if forced {
        writeln!(out, "    forced = true")?;
    }
    if !by.is_foot() {
        writeln!(out, "    by = \"{by}\"")?;
    }
    Ok(ExitCode::SUCCESS)
}
