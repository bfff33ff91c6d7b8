//! The umpire's desk: the battle commands that read and write a save and
//! files, shared by the CLI and the app. Each wires the pure core
//! (`handoff`, `rules`, `strategy::aftermath`) to `store` and `files`; a
//! change to the save is one transaction, made only after everything was
//! checked, and only if the save is still at the revision the campaign
//! given to it was read at (`Store::read_at`, `Store::open_and_load_at`).

use crate::files::{self, WriteError};
use crate::handoff::{self, Handoff, HandoffError, sheet::SheetError};
use crate::model::{BattleRecord, Campaign, Event, RuleSetId};
use crate::rules::{self, FightError, Outcome};
use crate::scenario::Scenario;
use crate::store::{Revision, Store, StoreError};
use crate::strategy::aftermath::{self, AftermathError, Verdict};
use crate::strategy::{OrderSet, TurnOutcome};
use std::path::{Path, PathBuf};

pub mod served;

/// Why a battle command failed. Nothing was written to the save.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Handoff(#[from] HandoffError),
    #[error(transparent)]
    Sheet(#[from] SheetError),
    #[error(transparent)]
    Aftermath(#[from] AftermathError),
    #[error(transparent)]
    Fight(#[from] FightError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Over(#[from] crate::strategy::end::CampaignOver),
    #[error("the edit is refused: {0}")]
    Edit(#[from] crate::strategy::edit::EditRefused),
    #[error("{0}")]
    Read(String),
    #[error("the table picture could not be drawn: {0}")]
    Picture(String),
    #[error(
        "battle {battle}: the scenario kept with it cannot be read ({detail}); `umpire scenario` makes it again"
    )]
    BadRecord { battle: u32, detail: String },
}

/// The files of a battle pack, written.
#[derive(Debug, Clone)]
pub struct PackWritten {
    pub battle: u32,
    pub rules: RuleSetId,
    pub files: Vec<PathBuf>,
    pub handoff: Handoff,
}

/// The scenario for battle `battle`: the one kept with it if it was made
/// under `rules` (or no rule set is named), else a new one. Pure.
pub fn scenario_for(
    campaign: &Campaign,
    battle: u32,
    rules: Option<RuleSetId>,
) -> Result<Handoff, DeskError> {
    let b = handoff::pending_battle(campaign, battle)?;
    let rules = rules.unwrap_or(campaign.rules);
    let made = handoff::build(campaign, battle, rules)?;
    if let Some(text) = &b.record.scenario {
        let kept: Scenario = serde_json::from_str(text).map_err(|e| DeskError::BadRecord {
            battle,
            detail: e.to_string(),
        })?;
        if kept.rules == rules {
            return Ok(Handoff {
                scenario: kept,
                plan: made.plan,
            });
        }
    }
    Ok(made)
}

/// The record with the scenario and its odds, computing the odds if they
/// are missing or were for another rule set.
fn record_with(campaign: &Campaign, battle: u32, scenario: &Scenario) -> Result<BattleRecord, DeskError> {
    let mut record = campaign
        .battles
        .iter()
        .find(|b| b.id == battle)
        .map(|b| b.record.clone())
        .unwrap_or_default();
    record.scenario = Some(serde_json::to_string(scenario).unwrap_or_default());
    if record
        .prediction
        .as_ref()
        .is_none_or(|p| p.rules != scenario.rules)
    {
        record.prediction = Some(handoff::predict(scenario)?);
    }
    Ok(record)
}

/// `umpire scenario`: writes battle `battle`'s pack (scenario.json,
/// briefing.md, table.png, result.toml, and pack.pdf with the table's
/// sheets on `paper`) into `dir`, and keeps the scenario and its odds with
/// the battle. `campaign` is the save's state at `at`.
pub fn write_pack(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    battle: u32,
    rules: Option<RuleSetId>,
    dir: &Path,
    paper: handoff::tiles::Paper,
) -> Result<PackWritten, DeskError> {
    let (handoff, pack) = pack_files(campaign, battle, rules, paper)?;
    let mut record = record_with(campaign, battle, &handoff.scenario)?;
    record.pack = Some(
        std::path::absolute(dir)
            .unwrap_or_else(|_| dir.to_owned())
            .display()
            .to_string(),
    );
    let named: Vec<(&str, &[u8])> = pack
        .iter()
        .map(|(name, bytes)| (*name, bytes.as_slice()))
        .collect();
    let files = files::write_files(dir, &named)?;
    store.record_battle(at, battle, &record)?;
    Ok(PackWritten {
        battle,
        rules: handoff.scenario.rules,
        files,
        handoff,
    })
}

/// A battle pack's files in memory: each file's name and bytes.
pub type PackFiles = Vec<(&'static str, Vec<u8>)>;

/// The names of a battle pack's files, in the order they are written.
pub const PACK_FILES: [&str; 5] = [
    "scenario.json",
    "briefing.md",
    "table.png",
    "result.toml",
    "pack.pdf",
];

/// Battle `battle`'s pack as files in memory (named as [`PACK_FILES`]),
/// with the hand-off they were made from: what `umpire scenario` writes and
/// `umpire serve` sends the umpire.
pub fn pack_files(
    campaign: &Campaign,
    battle: u32,
    rules: Option<RuleSetId>,
    paper: handoff::tiles::Paper,
) -> Result<(handoff::Handoff, PackFiles), DeskError> {
    let handoff = scenario_for(campaign, battle, rules)?;
    let b = handoff::pending_battle(campaign, battle)?;
    let json = serde_json::to_string_pretty(&handoff.scenario).unwrap_or_default();
    let briefing = handoff::briefing::write_briefing(campaign, b, &handoff);
    let sheet = handoff::sheet::write_sheet(campaign, b, &handoff.scenario);
    let png =
        handoff::picture::table_png(&handoff.scenario).map_err(|e| DeskError::Picture(e.to_string()))?;
    let pdf = handoff::pack_pdf::pack_pdf(campaign, b, &handoff, paper);
    let [scenario, brief, table, result, pack] = PACK_FILES;
    let files = vec![
        (scenario, json.into_bytes()),
        (brief, briefing.into_bytes()),
        (table, png),
        (result, sheet.into_bytes()),
        (pack, pdf),
    ];
    Ok((handoff, files))
}

/// A result applied: the outcome (when the engine fought), the events and the new state.
#[derive(Debug, Clone)]
pub struct Applied {
    pub battle: u32,
    pub outcome: Option<Outcome>,
    pub verdict: Verdict,
    pub events: Vec<Event>,
    pub campaign: Campaign,
}

fn apply(
    store: &mut Store,
    (before, at): (&Campaign, Revision),
    battle: u32,
    record: BattleRecord,
    verdict: Verdict,
    outcome: Option<Outcome>,
) -> Result<Applied, DeskError> {
    let mut with_record = before.clone();
    if let Some(b) = with_record.battles.iter_mut().find(|b| b.id == battle) {
        b.record = record;
    }
    let (mut after, events) = aftermath::apply(&with_record, battle, &verdict)?;
    crate::strategy::end::restand(&mut after);
    store.commit_battle(at, before, battle, &after, &events)?;
    Ok(Applied {
        battle,
        outcome,
        verdict,
        events,
        campaign: after,
    })
}

/// `umpire resolve`: fights battle `battle` with the engine and applies the
/// outcome to `campaign`, the save's state at `at`.
pub fn resolve(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    battle: u32,
    rules: Option<RuleSetId>,
    seed: Option<u64>,
) -> Result<Applied, DeskError> {
    let handoff = scenario_for(campaign, battle, rules)?;
    let record = record_with(campaign, battle, &handoff.scenario)?;
    let seed = seed.unwrap_or(handoff.scenario.seed);
    let outcome = rules::fight(&handoff.scenario, handoff.scenario.rules, seed)?;
    let verdict = Verdict::from_outcome(&outcome);
    apply(store, (campaign, at), battle, record, verdict, Some(outcome))
}

/// `umpire result`: applies the filled results sheet at `sheet` to battle
/// `battle` of `campaign`, the save's state at `at`.
pub fn enter_result(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    battle: u32,
    sheet: &Path,
) -> Result<Applied, DeskError> {
    let text = files::read_sheet_text(sheet).map_err(|d| {
        DeskError::Read(format!(
            "{}: {}; give the path of the filled result.toml",
            d.file, d.message
        ))
    })?;
    let name = sheet.file_name().map_or_else(
        || sheet.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    enter_result_text(store, (campaign, at), battle, &text, &name)
}

/// Applies a results sheet given as text (the app's form writes one).
pub fn enter_result_text(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    battle: u32,
    text: &str,
    name: &str,
) -> Result<Applied, DeskError> {
    let verdict = handoff::sheet::read_sheet(text, name, campaign, battle)?;
    let handoff = scenario_for(campaign, battle, Some(verdict.rules))?;
    let record = record_with(campaign, battle, &handoff.scenario)?;
    apply(store, (campaign, at), battle, record, verdict, None)
}

/// Applies the app's result form for battle `battle` fought under `rules`:
/// written as a results sheet and checked as one, so the window refuses
/// what `umpire result` refuses.
pub fn enter_form(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    battle: u32,
    rules: RuleSetId,
    filled: &handoff::sheet::Filled,
) -> Result<Applied, DeskError> {
    let handoff = scenario_for(campaign, battle, Some(rules))?;
    let b = handoff::pending_battle(campaign, battle)?;
    let text = handoff::sheet::write_filled_sheet(campaign, b, &handoff.scenario, filled);
    let verdict = handoff::sheet::read_sheet(&text, "the result form", campaign, battle)?;
    let record = record_with(campaign, battle, &handoff.scenario)?;
    apply(store, (campaign, at), battle, record, verdict, None)
}

/// An umpire's edit applied: the events and the new state.
#[derive(Debug, Clone)]
pub struct EditMade {
    pub events: Vec<Event>,
    pub campaign: Campaign,
}

/// `umpire edit` and the window's pencil: makes the umpire's `edit` for
/// `reason` to `campaign`, the save's state at `at`, checked whole and
/// written as one change that `undo` takes back.
pub fn edit(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    edit: &crate::model::event::Edit,
    reason: &str,
) -> Result<EditMade, DeskError> {
    let (mut after, events) = crate::strategy::edit::apply(campaign, edit, reason)?;
    crate::strategy::end::restand(&mut after);
    store.commit_edit(at, campaign, &after, &events)?;
    Ok(EditMade {
        events,
        campaign: after,
    })
}

/// The one guard of every change by the rules: `Ok` while the campaign
/// takes orders and game moves, else why not (it has ended: when, why, and
/// that undo or the pencil is what the umpire can do). Battle results and
/// the umpire's pencil are not changes by the rules' clock and stay open:
/// battles begun before the end may still be fought, and the standing
/// counts their outcome.
pub fn still_open(campaign: &Campaign) -> Result<(), DeskError> {
    Ok(crate::strategy::end::still_open(campaign)?)
}

/// `umpire orders` and the window's orders: records a side's checked
/// `orders` (from `source`) for `campaign`, the save's state at `at`;
/// refused after the campaign's end.
pub fn submit_orders(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    orders: &OrderSet,
    source: &str,
) -> Result<(), DeskError> {
    still_open(campaign)?;
    store.submit_orders(at, orders, source)?;
    Ok(())
}

/// The window's End turn, resolved on a thread: writes the game move
/// `outcome` resolved from `before`, the save's state at `at`; refused after
/// the campaign's end.
pub fn commit_turn(
    store: &mut Store,
    (before, at): (&Campaign, Revision),
    outcome: &TurnOutcome,
) -> Result<(), DeskError> {
    still_open(before)?;
    store.commit_turn(at, before, outcome)?;
    Ok(())
}

/// `umpire turn`: resolves the current game move of `campaign`, the save's
/// state at `at`, with the orders waiting, and writes it; refused after the
/// campaign's end. The sides the program plays give theirs first
/// ([`give_programmed_orders`], whose revision `at` is then).
pub fn game_move(store: &mut Store, (campaign, at): (&Campaign, Revision)) -> Result<TurnOutcome, DeskError> {
    still_open(campaign)?;
    // Orders given after `at` make the game move refused when it is written.
    let orders = store.pending_orders()?;
    let outcome = crate::strategy::resolve(campaign, &orders);
    commit_turn(store, (campaign, at), &outcome)?;
    Ok(outcome)
}

/// A side's report as written to a file: the page to read (`export::report_page`,
/// with when each of its marching forces arrives) when `path` ends in `.html`
/// or `.htm`, else the JSON the window opens. `None` when the campaign has no
/// such side. The command line's `umpire report` and the window's File >
/// Export a side's report write the same text.
pub fn report_text(
    campaign: &Campaign,
    log: &[Event],
    side: &crate::model::SideId,
    path: &Path,
) -> Option<(crate::model::report::Report, String)> {
    let report = crate::model::report::Report::of(campaign, side, log)?;
    let text = if is_page(path) {
        let arrivals: Vec<_> = crate::strategy::forecast::arrivals(campaign)
            .into_iter()
            .filter(|(id, _)| report.forces.iter().any(|f| &f.id == id))
            .collect();
        let odds = if campaign.house_rules.odds_in_reports {
            battle_odds(campaign, &report)
        } else {
            Vec::new()
        };
        crate::export::report_page(&report, &arrivals, &odds)
    } else {
        crate::model::report::write_report(&report)
    };
    Some((report, text))
}

/// Whether writing `side`'s report to `path` must first fight its battles'
/// odds (a page, the house rule `odds_in_reports`, a battle of the side's
/// with no odds kept under the campaign's rule set): the window then writes
/// it on another thread.
pub fn report_needs_odds(campaign: &Campaign, side: &crate::model::SideId, path: &Path) -> bool {
    is_page(path)
        && campaign.house_rules.odds_in_reports
        && campaign.battles.iter().any(|b| {
            b.status == crate::model::BattleStatus::Pending
                && (&b.attacker == side || &b.defender == side)
                && kept_odds(campaign, b).is_none()
        })
}

/// The odds kept with `battle` when its pack was written, if they are under
/// the campaign's rule set.
fn kept_odds<'c>(
    campaign: &Campaign,
    battle: &'c crate::model::Battle,
) -> Option<&'c crate::model::Prediction> {
    battle
        .record
        .prediction
        .as_ref()
        .filter(|p| p.rules == campaign.rules)
}

/// The engine's odds of each battle in `report`, under the campaign's rule
/// set: those kept with the battle when its pack was written, else fought
/// now from the battle's scenario. The battle's forces and reserves are
/// shown to both sides in full, so its odds tell a side nothing hidden. A
/// battle whose scenario cannot be made or fought is left out.
fn battle_odds(
    campaign: &Campaign,
    report: &crate::model::report::Report,
) -> Vec<(u32, crate::model::Prediction)> {
    report
        .battles
        .iter()
        .filter_map(|b| {
            let kept = campaign
                .battles
                .iter()
                .find(|c| c.id == b.id)
                .and_then(|c| kept_odds(campaign, c))
                .cloned();
            let odds = match kept {
                Some(odds) => odds,
                None => handoff::predict(&scenario_for(campaign, b.id, None).ok()?.scenario).ok()?,
            };
            Some((b.id, odds))
        })
        .collect()
}

/// The campaign's chronicle as a page (`export::chronicle_page`): `log` is
/// the whole event log with each checkpoint's state in it
/// (`Store::events_with_states`, as the window's session keeps it), read
/// into the campaign after each change still standing. With `side`, what
/// that side knew (everything once the campaign has ended). `umpire
/// chronicle` and the window's File > Export chronicle both write it.
pub fn chronicle_text(
    campaign: &Campaign,
    log: &[Event],
    side: Option<&crate::model::SideId>,
) -> Result<String, DeskError> {
    let history = crate::model::History::of(log);
    let mut states = Vec::with_capacity(history.standing.len());
    for change in &history.standing {
        let Some(state) = log.get(change.at).and_then(|e| e.kind.kept_state()) else {
            continue;
        };
        let then = crate::store::campaign_at(campaign, state).map_err(|detail| {
            DeskError::Read(format!(
                "the state kept after game move {} cannot be read ({detail}); the save's log is damaged, so no chronicle can be told from it; write it from a copy of the save made before the damage",
                change.turn
            ))
        })?;
        states.push((change.at, then));
    }
    // A battle's record (its pack, its odds) is written without a checkpoint
    // of its own: the last state takes the records the campaign has now.
    if let Some((_, last)) = states.last_mut() {
        for battle in &mut last.battles {
            if let Some(now) = campaign.battles.iter().find(|b| b.id == battle.id) {
                battle.record = now.record.clone();
            }
        }
    }
    Ok(crate::export::chronicle_page(&states, log, side))
}

/// Whether a report written to `path` is the page (`.html`, `.htm`), not the JSON.
pub fn is_page(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}

/// The programmed commander's orders for a side, checked, with its log and
/// what it will remember (`commander_orders`).
#[derive(Debug, Clone)]
pub struct CommanderOrders {
    pub orders: OrderSet,
    /// Its reasons, then a line for each order the orders check refused (left out).
    pub log: Vec<String>,
    pub memory: crate::ai::Memory,
    /// The dice's seed.
    pub seed: u64,
}

/// The programmed commander's memory for `side`: the note kept with the last
/// orders it gave that still stand in `log` (undone game moves' orders do not).
pub fn commander_memory(log: &[Event], side: &crate::model::SideId) -> crate::ai::Memory {
    use crate::model::EventKind;
    let last_turn = log.iter().map(|e| e.turn).max().unwrap_or(0);
    let first_turn = log.iter().map(|e| e.turn).min().unwrap_or(0);
    (first_turn..=last_turn)
        .rev()
        .flat_map(|turn| crate::model::report::standing_events(log, turn).into_iter().rev())
        .find_map(|event| match &event.kind {
            EventKind::OrdersGiven(given) if &given.side == side => given
                .commander
                .as_ref()
                .and_then(|note| note.get("memory"))
                .and_then(|memory| serde_json::from_value(memory.clone()).ok()),
            _ => None,
        })
        .unwrap_or_default()
}

/// `umpire ai`, and the window's sides played by the program: the
/// programmed commander's orders for `side` from that side's report of
/// `campaign` alone (the report is all it is given), with dice seeded by
/// `seed` or else by the campaign's seed and the side. Orders the orders
/// check refuses are left out and said in the log. Pure: nothing is written.
pub fn commander_orders(
    campaign: &Campaign,
    log: &[Event],
    side: &crate::model::SideId,
    seed: Option<u64>,
) -> Result<CommanderOrders, DeskError> {
    still_open(campaign)?;
    let report = crate::model::report::Report::of(campaign, side, log).ok_or_else(|| {
        DeskError::Read(format!(
            "no side `{side}` in this campaign: `umpire status` lists the sides"
        ))
    })?;
    let seed = seed.unwrap_or_else(|| {
        side.as_str()
            .bytes()
            .fold(campaign.rng.seed, |h, b| h.rotate_left(5) ^ u64::from(b))
    });
    let memory = commander_memory(log, side);
    let decision = crate::ai::decide(crate::ai::Opponent::Commander, &report, &memory, seed);
    let mut lines = decision.log;
    let (orders, refused) = crate::strategy::check_leaving_out(campaign, side, decision.requests);
    for (request, problem) in refused {
        lines.push(format!(
            "Order for {} left out: {}.",
            request.force, problem.message
        ));
    }
    Ok(CommanderOrders {
        orders,
        log: lines,
        memory: decision.memory,
        seed,
    })
}

/// Gives the commander's `orders` for `campaign`, the save's state at `at`,
/// with its log and memory kept in the `orders_given` event (the umpire
/// reads them; no other side does).
/// Returns the save's revision with these orders.
pub fn give_commander_orders(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    orders: &CommanderOrders,
) -> Result<Revision, DeskError> {
    still_open(campaign)?;
    let note = serde_json::json!({ "log": orders.log, "memory": orders.memory, "seed": orders.seed });
    Ok(store.submit_orders_noted(at, &orders.orders, "programmed commander", Some(note))?)
}

/// Gives the orders of every side the program plays (`Store::programmed_sides`)
/// that has none yet for the current game move of `campaign`, the save's
/// state at `at`: each from its own report, kept with its log. Returns the
/// revision after these writes (the game move is written at it) and what each
/// commander decided. Called by `umpire turn` and the window's End turn.
pub fn give_programmed_orders(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
) -> Result<(Revision, Vec<(crate::model::SideId, CommanderOrders)>), DeskError> {
    let sides = store.programmed_sides()?;
    if sides.is_empty() || campaign.end.ended.is_some() {
        return Ok((at, Vec::new()));
    }
    let pending = store.pending_orders()?;
    let log = store.events()?;
    let mut at = at;
    let mut given = Vec::new();
    for side in sides {
        if pending.iter().any(|o| o.side == side) {
            continue;
        }
        let decided = commander_orders(campaign, &log, &side, None)?;
        // The save moves on by this write alone.
        at = give_commander_orders(store, (campaign, at), &decided)?;
        given.push((side, decided));
    }
    Ok((at, given))
}
