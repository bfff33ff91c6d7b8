//! How a checkpoint's state is kept and rebuilt.
//!
//! A checkpoint holds the state a change (a game move or a battle's result)
//! left: the game move, the random stream's place, HQs, forces, battles and
//! knowledge. The map, the sides and the campaign's title never change, so
//! they are kept once, in the state tables, never in history. A checkpoint is
//! stored in the `checkpoints` table as deflated JSON: mostly as the change
//! from the checkpoint below it on the undo stack (its `base`), and as a whole
//! snapshot every [`SNAPSHOT_EVERY`] checkpoints, so a state is rebuilt from
//! the nearest snapshot below it plus at most that many changes.
//!
//! A change is written as JSON on the state's JSON: for each field, its new
//! value; for the lists kept by identity (forces, HQs, battles, sightings,
//! markers), the elements removed, the fields changed of each element kept,
//! the elements added, and their order only when it is not the old order with
//! the new ones last. The starting state (`campaign_created`) and checkpoints
//! written before schema 7 hold their whole state in their event.

use super::StoreError;
use super::error::sqlite;
use super::pack;
use crate::model::end::End;
use crate::model::{Battle, Campaign, Event, EventKind, Force, Hq, Knowledge, Reinforcement, RngState};
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::{Map as JsonMap, Value};
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

/// Checkpoints between whole snapshots: undo rebuilds a state from at most
/// this many changes. This program's own choice: a snapshot of 2,000 forces
/// deflates to about as much as 16 changes of every force marching.
pub const SNAPSHOT_EVERY: u32 = 16;

/// A checkpoint or the starting state, by its event's game move and place.
pub(super) type At = (u32, u32);

/// The state a change leaves, as a checkpoint keeps it (borrowed to write).
#[derive(Serialize)]
struct StateRef<'a> {
    turn: u32,
    rng: &'a RngState,
    hqs: &'a [Hq],
    forces: &'a [Force],
    battles: &'a [Battle],
    knowledge: &'a Knowledge,
    /// Reinforcements still to arrive: an arrival leaves the list (schema 11).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    reinforcements: &'a [Reinforcement],
    #[serde(skip_serializing_if = "End::is_unset")]
    end: &'a End,
}

/// The state a checkpoint keeps, read back.
#[derive(Deserialize)]
struct State {
    turn: u32,
    rng: RngState,
    hqs: Vec<Hq>,
    forces: Vec<Force>,
    #[serde(default)]
    battles: Vec<Battle>,
    #[serde(default)]
    knowledge: Knowledge,
    #[serde(default)]
    reinforcements: Vec<Reinforcement>,
    /// The campaign's end; its conditions are the state tables' (they never change).
    #[serde(default)]
    end: End,
}

/// The changing state of `campaign` as JSON.
pub(super) fn state_json(campaign: &Campaign) -> Value {
    serde_json::to_value(StateRef {
        turn: campaign.turn,
        rng: &campaign.rng,
        hqs: &campaign.hqs,
        forces: &campaign.forces,
        battles: &campaign.battles,
        knowledge: &campaign.knowledge,
        reinforcements: &campaign.reinforcements,
        end: &campaign.end,
    })
    .unwrap_or(Value::Null)
}

/// `campaign` (the map, the sides, the title from the state tables) with the
/// changing state `state` put in.
pub(super) fn with_state(mut campaign: Campaign, state: Value) -> Result<Campaign, String> {
    let state: State = serde_json::from_value(state).map_err(|e| e.to_string())?;
    campaign.turn = state.turn;
    campaign.rng = state.rng;
    campaign.hqs = state.hqs;
    campaign.forces = state.forces;
    campaign.battles = state.battles;
    campaign.knowledge = state.knowledge;
    campaign.reinforcements = state.reinforcements;
    campaign.end.ended = state.end.ended;
    Ok(campaign)
}

/// A checkpoint's place on the undo stack and its state, deflated, ready to
/// be kept (see [`encode`]).
pub(super) struct Encoded {
    base: Option<At>,
    depth: u32,
    state: Vec<u8>,
}

/// How many changes above its last whole snapshot a checkpoint on `base`
/// stands ([`SNAPSHOT_EVERY`] when there is nothing below it).
pub(super) fn depth_above(tx: &Connection, path: &str, base: Option<At>) -> Result<u32, StoreError> {
    match base {
        Some((turn, seq)) => Ok(tx
            .query_row(
                "SELECT depth FROM checkpoints WHERE turn = ?1 AND seq = ?2",
                params![turn, seq],
                |r| r.get::<_, u32>(0),
            )
            .optional()
            .map_err(sqlite(path, "reading the checkpoint below"))?
            .unwrap_or(0)
            .saturating_add(1)),
        None => Ok(SNAPSHOT_EVERY),
    }
}

/// The checkpoint of `after` on `base` at `depth` (from [`depth_above`]): its
/// change from `before` (the state of `base`) or, every [`SNAPSHOT_EVERY`], a
/// whole snapshot. `recorded` are battles whose record was written since
/// `base`, so `before` may hold a record `base` does not: their records are
/// written again. Touches no database, so it may run beside the writing.
pub(super) fn encode(
    base: Option<At>,
    depth: u32,
    before: &Campaign,
    after: &Campaign,
    recorded: &[u32],
) -> Encoded {
    let (base, depth, body) = match base {
        Some(base) if depth < SNAPSHOT_EVERY => (Some(base), depth, diff_states(before, after, recorded)),
        _ => (None, 0, state_json(after)),
    };
    Encoded {
        base,
        depth,
        state: deflate(body),
    }
}

/// Keeps the checkpoint `at` (its event already written), [`encode`]d.
pub(super) fn insert(tx: &Connection, path: &str, at: At, encoded: Encoded) -> Result<(), StoreError> {
    let Encoded { base, depth, state } = encoded;
    tx.prepare_cached(
        "INSERT INTO checkpoints (turn, seq, base_turn, base_seq, depth, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .and_then(|mut insert| {
        insert.execute(params![
            at.0,
            at.1,
            base.map(|b| b.0),
            base.map(|b| b.1),
            depth,
            state
        ])
    })
    .map_err(sqlite(path, "writing the checkpoint"))?;
    Ok(())
}

/// The change from state `before` to `after` (`diff_object` on their JSON,
/// `recorded` battles' records written whole), with the forces compared as
/// they are: only a force that changed is turned into JSON, and of it only the
/// fields that changed (its stands stay put while it marches).
fn diff_states(before: &Campaign, after: &Campaign, recorded: &[u32]) -> Value {
    let without_forces = |campaign: &Campaign| {
        serde_json::to_value(StateRef {
            turn: campaign.turn,
            rng: &campaign.rng,
            hqs: &campaign.hqs,
            forces: &[],
            battles: &campaign.battles,
            knowledge: &campaign.knowledge,
            reinforcements: &campaign.reinforcements,
            end: &campaign.end,
        })
        .unwrap_or(Value::Null)
    };
    let mut before_json = without_forces(before);
    forget_records(&mut before_json, recorded);
    let mut change = diff_object(&before_json, &without_forces(after), "");
    if before.forces != after.forces
        && let Some(change) = change.as_object_mut()
    {
        let lists = change
            .entry("lists")
            .or_insert_with(|| Value::Object(JsonMap::new()));
        if let Some(lists) = lists.as_object_mut() {
            lists.insert("forces".to_owned(), diff_forces(&before.forces, &after.forces));
        }
    }
    change
}

/// `diff_list` of two lists of forces, named by id, without their JSON.
fn diff_forces(before: &[Force], after: &[Force]) -> Value {
    let key = |f: &Force| Value::Array(vec![Value::String(f.id.as_str().to_owned())]);
    let old: HashMap<&str, &Force> = before.iter().map(|f| (f.id.as_str(), f)).collect();
    let new_ids: HashSet<&str> = after.iter().map(|f| f.id.as_str()).collect();
    let mut removed = Vec::new();
    let mut kept_order = Vec::new();
    for force in before {
        if new_ids.contains(force.id.as_str()) {
            kept_order.push(force.id.as_str());
        } else {
            removed.push(key(force));
        }
    }
    let mut changed = Vec::new();
    let mut added = Vec::new();
    let mut added_order = Vec::new();
    for force in after {
        match old.get(force.id.as_str()) {
            Some(was) if *was == force => {}
            Some(was) => {
                let mut change = JsonMap::new();
                change.insert("set".to_owned(), Value::Object(changed_fields(was, force)));
                change.insert("key".to_owned(), key(force));
                changed.push(Value::Object(change));
            }
            None => {
                added.push(serde_json::to_value(force).unwrap_or(Value::Null));
                added_order.push(force.id.as_str());
            }
        }
    }
    let mut change = JsonMap::new();
    let in_order = kept_order
        .into_iter()
        .chain(added_order)
        .eq(after.iter().map(|f| f.id.as_str()));
    if !in_order {
        change.insert("order".to_owned(), Value::Array(after.iter().map(key).collect()));
    }
    for (name, part) in [("removed", removed), ("changed", changed), ("added", added)] {
        if !part.is_empty() {
            change.insert(name.to_owned(), Value::Array(part));
        }
    }
    Value::Object(change)
}

/// The fields of force `after` that differ from `before`, by their JSON names,
/// with their new values: what `diff_object` sets for a changed force.
fn changed_fields(before: &Force, after: &Force) -> JsonMap<String, Value> {
    // Every field named, so that one added to `Force` is not forgotten here.
    let Force {
        id,
        name,
        side,
        region,
        stands,
        en_route,
        order,
        fatigue,
        supply,
        fallen_out,
    } = after;
    let mut set = JsonMap::new();
    // Only a field that differs is turned into JSON (a marching force's
    // stands never are).
    let mut field = |key: &str, differs: bool, value: &dyn Fn() -> serde_json::Result<Value>| {
        if differs {
            set.insert(key.to_owned(), value().unwrap_or(Value::Null));
        }
    };
    field("id", before.id != *id, &|| serde_json::to_value(id));
    field("name", before.name != *name, &|| serde_json::to_value(name));
    field("side", before.side != *side, &|| serde_json::to_value(side));
    field("region", before.region != *region, &|| {
        serde_json::to_value(region)
    });
    field("stands", before.stands != *stands, &|| {
        serde_json::to_value(stands)
    });
    field("en_route", before.en_route != *en_route, &|| {
        serde_json::to_value(en_route)
    });
    field("order", before.order != *order, &|| serde_json::to_value(order));
    field("fatigue", before.fatigue != *fatigue, &|| {
        serde_json::to_value(fatigue)
    });
    field("supply", before.supply != *supply, &|| {
        serde_json::to_value(supply)
    });
    field("fallen_out", before.fallen_out != *fallen_out, &|| {
        serde_json::to_value(fallen_out)
    });
    set
}

/// Blanks the records of battles `recorded` in a state, so a change from it
/// writes their records whole.
fn forget_records(state: &mut Value, recorded: &[u32]) {
    if recorded.is_empty() {
        return;
    }
    let battles = state.get_mut("battles").and_then(Value::as_array_mut);
    for battle in battles.into_iter().flatten() {
        let id = battle.get("id").and_then(Value::as_u64);
        if id.is_some_and(|id| recorded.iter().any(|r| u64::from(*r) == id))
            && let Some(record) = battle.get_mut("record")
        {
            *record = Value::Null;
        }
    }
}

/// `value` as JSON, its lists packed by columns, deflated: written whole,
/// then deflated in one go.
fn deflate(value: Value) -> Vec<u8> {
    let json = serde_json::to_vec(&pack::pack(value)).unwrap_or_default();
    let mut encoder = DeflateEncoder::new(Vec::with_capacity(json.len() / 4), Compression::default());
    // Writing into memory cannot fail.
    let _ = encoder.write_all(&json);
    encoder.finish().unwrap_or_default()
}

fn inflate(bytes: &[u8]) -> Result<Value, String> {
    let mut text = Vec::new();
    DeflateDecoder::new(bytes)
        .read_to_end(&mut text)
        .map_err(|e| format!("cannot inflate: {e}"))?;
    serde_json::from_slice(&text)
        .map_err(|e| e.to_string())
        .and_then(pack::unpack)
}

/// One row of `checkpoints`.
struct Stored {
    base: Option<At>,
    state: Vec<u8>,
}

/// Rebuilds states of checkpoints, remembering those it has built.
pub(super) struct Rebuilder<'c> {
    conn: &'c Connection,
    path: &'c str,
    built: HashMap<At, Value>,
}

impl<'c> Rebuilder<'c> {
    pub(super) fn new(conn: &'c Connection, path: &'c str) -> Self {
        Rebuilder {
            conn,
            path,
            built: HashMap::new(),
        }
    }

    /// The state of the checkpoint (or starting state) `at`, as JSON.
    pub(super) fn state(&mut self, at: At) -> Result<Value, StoreError> {
        // Walk down to a state known whole, then apply the changes upward.
        let mut changes: Vec<(At, Vec<u8>)> = Vec::new();
        let mut here = at;
        let mut state = loop {
            if let Some(known) = self.built.get(&here) {
                break known.clone();
            }
            match self.stored(here)? {
                Some(Stored {
                    base: Some(base),
                    state,
                }) => {
                    if changes.len() > 100_000 {
                        return Err(self.bad(at, "the checkpoints' bases go round in a circle".to_owned()));
                    }
                    changes.push((here, state));
                    here = base;
                }
                Some(Stored { base: None, state }) => {
                    let whole = inflate(&state).map_err(|e| self.bad(here, e))?;
                    self.built.insert(here, whole.clone());
                    break whole;
                }
                None => {
                    let whole = self.whole_in_event(here)?;
                    self.built.insert(here, whole.clone());
                    break whole;
                }
            }
        };
        while let Some((here, change)) = changes.pop() {
            let change = inflate(&change).map_err(|e| self.bad(here, e))?;
            apply_object(&mut state, &change, "").map_err(|e| self.bad(here, e))?;
            self.built.insert(here, state.clone());
        }
        Ok(state)
    }

    fn stored(&self, (turn, seq): At) -> Result<Option<Stored>, StoreError> {
        self.conn
            .prepare_cached("SELECT base_turn, base_seq, state FROM checkpoints WHERE turn = ?1 AND seq = ?2")
            .and_then(|mut s| {
                s.query_row(params![turn, seq], |r| {
                    let base = match (r.get::<_, Option<u32>>(0)?, r.get::<_, Option<u32>>(1)?) {
                        (Some(t), Some(s)) => Some((t, s)),
                        _ => None,
                    };
                    Ok(Stored {
                        base,
                        state: r.get(2)?,
                    })
                })
                .optional()
            })
            .map_err(sqlite(self.path, "reading a checkpoint"))
    }

    /// The whole state kept in the event `at`: the starting state of
    /// `campaign_created`, or a checkpoint written before schema 7.
    fn whole_in_event(&self, at: At) -> Result<Value, StoreError> {
        let found: Option<(String, String)> = self
            .conn
            .prepare_cached("SELECT kind, payload FROM events WHERE turn = ?1 AND seq = ?2")
            .and_then(|mut s| {
                s.query_row(params![at.0, at.1], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(sqlite(self.path, "reading the state to restore"))?;
        let Some((kind, payload)) = found else {
            return Err(self.bad(at, "no such event".to_owned()));
        };
        let mut value: Value = serde_json::from_str(&payload).map_err(|e| self.bad(at, e.to_string()))?;
        if kind == "checkpoint" {
            value = value.get_mut("state").map(Value::take).unwrap_or_default();
        }
        Ok(keep_state(value))
    }

    fn bad(&self, (turn, seq): At, detail: String) -> StoreError {
        StoreError::BadRow {
            path: self.path.to_owned(),
            table: "checkpoints",
            key: format!("{turn}/{seq}"),
            detail,
        }
    }
}

/// Only the changing state of a whole campaign's JSON.
fn keep_state(value: Value) -> Value {
    match value {
        Value::Object(mut all) => {
            let mut kept = JsonMap::new();
            for key in [
                "turn",
                "rng",
                "hqs",
                "forces",
                "battles",
                "knowledge",
                "reinforcements",
                "end",
            ] {
                if let Some(v) = all.remove(key) {
                    kept.insert(key.to_owned(), v);
                }
            }
            Value::Object(kept)
        }
        other => other,
    }
}

/// `events` with each checkpoint written since schema 7 given its whole
/// state in its payload (`"state"`), as checkpoints carried before: for the
/// app's history, which reads each checkpoint's forces and HQs.
pub(super) fn with_states(conn: &Connection, path: &str, events: &mut [Event]) -> Result<(), StoreError> {
    let mut rebuilder = Rebuilder::new(conn, path);
    for event in events.iter_mut() {
        let at = (event.turn, event.seq);
        let EventKind::Checkpoint(checkpoint) = &mut event.kind else {
            continue;
        };
        if !checkpoint.state.is_null() {
            continue;
        }
        checkpoint.state = rebuilder.state(at)?;
    }
    Ok(())
}

/// The fields naming each element of a list kept by identity, by the list's place.
fn list_key(path: &str) -> Option<&'static [&'static str]> {
    match path {
        "forces" | "battles" => Some(&["id"]),
        "hqs" => Some(&["side", "wing"]),
        "knowledge.sightings" => Some(&["by", "marker"]),
        "knowledge.markers" => Some(&["side"]),
        _ => None,
    }
}

fn path_of(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

fn key_of(element: &Value, fields: &[&str]) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|f| element.get(*f).cloned().unwrap_or(Value::Null))
            .collect(),
    )
}

/// The change from object `before` to object `after` (anything else: `after` whole).
fn diff_object(before: &Value, after: &Value, prefix: &str) -> Value {
    let (Some(before), Some(after)) = (before.as_object(), after.as_object()) else {
        return serde_json::json!({ "whole": after });
    };
    let mut set = JsonMap::new();
    let mut lists = JsonMap::new();
    let mut objects = JsonMap::new();
    for (key, new) in after {
        let old = before.get(key);
        if old == Some(new) {
            continue;
        }
        let path = path_of(prefix, key);
        match (old, new, list_key(&path)) {
            (Some(Value::Array(old)), Value::Array(new), Some(fields)) => {
                lists.insert(key.clone(), diff_list(old, new, fields));
            }
            (Some(old @ Value::Object(_)), Value::Object(_), _) if path == "knowledge" => {
                objects.insert(key.clone(), diff_object(old, new, &path));
            }
            _ => {
                set.insert(key.clone(), new.clone());
            }
        }
    }
    let unset: Vec<Value> = before
        .keys()
        .filter(|k| !after.contains_key(*k))
        .map(|k| Value::String(k.clone()))
        .collect();
    let mut change = JsonMap::new();
    for (name, part) in [("set", set), ("lists", lists), ("objects", objects)] {
        if !part.is_empty() {
            change.insert(name.to_owned(), Value::Object(part));
        }
    }
    if !unset.is_empty() {
        change.insert("unset".to_owned(), Value::Array(unset));
    }
    Value::Object(change)
}

/// The change from list `before` to list `after`, elements named by `fields`.
fn diff_list(before: &[Value], after: &[Value], fields: &[&str]) -> Value {
    let old: HashMap<String, &Value> = before
        .iter()
        .map(|e| (key_of(e, fields).to_string(), e))
        .collect();
    let new_keys: HashSet<String> = after.iter().map(|e| key_of(e, fields).to_string()).collect();
    let mut removed = Vec::new();
    let mut kept_order = Vec::new();
    for element in before {
        let key = key_of(element, fields);
        if new_keys.contains(&key.to_string()) {
            kept_order.push(key.to_string());
        } else {
            removed.push(key);
        }
    }
    let mut changed = Vec::new();
    let mut added = Vec::new();
    let mut added_order = Vec::new();
    for element in after {
        let key = key_of(element, fields);
        let text = key.to_string();
        match old.get(&text) {
            Some(was) if *was == element => {}
            Some(was) => {
                let mut change = diff_object(was, element, "[]");
                if let Some(change) = change.as_object_mut() {
                    change.insert("key".to_owned(), key);
                }
                changed.push(change);
            }
            None => {
                added.push(element.clone());
                added_order.push(text);
            }
        }
    }
    let mut change = JsonMap::new();
    let in_order = kept_order
        .into_iter()
        .chain(added_order)
        .eq(after.iter().map(|e| key_of(e, fields).to_string()));
    if !in_order {
        change.insert(
            "order".to_owned(),
            Value::Array(after.iter().map(|e| key_of(e, fields)).collect()),
        );
    }
    for (name, part) in [("removed", removed), ("changed", changed), ("added", added)] {
        if !part.is_empty() {
            change.insert(name.to_owned(), Value::Array(part));
        }
    }
    Value::Object(change)
}

fn parts<'v>(change: &'v Value, name: &str) -> impl Iterator<Item = &'v Value> {
    change.get(name).and_then(Value::as_array).into_iter().flatten()
}

/// Applies a change made by [`diff_object`] to `target`.
fn apply_object(target: &mut Value, change: &Value, prefix: &str) -> Result<(), String> {
    if let Some(whole) = change.get("whole") {
        *target = whole.clone();
        return Ok(());
    }
    let Some(object) = target.as_object_mut() else {
        return Err(format!("`{prefix}` is not an object"));
    };
    for key in parts(change, "unset").filter_map(Value::as_str) {
        object.remove(key);
    }
    for (key, value) in change.get("set").and_then(Value::as_object).into_iter().flatten() {
        object.insert(key.clone(), value.clone());
    }
    for (key, list_change) in change
        .get("lists")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let path = path_of(prefix, key);
        let fields = list_key(&path).ok_or_else(|| format!("`{path}` is not a list kept by identity"))?;
        let Some(Value::Array(list)) = object.get_mut(key) else {
            return Err(format!("`{path}` is not a list"));
        };
        apply_list(list, list_change, fields, &path)?;
    }
    for (key, object_change) in change
        .get("objects")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let path = path_of(prefix, key);
        let inner = object
            .get_mut(key)
            .ok_or_else(|| format!("no `{path}` to change"))?;
        apply_object(inner, object_change, &path)?;
    }
    Ok(())
}

fn apply_list(list: &mut Vec<Value>, change: &Value, fields: &[&str], path: &str) -> Result<(), String> {
    let removed: HashSet<String> = parts(change, "removed").map(Value::to_string).collect();
    if !removed.is_empty() {
        list.retain(|e| !removed.contains(&key_of(e, fields).to_string()));
    }
    let at: HashMap<String, usize> = list
        .iter()
        .enumerate()
        .map(|(i, e)| (key_of(e, fields).to_string(), i))
        .collect();
    for element_change in parts(change, "changed") {
        let key = element_change
            .get("key")
            .map(Value::to_string)
            .unwrap_or_default();
        let element = at
            .get(&key)
            .and_then(|&i| list.get_mut(i))
            .ok_or_else(|| format!("`{path}` has no element {key} to change"))?;
        apply_object(element, element_change, "[]")?;
    }
    list.extend(parts(change, "added").cloned());
    if let Some(order) = change.get("order").and_then(Value::as_array) {
        let mut by_key: HashMap<String, Value> = list
            .drain(..)
            .map(|e| (key_of(&e, fields).to_string(), e))
            .collect();
        for key in order {
            let element = by_key
                .remove(&key.to_string())
                .ok_or_else(|| format!("`{path}` has no element {key} to put in order"))?;
            list.push(element);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn round_trip(before: Value, after: Value) {
        let change = diff_object(&before, &after, "");
        let mut rebuilt = before.clone();
        apply_object(&mut rebuilt, &change, "").unwrap();
        assert_eq!(rebuilt, after, "change {change}");
    }

    #[test]
    fn changes_rebuild_the_state_after() {
        let force = |id: &str, region: &str| json!({ "id": id, "region": region, "stands": [1, 2] });
        let before = json!({
            "turn": 1,
            "forces": [force("a", "r1"), force("b", "r2"), force("c", "r3")],
            "hqs": [{ "side": "red", "wing": "left", "held_by": "red" }],
            "knowledge": { "sightings": [{ "by": "red", "marker": 1, "turn": 1 }], "markers": [] },
        });
        let cases = [
            // Nothing changed.
            before.clone(),
            // A force marched, the game move went on.
            json!({
                "turn": 2,
                "forces": [force("a", "r9"), force("b", "r2"), force("c", "r3")],
                "hqs": [{ "side": "red", "wing": "left", "held_by": "red" }],
                "knowledge": { "sightings": [{ "by": "red", "marker": 1, "turn": 2 }], "markers": [] },
            }),
            // A force struck off, another made by a split, an HQ taken, a field gone.
            json!({
                "turn": 2,
                "forces": [force("a", "r1"), force("c", "r3"), force("d", "r3")],
                "hqs": [{ "side": "red", "wing": "left", "held_by": "blue" }],
                "knowledge": { "sightings": [], "markers": [{ "side": "red", "last": 1 }] },
            }),
            // Forces in another order.
            json!({
                "turn": 1,
                "forces": [force("c", "r3"), force("a", "r1"), force("b", "r2")],
                "hqs": [{ "side": "red", "wing": "left", "held_by": "red" }],
                "knowledge": { "sightings": [{ "by": "red", "marker": 1, "turn": 1 }], "markers": [] },
            }),
        ];
        for after in cases {
            round_trip(before.clone(), after);
        }
    }

    #[test]
    fn a_change_of_one_force_names_only_that_force() {
        let forces: Vec<Value> = (0..100)
            .map(|i| json!({ "id": format!("f{i}"), "region": "r1" }))
            .collect();
        let mut moved = forces.clone();
        moved[40]["region"] = json!("r2");
        let change = diff_object(&json!({ "forces": forces }), &json!({ "forces": moved }), "");
        assert_eq!(
            change,
            json!({ "lists": { "forces": { "changed": [{ "key": ["f40"], "set": { "region": "r2" } }] } } })
        );
    }

    /// The forces' change worked out on the forces themselves is the change
    /// `diff_object` works out on the states' whole JSON.
    #[test]
    fn forces_compared_as_they_are_change_as_their_json_does() {
        use crate::model::check::{Source, check_map, read_campaign};
        use crate::model::{EnRoute, ForceId, RegionId};
        let map = check_map(Source {
            name: "map",
            text: include_str!("../../maps/egypt_1895.toml"),
        })
        .value
        .unwrap();
        let before = read_campaign(Source {
            name: "campaign",
            text: include_str!("../../campaigns/egyptian_rebellion_1895.toml"),
        })
        .unwrap()
        .check(Ok(map))
        .value
        .unwrap();
        let mut cases = Vec::new();
        let mut marched = before.clone();
        marched.turn += 1;
        marched.forces[0].region = RegionId::new("cairo");
        marched.forces[1].en_route = Some(EnRoute {
            toward: RegionId::new("suez"),
            miles: 3.5,
        });
        marched.forces[2].stands.pop();
        marched.forces[3].fatigue.forced_in_row = 2;
        cases.push(marched.clone());
        let mut split = marched;
        let mut new_force = split.forces[4].clone();
        new_force.id = ForceId::new("new-force");
        new_force.stands.truncate(1);
        split.forces[4].stands.remove(0);
        split.forces.remove(5);
        split.forces.push(new_force);
        cases.push(split.clone());
        let mut reordered = split;
        reordered.forces.swap(0, 2);
        cases.push(reordered);
        cases.push(before.clone());
        for after in cases {
            let typed = diff_states(&before, &after, &[]);
            assert_eq!(typed, diff_object(&state_json(&before), &state_json(&after), ""));
            let mut rebuilt = state_json(&before);
            apply_object(&mut rebuilt, &typed, "").unwrap();
            assert_eq!(rebuilt, state_json(&after));
        }
    }

    #[test]
    fn deflated_states_inflate_to_the_same() {
        let state = json!({ "turn": 3, "forces": [{ "id": "a", "miles": 0.1 }] });
        assert_eq!(inflate(&deflate(state.clone())).unwrap(), state);
        assert!(inflate(b"not deflated").is_err());
    }
}
