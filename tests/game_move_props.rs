//! Properties of game moves over random maps, forces and orders.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::world::*;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use umpire::model::*;
use umpire::strategy::{Action, OrderRequest, check_requests, resolve};

const TERRAINS: [Terrain; 5] = [
    Terrain::Open,
    Terrain::Hills,
    Terrain::Desert,
    Terrain::Urban,
    Terrain::Forest,
];
const KINDS: [StandKind; 6] = [
    StandKind::LineInfantry,
    StandKind::LightInfantry,
    StandKind::HeavyCavalry,
    StandKind::LightCavalry,
    StandKind::FootArtillery,
    StandKind::NativeSpearmen,
];

/// A random campaign: a connected map of `regions`, forces of both sides
/// marching on random paths, some forced; HQs at random.
fn random_world(seed: u64, regions: usize, forces: usize) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let name = |i: usize| format!("r{i}");
    let regs: Vec<Region> = (0..regions)
        .map(|i| region(&name(i), TERRAINS[rng.random_range(0..TERRAINS.len())]))
        .collect();
    let mut roads = Vec::new();
    let mut joined = BTreeSet::new();
    let mut add = |roads: &mut Vec<Road>, a: usize, b: usize, rng: &mut ChaCha8Rng| {
        if a != b && joined.insert((a.min(b), a.max(b))) {
            let kind = [RoadKind::Road, RoadKind::Track, RoadKind::Railway][rng.random_range(0..3)];
            let mut r = road(&name(a), &name(b), kind, rng.random_range(1.0..60.0));
            if rng.random_range(0..8) == 0 {
                r.river = Some(RiverCrossing::None);
            }
            roads.push(r);
        }
    };
    for i in 1..regions {
        let j = rng.random_range(0..i);
        add(&mut roads, i, j, &mut rng);
    }
    for _ in 0..regions {
        let (a, b) = (rng.random_range(0..regions), rng.random_range(0..regions));
        add(&mut roads, a, b, &mut rng);
    }
    let adjacent = |r: usize| -> Vec<usize> {
        roads
            .iter()
            .filter_map(|road| {
                let (a, b) = (road.from.as_str(), road.to.as_str());
                if a == name(r) {
                    b[1..].parse().ok()
                } else if b == name(r) {
                    a[1..].parse().ok()
                } else {
                    None
                }
            })
            .collect()
    };
    let mut next_stand = 1;
    let mut fs = Vec::new();
    for f in 0..forces {
        let side = if f % 2 == 0 { "red" } else { "blue" };
        let mut at = rng.random_range(0..regions);
        let start = at;
        let mut st = Vec::new();
        for _ in 0..rng.random_range(1..15) {
            st.extend(stands(KINDS[rng.random_range(0..KINDS.len())], 1, next_stand));
            next_stand += 1;
        }
        let mut path = Vec::new();
        for _ in 0..rng.random_range(0..5) {
            let next = adjacent(at);
            if next.is_empty() {
                break;
            }
            at = next[rng.random_range(0..next.len())];
            path.push(name(at));
        }
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        fs.push(marching(
            force(&format!("f{f}"), side, &name(start), st),
            &path,
            rng.random_range(0..3) == 0,
        ));
    }
    let red_hq = name(rng.random_range(0..regions));
    let blue_hq = name(rng.random_range(0..regions));
    campaign(regs, roads, &red_hq, &blue_hq, fs)
}

/// `c` with up to three reinforcements (arriving on a game move, a date or
/// an HQ's loss) and up to two sides' replacements, drawn from `seed`.
fn with_arrivals(mut c: Campaign, seed: u64) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let regions = c.map.regions.len();
    let sides = ["red", "blue"];
    let wings = [Wing::Left, Wing::Centre, Wing::Right];
    for n in 0..rng.random_range(0..4u32) {
        let side = sides[rng.random_range(0..2)];
        let arrives = match rng.random_range(0..3) {
            0 => Arrival::Turn {
                turn: rng.random_range(1..6),
            },
            1 => Arrival::Date {
                date: c.start_date.plus_days(rng.random_range(0..6)).unwrap(),
            },
            _ => Arrival::HqLost {
                side: SideId::new(sides[rng.random_range(0..2)]),
                wing: wings[rng.random_range(0..3)],
            },
        };
        let count = rng.random_range(1..4);
        c.reinforcements.push(Reinforcement {
            id: ForceId::new(format!("reinforcement{n}")),
            name: format!("Reinforcement {n}"),
            side: SideId::new(side),
            region: RegionId::new(format!("r{}", rng.random_range(0..regions))),
            arrives,
            stands: stands(KINDS[rng.random_range(0..KINDS.len())], count, 10_000 + 10 * n),
        });
    }
    for side in sides {
        if rng.random_range(0..2) == 0 {
            c.replacements.push(Replacements {
                side: SideId::new(side),
                every: rng.random_range(1..4),
                at: wings[rng.random_range(0..3)],
                name: None,
                stands: vec![NewStands {
                    kind: KINDS[rng.random_range(0..KINDS.len())],
                    quality: Quality::Trained,
                    count: rng.random_range(1..3),
                    name: None,
                }],
            });
        }
    }
    c
}

/// Stands that came onto the map by an event that names them: a
/// reinforcement's or replacements' arrival (the only ways a game move adds stands).
fn added_by_event(events: &[Event]) -> Vec<StandId> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ReinforcementArrived(r) => Some(&r.stands),
            EventKind::ReplacementsArrived(r) => Some(&r.stands),
            _ => None,
        })
        .flatten()
        .copied()
        .collect()
}

fn all_stands(c: &Campaign) -> BTreeMap<StandId, ForceId> {
    c.forces
        .iter()
        .flat_map(|f| f.stands.iter().map(|s| (s.id, f.id.clone())))
        .collect()
}

/// Stands removed by an event that names its rule.
fn removed_by_rule(events: &[Event]) -> Vec<StandId> {
    events
        .iter()
        .filter(|e| matches!(e.kind.name(), "forced_march_loss" | "supply_loss" | "hq_loss"))
        .inspect(|e| {
            assert!(
                e.kind.payload()["rule"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("Strategic Rules")),
                "{e:?}"
            )
        })
        .map(|e| StandId(u32::try_from(e.kind.payload()["stand"].as_u64().unwrap()).unwrap()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn stands_leave_only_by_a_named_rule_and_forces_are_in_one_place(
        seed in any::<u64>(), regions in 2usize..14, forces in 1usize..10, moves in 1usize..6,
    ) {
        let mut c = random_world(seed, regions, forces);
        for _ in 0..moves {
            let before = all_stands(&c);
            let outcome = resolve(&c, &[]);
            let after = all_stands(&outcome.campaign);
            let removed = removed_by_rule(&outcome.events);
            // No stand appears from nowhere; none is counted twice.
            prop_assert!(after.keys().all(|s| before.contains_key(s)));
            let total: usize = outcome.campaign.forces.iter().map(|f| f.stands.len()).sum();
            prop_assert_eq!(total, after.len(), "a stand is in two forces");
            // Every stand that left did so through one event naming its rule.
            let gone: BTreeSet<StandId> = before.keys().filter(|s| !after.contains_key(s)).copied().collect();
            let named: BTreeSet<StandId> = removed.iter().copied().collect();
            prop_assert_eq!(removed.len(), named.len(), "a stand removed twice");
            prop_assert_eq!(&gone, &named);
            // Each force is in one place: a known region, or on one road out of it.
            let ids: HashSet<&ForceId> = outcome.campaign.forces.iter().map(|f| &f.id).collect();
            prop_assert_eq!(ids.len(), outcome.campaign.forces.len());
            for f in &outcome.campaign.forces {
                prop_assert!(outcome.campaign.map.region(&f.region).is_some());
                prop_assert!(!f.stands.is_empty());
                if let Some(e) = &f.en_route {
                    let road = outcome.campaign.map.roads.iter().find(|r| r.other_end(&f.region) == Some(&e.toward));
                    prop_assert!(road.is_some(), "{} is on a road that does not exist", f.id);
                    prop_assert!(e.miles >= 0.0 && e.miles <= road.unwrap().miles + 1e-9);
                    // Its place is kept to the thousandth of a mile, short of the road's end.
                    let thousandths = e.miles * 1000.0;
                    prop_assert!((thousandths - thousandths.round()).abs() < 1e-6, "{} at {} miles", f.id, e.miles);
                    prop_assert!(e.miles < road.unwrap().miles, "{} at the road's end", f.id);
                }
            }
            // Pending battles name forces that exist, in the battle's region. A
            // battle fought or called off keeps its forces as its record, though
            // they may later be struck from the roll.
            for b in outcome.campaign.battles.iter().filter(|b| b.status == BattleStatus::Pending) {
                for id in &b.forces {
                    let f = outcome.campaign.force(id);
                    prop_assert!(f.is_some_and(|f| f.region == b.region && f.en_route.is_none()));
                }
            }
            c = outcome.campaign;
        }
    }

    #[test]
    fn stands_appear_only_through_a_named_event(
        seed in any::<u64>(), regions in 2usize..10, forces in 1usize..8, moves in 1usize..7,
    ) {
        let mut c = with_arrivals(random_world(seed, regions, forces), seed);
        for _ in 0..moves {
            let before = all_stands(&c);
            let outcome = resolve(&c, &[]);
            let after = all_stands(&outcome.campaign);
            let added = added_by_event(&outcome.events);
            let named: BTreeSet<StandId> = added.iter().copied().collect();
            prop_assert_eq!(added.len(), named.len(), "a stand added twice");
            prop_assert!(named.iter().all(|s| !before.contains_key(s)), "an arrival reused a stand id");
            // The stands after the move are those before it and those an
            // arrival named, less those an event naming its rule removed (an
            // arrival may lose a stand to the HQ-loss rule in its own move).
            let removed: BTreeSet<StandId> = removed_by_rule(&outcome.events).into_iter().collect();
            let expected: BTreeSet<StandId> =
                before.keys().chain(&named).filter(|s| !removed.contains(s)).copied().collect();
            let kept: BTreeSet<StandId> = after.keys().copied().collect();
            prop_assert_eq!(&kept, &expected, "a stand appeared or left without an event naming it");
            // One place per stand, force id and stand name; a reinforcement arrives once.
            let total: usize = outcome.campaign.forces.iter().map(|f| f.stands.len()).sum();
            prop_assert_eq!(total, after.len(), "a stand is in two forces");
            let ids: HashSet<&ForceId> = outcome.campaign.forces.iter().map(|f| &f.id).collect();
            prop_assert_eq!(ids.len(), outcome.campaign.forces.len());
            let names: HashSet<&str> = outcome.campaign.forces.iter().flat_map(|f| &f.stands).map(|s| s.name.as_str()).collect();
            prop_assert_eq!(names.len(), total, "two stands of one name");
            let arrived = outcome.events.iter().filter(|e| e.kind.name() == "reinforcement_arrived").count();
            prop_assert_eq!(arrived + outcome.campaign.reinforcements.len(), c.reinforcements.len());
            c = outcome.campaign;
        }
    }

    #[test]
    fn resolving_the_same_state_twice_gives_identical_events(
        seed in any::<u64>(), regions in 2usize..12, forces in 1usize..8,
    ) {
        let c = random_world(seed, regions, forces);
        let first = resolve(&c, &[]);
        let second = resolve(&c, &[]);
        prop_assert_eq!(serde_json::to_string(&first.events).unwrap(), serde_json::to_string(&second.events).unwrap());
        prop_assert_eq!(first.campaign, second.campaign);
    }

    #[test]
    fn random_orders_are_checked_without_panicking(
        seed in any::<u64>(), regions in 2usize..10, forces in 1usize..6,
        picks in prop::collection::vec((0usize..8, 0usize..12, 0usize..12, any::<bool>(), 0usize..5), 0..8),
    ) {
        let c = random_world(seed, regions, forces);
        let requests: Vec<OrderRequest> = picks
            .iter()
            .map(|(f, a, b, forced, kind)| OrderRequest {
                force: ForceId::new(format!("f{f}")),
                action: match kind {
                    0 => Action::March(vec![RegionId::new(format!("r{a}")), RegionId::new(format!("r{b}"))]),
                    1 => Action::To(RegionId::new(format!("r{a}"))),
                    2 => Action::Hold,
                    3 => Action::Split {
                        stands: vec![StandId(u32::try_from(*a).unwrap())],
                        new_force: ForceId::new(format!("n{b}")),
                        name: format!("New {b}"),
                    },
                    _ => Action::MergeInto(ForceId::new(format!("f{a}"))),
                },
                forced: *forced,
                by: Default::default(),
            })
            .collect();
        for side in ["red", "blue", "green"] {
            if let Ok(set) = check_requests(&c, &SideId::new(side), &requests) {
                // Checked orders always resolve, keeping every stand accounted for.
                let before = all_stands(&c).len();
                let outcome = resolve(&c, &[set]);
                let removed = removed_by_rule(&outcome.events).len();
                prop_assert_eq!(all_stands(&outcome.campaign).len() + removed, before);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn undo_then_redo_gives_the_same_state(seed in any::<u64>(), regions in 2usize..10, forces in 1usize..8, moves in 1usize..4) {
        use umpire::store::{Overwrite, Store};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.umpire");
        let start = with_arrivals(random_world(seed, regions, forces), seed);
        let mut store = Store::create(&path, &start, Overwrite::Refuse).unwrap();
        let mut states = vec![store.load().unwrap()];
        for _ in 0..moves {
            let (c, at) = store.read_at(Store::load).unwrap();
            let outcome = resolve(&c, &store.pending_orders().unwrap());
            store.commit_turn(at, &c, &outcome).unwrap();
            states.push(store.load().unwrap());
        }
        // Undo every move, checking each earlier state comes back whole.
        for expected in states.iter().rev().skip(1) {
            store.undo(store.revision().unwrap()).unwrap();
            prop_assert_eq!(&store.load().unwrap(), expected);
        }
        // Redo them all: the same states again.
        for expected in states.iter().skip(1) {
            let (c, at) = store.read_at(Store::load).unwrap();
            let outcome = resolve(&c, &store.pending_orders().unwrap());
            store.commit_turn(at, &c, &outcome).unwrap();
            prop_assert_eq!(&store.load().unwrap(), expected);
        }
    }
}

/// `random_world` under random house rules, the rejoin rule on.
fn house_ruled_world(
    seed: u64,
    regions: usize,
    forces: usize,
    rejoin: u32,
    loss_per: u32,
    grace: u32,
) -> Campaign {
    let mut c = random_world(seed, regions, forces);
    c.house_rules.rejoin_after_moves = Some(rejoin);
    c.house_rules.forced_march_loss_per = loss_per;
    c.house_rules.supply_grace_moves = grace;
    c
}

/// Stands that came back on the roll by a named event.
fn rejoined_by_rule(events: &[Event]) -> Vec<StandId> {
    events
        .iter()
        .filter(|e| e.kind.name() == "stands_rejoined")
        .flat_map(|e| {
            let ids = e.kind.payload()["stands"].as_array().unwrap().clone();
            ids.into_iter()
                .map(|id| StandId(u32::try_from(id.as_u64().unwrap()).unwrap()))
        })
        .collect()
}

/// Every stand a force holds or waits for, on the roll or fallen out.
fn every_stand(c: &Campaign) -> BTreeSet<StandId> {
    c.forces
        .iter()
        .flat_map(|f| {
            f.stands
                .iter()
                .map(|s| s.id)
                .chain(f.fallen_out.iter().map(|o| o.stand.id))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Stands appear only through a named event (here, rejoining), and leave
    /// only through one, whatever the house rules.
    #[test]
    fn stands_appear_only_through_a_named_event_under_house_rules(
        seed in any::<u64>(), regions in 2usize..14, forces in 1usize..10, moves in 1usize..8,
        rejoin in 1u32..4, loss_per in 1u32..12, grace in 0u32..5,
    ) {
        let mut c = house_ruled_world(seed, regions, forces, rejoin, loss_per, grace);
        for _ in 0..moves {
            let before = all_stands(&c);
            let held = every_stand(&c);
            let outcome = resolve(&c, &[]);
            let after = all_stands(&outcome.campaign);
            let appeared: BTreeSet<StandId> = after.keys().filter(|s| !before.contains_key(s)).copied().collect();
            let rejoined = rejoined_by_rule(&outcome.events);
            let named: BTreeSet<StandId> = rejoined.iter().copied().collect();
            prop_assert_eq!(rejoined.len(), named.len(), "a stand rejoined twice");
            prop_assert_eq!(&appeared, &named, "a stand appeared without a named event");
            // Only a stand that was waiting rejoins; none is held twice.
            prop_assert!(named.iter().all(|s| held.contains(s)));
            let gone: BTreeSet<StandId> = before.keys().filter(|s| !after.contains_key(s)).copied().collect();
            prop_assert_eq!(&gone, &removed_by_rule(&outcome.events).into_iter().collect::<BTreeSet<_>>());
            let on_roll: usize = outcome.campaign.forces.iter().map(|f| f.stands.len()).sum();
            let waiting: usize = outcome.campaign.forces.iter().map(|f| f.fallen_out.len()).sum();
            prop_assert_eq!(on_roll + waiting, every_stand(&outcome.campaign).len(), "a stand held twice");
            prop_assert!(every_stand(&outcome.campaign).is_subset(&held), "the roll grew");
            c = outcome.campaign;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// The save keeps house rules and stands fallen out through game moves and undo.
    #[test]
    fn undo_gives_back_stands_fallen_out_under_house_rules(seed in any::<u64>(), regions in 2usize..10, forces in 1usize..8, moves in 1usize..5) {
        use umpire::store::{Overwrite, Store};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.umpire");
        let start = house_ruled_world(seed, regions, forces, 3, 2, 4);
        let mut store = Store::create(&path, &start, Overwrite::Refuse).unwrap();
        let mut states = vec![store.load().unwrap()];
        prop_assert_eq!(&states[0].house_rules, &start.house_rules);
        for _ in 0..moves {
            let (c, at) = store.read_at(Store::load).unwrap();
            let outcome = resolve(&c, &store.pending_orders().unwrap());
            store.commit_turn(at, &c, &outcome).unwrap();
            let loaded = store.load().unwrap();
            prop_assert_eq!(&loaded, &outcome.campaign);
            states.push(loaded);
        }
        for expected in states.iter().rev().skip(1) {
            store.undo(store.revision().unwrap()).unwrap();
            prop_assert_eq!(&store.load().unwrap(), expected);
        }
    }
}
