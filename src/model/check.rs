//! Reading and checking the files a person writes: maps and campaigns.
//!
//! Every problem is reported, not just the first, each with its file, line and
//! column. A syntax error stops the reading of that file (nothing after it can
//! be trusted), but every other check runs to the end. Nothing here panics,
//! whatever the text.

use super::arrival::{Arrival, NewStands, Reinforcement, Replacements};
use super::campaign::{
    ArmyKind, Campaign, Colour, DEFAULT_MILES_PER_INCH, Fatigue, Force, Hq, RuleSetId, Side, StandingOrder,
    Supply, Wing,
};
use super::date::Date;
use super::diag::{Diagnostic, Lines, Location, Severity};
use super::house_rules::read::{self as house_rules, RawHouseRules};
use super::ids::{ForceId, RegionId, SideId, StandId, is_valid_key};
use super::map::{
    Background, Feature, Map, MapPoint, Region, RiverCrossing, Road, RoadKind, Terrain, Water, WaterKind,
};
use super::plain_toml;
use super::rng::RngState;
use super::stand::{Quality, Stand, StandKind};
use super::text;
use super::transport::Transport;
use rustc_hash::{FxHashMap as FastMap, FxHashSet as FastSet};
use serde::Deserialize;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use toml::Spanned;

/// A text file to check, with the name to report it by.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// What a check produced: the value when there were no errors, and every
/// diagnostic (warnings come with a value too).
#[derive(Debug, Clone)]
pub struct Checked<T> {
    pub value: Option<T>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Checked<T> {
    /// A check that stopped at one problem, such as a file that cannot be read.
    pub fn failed(problem: Diagnostic) -> Checked<T> {
        Checked {
            value: None,
            diagnostics: vec![problem],
        }
    }
}

/// Which kind of file a text is, judged by its top-level keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Map,
    Campaign,
}

/// Largest full strength of one stand; no seed has a stand near it.
const MAX_STAND_POINTS: i64 = 100_000;
/// Largest movement scale: a game move of an inch of table per 1000 miles is no campaign.
const MAX_MILES_PER_INCH: f64 = 1000.0;
/// Most sides a campaign may have (the game move keeps sides as bits of a u64).
const MAX_SIDES: usize = 64;
/// Longest game move, in days.
const MAX_DAYS_PER_TURN: i64 = 366;
/// Most game moves between replacements: this program's bound, a campaign's
/// length in daily moves for a few years; the seeds have no replacements.
const MAX_REPLACEMENT_EVERY: u32 = 1000;
/// Most stands of one line of replacements at a time: this program's bound,
/// a whole army's worth; the seeds have no replacements.
const MAX_REPLACEMENT_STANDS: u32 = 100;

/// Tells maps from campaigns: a campaign names its `map`, a map has `regions`.
/// `None` when the text is not TOML or is neither.
pub fn file_kind(text: &str) -> Option<FileKind> {
    let keys: Vec<String> = match plain_toml::top_level_keys(text) {
        Some(keys) => keys.into_iter().map(str::to_owned).collect(),
        None => toml::from_str::<toml::Table>(text)
            .ok()?
            .into_iter()
            .map(|(k, _)| k)
            .collect(),
    };
    let has = |key: &str| keys.iter().any(|k| k == key);
    if has("map") || has("sides") || has("forces") {
        Some(FileKind::Campaign)
    } else if has("regions") || has("roads") {
        Some(FileKind::Map)
    } else {
        None
    }
}

/// A file's text read into its raw structs: by the plain reader when the text
/// is plain TOML of the right shape, else by the `toml` crate, whose error
/// then says what is wrong and where (`plain_toml`).
fn deserialize<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, toml::de::Error> {
    match plain_toml::from_str(text) {
        Some(value) => Ok(value),
        None => toml::from_str(text),
    }
}

// ---------------------------------------------------------------------------
// The files as written: every value keeps its place in the text.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    name: Spanned<String>,
    description: Option<Spanned<String>>,
    #[serde(default)]
    regions: Vec<RawRegion>,
    #[serde(default)]
    roads: Vec<RawRoad>,
    background: Option<Spanned<RawBackground>>,
    #[serde(default)]
    waters: Vec<RawWater>,
}

/// `[[waters]]`: a river or canal as a line, a lake or the sea as an area.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWater {
    kind: Spanned<String>,
    name: Option<Spanned<String>>,
    points: Spanned<Vec<Vec<f64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBackground {
    file: Spanned<String>,
    left: Spanned<f64>,
    top: Spanned<f64>,
    right: Spanned<f64>,
    bottom: Spanned<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegion {
    id: Spanned<String>,
    name: Spanned<String>,
    terrain: Spanned<String>,
    x: Spanned<f64>,
    y: Spanned<f64>,
    #[serde(default)]
    features: Vec<Spanned<String>>,
    shape: Option<Spanned<Vec<Vec<f64>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoad {
    from: Spanned<String>,
    to: Spanned<String>,
    kind: Spanned<String>,
    miles: Spanned<f64>,
    river: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampaign {
    title: Spanned<String>,
    description: Option<Spanned<String>>,
    map: Spanned<String>,
    start_turn: Option<Spanned<i64>>,
    start_date: Spanned<toml::value::Datetime>,
    days_per_turn: Option<Spanned<i64>>,
    seed: Spanned<i64>,
    rules: Spanned<String>,
    miles_per_inch: Option<Spanned<f64>>,
    railways: Option<RawRailways>,
    rivers: Option<RawRivers>,
    house_rules: Option<RawHouseRules>,
    #[serde(default)]
    sides: Vec<RawSide>,
    #[serde(default)]
    hqs: Vec<RawHq>,
    #[serde(default)]
    forces: Vec<RawForce>,
    #[serde(default)]
    reinforcements: Vec<RawReinforcement>,
    #[serde(default)]
    replacements: Vec<RawReplacements>,
    end: Option<Spanned<super::end::RawEnd>>,
}

/// `[railways]`: a train's miles and a line's stands per game move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRailways {
    miles_per_move: Option<Spanned<f64>>,
    stands_per_move: Option<Spanned<i64>>,
}

/// `[rivers]`: a steamer's miles up and down stream and a river's stands per game move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRivers {
    upstream_miles_per_move: Option<Spanned<f64>>,
    downstream_miles_per_move: Option<Spanned<f64>>,
    stands_per_move: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    id: Spanned<String>,
    name: Spanned<String>,
    colour: Spanned<String>,
    army: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHq {
    side: Spanned<String>,
    wing: Spanned<String>,
    region: Spanned<String>,
    name: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForce {
    id: Spanned<String>,
    name: Spanned<String>,
    side: Spanned<String>,
    region: Spanned<String>,
    #[serde(default)]
    stands: Vec<RawStand>,
}

/// `[[reinforcements]]`: a force that arrives later, on `turn`, on `date`,
/// or `when = "hq_lost"` (the HQ of `hq_side`, its own side by default, on `hq_wing`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReinforcement {
    id: Spanned<String>,
    name: Spanned<String>,
    side: Spanned<String>,
    region: Spanned<String>,
    turn: Option<Spanned<i64>>,
    date: Option<Spanned<toml::value::Datetime>>,
    when: Option<Spanned<String>>,
    hq_side: Option<Spanned<String>>,
    hq_wing: Option<Spanned<String>>,
    #[serde(default)]
    stands: Vec<RawStand>,
}

/// `[[replacements]]`: stands a side receives `every` game moves at its `at` HQ.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReplacements {
    side: Spanned<String>,
    every: Spanned<i64>,
    at: Spanned<String>,
    name: Option<Spanned<String>>,
    #[serde(default)]
    stands: Vec<RawNewStands>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewStands {
    kind: Spanned<String>,
    quality: Option<Spanned<String>>,
    count: Option<Spanned<i64>>,
    name: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStand {
    id: Spanned<i64>,
    name: Spanned<String>,
    kind: Spanned<String>,
    quality: Option<Spanned<String>>,
    strength: Option<Spanned<i64>>,
    full: Option<Spanned<i64>>,
}

// ---------------------------------------------------------------------------
// Collecting diagnostics.

pub(crate) struct Sink<'a> {
    source: Source<'a>,
    /// The source's line starts, found once: every diagnostic is placed by them.
    lines: Lines,
    out: Vec<Diagnostic>,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(source: Source<'a>) -> Self {
        Sink {
            source,
            lines: Lines::new(source.text),
            out: Vec::new(),
        }
    }

    pub(crate) fn at(&self, span: &Range<usize>) -> Location {
        self.lines.location(self.source.text, span.start)
    }

    pub(crate) fn push(&mut self, severity: Severity, span: &Range<usize>, message: String) {
        let location = self.at(span);
        self.out.push(Diagnostic {
            file: self.source.name.to_owned(),
            location,
            severity,
            message,
        });
    }

    pub(crate) fn error(&mut self, span: &Range<usize>, message: impl Into<String>) {
        self.push(Severity::Error, span, message.into());
    }

    pub(crate) fn warning(&mut self, span: &Range<usize>, message: impl Into<String>) {
        self.push(Severity::Warning, span, message.into());
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.out.iter().any(Diagnostic::is_error)
    }

    /// Ends the check: the value is built only when no error was found.
    pub(crate) fn finish<T>(mut self, value: impl FnOnce() -> Option<T>) -> Checked<T> {
        self.out.sort_by_key(|d| d.location);
        let value = if self.has_errors() { None } else { value() };
        Checked {
            value,
            diagnostics: self.out,
        }
    }

    /// Reads a closed vocabulary word, reporting anything else with the choices.
    pub(crate) fn word<T>(
        &mut self,
        value: &Spanned<String>,
        what: &str,
        parse: fn(&str) -> Option<T>,
        choices: fn() -> String,
    ) -> Option<T> {
        let parsed = parse(value.get_ref());
        if parsed.is_none() {
            self.error(
                &value.span(),
                format!("unknown {what} `{}`: use one of {}", value.get_ref(), choices()),
            );
        }
        parsed
    }

    /// Checks a key (region, side or force id) is well formed.
    pub(crate) fn key(&mut self, value: &Spanned<String>, what: &str) {
        if !is_valid_key(value.get_ref()) {
            self.error(
                &value.span(),
                format!(
                    "{what} id `{}` must start with a lowercase letter and hold only lowercase letters, digits, `-` and `_` (at most 64)",
                    value.get_ref()
                ),
            );
        }
    }

    /// Checks a display name: not blank, not too long, no control characters.
    pub(crate) fn name(&mut self, value: &Spanned<String>, what: &str) {
        if let Some(problem) = text::name_problem(value.get_ref(), what) {
            self.error(&value.span(), problem);
        }
    }

    /// Checks a name that may be left out.
    pub(crate) fn optional_name(&mut self, value: Option<&Spanned<String>>, what: &str) {
        if let Some(value) = value {
            self.name(value, what);
        }
    }

    /// Checks a description: not too long, no control characters but line breaks and tabs.
    pub(crate) fn description(&mut self, value: Option<&Spanned<String>>, what: &str) {
        if let Some(problem) = value.and_then(|v| text::description_problem(v.get_ref(), what)) {
            self.error(&value.map_or(0..0, Spanned::span), problem);
        }
    }

    /// Reports a syntax or shape error from the TOML reader.
    pub(crate) fn toml_error(&mut self, error: &toml::de::Error) {
        let span = error.span().unwrap_or(0..0);
        let message = error.message().trim().replace('\n', " ");
        self.error(
            &span,
            format!("{message} (the file could not be read past this point)"),
        );
    }
}

/// Remembers where each name was first used, to report duplicates. A place is
/// found (a binary search) only for a duplicate's message.
pub(crate) struct Seen<K> {
    what: &'static str,
    first: FastMap<K, usize>,
}

impl<K: std::hash::Hash + Eq + std::fmt::Display> Seen<K> {
    pub(crate) fn new(what: &'static str) -> Self {
        Seen {
            what,
            first: FastMap::default(),
        }
    }

    /// Records `key`; reports it when it was seen before. True when new.
    pub(crate) fn add(&mut self, sink: &mut Sink<'_>, key: K, span: &Range<usize>) -> bool {
        match self.first.entry(key) {
            Entry::Occupied(first) => {
                let line = sink.at(&(*first.get()..*first.get())).line;
                let message = format!(
                    "duplicate {} `{}`: it is already used at line {line}",
                    self.what,
                    first.key()
                );
                sink.error(span, message);
                false
            }
            Entry::Vacant(place) => {
                place.insert(span.start);
                true
            }
        }
    }
}

/// "did you mean `cairo`?" for a misspelt id, when one is close.
pub(crate) fn suggestion<'k>(wrong: &str, known: impl Iterator<Item = &'k str>) -> String {
    known
        .map(|k| (strsim::levenshtein(wrong, k), k))
        .filter(|(distance, k)| *distance <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// "did you mean `beni-suef` (Beni Suef)?" for a region a person named
/// wrongly: by a misspelt id, or by its display name, exact or misspelt, in
/// any case. `regions` are the map's (id, name) pairs.
pub fn region_suggestion<'r>(wrong: &str, regions: impl Iterator<Item = (&'r str, &'r str)>) -> String {
    let wrong = wrong.trim().to_lowercase();
    regions
        .filter_map(|(id, name)| {
            [id, name]
                .into_iter()
                .map(|k| (strsim::levenshtein(&wrong, &k.to_lowercase()), k))
                .filter(|(distance, k)| *distance <= 2.max(k.chars().count() / 4))
                .map(|(distance, _)| distance)
                .min()
                .map(|distance| (distance, id, name))
        })
        .min()
        .map(|(_, id, name)| {
            if id == name {
                format!(" (did you mean `{id}`?)")
            } else {
                format!(" (did you mean `{id}`, {name}?)")
            }
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Maps.

/// The `[background]` table: a PNG beside the map file and its edges in miles.
fn check_background(sink: &mut Sink<'_>, raw: &RawBackground) -> Option<Background> {
    let file = raw.file.get_ref();
    let mut ok = true;
    if file.trim().is_empty()
        || file.contains(['/', '\\'])
        || file.starts_with('.')
        || file.chars().any(char::is_control)
        || file.chars().count() > text::MAX_NAME_CHARS
    {
        sink.error(
            &raw.file.span(),
            format!("background file `{file}` must be the name of a file in the map's own folder, such as \"egypt_1895.png\""),
        );
        ok = false;
    } else if !file.to_ascii_lowercase().ends_with(".png") {
        sink.error(
            &raw.file.span(),
            format!("background file `{file}` must be a PNG picture (`.png`)"),
        );
        ok = false;
    }
    for (edge, value) in [
        ("left", &raw.left),
        ("top", &raw.top),
        ("right", &raw.right),
        ("bottom", &raw.bottom),
    ] {
        if !value.get_ref().is_finite() {
            sink.error(
                &value.span(),
                format!("background {edge} must be a number of miles"),
            );
            ok = false;
        }
    }
    if *raw.right.get_ref() <= *raw.left.get_ref() {
        sink.error(
            &raw.right.span(),
            "background right must be east of (greater than) left",
        );
        ok = false;
    }
    if *raw.bottom.get_ref() <= *raw.top.get_ref() {
        sink.error(
            &raw.bottom.span(),
            "background bottom must be south of (greater than) top",
        );
        ok = false;
    }
    ok.then(|| Background {
        file: file.clone(),
        left: *raw.left.get_ref(),
        top: *raw.top.get_ref(),
        right: *raw.right.get_ref(),
        bottom: *raw.bottom.get_ref(),
    })
}

/// The most points one outline or line may have: a map file is written by a
/// person or an import, and the window draws every point at every frame.
const MAX_POINTS: usize = 10_000;

/// A `points` or `shape` list checked: each point two finite numbers of miles,
/// at least `least` points (2 for a line, 3 for an area), at most [`MAX_POINTS`].
fn check_points(
    sink: &mut Sink<'_>,
    raw: &Spanned<Vec<Vec<f64>>>,
    least: usize,
    what: &str,
) -> Option<Vec<MapPoint>> {
    let span = raw.span();
    let mut points = Vec::with_capacity(raw.get_ref().len());
    for (i, point) in raw.get_ref().iter().enumerate() {
        match point.as_slice() {
            [x, y] if x.is_finite() && y.is_finite() => points.push([*x, *y]),
            _ => {
                sink.error(
                    &span,
                    format!(
                        "{what}: point {} must be two numbers of miles, [x, y] (east, south), such as [12.5, 40.0]",
                        i + 1
                    ),
                );
                return None;
            }
        }
    }
    if points.len() < least {
        sink.error(
            &span,
            format!(
                "{what} has {} point{} but needs at least {least}",
                points.len(),
                if points.len() == 1 { "" } else { "s" }
            ),
        );
        return None;
    }
    if points.len() > MAX_POINTS {
        sink.error(
            &span,
            format!(
                "{what} has {} points, more than the {MAX_POINTS} one line or outline may have: simplify it",
                points.len()
            ),
        );
        return None;
    }
    Some(points)
}

/// The map file's `[[waters]]` checked, in file order; a wrong one left out.
fn check_waters(sink: &mut Sink<'_>, raw: &[RawWater]) -> Vec<Water> {
    let mut waters = Vec::with_capacity(raw.len());
    for water in raw {
        let kind = sink.word(&water.kind, "water kind", WaterKind::parse, WaterKind::choices);
        sink.optional_name(water.name.as_ref(), "water");
        let Some(kind) = kind else { continue };
        let least = if kind.is_area() { 3 } else { 2 };
        let what = match &water.name {
            Some(name) => format!("{kind} `{}`", name.get_ref()),
            None => format!("the {kind}"),
        };
        if let Some(points) = check_points(sink, &water.points, least, &what) {
            waters.push(Water {
                kind,
                name: water.name.as_ref().map(|n| n.get_ref().clone()),
                points,
            });
        }
    }
    waters
}

/// Reads and checks a map file.
pub fn check_map(source: Source<'_>) -> Checked<Map> {
    let mut sink = Sink::new(source);
    let raw: RawMap = match deserialize(source.text) {
        Ok(raw) => raw,
        Err(error) => {
            sink.toml_error(&error);
            return sink.finish(|| None);
        }
    };

    sink.name(&raw.name, "map");
    sink.description(raw.description.as_ref(), "map");
    if raw.regions.is_empty() {
        sink.error(&raw.name.span(), "the map has no regions: add [[regions]] tables");
    }

    // The checks read the raw file; the map is built from it after, its
    // strings moved, not copied.
    let (terrains, features, shapes, roads, parts) = {
        let mut ids = Seen::new("region id");
        let mut names = Seen::new("region name");
        let mut terrains = Vec::with_capacity(raw.regions.len());
        let mut all_features = Vec::with_capacity(raw.regions.len());
        let mut shapes = Vec::with_capacity(raw.regions.len());
        for region in &raw.regions {
            sink.key(&region.id, "region");
            ids.add(&mut sink, region.id.get_ref().as_str(), &region.id.span());
            sink.name(&region.name, "region");
            names.add(&mut sink, region.name.get_ref().as_str(), &region.name.span());
            terrains.push(sink.word(&region.terrain, "terrain", Terrain::parse, Terrain::choices));
            for (axis, value) in [("x", &region.x), ("y", &region.y)] {
                if !value.get_ref().is_finite() {
                    sink.error(
                        &value.span(),
                        format!("position {axis} must be a number of miles"),
                    );
                }
            }
            let shape = region.shape.as_ref().and_then(|shape| {
                check_points(
                    &mut sink,
                    shape,
                    3,
                    &format!("the shape of region `{}`", region.id.get_ref()),
                )
            });
            if let Some(points) = &shape {
                let at = [*region.x.get_ref(), *region.y.get_ref()];
                if let Some(span) = region.shape.as_ref().map(|s| s.span())
                    && !super::shapes::shape_contains(points, at)
                {
                    sink.warning(
                        &span,
                        format!(
                            "the shape of region `{}` does not hold its point ({}, {}): move the point inside the outline, or the outline round the point",
                            region.id.get_ref(),
                            at[0],
                            at[1]
                        ),
                    );
                }
            }
            shapes.push(shape.unwrap_or_default());
            let mut features = Vec::new();
            for feature in &region.features {
                if let Some(f) = sink.word(feature, "feature", Feature::parse, Feature::choices) {
                    if features.contains(&f) {
                        sink.warning(&feature.span(), format!("feature `{f}` is listed twice"));
                    } else {
                        features.push(f);
                    }
                }
            }
            all_features.push(features);
        }

        // Each id's region (the last of a duplicated id).
        let mut by_id: FastMap<&str, usize> = FastMap::default();
        for (i, region) in raw.regions.iter().enumerate() {
            by_id.insert(region.id.get_ref().as_str(), i);
        }
        let has = |region: &str, feature: Feature| {
            by_id
                .get(region)
                .and_then(|&i| all_features.get(i))
                .is_some_and(|f: &Vec<Feature>| f.contains(&feature))
        };
        let mut pairs: FastMap<(&str, &str, RoadKind), usize> = FastMap::default();
        let mut roads = Vec::with_capacity(raw.roads.len());
        let mut joined = Vec::with_capacity(raw.roads.len());
        for road in &raw.roads {
            let mut ends_known = true;
            for end in [&road.from, &road.to] {
                if !by_id.contains_key(end.get_ref().as_str()) {
                    ends_known = false;
                    sink.error(
                        &end.span(),
                        format!(
                            "unknown region `{}`: no region has that id on this map{}",
                            end.get_ref(),
                            region_suggestion(
                                end.get_ref(),
                                raw.regions
                                    .iter()
                                    .map(|r| (r.id.get_ref().as_str(), r.name.get_ref().as_str()))
                            )
                        ),
                    );
                }
            }
            if let (Some(&a), Some(&b)) = (
                by_id.get(road.from.get_ref().as_str()),
                by_id.get(road.to.get_ref().as_str()),
            ) {
                joined.push((a, b));
            }
            if road.from.get_ref() == road.to.get_ref() {
                sink.error(
                    &road.to.span(),
                    format!(
                        "road from `{}` to itself: a road joins two different regions",
                        road.from.get_ref()
                    ),
                );
            }
            let kind = sink.word(&road.kind, "road kind", RoadKind::parse, RoadKind::choices);
            let miles = *road.miles.get_ref();
            if !(miles.is_finite() && miles > 0.0) {
                sink.error(
                    &road.miles.span(),
                    format!("road length {miles} must be more than 0 miles"),
                );
            }
            let river = road.river.as_ref().and_then(|r| {
                sink.word(r, "river crossing", RiverCrossing::parse, RiverCrossing::choices)
                    .map(|c| (c, r.span()))
            });
            if let (Some((crossing, span)), true) = (&river, ends_known) {
                let needed = match crossing {
                    RiverCrossing::Bridge => Some(Feature::Bridge),
                    RiverCrossing::Ford => Some(Feature::Ford),
                    RiverCrossing::None => None,
                };
                let ends = [road.from.get_ref().as_str(), road.to.get_ref().as_str()];
                if let Some(feature) = needed
                    && !ends.iter().any(|e| has(e, feature))
                {
                    sink.error(
                            span,
                            format!(
                                "the road crosses by {crossing} but neither `{}` nor `{}` has the `{feature}` feature: add it to the region that holds the {crossing}",
                                ends[0], ends[1]
                            ),
                    );
                }
            }
            if let Some(kind) = kind {
                let (a, b) = (road.from.get_ref().as_str(), road.to.get_ref().as_str());
                let key = if a <= b { (a, b, kind) } else { (b, a, kind) };
                match pairs.entry(key) {
                    Entry::Occupied(first) => {
                        let line = sink.at(&(*first.get()..*first.get())).line;
                        sink.error(
                            &road.from.span(),
                            format!(
                                "duplicate {kind} between `{}` and `{}`: the first is at line {line}",
                                key.0, key.1
                            ),
                        );
                    }
                    Entry::Vacant(place) => {
                        place.insert(road.from.span().start);
                    }
                }
            }
            sink.optional_name(road.name.as_ref(), "road");
            roads.push((kind.unwrap_or(RoadKind::Track), miles, river.map(|(c, _)| c)));
        }
        // Connectivity means something only once regions and roads are right.
        let parts = if sink.has_errors() {
            Vec::new()
        } else {
            super::map::connected_parts(raw.regions.len(), joined.into_iter())
        };
        (terrains, all_features, shapes, roads, parts)
    };
    if parts.len() > 1 {
        // Name the regions cut off from the largest part, each at its own line.
        let largest = parts.iter().map(Vec::len).max().unwrap_or(0);
        let main = parts.iter().position(|p| p.len() == largest).unwrap_or(0);
        for (i, part) in parts.iter().enumerate().filter(|(i, _)| *i != main) {
            let names: Vec<&str> = part
                .iter()
                .filter_map(|r| raw.regions.get(*r).map(|r| r.id.get_ref().as_str()))
                .collect();
            if let Some(first) = part.first().and_then(|r| raw.regions.get(*r)) {
                sink.warning(
                    &first.id.span(),
                    format!(
                        "the map is not connected: {} cannot be reached by road from the other {} regions (part {} of {})",
                        names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                        largest,
                        i + 1,
                        parts.len()
                    ),
                );
            }
        }
    }

    let background = raw
        .background
        .as_ref()
        .and_then(|b| check_background(&mut sink, b.get_ref()));
    let waters = check_waters(&mut sink, &raw.waters);
    sink.finish(|| {
        let regions = raw
            .regions
            .into_iter()
            .zip(terrains)
            .zip(features)
            .zip(shapes)
            .map(|(((region, terrain), features), shape)| Region {
                id: RegionId::new(region.id.into_inner()),
                name: region.name.into_inner(),
                terrain: terrain.unwrap_or(Terrain::Open),
                x: region.x.into_inner(),
                y: region.y.into_inner(),
                features,
                shape,
            })
            .collect();
        let roads = raw
            .roads
            .into_iter()
            .zip(roads)
            .map(|(road, (kind, miles, river))| Road {
                from: RegionId::new(road.from.into_inner()),
                to: RegionId::new(road.to.into_inner()),
                kind,
                miles,
                river,
                name: road.name.map(Spanned::into_inner),
            })
            .collect();
        Some(Map {
            name: raw.name.into_inner(),
            description: raw.description.map(Spanned::into_inner),
            regions,
            roads,
            background,
            waters,
        })
    })
}

// ---------------------------------------------------------------------------
// Campaigns.

/// A campaign file read but not yet checked against its map.
pub struct CampaignDraft<'a> {
    source: Source<'a>,
    raw: RawCampaign,
}

impl std::fmt::Debug for CampaignDraft<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CampaignDraft")
            .field("source", &self.source.name)
            .finish_non_exhaustive()
    }
}

/// Reads a campaign file. The syntax error, if any, comes back as the one diagnostic.
pub fn read_campaign(source: Source<'_>) -> Result<CampaignDraft<'_>, Vec<Diagnostic>> {
    match deserialize::<RawCampaign>(source.text) {
        Ok(raw) => Ok(CampaignDraft { source, raw }),
        Err(error) => {
            let mut sink = Sink::new(source);
            sink.toml_error(&error);
            Err(sink.out)
        }
    }
}

impl<'a> CampaignDraft<'a> {
    /// The map file the campaign names, as written (relative to the campaign file).
    pub fn map_path(&self) -> &str {
        self.raw.map.get_ref()
    }

    /// Checks the campaign against its map. When the map cannot be used,
    /// `map` says why; that is reported at the campaign's `map = ...` line and
    /// every check that needs no map still runs.
    pub fn check(self, map: Result<Map, String>) -> Checked<Campaign> {
        let CampaignDraft { source, raw } = self;
        let mut sink = Sink::new(source);
        sink.name(&raw.title, "campaign");
        sink.description(raw.description.as_ref(), "campaign");
        let map = match map {
            Ok(map) => Some(map),
            Err(why) => {
                sink.error(&raw.map.span(), why);
                None
            }
        };
        let start_turn = match &raw.start_turn {
            None => 1,
            Some(t) => match u32::try_from(*t.get_ref()) {
                Ok(turn) if turn >= 1 => turn,
                _ => {
                    sink.error(&t.span(), format!("start_turn {} must be 1 or more", t.get_ref()));
                    1
                }
            },
        };
        let days_per_turn = match &raw.days_per_turn {
            None => 1,
            Some(d) => match u32::try_from(*d.get_ref()) {
                Ok(days) if (1..=MAX_DAYS_PER_TURN).contains(&i64::from(days)) => days,
                _ => {
                    sink.error(
                        &d.span(),
                        format!(
                            "days_per_turn {} must be between 1 and {MAX_DAYS_PER_TURN}",
                            d.get_ref()
                        ),
                    );
                    1
                }
            },
        };
        let start_date = date_of(&mut sink, &raw.start_date, "start_date");
        let seed = u64::try_from(*raw.seed.get_ref()).unwrap_or_else(|_| {
            sink.error(
                &raw.seed.span(),
                format!("seed {} must be 0 or more", raw.seed.get_ref()),
            );
            0
        });
        let rules = sink.word(&raw.rules, "rule set", RuleSetId::parse, RuleSetId::choices);
        // Miles per inch is a house rule, written in `[house_rules]` or, as
        // before there was one, at the top of the file: once.
        let in_table = raw.house_rules.as_ref().and_then(|h| h.miles_per_inch.as_ref());
        if let (Some(top), Some(again)) = (&raw.miles_per_inch, in_table) {
            sink.error(
                &again.span(),
                format!(
                    "miles_per_inch is given twice: at line {} and here in [house_rules]; keep one",
                    sink.at(&top.span()).line
                ),
            );
        }
        let house_rules = raw
            .house_rules
            .as_ref()
            .map(|h| house_rules::check(&mut sink, h))
            .unwrap_or_default();
        let miles_per_inch = match raw.miles_per_inch.as_ref().or(in_table) {
            None => DEFAULT_MILES_PER_INCH,
            Some(m)
                if m.get_ref().is_finite() && *m.get_ref() > 0.0 && *m.get_ref() <= MAX_MILES_PER_INCH =>
            {
                *m.get_ref()
            }
            Some(m) => {
                sink.error(
                    &m.span(),
                    format!(
                        "miles_per_inch {} must be more than 0 and at most {MAX_MILES_PER_INCH}",
                        m.get_ref()
                    ),
                );
                DEFAULT_MILES_PER_INCH
            }
        };

        let regions: FastSet<&str> = map
            .as_ref()
            .map(|m| m.regions.iter().map(|r| r.id.as_str()).collect())
            .unwrap_or_default();
        let names: Vec<(&str, &str)> = map
            .as_ref()
            .map(|m| {
                m.regions
                    .iter()
                    .map(|r| (r.id.as_str(), r.name.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let check_region = |sink: &mut Sink<'_>, region: &Spanned<String>| {
            if map.is_some() && !regions.contains(region.get_ref().as_str()) {
                sink.error(
                    &region.span(),
                    format!(
                        "unknown region `{}`: the map has no region with that id{}",
                        region.get_ref(),
                        region_suggestion(region.get_ref(), names.iter().copied())
                    ),
                );
            }
        };

        // Sides.
        if raw.sides.len() < 2 {
            sink.error(
                &raw.title.span(),
                format!(
                    "a campaign needs at least two sides; this one has {}",
                    raw.sides.len()
                ),
            );
        }
        if raw.sides.len() > MAX_SIDES {
            sink.error(
                &raw.title.span(),
                format!(
                    "a campaign has at most {MAX_SIDES} sides; this one has {}",
                    raw.sides.len()
                ),
            );
        }
        let mut side_ids = Seen::new("side id");
        let mut side_names = Seen::new("side name");
        let mut sides = Vec::new();
        for side in &raw.sides {
            sink.key(&side.id, "side");
            side_ids.add(&mut sink, side.id.get_ref().as_str(), &side.id.span());
            sink.name(&side.name, "side");
            side_names.add(&mut sink, side.name.get_ref().as_str(), &side.name.span());
            let colour = Colour::parse(side.colour.get_ref());
            if colour.is_none() {
                sink.error(
                    &side.colour.span(),
                    format!(
                        "colour `{}` must be written #rrggbb, e.g. \"#b22222\"",
                        side.colour.get_ref()
                    ),
                );
            }
            let army = sink.word(&side.army, "army kind", ArmyKind::parse, ArmyKind::choices);
            sides.push(Side {
                id: SideId::new(side.id.get_ref()),
                name: side.name.get_ref().clone(),
                colour: colour.unwrap_or(Colour([0, 0, 0])),
                army: army.unwrap_or(ArmyKind::Regular),
            });
        }
        let side_keys: HashSet<&str> = raw.sides.iter().map(|s| s.id.get_ref().as_str()).collect();
        let check_side = |sink: &mut Sink<'_>, side: &Spanned<String>| -> bool {
            let known = side_keys.contains(side.get_ref().as_str());
            if !known {
                sink.error(
                    &side.span(),
                    format!(
                        "unknown side `{}`: the campaign's sides are {}{}",
                        side.get_ref(),
                        side_keys
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        suggestion(side.get_ref(), side_keys.iter().copied())
                    ),
                );
            }
            known
        };

        // HQs: exactly one per side per wing.
        let mut wings: HashMap<(String, Wing), Location> = HashMap::new();
        let mut hqs = Vec::new();
        for hq in &raw.hqs {
            let side_known = check_side(&mut sink, &hq.side);
            let wing = sink.word(&hq.wing, "wing", Wing::parse, Wing::choices);
            check_region(&mut sink, &hq.region);
            sink.optional_name(hq.name.as_ref(), "HQ");
            if let (Some(wing), true) = (wing, side_known) {
                let key = (hq.side.get_ref().clone(), wing);
                if let Some(first) = wings.get(&key) {
                    sink.error(
                        &hq.wing.span(),
                        format!("side `{}` has a second {wing} HQ: the first is at line {}; each side has exactly one left, one centre and one right HQ", key.0, first.line),
                    );
                } else {
                    wings.insert(key, sink.at(&hq.wing.span()));
                }
            }
            hqs.push(Hq {
                side: SideId::new(hq.side.get_ref()),
                wing: wing.unwrap_or(Wing::Centre),
                region: RegionId::new(hq.region.get_ref()),
                name: hq.name.as_ref().map(|n| n.get_ref().clone()),
                held_by: SideId::new(hq.side.get_ref()),
                captured_turn: None,
            });
        }
        for side in &raw.sides {
            for wing in Wing::ALL {
                if !wings.contains_key(&(side.id.get_ref().clone(), *wing)) {
                    sink.error(
                        &side.id.span(),
                        format!(
                            "side `{}` has no {wing} HQ: add [[hqs]] with side = \"{}\", wing = \"{wing}\" and its region",
                            side.id.get_ref(),
                            side.id.get_ref()
                        ),
                    );
                }
            }
        }

        // Forces and stands.
        let mut force_ids = Seen::new("force id");
        let mut force_names = Seen::new("force name");
        let mut stand_ids = Seen::new("stand id");
        let mut stand_names = Seen::new("stand name");
        let mut forces = Vec::new();
        for force in &raw.forces {
            sink.key(&force.id, "force");
            force_ids.add(&mut sink, force.id.get_ref().as_str(), &force.id.span());
            sink.name(&force.name, "force");
            force_names.add(&mut sink, force.name.get_ref().as_str(), &force.name.span());
            check_side(&mut sink, &force.side);
            check_region(&mut sink, &force.region);
            if force.stands.is_empty() {
                sink.error(
                    &force.id.span(),
                    format!(
                        "force `{}` has no stands: add [[forces.stands]] tables under it",
                        force.id.get_ref()
                    ),
                );
            }
            let stands = force
                .stands
                .iter()
                .filter_map(|stand| check_stand(&mut sink, &mut stand_ids, &mut stand_names, stand))
                .collect();
            forces.push(Force {
                id: ForceId::new(force.id.get_ref()),
                name: force.name.get_ref().clone(),
                side: SideId::new(force.side.get_ref()),
                region: RegionId::new(force.region.get_ref()),
                stands,
                en_route: None,
                order: StandingOrder::Hold,
                fatigue: Fatigue::default(),
                supply: Supply::default(),
                fallen_out: Vec::new(),
            });
        }

        // Reinforcements: forces like the others (one list of force and stand
        // ids and names), with the game move, date or HQ's fall that brings them.
        let mut reinforcements = Vec::new();
        for r in &raw.reinforcements {
            sink.key(&r.id, "force");
            force_ids.add(&mut sink, r.id.get_ref().as_str(), &r.id.span());
            sink.name(&r.name, "force");
            force_names.add(&mut sink, r.name.get_ref().as_str(), &r.name.span());
            let side_known = check_side(&mut sink, &r.side);
            check_region(&mut sink, &r.region);
            if r.stands.is_empty() {
                sink.error(
                    &r.id.span(),
                    format!(
                        "reinforcement `{}` has no stands: add [[reinforcements.stands]] tables under it",
                        r.id.get_ref()
                    ),
                );
            }
            let stands: Vec<Stand> = r
                .stands
                .iter()
                .filter_map(|stand| check_stand(&mut sink, &mut stand_ids, &mut stand_names, stand))
                .collect();
            let given = [r.turn.is_some(), r.date.is_some(), r.when.is_some()]
                .iter()
                .filter(|g| **g)
                .count();
            if given != 1 {
                sink.error(
                    &r.id.span(),
                    format!(
                        "reinforcement `{}` must say when it arrives by exactly one of `turn = N` (a game move), `date = 1895-03-12` or `when = \"hq_lost\"` with `hq_wing`; it gives {given}",
                        r.id.get_ref()
                    ),
                );
            }
            if r.when.is_none() {
                for key in [&r.hq_side, &r.hq_wing].into_iter().flatten() {
                    sink.error(
                        &key.span(),
                        "`hq_side` and `hq_wing` name the HQ of `when = \"hq_lost\"`: add that line, or take this one out",
                    );
                }
            }
            let arrives = if let Some(turn) = &r.turn {
                match u32::try_from(*turn.get_ref()) {
                    Ok(t) if t >= start_turn => Some(Arrival::Turn { turn: t }),
                    _ => {
                        sink.error(
                            &turn.span(),
                            format!(
                                "reinforcement `{}` arrives on game move {}, before the campaign's first game move {start_turn}: put it on the map as a [[forces]] table, or give a later move",
                                r.id.get_ref(),
                                turn.get_ref()
                            ),
                        );
                        None
                    }
                }
            } else if let Some(date) = &r.date {
                let day = date_of(&mut sink, date, "date");
                match (day, start_date) {
                    (Some(day), Some(start)) if day < start => {
                        sink.error(
                            &date.span(),
                            format!(
                                "reinforcement `{}` arrives on {day}, before the campaign's start date {start}: put it on the map as a [[forces]] table, or give a later date",
                                r.id.get_ref()
                            ),
                        );
                        None
                    }
                    (day, _) => day.map(|date| Arrival::Date { date }),
                }
            } else if let Some(when) = &r.when {
                if when.get_ref() != "hq_lost" {
                    sink.error(
                        &when.span(),
                        format!(
                            "unknown condition `{}`: `when` takes \"hq_lost\" (with `hq_wing`, and `hq_side` when it is not the reinforcement's own side)",
                            when.get_ref()
                        ),
                    );
                }
                let hq_side = r.hq_side.as_ref().unwrap_or(&r.side);
                let hq_side_known = r.hq_side.as_ref().is_none_or(|s| check_side(&mut sink, s));
                let wing = match &r.hq_wing {
                    Some(w) => sink.word(w, "wing", Wing::parse, Wing::choices),
                    None => {
                        sink.error(
                            &when.span(),
                            format!(
                                "reinforcement `{}` arrives when an HQ is lost: name it with `hq_wing = \"left\"`, \"centre\" or \"right\" (and `hq_side`, its own side by default)",
                                r.id.get_ref()
                            ),
                        );
                        None
                    }
                };
                wing.filter(|_| side_known && hq_side_known)
                    .map(|wing| Arrival::HqLost {
                        side: SideId::new(hq_side.get_ref()),
                        wing,
                    })
            } else {
                None
            };
            if let Some(arrives) = arrives {
                reinforcements.push(Reinforcement {
                    id: ForceId::new(r.id.get_ref()),
                    name: r.name.get_ref().clone(),
                    side: SideId::new(r.side.get_ref()),
                    region: RegionId::new(r.region.get_ref()),
                    arrives,
                    stands,
                });
            }
        }

        // Replacements: a side's draughts at one of its HQs.
        let mut replacements = Vec::new();
        for r in &raw.replacements {
            check_side(&mut sink, &r.side);
            let every = match u32::try_from(*r.every.get_ref()) {
                Ok(every) if (1..=MAX_REPLACEMENT_EVERY).contains(&every) => Some(every),
                _ => {
                    sink.error(
                        &r.every.span(),
                        format!(
                            "every = {} must be a number of game moves from 1 to {MAX_REPLACEMENT_EVERY}",
                            r.every.get_ref()
                        ),
                    );
                    None
                }
            };
            let at = sink.word(&r.at, "HQ wing", Wing::parse, Wing::choices);
            sink.optional_name(r.name.as_ref(), "force");
            if r.stands.is_empty() {
                sink.error(
                    &r.side.span(),
                    "these replacements have no stands: add [[replacements.stands]] tables under them, each with a `kind` and a `count`",
                );
            }
            let mut stands = Vec::new();
            for new in &r.stands {
                let kind = sink.word(&new.kind, "stand kind", StandKind::parse, StandKind::choices);
                let quality = match &new.quality {
                    None => Some(Quality::Trained),
                    Some(q) => sink.word(q, "quality", Quality::parse, Quality::choices),
                };
                sink.optional_name(new.name.as_ref(), "stand");
                let count = match &new.count {
                    None => Some(1),
                    Some(c) => match u32::try_from(*c.get_ref()) {
                        Ok(n) if (1..=MAX_REPLACEMENT_STANDS).contains(&n) => Some(n),
                        _ => {
                            sink.error(
                                &c.span(),
                                format!(
                                    "count = {} must be a number of stands from 1 to {MAX_REPLACEMENT_STANDS}",
                                    c.get_ref()
                                ),
                            );
                            None
                        }
                    },
                };
                if let (Some(kind), Some(quality), Some(count)) = (kind, quality, count) {
                    stands.push(NewStands {
                        kind,
                        quality,
                        count,
                        name: new.name.as_ref().map(|n| n.get_ref().clone()),
                    });
                }
            }
            if let (Some(every), Some(at)) = (every, at) {
                replacements.push(Replacements {
                    side: SideId::new(r.side.get_ref()),
                    every,
                    at,
                    name: r.name.as_ref().map(|n| n.get_ref().clone()),
                    stands,
                });
            }
        }

        // Enemies that start in one region will fight at once: say so, once per region.
        // Per region, the first force there and the first of another side than
        // it: the earliest enemy of any later force is one of those two.
        let mut contested: HashSet<&str> = HashSet::new();
        let mut first_in: HashMap<&str, (&RawForce, Option<&RawForce>)> = HashMap::new();
        for force in &raw.forces {
            let region = force.region.get_ref().as_str();
            let side = force.side.get_ref();
            let (first, other) = first_in.entry(region).or_insert((force, None));
            let enemy = if first.side.get_ref() != side {
                Some(*first)
            } else {
                *other
            };
            if other.is_none() && first.side.get_ref() != side {
                *other = Some(force);
            }
            if let Some(enemy) = enemy
                && contested.insert(region)
            {
                sink.warning(
                    &force.region.span(),
                    format!(
                        "force `{}` starts in `{region}` with enemy force `{}`: they will fight in the first game move",
                        force.id.get_ref(),
                        enemy.id.get_ref()
                    ),
                );
            }
        }

        let transport = check_transport(&mut sink, raw.railways.as_ref(), raw.rivers.as_ref());
        let end = match &raw.end {
            Some(table) => {
                let points = sides
                    .iter()
                    .map(|s| super::end::SidePoints {
                        side: s.id.clone(),
                        points: forces.iter().filter(|f| f.side == s.id).map(Force::points).sum(),
                    })
                    .collect();
                let rules = super::end::check_end(&mut sink, table, start_turn, start_date, points);
                super::end::End { rules, ended: None }
            }
            None => super::end::End::default(),
        };
        let title = raw.title.get_ref().clone();
        sink.finish(|| {
            Some(Campaign {
                title,
                description: raw.description.as_ref().map(|d| d.get_ref().clone()),
                map: map?,
                turn: start_turn,
                start_turn,
                start_date: start_date?,
                days_per_turn,
                rules: rules?,
                rng: RngState::new(seed),
                miles_per_inch,
                transport,
                sides,
                hqs,
                forces,
                battles: Vec::new(),
                knowledge: Default::default(),
                reinforcements,
                replacements,
                house_rules,
                end,
            })
        })
    }
}

/// Most miles a train or steamer may be given in one game move.
const MAX_TRANSPORT_MILES: f64 = 10_000.0;
/// Most stands a line may be given in one game move.
const MAX_TRANSPORT_STANDS: i64 = 100_000;

/// The `[railways]` and `[rivers]` tables, each figure defaulting to this
/// program's choice (`model::Transport`).
fn check_transport(
    sink: &mut Sink<'_>,
    railways: Option<&RawRailways>,
    rivers: Option<&RawRivers>,
) -> Transport {
    let mut transport = Transport::default();
    let miles = |sink: &mut Sink<'_>, value: Option<&Spanned<f64>>, key: &str, into: &mut f64| {
        if let Some(m) = value {
            let v = *m.get_ref();
            if v.is_finite() && v > 0.0 && v <= MAX_TRANSPORT_MILES {
                *into = v;
            } else {
                sink.error(
                    &m.span(),
                    format!("{key} {v} must be more than 0 and at most {MAX_TRANSPORT_MILES}"),
                );
            }
        }
    };
    let stands = |sink: &mut Sink<'_>, value: Option<&Spanned<i64>>, key: &str, into: &mut u32| {
        if let Some(n) = value {
            match u32::try_from(*n.get_ref()) {
                Ok(v) if v >= 1 && i64::from(v) <= MAX_TRANSPORT_STANDS => *into = v,
                _ => sink.error(
                    &n.span(),
                    format!(
                        "{key} {} must be a whole number of stands from 1 to {MAX_TRANSPORT_STANDS}",
                        n.get_ref()
                    ),
                ),
            }
        }
    };
    if let Some(rail) = railways {
        miles(
            sink,
            rail.miles_per_move.as_ref(),
            "railways.miles_per_move",
            &mut transport.rail_miles_per_move,
        );
        stands(
            sink,
            rail.stands_per_move.as_ref(),
            "railways.stands_per_move",
            &mut transport.rail_stands_per_move,
        );
    }
    if let Some(river) = rivers {
        miles(
            sink,
            river.upstream_miles_per_move.as_ref(),
            "rivers.upstream_miles_per_move",
            &mut transport.river_upstream_miles_per_move,
        );
        miles(
            sink,
            river.downstream_miles_per_move.as_ref(),
            "rivers.downstream_miles_per_move",
            &mut transport.river_downstream_miles_per_move,
        );
        stands(
            sink,
            river.stands_per_move.as_ref(),
            "rivers.stands_per_move",
            &mut transport.river_stands_per_move,
        );
    }
    transport
}

fn date_of(sink: &mut Sink<'_>, value: &Spanned<toml::value::Datetime>, key: &str) -> Option<Date> {
    let datetime = value.get_ref();
    let date = match (datetime.date, datetime.time) {
        (Some(date), None) => Date::from_ymd(i32::from(date.year), date.month, date.day),
        _ => None,
    };
    if date.is_none() {
        sink.error(
            &value.span(),
            format!("{key} `{datetime}` must be a plain date such as 1895-03-01 (no quotes, no time)"),
        );
    }
    date
}

fn check_stand<'r>(
    sink: &mut Sink<'_>,
    ids: &mut Seen<i64>,
    names: &mut Seen<&'r str>,
    stand: &'r RawStand,
) -> Option<Stand> {
    let id = *stand.id.get_ref();
    let id_ok = match u32::try_from(id) {
        Ok(_) => ids.add(sink, id, &stand.id.span()),
        Err(_) => {
            sink.error(
                &stand.id.span(),
                format!("stand id {id} must be a whole number from 0 to {}", u32::MAX),
            );
            false
        }
    };
    sink.name(&stand.name, "stand");
    names.add(sink, stand.name.get_ref().as_str(), &stand.name.span());
    let kind = sink.word(&stand.kind, "stand kind", StandKind::parse, StandKind::choices);
    let quality = match &stand.quality {
        None => Some(Quality::Trained),
        Some(q) => sink.word(q, "quality", Quality::parse, Quality::choices),
    };
    let full = match (&stand.full, kind) {
        (Some(full), _) => {
            let value = *full.get_ref();
            if !(1..=MAX_STAND_POINTS).contains(&value) {
                sink.error(
                    &full.span(),
                    format!("full strength {value} must be between 1 and {MAX_STAND_POINTS} points"),
                );
                None
            } else {
                u32::try_from(value).ok()
            }
        }
        (None, Some(kind)) => Some(kind.roster_points()),
        (None, None) => None,
    };
    let strength = match (&stand.strength, full) {
        (None, full) => full,
        (Some(s), full) => {
            let value = *s.get_ref();
            if value < 0 {
                sink.error(
                    &s.span(),
                    format!("strength {value} is below zero: a stand has 0 points or more"),
                );
                None
            } else if let Some(full) = full.filter(|f| value > i64::from(*f)) {
                sink.error(
                    &s.span(),
                    format!("strength {value} is above full strength {full}: lower it, or raise `full` if the stand really is stronger"),
                );
                None
            } else {
                u32::try_from(value).ok()
            }
        }
    };
    match (id_ok, kind, quality, strength, full) {
        (true, Some(kind), Some(quality), Some(strength), Some(full)) => Some(Stand {
            id: StandId(u32::try_from(id).ok()?),
            name: stand.name.get_ref().clone(),
            kind,
            quality,
            strength,
            full,
        }),
        _ => None,
    }
}

/// The generated files of the hardening tests and the check benchmark.
#[cfg(test)]
#[path = "../../tests/generate/mod.rs"]
mod generate;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    use super::generate;

    /// Reads `text` both ways; when the plain reader takes it, the `toml` crate
    /// must take it too and read every value and span the same. True when the
    /// plain reader took it.
    fn same_both_ways<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> bool {
        let Some(plain) = plain_toml::from_str::<T>(text) else {
            return false;
        };
        let toml: T = toml::from_str(text)
            .unwrap_or_else(|e| panic!("the plain reader took what the toml crate refuses ({e}):\n{text}"));
        assert_eq!(
            format!("{plain:?}"),
            format!("{toml:?}"),
            "read otherwise:\n{text}"
        );
        true
    }

    #[test]
    fn the_plain_reader_reads_the_bundled_and_generated_files_as_the_toml_crate() {
        let (map, campaign) = generate::generate(300);
        assert!(same_both_ways::<RawMap>(&map));
        assert!(same_both_ways::<RawCampaign>(&campaign));
        assert!(same_both_ways::<RawMap>(include_str!(
            "../../maps/egypt_1895.toml"
        )));
        assert!(same_both_ways::<RawCampaign>(include_str!(
            "../../campaigns/egyptian_rebellion_1895.toml"
        )));
        // Escapes at line ends: the toml crate reads it.
        assert!(!same_both_ways::<RawMap>(include_str!(
            "../../maps/scruby_jumbo.toml"
        )));
        same_both_ways::<RawCampaign>(include_str!("../../campaigns/scruby_jumbo_1961.toml"));
    }

    /// Every one-character edit of small files holding every form the plain
    /// reader takes: what it takes, it reads as the toml crate does.
    #[test]
    fn edited_files_are_read_as_the_toml_crate_reads_them_or_left_to_it() {
        let map = "# A map\nname = \"Two \u{e9}\"\ndescription = \"\"\"\nLines \"quoted\" here\n\"\"\"\n\n\
                   [background] # picture\nfile = 'b.png'\nleft = -2\ntop = 0.5\nright = 1e2\nbottom = 3.25E+1\n\n\
                   [[regions]]\nid = \"a\"\nname = \"A\"\nterrain = \"hills\"\nx = 1.0\ny = -0.0\nfeatures = [\"bridge\", 'ford',]\n\n\
                   [[roads]]\r\nfrom = \"a\"\r\nto = \"b\" \t# b\r\nkind = \"road\"\r\nmiles = 10\r\nriver = \"ford\"\r\n";
        let campaign = "title = \"T\"\nmap = \"m.toml\"\nstart_date = 1895-03-01\nseed = 7\nrules = \"scruby-1965\"\n\
                        miles_per_inch = 2.5\n[[sides]]\nid = \"red\"\nname = \"Red\"\ncolour = \"#cc0000\"\narmy = \"regular\"\n\
                        [[forces]]\nid = \"f\"\nname = \"F\"\nside = \"red\"\nregion = \"a\"\n  [[forces.stands]]\n  id = 1\n  \
                        name = \"S\"\n  kind = \"line_infantry\"\n  strength = 3\n[[forces]]\nid = \"g\"\nname = \"G\"\nside = \"red\"\nregion = \"a\"\n";
        assert!(same_both_ways::<RawMap>(map));
        assert!(same_both_ways::<RawCampaign>(campaign));
        let edits = [
            "", " ", "\t", "\n", "\r", "\r\n", "#", "\"", "'", "\\", "[", "]", "[[", ",", ".", "=", "-", "+",
            "0", "1", "e", "_", ":", "T", "x", "{", "\u{e9}", "\u{7f}", "\u{1}", "\"\"\"",
        ];
        let mut taken = 0;
        for (text, is_map) in [(map, true), (campaign, false)] {
            for at in (0..=text.len()).filter(|at| text.is_char_boundary(*at)) {
                let next = text
                    .get(at..)
                    .and_then(|rest| rest.chars().next())
                    .map_or(0, char::len_utf8);
                for edit in edits {
                    // Put `edit` in at `at`, and in place of the character there.
                    for skip in [0, next] {
                        let edited = format!("{}{edit}{}", &text[..at], &text[at + skip..]);
                        let read = if is_map {
                            same_both_ways::<RawMap>(&edited)
                        } else {
                            same_both_ways::<RawCampaign>(&edited)
                        };
                        taken += usize::from(read);
                    }
                }
            }
        }
        assert!(taken > 1000, "the plain reader took {taken} edited files");
    }
}
