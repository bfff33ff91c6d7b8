//! Command-line interface: parses arguments, calls the core, prints.
//! Everything goes to stdout through `writeln!`, whose broken pipe (a reader
//! gone, `umpire log | head`) `main` treats as done; `println!` would panic.
#![deny(clippy::print_stdout)]

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use umpire::desk;
use umpire::files::{self, Checkable};
use umpire::model::SideId;
use umpire::model::check::Source;
use umpire::model::status::Status;
use umpire::model::text::printable;
use umpire::model::{Diagnostic, Severity};
use umpire::store::{Overwrite, Store, Undone};
use umpire::strategy::{self, Order};

mod ai;
mod battles;
mod edit;
mod maps;
mod players;
mod proving;
mod seat;
mod serve;

/// The campaign umpire for model-soldier wargames. With no command, opens the
/// desktop window on the campaign used last (the first time, on a new save of
/// the bundled Egyptian Rebellion in your data folder).
#[derive(Debug, Parser)]
#[command(
    name = "umpire",
    version,
    about,
    long_about = None,
    after_help = "With no command, umpire opens the desktop window on the campaign used last (the first time, on a new save of the bundled Egyptian Rebellion of 1895 in your data folder)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Open this save in the window instead of the one used last.
    #[arg(long, value_name = "SAVE")]
    open: Option<PathBuf>,
    /// Render the window once, save it as a PNG to FILE and close.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// Open the window in this side's view (a side's id): only what it knows.
    #[arg(long, value_name = "SIDE")]
    view: Option<String>,
    /// Open a side's report (written by `umpire report`) in the window, to give its orders on it.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Open the window in the map maker on this map file (maps/*.toml), to draw it.
    #[arg(long, value_name = "MAP")]
    edit_map: Option<PathBuf>,
    /// Open a served campaign in the window from its link (`umpire serve token`): a side's or the umpire's.
    #[arg(long, value_name = "LINK")]
    served: Option<String>,
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
    /// Show the game move, the HQs each side holds, every force and its supply, and pending battles.
    Status {
        /// The campaign save.
        save: PathBuf,
        /// Print JSON (the shape is documented in README.md) instead of text.
        #[arg(long)]
        json: bool,
        /// Show only what this side knows (by id): its own forces in full,
        /// enemy forces as last seen. Without it, the umpire's view: everything.
        #[arg(long)]
        side: Option<String>,
    },
    /// Write a side's report for play by email: what it knows, its forces and
    /// supply, the last game move's events as it heard them, its battles.
    Report {
        /// The campaign save.
        save: PathBuf,
        /// The side, by id (as `umpire status` shows it).
        side: String,
        /// The report file to write (JSON; see docs/FILES.md), e.g. british_move3.json.
        out: PathBuf,
    },
    /// Write the campaign's chronicle, its after-action report, as one page:
    /// each game move's map with the marches and battles, losses by cause,
    /// HQs changing hands and rulings; charts; each force's service record.
    Chronicle {
        /// The campaign save.
        save: PathBuf,
        /// The page to write, e.g. chronicle.html.
        out: PathBuf,
        /// Only what this side (by id) knew at each game move, until the
        /// campaign has ended. Without it, the umpire's: everything.
        #[arg(long)]
        side: Option<String>,
    },
    /// Give a side's orders for the current game move from an orders file.
    Orders {
        /// The campaign save.
        save: PathBuf,
        /// The side giving the orders, by id (as `umpire status` shows it).
        side: String,
        /// The orders file (TOML; see docs/FILES.md).
        file: PathBuf,
    },
    /// Resolve the current game move for every side at once.
    Turn {
        /// The campaign save.
        save: PathBuf,
        /// Print the events as JSON instead of sentences.
        #[arg(long)]
        json: bool,
        /// Resolve the game move even with battles still pending (they stay
        /// pending, to be fought later). Without it, `turn` lists them and refuses.
        #[arg(long)]
        with_pending: bool,
    },
    /// List the map for writing orders: regions (id, name, terrain, who holds
    /// them), roads with miles and march hours by arm, and the HQs. Also
    /// `umpire map generate` and `umpire map import`, which make map files.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Map {
        #[command(subcommand)]
        tool: Option<maps::MapTool>,
        /// The campaign save.
        #[arg(required = true)]
        save: Option<PathBuf>,
        /// Only what this side knows (by id) of who holds what.
        #[arg(long)]
        side: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The programmed commander's orders for a side, computed from that
    /// side's report alone: its reasons, and the orders as an orders file.
    Ai {
        /// The campaign save.
        save: PathBuf,
        /// The side, by id (as `umpire status` shows it).
        side: String,
        /// The dice's seed (by default the campaign's seed and the side).
        #[arg(long)]
        seed: Option<u64>,
        /// Give the orders for the current game move (else only show them).
        #[arg(long)]
        give: bool,
        /// Also write the orders file here.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// From now on the program plays this side: `umpire turn` (and the
        /// window's End turn) gives its orders when it has none.
        #[arg(long, conflicts_with_all = ["give", "out", "stop"])]
        play: bool,
        /// A person plays this side again.
        #[arg(long, conflicts_with_all = ["give", "out", "play"])]
        stop: bool,
    },
    /// Plays whole campaigns between the programmed commander and scripted
    /// opponents (rush, turtle, random) and itself, on balanced generated
    /// maps, battles fought by the engine; prints wins, HQs held and points lost.
    Tournament {
        /// Campaigns per pairing (each opponent plays Red in half of them).
        #[arg(long, default_value_t = 20)]
        campaigns: usize,
        /// Regions of each generated map.
        #[arg(long, default_value_t = 60)]
        regions: usize,
        /// The first map's seed; each pair of campaigns takes the next.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game moves before a campaign ends (unless a side takes every enemy HQ sooner).
        #[arg(long, default_value_t = 30)]
        moves: u32,
        /// Only this pairing, e.g. "commander-rush".
        #[arg(long)]
        only: Option<String>,
        /// Tell one campaign of the (first) pairing move by move: each side's
        /// log and what happened.
        #[arg(long)]
        trace: bool,
        /// Play this campaign file (its first two sides) instead of generated
        /// maps, e.g. campaigns/egyptian_rebellion_1895.toml.
        #[arg(long, value_name = "FILE")]
        campaign: Option<PathBuf>,
    },
    /// A march's route, time, arrival and forced-march cost, as the window forecasts it.
    Route {
        /// The campaign save.
        save: PathBuf,
        /// The force, by id (as `umpire status` shows it) or name.
        force: String,
        /// The region to march to, by id (as `umpire map` shows it) or name.
        to: String,
        /// Forecast a forced march (three moves in one, a stand lost in every ten).
        #[arg(long)]
        forced: bool,
        /// Go by train (`rail`) or steamer (`river`) from a station or landing place.
        #[arg(long, value_name = "rail|river")]
        by: Option<String>,
    },
    /// Print the turn log: every event, game move by game move.
    Log {
        /// The campaign save.
        save: PathBuf,
        /// Only this game move.
        #[arg(long)]
        turn: Option<u32>,
    },
    /// The umpire's pencil: move or add a force, add or remove stands, set a stand's
    /// strength, hand an HQ over, rest a force, or write a ruling; each with a reason,
    /// kept in the log, and taken back by `umpire undo`.
    Edit {
        /// The campaign save.
        save: PathBuf,
        #[command(subcommand)]
        edit: edit::EditCommand,
    },
    /// The hot seat: the passphrases the window asks before it shows a side's view or the umpire's.
    Seat {
        #[command(subcommand)]
        command: seat::SeatCommand,
    },
    /// Serve every save (*.umpire) in DIR to the players' browsers and the JSON API
    /// (docs/api.md); `umpire serve token SAVE SIDE|umpire` gives the links' tokens.
    #[command(args_conflicts_with_subcommands = true)]
    Serve {
        #[command(subcommand)]
        command: Option<serve::ServeCommand>,
        /// The folder holding the campaign saves.
        dir: Option<PathBuf>,
        /// The address and port to listen on.
        #[arg(long, default_value = umpire::serve::DEFAULT_BIND)]
        bind: String,
    },
    /// Take back the last change: orders not yet resolved, a battle's result, an umpire's edit, or the last game move.
    Undo {
        /// The campaign save.
        save: PathBuf,
    },
    /// Fight a battle from a scenario file with the rules engine.
    Battle {
        /// The scenario (JSON; see README.md), e.g. campaigns/scenarios/abu_tleih_1895.json.
        file: PathBuf,
        /// The rule set; the scenario's own when left out.
        #[arg(long)]
        rules: Option<String>,
        /// The dice's seed; the scenario's own when left out.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// The odds of a battle: fight it many times and count who wins.
    Odds {
        /// The scenario (JSON).
        file: PathBuf,
        /// The rule set; the scenario's own when left out.
        #[arg(long)]
        rules: Option<String>,
        /// How many battles to fight.
        #[arg(long, default_value_t = 1000)]
        runs: u32,
        /// Seed of the stream the battles' seeds are drawn from; the scenario's own when left out.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the odds as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Hand a pending battle to the table: write its battle pack (scenario.json, briefing.md, table.png, result.toml, pack.pdf).
    Scenario {
        /// The campaign save.
        save: PathBuf,
        /// The battle's number (as `umpire status` shows it).
        battle: u32,
        /// The rule set; the campaign's own when left out.
        #[arg(long)]
        rules: Option<String>,
        /// The folder to write the pack into (made if missing).
        #[arg(long)]
        out: PathBuf,
        /// The paper pack.pdf's sheets of table are printed on: a4 or letter.
        #[arg(long, default_value = "a4")]
        paper: String,
    },
    /// Fight a pending battle with the rules engine and apply the outcome to the campaign.
    Resolve {
        /// The campaign save.
        save: PathBuf,
        /// The battle's number.
        battle: u32,
        /// The rule set; the one its battle pack was made for, else the campaign's.
        #[arg(long)]
        rules: Option<String>,
        /// The dice's seed; the battle's own when left out.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the events as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Apply a battle fought on the table, from its filled results sheet (result.toml).
    Result {
        /// The campaign save.
        save: PathBuf,
        /// The battle's number.
        battle: u32,
        /// The filled results sheet.
        file: PathBuf,
    },
    /// How the engine's odds before each battle compare with how the battles came out.
    Calibration {
        /// The campaign save.
        save: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fight the proving ground (the bundled campaigns' contacts and synthetic
    /// battles) under every rule set and print its figures against their targets.
    Proving {
        /// Battles fought per battle and rule set (default 50, 10 with --quick).
        #[arg(long)]
        runs: Option<u32>,
        /// A small sample of each kind of battle.
        #[arg(long)]
        quick: bool,
        /// Seed every battle's dice are drawn from.
        #[arg(long, default_value_t = 1895)]
        seed: u64,
        /// The folder of campaigns (*.toml, with orders/*.toml).
        #[arg(long, default_value = "campaigns")]
        campaigns: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also print each battle's results under each rule set, one line a battle.
        #[arg(long)]
        each: bool,
        /// Write each battle's scenario under each rule set into this folder
        /// (NNN-rule-set.json), to fight one alone with `umpire battle`.
        #[arg(long, value_name = "DIR")]
        scenarios: Option<PathBuf>,
    },
}

pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        return app(
            cli.open,
            cli.screenshot,
            cli.view,
            cli.report,
            cli.edit_map,
            cli.served,
        );
    };
    if cli.open.is_some()
        || cli.screenshot.is_some()
        || cli.view.is_some()
        || cli.report.is_some()
        || cli.edit_map.is_some()
        || cli.served.is_some()
    {
        bail!(
            "--open, --screenshot, --view, --report, --edit-map and --served are for the window: give them without a command"
        );
    }
    match command {
        Command::Check { files } => check(&files),
        Command::New {
            campaign,
            save,
            force,
        } => new(&campaign, &save, force),
        Command::Status { save, json, side } => match side {
            Some(side) => status_of_side(&save, &side, json),
            None => status(&save, json),
        },
        Command::Report { save, side, out } => report(&save, &side, &out),
        Command::Chronicle { save, out, side } => chronicle(&save, &out, side.as_deref()),
        Command::Orders { save, side, file } => orders(&save, &side, &file),
        Command::Turn {
            save,
            json,
            with_pending,
        } => turn(&save, json, with_pending),
        Command::Map { tool: Some(tool), .. } => maps::run(tool),
        Command::Map {
            save: Some(save),
            side,
            json,
            ..
        } => players::map(&save, side.as_deref(), json),
        Command::Map { .. } => bail!(
            "give a campaign save, e.g. `umpire map rebellion.umpire`, or `umpire map generate` / `umpire map import`"
        ),
        Command::Ai {
            save,
            side,
            seed,
            give,
            out,
            play,
            stop,
        } => {
            if play || stop {
                ai::mark(&save, &side, play)
            } else {
                ai::orders(&save, &side, seed, give, out.as_deref())
            }
        }
        Command::Tournament {
            campaigns,
            regions,
            seed,
            moves,
            only,
            trace,
            campaign,
        } => ai::tournament(
            campaigns,
            regions,
            seed,
            moves,
            only.as_deref(),
            trace,
            campaign.as_deref(),
        ),
        Command::Route {
            save,
            force,
            to,
            forced,
            by,
        } => players::route(&save, &force, &to, forced, by.as_deref()),
        Command::Log { save, turn } => log(&save, turn),
        Command::Edit { save, edit } => edit::edit(&save, &edit),
        Command::Seat { command } => seat::seat(&command),
        Command::Serve { command, dir, bind } => match (command, dir) {
            (Some(command), _) => serve::command(&command),
            (None, Some(dir)) => serve::serve(&dir, &bind),
            (None, None) => {
                bail!("`umpire serve` needs the folder of saves: `umpire serve DIR [--bind ADDR:PORT]`")
            }
        },
        Command::Undo { save } => undo(&save),
        Command::Battle {
            file,
            rules,
            seed,
            json,
        } => battle(&file, rules.as_deref(), seed, json),
        Command::Odds {
            file,
            rules,
            runs,
            seed,
            json,
        } => odds(&file, rules.as_deref(), runs, seed, json),
        Command::Scenario {
            save,
            battle,
            rules,
            out,
            paper,
        } => battles::scenario(&save, battle, rules.as_deref(), &out, &paper),
        Command::Resolve {
            save,
            battle,
            rules,
            seed,
            json,
        } => battles::resolve(&save, battle, rules.as_deref(), seed, json),
        Command::Result { save, battle, file } => battles::result(&save, battle, &file),
        Command::Calibration { save, json } => battles::calibration(&save, json),
        Command::Proving {
            runs,
            quick,
            seed,
            campaigns,
            json,
            each,
            scenarios,
        } => proving::proving(&campaigns, runs, quick, seed, json, each, scenarios.as_deref()),
    }
}

/// Opens the desktop window.
fn app(
    open: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    view: Option<String>,
    report: Option<PathBuf>,
    edit_map: Option<PathBuf>,
    served: Option<String>,
) -> Result<ExitCode> {
    umpire::ui::run(umpire::ui::Launch {
        data_folder: None,
        open,
        screenshot,
        remember: true,
        view,
        report,
        edit_map,
        served,
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn print_diagnostics(out: &mut impl Write, diagnostics: &[Diagnostic]) -> Result<()> {
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
                    printable(&map.name),
                    map.regions.len(),
                    map.roads.len()
                )
            }
            Some(Checkable::Campaign(c)) => {
                let mut what = format!(
                    "campaign \"{}\": {} sides, {} forces, {} stands on {} regions",
                    printable(&c.title),
                    c.sides.len(),
                    c.forces.len(),
                    c.forces.iter().map(|f| f.stands.len()).sum::<usize>(),
                    c.map.regions.len()
                );
                // Troops to come, when the file has any (issue 16).
                let (coming, drafts) = (c.reinforcements.len(), c.replacements.len());
                if coming + drafts > 0 {
                    what.push_str(&format!(
                        "; {coming} reinforcement{} to come, {drafts} line{} of replacements",
                        if coming == 1 { "" } else { "s" },
                        if drafts == 1 { "" } else { "s" }
                    ));
                }
                what
            }
            None => "not usable until the errors are fixed".to_owned(),
        };
        writeln!(
            out,
            "{}: {}, {}; {what}",
            printable(&path.display().to_string()),
            plural(errors, "error"),
            plural(warnings, "warning")
        )?;
        failed |= errors > 0;
        // The process ends with the command: what was read goes back whole at its end.
        std::mem::forget(checked);
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
    // What each side sees as the campaign begins (strategy::fog).
    let campaign = strategy::fog::begin(&campaign);
    let mut store = Store::create(save, &campaign, overwrite)?;
    // The map's background picture goes into the save with it.
    match files::load_map_picture(campaign_path, &campaign) {
        Ok(Some(png)) => {
            if let Some(background) = &campaign.map.background {
                store.set_picture(&background.file, &png)?;
            }
        }
        Ok(None) => {}
        Err(problem) => eprintln!("{problem} (the save was created without the picture)"),
    }
    writeln!(
        std::io::stdout(),
        "Created {}: \"{}\", game move {} ({}). Next: `umpire status {}`",
        save.display(),
        printable(&campaign.title),
        campaign.turn,
        campaign.start_date,
        save.display()
    )?;
    // The process ends with the command: the campaign's memory goes back whole.
    std::mem::forget(campaign);
    Ok(ExitCode::SUCCESS)
}

fn status(save: &Path, json: bool) -> Result<ExitCode> {
    let (_, campaign) = Store::open_and_load(save)?;
    let mut status = Status::of(&campaign);
    strategy::forecast::fill_arrivals(&campaign, &mut status);
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
    writeln!(out, "{}", printable(&status.title))?;
    writeln!(
        out,
        "Game move {}, {}. Map: {}. Battles fought under {}.",
        status.turn,
        status.date,
        printable(&status.map),
        status.rules
    )?;
    if !status.house_rules.is_empty() {
        writeln!(out, "House rules (where this campaign differs from the seeds):")?;
        for rule in &status.house_rules {
            writeln!(out, "  {}", rule.sentence())?;
        }
    }
    write_end_text(out, status)?;
    for side in &status.sides {
        writeln!(out)?;
        writeln!(
            out,
            "{} ({} army): {} of {} points in {}; holds {}",
            printable(&side.name),
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
                format!(", captured from {}", printable(&hq.side))
            };
            writeln!(
                out,
                "  HQ {:<7} {} at {}{whose}",
                hq.wing.as_str(),
                printable(&hq.name),
                printable(&hq.region_name)
            )?;
        }
        let id_width = column_width(side.forces.iter().map(|f| f.id.as_str()));
        let name_width = column_width(side.forces.iter().map(|f| f.name.as_str()));
        let region_width = column_width(side.forces.iter().map(|f| f.region_name.as_str()));
        let stand_width = column_width(
            side.forces
                .iter()
                .flat_map(|f| f.stands.iter().map(|s| s.name.as_str())),
        );
        let kind_width = column_width(
            side.forces
                .iter()
                .flat_map(|f| f.stands.iter().map(|s| s.kind.label())),
        );
        for force in &side.forces {
            writeln!(
                out,
                "  {}  {}  {}  {:>9}  {:>4}/{} pts  {}",
                pad(&force.id, id_width),
                pad(&force.name, name_width),
                pad(&force.region_name, region_width),
                plural(force.stands.len(), "stand"),
                force.points,
                force.full_points,
                force_condition(status, force)
            )?;
            for stand in &force.stands {
                writeln!(
                    out,
                    "      stand {:>4}  {}  {}  {:>4}/{} pts",
                    stand.id,
                    pad(&stand.name, stand_width),
                    pad(stand.kind.label(), kind_width),
                    stand.strength,
                    stand.full
                )?;
            }
            for stand in &force.fallen_out {
                writeln!(
                    out,
                    "      stand {:>4}  {}  fallen out on a forced march; rejoins from game move {} if in supply",
                    stand.id,
                    pad(&stand.name, stand_width),
                    stand.rejoins_turn
                )?;
            }
        }
    }
    if !status.battles.is_empty() {
        writeln!(out)?;
        writeln!(out, "Battles pending:")?;
        for b in &status.battles {
            writeln!(
                out,
                "  Battle {} at {} (since game move {}): {} attacking {}; forces {}; reserves {}",
                b.id,
                printable(&b.region_name),
                b.turn,
                printable(&b.attacker_name),
                printable(&b.defender_name),
                printable(&b.force_names.join(", ")),
                if b.reserves.is_empty() {
                    "none".to_owned()
                } else {
                    printable(&b.reserve_names.join(", ")).into_owned()
                }
            )?;
        }
    }
    if !status.coming.is_empty() {
        writeln!(out)?;
        writeln!(out, "To come:")?;
        for line in &status.coming {
            writeln!(out, "  {}", printable(line))?;
        }
    }
    Ok(())
}

/// The campaign's end conditions, or its end: the final standing (HQs held,
/// then points) and the winner.
fn write_end_text(out: &mut impl Write, status: &Status) -> Result<()> {
    let Some(ended) = &status.ended else {
        if !status.end_conditions.is_empty() {
            writeln!(out, "The campaign ends {}.", status.end_conditions.join(", or "))?;
        }
        return Ok(());
    };
    writeln!(out)?;
    let when = if ended.condition == "declared" {
        format!("at game move {}", ended.turn)
    } else {
        format!("on game move {}", ended.turn)
    };
    writeln!(out, "The campaign ended {when}: {}.", printable(&ended.why))?;
    writeln!(out, "Final standing, by HQs held and then points:")?;
    let width = column_width(ended.standing.iter().map(|s| s.name.as_str()));
    for (place, side) in ended.standing.iter().enumerate() {
        writeln!(
            out,
            "  {}. {}  {}  {} points",
            place + 1,
            pad(&side.name, width),
            plural(side.hqs, "HQ"),
            side.points
        )?;
    }
    writeln!(out, "{}", printable(&ended.outcome))?;
    Ok(())
}

/// The width of a table's column of `texts` as printed: the longest, but
/// never wider than the longest name a file may give (longer texts, from a
/// save edited by hand, run past the column rather than widen it).
fn column_width<T: AsRef<str>>(texts: impl Iterator<Item = T>) -> usize {
    texts
        .map(|t| printable(t.as_ref()).chars().count())
        .max()
        .unwrap_or(0)
        .min(umpire::model::text::MAX_NAME_CHARS)
}

/// `text` made printable and padded with spaces to `width` characters. No
/// width argument to `format!`, which panics beyond 65,535.
fn pad(text: &str, width: usize) -> String {
    let text = printable(text);
    let fill = width.saturating_sub(text.chars().count());
    format!("{text}{}", " ".repeat(fill))
}

/// The side `id` names, or an error listing the campaign's sides.
fn known_side(campaign: &umpire::model::Campaign, id: &str) -> Result<SideId> {
    let side = SideId::new(id);
    if campaign.side(&side).is_none() {
        let ids: Vec<String> = campaign.sides.iter().map(|s| format!("`{}`", s.id)).collect();
        bail!(
            "unknown side `{id}`: this campaign's sides are {}",
            ids.join(", ")
        );
    }
    Ok(side)
}

fn status_of_side(save: &Path, side: &str, json: bool) -> Result<ExitCode> {
    let (_, campaign) = Store::open_and_load(save)?;
    let side = known_side(&campaign, side)?;
    let mut status = Status::for_side(&campaign, &side).context("building the side's view")?;
    strategy::forecast::fill_arrivals(&campaign, &mut status);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &status).context("writing the status as JSON")?;
        writeln!(out)?;
    } else {
        write_side_status_text(&mut out, &status)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A side's view: its own side as the umpire's view shows it, then what it
/// knows of each other side.
fn write_side_status_text(out: &mut impl Write, status: &Status) -> Result<()> {
    let viewer = status.view.clone().unwrap_or_default();
    let mut own = status.clone();
    own.sides.retain(|s| s.id == viewer);
    own.battles.clear();
    let name = own.sides.first().map_or(viewer.as_str(), |s| s.name.as_str());
    let name = printable(name).into_owned();
    write_status_text(out, &own)?;
    for side in status.sides.iter().filter(|s| s.id != viewer) {
        let known: Vec<_> = status.known.iter().filter(|k| k.side == side.id).collect();
        let in_sight = known.iter().filter(|k| k.in_sight).count();
        writeln!(out)?;
        writeln!(
            out,
            "{} ({} army), as {name} knows it: {} known, {in_sight} in sight; holds {}",
            printable(&side.name),
            side.army,
            plural(known.len(), "force"),
            plural(side.hqs_held.len(), "HQ")
        )?;
        for hq in &side.hqs_held {
            let whose = if hq.side == side.id {
                String::new()
            } else {
                format!(", captured from {}", printable(&hq.side))
            };
            writeln!(
                out,
                "  HQ {:<7} {} at {}{whose}",
                hq.wing.as_str(),
                printable(&hq.name),
                printable(&hq.region_name)
            )?;
        }
        let label = |k: &umpire::model::status::KnownStatus| match (&k.name, k.blind) {
            (Some(name), false) => name.clone(),
            _ => format!("blind {}", k.marker),
        };
        // A force seen in full goes by its id in orders; a blind has none.
        let id = |k: &umpire::model::status::KnownStatus| match (&k.id, k.blind) {
            (Some(id), false) => id.clone(),
            _ => String::new(),
        };
        let id_width = column_width(known.iter().map(|k| id(k)));
        let where_ = |k: &umpire::model::status::KnownStatus| match &k.en_route {
            // Seen leaving a battlefield on the road it fell back on.
            Some(e) if e.miles <= 0.0 => format!("{} -> {} (leaving)", k.region_name, e.toward_name),
            Some(e) => format!("{} -> {} ({:.1} mi)", k.region_name, e.toward_name, e.miles),
            None => k.region_name.clone(),
        };
        let name_width = column_width(known.iter().map(|k| label(k)));
        let place_width = column_width(known.iter().map(|k| where_(k)));
        for k in &known {
            let strength = match (k.stands, k.points) {
                (Some(stands), Some(points)) if !k.blind => {
                    format!("{:>9}  {points:>4} pts", plural(stands, "stand"))
                }
                _ => format!("{:>18}", "strength unknown"),
            };
            let when = if k.in_sight {
                match k.how {
                    umpire::model::How::Vision => "in sight".to_owned(),
                    umpire::model::How::Scouts => "in sight, found by scouts".to_owned(),
                    umpire::model::How::Battle => "in sight, in battle".to_owned(),
                }
            } else {
                format!("last seen game move {}", k.seen_turn)
            };
            writeln!(
                out,
                "  {}  {}  {}  {strength}  {when}",
                pad(&id(k), id_width),
                pad(&label(k), name_width),
                pad(&where_(k), place_width)
            )?;
        }
    }
    if !status.battles.is_empty() {
        writeln!(out)?;
        writeln!(out, "Battles pending (both sides in full, as on the table):")?;
        for b in &status.battles {
            writeln!(
                out,
                "  Battle {} at {} (since game move {}): {} attacking {}; forces {}; reserves {}",
                b.id,
                printable(&b.region_name),
                b.turn,
                printable(&b.attacker_name),
                printable(&b.defender_name),
                printable(&b.force_names.join(", ")),
                if b.reserves.is_empty() {
                    "none".to_owned()
                } else {
                    printable(&b.reserve_names.join(", ")).into_owned()
                }
            )?;
        }
    }
    Ok(())
}

fn report(save: &Path, side: &str, out: &Path) -> Result<ExitCode> {
    let (store, campaign) = Store::open_and_load(save)?;
    let side = known_side(&campaign, side)?;
    let log = store.events()?;
    let (report, text) =
        umpire::desk::report_text(&campaign, &log, &side, out).context("building the side's report")?;
    if umpire::files::same_file(out, save) {
        bail!(
            "{} is the save itself: give the report another file name, e.g. {}_move{}.json",
            out.display(),
            side,
            campaign.turn
        );
    }
    // `.html` writes the report as a page to read; anything else, the JSON the app opens.
    let page = umpire::desk::is_page(out);
    umpire::files::write_file(out, text.as_bytes())
        .with_context(|| format!("writing the report {}", out.display()))?;
    let blinds = report.known.iter().filter(|k| k.blind).count();
    writeln!(
        std::io::stdout(),
        "Wrote {}'s report{} for game move {} to {}: {}, {} known ({} blind), {}, {}.",
        printable(&report.side_name),
        if page { " page" } else { "" },
        report.turn,
        out.display(),
        plural(report.forces.len(), "own force"),
        plural(report.known.len(), "enemy force"),
        blinds,
        match report.battles.len() {
            1 => "1 battle pending".to_owned(),
            n => format!("{n} battles pending"),
        },
        plural(report.events.len(), "event")
    )?;
    writeln!(
        std::io::stdout(),
        "Orders written from it carry campaign = \"{}\", side = \"{}\", turn = {}; give them with `umpire orders {} {} FILE`.",
        printable(&report.campaign),
        printable(report.side.as_str()),
        report.turn,
        save.display(),
        printable(report.side.as_str())
    )?;
    Ok(ExitCode::SUCCESS)
}

fn chronicle(save: &Path, out: &Path, side: Option<&str>) -> Result<ExitCode> {
    let (store, campaign) = Store::open_and_load(save)?;
    let side = side.map(|s| known_side(&campaign, s)).transpose()?;
    if umpire::files::same_file(out, save) {
        bail!(
            "{} is the save itself: give the chronicle another file name, e.g. chronicle.html",
            out.display()
        );
    }
    let log = store.events_with_states()?;
    let text = umpire::desk::chronicle_text(&campaign, &log, side.as_ref())?;
    umpire::files::write_file(out, text.as_bytes())
        .with_context(|| format!("writing the chronicle {}", out.display()))?;
    let whose = match (&side, campaign.end.ended.is_some()) {
        (Some(s), false) => format!(
            " as {} knew it",
            printable(campaign.side(s).map_or(s.as_str(), |s| s.name.as_str()))
        ),
        (Some(_), true) => " (the campaign has ended: everything is told)".to_owned(),
        (None, _) => String::new(),
    };
    writeln!(
        std::io::stdout(),
        "Wrote the chronicle of {}{whose} to {}: game moves {} to {}, {} KB.",
        printable(&campaign.title),
        out.display(),
        campaign.start_turn,
        campaign.turn.saturating_sub(1).max(campaign.start_turn),
        text.len().div_ceil(1024)
    )?;
    Ok(ExitCode::SUCCESS)
}

fn orders(save: &Path, side: &str, file: &Path) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    desk::still_open(&campaign)?;
    let text = umpire::files::read_orders_text(file).map_err(|d| anyhow::anyhow!("{d}"))?;
    let name = file.display().to_string();
    let side = SideId::new(side);
    let checked = strategy::read_orders_file(
        &campaign,
        &side,
        Source {
            name: &name,
            text: &text,
        },
    );
    print_diagnostics(&mut std::io::stderr().lock(), &checked.diagnostics)?;
    let Some(set) = checked.value else {
        bail!(
            "{name} has {}: no orders were taken. Fix them and give the orders again",
            plural(count(&checked.diagnostics, Severity::Error), "error")
        );
    };
    let source = file
        .file_name()
        .map_or_else(|| name.clone(), |n| n.to_string_lossy().into_owned());
    desk::submit_orders(&mut store, (&campaign, at), &set, &source)?;
    let side_name = printable(campaign.side(&side).map_or(side.as_str(), |s| s.name.as_str()));
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Orders for {side_name}, game move {}, taken: {}.",
        set.turn,
        set.summary()
    )?;
    for order in &set.orders {
        let region = |id: &umpire::model::RegionId| printable(campaign.map.region_name(id)).into_owned();
        let line = match order {
            Order::March {
                force,
                path,
                forced,
                by,
            } => format!(
                "  {}: {} {}",
                printable(force.as_str()),
                match (by, forced) {
                    (umpire::model::Conveyance::Rail, _) => "by train through",
                    (umpire::model::Conveyance::River, _) => "by steamer through",
                    (_, true) => "forced march through",
                    (_, false) => "march through",
                },
                path.iter().map(region).collect::<Vec<_>>().join(" -> ")
            ),
            Order::Hold { force } => format!("  {}: hold", printable(force.as_str())),
            Order::Split {
                force,
                stands,
                new_force,
                name,
            } => {
                format!(
                    "  {}: split off {} as {} ({})",
                    printable(force.as_str()),
                    plural(stands.len(), "stand"),
                    printable(new_force.as_str()),
                    printable(name)
                )
            }
            Order::Merge { force, into } => format!(
                "  {}: merge into {}",
                printable(force.as_str()),
                printable(into.as_str())
            ),
        };
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "Resolve the game move with `umpire turn {}` once every side has given its orders.",
        save.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn turn(save: &Path, json: bool, with_pending: bool) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    // The end first: after it, pending battles are no reason to wait.
    desk::still_open(&campaign)?;
    refuse_with_pending_battles(&campaign, save, with_pending)?;
    // The sides the program plays give their orders first (`umpire ai --play`).
    let (at, programmed) = desk::give_programmed_orders(&mut store, (&campaign, at))?;
    let outcome = desk::game_move(&mut store, (&campaign, at))?;
    let mut out = std::io::stdout().lock();
    if !json {
        for (side, given) in &programmed {
            let name = campaign.side(side).map_or(side.as_str(), |s| s.name.as_str());
            writeln!(
                out,
                "The programmed commander gave the orders of the {}: {} (its reasons: `umpire log`).",
                printable(name),
                given.orders.summary()
            )?;
        }
    }
    if json {
        let report = serde_json::json!({
            "turn": campaign.turn,
            "next_turn": outcome.campaign.turn,
            "events": outcome.events,
        });
        serde_json::to_writer_pretty(&mut out, &report).context("writing the game move as JSON")?;
        writeln!(out)?;
    } else {
        let date = campaign.date().map_or_else(String::new, |d| format!(", {d}"));
        writeln!(out, "Game move {}{date}:", campaign.turn)?;
        for event in &outcome.events {
            writeln!(out, "  {}", printable(&event.sentence))?;
        }
    }
    out.flush()?;
    // The command ends here, and the process with it: the two campaigns' memory
    // goes back whole, not freed piece by piece (milliseconds at 10,000 regions).
    std::mem::forget(campaign);
    std::mem::forget(outcome);
    Ok(ExitCode::SUCCESS)
}

/// Refuses a game move while battles are pending, unless `--with-pending`
/// says to go on: they would stay unfought behind the new game move.
fn refuse_with_pending_battles(
    campaign: &umpire::model::Campaign,
    save: &Path,
    with_pending: bool,
) -> Result<()> {
    let pending = strategy::pending_battles_text(campaign, None);
    if pending.is_empty() {
        return Ok(());
    }
    if with_pending {
        eprintln!(
            "Resolving game move {} with {} still pending:",
            campaign.turn,
            plural(pending.len(), "battle")
        );
        for line in &pending {
            eprintln!("  {}", printable(line));
        }
        return Ok(());
    }
    let first = campaign
        .battles
        .iter()
        .find(|b| b.status == umpire::model::BattleStatus::Pending)
        .map_or(1, |b| b.id);
    let (count, them) = match pending.len() {
        1 => ("1 battle is".to_owned(), "it"),
        n => (format!("{n} battles are"), "them"),
    };
    bail!(
        "{count} still pending, so game move {} was not resolved: {}. Fight {them} first (`umpire resolve {} {first}`, or `umpire scenario` for the table), or resolve the game move anyway with `umpire turn {} --with-pending`",
        campaign.turn,
        pending.join("; "),
        save.display(),
        save.display()
    )
}

fn log(save: &Path, only: Option<u32>) -> Result<ExitCode> {
    let (store, campaign) = Store::open_and_load(save)?;
    let events = store.events()?;
    // Game moves and battle results taken back.
    let history = umpire::model::History::of(&events);
    let mut out = std::io::stdout().lock();
    let mut current = None;
    for (i, event) in events.iter().enumerate() {
        if matches!(event.kind, umpire::model::EventKind::Checkpoint(_)) {
            continue;
        }
        if only.is_some_and(|t| t != event.turn) {
            continue;
        }
        if current != Some(event.turn) {
            current = Some(event.turn);
            let mut at_turn = campaign.clone();
            at_turn.turn = event.turn;
            let date = at_turn.date().map_or_else(String::new, |d| format!(" ({d})"));
            writeln!(out, "Game move {}{date}", event.turn)?;
        }
        let mark = if history.is_undone(i) { "(undone) " } else { "" };
        writeln!(out, "  {mark}{}", printable(&event.sentence))?;
        // The programmed commander's reasons, kept with its orders (the log is the umpire's).
        if let umpire::model::EventKind::OrdersGiven(given) = &event.kind {
            for line in given.commander_log() {
                writeln!(out, "      {}", printable(line))?;
            }
        }
    }
    if current.is_none() {
        match only {
            Some(t) => writeln!(out, "No events in game move {t}.")?,
            None => writeln!(out, "The log is empty.")?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn undo(save: &Path) -> Result<ExitCode> {
    let mut store = Store::open(save)?;
    let at = store.revision()?;
    match store.undo(at)? {
        Undone::Orders { side, turn, source } => {
            // The sides never change: read after the undo, only to name the side.
            let campaign = store.load()?;
            let name = printable(campaign.side(&side).map_or(side.as_str(), |s| s.name.as_str()));
            let source = printable(&source);
            writeln!(
                std::io::stdout(),
                "Withdrew the orders {name} gave for game move {turn} ({source})."
            )?;
        }
        Undone::Battle { battle, turn } => {
            writeln!(
                std::io::stdout(),
                "Took back the result of battle {battle} (game move {turn}): it is pending again. `umpire resolve` or `umpire result` decides it anew."
            )?;
        }
        Undone::Turn { turn } => {
            writeln!(
                std::io::stdout(),
                "Undid game move {turn}: the campaign is back at its start, with its orders waiting. `umpire turn {}` resolves it again.",
                save.display()
            )?;
        }
        Undone::Edit { turn } => {
            writeln!(
                std::io::stdout(),
                "Took back the umpire's last edit (made in game move {turn})."
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// "supplied; marching to Giza" and the like.
fn force_condition(status: &Status, force: &umpire::model::status::ForceStatus) -> String {
    let supply = match force.supply.state {
        "supplied" => "supplied".to_owned(),
        "cut" => format!(
            "CUT OFF {} (losses from game move {})",
            plural(force.supply.cut_moves as usize, "move"),
            force.supply.losses_from_turn.unwrap_or(status.turn)
        ),
        _ => format!(
            "CUT OFF {}: losing a stand each game move",
            plural(force.supply.cut_moves as usize, "move")
        ),
    };
    let mut parts = vec![supply];
    if let Some(e) = &force.en_route {
        parts.push(format!(
            "on the road, {:.1} miles out toward {}",
            e.miles,
            printable(&e.toward_name)
        ));
    }
    if force.order == "march" {
        let kind = match force.by {
            umpire::model::Conveyance::Foot if force.forced_march => "forced march",
            umpire::model::Conveyance::Foot => "marching",
            by => by.phrase(),
        };
        let arrives = force
            .arrives_turn
            .map(|t| format!(", arrives game move {t}"))
            .unwrap_or_default();
        parts.push(format!(
            "{kind} to {}{arrives}",
            printable(force.destination_name.as_deref().unwrap_or("?"))
        ));
    }
    if force.must_rest {
        parts.push("must rest".to_owned());
    }
    parts.join("; ")
}

/// Reads a scenario file, naming the line and column of a JSON mistake.
fn read_scenario(file: &Path) -> Result<umpire::scenario::Scenario> {
    let text = umpire::files::read_scenario_text(file).map_err(|d| anyhow::anyhow!("{d}"))?;
    serde_json::from_str(&text).map_err(|e| {
        // serde_json ends its message with the place, which comes first here.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or_default().to_owned();
        anyhow::anyhow!(
            "{}:{}:{}: {message}: fix the scenario file (its format is in README.md)",
            file.display(),
            e.line(),
            e.column()
        )
    })
}

fn rule_set_id(
    given: Option<&str>,
    scenario: &umpire::scenario::Scenario,
) -> Result<umpire::model::RuleSetId> {
    use umpire::model::RuleSetId;
    match given {
        None => Ok(scenario.rules),
        Some(text) => RuleSetId::parse(text)
            .ok_or_else(|| anyhow::anyhow!("unknown rule set `{text}`: use one of {}", RuleSetId::choices())),
    }
}

fn battle(file: &Path, rules: Option<&str>, seed: Option<u64>, json: bool) -> Result<ExitCode> {
    let scenario = read_scenario(file)?;
    let id = rule_set_id(rules, &scenario)?;
    let outcome = umpire::rules::fight(&scenario, id, seed.unwrap_or(scenario.seed))
        .with_context(|| format!("{}", file.display()))?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &outcome).context("writing the outcome as JSON")?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} under {}, seed {}",
        printable(&scenario.title),
        outcome.rules,
        outcome.seed
    )?;
    for line in &outcome.log {
        writeln!(out, "Turn {}: {}", line.turn, printable(&line.text))?;
    }
    let name = |id: &str| -> String {
        scenario
            .sides
            .iter()
            .find(|s| s.id == id)
            .map_or_else(|| printable(id).into_owned(), |s| printable(&s.name).into_owned())
    };
    writeln!(out)?;
    match &outcome.winner {
        Some(w) => writeln!(
            out,
            "After {} turns {} wins: {}.",
            outcome.turns,
            name(w),
            printable(&outcome.verdict)
        )?,
        None => writeln!(
            out,
            "After {} turns: {}.",
            outcome.turns,
            printable(&outcome.verdict)
        )?,
    }
    if let Some(f) = &outcome.field_held_by {
        writeln!(out, "{} holds the field.", name(f))?;
    }
    for side in &scenario.sides {
        let stands: Vec<_> = outcome.stands.iter().filter(|s| s.side == side.id).collect();
        let before: u64 = stands.iter().map(|s| u64::from(s.strength_before)).sum();
        let gone = stands
            .iter()
            .filter(|s| s.fate != umpire::rules::Fate::Stood && s.fate != umpire::rules::Fate::NotEngaged)
            .count();
        writeln!(
            out,
            "{}: lost {} of {before} points; {} of {} stands destroyed, routed or captured.",
            printable(&side.name),
            outcome.losses(&side.id),
            gone,
            stands.len()
        )?;
        for s in stands {
            writeln!(
                out,
                "  {:>5} {:<40} {:>4} -> {:<4} {}",
                s.id.to_string(),
                printable(&s.name),
                s.strength_before,
                s.strength_after,
                s.fate
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn odds(file: &Path, rules: Option<&str>, runs: u32, seed: Option<u64>, json: bool) -> Result<ExitCode> {
    let scenario = read_scenario(file)?;
    let id = rule_set_id(rules, &scenario)?;
    let seed = seed.unwrap_or(scenario.seed);
    if runs == 0 {
        bail!(
            "--runs 0 fights no battle, so there are no odds to give: ask for 1 or more (1000 when left out)"
        );
    }
    let odds = with_progress(runs, |done| {
        umpire::rules::odds_counted(&scenario, id, runs, seed, done)
    })
    .with_context(|| format!("{}", file.display()))?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &odds).context("writing the odds as JSON")?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |c: &umpire::rules::Chance| {
        format!(
            "{:.1}% (95% sure: {:.1} to {:.1}%)",
            c.share * 100.0,
            c.low * 100.0,
            c.high * 100.0
        )
    };
    writeln!(
        out,
        "{} under {}: {} battles from seed {seed}",
        printable(&scenario.title),
        odds.rules,
        odds.runs
    )?;
    for side in &odds.sides {
        writeln!(
            out,
            "  {} wins {}; loses {:.0} of {} points on average",
            printable(&side.name),
            pct(&side.wins),
            side.expected_losses,
            side.starting_points
        )?;
    }
    writeln!(out, "  Draws {}", pct(&odds.draws))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `count`, which adds one to its counter per battle fought, showing a
/// progress bar on stderr when it is a terminal and the count takes more than
/// half a second. Ctrl-C stops the command at once (the default for SIGINT):
/// nothing is written while the odds are counted.
fn with_progress<T>(runs: u32, count: impl FnOnce(&AtomicU32) -> T) -> T {
    use std::io::IsTerminal;
    let done = AtomicU32::new(0);
    if !std::io::stderr().is_terminal() {
        return count(&done);
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = std::time::Instant::now();
            let mut bar = None;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if bar.is_none() && start.elapsed() > std::time::Duration::from_millis(500) {
                    let style = indicatif::ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} battles, {per_sec}, about {eta} left",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
                    bar = Some(indicatif::ProgressBar::new(u64::from(runs)).with_style(style));
                }
                if let Some(bar) = &bar {
                    bar.set_position(u64::from(done.load(Ordering::Relaxed)));
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = count(&done);
        finished.store(true, Ordering::Relaxed);
        result
    })
}
