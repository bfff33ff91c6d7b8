//! The proving ground's machinery on a small sample: the battles it lays
//! (the bundled campaigns' contacts and the synthetic kinds), the table's
//! shape with every figure measured for every rule set, and the same
//! figures again from the same seed. The targets themselves are not held
//! here: they wait for the doctrine of issue 14.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;
use std::path::Path;
use umpire::files;
use umpire::proving::{self, CampaignInput, OrdersText, Probe};
use umpire::rules;

fn inputs() -> Vec<CampaignInput> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let (campaigns, orders) = files::load_proving_inputs(&dir).unwrap();
    campaigns
        .into_iter()
        .map(|(name, checked)| CampaignInput {
            name,
            campaign: checked.value.expect("the bundled campaigns check"),
            orders: orders
                .iter()
                .map(|(name, text)| OrdersText {
                    name: name.clone(),
                    text: text.clone(),
                })
                .collect(),
        })
        .collect()
}

#[test]
fn the_sample_is_laid_fought_and_reproducible_from_its_seed() {
    let inputs = inputs();
    let (battles, skipped) = proving::battles(&inputs, true);
    assert!(skipped.is_empty(), "{skipped:?}");
    let rule_sets = rules::rule_sets().count();
    // Beni Suef, battle 1 of the Egyptian Rebellion with its bundled orders.
    assert!(
        battles
            .iter()
            .any(|b| matches!(&b.probe, Probe::Contact { region, .. } if region == "Beni Suef")),
        "{:?}",
        battles.iter().map(|b| &b.name).collect::<Vec<_>>()
    );
    for kind in ["synthetic", "mirror", "plus25", "matchup"] {
        assert!(
            battles
                .iter()
                .any(|b| serde_json::to_value(&b.probe).unwrap()["kind"] == kind),
            "no {kind} battle"
        );
    }
    for b in &battles {
        assert_eq!(
            b.scenarios.len(),
            rule_sets,
            "{} is laid for every rule set",
            b.name
        );
        assert!(b.scenarios.iter().all(|s| s.problems().is_empty()), "{}", b.name);
    }
    let mut calls = 0;
    let fought = proving::fight(&battles, 2, 7, &mut |done, total| {
        calls += 1;
        assert!(done <= total);
    });
    assert_eq!(calls, battles.len(), "progress after every battle");
    let report = proving::report(&fought, skipped.clone());
    assert_eq!(report.rule_sets.len(), rule_sets);
    assert_eq!(report.figures.len(), 12, "the twelve figures of issue 14");
    for figure in &report.figures {
        assert_eq!(figure.values.len(), rule_sets, "{}", figure.name);
        assert!(!figure.target.is_empty());
        for m in &figure.values {
            assert!(m.pass.is_some(), "{} was not measured: {}", figure.name, m.text);
        }
    }
    let table = report.table();
    assert_eq!(
        table
            .lines()
            .filter(|l| l.contains(" PASS") || l.contains(" FAIL"))
            .count(),
        report.figures.len(),
        "{table}"
    );
    // The same seed fights the same battles.
    let again = proving::report(&proving::fight(&battles, 2, 7, &mut |_, _| {}), skipped);
    assert_eq!(
        serde_json::to_value(&report).unwrap(),
        serde_json::to_value(&again).unwrap()
    );
}

#[test]
fn the_command_prints_the_table_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let campaigns = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let out = umpire(
        dir.path(),
        &[
            "proving",
            "--quick",
            "--runs",
            "1",
            "--json",
            "--campaigns",
            campaigns.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["runs"], 1);
    assert!(stderr(&out).contains("battles fought"), "progress on stderr");
    let out = umpire(dir.path(), &["proving", "--quick", "--runs", "1"]);
    assert!(!out.status.success(), "no campaigns folder here");
    assert!(stderr(&out).contains("--campaigns"), "{}", stderr(&out));
}
