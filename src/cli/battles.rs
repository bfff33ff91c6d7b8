//! The battle hand-off commands: scenario, resolve, result, calibration.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use umpire::desk::{self, Applied};
use umpire::handoff::tiles::Paper;
use umpire::model::RuleSetId;
use umpire::model::text::printable;
use umpire::store::Store;

fn rules_arg(text: Option<&str>) -> Result<Option<RuleSetId>> {
    text.map(|t| {
        RuleSetId::parse(t)
            .ok_or_else(|| anyhow::anyhow!("unknown rule set `{t}`: use one of {}", RuleSetId::choices()))
    })
    .transpose()
}

pub(super) fn scenario(
    save: &Path,
    battle: u32,
    rules: Option<&str>,
    out: &Path,
    paper: &str,
) -> Result<ExitCode> {
    let rules = rules_arg(rules)?;
    let paper = Paper::parse(paper).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown paper `{paper}` for --paper: use one of {}",
            Paper::CHOICES
        )
    })?;
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let written = desk::write_pack(&mut store, (&campaign, at), battle, rules, out, paper)?;
    let s = &written.handoff.scenario;
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "Battle pack for battle {battle} ({}) under {}: a table of {} x {} {} with {} objective(s), {} turns.",
        printable(&s.title),
        written.rules,
        s.table.width,
        s.table.depth,
        if s.table.grid { "squares" } else { "cells" },
        s.objectives.len(),
        s.turn_limit
    )?;
    for f in &written.files {
        writeln!(stdout, "  wrote {}", f.display())?;
    }
    writeln!(
        stdout,
        "Fight it on the table and give the filled sheet with `umpire result {} {battle} {}`, or let the engine fight it: `umpire resolve {} {battle}`.",
        save.display(),
        out.join("result.toml").display(),
        save.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn report(applied: &Applied, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &applied.events).context("writing the events as JSON")?;
        writeln!(out)?;
        return Ok(());
    }
    for e in &applied.events {
        writeln!(out, "  {}", printable(&e.sentence))?;
    }
    Ok(())
}

pub(super) fn resolve(
    save: &Path,
    battle: u32,
    rules: Option<&str>,
    seed: Option<u64>,
    json: bool,
) -> Result<ExitCode> {
    let rules = rules_arg(rules)?;
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let applied = desk::resolve(&mut store, (&campaign, at), battle, rules, seed)?;
    if !json && let Some(o) = &applied.outcome {
        writeln!(
            std::io::stdout().lock(),
            "Battle {battle} fought by the engine under {}, seed {}, {} turns: {}.",
            o.rules,
            o.seed,
            o.turns,
            printable(&o.verdict)
        )?;
    }
    report(&applied, json)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn result(save: &Path, battle: u32, file: &Path) -> Result<ExitCode> {
    let (mut store, campaign, at) = Store::open_and_load_at(save)?;
    let applied = desk::enter_result(&mut store, (&campaign, at), battle, file)?;
    writeln!(
        std::io::stdout().lock(),
        "Battle {battle}: the result from {} is applied.",
        file.display()
    )?;
    report(&applied, false)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn calibration(save: &Path, json: bool) -> Result<ExitCode> {
    let (_, campaign) = Store::open_and_load(save)?;
    let c = umpire::handoff::calibration(&campaign);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &c).context("writing the calibration as JSON")?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} fought; {} with the engine's odds computed beforehand.",
        super::plural(c.fought as usize, "battle"),
        c.fought - c.without_odds
    )?;
    if c.rows.is_empty() {
        writeln!(
            out,
            "Nothing to compare yet: fight a battle with `umpire resolve` or `umpire result`."
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{:<14} {:<7} {:>7} {:>18} {:>14} {:>12} {:>8}",
        "rule set", "source", "battles", "favourite won", "losses odds", "losses real", "real/odds"
    )?;
    for r in &c.rows {
        let share = r.favourite_share().map_or_else(
            || "-".to_owned(),
            |s| format!("{}/{} ({:.0}%)", r.favourite_won, r.with_favourite, s * 100.0),
        );
        let ratio = r
            .loss_ratio()
            .map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"));
        writeln!(
            out,
            "{:<14} {:<7} {:>7} {:>18} {:>14.0} {:>12} {:>8}",
            r.rules.as_str(),
            r.source,
            r.battles,
            share,
            r.expected_losses,
            r.actual_losses,
            ratio
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
