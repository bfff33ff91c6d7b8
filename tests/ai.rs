//! The programmed commander: orders from a side's report alone (hidden enemy
//! forces cannot change them), the same every time, its log for the umpire
//! only, and the tournament against the scripted opponents.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{repo, stdout, umpire};
use proptest::prelude::*;
use umpire::ai::{Memory, Opponent, decide};
use umpire::desk;
use umpire::model::report::Report;
use umpire::model::{Campaign, Seen, SideId, StandId};
use umpire::tournament::{Field, balanced_campaign, play, tally};

fn egypt() -> Campaign {
    umpire::files::load_campaign(&repo().join("campaigns/egyptian_rebellion_1895.toml"))
        .value
        .unwrap()
}

/// The other side's forces `side` knows nothing of: no sighting, no battle.
fn hidden_from(campaign: &Campaign, side: &SideId) -> Vec<usize> {
    campaign
        .forces
        .iter()
        .enumerate()
        .filter(|(_, f)| &f.side != side)
        .filter(|(_, f)| {
            !campaign
                .knowledge
                .sightings
                .iter()
                .any(|s| &s.by == side && s.force == f.id)
        })
        .map(|(i, _)| i)
        .collect()
}

/// A few game moves into the Egyptian campaign, both sides' orders from the commander.
fn egypt_after(moves: usize) -> (Campaign, Vec<umpire::model::Event>) {
    let mut campaign = egypt();
    let mut log = Vec::new();
    for _ in 0..moves {
        let mut sets = Vec::new();
        for side in campaign.sides.iter().map(|s| s.id.clone()).collect::<Vec<_>>() {
            sets.push(
                desk::commander_orders(&campaign, &log, &side, None)
                    .unwrap()
                    .orders,
            );
        }
        let outcome = umpire::strategy::resolve(&campaign, &sets);
        campaign = outcome.campaign;
        log.extend(outcome.events);
    }
    (campaign, log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Hidden enemy forces changed in strength, place or existence: the
    /// report is the same, and so are the orders.
    #[test]
    fn hidden_enemy_forces_do_not_change_the_orders(
        moves in 0usize..4,
        change in 0usize..3,
        pick in any::<prop::sample::Index>(),
        region in any::<prop::sample::Index>(),
        seed in any::<u64>(),
    ) {
        let (campaign, log) = egypt_after(moves);
        let side = SideId::new("british");
        let report = Report::of(&campaign, &side, &log).unwrap();
        let before = decide(Opponent::Commander, &report, &Memory::default(), seed);
        let hidden = hidden_from(&campaign, &side);
        prop_assume!(!hidden.is_empty());
        let mut changed = campaign.clone();
        let i = hidden[pick.index(hidden.len())];
        match change {
            0 => {
                for s in &mut changed.forces[i].stands {
                    s.strength = (s.strength / 2).max(1);
                }
            }
            1 => {
                let r = region.index(changed.map.regions.len());
                changed.forces[i].region = changed.map.regions[r].id.clone();
                changed.forces[i].en_route = None;
            }
            _ => {
                changed.forces.remove(i);
            }
        }
        let report_after = Report::of(&changed, &side, &log).unwrap();
        prop_assert_eq!(&report_after, &report);
        let after = decide(Opponent::Commander, &report_after, &Memory::default(), seed);
        prop_assert_eq!(after, before);
    }
}

#[test]
fn the_log_names_no_enemy_force_the_side_has_not_seen_in_full() {
    let mut campaign = egypt();
    let mut log = Vec::new();
    let mut lines = 0;
    for _ in 0..8 {
        let mut sets = Vec::new();
        let sides: Vec<SideId> = campaign.sides.iter().map(|s| s.id.clone()).collect();
        for side in &sides {
            let decided = desk::commander_orders(&campaign, &log, side, None).unwrap();
            let seen_names: Vec<&str> = campaign
                .knowledge
                .sightings
                .iter()
                .filter(|s| &s.by == side)
                .filter_map(|s| match &s.seen {
                    Seen::Full { name, .. } => Some(name.as_str()),
                    Seen::Blind => None,
                })
                .collect();
            for enemy in campaign.forces.iter().filter(|f| &f.side != side) {
                if seen_names.contains(&enemy.name.as_str()) {
                    continue;
                }
                for line in &decided.log {
                    assert!(
                        !line.contains(&enemy.name),
                        "{side} names unseen {}: {line}",
                        enemy.name
                    );
                }
            }
            lines += decided.log.len();
            sets.push(decided.orders);
        }
        let outcome = umpire::strategy::resolve(&campaign, &sets);
        campaign = outcome.campaign;
        log.extend(outcome.events);
    }
    assert!(lines > 16, "the commander said {lines} lines in 8 game moves");
}

#[test]
fn the_same_report_memory_and_seed_give_the_same_orders() {
    let (campaign, log) = egypt_after(2);
    let side = SideId::new("rebels");
    let a = desk::commander_orders(&campaign, &log, &side, Some(7)).unwrap();
    let b = desk::commander_orders(&campaign, &log, &side, Some(7)).unwrap();
    assert_eq!(a.orders, b.orders);
    assert_eq!(a.log, b.log);
    assert!(!a.orders.orders.is_empty());
}

#[test]
fn scripted_opponents_do_what_they_say() {
    let campaign = balanced_campaign(40, 3, 20).unwrap();
    let red = SideId::new("red");
    let report = Report::of(&campaign, &red, &[]).unwrap();
    // Turtle: every force already at an HQ holds; rush: every force marches.
    let turtle = decide(Opponent::Turtle, &report, &Memory::default(), 1);
    assert!(
        turtle
            .requests
            .iter()
            .all(|r| matches!(r.action, umpire::strategy::Action::Hold))
    );
    let rush = decide(Opponent::Rush, &report, &Memory::default(), 1);
    assert_eq!(
        rush.requests.len(),
        campaign.forces.iter().filter(|f| f.side == red).count()
    );
    assert!(
        rush.requests
            .iter()
            .all(|r| matches!(r.action, umpire::strategy::Action::To(_)))
    );
}

#[test]
fn a_balanced_campaign_is_balanced_and_plays_to_its_end() {
    let campaign = balanced_campaign(60, 5, 12).unwrap();
    let points = |side: &str| -> u64 { campaign.forces_of(&SideId::new(side)).map(|f| f.points()).sum() };
    assert_eq!(points("red"), points("blue"));
    assert_eq!(campaign.hqs.len(), 6);
    // Stand ids are unique across the campaign.
    let mut ids: Vec<StandId> = campaign
        .forces
        .iter()
        .flat_map(|f| f.stands.iter().map(|s| s.id))
        .collect();
    let n = ids.len();
    ids.sort_by_key(|s| s.0);
    ids.dedup();
    assert_eq!(ids.len(), n);
    let players = [
        (SideId::new("red"), Opponent::Commander),
        (SideId::new("blue"), Opponent::Rush),
    ];
    let played = play(campaign, &players, 9, 13);
    assert!(played.moves <= 12, "{} moves", played.moves);
    assert_eq!(played.standing.sides.len(), 2);
}

#[test]
fn the_commander_beats_random_orders() {
    let t = tally(
        Opponent::Commander,
        Opponent::Random,
        10,
        &Field::Generated { regions: 40 },
        1,
        30,
    );
    assert_eq!(t.campaigns, 10);
    assert_eq!(t.first_wins + t.second_wins + t.draws, 10);
    assert!(t.first_wins >= 6, "{t:?}");
}

#[test]
fn umpire_ai_gives_orders_whose_log_only_the_umpire_reads() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    assert!(
        umpire(dir.path(), &["new", campaign.to_str().unwrap(), "r.umpire"])
            .status
            .success()
    );
    let shown = umpire(dir.path(), &["ai", "r.umpire", "rebels"]);
    assert!(shown.status.success());
    let text = stdout(&shown);
    assert!(text.contains("Plan: "), "{text}");
    assert!(text.contains("Not given (run again with --give)"), "{text}");
    assert!(text.contains("side = \"rebels\""), "{text}");
    // The same twice: the dice come from the campaign's seed.
    assert_eq!(stdout(&umpire(dir.path(), &["ai", "r.umpire", "rebels"])), text);

    let given = umpire(dir.path(), &["ai", "r.umpire", "rebels", "--give"]);
    assert!(given.status.success());
    let log = stdout(&umpire(dir.path(), &["log", "r.umpire"]));
    assert!(
        log.contains("gave orders for game move 1 (programmed commander)"),
        "{log}"
    );
    // The British report holds nothing of it; the rebels' names it as their own orders only.
    assert!(
        umpire(dir.path(), &["report", "r.umpire", "british", "b.json"])
            .status
            .success()
    );
    let british = std::fs::read_to_string(dir.path().join("b.json")).unwrap();
    assert!(!british.contains("programmed commander"));
    assert!(!british.contains("Plan: "));
    assert!(umpire(dir.path(), &["turn", "r.umpire"]).status.success());
    // The plan is kept: the next game move draws none at the start.
    let next = stdout(&umpire(dir.path(), &["ai", "r.umpire", "rebels"]));
    assert!(!next.contains("at the start"), "{next}");
}

#[test]
fn a_side_the_program_plays_gives_its_orders_at_umpire_turn() {
    let dir = tempfile::tempdir().unwrap();
    let campaign = repo().join("campaigns/egyptian_rebellion_1895.toml");
    assert!(
        umpire(dir.path(), &["new", campaign.to_str().unwrap(), "s.umpire"])
            .status
            .success()
    );
    let play = umpire(dir.path(), &["ai", "s.umpire", "Army of the Rebellion", "--play"]);
    assert!(
        stdout(&play).starts_with("The program now plays Army of the Rebellion (rebels)"),
        "{}",
        stdout(&play)
    );
    let turn = stdout(&umpire(dir.path(), &["turn", "s.umpire"]));
    assert!(
        turn.starts_with("The programmed commander gave the orders of the Army of the Rebellion: "),
        "{turn}"
    );
    assert!(!turn.contains("British Field Force:"), "{turn}");
    // --stop hands the side back.
    let stop = umpire(dir.path(), &["ai", "s.umpire", "rebels", "--stop"]);
    assert!(stdout(&stop).contains("A person plays Army of the Rebellion (rebels) again."));
    let turn = stdout(&umpire(dir.path(), &["turn", "s.umpire"]));
    assert!(!turn.contains("programmed commander"), "{turn}");
    let wrong = umpire(dir.path(), &["ai", "s.umpire", "dervishes", "--play"]);
    assert!(!wrong.status.success());
    assert!(
        common::stderr(&wrong).contains("no side `dervishes`"),
        "{}",
        common::stderr(&wrong)
    );
}

/// The source of `ai::odds`'s table (run by hand: `cargo test --test ai
/// engine_odds_table -- --ignored --nocapture`): the proving ground's
/// synthetic battles of mixed arms, the defender standing or entrenched,
/// each fought by every engine; prints the attacker's share of wins by rule
/// set, ground and ratio.
#[test]
#[ignore = "measures the engines (minutes in a debug build); its figures are in src/ai/odds.rs"]
fn engine_odds_table() {
    use umpire::proving::{Arms, CampaignInput, Probe, battles, fight};
    // The Egyptian campaign lends its sides and calendar; no orders, so no contacts.
    let input = CampaignInput {
        name: "egyptian_rebellion_1895.toml".to_owned(),
        campaign: egypt(),
        orders: Vec::new(),
    };
    let (all, _) = battles(&[input], false);
    let chosen: Vec<_> = all
        .into_iter()
        .filter(|b| matches!(b.probe, Probe::Synthetic { arms: Arms::Mixed, .. }))
        .collect();
    let runs: u32 = std::env::var("ODDS_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(40);
    let fought = fight(&chosen, runs, 20, &mut |_, _| {});
    for b in &fought.battles {
        let Probe::Synthetic {
            ground,
            posture,
            attacker_stands,
            defender_stands,
            ..
        } = &b.probe
        else {
            continue;
        };
        let shares: Vec<String> = fought
            .rule_sets
            .iter()
            .zip(&b.tallies)
            .map(|(r, t)| format!("{r}={:.2}", t.map_or(f64::NAN, |t| t.attacker_share())))
            .collect();
        println!(
            "{:?} {:?} {attacker_stands}:{defender_stands} {}",
            ground,
            posture,
            shares.join(" ")
        );
    }
}
