//! Which changes still stand after undos: the one walk over the event log
//! that the store (undo), the reports, the window's history and the CLI's
//! log share.
//!
//! The log is append-only. `campaign_created` is the bottom of a stack;
//! each change (a game move, a battle's result) ends in a `checkpoint` that
//! pushes it, with the events it made (`first_seq` up to the checkpoint, in
//! its game move); each `turn_undone` or `result_undone` pops the last
//! change still standing, whose events are then taken back.

use super::event::{Event, EventKind};
use std::collections::BTreeSet;

/// What one entry of the log does to the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The campaign's start (`campaign_created`): the bottom of the stack.
    Start,
    /// A change (a game move or a battle's result) ends here, at its
    /// checkpoint; its events run from `first_seq`.
    Change {
        first_seq: u32,
        battle: Option<u32>,
        /// An umpire's edit, not a game move.
        edit: bool,
    },
    /// An undo: the last change standing is taken back.
    Undo,
    /// Anything else that happened: part of the change whose checkpoint follows.
    Told,
}

impl EventKind {
    /// What an event of this kind does to the history.
    pub fn step(&self) -> Step {
        use EventKind as K;
        match self {
            K::CampaignCreated(_) => Step::Start,
            K::Checkpoint(c) => Step::Change {
                first_seq: c.first_seq,
                battle: c.battle,
                edit: c.edit,
            },
            K::TurnUndone(_) | K::ResultUndone(_) | K::EditUndone(_) => Step::Undo,
            K::LogStarted(_)
            | K::ServerSettings(_)
            | K::CampaignEnded(_)
            | K::Edited(_)
            | K::OrdersGiven(_)
            | K::OrdersWithdrawn(_)
            | K::OrderLapsed(_)
            | K::ForceSplit(_)
            | K::ForcesMerged(_)
            | K::Rested(_)
            | K::Moved(_)
            | K::MustRest(_)
            | K::ForcedMarchLoss(_)
            | K::StandsRejoined(_)
            | K::BattleCreated(_)
            | K::BattleJoined(_)
            | K::BattleCalledOff(_)
            | K::HqCaptured(_)
            | K::HqRetaken(_)
            | K::HqLoss(_)
            | K::SupplyRestored(_)
            | K::SupplyCut(_)
            | K::SupplyStillCut(_)
            | K::SupplyLoss(_)
            | K::ForceDestroyed(_)
            | K::TurnEnded(_)
            | K::BattleLosses(_)
            | K::GunCaptured(_)
            | K::BattleFought(_)
            | K::Retreated(_)
            | K::DestroyedInRetreat(_)
            | K::ForceSighted(_)
            | K::ForceIdentified(_)
            | K::ForceConcealed(_)
            | K::ForceLostSight(_)
            | K::ForceGone(_)
            | K::ScoutsDroveOffScreen(_)
            | K::ScoutsBrokeCover(_)
            | K::ScoutsDrivenOff(_)
            | K::ReinforcementArrived(_)
            | K::ReplacementsArrived(_)
            | K::ReplacementsWithheld(_) => Step::Told,
        }
    }

    /// The log's own bookkeeping (checkpoints and undos), not something
    /// that happened in the campaign.
    pub fn is_bookkeeping(&self) -> bool {
        matches!(self.step(), Step::Change { .. } | Step::Undo)
    }
}

/// One entry of the log as the walk reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub turn: u32,
    pub seq: u32,
    pub step: Step,
}

impl Entry {
    pub fn of(event: &Event) -> Entry {
        Entry {
            turn: event.turn,
            seq: event.seq,
            step: event.kind.step(),
        }
    }
}

/// A state the log can go back to: the start, or a change still standing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The index of its entry in the log (its checkpoint, or `campaign_created`).
    pub at: usize,
    pub turn: u32,
    /// Its first event's seq (the start's own seq for the start).
    pub first_seq: u32,
    /// Its checkpoint's seq.
    pub seq: u32,
    /// The campaign's start, not a change.
    pub start: bool,
    /// The battle whose result it is, if it is one.
    pub battle: Option<u32>,
    /// An umpire's edit, not a game move.
    pub edit: bool,
    /// Indexes of the events it made (not its checkpoint), oldest first.
    pub made: Vec<usize>,
}

/// The log walked: what stands and what was taken back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    /// The start and every change still standing, oldest first.
    pub standing: Vec<Change>,
    /// Indexes of the entries taken back: the events of undone changes and
    /// their checkpoints.
    pub undone: BTreeSet<usize>,
}

impl History {
    /// Walks a whole log.
    pub fn of(log: &[Event]) -> History {
        History::walk(log.iter().map(Entry::of))
    }

    /// Walks `entries`, oldest first (their positions are the indexes used
    /// in [`Change::at`], [`Change::made`] and [`History::undone`]).
    pub fn walk(entries: impl IntoIterator<Item = Entry>) -> History {
        let mut history = History::default();
        // Events told since the last checkpoint, start or undo.
        let mut told: Vec<(usize, Entry)> = Vec::new();
        for (at, entry) in entries.into_iter().enumerate() {
            match entry.step {
                Step::Start => {
                    history.standing.push(Change {
                        at,
                        turn: entry.turn,
                        first_seq: entry.seq,
                        seq: entry.seq,
                        start: true,
                        battle: None,
                        edit: false,
                        made: Vec::new(),
                    });
                    told.clear();
                }
                Step::Change {
                    first_seq,
                    battle,
                    edit,
                } => {
                    let made = told
                        .drain(..)
                        .filter(|(_, e)| e.turn == entry.turn && (first_seq..entry.seq).contains(&e.seq))
                        .map(|(i, _)| i)
                        .collect();
                    history.standing.push(Change {
                        at,
                        turn: entry.turn,
                        first_seq,
                        seq: entry.seq,
                        start: false,
                        battle,
                        edit,
                        made,
                    });
                }
                Step::Undo => {
                    // The start is never taken back.
                    if history.standing.last().is_some_and(|c| !c.start)
                        && let Some(popped) = history.standing.pop()
                    {
                        history.undone.insert(popped.at);
                        history.undone.extend(popped.made);
                    }
                    told.clear();
                }
                Step::Told => told.push((at, entry)),
            }
        }
        history
    }

    /// Whether the entry at `index` was taken back by an undo.
    pub fn is_undone(&self, index: usize) -> bool {
        self.undone.contains(&index)
    }

    /// The last change still standing, if any (never the start).
    pub fn last_change(&self) -> Option<&Change> {
        self.standing.last().filter(|c| !c.start)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn told(turn: u32, seq: u32) -> Entry {
        Entry {
            turn,
            seq,
            step: Step::Told,
        }
    }

    fn change(turn: u32, first_seq: u32, seq: u32, battle: Option<u32>) -> Entry {
        Entry {
            turn,
            seq,
            step: Step::Change {
                first_seq,
                battle,
                edit: false,
            },
        }
    }

    fn undo(turn: u32, seq: u32) -> Entry {
        Entry {
            turn,
            seq,
            step: Step::Undo,
        }
    }

    #[test]
    fn an_undo_takes_back_the_last_change_and_its_events_only() {
        let log = [
            Entry {
                turn: 1,
                seq: 0,
                step: Step::Start,
            },
            told(1, 1),               // 1: orders given, before the move's events
            told(1, 2),               // 2
            change(1, 2, 3, None),    // 3: game move 1
            undo(1, 4),               // 4
            told(1, 5),               // 5
            change(1, 5, 6, None),    // 6: game move 1 again
            told(2, 0),               // 7
            change(2, 0, 1, Some(1)), // 8: battle 1's result
            undo(2, 2),               // 9
        ];
        let history = History::walk(log);
        let undone: Vec<usize> = history.undone.iter().copied().collect();
        assert_eq!(undone, [2, 3, 7, 8]);
        assert_eq!(history.standing.iter().map(|c| c.at).collect::<Vec<_>>(), [0, 6]);
        assert_eq!(history.last_change().map(|c| c.made.clone()), Some(vec![5]));
    }

    #[test]
    fn the_start_is_never_taken_back() {
        let log = [
            Entry {
                turn: 1,
                seq: 0,
                step: Step::Start,
            },
            undo(1, 1),
        ];
        let history = History::walk(log);
        assert_eq!(history.standing.len(), 1);
        assert!(history.last_change().is_none());
        assert!(history.undone.is_empty());
    }
}
