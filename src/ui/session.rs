//! The app's hold on one campaign: the open save, the campaign loaded from it,
//! its log and the orders waiting, and the commands that change them.
//!
//! The window never changes the campaign itself: it sends a [`Command`], and
//! [`Session::apply`] carries it out through the same core API the CLI uses,
//! each write one transaction in the save. A command that fails leaves the
//! campaign as it was and comes back as a message for the window to show.

use crate::desk::{self, DeskError};
use crate::handoff::sheet::Filled;
use crate::model::event::Edit;
use crate::model::{Campaign, Event, ForceId, RuleSetId, SideId};
use crate::store::{Overwrite, Revision, Store, StoreError, Undone};
use crate::strategy::{self, Order, OrderRequest, OrderSet, TurnOutcome};
use std::path::{Path, PathBuf};

/// Where a hand-given order came from, as the save's orders table records it.
pub const ORDERS_SOURCE: &str = "given in the app";

/// What the window asks of the session. Applied after the frame that asked,
/// in the order asked. New kinds of work (battles: odds, packs, results) add
/// variants here and arms in [`Session::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Give one order to one force of `side`; checked against the campaign,
    /// refused whole with the reason if it is bad.
    Order { side: SideId, request: OrderRequest },
    /// Take back the last orders given, or else the last game move.
    Undo,
    /// Give again the orders the last undo took back.
    Redo,
    /// Resolve the game move with every side's orders.
    EndTurn,
    /// Write a pending battle's battle pack into a folder.
    WritePack {
        battle: u32,
        rules: Option<RuleSetId>,
        dir: PathBuf,
        /// The paper `pack.pdf`'s sheets are laid out for.
        paper: crate::handoff::tiles::Paper,
    },
    /// Fight a pending battle with the engine and apply the outcome.
    Resolve {
        battle: u32,
        rules: Option<RuleSetId>,
        seed: Option<u64>,
    },
    /// Apply a battle fought on the table, from the result form.
    EnterResult {
        battle: u32,
        rules: RuleSetId,
        filled: Filled,
    },
    /// The umpire's pencil: an edit outside the rules, with the reason.
    Edit { edit: Edit, reason: String },
    /// The program plays `side` from now on (`on`), or a person does.
    SetProgrammed { side: SideId, on: bool },
}

/// What a command did, for the window to tell.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// The orders were taken: a sentence saying so.
    Ordered(String),
    Undone(String),
    Redone(String),
    /// A game move was resolved: its number and what happened.
    TurnResolved {
        turn: u32,
        events: Vec<Event>,
    },
    /// A battle pack was written: the files.
    PackWritten {
        battle: u32,
        files: Vec<PathBuf>,
    },
    /// A battle's result was applied: what happened.
    BattleFought {
        battle: u32,
        events: Vec<Event>,
    },
    /// An umpire's edit was made: the sentence the log keeps.
    Edited(String),
}

/// Why a command was not carried out. The campaign is as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// An order the rules refuse, with every reason.
    #[error("order refused: {}", .0.join("; "))]
    Order(Vec<String>),
    /// Nothing to redo, a save that moved on, and the like.
    #[error("{0}")]
    Nothing(String),
    /// The save could not be read or written.
    #[error("{0}")]
    Store(String),
    /// A result, a pack or an engine run refused, with every reason.
    #[error("{}", .0.join("; "))]
    Battle(Vec<String>),
}

impl From<DeskError> for Refusal {
    fn from(error: DeskError) -> Self {
        match error {
            // The form's problems, without the sheet's line numbers.
            DeskError::Sheet(e) => Refusal::Battle(e.problems.into_iter().map(|p| p.message).collect()),
            // The campaign's end: no orders or game moves, and why.
            DeskError::Over(over) => Refusal::Nothing(over.to_string()),
            other => Refusal::Battle(vec![other.to_string()]),
        }
    }
}

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Self {
        Refusal::Store(error.to_string())
    }
}

/// One open campaign.
#[derive(Debug)]
pub struct Session {
    store: Store,
    campaign: Campaign,
    events: Vec<Event>,
    pending: Vec<OrderSet>,
    /// Orders taken back by undo, newest last, to give again by redo.
    redo: Vec<OrderSet>,
    /// Counts changes, so views can keep what they computed until it moves.
    revision: u64,
    /// The save's revision the campaign, log and orders above were read at:
    /// every change is written only if the save is still there.
    at: Revision,
    /// SQLite's count of changes other connections committed, when last read.
    outside: i64,
}

impl Session {
    /// Opens an existing save.
    pub fn open(path: &Path) -> Result<Session, Refusal> {
        Session::from_store(Store::open(path)?)
    }

    /// Creates a save at `save` from a campaign and opens it.
    pub fn create(save: &Path, campaign: &Campaign, overwrite: Overwrite) -> Result<Session, Refusal> {
        Session::from_store(Store::create(save, campaign, overwrite)?)
    }

    /// Creates a save from a campaign file and its map, as `umpire new` does.
    pub fn create_from_file(campaign_file: &Path, save: &Path) -> Result<Session, Refusal> {
        let checked = crate::files::load_campaign(campaign_file);
        let Some(campaign) = checked.value else {
            let problems: Vec<String> = checked
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(ToString::to_string)
                .collect();
            return Err(Refusal::Nothing(format!(
                "{} cannot be used, nothing was created: {}",
                campaign_file.display(),
                problems.join("; ")
            )));
        };
        let mut session = Session::create(save, &campaign, Overwrite::Refuse)?;
        // A picture that cannot be read leaves the map without it, not the campaign.
        if let (Ok(Some(png)), Some(background)) = (
            crate::files::load_map_picture(campaign_file, &campaign),
            &campaign.map.background,
        ) {
            session.store.set_picture(&background.file, &png)?;
        }
        Ok(session)
    }

    /// Keeps the map's background picture in the save.
    pub fn set_picture(&mut self, png: &[u8]) -> Result<(), Refusal> {
        if let Some(background) = &self.campaign.map.background {
            self.store.set_picture(&background.file, png)?;
        }
        Ok(())
    }

    /// Whether the view of `seat` (a side, or the umpire: `None`) has a
    /// hot-seat passphrase. A save that cannot be read says no.
    pub fn has_passphrase(&self, seat: Option<&SideId>) -> bool {
        self.store.has_passphrase(seat).unwrap_or(false)
    }

    /// Whether `given` opens the view of `seat`.
    pub fn check_passphrase(&self, seat: Option<&SideId>, given: &str) -> Result<bool, Refusal> {
        Ok(self.store.check_passphrase(seat, given)?)
    }

    /// Sets or clears the passphrase of a view, if the save is still as read.
    pub fn set_passphrase(&mut self, seat: Option<&SideId>, passphrase: Option<&str>) -> Result<(), Refusal> {
        Ok(self.store.set_passphrase(self.at, seat, passphrase)?)
    }

    /// The map's background picture kept in the save, with where it lies.
    pub fn picture(&self) -> Option<(crate::model::Background, Vec<u8>)> {
        let background = self.campaign.map.background.clone()?;
        let png = self.store.picture(&background.file).ok()??;
        Some((background, png))
    }

    fn from_store(store: Store) -> Result<Session, Refusal> {
        let outside = store.outside_changes()?;
        let ((campaign, events, pending), at) = store.read_at(|store| {
            Ok((
                store.load()?,
                store.events_with_states()?,
                store.pending_orders()?,
            ))
        })?;
        Ok(Session {
            store,
            campaign,
            events,
            pending,
            redo: Vec::new(),
            revision: 0,
            at,
            outside,
        })
    }

    /// Reloads what another window, command or program changed in the save
    /// since it was last read, if anything; says what it was. Cheap when
    /// nothing changed: ask it every frame.
    pub fn catch_up(&mut self) -> Result<Option<String>, Refusal> {
        let outside = self.store.outside_changes()?;
        if outside == self.outside {
            return Ok(None);
        }
        self.outside = outside;
        let was = self.at;
        let moves = self.campaign.turn;
        self.reload()?;
        if self.at == was {
            // A battle's record or a picture: nothing the log tells.
            return Ok(Some(
                "The save was changed by another program; the window has reloaded it.".to_owned(),
            ));
        }
        self.redo.clear();
        let what = self
            .store
            .changes_since(was)
            .unwrap_or_else(|_| "see the log".to_owned());
        let now = if self.campaign.turn == moves {
            String::new()
        } else {
            format!(", and it is now at game move {}", self.campaign.turn)
        };
        Ok(Some(format!(
            "The save was changed by another program ({what}){now}; the window has reloaded it."
        )))
    }

    pub fn path(&self) -> &Path {
        self.store.path()
    }

    pub fn campaign(&self) -> &Campaign {
        &self.campaign
    }

    /// The whole event log, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Orders given for the current game move, in the order given.
    pub fn pending(&self) -> &[OrderSet] {
        &self.pending
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The side whose orders a redo would give again.
    pub fn redo_side(&self) -> Option<&SideId> {
        self.redo.last().map(|set| &set.side)
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The march the orders given this game move send `force` on, if any:
    /// the last order for it wins, as in the game move.
    pub fn ordered_march(
        &self,
        force: &ForceId,
    ) -> Option<(&[crate::model::RegionId], bool, crate::model::Conveyance)> {
        let mut found = None;
        for order in self.pending.iter().flat_map(|set| &set.orders) {
            match order {
                Order::March {
                    force: f,
                    path,
                    forced,
                    by,
                } if f == force => found = Some((path.as_slice(), *forced, *by)),
                Order::Hold { force: f } if f == force => found = None,
                _ => {}
            }
        }
        found
    }

    /// Copies the save, its whole history included, to `path` and goes on there.
    pub fn save_as(&mut self, path: &Path) -> Result<(), Refusal> {
        let store = self.store.save_as(path, Overwrite::Refuse)?;
        self.store = store;
        self.revision += 1;
        Ok(())
    }

    /// Carries out one command; on refusal nothing has changed.
    pub fn apply(&mut self, command: &Command) -> Result<Applied, Refusal> {
        match command {
            Command::Order { side, request } => self.order(side, request),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::EndTurn => {
                // After the campaign's end, refused before anything is resolved.
                desk::still_open(&self.campaign)?;
                self.give_programmed()?;
                let work = self.turn_work();
                let outcome = strategy::resolve(&work.before, &work.orders);
                self.commit_turn(&work, &outcome)
            }
            Command::WritePack {
                battle,
                rules,
                dir,
                paper,
            } => {
                let written = desk::write_pack(
                    &mut self.store,
                    (&self.campaign, self.at),
                    *battle,
                    *rules,
                    dir,
                    *paper,
                )
                .map_err(|e| self.refused(e, "write the pack again"))?;
                self.reload()?;
                Ok(Applied::PackWritten {
                    battle: *battle,
                    files: written.files,
                })
            }
            Command::Resolve { battle, rules, seed } => {
                let applied =
                    desk::resolve(&mut self.store, (&self.campaign, self.at), *battle, *rules, *seed)
                        .map_err(|e| self.refused(e, "fight it again"))?;
                self.after_battle(*battle, applied.events)
            }
            Command::EnterResult {
                battle,
                rules,
                filled,
            } => {
                let applied = desk::enter_form(
                    &mut self.store,
                    (&self.campaign, self.at),
                    *battle,
                    *rules,
                    filled,
                )
                .map_err(|e| self.refused(e, "enter the result again"))?;
                self.after_battle(*battle, applied.events)
            }
            Command::Edit { edit, reason } => {
                let made = desk::edit(&mut self.store, (&self.campaign, self.at), edit, reason)
                    .map_err(|e| self.refused(e, "make the edit again"))?;
                self.redo.clear();
                self.reload()?;
                let said = made
                    .events
                    .first()
                    .map_or_else(|| "The edit was made.".to_owned(), |e| e.sentence.clone());
                Ok(Applied::Edited(said))
            }
            Command::SetProgrammed { side, on } => {
                self.store
                    .set_programmed(self.at, side, *on)
                    .map_err(|e| self.refused(e.into(), "mark the side again"))?;
                let name = self
                    .campaign
                    .side(side)
                    .map_or(side.as_str(), |s| s.name.as_str());
                Ok(Applied::Edited(if *on {
                    format!(
                        "The program now plays the {name}: its orders are given at End turn, from its own report."
                    )
                } else {
                    format!("A person plays the {name} again.")
                }))
            }
        }
    }

    /// The sides the program plays (none when the save cannot say).
    pub fn programmed_sides(&self) -> Vec<SideId> {
        self.store.programmed_sides().unwrap_or_default()
    }

    /// Gives the orders of the sides the program plays that have none yet
    /// (`desk::give_programmed_orders`), before End turn resolves the game move.
    pub fn give_programmed(&mut self) -> Result<(), Refusal> {
        let given = desk::give_programmed_orders(&mut self.store, (&self.campaign, self.at))
            .map_err(|e| self.refused(e, "press End turn again"))?;
        if !given.1.is_empty() {
            self.reload()?;
        }
        Ok(())
    }

    fn after_battle(&mut self, battle: u32, events: Vec<Event>) -> Result<Applied, Refusal> {
        self.redo.clear();
        self.reload()?;
        Ok(Applied::BattleFought { battle, events })
    }

    /// Checks one request alone, without giving it: the order it would be.
    pub fn check(&self, side: &SideId, request: &OrderRequest) -> Result<OrderSet, Refusal> {
        strategy::check_requests(&self.campaign, side, std::slice::from_ref(request))
            .map_err(|problems| Refusal::Order(problems.into_iter().map(|p| p.message).collect()))
    }

    fn order(&mut self, side: &SideId, request: &OrderRequest) -> Result<Applied, Refusal> {
        // An order stands on its own: checked against the save as it is now,
        // it keeps what another program gave meanwhile.
        self.catch_up()?;
        let set = self.check(side, request)?;
        desk::submit_orders(&mut self.store, (&self.campaign, self.at), &set, ORDERS_SOURCE)
            .map_err(|e| self.refused(e, "give the order again"))?;
        self.redo.clear();
        self.reload()?;
        let force = self
            .campaign
            .force(&request.force)
            .map_or(request.force.as_str(), |f| f.name.as_str())
            .to_owned();
        Ok(Applied::Ordered(format!(
            "{force}: {}",
            describe(&self.campaign, &set)
        )))
    }

    fn undo(&mut self) -> Result<Applied, Refusal> {
        let last = self.pending.last().cloned();
        let undone = self
            .store
            .undo(self.at)
            .map_err(|e| self.refused(e.into(), "undo again if you still mean to"))?;
        let said = match undone {
            Undone::Orders { side, turn, .. } => {
                if let Some(set) = last {
                    self.redo.push(set);
                }
                let name = self
                    .campaign
                    .side(&side)
                    .map_or(side.as_str(), |s| s.name.as_str());
                format!("Took back an order of {name} for game move {turn}.")
            }
            Undone::Turn { turn } => {
                self.redo.clear();
                format!("Undid game move {turn}: its orders wait to be resolved again.")
            }
            Undone::Battle { battle, .. } => {
                self.redo.clear();
                format!("Took back the result of battle {battle}: it is pending again.")
            }
            Undone::Edit { .. } => {
                self.redo.clear();
                "Took back the umpire's last edit.".to_owned()
            }
        };
        self.reload()?;
        Ok(Applied::Undone(said))
    }

    fn redo(&mut self) -> Result<Applied, Refusal> {
        let Some(set) = self.redo.last().cloned() else {
            return Err(Refusal::Nothing(
                "nothing to redo: no orders were taken back".to_owned(),
            ));
        };
        if set.turn != self.campaign.turn {
            self.redo.clear();
            return Err(Refusal::Nothing(format!(
                "the orders taken back were for game move {}, and the campaign is at game move {}",
                set.turn, self.campaign.turn
            )));
        }
        // Checked again: the campaign may have moved on since.
        let requests: Vec<OrderRequest> = set.orders.iter().map(request_of).collect();
        let checked = strategy::check_requests(&self.campaign, &set.side, &requests)
            .map_err(|problems| Refusal::Order(problems.into_iter().map(|p| p.message).collect()))?;
        desk::submit_orders(
            &mut self.store,
            (&self.campaign, self.at),
            &checked,
            ORDERS_SOURCE,
        )
        .map_err(|e| self.refused(e, "redo again"))?;
        self.redo.pop();
        self.reload()?;
        Ok(Applied::Redone(format!(
            "Gave again: {}",
            describe(&self.campaign, &checked)
        )))
    }

    /// The state and orders a game move is resolved from, to resolve on
    /// another thread when the map is large.
    pub fn turn_work(&self) -> TurnWork {
        TurnWork {
            before: self.campaign.clone(),
            orders: self.pending.clone(),
            at: self.at,
        }
    }

    /// Writes a game move resolved from `work` (see [`Session::turn_work`]).
    pub fn commit_turn(&mut self, work: &TurnWork, outcome: &TurnOutcome) -> Result<Applied, Refusal> {
        desk::commit_turn(&mut self.store, (&work.before, work.at), outcome)
            .map_err(|e| self.refused(e, "press End turn again"))?;
        self.redo.clear();
        self.reload()?;
        Ok(Applied::TurnResolved {
            turn: work.before.turn,
            events: outcome.events.clone(),
        })
    }

    /// A refusal to tell; when the save moved on under the window, the
    /// window reloads it first and says what to do now (`again`).
    fn refused(&mut self, error: DeskError, again: &str) -> Refusal {
        match error {
            DeskError::Store(StoreError::Moved { changes, .. }) => {
                let reloaded = self.reload();
                self.redo.clear();
                self.outside = self.store.outside_changes().unwrap_or(self.outside);
                match reloaded {
                    Ok(()) => Refusal::Nothing(format!(
                        "The save moved on: {changes}. The window has reloaded it; {again}."
                    )),
                    Err(refusal) => refusal,
                }
            }
            other => other.into(),
        }
    }

    /// Reads the campaign, the new part of the log and the orders back from
    /// the save, at one revision.
    fn reload(&mut self) -> Result<(), Refusal> {
        let known = self.events.len();
        let ((campaign, more, pending), at) = self.store.read_at(|store| {
            // Only what was appended: the log's checkpoints hold whole states.
            Ok((
                store.load()?,
                store.events_with_states_from(known)?,
                store.pending_orders()?,
            ))
        })?;
        self.campaign = campaign;
        self.events.extend(more);
        self.pending = pending;
        self.at = at;
        self.revision += 1;
        Ok(())
    }
}

/// What a game move is resolved from: the state and the orders waiting, as
/// read at one revision of the save.
#[derive(Debug, Clone)]
pub struct TurnWork {
    pub before: Campaign,
    pub orders: Vec<OrderSet>,
    pub at: Revision,
}

/// The request that gives `order` again.
pub(super) fn request_of(order: &Order) -> OrderRequest {
    use strategy::Action;
    match order {
        Order::March {
            force,
            path,
            forced,
            by,
        } => OrderRequest {
            force: force.clone(),
            action: Action::March(path.clone()),
            forced: *forced,
            by: *by,
        },
        Order::Hold { force } => OrderRequest {
            force: force.clone(),
            action: Action::Hold,
            forced: false,
            by: Default::default(),
        },
        Order::Split {
            force,
            stands,
            new_force,
            name,
        } => OrderRequest {
            force: force.clone(),
            action: Action::Split {
                stands: stands.clone(),
                new_force: new_force.clone(),
                name: name.clone(),
            },
            forced: false,
            by: Default::default(),
        },
        Order::Merge { force, into } => OrderRequest {
            force: force.clone(),
            action: Action::MergeInto(into.clone()),
            forced: false,
            by: Default::default(),
        },
    }
}

/// "march to Cairo (3 regions)" and the like.
pub fn describe(campaign: &Campaign, set: &OrderSet) -> String {
    let parts: Vec<String> = set
        .orders
        .iter()
        .map(|order| match order {
            Order::March { path, forced, .. } => format!(
                "{} to {} ({} region{})",
                if *forced { "forced march" } else { "march" },
                path.last().map_or("?", |r| campaign.map.region_name(r)),
                path.len(),
                if path.len() == 1 { "" } else { "s" }
            ),
            Order::Hold { .. } => "hold".to_owned(),
            Order::Split { stands, name, .. } => format!(
                "split off {} as {name}",
                crate::model::text::count(stands.len() as u64, "stand", "stands")
            ),
            Order::Merge { into, .. } => format!(
                "merge into {}",
                campaign.force(into).map_or(into.as_str(), |f| f.name.as_str())
            ),
        })
        .collect();
    parts.join(", ")
}

/// The default place for saves: the platform's data folder for umpire.
pub fn data_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "umpire").map(|dirs| dirs.data_dir().to_owned())
}
