//! Command-line interface: parses arguments, calls the core, prints.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use umpire::files::{self, Checkable};
use umpire::model::status::Status;
use umpire::model::{Diagnostic, Severity};
use umpire::store::{Overwrite, Store};

/// The campaign umpire for model-soldier wargames.
#[derive(Debug, Parser)]
#[command(name = "umpire", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check campaign or map files and report every problem as file:line:column.
    Check {
        /// Campaign (campaigns/*.toml) or map (maps/*.toml) files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Start a campaign: create a save file from a campaign file.
    New {
        /// The campaign file, e.g. campaigns/egyptian_rebellion_1895.toml.
        campaign: PathBuf,
        /// The save to create, e.g. rebellion.umpire.
        save: PathBuf,
        /// Replace the save if it already exists.
        #[arg(long)]
        force: bool,
    },
    /// Show the game move, the HQs each side holds, and every force.
    Status {
        /// The campaign save.
        save: PathBuf,
        /// Print JSON (the shape is documented in README.md) instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { files } => check(&files),
        Command::New {
            campaign,
            save,
            force,
        } => new(&campaign, &save, force),
        Command::Status { save, json } => status(&save, json),
    }
}

fn print_diagnostics(out: &mut impl Write, diagnostics: &[Diagnostic]) -> Result<()> {
    for d in diagnostics {
        writeln!(out, "{d}")?;
    }
    Ok(())
}

fn count(diagnostics: &[Diagnostic], severity: Severity) -> usize {
    diagnostics.iter().filter(|d| d.severity == severity).count()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn check(paths: &[PathBuf]) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for path in paths {
        let checked = files::check_file(path);
        print_diagnostics(&mut out, &checked.diagnostics)?;
        let errors = count(&checked.diagnostics, Severity::Error);
        let warnings = count(&checked.diagnostics, Severity::Warning);
        let what = match &checked.value {
            Some(Checkable::Map(map)) => {
                format!(
                    "map \"{}\": {} regions, {} roads",
                    map.name,
                    map.regions.len(),
                    map.roads.len()
                )
            }
            Some(Checkable::Campaign(c)) => format!(
                "campaign \"{}\": {} sides, {} forces, {} stands on {} regions",
                c.title,
                c.sides.len(),
                c.forces.len(),
                c.forces.iter().map(|f| f.stands.len()).sum::<usize>(),
                c.map.regions.len()
            ),
            None => "not usable until the errors are fixed".to_owned(),
        };
        writeln!(
            out,
            "{}: {}, {}; {what}",
            path.display(),
            plural(errors, "error"),
            plural(warnings, "warning")
        )?;
        failed |= errors > 0;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn new(campaign_path: &Path, save: &Path, force: bool) -> Result<ExitCode> {
    let checked = files::load_campaign(campaign_path);
    let mut err = std::io::stderr().lock();
    print_diagnostics(&mut err, &checked.diagnostics)?;
    let Some(campaign) = checked.value else {
        bail!(
            "{} has {}: nothing was created. Fix them and run `umpire new` again (`umpire check {}` lists them too)",
            campaign_path.display(),
            plural(count(&checked.diagnostics, Severity::Error), "error"),
            campaign_path.display()
        );
    };
    let overwrite = if force {
        Overwrite::Replace
    } else {
        Overwrite::Refuse
    };
    let store = Store::create(save, &campaign, overwrite)?;
    let campaign = store.load()?;
    println!(
        "Created {}: \"{}\", game move {} ({}). Next: `umpire status {}`",
        save.display(),
        campaign.title,
        campaign.turn,
        campaign.start_date,
        save.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn status(save: &Path, json: bool) -> Result<ExitCode> {
    let store = Store::open(save)?;
    let campaign = store.load()?;
    let status = Status::of(&campaign);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &status).context("writing the status as JSON")?;
        writeln!(out)?;
    } else {
        write_status_text(&mut out, &status)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_status_text(out: &mut impl Write, status: &Status) -> Result<()> {
    writeln!(out, "{}", status.title)?;
    writeln!(
        out,
        "Game move {}, {}. Map: {}. Battles fought under {}.",
        status.turn, status.date, status.map, status.rules
    )?;
    for side in &status.sides {
        writeln!(out)?;
        writeln!(
            out,
            "{} ({} army): {} of {} points in {}; holds {}",
            side.name,
            side.army,
            side.points,
            side.full_points,
            plural(side.stands, "stand"),
            plural(side.hqs_held.len(), "HQ")
        )?;
        for hq in &side.hqs_held {
            let whose = if hq.side == side.id {
                String::new()
            } else {
                format!(", captured from {}", hq.side)
            };
            writeln!(
                out,
                "  HQ {:<7} {} at {}{whose}",
                hq.wing.as_str(),
                hq.name,
                hq.region_name
            )?;
        }
        let name_width = side
            .forces
            .iter()
            .map(|f| f.name.chars().count())
            .max()
            .unwrap_or(0);
        let region_width = side
            .forces
            .iter()
            .map(|f| f.region_name.chars().count())
            .max()
            .unwrap_or(0);
        for force in &side.forces {
            writeln!(
                out,
                "  {:<name_width$}  {:<region_width$}  {:>9}  {:>4}/{} pts",
                force.name,
                force.region_name,
                plural(force.stands.len(), "stand"),
                force.points,
                force.full_points
            )?;
        }
    }
    Ok(())
}
