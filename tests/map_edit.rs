//! The map maker's edits (`model::map_edit`), without the window: ids made
//! from names, what each edit does, and for any run of edits, the map stays
//! whole (no road to a missing region), undo gives back every state in turn,
//! and a map with unique names, positive miles and one connected part passes
//! the check and is written and read back identical.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use umpire::model::check::{Source, check_map};
use umpire::model::map_edit::{self, MapEdits, ProblemAt};
use umpire::model::map_file::map_file_text;
use umpire::model::{Map, RoadKind};

fn blank() -> Map {
    Map {
        name: "Test".to_owned(),
        description: None,
        regions: Vec::new(),
        roads: Vec::new(),
        background: None,
        waters: Vec::new(),
    }
}

#[test]
fn ids_are_made_from_names() {
    for (name, id) in [
        ("Region 3", Some("region_3")),
        ("Bridge Z Farm", Some("bridge_z_farm")),
        ("  Medinet el-Faiyum ", Some("medinet_el_faiyum")),
        ("Hill 5", Some("hill_5")),
        ("1st Cataract", Some("r_1st_cataract")),
        ("Qasr Ibrîm", Some("qasr_ibr_m")),
        ("---", None),
        ("", None),
    ] {
        assert_eq!(map_edit::id_from_name(name).as_deref(), id, "{name:?}");
    }
    let long = map_edit::id_from_name(&"a ".repeat(100)).unwrap();
    assert!(long.len() <= 64 && !long.ends_with('_'), "{long}");
}

#[test]
fn a_region_deleted_takes_its_roads_and_a_rename_carries_the_id_along() {
    let mut map = blank();
    for at in [[0.0, 0.0], [3.0, 4.0], [6.0, 0.0]] {
        let region = map_edit::new_region(&map, at);
        map.regions.push(region);
    }
    assert_eq!(map_edit::add_road(&mut map, 0, 1, RoadKind::Road), Ok(0));
    assert_eq!(map.roads[0].miles, 5.0, "the straight line, 3-4-5");
    assert_eq!(
        map_edit::add_road(&mut map, 1, 0, RoadKind::Road),
        Err(Some(0)),
        "joined already"
    );
    assert_eq!(
        map_edit::add_road(&mut map, 1, 1, RoadKind::Road),
        Err(None),
        "to itself"
    );
    assert_eq!(
        map_edit::add_road(&mut map, 1, 0, RoadKind::Railway),
        Ok(1),
        "another kind"
    );
    assert_eq!(map_edit::add_road(&mut map, 1, 2, RoadKind::Track), Ok(2));

    // Renamed: the id made from the old name follows, roads and all.
    map_edit::rename_region(&mut map, 1, "Old Mill");
    assert_eq!(map.regions[1].id.as_str(), "old_mill");
    assert!(
        map.roads
            .iter()
            .all(|r| r.from.as_str() == "old_mill" || r.to.as_str() == "old_mill")
    );
    // An id set by hand stays.
    map_edit::set_region_id(&mut map, 1, "mill");
    map_edit::rename_region(&mut map, 1, "The Mill");
    assert_eq!(map.regions[1].id.as_str(), "mill");

    // Moved: the roads whose miles were the straight line follow it, others keep theirs.
    map.roads[2].miles = 9.0;
    map_edit::move_region(&mut map, 1, [0.0, 8.0]);
    assert_eq!((map.roads[0].miles, map.roads[2].miles), (8.0, 9.0));

    assert_eq!(map_edit::remove_region(&mut map, 1), 3);
    assert!(map.roads.is_empty());
    assert_eq!(map.regions.len(), 2);
    // The next new region takes a free name.
    assert_eq!(map_edit::new_region(&map, [1.0, 1.0]).name, "Region 4");
}

#[test]
fn problems_are_placed_at_their_region_or_road() {
    let mut map = blank();
    for at in [[0.0, 0.0], [5.0, 0.0], [9.0, 9.0]] {
        let region = map_edit::new_region(&map, at);
        map.regions.push(region);
    }
    map_edit::add_road(&mut map, 0, 1, RoadKind::Road).unwrap();
    map_edit::add_road(&mut map, 1, 2, RoadKind::Road).unwrap();
    assert_eq!(map_edit::problems(&map), []);
    map.regions[2].name = "Region 1".to_owned();
    map.roads[1].miles = 0.0;
    let problems = map_edit::problems(&map);
    let at: Vec<(ProblemAt, bool)> = problems.iter().map(|p| (p.at, p.error)).collect();
    assert_eq!(
        at,
        [(ProblemAt::Region(2), true), (ProblemAt::Road(1), true)],
        "{problems:?}"
    );
}

#[derive(Debug, Clone)]
enum Step {
    Add(f64, f64),
    Join(usize, usize, u8),
    Move(usize, f64, f64),
    Rename(usize, u8),
    Delete(usize),
    DeleteRoad(usize),
    Undo,
    Redo,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0.0..100.0f64, 0.0..100.0f64).prop_map(|(x, y)| Step::Add(x, y)),
        3 => (0..12usize, 0..12usize, 0..4u8).prop_map(|(a, b, k)| Step::Join(a, b, k)),
        1 => (0..12usize, 0.0..100.0f64, 0.0..100.0f64).prop_map(|(i, x, y)| Step::Move(i, x, y)),
        1 => (0..12usize, 0..20u8).prop_map(|(i, n)| Step::Rename(i, n)),
        1 => (0..12usize).prop_map(Step::Delete),
        1 => (0..12usize).prop_map(Step::DeleteRoad),
        1 => Just(Step::Undo),
        1 => Just(Step::Redo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_run_of_edits_keeps_the_map_whole_and_undo_walks_back(steps in prop::collection::vec(step(), 1..40)) {
        let mut edits = MapEdits::new(blank());
        let mut states = vec![edits.map().clone()];
        for step in steps {
            let kinds = [RoadKind::Road, RoadKind::Track, RoadKind::Railway, RoadKind::River];
            match step {
                Step::Undo => {
                    if edits.undo() {
                        states.pop();
                    }
                }
                Step::Redo => {
                    // A redo after other edits has nothing to give; states are
                    // tracked for the undo walk only, so start it again.
                    if edits.redo() {
                        states.push(edits.map().clone());
                    }
                }
                Step::Add(x, y) => {
                    edits.change(None, |m| {
                        let r = map_edit::new_region(m, [x, y]);
                        m.regions.push(r);
                    });
                    states.push(edits.map().clone());
                }
                Step::Join(a, b, k) => {
                    edits.change(None, |m| {
                        let _ = map_edit::add_road(m, a, b, kinds[usize::from(k)]);
                    });
                    states.push(edits.map().clone());
                }
                Step::Move(i, x, y) => {
                    edits.change(None, |m| map_edit::move_region(m, i, [x, y]));
                    states.push(edits.map().clone());
                }
                Step::Rename(i, n) => {
                    edits.change(None, |m| map_edit::rename_region(m, i, &format!("Place {n}")));
                    states.push(edits.map().clone());
                }
                Step::Delete(i) => {
                    edits.change(None, |m| map_edit::remove_region(m, i));
                    states.push(edits.map().clone());
                }
                Step::DeleteRoad(i) => {
                    edits.change(None, |m| if i < m.roads.len() { m.roads.remove(i); });
                    states.push(edits.map().clone());
                }
            }
            let map = edits.map();
            // No road to a region not on the map, none to itself.
            for road in &map.roads {
                prop_assert!(map.region(&road.from).is_some() && map.region(&road.to).is_some());
                prop_assert_ne!(&road.from, &road.to);
                prop_assert!(road.miles > 0.0);
            }
            prop_assert_eq!(Some(map), states.last());
            // A map whose names are unique passes the check (warnings aside),
            // and reads back as the same map.
            let mut names: Vec<&str> = map.regions.iter().map(|r| r.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            let problems = map_edit::problems(map);
            if !map.regions.is_empty() && names.len() == map.regions.len() {
                let ids_unique = {
                    let mut ids: Vec<&str> = map.regions.iter().map(|r| r.id.as_str()).collect();
                    ids.sort_unstable();
                    ids.dedup();
                    ids.len() == map.regions.len()
                };
                prop_assert!(ids_unique, "ids follow names only when free");
                prop_assert!(problems.iter().all(|p| !p.error), "{:?}", problems);
                let text = map_file_text(map, map_edit::WRITTEN_BY).unwrap();
                let back = check_map(Source { name: "m", text: &text }).value;
                prop_assert_eq!(back.as_ref(), Some(map));
            }
        }
        // Undo walks back through every state to the blank map.
        while edits.undo() {
            states.pop();
            prop_assert_eq!(Some(edits.map()), states.last());
        }
    }
}

#[test]
fn a_campaign_sketch_is_written_as_a_campaign_file_that_checks_on_its_map() {
    use umpire::model::Wing;
    use umpire::model::campaign_file::{CampaignSketch, TEMPLATES, campaign_file_text, sketch_problems};
    use umpire::model::check::read_campaign;
    let mut map = blank();
    for at in [
        [0.0, 0.0],
        [5.0, 0.0],
        [10.0, 0.0],
        [0.0, 5.0],
        [5.0, 5.0],
        [10.0, 5.0],
    ] {
        let region = map_edit::new_region(&map, at);
        map.regions.push(region);
    }
    for (a, b) in [(0, 1), (1, 2), (0, 3), (3, 4), (4, 5), (1, 4)] {
        map_edit::add_road(&mut map, a, b, RoadKind::Road).unwrap();
    }
    let mut sketch = CampaignSketch::new(&map.name, "map.toml");
    assert!(
        sketch_problems(&sketch, &map)
            .iter()
            .any(|(e, m)| *e && m.contains("no left HQ"))
    );
    for (side, row) in [(0, 0), (1, 3)] {
        for (k, wing) in Wing::ALL.iter().enumerate() {
            let region = map.regions[row + k].id.clone();
            sketch.place_hq(side, *wing, region, "here");
        }
        for template in TEMPLATES {
            sketch.place_force(side, template, map.regions[row].id.clone());
        }
    }
    // The same template twice: a name, an id and stand numbers of its own.
    sketch.place_force(0, &TEMPLATES[0], map.regions[1].id.clone());
    assert_eq!(sketch.forces.len(), 2 * TEMPLATES.len() + 1);
    let last = sketch.forces.last().unwrap();
    assert_eq!(
        (last.id.as_str(), last.name.as_str()),
        ("red-infantry-brigade-2", "Red Infantry brigade 2")
    );
    let mut ids: Vec<u32> = sketch
        .forces
        .iter()
        .flat_map(|f| f.stands.iter().map(|s| s.id))
        .collect();
    let count = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), count, "stand ids in turn");
    assert_eq!(sketch_problems(&sketch, &map), []);

    let text = campaign_file_text(&sketch, "test").unwrap();
    assert!(
        text.contains("start_date = 1895-03-01\n"),
        "a TOML date: {text:.400}"
    );
    let campaign = read_campaign(Source {
        name: "c",
        text: &text,
    })
    .unwrap()
    .check(Ok(map.clone()))
    .value
    .unwrap();
    assert_eq!(campaign.hqs.len(), 6);
    assert_eq!(campaign.forces.len(), sketch.forces.len());

    // A side removed takes its HQs and forces; a bad date is said, not written.
    sketch.remove_side(1);
    assert!(sketch.hqs.iter().all(|h| h.side == "red"));
    assert!(sketch.forces.iter().all(|f| f.side == "red"));
    sketch.start_date = "March 1895".to_owned();
    assert!(
        campaign_file_text(&sketch, "test")
            .unwrap_err()
            .to_string()
            .contains("March 1895")
    );
}
