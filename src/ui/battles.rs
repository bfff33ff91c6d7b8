//! The battles window: every pending battle with the engine's odds (worked
//! out on another thread, with a progress bar, so the window never waits),
//! its battle pack, auto-resolve, and the result form for a battle fought on
//! the table. Every change goes through a `session::Command`.

use super::command::{Command, Selection};
use super::session::{self, Session};
use super::state::Notes;
use super::text::side_name;
use super::theme;
use crate::desk;
use crate::handoff::sheet::Filled;
use crate::handoff::tiles::Paper;
use crate::model::{Arm, Battle, BattleStatus, Campaign, Event, ForceId, RuleSetId, StandId};
use crate::rules::{self, Odds};
use crate::strategy::aftermath::StandAfter;
use egui::{RichText, Ui};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

/// Battles fought for the odds shown: as many as the odds kept with a battle.
pub const ODDS_RUNS: u32 = crate::handoff::PREDICTION_RUNS;

/// The battles window's own state: per battle, and the result form.
#[derive(Debug, Default)]
pub struct BattleDesk {
    rows: BTreeMap<u32, BattleRow>,
    /// The result form, while open.
    pub form: Option<ResultForm>,
    /// The last battle decided and what came of it, for its summary window.
    pub fought: Option<(u32, Vec<Event>)>,
}

/// What the window holds for one battle.
#[derive(Debug)]
struct BattleRow {
    rules: RuleSetId,
    /// The dice's seed for auto-resolve; blank: the battle's own.
    seed: String,
    /// Where the battle pack goes.
    dir: String,
    /// The paper `pack.pdf`'s true-scale sheets are laid out for.
    paper: Paper,
    odds: Option<OddsJob>,
}

/// Odds being worked out on another thread, or worked out.
#[derive(Debug)]
pub struct OddsJob {
    pub rules: RuleSetId,
    /// The session's revision they were started at: a change starts them anew.
    revision: u64,
    pub done: Arc<AtomicU32>,
    receiver: Option<mpsc::Receiver<Result<Odds, String>>>,
    pub result: Option<Result<Odds, String>>,
}

impl OddsJob {
    /// The share of the battles fought so far.
    pub fn progress(&self) -> f32 {
        let done = self.done.load(Ordering::Relaxed).min(ODDS_RUNS);
        // Both at most 1000: exact in f32.
        #[allow(clippy::cast_precision_loss)]
        let share = done as f32 / ODDS_RUNS as f32;
        share
    }
}

/// One stand's line on the result form.
#[derive(Debug, Clone, PartialEq)]
pub struct FormStand {
    pub id: StandId,
    pub name: String,
    pub side: String,
    pub before: u32,
    pub after: u32,
    pub gun: bool,
    pub captured: bool,
}

/// The form for a battle fought on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultForm {
    pub battle: u32,
    pub rules: RuleSetId,
    /// A side's id, "draw", or empty while not chosen.
    pub winner: String,
    pub notes: String,
    /// The sides' ids and names.
    pub sides: Vec<(String, String)>,
    pub stands: Vec<FormStand>,
}

impl ResultForm {
    /// The form for `battle`, every stand at its strength before, from the
    /// scenario the battle is (or would be) fought from.
    pub fn new(campaign: &Campaign, battle: u32, rules: RuleSetId) -> Result<ResultForm, String> {
        let handoff = desk::scenario_for(campaign, battle, Some(rules)).map_err(|e| e.to_string())?;
        let s = handoff.scenario;
        let mut stands = Vec::new();
        for side in &s.sides {
            let reserves = side.reserves.iter().flat_map(|r| r.stands.iter());
            for t in side.stands.iter().chain(reserves) {
                stands.push(FormStand {
                    id: t.id,
                    name: t.name.clone(),
                    side: side.id.clone(),
                    before: t.strength,
                    after: t.strength,
                    gun: t.kind.arm() == Arm::Artillery,
                    captured: false,
                });
            }
        }
        Ok(ResultForm {
            battle,
            rules,
            winner: String::new(),
            notes: String::new(),
            sides: s.sides.iter().map(|x| (x.id.clone(), x.name.clone())).collect(),
            stands,
        })
    }

    /// What the form says, as the results sheet takes it.
    pub fn filled(&self) -> Filled {
        Filled {
            winner: self.winner.clone(),
            notes: self.notes.clone(),
            stands: self
                .stands
                .iter()
                .map(|s| StandAfter {
                    id: s.id,
                    after: s.after,
                    captured: s.captured,
                })
                .collect(),
        }
    }
}

impl BattleDesk {
    fn row(&mut self, session: &Session, battle: &Battle) -> &mut BattleRow {
        let campaign = session.campaign();
        self.rows.entry(battle.id).or_insert_with(|| {
            let save = std::path::absolute(session.path()).unwrap_or_else(|_| session.path().to_owned());
            let folder = save.parent().map(PathBuf::from).unwrap_or_default();
            BattleRow {
                rules: campaign.rules,
                seed: String::new(),
                dir: folder.join(format!("battle-{}", battle.id)).display().to_string(),
                paper: Paper::default(),
                odds: None,
            }
        })
    }

    /// The odds shown for battle `battle`, if any have been started.
    pub fn odds(&self, battle: u32) -> Option<&OddsJob> {
        self.rows.get(&battle).and_then(|r| r.odds.as_ref())
    }

    /// Takes in odds that are done; says whether any are still being worked out.
    fn poll(&mut self) -> bool {
        let mut working = false;
        for row in self.rows.values_mut() {
            let Some(job) = &mut row.odds else { continue };
            let Some(receiver) = &job.receiver else { continue };
            match receiver.try_recv() {
                Ok(result) => {
                    job.result = Some(result);
                    job.receiver = None;
                }
                Err(mpsc::TryRecvError::Empty) => working = true,
                Err(mpsc::TryRecvError::Disconnected) => {
                    job.result = Some(Err("the odds could not be worked out".to_owned()));
                    job.receiver = None;
                }
            }
        }
        working
    }
}

/// Starts working out the odds of `battle` under `rules` on another thread.
fn start_odds(
    campaign: &Campaign,
    battle: u32,
    rules: RuleSetId,
    revision: u64,
    ctx: &egui::Context,
) -> OddsJob {
    let done = Arc::new(AtomicU32::new(0));
    let (sender, receiver) = mpsc::channel();
    let campaign = campaign.clone();
    let counter = Arc::clone(&done);
    let ctx = ctx.clone();
    std::thread::spawn(move || {
        let result = desk::scenario_for(&campaign, battle, Some(rules))
            .map_err(|e| e.to_string())
            .and_then(|h| {
                rules::odds_counted(&h.scenario, rules, ODDS_RUNS, h.scenario.seed, &counter)
                    .map_err(|e| e.to_string())
            });
        // The window may have closed meanwhile: nothing to do then.
        let _ = sender.send(result);
        ctx.request_repaint();
    });
    OddsJob {
        rules,
        revision,
        done,
        receiver: Some(receiver),
        result: None,
    }
}

/// What the battles window draws and changes.
#[derive(Debug)]
pub struct BattlesInput<'a> {
    pub session: Option<&'a Session>,
    /// Whether the window is open.
    pub show: &'a mut bool,
    pub selection: &'a mut Selection,
    /// The messages at the top: a refused result's reasons show on its form.
    pub notes: &'a Notes,
    pub commands: &'a mut Vec<Command>,
}

impl BattleDesk {
    /// The battles window and the windows it opens.
    pub fn window(&mut self, ctx: &egui::Context, input: BattlesInput<'_>) {
        if self.poll() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.result_form_window(ctx, input.notes, input.commands);
        self.fought_window(ctx);
        if !*input.show {
            return;
        }
        let mut open = true;
        let Some(session) = input.session else { return };
        let campaign = session.campaign();
        let revision = session.revision();
        let mut select = None;
        let mut commands = Vec::new();
        let mut form = None;
        egui::Window::new("Battles")
            .open(&mut open)
            .default_size([480.0, 360.0])
            .vscroll(true)
            .show(ctx, |ui| {
                let pending: Vec<&Battle> = campaign
                    .battles
                    .iter()
                    .filter(|b| b.status == BattleStatus::Pending)
                    .collect();
                if pending.is_empty() {
                    ui.label("No battles are pending. Forces that meet on the map make one.");
                }
                for battle in pending {
                    let row = self.row(session, battle);
                    let stale = row
                        .odds
                        .as_ref()
                        .is_none_or(|j| j.rules != row.rules || j.revision != revision);
                    if stale {
                        row.odds = Some(start_odds(campaign, battle.id, row.rules, revision, ctx));
                    }
                    ui.group(|ui| {
                        battle_ui(ui, campaign, battle);
                        battle_actions_ui(ui, campaign, battle, row, &mut commands, &mut form, &mut select);
                    });
                }
            });
        if let Some(region) = select {
            *input.selection = Selection::Region(region);
        }
        if let Some(f) = form {
            self.form = Some(f);
        }
        input.commands.extend(commands);
        *input.show = open;
    }

    fn result_form_window(&mut self, ctx: &egui::Context, notes: &Notes, commands: &mut Vec<Command>) {
        let Some(form) = &mut self.form else { return };
        // A refused result's reasons, shown where the umpire is looking.
        let refused: Vec<String> = notes.errors().map(str::to_owned).collect();
        let mut open = true;
        let mut apply = false;
        let mut cancel = false;
        egui::Window::new(format!("Result of battle {}", form.battle))
            .open(&mut open)
            .default_size([540.0, 480.0])
            .show(ctx, |ui| {
                ui.label(format!(
                    "Fought on the table under {}. Each stand's strength at the end in roster points (0: destroyed); tick the guns the enemy took.",
                    form.rules
                ));
                ui.horizontal(|ui| {
                    let label = ui.label("Winner");
                    let shown = if form.winner.is_empty() {
                        "choose…".to_owned()
                    } else if form.winner == "draw" {
                        "a draw".to_owned()
                    } else {
                        form.sides.iter().find(|s| s.0 == form.winner).map_or(form.winner.clone(), |s| s.1.clone())
                    };
                    egui::ComboBox::from_id_salt("result winner").selected_text(shown).show_ui(ui, |ui| {
                        for (id, name) in &form.sides {
                            ui.selectable_value(&mut form.winner, id.clone(), name);
                        }
                        ui.selectable_value(&mut form.winner, "draw".to_owned(), "a draw");
                    })
                    .response
                    .labelled_by(label.id);
                });
                ui.horizontal(|ui| {
                    let label = ui.label("Notes");
                    ui.text_edit_singleline(&mut form.notes).labelled_by(label.id);
                });
                ui.horizontal(|ui| {
                    apply = ui.button("Apply result").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
                for text in &refused {
                    ui.colored_label(theme::ERROR, text);
                }
                ui.separator();
                egui::ScrollArea::vertical().max_height(ui.available_height().max(120.0)).show(ui, |ui| {
                    egui::Grid::new("result form").striped(true).show(ui, |ui| {
                        ui.strong("id");
                        ui.strong("stand");
                        ui.strong("side");
                        ui.strong("before");
                        ui.strong("after");
                        ui.strong("taken");
                        ui.end_row();
                        for s in &mut form.stands {
                            ui.label(s.id.to_string());
                            let name = ui.label(&s.name);
                            ui.label(&s.side);
                            ui.label(s.before.to_string());
                            ui.add(egui::DragValue::new(&mut s.after).range(0..=s.before))
                                .on_hover_text(format!("{}: strength after", s.name))
                                .labelled_by(name.id);
                            if s.gun {
                                ui.checkbox(&mut s.captured, "")
                                    .on_hover_text(format!("{} was captured", s.name))
                                    .labelled_by(name.id);
                            } else {
                                ui.label("");
                            }
                            ui.end_row();
                        }
                    });
                });
            });
        if apply {
            commands.push(Command::Session(session::Command::EnterResult {
                battle: form.battle,
                rules: form.rules,
                filled: form.filled(),
            }));
        }
        if !open || cancel {
            self.form = None;
        }
    }

    fn fought_window(&mut self, ctx: &egui::Context) {
        let Some((battle, events)) = &self.fought else {
            return;
        };
        let mut open = true;
        egui::Window::new(format!("Battle {battle} decided"))
            .open(&mut open)
            .default_size([480.0, 240.0])
            .show(ctx, |ui| {
                for e in events {
                    ui.label(RichText::new(&e.sentence));
                }
            });
        if !open {
            self.fought = None;
        }
    }
}

fn battle_actions_ui(
    ui: &mut Ui,
    campaign: &Campaign,
    battle: &Battle,
    row: &mut BattleRow,
    commands: &mut Vec<Command>,
    form: &mut Option<ResultForm>,
    select: &mut Option<crate::model::RegionId>,
) {
    ui.horizontal(|ui| {
        let label = ui.label("Rule set");
        egui::ComboBox::from_id_salt(("battle rules", battle.id))
            .selected_text(row.rules.as_str())
            .show_ui(ui, |ui| {
                for r in rules::rule_sets() {
                    ui.selectable_value(&mut row.rules, r.id(), r.id().as_str());
                }
            })
            .response
            .labelled_by(label.id);
        if ui.button("Show on map").clicked() {
            *select = Some(battle.region.clone());
        }
    });
    odds_ui(ui, row.odds.as_ref());
    ui.horizontal(|ui| {
        let label = ui.label("Pack folder");
        ui.add(egui::TextEdit::singleline(&mut row.dir).desired_width(260.0))
            .labelled_by(label.id);
        let label = ui.label("Paper");
        egui::ComboBox::from_id_salt(("battle paper", battle.id))
            .selected_text(row.paper.name())
            .show_ui(ui, |ui| {
                for paper in [Paper::A4, Paper::Letter] {
                    ui.selectable_value(&mut row.paper, paper, paper.name());
                }
            })
            .response
            .labelled_by(label.id);
        if ui
            .button("Battle pack")
            .on_hover_text(
                "Write scenario.json, briefing.md, table.png, result.toml and pack.pdf there, \
                 pack.pdf's sheets on the paper chosen",
            )
            .clicked()
        {
            commands.push(Command::Session(session::Command::WritePack {
                battle: battle.id,
                rules: Some(row.rules),
                dir: PathBuf::from(row.dir.trim()),
                paper: row.paper,
            }));
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Seed");
        ui.add(
            egui::TextEdit::singleline(&mut row.seed)
                .hint_text("the battle's own")
                .desired_width(160.0),
        )
        .labelled_by(label.id);
        if ui
            .button("Auto-resolve")
            .on_hover_text("Fight it with the engine and apply the outcome")
            .clicked()
        {
            let seed = row.seed.trim();
            match seed.parse::<u64>() {
                _ if seed.is_empty() => commands.push(resolve(battle.id, row.rules, None)),
                Ok(n) => commands.push(resolve(battle.id, row.rules, Some(n))),
                Err(_) => {
                    ui.colored_label(theme::ERROR, "the seed is a whole number");
                }
            }
        }
        if ui
            .button("Enter result…")
            .on_hover_text("The result of the battle fought on the table")
            .clicked()
        {
            match ResultForm::new(campaign, battle.id, row.rules) {
                Ok(f) => *form = Some(f),
                Err(e) => {
                    ui.colored_label(theme::ERROR, e);
                }
            }
        }
    });
}

fn resolve(battle: u32, rules: RuleSetId, seed: Option<u64>) -> Command {
    Command::Session(session::Command::Resolve {
        battle,
        rules: Some(rules),
        seed,
    })
}

fn odds_ui(ui: &mut Ui, job: Option<&OddsJob>) {
    let Some(job) = job else { return };
    match &job.result {
        None => {
            ui.add(
                egui::ProgressBar::new(job.progress())
                    .text(format!("Odds under {}: fighting {ODDS_RUNS} battles…", job.rules))
                    .desired_width(360.0),
            );
        }
        Some(Err(e)) => {
            ui.colored_label(theme::ERROR, format!("No odds: {e}"));
        }
        Some(Ok(odds)) => {
            let mut parts: Vec<String> = odds
                .sides
                .iter()
                .map(|s| {
                    format!(
                        "{} wins {:.0}% ({:.0}–{:.0}%), loses {:.0} of {} points",
                        s.name,
                        s.wins.share * 100.0,
                        s.wins.low * 100.0,
                        s.wins.high * 100.0,
                        s.expected_losses,
                        s.starting_points
                    )
                })
                .collect();
            parts.push(format!("draws {:.0}%", odds.draws.share * 100.0));
            ui.label(format!(
                "Odds under {} ({} battles): {}.",
                job.rules,
                odds.runs,
                parts.join("; ")
            ));
        }
    }
}

/// A battle in the inspector and the battles window: where, since when, who.
pub fn battle_ui(ui: &mut Ui, campaign: &Campaign, battle: &Battle) {
    let names = |list: &[ForceId]| -> String {
        if list.is_empty() {
            return "none".to_owned();
        }
        list.iter()
            .map(|f| campaign.force(f).map_or(f.as_str(), |x| x.name.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    ui.label(
        RichText::new(format!(
            "Battle {} at {}",
            battle.id,
            campaign.map.region_name(&battle.region)
        ))
        .strong()
        .color(theme::BATTLE),
    );
    ui.label(format!("Since game move {}", battle.turn));
    ui.label(format!(
        "{} attacking {}",
        side_name(campaign, &battle.attacker),
        side_name(campaign, &battle.defender)
    ));
    ui.label(format!("Forces: {}", names(&battle.forces)));
    ui.label(format!("Reserves within a move: {}", names(&battle.reserves)));
}
