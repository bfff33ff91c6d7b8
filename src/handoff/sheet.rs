//! The results sheet: written pre-filled with every stand of a battle, filled
//! in by hand after the battle on the table, and read back.
//!
//! A sheet is checked whole: every problem is reported with its line, and a
//! sheet with any problem is refused.

use crate::model::{
    Arm, Battle, BattleStatus, Campaign, ResultSource, RuleSetId, SideId, StandId, StandKind,
};
use crate::scenario::{Role, Scenario};
use crate::strategy::aftermath::{StandAfter, Verdict};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use toml::Spanned;

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// What the app's result form says: the winner (a side's id, `"draw"` or
/// empty), notes, and each stand's strength after and whether it was taken.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filled {
    pub winner: String,
    pub notes: String,
    pub stands: Vec<StandAfter>,
}

/// The results sheet for `battle` as fought from `scenario`, pre-filled with
/// every stand's id, name and starting strength (`after` starts equal to it).
pub fn write_sheet(campaign: &Campaign, battle: &Battle, scenario: &Scenario) -> String {
    write_filled_sheet(campaign, battle, scenario, &Filled::default())
}

/// One stand's line on the results sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetLine {
    pub id: StandId,
    pub name: String,
    /// Its side's id.
    pub side: String,
    pub kind: StandKind,
    /// Its strength as it comes to the table, in roster points.
    pub before: u32,
    /// A gun the enemy may capture: the sheet asks `captured`.
    pub gun: bool,
}

/// One side's part of the results sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetSide {
    pub id: String,
    pub name: String,
    pub role: Role,
    pub stands: Vec<SheetLine>,
}

/// What a results sheet asks and ties it to its battle: the one list that
/// `result.toml` and the printed sheet in `pack.pdf` are both written from.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetFields {
    pub campaign: String,
    pub battle: u32,
    pub turn: u32,
    pub region: String,
    pub rules: RuleSetId,
    pub sides: Vec<SheetSide>,
}

/// The fields of the results sheet for `battle` as fought from `scenario`:
/// every stand, on the table and in reserve, side by side.
pub fn sheet_fields(campaign: &Campaign, battle: &Battle, scenario: &Scenario) -> SheetFields {
    SheetFields {
        campaign: campaign.title.clone(),
        battle: battle.id,
        turn: battle.turn,
        region: campaign.map.region_name(&battle.region).to_owned(),
        rules: scenario.rules,
        sides: scenario
            .sides
            .iter()
            .map(|side| {
                let reserves = side.reserves.iter().flat_map(|r| r.stands.iter());
                SheetSide {
                    id: side.id.clone(),
                    name: side.name.clone(),
                    role: side.role,
                    stands: side
                        .stands
                        .iter()
                        .chain(reserves)
                        .map(|stand| SheetLine {
                            id: stand.id,
                            name: stand.name.clone(),
                            side: side.id.clone(),
                            kind: stand.kind,
                            before: stand.strength,
                            gun: stand.kind.arm() == Arm::Artillery,
                        })
                        .collect(),
                }
            })
            .collect(),
    }
}

/// The results sheet filled as `filled` says; stands it does not mention
/// keep their starting strength. `read_sheet` checks it as any other.
pub fn write_filled_sheet(
    campaign: &Campaign,
    battle: &Battle,
    scenario: &Scenario,
    filled: &Filled,
) -> String {
    let fields = sheet_fields(campaign, battle, scenario);
    let sides: Vec<&str> = fields.sides.iter().map(|s| s.id.as_str()).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Results sheet: battle {} at {}, game move {}.",
        fields.battle, fields.region, fields.turn
    );
    let _ = writeln!(
        out,
        "# After the battle on the table, fill in for every stand `after`, its strength at the"
    );
    let _ = writeln!(
        out,
        "# end in roster points (0 if it was destroyed), and `captured = true` for a gun the"
    );
    let _ = writeln!(
        out,
        "# enemy took; set `winner` to {} or \"draw\". Then:",
        sides.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(out, "#   umpire result SAVE {} THIS-FILE", fields.battle);
    let _ = writeln!(
        out,
        "# Leave the lines above the stands as they are: they tie the sheet to its battle."
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "campaign = {}", quoted(&fields.campaign));
    let _ = writeln!(out, "battle = {}", fields.battle);
    let _ = writeln!(out, "turn = {}", fields.turn);
    let _ = writeln!(out, "region = {}", quoted(&fields.region));
    let _ = writeln!(out, "rules = {}", quoted(fields.rules.as_str()));
    let _ = writeln!(out);
    let _ = writeln!(out, "winner = {}", quoted(&filled.winner));
    let _ = writeln!(out, "notes = {}", quoted(&filled.notes));
    for side in &fields.sides {
        let _ = writeln!(out);
        let _ = writeln!(out, "# {} ({:?})", side.name, side.role);
        for stand in &side.stands {
            let _ = writeln!(out, "[[stands]]");
            let _ = writeln!(out, "id = {}", stand.id.0);
            let _ = writeln!(out, "name = {}", quoted(&stand.name));
            let _ = writeln!(out, "side = {}", quoted(&stand.side));
            let _ = writeln!(out, "kind = {}", quoted(stand.kind.as_str()));
            let _ = writeln!(out, "before = {}", stand.before);
            let given = filled.stands.iter().find(|s| s.id == stand.id);
            let _ = writeln!(out, "after = {}", given.map_or(stand.before, |s| s.after));
            if stand.gun {
                let _ = writeln!(out, "captured = {}", given.is_some_and(|s| s.captured));
            }
        }
    }
    out
}

/// One problem on a sheet, at its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetProblem {
    pub line: usize,
    pub message: String,
}

/// Why a sheet was refused: every problem, each at its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct SheetError {
    pub file: String,
    pub problems: Vec<SheetProblem>,
}

impl SheetError {
    fn describe(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let _ = write!(out, "{}:{}: {}", self.file, p.line, p.message);
        }
        let _ = write!(
            out,
            "\n{}: the sheet was refused and nothing was changed; correct it and run `umpire result` again",
            self.file
        );
        out
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetFile {
    campaign: Spanned<String>,
    battle: Spanned<i64>,
    turn: Spanned<i64>,
    #[serde(default)]
    #[allow(dead_code)]
    region: Option<String>,
    rules: Spanned<String>,
    winner: Spanned<String>,
    #[serde(default)]
    notes: String,
    #[serde(default)]
    stands: Vec<Spanned<SheetStand>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SheetStand {
    id: Spanned<i64>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    side: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    before: Option<i64>,
    after: Spanned<i64>,
    #[serde(default)]
    captured: bool,
}

/// Reads a filled results sheet for `campaign`'s battle `battle_id`.
/// `file` names the sheet in messages and in the battle's record.
pub fn read_sheet(
    text: &str,
    file: &str,
    campaign: &Campaign,
    battle_id: u32,
) -> Result<Verdict, SheetError> {
    let line_of = |offset: usize| text.get(..offset).map_or(1, |t| t.matches('\n').count() + 1);
    let refuse = |line: usize, message: String| SheetError {
        file: file.to_owned(),
        problems: vec![SheetProblem { line, message }],
    };
    let sheet: SheetFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(s.start));
        refuse(
            line,
            format!("this is not a results sheet umpire can read: {}", e.message()),
        )
    })?;
    let mut problems = Vec::new();
    let say = |problems: &mut Vec<SheetProblem>, at: std::ops::Range<usize>, message: String| {
        problems.push(SheetProblem {
            line: line_of(at.start),
            message,
        });
    };

    if sheet.campaign.get_ref() != &campaign.title {
        say(
            &mut problems,
            sheet.campaign.span(),
            format!(
                "this sheet is for campaign \"{}\", but the save holds \"{}\"",
                sheet.campaign.get_ref(),
                campaign.title
            ),
        );
    }
    let Some(battle) = u32::try_from(*sheet.battle.get_ref())
        .ok()
        .filter(|id| *id == battle_id)
        .and_then(|id| campaign.battles.iter().find(|b| b.id == id))
    else {
        say(
            &mut problems,
            sheet.battle.span(),
            format!(
                "this sheet is for battle {}, not battle {battle_id}",
                sheet.battle.get_ref()
            ),
        );
        return Err(SheetError {
            file: file.to_owned(),
            problems,
        });
    };
    if battle.status != BattleStatus::Pending {
        say(
            &mut problems,
            sheet.battle.span(),
            if battle.status == BattleStatus::CalledOff {
                format!(
                    "battle {} at {} was called off: one side had no force left there, so it has no result to enter (`umpire log` says why)",
                    battle.id,
                    campaign.map.region_name(&battle.region)
                )
            } else {
                format!(
                    "battle {} at {} was already fought; its result stands (`umpire undo` takes it back)",
                    battle.id,
                    campaign.map.region_name(&battle.region)
                )
            },
        );
    }
    if *sheet.turn.get_ref() != i64::from(battle.turn) {
        say(
            &mut problems,
            sheet.turn.span(),
            format!(
                "this sheet is from game move {}, but battle {} was made in game move {}",
                sheet.turn.get_ref(),
                battle.id,
                battle.turn
            ),
        );
    }
    let rules = RuleSetId::parse(sheet.rules.get_ref());
    if rules.is_none() {
        say(
            &mut problems,
            sheet.rules.span(),
            format!(
                "`{}` is not a rule set; use one of {}",
                sheet.rules.get_ref(),
                RuleSetId::choices()
            ),
        );
    }
    let sides = [&battle.attacker, &battle.defender];
    let side_list = format!("\"{}\", \"{}\" or \"draw\"", battle.attacker, battle.defender);
    let winner_text = sheet.winner.get_ref().trim();
    let winner = match winner_text {
        "" => {
            say(
                &mut problems,
                sheet.winner.span(),
                format!("no winner is given: write winner = {side_list}"),
            );
            None
        }
        "draw" => None,
        w => {
            if !sides.iter().any(|s| s.as_str() == w) {
                say(
                    &mut problems,
                    sheet.winner.span(),
                    format!(
                        "the winner \"{w}\" did not fight in battle {}: write {side_list}",
                        battle.id
                    ),
                );
            }
            Some(SideId::new(w))
        }
    };

    // The stands: every one of the battle's, once, within what it had.
    let mut expected: BTreeMap<u32, (&str, u32, &SideId, Arm)> = BTreeMap::new();
    for id in battle.forces.iter().chain(&battle.reserves) {
        if let Some(force) = campaign.force(id) {
            for s in force.stands.iter().filter(|s| s.strength > 0) {
                expected.insert(s.id.0, (s.name.as_str(), s.strength, &force.side, s.kind.arm()));
            }
        }
    }
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let mut stands = Vec::new();
    for entry in &sheet.stands {
        let s = entry.get_ref();
        let id_text = s.id.get_ref();
        let Some((id, &(name, before, _, arm))) = u32::try_from(*id_text)
            .ok()
            .and_then(|id| expected.get(&id).map(|e| (id, e)))
        else {
            say(
                &mut problems,
                s.id.span(),
                format!(
                    "stand {id_text} was not in battle {}; take its [[stands]] entry out",
                    battle.id
                ),
            );
            continue;
        };
        if !seen.insert(id) {
            say(
                &mut problems,
                s.id.span(),
                format!("stand {id} ({name}) is on the sheet twice; keep one entry"),
            );
            continue;
        }
        let after = *s.after.get_ref();
        if after < 0 {
            say(
                &mut problems,
                s.after.span(),
                format!(
                    "stand {id} ({name}): a strength cannot be below 0 (it says {after}); 0 means destroyed"
                ),
            );
            continue;
        }
        let Ok(after) = u32::try_from(after) else {
            say(
                &mut problems,
                s.after.span(),
                format!("stand {id} ({name}): {after} is no strength"),
            );
            continue;
        };
        if after > before {
            say(
                &mut problems,
                s.after.span(),
                format!(
                    "stand {id} ({name}) ends with {after} points, more than the {before} it had; it can only lose strength"
                ),
            );
            continue;
        }
        if s.captured && arm != Arm::Artillery {
            say(
                &mut problems,
                s.id.span(),
                format!("stand {id} ({name}) is marked captured, but only guns are taken"),
            );
            continue;
        }
        stands.push(StandAfter {
            id: StandId(id),
            after,
            captured: s.captured,
        });
    }
    let missing: Vec<String> = expected
        .iter()
        .filter(|(id, _)| !seen.contains(id))
        .map(|(id, (name, ..))| format!("{id} ({name})"))
        .collect();
    if !missing.is_empty() {
        say(
            &mut problems,
            0..0,
            format!(
                "these stands of battle {} are not on the sheet: {}; every stand needs its entry",
                battle.id,
                missing.join(", ")
            ),
        );
    }
    if !problems.is_empty() {
        return Err(SheetError {
            file: file.to_owned(),
            problems,
        });
    }
    let Some(rules) = rules else {
        return Err(refuse(1, "no rule set".to_owned()));
    };
    let notes = sheet.notes.trim();
    Ok(Verdict {
        rules,
        source: ResultSource::Table {
            sheet: file.to_owned(),
        },
        winner,
        stands,
        verdict: if notes.is_empty() {
            "Fought on the table.".to_owned()
        } else {
            notes.to_owned()
        },
    })
}
