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
use umpire::ai::{Memory, Opponent, Plan, decide};
use umpire::desk;
use umpire::model::report::KnownForce;
use umpire::model::report::Report;
use umpire::model::{Campaign, Conveyance, How, RegionId, RoadKind, Seen, SideId, StandId};
use umpire::strategy::{Action, OrderRequest};
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

// ---------------------------------------------------------------------------
// Situations built by hand: a report of a balanced campaign, changed, and
// the order the commander must give.

/// Red's report of a balanced 60-region campaign at its start, game move `turn`.
fn red_report(seed: u64, turn: u32) -> (Campaign, Report) {
    let mut campaign = balanced_campaign(60, seed, 30).unwrap();
    campaign.turn = turn;
    let report = Report::of(&campaign, &SideId::new("red"), &[]).unwrap();
    (campaign, report)
}

/// A memory that keeps `plan` on `target` (drawn at `since`), the side's HQs
/// and points as the report has them, so the situation has not changed.
fn keeping(report: &Report, plan: Plan, target: &RegionId, since: u32) -> Memory {
    Memory {
        plan: Some(plan),
        roll: 3,
        since_turn: since,
        target: Some(target.clone()),
        hqs_held: report.hqs.iter().filter(|h| h.held_by == report.side).count(),
        points: report
            .forces
            .iter()
            .filter(|f| f.side == report.side)
            .map(|f| f.stands.iter().map(|s| f64::from(s.strength)).sum::<f64>())
            .sum(),
        progress_turn: since,
        ..Memory::default()
    }
}

/// An enemy force the side knows: in full with `points`, or a blind (`None`).
fn sighted(marker: u32, region: &RegionId, points: Option<u64>, turn: u32) -> KnownForce {
    KnownForce {
        marker,
        side: SideId::new("blue"),
        blind: points.is_none(),
        id: points.map(|_| umpire::model::ForceId::new(format!("blue-{marker}"))),
        name: points.map(|_| format!("Blue Force {marker}")),
        points,
        stands: points.map(|p| (p / 80) as usize),
        region: region.clone(),
        en_route: None,
        seen_turn: turn,
        in_sight: true,
        how: How::Vision,
    }
}

fn order_of<'a>(decision: &'a umpire::ai::Decision, force: &str) -> Option<&'a OrderRequest> {
    decision.requests.iter().find(|r| r.force.as_str() == force)
}

/// The regions an order marches through, or its one destination.
fn marched(request: &OrderRequest) -> Vec<RegionId> {
    match &request.action {
        Action::March(path) => path.clone(),
        Action::To(to) => vec![to.clone()],
        _ => Vec::new(),
    }
}

#[test]
fn the_engines_odds_follow_the_ratio_and_the_ground() {
    use umpire::ai::odds::{Ground, attack_odds};
    use umpire::model::RuleSetId::{Harman2021, Scruby1965};
    // (rules, ground, entrenched, attacker, defender, at least, at most)
    let table = [
        (Scruby1965, Ground::Open, false, 300.0, 100.0, 0.85, 1.0),
        (Scruby1965, Ground::Open, false, 150.0, 100.0, 0.7, 0.85),
        (Scruby1965, Ground::Open, false, 100.0, 100.0, 0.2, 0.5),
        (Scruby1965, Ground::Open, false, 100.0, 300.0, 0.0, 0.1),
        // Hills: 3 : 2 is not enough under scruby-1965, 3 : 1 is.
        (Scruby1965, Ground::Hills, false, 150.0, 100.0, 0.2, 0.5),
        (Scruby1965, Ground::Hills, false, 300.0, 100.0, 0.85, 1.0),
        // Between measured ratios: between their shares.
        (Scruby1965, Ground::Open, false, 175.0, 100.0, 0.77, 0.93),
        (Harman2021, Ground::Town, true, 150.0, 100.0, 0.55, 0.8),
        // No defender: won; no attacker: lost.
        (Scruby1965, Ground::Woods, false, 100.0, 0.0, 1.0, 1.0),
        (Scruby1965, Ground::Woods, false, 0.0, 100.0, 0.0, 0.0),
    ];
    for (rules, ground, entrenched, a, d, low, high) in table {
        let odds = attack_odds(rules, ground, entrenched, a, d);
        assert!(
            (low..=high).contains(&odds),
            "{rules} {ground:?} entrenched {entrenched} {a}:{d}: {odds}"
        );
    }
    // A stronger attack never has worse odds.
    for ground in [
        Ground::Open,
        Ground::Town,
        Ground::River,
        Ground::Hills,
        Ground::Woods,
    ] {
        let mut last = 0.0;
        for tenths in 2..40 {
            let odds = attack_odds(Scruby1965, ground, true, f64::from(tenths) * 10.0, 100.0);
            assert!(odds >= last, "{ground:?} at {tenths} tenths: {odds} < {last}");
            last = odds;
        }
    }
}

#[test]
fn the_body_does_not_strike_an_hq_held_by_a_blind_as_strong_as_the_enemys_main_body() {
    let (_, mut report) = red_report(11, 5);
    let hq = report
        .hqs
        .iter()
        .find(|h| h.side.as_str() == "blue")
        .unwrap()
        .region
        .clone();
    let other = report
        .hqs
        .iter()
        .filter(|h| h.side.as_str() == "blue")
        .nth(1)
        .unwrap()
        .region
        .clone();
    // The enemy's main body seen in full at another HQ; a blind at this one.
    report.known = vec![sighted(1, &other, Some(1500), 5), sighted(2, &hq, None, 5)];
    let memory = keeping(&report, Plan::StrikeHq, &hq, 5);
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    assert!(
        order_of(&decision, "red-main").is_some(),
        "the main body has an order"
    );
    // The blind is taken at 1500 points: the body (1740) does not march
    // into it, and no force of the side marches into either HQ.
    for request in &decision.requests {
        assert!(
            !marched(request).contains(&hq) && !marched(request).contains(&other),
            "{request:?}\n{:#?}",
            decision.log
        );
    }
}

#[test]
fn a_scout_watches_a_blind_at_the_objective() {
    let (_, mut report) = red_report(12, 3);
    let hq = report
        .hqs
        .iter()
        .find(|h| h.side.as_str() == "blue")
        .unwrap()
        .region
        .clone();
    report.known = vec![sighted(4, &hq, None, 3)];
    let memory = keeping(&report, Plan::StrikeHq, &hq, 3);
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    let scouts = order_of(&decision, "red-scouts").expect("the scouts have an order");
    let post = marched(scouts).last().cloned().expect("the scouts march");
    let neighbours: Vec<RegionId> = report
        .map
        .roads
        .iter()
        .filter_map(|r| r.other_end(&hq).cloned())
        .collect();
    assert!(neighbours.contains(&post), "{post} is not next to {hq}");
    assert!(!marched(scouts).contains(&hq));
    assert!(
        decision.log.iter().any(|l| l.contains("watches")),
        "{:#?}",
        decision.log
    );
}

#[test]
fn a_plan_whose_body_comes_no_closer_is_given_up() {
    let (_, report) = red_report(13, 12);
    let hq = report
        .hqs
        .iter()
        .find(|h| h.side.as_str() == "blue")
        .unwrap()
        .region
        .clone();
    // Drawn in game move 2; the body last came closer in game move 7, five
    // game moves ago (it has been standing where it is since).
    let mut memory = keeping(&report, Plan::StrikeHq, &hq, 2);
    memory.progress_turn = 7;
    memory.closest = Some(0.0);
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    assert!(
        decision
            .log
            .iter()
            .any(|l| l.starts_with("Plan:") && l.contains("came no closer")),
        "{:#?}",
        decision.log
    );
    assert_eq!(decision.memory.since_turn, 12);
    // Still coming closer (it did last game move): the plan is kept, though drawn ten game moves ago.
    memory.progress_turn = 11;
    memory.closest = None;
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    assert!(
        !decision.log.iter().any(|l| l.starts_with("Plan:")),
        "{:#?}",
        decision.log
    );
}

#[test]
fn the_main_body_takes_the_train_to_a_far_objective() {
    let (_, mut report) = red_report(14, 2);
    // The railway's two ends: the stations furthest apart along it.
    let rail: Vec<(RegionId, RegionId, f64)> = report
        .map
        .roads
        .iter()
        .filter(|r| r.kind == RoadKind::Railway)
        .map(|r| (r.from.clone(), r.to.clone(), r.miles))
        .collect();
    assert!(!rail.is_empty(), "the generated map has a railway");
    // From one end of the line, the miles along it to each of its stations.
    let mut count: std::collections::HashMap<RegionId, usize> = Default::default();
    for (a, b, _) in &rail {
        *count.entry(a.clone()).or_default() += 1;
        *count.entry(b.clone()).or_default() += 1;
    }
    let mut ends: Vec<RegionId> = count
        .into_iter()
        .filter(|(_, n)| *n == 1)
        .map(|(r, _)| r)
        .collect();
    ends.sort();
    let from = ends.first().expect("the railway has an end").clone();
    let mut along = vec![(from.clone(), 0.0)];
    let mut k = 0;
    while let Some((here, miles)) = along.get(k).cloned() {
        for (a, b, m) in &rail {
            let next = if a == &here {
                b
            } else if b == &here {
                a
            } else {
                continue;
            };
            if !along.iter().any(|(r, _)| r == next) {
                along.push((next.clone(), miles + m));
            }
        }
        k += 1;
    }
    // The station furthest along the line that is no HQ.
    let (to, miles) = along
        .iter()
        .filter(|(r, _)| !report.hqs.iter().any(|h| &h.region == r))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .cloned()
        .unwrap();
    let (from, to) = (&from, &to);
    assert!(
        miles > 60.0,
        "the railway is long enough to save a game move: {miles}"
    );
    // The main body at one end; one enemy HQ, unguarded, moved to the
    // other (an HQ the enemy holds on the line would cut it: the others go).
    let first_blue = report.hqs.iter().position(|h| h.side.as_str() == "blue").unwrap();
    let mut k = 0;
    report.hqs.retain(|h| {
        k += 1;
        h.side.as_str() == "red" || k - 1 == first_blue
    });
    for force in report.forces.iter_mut().filter(|f| f.id.as_str() == "red-main") {
        force.region = from.clone();
    }
    let hq = report.hqs.iter_mut().find(|h| h.side.as_str() == "blue").unwrap();
    hq.region = to.clone();
    let memory = keeping(&report, Plan::StrikeHq, to, 2);
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    let main = order_of(&decision, "red-main").expect("the main body has an order");
    assert_eq!(main.by, Conveyance::Rail, "{main:?}\n{:#?}", decision.log);
    assert!(matches!(main.action, Action::March(_)));
    assert!(
        decision
            .log
            .iter()
            .any(|l| l.contains("Red Main Body goes by train")),
        "{:#?}",
        decision.log
    );
    // The journey's path is along the railway from its start.
    let path = marched(main);
    let mut here = from.clone();
    for step in &path {
        assert!(
            rail.iter()
                .any(|(a, b, _)| (a == &here && b == step) || (b == &here && a == step)),
            "{here} to {step} is not a railway"
        );
        here = step.clone();
    }
}

#[test]
fn a_force_in_a_pending_battle_is_given_no_order() {
    let (_, mut report) = red_report(15, 4);
    let main = report
        .forces
        .iter()
        .find(|f| f.id.as_str() == "red-main")
        .unwrap();
    report.battles.push(umpire::model::report::ReportBattle {
        id: 1,
        turn: 3,
        region: main.region.clone(),
        attacker: SideId::new("blue"),
        defender: SideId::new("red"),
        forces: vec![umpire::model::report::BattleForce {
            id: main.id.clone(),
            name: main.name.clone(),
            side: main.side.clone(),
            region: main.region.clone(),
            stands: main.stands.clone(),
        }],
        reserves: Vec::new(),
        came_from: Vec::new(),
    });
    let decision = decide(Opponent::Commander, &report, &Memory::default(), 1);
    assert!(
        order_of(&decision, "red-main").is_none(),
        "{:?}",
        decision.requests
    );
    assert!(order_of(&decision, "red-left").is_some());
}

#[test]
fn with_no_way_round_a_force_stops_short_of_an_enemy_it_cannot_beat() {
    let (_, mut report) = red_report(16, 6);
    // The main body in the middle of the map, an enemy of 5,000 points in
    // every region next to it: no way round, and none it could beat.
    let mut by_x: Vec<_> = report.map.regions.iter().collect();
    by_x.sort_by(|a, b| a.x.total_cmp(&b.x));
    let middle = by_x[by_x.len() / 2].id.clone();
    for force in report.forces.iter_mut().filter(|f| f.id.as_str() == "red-main") {
        force.region = middle.clone();
    }
    let around: Vec<RegionId> = report
        .map
        .roads
        .iter()
        .filter_map(|r| r.other_end(&middle).cloned())
        .collect();
    report.known = (1..)
        .zip(&around)
        .map(|(k, r)| sighted(k, r, Some(5000), 6))
        .collect();
    let hq = report
        .hqs
        .iter()
        .find(|h| h.side.as_str() == "blue")
        .unwrap()
        .region
        .clone();
    let memory = keeping(&report, Plan::StrikeHq, &hq, 6);
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    let main = order_of(&decision, "red-main").expect("the main body has an order");
    assert!(
        matches!(main.action, Action::Hold),
        "{main:?}\n{:#?}",
        decision.log
    );
    assert!(
        decision
            .log
            .iter()
            .any(|l| l.starts_with("Red Main Body stops short of")),
        "{:#?}",
        decision.log
    );
    // The same enemy at 100 points a region: the body beats him, and marches.
    for known in &mut report.known {
        known.points = Some(100);
    }
    let decision = decide(Opponent::Commander, &report, &memory, 1);
    let main = order_of(&decision, "red-main").expect("the main body has an order");
    assert!(!marched(main).is_empty(), "{main:?}\n{:#?}", decision.log);
}

#[test]
fn a_scout_on_the_road_turns_back_from_an_enemy_it_cannot_beat() {
    let (_, mut report) = red_report(17, 4);
    let scouts = report
        .forces
        .iter()
        .find(|f| f.id.as_str() == "red-scouts")
        .unwrap();
    let (from, toward) = {
        let road = report
            .map
            .roads
            .iter()
            .find(|r| r.from == scouts.region || r.to == scouts.region)
            .unwrap();
        (
            scouts.region.clone(),
            road.other_end(&scouts.region).unwrap().clone(),
        )
    };
    for force in report.forces.iter_mut().filter(|f| f.id.as_str() == "red-scouts") {
        force.en_route = Some(umpire::model::EnRoute {
            toward: toward.clone(),
            miles: 3.0,
        });
    }
    report.known = vec![sighted(1, &toward, Some(500), 4)];
    let decision = decide(Opponent::Commander, &report, &Memory::default(), 1);
    let order = order_of(&decision, "red-scouts").expect("the scouts have an order");
    assert_eq!(marched(order), vec![from], "{order:?}");
    assert!(
        decision
            .log
            .iter()
            .any(|l| l.starts_with("Red Scouts turns back"))
    );
    // With no enemy there, it goes on: no order.
    report.known.clear();
    let decision = decide(Opponent::Commander, &report, &Memory::default(), 1);
    assert!(order_of(&decision, "red-scouts").is_none());
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
        .filter(|b| {
            matches!(
                b.probe,
                Probe::Synthetic {
                    arms: Arms::Mixed,
                    ..
                }
            )
        })
        .collect();
    let runs: u32 = std::env::var("ODDS_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);
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
