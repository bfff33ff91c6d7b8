//! `umpire proving`: the proving ground's battles fought under every rule
//! set, and its table of figures against issue 14's targets.

use anyhow::{Result, bail};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use umpire::files;
use umpire::model::Severity;
use umpire::proving::{self, CampaignInput, OrdersText};

pub(super) fn proving(
    campaigns: &Path,
    runs: Option<u32>,
    quick: bool,
    seed: u64,
    json: bool,
    each: bool,
    scenarios: Option<&Path>,
) -> Result<ExitCode> {
    let (loaded, orders) = files::load_proving_inputs(campaigns).map_err(|d| {
        anyhow::anyhow!(
            "{}: {}; give the folder of the bundled campaigns with --campaigns",
            d.file,
            d.message
        )
    })?;
    let mut inputs = Vec::new();
    for (name, checked) in loaded {
        match checked.value {
            Some(campaign) => inputs.push(CampaignInput {
                name,
                campaign,
                orders: orders
                    .iter()
                    .map(|(name, text)| OrdersText {
                        name: name.clone(),
                        text: text.clone(),
                    })
                    .collect(),
            }),
            None => {
                let first = checked
                    .diagnostics
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .map_or_else(String::new, |d| {
                        format!("{}:{}: {}", d.file, d.location.line, d.message)
                    });
                bail!(
                    "the campaign {name} in {} has errors ({first}); `umpire check` lists them all",
                    campaigns.display()
                );
            }
        }
    }
    if inputs.is_empty() {
        bail!(
            "no campaign files (*.toml) in {}: give the folder of the bundled campaigns with --campaigns",
            campaigns.display()
        );
    }
    let runs = runs.unwrap_or(if quick { 10 } else { 50 });
    let (battles, skipped) = proving::battles(&inputs, quick);
    if let Some(dir) = scenarios {
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for (b, battle) in battles.iter().enumerate() {
            for s in &battle.scenarios {
                files.push((
                    format!("{:03}-{}.json", b + 1, s.rules.as_str()),
                    serde_json::to_vec_pretty(s)?,
                ));
            }
        }
        let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
        files::write_files(dir, &refs)?;
        eprintln!(
            "proving: {} scenarios written to {} (NNN is the battle's line in --each)",
            refs.len(),
            dir.display()
        );
    }
    let started = std::time::Instant::now();
    let mut err = std::io::stderr().lock();
    let fought = proving::fight(&battles, runs, seed, &mut |done, total| {
        if done == total || done.is_multiple_of(10) {
            // Progress only: a failed write to stderr is not worth stopping for.
            let _ = writeln!(
                err,
                "proving: {done} of {total} battles fought ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    });
    let report = proving::report(&fought, skipped);
    if json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        if each {
            write!(std::io::stdout(), "{}", proving::each_battle(&fought))?;
        }
        write!(std::io::stdout(), "{}", report.table())?;
    }
    Ok(ExitCode::SUCCESS)
}
