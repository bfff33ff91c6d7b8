//! `umpire serve`: the server for play across houses (`umpire::serve`), and
//! its tokens: `umpire serve token SAVE SIDE|umpire` prints a new link's
//! token, kept in the save only as its SHA-256 hash; `--revoke` takes every
//! token of that side (or the umpire's) back.

use anyhow::{Context, Result, anyhow};
use clap::Subcommand;
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use umpire::model::text::printable;
use umpire::store::{Seat, Store};
use umpire::strategy::edit::find_side;

#[derive(Debug, Subcommand)]
pub(super) enum ServeCommand {
    /// Print a new token (and its link) for a side's view or the umpire's; or
    /// revoke every token of that side with --revoke.
    Token {
        /// The campaign save.
        save: std::path::PathBuf,
        /// Whose: a side (its id or name), or `umpire`.
        seat: String,
        /// Revoke every token of this side (or the umpire's) instead.
        #[arg(long)]
        revoke: bool,
        /// The server's address as players reach it, for the link.
        #[arg(long, default_value = "http://127.0.0.1:7878")]
        url: String,
    },
    /// Call the club's webhook (a chat room's incoming hook, or any address
    /// that takes a JSON POST) when a game move is resolved and before the
    /// deadline; --off stops it.
    Remind {
        /// The campaign save.
        save: std::path::PathBuf,
        /// The webhook: an http:// or https:// address.
        #[arg(required_unless_present = "off")]
        webhook: Option<String>,
        /// Minutes before the deadline to remind the sides that have not given orders.
        #[arg(long, default_value_t = 60)]
        before: u32,
        /// No more reminders.
        #[arg(long, conflicts_with = "webhook")]
        off: bool,
    },
}

pub(super) fn serve(dir: &Path, bind: &str) -> Result<ExitCode> {
    let addr: SocketAddr = bind.parse().map_err(|e| {
        anyhow!("--bind {bind}: not an address and port ({e}); write it as 127.0.0.1:7878 or 0.0.0.0:7878")
    })?;
    umpire::serve::run(dir, addr, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "umpire serve: listening on http://{addr}/ for the saves in {}",
            dir.display()
        );
        let _ = out.flush();
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn command(command: &ServeCommand) -> Result<ExitCode> {
    match command {
        ServeCommand::Token {
            save,
            seat,
            revoke,
            url,
        } => token(save, seat, *revoke, url),
        ServeCommand::Remind {
            save,
            webhook,
            before,
            off,
        } => remind(save, webhook.as_deref().filter(|_| !off), *before),
    }
}

fn remind(save: &Path, webhook: Option<&str>, before: u32) -> Result<ExitCode> {
    if let Some(url) = webhook {
        umpire::serve::remind::check_webhook(url)
            .map_err(|why| anyhow!("{why}: give the webhook's address as the chat room shows it, e.g. https://chat.example/hooks/abc"))?;
    }
    let mut store = Store::open(save)?;
    let campaign = store.load()?;
    let at = store.revision()?;
    umpire::desk::served::set_reminders(
        &mut store,
        at,
        webhook.map(|url| (url.trim(), before)),
        campaign.turn,
    )?;
    let mut out = std::io::stdout().lock();
    match webhook {
        Some(url) => writeln!(
            out,
            "{}: the server calls {} when a game move is resolved, and {before} minutes before a deadline for the sides that have not given orders.",
            save.display(),
            url.trim()
        )?,
        None => writeln!(out, "{}: no more reminders.", save.display())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn token(save: &Path, seat: &str, revoke: bool, url: &str) -> Result<ExitCode> {
    let mut store = Store::open(save)?;
    let campaign = store.load()?;
    let seat = if seat.trim().eq_ignore_ascii_case("umpire") {
        Seat::Umpire
    } else {
        Seat::Side(
            find_side(&campaign, seat).map_err(|why| anyhow!("{}: {why}, or `umpire`", save.display()))?,
        )
    };
    let whose = match &seat {
        Seat::Umpire => "the umpire".to_owned(),
        Seat::Side(side) => campaign
            .side(side)
            .map_or_else(|| side.as_str().to_owned(), |s| printable(&s.name).into_owned()),
    };
    let mut out = std::io::stdout().lock();
    if revoke {
        let gone = store.revoke_tokens(&seat)?;
        writeln!(
            out,
            "Revoked {gone} token{} of {whose}: their links no longer open anything.",
            if gone == 1 { "" } else { "s" }
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let (token, hash) = umpire::serve::token::new_token()?;
    store.add_token(&seat, hash)?;
    let id = save
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the save's name is not UTF-8, so no link can name it: rename the save")?;
    let url = url.trim_end_matches('/');
    writeln!(
        out,
        "Token for {whose} (keep it secret; the save keeps only its hash):"
    )?;
    writeln!(out, "{token}")?;
    match &seat {
        Seat::Side(side) => writeln!(out, "Link: {url}/campaigns/{id}/sides/{side}?token={token}")?,
        Seat::Umpire => {
            writeln!(
                out,
                "API: {url}/api/campaigns/{id} with `Authorization: Bearer {token}`"
            )?;
            writeln!(
                out,
                "Link for the window (File > Open served campaign…): {url}/campaigns/{id}?token={token}"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
