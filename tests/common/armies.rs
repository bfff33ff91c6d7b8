//! Each rule set's own test armies: mirror images, mismatches and the
//! tables their tests are fought on, used by the rule set's tests and by the
//! conformance suite's odds and replays (`tests/rules_conformance.rs`).

pub mod cordery {
    use super::super::table::{area, example, grid_battle, side, stand_in as stand};
    use umpire::model::{ArmyKind, RuleSetId, StandKind};
    use umpire::scenario::{Patch, Role, Scenario, TableStand};

    /// A table `width` x `depth`, side 0 (attacker, red) deploying along the
    /// low-y edge and side 1 (defender, blue) along the high-y edge, each with a
    /// General (ids 900 and 901) out of the way in a far corner.
    pub fn scenario(
        width: u32,
        depth: u32,
        terrain: Vec<Patch>,
        a: Vec<TableStand>,
        b: Vec<TableStand>,
    ) -> Scenario {
        let corner = |y: u32| Some((i32::try_from(width).unwrap() - 1, i32::try_from(y).unwrap()));
        let mut a = a;
        let mut b = b;
        a.push(stand(900, StandKind::Command, corner(0)));
        b.push(stand(901, StandKind::Command, corner(depth - 1)));
        let mut s = grid_battle(
            RuleSetId::Cordery2009,
            width,
            depth,
            vec![
                side("red", ArmyKind::Regular, Role::Attacker, area(0, 0, width, 2), a),
                side(
                    "blue",
                    ArmyKind::Regular,
                    Role::Defender,
                    area(0, depth - 2, width, 2),
                    b,
                ),
            ],
        );
        s.table.terrain = terrain;
        s
    }

    /// The example battle at Kassassin bridge.
    pub fn kassassin() -> Scenario {
        example("kassassin_bridge.json")
    }

    pub fn infantry(id: u32, at: (i32, i32)) -> TableStand {
        stand(id, StandKind::LineInfantry, Some(at))
    }

    /// Takes away the Generals `scenario` put in the corners.
    pub fn drop_corner_generals(s: &mut Scenario) {
        for side in &mut s.sides {
            side.stands.retain(|t| t.id.0 < 900);
        }
    }

    /// Two equal regular armies on an open table.
    pub fn mirror() -> Scenario {
        let army = |base: u32| -> Vec<TableStand> {
            let mut v: Vec<TableStand> = (0..8)
                .map(|k| stand(base + k, StandKind::LineInfantry, None))
                .collect();
            v.push(stand(base + 8, StandKind::HeavyCavalry, None));
            v.push(stand(base + 9, StandKind::HeavyCavalry, None));
            v.push(stand(base + 10, StandKind::FootArtillery, None));
            v.push(stand(base + 11, StandKind::FootArtillery, None));
            v.push(stand(base + 12, StandKind::Command, None));
            v
        };
        let mut s = scenario(18, 12, vec![], army(1), army(101));
        drop_corner_generals(&mut s);
        s.title = "mirror".to_owned();
        s.sides[0].deployment = area(3, 0, 12, 3);
        s.sides[1].deployment = area(3, 9, 12, 3);
        s
    }

    /// Sixteen regular stands against five native ones on open ground.
    pub fn mismatch() -> Scenario {
        let mut strong: Vec<TableStand> = (0..12)
            .map(|k| stand(1 + k, StandKind::LineInfantry, None))
            .collect();
        strong.extend((12..14).map(|k| stand(1 + k, StandKind::HeavyCavalry, None)));
        strong.extend((14..16).map(|k| stand(1 + k, StandKind::FootArtillery, None)));
        let weak: Vec<TableStand> = (0..5)
            .map(|k| stand(101 + k, StandKind::NativeSpearmen, None))
            .collect();
        let mut s = scenario(18, 12, vec![], strong, weak);
        drop_corner_generals(&mut s);
        s.title = "mismatch".to_owned();
        s.sides[1].army = ArmyKind::Native;
        s.sides[0].deployment = area(3, 0, 12, 3);
        s.sides[1].deployment = area(3, 9, 12, 3);
        s
    }
}

pub mod harman2021 {
    use super::super::table::{area, grid_battle, side, stand_of as stand};
    use umpire::model::{ArmyKind, Quality, RuleSetId, StandKind};
    use umpire::scenario::{Role, Scenario, TableStand};

    /// An open 18 x 12 grid, red attacking from the low-y edge.
    pub fn scenario(a: Vec<TableStand>, b: Vec<TableStand>) -> Scenario {
        grid_battle(
            RuleSetId::Harman2021,
            18,
            12,
            vec![
                side("red", ArmyKind::Regular, Role::Attacker, area(2, 0, 14, 3), a),
                side("blue", ArmyKind::Regular, Role::Defender, area(2, 9, 14, 3), b),
            ],
        )
    }

    pub fn army(base: u32, q: Quality, infantry: u32) -> Vec<TableStand> {
        let mut v: Vec<TableStand> = (0..infantry)
            .map(|k| stand(base + k, StandKind::LineInfantry, q))
            .collect();
        v.push(stand(base + 50, StandKind::HeavyCavalry, q));
        v.push(stand(base + 51, StandKind::LightCavalry, q));
        v.push(stand(base + 52, StandKind::FootArtillery, q));
        v.push(stand(base + 53, StandKind::LightInfantry, q));
        v.push(stand(base + 54, StandKind::Command, q));
        v
    }

    pub fn mirror() -> Scenario {
        scenario(army(1, Quality::Trained, 8), army(101, Quality::Trained, 8))
    }

    pub fn mismatch() -> Scenario {
        scenario(army(1, Quality::Elite, 12), army(101, Quality::Raw, 4))
    }

    pub fn twenty() -> Scenario {
        scenario(army(1, Quality::Trained, 15), army(101, Quality::Trained, 15))
    }
}

pub mod scruby1961 {
    use super::super::table::{area, inch_battle, stand, the_side};
    use umpire::model::{ArmyKind, RuleSetId, StandKind};
    use umpire::scenario::{Area, Role, Scenario, ScenarioSide, TableStand};

    /// A regular side named "the `id`".
    pub fn side(id: &str, role: Role, deployment: Area, stands: Vec<TableStand>) -> ScenarioSide {
        the_side(id, ArmyKind::Regular, role, deployment, stands)
    }

    /// An open table of `width` x `depth` cells of 6 inches.
    pub fn battle(width: u32, depth: u32, turn_limit: u32, sides: Vec<ScenarioSide>) -> Scenario {
        inch_battle(RuleSetId::Scruby1961, width, depth, turn_limit, sides)
    }

    /// Two lines of Line infantry (and what `extra` adds), `gap` cells apart,
    /// north defending.
    pub fn lines(north: u32, south: u32, gap: f64, kind: StandKind) -> Scenario {
        let row = |base: u32, n: u32, y: f64| -> Vec<TableStand> {
            (0..n)
                .map(|k| stand(base + k, kind, Some((1.0 + 0.5 * f64::from(k), y))))
                .collect()
        };
        let ny = 6.0 - gap / 2.0;
        let sy = 6.0 + gap / 2.0;
        battle(
            10,
            12,
            20,
            vec![
                side("north", Role::Defender, area(0, 0, 10, 5), row(0, north, ny)),
                side("south", Role::Attacker, area(0, 7, 10, 5), row(100, south, sy)),
            ],
        )
    }

    /// Mirror-image armies of all arms on open ground, `gap` cells apart.
    pub fn mirror() -> Scenario {
        let army = |base: u32, front: f64, back: f64| {
            let at = |x: f64, y: f64, k: StandKind, n: u32| stand(base + n, k, Some((x, y)));
            vec![
                at(2.5, front, StandKind::LineInfantry, 1),
                at(3.0, front, StandKind::LineInfantry, 2),
                at(6.0, front, StandKind::LineInfantry, 3),
                at(6.5, front, StandKind::LineInfantry, 4),
                at(4.5, front, StandKind::FootArtillery, 5),
                at(1.5, front, StandKind::LightInfantry, 6),
                at(7.5, front, StandKind::GrenadierInfantry, 7),
                at(4.0, back, StandKind::HeavyCavalry, 8),
                at(5.0, back, StandKind::LightCavalry, 9),
            ]
        };
        let (north, south) = (4.5, 7.5);
        battle(
            9,
            12,
            20,
            vec![
                side(
                    "north",
                    Role::Defender,
                    area(0, 0, 9, 5),
                    army(0, north, north - 0.5),
                ),
                side(
                    "south",
                    Role::Attacker,
                    area(0, 7, 9, 5),
                    army(100, south, south + 0.5),
                ),
            ],
        )
    }

    /// The north's light cavalry scout 8.2 inches from the south's light
    /// cavalry, which screens a concealed heavy cavalry column 1 1/2 inches
    /// behind it; a north gun 12 1/2 inches from the column. The north
    /// attacks, the south holds.
    pub fn scouted() -> Scenario {
        battle(
            10,
            12,
            1,
            vec![
                side(
                    "north",
                    Role::Attacker,
                    area(0, 0, 10, 5),
                    vec![
                        stand(1, StandKind::LightCavalry, Some((5.3, 4.5))),
                        stand(4, StandKind::FootArtillery, Some((5.0, 4.0))),
                    ],
                ),
                side(
                    "south",
                    Role::Defender,
                    area(0, 7, 10, 5),
                    vec![
                        stand(2, StandKind::LightCavalry, Some((5.0, 35.0 / 6.0))),
                        stand(3, StandKind::HeavyCavalry, Some((5.0, 36.5 / 6.0))),
                    ],
                ),
            ],
        )
    }
}

pub mod scruby1965 {
    use super::super::table::{area, example, inch_battle, stand, the_side as side};
    use umpire::model::{ArmyKind, RuleSetId, StandKind};
    use umpire::scenario::{Role, Scenario, ScenarioSide};

    /// An open table of `width` x `depth` cells of 6 inches.
    pub fn battle(width: u32, depth: u32, turn_limit: u32, sides: Vec<ScenarioSide>) -> Scenario {
        inch_battle(RuleSetId::Scruby1965, width, depth, turn_limit, sides)
    }

    /// The wells at Abu Tleih with the rebels cut to two stands of spearmen and
    /// a stand of riflemen: a much stronger British side.
    pub fn lopsided() -> Scenario {
        let mut scenario = example("abu_tleih_1895.json");
        scenario.sides[1]
            .stands
            .retain(|s| [101, 102, 109].contains(&s.id.0));
        scenario
    }

    /// Two companies of British infantry against the whole rebel army at the
    /// wells of Abu Tleih: a much stronger native host.
    pub fn native_host() -> Scenario {
        let mut scenario = example("abu_tleih_1895.json");
        scenario.sides[0].stands.retain(|s| s.id.0 <= 2);
        scenario.sides[0].reserves.clear();
        scenario
    }

    /// Mirror-image armies on open ground, their front lines `gap` cells
    /// apart: the same troops placed as in a mirror across the table's middle.
    /// With `all_arms`, spearmen and cavalry stand behind a line of infantry in
    /// closed order with a gun, a Maxim and riflemen on the flanks; without,
    /// the line alone. The deployment zones' centres are cell centres, so each
    /// side's goal is the mirror of the other's.
    pub fn mirror_of(gap: f64, all_arms: bool) -> Scenario {
        let army = |base: u32, front: f64, back: f64| {
            let at = |x: f64, y: f64, k: StandKind, n: u32| stand(base + n, k, Some((x, y)));
            let mut stands = vec![
                at(2.75, front, StandKind::LineInfantry, 1),
                at(3.25, front, StandKind::LineInfantry, 2),
                at(5.75, front, StandKind::LineInfantry, 3),
                at(6.25, front, StandKind::LineInfantry, 4),
                at(4.5, front, StandKind::FootArtillery, 5),
                at(1.0, front, StandKind::NativeRiflemen, 6),
                at(8.0, front, StandKind::NativeRiflemen, 7),
                at(7.0, front, StandKind::MachineGun, 12),
            ];
            if all_arms {
                stands.extend([
                    at(4.0, back, StandKind::NativeSpearmen, 8),
                    at(5.0, back, StandKind::NativeSpearmen, 9),
                    at(1.5, back, StandKind::LightCavalry, 10),
                    at(7.5, back, StandKind::LightCavalry, 11),
                ]);
            }
            stands
        };
        let north = 6.0 - gap / 2.0;
        let south = 6.0 + gap / 2.0;
        battle(
            9,
            12,
            12,
            vec![
                side(
                    "north",
                    ArmyKind::Regular,
                    Role::Defender,
                    area(0, 0, 9, 5),
                    army(0, north, north - 0.5),
                ),
                side(
                    "south",
                    ArmyKind::Regular,
                    Role::Attacker,
                    area(0, 7, 9, 5),
                    army(100, south, south + 0.5),
                ),
            ],
        )
    }

    pub fn mirror_at(gap: f64) -> Scenario {
        mirror_of(gap, true)
    }

    pub fn mirror() -> Scenario {
        mirror_at(3.0)
    }
}

pub mod scrubybasic {
    use super::super::table::{area, inch_battle, stand, the_side};
    use umpire::model::{ArmyKind, RuleSetId, StandKind};
    use umpire::scenario::{Area, Role, Scenario, ScenarioSide, TableStand};

    /// A regular side named "the `id`".
    pub fn side(id: &str, role: Role, deployment: Area, stands: Vec<TableStand>) -> ScenarioSide {
        the_side(id, ArmyKind::Regular, role, deployment, stands)
    }

    /// An open table of `width` x 12 cells of 6 inches: six feet deep.
    pub fn battle(width: u32, turn_limit: u32, sides: Vec<ScenarioSide>) -> Scenario {
        inch_battle(RuleSetId::ScrubyBasic, width, 12, turn_limit, sides)
    }

    /// Mirror-image armies on open ground: a battalion (four fusilier, a light
    /// and a grenadier company) in two ranks, a gun and a stand of light and of
    /// heavy cavalry, across the table's middle.
    pub fn mirror() -> Scenario {
        let army = |base: u32, front: f64, back: f64| {
            let at = |x: f64, y: f64, k: StandKind, n: u32| stand(base + n, k, Some((x, y)));
            vec![
                at(3.0, front, StandKind::LineInfantry, 1),
                at(3.4, front, StandKind::LineInfantry, 2),
                at(3.8, front, StandKind::GrenadierInfantry, 3),
                at(3.0, back, StandKind::LineInfantry, 4),
                at(3.4, back, StandKind::LineInfantry, 5),
                at(3.8, back, StandKind::LightInfantry, 6),
                at(5.5, front, StandKind::FootArtillery, 7),
                at(7.0, front, StandKind::LineInfantry, 8),
                at(7.4, front, StandKind::LineInfantry, 9),
                at(7.8, front, StandKind::LineInfantry, 10),
                at(7.0, back, StandKind::LineInfantry, 11),
                at(7.4, back, StandKind::LineInfantry, 12),
                at(7.8, back, StandKind::LightInfantry, 13),
                at(1.0, back, StandKind::LightCavalry, 14),
                at(10.0, back, StandKind::HeavyCavalry, 15),
            ]
        };
        battle(
            11,
            15,
            vec![
                side("north", Role::Defender, area(0, 0, 11, 5), army(0, 4.5, 4.2)),
                side("south", Role::Attacker, area(0, 7, 11, 5), army(100, 7.5, 7.8)),
            ],
        )
    }

    /// [`mirror`] with the defender keeping one battalion's front rank and
    /// nothing else.
    pub fn weak_defender() -> Scenario {
        let mut s = mirror();
        s.sides[0].stands.retain(|t| [1, 2, 3].contains(&t.id.0));
        s
    }

    /// [`mirror`] with the attacker keeping one battalion's front rank and
    /// nothing else.
    pub fn weak_attacker() -> Scenario {
        let mut s = mirror();
        s.sides[1].stands.retain(|t| [101, 102, 103].contains(&t.id.0));
        s
    }

    /// [`mirror`] with the roles swapped: the north attacks.
    pub fn swapped() -> Scenario {
        let mut m = mirror();
        m.sides[0].role = Role::Attacker;
        m.sides[1].role = Role::Defender;
        m
    }
}
