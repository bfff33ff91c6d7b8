//! scruby-1961 routes: the way round ground a stand may not cross (rivers
//! but at their bridges and fords; forests for horse and guns, SPECIAL
//! MOVEMENT RULES), by the inch-table rule sets' shared routes
//! ([`crate::rules::route`]), walked in this rule set's quarter-inch steps.

use super::*;

/// The ground a kind of troop may cross (SPECIAL MOVEMENT RULES): foot go
/// everywhere but water; light cavalry not into a forest's interior ("Light
/// cavalry may 'hide' in the outer area"); heavy cavalry and guns into no
/// forest at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Going {
    Foot,
    LightHorse,
    Wheels,
}

/// The kinds of [`Going`], in their [`Going::index`] order.
const GOINGS: [Going; 3] = [Going::Foot, Going::LightHorse, Going::Wheels];

impl Going {
    pub(super) fn of(troop: Troop) -> Going {
        match troop {
            Troop::Line | Troop::LightInfantry | Troop::Grenadiers => Going::Foot,
            Troop::LightCavalry => Going::LightHorse,
            Troop::HeavyCavalry | Troop::Artillery | Troop::HorseArtillery => Going::Wheels,
        }
    }

    /// A troop that goes as this kind does (`may_enter` asks no more).
    fn troop(self) -> Troop {
        match self {
            Going::Foot => Troop::Line,
            Going::LightHorse => Troop::LightCavalry,
            Going::Wheels => Troop::HeavyCavalry,
        }
    }

    fn index(self) -> usize {
        match self {
            Going::Foot => 0,
            Going::LightHorse => 1,
            Going::Wheels => 2,
        }
    }
}

/// This rule set's routes on `board`, one kind of going for each [`Going`].
pub(super) fn routes(board: &Board) -> crate::rules::route::Routes {
    crate::rules::route::Routes::new(board, GOINGS.len(), |kind, ground| {
        GOINGS.get(kind).is_none_or(|g| may_enter(g.troop(), ground))
    })
}

impl Battle<'_> {
    /// Where stand `i` steers this move on its way to `to` (inches): `to`
    /// itself while the way is straight, else the furthest cell of its route
    /// it can walk to straight.
    pub(super) fn steer(&mut self, i: usize, to: Point) -> Point {
        let Some(u) = self.stands.get(i) else { return to };
        let Some(troop) = u.troop else { return to };
        let going = Going::of(troop);
        let from = u.at;
        let open = |ground| may_enter(going.troop(), ground);
        let board = &self.board;
        let clear = |a, b| crate::rules::route::clear_way(board, open, STEP_INCHES, a, b);
        self.routes.steer(board, going.index(), open, clear, from, to)
    }
}
