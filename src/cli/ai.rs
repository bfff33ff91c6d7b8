//! `umpire tournament` (and `umpire ai`): the programmed opponents at the command line.

use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use umpire::ai::Opponent;
use umpire::desk;
use umpire::model::SideId;
use umpire::store::Store;
use umpire::strategy::write_orders_file;
use umpire::tournament::{Field, campaign_of, tally};

/// The pairings the tournament plays, first against second.
const PAIRINGS: [(Opponent, Opponent); 5] = [
    (Opponent::Commander, Opponent::Rush),
    (Opponent::Commander, Opponent::Turtle),
    (Opponent::Commander, Opponent::Random),
    (Opponent::Commander, Opponent::Commander),
    (Opponent::Rush, Opponent::Turtle),
];

pub(crate) fn tournament(
    campaigns: usize,
    regions: usize,
    seed: u64,
    moves: u32,
    only: Option<&str>,
    trace: bool,
    file: Option<&Path>,
) -> Result<ExitCode> {
    let pairings: Vec<(Opponent, Opponent)> = PAIRINGS
        .into_iter()
        .filter(|(a, b)| only.is_none_or(|o| o == format!("{}-{}", a.name(), b.name())))
        .collect();
    if pairings.is_empty() {
        let names: Vec<String> = PAIRINGS
            .iter()
            .map(|(a, b)| format!("{}-{}", a.name(), b.name()))
            .collect();
        bail!(
            "no pairing `{}`: the pairings are {}",
            only.unwrap_or(""),
            names.join(", ")
        );
    }
    let field = match file {
        Some(path) => {
            let checked = umpire::files::load_campaign(path);
            let Some(campaign) = checked.value else {
                let mut stderr = std::io::stderr().lock();
                for d in &checked.diagnostics {
                    writeln!(stderr, "{d}")?;
                }
                bail!("{} cannot be played until its errors are fixed", path.display());
            };
            if campaign.sides.len() < 2 {
                bail!("{} has fewer than two sides", path.display());
            }
            Field::Given(Box::new(campaign))
        }
        None => Field::Generated { regions },
    };
    let where_played = match (&field, file) {
        (Field::Given(c), Some(path)) => format!("\"{}\" ({})", c.title, path.display()),
        _ => format!("generated maps of {regions} regions"),
    };
    let mut out = std::io::stdout().lock();
    if trace {
        // One campaign of the first pairing, told move by move.
        let (first, second) = pairings
            .first()
            .copied()
            .unwrap_or((Opponent::Commander, Opponent::Rush));
        // The first campaign the tally plays.
        let Some((campaign, [a, b], run_seed, max_moves)) = campaign_of(&field, 0, seed, moves) else {
            bail!("no campaign with two sides could be laid out");
        };
        let players = [(a, first), (b, second)];
        let played = umpire::tournament::play(campaign, &players, run_seed ^ 0x5EED, max_moves);
        for line in &played.trace {
            writeln!(out, "{line}")?;
        }
        writeln!(
            out,
            "winner: {}",
            played.winner.as_ref().map_or("none (a draw)", SideId::as_str)
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{campaigns} campaigns a pairing on {where_played} (seeds from {seed}), up to {moves} game moves, sides swapped every other campaign"
    )?;
    writeln!(
        out,
        "{:<22} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10} {:>8} {:>8}",
        "first v second", "won", "lost", "drawn", "win %", "HQs held", "pts lost", "battles", "refused"
    )?;
    for (first, second) in pairings {
        let t = tally(first, second, campaigns, &field, seed, moves);
        let n = t.campaigns.max(1) as f64;
        writeln!(
            out,
            "{:<22} {:>6} {:>6} {:>6} {:>6.1}% {:>4.1} v {:<3.1} {:>4.0} v {:<4.0} {:>8} {:>8}",
            format!("{} v {}", first.name(), second.name()),
            t.first_wins,
            t.second_wins,
            t.draws,
            100.0 * t.first_wins as f64 / n,
            t.first_hqs as f64 / n,
            t.second_hqs as f64 / n,
            t.first_points_lost as f64 / n,
            t.second_points_lost as f64 / n,
            t.battles,
            t.refused_orders
        )?;
        let share = |(n, won): (usize, usize)| 100.0 * won as f64 / n.max(1) as f64;
        writeln!(
            out,
            "  {} as the first side {:.1}%, as the second {:.1}%",
            first.name(),
            share(t.by_side[0]),
            share(t.by_side[1])
        )?;
        if t.unfought > 0 {
            writeln!(
                out,
                "  {} battles could not be fought and stayed pending (see --trace)",
                t.unfought
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `umpire ai SAVE SIDE [--seed N] [--give] [--out FILE]`.
pub(crate) fn orders(
    save: &Path,
    side: &str,
    seed: Option<u64>,
    give: bool,
    out: Option<&Path>,
) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let side = SideId::new(side);
    let log = store.events()?;
    let decided = desk::commander_orders(&campaign, &log, &side, seed)?;
    let text = write_orders_file(&campaign.title, &decided.orders);
    if let Some(out) = out {
        umpire::files::write_file(out, text.as_bytes())?;
    }
    if give {
        desk::give_commander_orders(&mut store, (&campaign, at), &decided)
            .with_context(|| format!("the orders for {side} were not given"))?;
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "The programmed commander of {side}, game move {} (dice seed {}):",
        campaign.turn, decided.seed
    )?;
    for line in &decided.log {
        writeln!(stdout, "  {line}")?;
    }
    writeln!(stdout, "Orders: {}.", decided.orders.summary())?;
    match (give, out) {
        (true, _) => writeln!(stdout, "Given for game move {}.", campaign.turn)?,
        (false, Some(out)) => writeln!(
            stdout,
            "Written to {} (give them with `umpire orders`, or run again with --give).",
            out.display()
        )?,
        (false, None) => {
            writeln!(stdout, "Not given (run again with --give). As an orders file:\n")?;
            write!(stdout, "{text}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `umpire ai SAVE SIDE --play|--stop`: the program plays the side from now on, or stops.
pub(crate) fn mark(save: &Path, side: &str, play: bool) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let Some(found) = campaign
        .sides
        .iter()
        .find(|s| s.id.as_str() == side || s.name == side)
    else {
        bail!("no side `{side}` in this campaign: `umpire status` lists the sides");
    };
    let id = found.id.clone();
    store.set_programmed(at, &id, play)?;
    let mut stdout = std::io::stdout().lock();
    if play {
        writeln!(
            stdout,
            "The program now plays {} ({id}): `umpire turn` gives its orders from its own report when it has none.",
            found.name
        )?;
    } else {
        writeln!(stdout, "A person plays {} ({id}) again.", found.name)?;
    }
    Ok(ExitCode::SUCCESS)
}
