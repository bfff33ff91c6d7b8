//! `umpire seat`: the hot seat's passphrases, set by the umpire. The window
//! asks for a view's passphrase before it shows that view; the save keeps
//! only a salted Argon2id hash of each.

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use umpire::model::text::printable;
use umpire::store::Store;
use umpire::strategy::edit::find_side;

#[derive(Debug, Subcommand)]
pub(super) enum SeatCommand {
    /// Set the passphrase the window asks before it shows a side's view or the
    /// umpire's, read as one line from standard input; or clear it with --clear.
    Passphrase {
        /// The campaign save.
        save: std::path::PathBuf,
        /// Whose view: a side (its id or name), or `umpire`.
        seat: String,
        /// Remove the passphrase: the view opens without one.
        #[arg(long)]
        clear: bool,
    },
}

pub(super) fn seat(command: &SeatCommand) -> Result<ExitCode> {
    match command {
        SeatCommand::Passphrase { save, seat, clear } => passphrase(save, seat, *clear),
    }
}

fn passphrase(save: &Path, seat: &str, clear: bool) -> Result<ExitCode> {
    let mut store = Store::open(save)?;
    let (campaign, at) = store.read_at(Store::load)?;
    let side = if seat.trim().eq_ignore_ascii_case("umpire") {
        None
    } else {
        Some(find_side(&campaign, seat).map_err(|why| anyhow!("{}: {why}, or `umpire`", save.display()))?)
    };
    let whose = side
        .as_ref()
        .and_then(|s| campaign.side(s))
        .map_or_else(|| "the umpire".to_owned(), |s| printable(&s.name).into_owned());
    let passphrase = if clear {
        None
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        let line = line.trim_end_matches(['\n', '\r']).to_owned();
        if line.is_empty() {
            bail!(
                "no passphrase was given for {whose}'s view: write it as one line on standard input (e.g. `umpire seat passphrase {} {seat} < file`), or pass --clear to remove it",
                save.display()
            );
        }
        Some(line)
    };
    store.set_passphrase(at, side.as_ref(), passphrase.as_deref())?;
    let said = match passphrase {
        Some(_) => {
            format!("Set the passphrase of {whose}'s view: the window asks for it before it shows that view.")
        }
        None => format!("Cleared the passphrase of {whose}'s view: it opens without one."),
    };
    writeln!(std::io::stdout(), "{said}")?;
    Ok(ExitCode::SUCCESS)
}
