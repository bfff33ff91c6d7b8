//! `umpire edit`: the umpire's pencil on the command line. Each edit is
//! checked against the save as it is, written as one change with the
//! umpire's reason, shown in the log and taken back by `umpire undo`.

use anyhow::{Result, anyhow};
use clap::Subcommand;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use umpire::desk;
use umpire::model::event::{Edit, ForceState};
use umpire::model::text::printable;
use umpire::model::{Campaign, ForceId, Quality, StandKind, Wing};
use umpire::store::Store;
use umpire::strategy::edit::{find_force, find_region, find_side, find_stand, new_stands};

#[derive(Debug, Subcommand)]
pub(super) enum EditCommand {
    /// Put a force in a region, off any road, holding.
    Move {
        /// The force (its id or name).
        force: String,
        /// The region (its id or name).
        region: String,
        /// Why the umpire makes the change (kept in the log).
        #[arg(long)]
        reason: String,
    },
    /// Land a new force (a reinforcement) in a region, with stands of one kind;
    /// add other kinds with `add-stands`.
    AddForce {
        /// The new force's id, used in orders (letters, digits, underscores).
        id: String,
        /// Its name, e.g. "Relief Column".
        #[arg(long)]
        name: String,
        /// The side it belongs to (id or name).
        #[arg(long)]
        side: String,
        /// The region it arrives in (id or name).
        #[arg(long)]
        region: String,
        #[command(flatten)]
        stands: NewStands,
        #[arg(long)]
        reason: String,
    },
    /// Add stands of one kind to a force (replacements), at full strength.
    AddStands {
        /// The force (its id or name).
        force: String,
        #[command(flatten)]
        stands: NewStands,
        /// The stands' name (numbered when there are several); their kind when left out.
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        reason: String,
    },
    /// Take a stand off the map (by its id, as `umpire status` shows it).
    RemoveStand {
        stand: u32,
        #[arg(long)]
        reason: String,
    },
    /// Set a stand's strength in roster points (up to its full strength).
    Strength {
        stand: u32,
        points: u32,
        #[arg(long)]
        reason: String,
    },
    /// Hand an HQ to a side: SIDE's WING HQ (left, centre, right) to TO.
    HandOver {
        /// The side whose HQ it is.
        side: String,
        /// The HQ's wing: left, centre or right.
        wing: String,
        /// The side given it (its own side gives it back).
        to: String,
        #[arg(long)]
        reason: String,
    },
    /// Set a force's state: hold (drop its march), rest (must rest this game move), fresh (no fatigue).
    State {
        force: String,
        /// hold, rest or fresh.
        state: String,
        #[arg(long)]
        reason: String,
    },
    /// Declare the campaign ended, with the final standing (HQs held, then
    /// points); no orders or game moves are taken after it. `umpire undo` takes it back.
    EndCampaign {
        #[arg(long)]
        reason: String,
    },
    /// Write a ruling in the log, for every side to read.
    Ruling {
        /// The ruling, in words.
        text: String,
    },
}

/// New stands of one kind, as `add-force` and `add-stands` take them.
#[derive(Debug, clap::Args)]
pub(super) struct NewStands {
    /// The kind of the stands, e.g. line_infantry.
    #[arg(long)]
    kind: String,
    /// How many stands.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// Their quality: elite, trained or raw.
    #[arg(long, default_value = "trained")]
    quality: String,
}

impl NewStands {
    /// The stands asked for, numbered on from the campaign's highest stand id.
    fn make(&self, campaign: &Campaign, name: Option<&str>) -> Result<Vec<umpire::model::Stand>, String> {
        let kind = StandKind::parse(&self.kind).ok_or_else(|| {
            format!(
                "unknown stand kind `{}`: use one of {}",
                self.kind,
                StandKind::choices()
            )
        })?;
        let quality = Quality::parse(&self.quality).ok_or_else(|| {
            format!(
                "unknown quality `{}`: use one of {}",
                self.quality,
                Quality::choices()
            )
        })?;
        Ok(new_stands(campaign, kind, quality, self.count, name))
    }
}

pub(super) fn edit(save: &Path, command: &EditCommand) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let (edit, reason) =
        requested(&campaign, command).map_err(|problem| anyhow!("{problem}; nothing was changed"))?;
    let made = desk::edit(&mut store, (&campaign, at), &edit, &reason)?;
    let mut out = std::io::stdout().lock();
    for event in &made.events {
        writeln!(out, "{}", printable(&event.sentence))?;
    }
    writeln!(out, "`umpire undo {}` takes it back.", save.display())?;
    Ok(ExitCode::SUCCESS)
}

/// The edit a command asks for, with its reason, or what is wrong.
fn requested(campaign: &Campaign, command: &EditCommand) -> Result<(Edit, String), String> {
    use EditCommand as C;
    Ok(match command {
        C::Move {
            force,
            region,
            reason,
        } => (
            Edit::MoveForce {
                force: find_force(campaign, force)?,
                to: find_region(campaign, region)?,
            },
            reason.clone(),
        ),
        C::AddForce {
            id,
            name,
            side,
            region,
            stands,
            reason,
        } => (
            Edit::AddForce {
                force: ForceId::new(id),
                name: name.clone(),
                side: find_side(campaign, side)?,
                region: find_region(campaign, region)?,
                stands: stands.make(campaign, None)?,
            },
            reason.clone(),
        ),
        C::AddStands {
            force,
            stands,
            name,
            reason,
        } => (
            Edit::AddStands {
                force: find_force(campaign, force)?,
                stands: stands.make(campaign, name.as_deref())?,
            },
            reason.clone(),
        ),
        C::RemoveStand { stand, reason } => {
            let (force, stand) = find_stand(campaign, *stand)?;
            (Edit::RemoveStand { force, stand }, reason.clone())
        }
        C::Strength {
            stand,
            points,
            reason,
        } => {
            let (force, stand) = find_stand(campaign, *stand)?;
            (
                Edit::SetStrength {
                    force,
                    stand,
                    strength: *points,
                },
                reason.clone(),
            )
        }
        C::HandOver {
            side,
            wing,
            to,
            reason,
        } => (
            Edit::HandOverHq {
                side: find_side(campaign, side)?,
                wing: Wing::parse(wing)
                    .ok_or_else(|| format!("unknown wing `{wing}`: use one of {}", Wing::choices()))?,
                to: find_side(campaign, to)?,
            },
            reason.clone(),
        ),
        C::State { force, state, reason } => {
            let state = match state.as_str() {
                "hold" => ForceState::Hold,
                "rest" => ForceState::Rest,
                "fresh" => ForceState::Fresh,
                other => return Err(format!("unknown state `{other}`: use hold, rest or fresh")),
            };
            (
                Edit::SetState {
                    force: find_force(campaign, force)?,
                    state,
                },
                reason.clone(),
            )
        }
        C::Ruling { text } => (Edit::Ruling, text.clone()),
        C::EndCampaign { reason } => (Edit::EndCampaign, reason.clone()),
    })
}
