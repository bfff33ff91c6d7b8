//! Battles in the save: their records, and results applied to the campaign.
//!
//! A result is committed like a game move: the new state, its events and a
//! `checkpoint` event (with the battle's id) in one transaction, so `undo`
//! takes it back.

use super::error::{path_text, sqlite};
use super::moves::{ChangeOf, write_change};
use super::revision::{Revision, expect_at};
use super::rows;
use super::{Store, StoreError, begin};
use crate::model::{BattleRecord, BattleStatus, Campaign, Event};
use rusqlite::{OptionalExtension, params};

impl Store {
    /// Replaces battle `battle`'s record (the scenario handed off, the odds
    /// computed before it is fought), if it is still pending and the save is
    /// still at revision `at`, the one the record was made from.
    pub fn record_battle(
        &mut self,
        at: Revision,
        battle: u32,
        record: &BattleRecord,
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let sqlite = |action| sqlite(&path, action);
        let tx = begin(&mut self.conn, &path, "starting to record the battle")?;
        expect_at(&tx, &self.path, at)?;
        let status: Option<String> = tx
            .query_row("SELECT status FROM battles WHERE id = ?1", params![battle], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sqlite("reading the battle"))?;
        match status.as_deref() {
            Some("pending") => {}
            Some(status) => {
                let why = if status == "called_off" {
                    "was called off (one side had no force left in it)"
                } else {
                    "was already fought"
                };
                return Err(StoreError::BattleNotPending {
                    path,
                    battle,
                    why: why.to_owned(),
                });
            }
            None => {
                return Err(StoreError::BattleNotPending {
                    path,
                    battle,
                    why: "is not in this save".to_owned(),
                });
            }
        }
        let text = serde_json::to_string(record).unwrap_or_else(|_| "{}".to_owned());
        tx.execute(
            "UPDATE battles SET record = ?1 WHERE id = ?2",
            params![text, battle],
        )
        .map_err(sqlite("recording the battle"))?;
        // The next checkpoint keeps this record (store::checkpoints).
        tx.execute(
            "INSERT OR IGNORE INTO battle_records_changed (battle) VALUES (?1)",
            params![battle],
        )
        .map_err(sqlite("recording the battle"))?;
        tx.commit().map_err(sqlite("saving the battle's record"))
    }

    /// Writes a battle's result: the state `after` it and its `events`, with
    /// a checkpoint, in one transaction. `before` is the state the result was
    /// applied to, read at revision `at`; if the save has moved on since, or
    /// the battle is no longer pending, nothing is written.
    pub fn commit_battle(
        &mut self,
        at: Revision,
        before: &Campaign,
        battle: u32,
        after: &Campaign,
        events: &[Event],
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let sqlite = |action| sqlite(&path, action);
        let tx = begin(&mut self.conn, &path, "starting to apply the result")?;
        expect_at(&tx, &self.path, at)?;
        let now = rows::read_campaign(&tx, &self.path)?;
        if !now
            .battles
            .iter()
            .any(|b| b.id == battle && b.status == BattleStatus::Pending)
        {
            return Err(StoreError::BattleNotPending {
                path,
                battle,
                why: "is no longer pending: it was fought while this result was being worked out".to_owned(),
            });
        }
        let sentence = format!("The state after battle {battle}'s result is kept here, for undo.");
        write_change(
            &tx,
            &path,
            before.turn,
            &now,
            after,
            events,
            ChangeOf::Result(battle),
            sentence,
        )?;
        tx.commit().map_err(sqlite("saving the result"))
    }
}
