//! Orders, game moves and undo in the save.
//!
//! Each game move is committed in one transaction: the rows of the state it
//! changed, its events, and a `checkpoint` event whose state after the move
//! `checkpoints` keeps (as its change from the checkpoint below). Undo
//! rebuilds the state from the log: the checkpoints (and the starting state
//! in `campaign_created`) form a stack that `turn_undone` events pop.

use super::checkpoints;
use super::error::{path_text, sqlite};
use super::revision::{Revision, expect_at};
use super::rows;
use super::{Store, StoreError, begin};
use crate::model::event::{self as ev, EventKind};
use crate::model::history::{Entry, History, Step};
use crate::model::{Campaign, Event, SideId};
use crate::strategy::{OrderSet, TurnOutcome};
use rusqlite::{OptionalExtension, Transaction, params};

/// What `undo` took back.
#[derive(Debug, Clone, PartialEq)]
pub enum Undone {
    /// The last orders given and not yet resolved.
    Orders { side: SideId, turn: u32, source: String },
    /// The last resolved game move; the campaign is back at its start.
    Turn { turn: u32 },
    /// The result of battle `battle`, which is pending again.
    Battle { battle: u32, turn: u32 },
    /// The umpire's last edit, made in game move `turn`.
    Edit { turn: u32 },
}

impl Store {
    /// Records a side's checked orders for the current game move, with an
    /// `orders_given` event. `source` names where they came from (a file name).
    /// `at` is the revision the orders were checked at; if the save has moved
    /// on since, nothing is written.
    pub fn submit_orders(&mut self, at: Revision, orders: &OrderSet, source: &str) -> Result<(), StoreError> {
        self.submit_orders_noted(at, orders, source, None).map(|_| ())
    }

    /// [`submit_orders`](Store::submit_orders) with the programmed
    /// commander's note (its log and memory) kept in the `orders_given` event.
    /// Returns the save's revision with these orders, read in the same
    /// transaction: a change made from it follows on from this one alone.
    pub fn submit_orders_noted(
        &mut self,
        at: Revision,
        orders: &OrderSet,
        source: &str,
        commander: Option<serde_json::Value>,
    ) -> Result<Revision, StoreError> {
        let path = path_text(&self.path);
        let sqlite = |action| sqlite(&path, action);
        let tx = begin(&mut self.conn, &path, "starting to record the orders")?;
        expect_at(&tx, &self.path, at)?;
        let now = record_orders(&tx, &path, orders, source, commander)?;
        tx.commit().map_err(sqlite("saving the orders"))?;
        Ok(now)
    }

    /// Writes an umpire's edit: the state `after` it and its `events`, with a
    /// checkpoint marked as an edit, in one transaction, so `undo` takes it
    /// back. `before` is the state it was made to, read at revision `at`; if
    /// the save has moved on since, nothing is written.
    pub fn commit_edit(
        &mut self,
        at: Revision,
        before: &Campaign,
        after: &Campaign,
        events: &[Event],
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to write the edit")?;
        expect_at(&tx, &self.path, at)?;
        let sentence = "The state after the umpire's edit is kept here, for undo.".to_owned();
        write_change(
            &tx,
            &path,
            before.turn,
            before,
            after,
            events,
            ChangeOf::Edit,
            sentence,
        )?;
        tx.commit().map_err(sqlite(&path, "saving the edit"))
    }

    /// Orders given for the current game move and not yet resolved, oldest first.
    pub fn pending_orders(&self) -> Result<Vec<OrderSet>, StoreError> {
        let path = path_text(&self.path);
        let sqlite = |source| StoreError::Sqlite {
            path: path.clone(),
            action: "reading the orders",
            source,
        };
        let mut statement = self
            .conn
            .prepare(
                "SELECT seq, body FROM orders
                 WHERE resolved_turn IS NULL AND replaced_by IS NULL
                   AND turn = (SELECT turn FROM campaign WHERE id = 1) ORDER BY seq",
            )
            .map_err(sqlite)?;
        let rows = statement
            .query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))
            .map_err(sqlite)?;
        let mut sets = Vec::new();
        for row in rows {
            let (seq, body) = row.map_err(sqlite)?;
            let set = serde_json::from_str(&body).map_err(|e| StoreError::BadRow {
                path: path.clone(),
                table: "orders",
                key: seq.to_string(),
                detail: e.to_string(),
            })?;
            sets.push(set);
        }
        Ok(sets)
    }

    /// Writes a resolved game move: the new state, its events and a
    /// checkpoint, and marks the orders used, in one transaction. `before` is
    /// the state it was resolved from, with the orders pending, at revision
    /// `at`; if the save has moved on since (orders given, a result, an
    /// undo), nothing is written.
    pub fn commit_turn(
        &mut self,
        at: Revision,
        before: &Campaign,
        outcome: &TurnOutcome,
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let sqlite = |action| sqlite(&path, action);
        let tx = begin(&mut self.conn, &path, "starting the game move")?;
        expect_at(&tx, &self.path, at)?;
        let sentence = format!(
            "The state after game move {} is kept here, for undo.",
            before.turn
        );
        write_change(
            &tx,
            &path,
            before.turn,
            before,
            &outcome.campaign,
            &outcome.events,
            ChangeOf::GameMove,
            sentence,
        )?;
        tx.execute(
            "UPDATE orders SET resolved_turn = ?1 WHERE resolved_turn IS NULL AND turn = ?1",
            params![before.turn],
        )
        .map_err(sqlite("marking the orders used"))?;
        // The server's idempotency keys answer retries of uploads for this
        // game move only: once it is resolved a retry is refused as late
        // (orders for a game move already resolved), so the keys go, and
        // the table holds one game move's uploads at most. (After an undo a
        // late retry gives the same orders again, replacing the same ones.)
        tx.execute("DELETE FROM serve_requests", [])
            .map_err(sqlite("forgetting the server's answered uploads"))?;
        // A deadline is its game move's: resolved sooner (all orders in, the
        // umpire, `umpire turn`), it is spent, not left to cut the next one short.
        tx.execute("UPDATE serve_settings SET deadline = NULL", [])
            .map_err(sqlite("clearing the game move's deadline"))?;
        tx.commit().map_err(sqlite("saving the game move"))
    }

    /// Takes back the last change: orders not yet resolved, a battle's
    /// result, or the last resolved game move, rebuilding the state from the
    /// event log. `at` is the revision whose last change is meant; if the
    /// save has moved on since, nothing is undone.
    pub fn undo(&mut self, at: Revision) -> Result<Undone, StoreError> {
        let path = path_text(&self.path);
        let sqlite = |action| sqlite(&path, action);
        let tx = begin(&mut self.conn, &path, "starting to undo")?;
        expect_at(&tx, &self.path, at)?;
        let campaign = rows::read_campaign(&tx, &self.path)?;
        let last_orders: Option<(i64, String, String)> = tx
            .query_row(
                "SELECT seq, side, source FROM orders WHERE resolved_turn IS NULL AND replaced_by IS NULL AND turn = ?1 ORDER BY seq DESC LIMIT 1",
                params![campaign.turn],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(sqlite("reading the orders"))?;
        // Orders given after the last battle result are taken back first; a
        // result entered after the orders goes before them.
        let top = undo_stack(&tx, &path)?.pop();
        let last_orders = match (last_orders, top) {
            (Some(orders), Some(mark)) if mark.battle.is_some() || mark.edit => {
                let given: Option<i64> = tx
                    .query_row(
                        "SELECT MAX(rowid) FROM events WHERE kind = ?2 AND turn = ?1",
                        params![campaign.turn, EventKind::ORDERS_GIVEN],
                        |r| r.get(0),
                    )
                    .map_err(sqlite("reading the log"))?;
                given.is_some_and(|g| g > mark.rowid).then_some(orders)
            }
            (orders, _) => orders,
        };
        let undone = if let Some((seq, side, source)) = last_orders {
            tx.execute("DELETE FROM orders WHERE seq = ?1", params![seq])
                .map_err(sqlite("withdrawing the orders"))?;
            // The orders an upload replaced stand again without it.
            let restored = tx
                .execute(
                    "UPDATE orders SET replaced_by = NULL WHERE replaced_by = ?1",
                    params![seq],
                )
                .map_err(sqlite("bringing back the orders it replaced"))?;
            // A retry of the withdrawn upload is not to be answered "taken".
            tx.execute("DELETE FROM serve_requests", [])
                .map_err(sqlite("forgetting the server's answered uploads"))?;
            let side_name = campaign
                .side(&SideId::new(&side))
                .map_or(side.as_str(), |s| s.name.as_str())
                .to_owned();
            let event = Event {
                turn: campaign.turn,
                seq: next_seq(&tx, campaign.turn).map_err(sqlite("numbering the event"))?,
                kind: EventKind::OrdersWithdrawn(ev::OrdersWithdrawn {
                    side: SideId::new(&side),
                    source: source.clone(),
                    orders_seq: seq,
                }),
                sentence: format!(
                    "{side_name} withdrew its orders for game move {} ({source}){}.",
                    campaign.turn,
                    if restored > 0 {
                        "; the orders they replaced stand again"
                    } else {
                        ""
                    }
                ),
            };
            rows::append_event(&tx, &event).map_err(sqlite("recording the undo"))?;
            Undone::Orders {
                side: SideId::new(side),
                turn: campaign.turn,
                source,
            }
        } else {
            let (mark, restored) = restore_point(&tx, &self.path, &campaign)?;
            let (undone_turn, first_seq, last_seq) = (mark.turn, mark.first_seq, mark.seq);
            rows::write_changes(&tx, &campaign, &restored).map_err(sqlite("restoring the state"))?;
            tx.execute("DELETE FROM battle_records_changed", [])
                .map_err(sqlite("restoring the state"))?;
            if mark.edit {
                let event = Event {
                    turn: campaign.turn,
                    seq: next_seq(&tx, campaign.turn).map_err(sqlite("numbering the event"))?,
                    kind: EventKind::EditUndone(ev::EditUndone { first_seq, last_seq }),
                    sentence: "The umpire's last edit was taken back.".to_owned(),
                };
                rows::append_event(&tx, &event).map_err(sqlite("recording the undo"))?;
                tx.commit().map_err(sqlite("saving the undo"))?;
                return Ok(Undone::Edit { turn: undone_turn });
            }
            if let Some(battle) = mark.battle {
                let event = Event {
                    turn: campaign.turn,
                    seq: next_seq(&tx, campaign.turn).map_err(sqlite("numbering the event"))?,
                    kind: EventKind::ResultUndone(ev::ResultUndone {
                        battle,
                        first_seq,
                        last_seq,
                    }),
                    sentence: format!(
                        "The result of battle {battle} was taken back: the battle is pending again."
                    ),
                };
                rows::append_event(&tx, &event).map_err(sqlite("recording the undo"))?;
                tx.commit().map_err(sqlite("saving the undo"))?;
                return Ok(Undone::Battle {
                    battle,
                    turn: undone_turn,
                });
            }
            tx.execute(
                "UPDATE orders SET resolved_turn = NULL WHERE resolved_turn = ?1",
                params![undone_turn],
            )
            .map_err(sqlite("restoring the orders"))?;
            let event = Event {
                turn: undone_turn,
                seq: next_seq(&tx, undone_turn).map_err(sqlite("numbering the event"))?,
                kind: EventKind::TurnUndone(ev::TurnUndone {
                    turn: undone_turn,
                    first_seq,
                    last_seq,
                }),
                sentence: format!(
                    "Game move {undone_turn} was undone: the campaign is back at its start, and its orders wait to be resolved again."
                ),
            };
            rows::append_event(&tx, &event).map_err(sqlite("recording the undo"))?;
            Undone::Turn { turn: undone_turn }
        };
        tx.commit().map_err(sqlite("saving the undo"))?;
        Ok(undone)
    }
}

/// What a change is: the checkpoint closing it says, for undo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ChangeOf {
    GameMove,
    Result(u32),
    Edit,
}

/// Writes one change (a game move, a battle's result, an umpire's edit) in
/// `tx` from `before`, the state the tables hold: the rows that differ in
/// the new `state`, its `events` numbered on from the game move's last, and a
/// `checkpoint` event (with the battle's id for a result, marked for an
/// edit), which undo pops, with its state kept by `checkpoints`.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_change(
    tx: &Transaction<'_>,
    path: &str,
    turn: u32,
    before: &Campaign,
    state: &Campaign,
    events: &[Event],
    of: ChangeOf,
    sentence: String,
) -> Result<(), StoreError> {
    let (battle, edit) = match of {
        ChangeOf::GameMove => (None, false),
        ChangeOf::Result(battle) => (Some(battle), false),
        ChangeOf::Edit => (None, true),
    };
    let sqlite = |action| sqlite(path, action);
    let base = undo_stack(tx, path)?.last().map(|m| (m.turn, m.seq));
    let recorded: Vec<u32> = tx
        .prepare("SELECT battle FROM battle_records_changed")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(sqlite("reading the battles recorded"))?;
    let first = next_seq(tx, turn).map_err(sqlite("numbering the events"))?;
    // The change's events are numbered on from the game move's last, as told
    // (a change's events come from one `EventLog`, numbered from 0), and kept
    // together by the checkpoint closing them (`events`). They and the
    // checkpoint's state are serialized and deflated on threads of their own
    // while this one writes the state.
    let count = u32::try_from(events.len()).unwrap_or(u32::MAX);
    let checkpoint = Event {
        turn,
        seq: first.saturating_add(count),
        kind: EventKind::Checkpoint(ev::Checkpoint {
            first_seq: first,
            battle,
            edit,
            // Kept apart, in table `checkpoints` (below).
            state: serde_json::Value::Null,
        }),
        sentence,
    };
    let at = (checkpoint.turn, checkpoint.seq);
    let depth = checkpoints::depth_above(tx, path, base)?;
    std::thread::scope(|scope| {
        let encoding = scope.spawn(|| super::events::encode(events));
        let keeping = scope.spawn(|| checkpoints::encode(base, depth, before, state, &recorded));
        rows::write_changes(tx, before, state).map_err(sqlite("writing the new state"))?;
        rows::append_event(tx, &checkpoint).map_err(sqlite("writing the checkpoint"))?;
        let kept = keeping.join().map_err(|_| StoreError::BadRow {
            path: path.to_owned(),
            table: "checkpoints",
            key: format!("{}/{}", at.0, at.1),
            detail: "the thread writing the checkpoint stopped".to_owned(),
        })?;
        checkpoints::insert(tx, path, at, kept)?;
        let encoded = encoding
            .join()
            .unwrap_or_else(|_| Err("the thread writing them stopped".to_owned()));
        super::events::insert(tx, path, at, count, encoded)
    })?;
    tx.execute("DELETE FROM battle_records_changed", [])
        .map_err(sqlite("writing the checkpoint"))?;
    Ok(())
}

/// The next free sequence number in a game move's events.
pub(super) fn next_seq(tx: &Transaction<'_>, turn: u32) -> rusqlite::Result<u32> {
    tx.query_row(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE turn = ?1",
        params![turn],
        |r| r.get(0),
    )
}

/// One entry of the undo stack: a state the log can go back to.
#[derive(Debug, Clone, Copy)]
struct Mark {
    rowid: i64,
    turn: u32,
    first_seq: u32,
    seq: u32,
    /// The starting state in `campaign_created`, not a checkpoint.
    starting: bool,
    /// The battle whose result this checkpoint follows, if it is one.
    battle: Option<u32>,
    /// The checkpoint follows an umpire's edit.
    edit: bool,
}

/// The undo stack: `campaign_created` and each `checkpoint` push a state;
/// `turn_undone` and `result_undone` pop one.
fn undo_stack(tx: &Transaction<'_>, name: &str) -> Result<Vec<Mark>, StoreError> {
    let sqlite = |action| sqlite(name, action);
    let mut statement = tx
        .prepare(&format!(
            "SELECT rowid, kind, turn, seq,
                    CASE kind WHEN '{checkpoint}' THEN json_extract(payload, '$.first_seq') END,
                    CASE kind WHEN '{checkpoint}' THEN json_extract(payload, '$.battle') END,
                    CASE kind WHEN '{checkpoint}' THEN json_extract(payload, '$.edit') END
             FROM events WHERE kind IN ('{}', '{checkpoint}', '{}', '{}', '{}') ORDER BY rowid",
            EventKind::CAMPAIGN_CREATED,
            EventKind::TURN_UNDONE,
            EventKind::RESULT_UNDONE,
            EventKind::EDIT_UNDONE,
            checkpoint = EventKind::CHECKPOINT,
        ))
        .map_err(sqlite("reading the log"))?;
    let marks = statement
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, u32>(3)?,
                r.get::<_, Option<u32>>(4)?,
                r.get::<_, Option<u32>>(5)?,
                r.get::<_, Option<bool>>(6)?,
            ))
        })
        .map_err(sqlite("reading the log"))?;
    let mut rowids = Vec::new();
    let mut entries = Vec::new();
    for mark in marks {
        let (rowid, kind, turn, seq, first, battle, edit) = mark.map_err(sqlite("reading the log"))?;
        let step = match kind.as_str() {
            EventKind::CAMPAIGN_CREATED => Step::Start,
            EventKind::CHECKPOINT => Step::Change {
                first_seq: first.unwrap_or(0),
                battle,
                edit: edit.unwrap_or(false),
            },
            EventKind::TURN_UNDONE | EventKind::RESULT_UNDONE | EventKind::EDIT_UNDONE => Step::Undo,
            // The query reads only the five kinds above.
            _ => continue,
        };
        rowids.push(rowid);
        entries.push(Entry { turn, seq, step });
    }
    let history = History::walk(entries);
    Ok(history
        .standing
        .iter()
        .map(|c| Mark {
            rowid: rowids.get(c.at).copied().unwrap_or_default(),
            turn: c.turn,
            first_seq: c.first_seq,
            seq: c.seq,
            starting: c.start,
            battle: c.battle,
            edit: c.edit,
        })
        .collect())
}

/// Finds the last change still standing (a game move or a battle result) and
/// the state before it: (its mark, `campaign` with that state put in). Reads
/// only the log's bookkeeping, then rebuilds the one state it restores.
fn restore_point(
    tx: &Transaction<'_>,
    path: &std::path::Path,
    campaign: &Campaign,
) -> Result<(Mark, Campaign), StoreError> {
    let name = path_text(path);
    let mut stack = undo_stack(tx, &name)?;
    let Some(top) = stack.pop().filter(|m| !m.starting) else {
        return Err(StoreError::NothingToUndo {
            path: name,
            why: "no game move has been resolved and no battle fought".to_owned(),
        });
    };
    let Some(&Mark { turn, seq, .. }) = stack.last() else {
        return Err(StoreError::NothingToUndo {
            path: name,
            why: "no game move has been resolved since the campaign began".to_owned(),
        });
    };
    let state = checkpoints::Rebuilder::new(tx, &name).state((turn, seq))?;
    let restored = checkpoints::with_state(campaign.clone(), state).map_err(|detail| StoreError::BadRow {
        path: name.clone(),
        table: "events",
        key: format!("the state before game move {}", top.turn),
        detail,
    })?;
    Ok((top, restored))
}

/// Inside a write transaction: withdraws every order set `side` gave for game
/// move `turn` and not yet resolved, each with its `orders_withdrawn` event
/// ("replaced by" `source`), kept marked as replaced by the order set `by`
/// (the next to be written), so that undoing it brings them back.
pub(super) fn withdraw_side_orders(
    tx: &Transaction<'_>,
    path: &str,
    side: &SideId,
    turn: u32,
    source: &str,
    by: i64,
) -> Result<(), StoreError> {
    let sqlite = |action| sqlite(path, action);
    let given: Vec<(i64, String)> = {
        let mut statement = tx
            .prepare(
                "SELECT seq, source FROM orders WHERE resolved_turn IS NULL AND replaced_by IS NULL AND turn = ?1 AND side = ?2 ORDER BY seq",
            )
            .map_err(sqlite("reading the orders"))?;
        let rows = statement
            .query_map(params![turn, side.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(sqlite("reading the orders"))?;
        rows.collect::<Result<_, _>>()
            .map_err(sqlite("reading the orders"))?
    };
    if given.is_empty() {
        return Ok(());
    }
    let side_name: String = tx
        .query_row(
            "SELECT name FROM sides WHERE id = ?1",
            params![side.as_str()],
            |r| r.get(0),
        )
        .optional()
        .map_err(sqlite("reading the side"))?
        .unwrap_or_else(|| side.as_str().to_owned());
    for (seq, was) in given {
        tx.execute(
            "UPDATE orders SET replaced_by = ?2 WHERE seq = ?1",
            params![seq, by],
        )
        .map_err(sqlite("withdrawing the orders"))?;
        let event = Event {
            turn,
            seq: next_seq(tx, turn).map_err(sqlite("numbering the event"))?,
            kind: EventKind::OrdersWithdrawn(ev::OrdersWithdrawn {
                side: side.clone(),
                source: was.clone(),
                orders_seq: seq,
            }),
            sentence: format!(
                "{side_name}'s orders for game move {turn} ({was}) are replaced by its new orders ({source})."
            ),
        };
        rows::append_event(tx, &event).map_err(sqlite("replacing the orders"))?;
    }
    Ok(())
}

/// Inside a write transaction: records `orders` with their `orders_given`
/// event and returns the save's revision with them.
pub(super) fn record_orders(
    tx: &Transaction<'_>,
    path: &str,
    orders: &OrderSet,
    source: &str,
    commander: Option<serde_json::Value>,
) -> Result<Revision, StoreError> {
    let sqlite = |action| sqlite(path, action);
    let side_name: String = tx
        .query_row(
            "SELECT name FROM sides WHERE id = ?1",
            params![orders.side.as_str()],
            |r| r.get(0),
        )
        .optional()
        .map_err(sqlite("reading the side"))?
        .unwrap_or_else(|| orders.side.as_str().to_owned());
    let body = serde_json::to_string(orders).unwrap_or_else(|_| "null".to_owned());
    tx.execute(
        "INSERT INTO orders (turn, side, source, body) VALUES (?1, ?2, ?3, ?4)",
        params![orders.turn, orders.side.as_str(), source, body],
    )
    .map_err(sqlite("recording the orders"))?;
    let event = Event {
        turn: orders.turn,
        seq: next_seq(tx, orders.turn).map_err(sqlite("numbering the event"))?,
        kind: EventKind::OrdersGiven(ev::OrdersGiven {
            side: orders.side.clone(),
            source: source.to_owned(),
            orders: serde_json::to_value(&orders.orders).unwrap_or_default(),
            commander,
        }),
        sentence: format!(
            "{side_name} gave orders for game move {} ({source}): {}.",
            orders.turn,
            orders.summary()
        ),
    };
    rows::append_event(tx, &event).map_err(sqlite("recording the orders"))?;
    let now = super::revision::read_revision(tx).map_err(sqlite("reading the save's revision"))?;
    Ok(now)
}
