//! Journeys by train and by steamer.
//!
//! A force that starts its game move at a station (a landing place) may go
//! by train along railways (by steamer along a river) as far as the rate of a
//! game move takes it, stopping at a station (a landing place). A region the
//! enemy holds on the way cuts the line: the journey stops before it. Each
//! line's trains (each river's steamers) carry only so many stands for one
//! side in a game move. The seeds are silent on all of it; the figures are
//! the campaign's (`model::Transport`), with this program's defaults for 1895.

use super::index::MapIndex;
use super::orders::{is_stop, leg_share, transport_words};
use crate::model::{Campaign, Conveyance};

/// Where a journey by train or steamer ends in one game move.
#[derive(Debug, Clone, PartialEq)]
pub struct Journey {
    /// The regions passed and reached, in order, ending where it stops.
    pub reached: Vec<usize>,
    /// The regions of the path still ahead, for the next game move.
    pub ahead: Vec<usize>,
    /// Miles travelled.
    pub miles: f64,
    /// Why it stopped short of the path's end, if it did.
    pub halted: Option<String>,
}

/// The journey from `start` along `path` (the regions after `start`) by
/// `by` in one game move. `blocked(from, to)` says why the enemy bars the
/// stretch from one region to the next (on it, or holding `to`), if it does. The journey never ends between stops: when it must stop short, it
/// ends at the last station (landing place) it passed, or does not leave.
pub fn journey(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    start: usize,
    path: &[usize],
    by: Conveyance,
    blocked: impl Fn(usize, usize) -> Option<String>,
) -> Journey {
    let (what, _, way) = transport_words(by);
    let mut share = 0.0;
    let mut here = start;
    // Each region reached, with the miles travelled to it.
    let mut reached: Vec<(usize, f64)> = Vec::new();
    let mut halted = None;
    for &next in path {
        let road = index
            .roads_between(here, next)
            .filter(|r| index.carries(*r, by))
            .min_by(|a, b| {
                leg_share(campaign, index, *a, here, by).total_cmp(&leg_share(campaign, index, *b, here, by))
            });
        let Some(road) = road else {
            halted = Some(format!(
                "no {way} goes on from {} to {}",
                index.name(here),
                index.name(next)
            ));
            break;
        };
        if let Some(why) = blocked(here, next) {
            halted = Some(why);
            break;
        }
        let leg = leg_share(campaign, index, road, here, by);
        if share + leg > 1.0 + 1e-9 {
            halted = Some(format!("a {what} goes no further in one game move"));
            break;
        }
        share += leg;
        let miles = reached.last().map_or(0.0, |(_, m)| *m) + index.road(road).map_or(0.0, |r| r.miles);
        reached.push((next, miles));
        here = next;
    }
    // Back to the last stop passed: a train sets no one down between stations.
    while reached.last().is_some_and(|(last, _)| !is_stop(index, *last, by)) {
        reached.pop();
    }
    let taken = reached.len();
    Journey {
        ahead: path.get(taken..).map(<[usize]>::to_vec).unwrap_or_default(),
        miles: reached.last().map_or(0.0, |(_, m)| *m),
        reached: reached.into_iter().map(|(r, _)| r).collect(),
        halted,
    }
}

/// The whole journey along `path` from `start`, game move after game move,
/// with no enemy in the way: the game moves and the miles; `Err(at)` when
/// from station (landing) `at` it could go no further in one game move.
pub fn whole_journey(
    campaign: &Campaign,
    index: &MapIndex<'_>,
    start: usize,
    path: &[usize],
    by: Conveyance,
) -> Result<(u32, f64), usize> {
    let (mut at, mut rest) = (start, path.to_vec());
    let (mut moves, mut miles) = (0u32, 0.0);
    // Each game move reaches at least one more region, or stops: at most one move a region.
    while !rest.is_empty() {
        let journey = journey(campaign, index, at, &rest, by, |_, _| None);
        at = *journey.reached.last().ok_or(at)?;
        miles += journey.miles;
        rest = journey.ahead;
        moves = moves.saturating_add(1);
    }
    Ok((moves, miles))
}

/// For each region, the line it is on for `by`: regions joined by railways
/// (by a river) share a number; `None` where none reaches. A line's
/// capacity is counted for the whole of it.
pub fn lines(index: &MapIndex<'_>, by: Conveyance) -> Vec<Option<usize>> {
    let mut line: Vec<Option<usize>> = vec![None; index.len()];
    let mut next_line = 0;
    let mut stack = Vec::new();
    for start in 0..index.len() {
        let on_line = index
            .adjacent
            .get(start)
            .is_some_and(|roads| roads.iter().any(|(_, r)| index.carries(*r, by)));
        if !on_line || line.get(start).copied().flatten().is_some() {
            continue;
        }
        if let Some(slot) = line.get_mut(start) {
            *slot = Some(next_line);
        }
        stack.push(start);
        while let Some(here) = stack.pop() {
            for &(next, road) in index.adjacent.get(here).into_iter().flatten() {
                if index.carries(road, by)
                    && let Some(slot) = line.get_mut(next)
                    && slot.is_none()
                {
                    *slot = Some(next_line);
                    stack.push(next);
                }
            }
        }
        next_line += 1;
    }
    line
}
