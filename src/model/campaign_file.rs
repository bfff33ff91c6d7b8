//! A new campaign set out on a map in the window's map maker (its sides, each
//! side's three HQs and its forces), written as a campaign file and checked
//! as `umpire check` checks one. Pure: the window draws the sketch, `files`
//! writes the text.

use super::check::{Source, read_campaign};
use super::map::Map;
use super::{ArmyKind, Quality, RegionId, RuleSetId, StandKind, Wing};
use serde::Serialize;

/// A campaign being set out: what a campaign file holds at the least.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CampaignSketch {
    pub title: String,
    /// The map file, as the campaign file names it (relative to its folder).
    pub map: String,
    /// The first game move's date, written `1895-03-01`.
    #[serde(serialize_with = "date")]
    pub start_date: String,
    pub seed: u32,
    pub rules: RuleSetId,
    pub sides: Vec<SketchSide>,
    pub hqs: Vec<SketchHq>,
    pub forces: Vec<SketchForce>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SketchSide {
    pub id: String,
    pub name: String,
    /// `#rrggbb`.
    pub colour: String,
    pub army: ArmyKind,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SketchHq {
    pub side: String,
    pub wing: Wing,
    pub region: RegionId,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SketchForce {
    pub id: String,
    pub name: String,
    pub side: String,
    pub region: RegionId,
    pub stands: Vec<SketchStand>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SketchStand {
    pub id: u32,
    pub name: String,
    pub kind: StandKind,
    pub quality: Quality,
}

/// A force of the palette: what dragging it onto a region adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    /// What the palette calls it, and the start of the force's name.
    pub name: &'static str,
    pub stands: &'static [StandKind],
}

/// The palette's forces.
pub const TEMPLATES: &[Template] = &[
    Template {
        name: "Infantry brigade",
        stands: &[
            StandKind::LineInfantry,
            StandKind::LineInfantry,
            StandKind::LineInfantry,
            StandKind::LightInfantry,
        ],
    },
    Template {
        name: "Cavalry brigade",
        stands: &[
            StandKind::LightCavalry,
            StandKind::LightCavalry,
            StandKind::HeavyCavalry,
        ],
    },
    Template {
        name: "Artillery",
        stands: &[StandKind::FootArtillery, StandKind::FootArtillery],
    },
    Template {
        name: "Mixed column",
        stands: &[
            StandKind::LineInfantry,
            StandKind::LineInfantry,
            StandKind::LightCavalry,
            StandKind::FootArtillery,
        ],
    },
];

/// The colours new sides are given, in turn.
const COLOURS: [&str; 4] = ["#c81e1e", "#1e46b4", "#2e7d32", "#8e24aa"];

impl CampaignSketch {
    /// A sketch with two sides, Red and Blue, and nothing placed, on the map
    /// file `map` (as the campaign file will name it).
    pub fn new(map_name: &str, map: &str) -> CampaignSketch {
        let mut sketch = CampaignSketch {
            title: format!("A campaign on {map_name}"),
            map: map.to_owned(),
            start_date: "1895-03-01".to_owned(),
            seed: 1,
            rules: RuleSetId::Scruby1965,
            sides: Vec::new(),
            hqs: Vec::new(),
            forces: Vec::new(),
        };
        sketch.add_side();
        sketch.add_side();
        sketch
    }

    /// Adds a side named after its colour ("Red", "Blue", ...), or "Side N".
    pub fn add_side(&mut self) {
        let n = self.sides.len();
        let (name, id) = match n {
            0 => ("Red".to_owned(), "red".to_owned()),
            1 => ("Blue".to_owned(), "blue".to_owned()),
            2 => ("Green".to_owned(), "green".to_owned()),
            3 => ("Purple".to_owned(), "purple".to_owned()),
            _ => (format!("Side {}", n + 1), format!("side_{}", n + 1)),
        };
        let colour = COLOURS.get(n % COLOURS.len()).copied().unwrap_or("#444444");
        self.sides.push(SketchSide {
            id,
            name,
            colour: colour.to_owned(),
            army: ArmyKind::Regular,
        });
    }

    /// Removes a side with its HQs and forces.
    pub fn remove_side(&mut self, index: usize) {
        if index >= self.sides.len() {
            return;
        }
        let side = self.sides.remove(index);
        self.hqs.retain(|h| h.side != side.id);
        self.forces.retain(|f| f.side != side.id);
    }

    /// Puts a side's HQ of `wing` at `region`, in place of the one it had.
    pub fn place_hq(&mut self, side: usize, wing: Wing, region: RegionId, region_name: &str) {
        let Some(side) = self.sides.get(side) else { return };
        let name = format!("{} {} HQ ({region_name})", side.name, capitalised(wing.as_str()));
        let hq = SketchHq {
            side: side.id.clone(),
            wing,
            region,
            name,
        };
        match self.hqs.iter_mut().find(|h| h.side == hq.side && h.wing == wing) {
            Some(slot) => *slot = hq,
            None => self.hqs.push(hq),
        }
    }

    /// Adds a side's force of `template` at `region`: "Red Infantry brigade 2",
    /// its stands numbered after the sketch's last.
    pub fn place_force(&mut self, side: usize, template: &Template, region: RegionId) {
        let Some(side) = self.sides.get(side) else { return };
        let mut n = 1;
        let name = loop {
            let name = format!("{} {} {n}", side.name, template.name);
            if !self.forces.iter().any(|f| f.name == name) {
                break name;
            }
            n += 1;
        };
        let base = super::map_edit::id_from_name(&name).unwrap_or_else(|| "force".to_owned());
        let mut id = base.replace('_', "-");
        let mut k = 2;
        while self.forces.iter().any(|f| f.id == id) {
            id = format!("{}-{k}", base.replace('_', "-"));
            k += 1;
        }
        let mut next = self
            .forces
            .iter()
            .flat_map(|f| f.stands.iter().map(|s| s.id))
            .max()
            .unwrap_or(0);
        let stands = template
            .stands
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                next += 1;
                SketchStand {
                    id: next,
                    name: format!("{} {}, {name}", ordinal(i + 1), kind_words(*kind)),
                    kind: *kind,
                    quality: Quality::Trained,
                }
            })
            .collect();
        self.forces.push(SketchForce {
            id,
            name,
            side: side.id.clone(),
            region,
            stands,
        });
    }

    /// Drops HQs and forces standing on regions the map no longer has.
    pub fn follow_map(&mut self, map: &Map) {
        self.hqs.retain(|h| map.region(&h.region).is_some());
        self.forces.retain(|f| map.region(&f.region).is_some());
    }
}

/// Why a sketch could not be written as TOML.
#[derive(Debug, thiserror::Error)]
pub enum SketchWriteError {
    #[error("start date `{0}` must be written as a date, such as 1895-03-01")]
    Date(String),
    #[error("cannot write the campaign as a campaign file: {0}")]
    Toml(#[from] toml::ser::Error),
}

#[allow(clippy::ptr_arg)] // serde's `serialize_with` lends the field as it is: `&String`.
fn date<S: serde::Serializer>(text: &String, serializer: S) -> Result<S::Ok, S::Error> {
    let date: toml::value::Datetime = text
        .trim()
        .parse()
        .map_err(|_| serde::ser::Error::custom(format!("start date `{text}`")))?;
    date.serialize(serializer)
}

/// The sketch as the text of a campaign file, with a first comment line
/// saying what wrote it.
pub fn campaign_file_text(sketch: &CampaignSketch, written_by: &str) -> Result<String, SketchWriteError> {
    if sketch.start_date.trim().parse::<toml::value::Datetime>().is_err() {
        return Err(SketchWriteError::Date(sketch.start_date.clone()));
    }
    let body = toml::to_string(sketch)?;
    Ok(super::map_file::with_header(written_by, &body))
}

/// The problems `umpire check` finds in the sketch written as a campaign
/// file on `map`, each as its message (error or warning).
pub fn sketch_problems(sketch: &CampaignSketch, map: &Map) -> Vec<(bool, String)> {
    let text = match campaign_file_text(sketch, "sketch") {
        Ok(text) => text,
        Err(e) => return vec![(true, e.to_string())],
    };
    let checked = match read_campaign(Source {
        name: "campaign",
        text: &text,
    }) {
        Ok(draft) => draft.check(Ok(map.clone())),
        Err(diagnostics) => {
            return diagnostics
                .into_iter()
                .map(|d| (d.is_error(), d.message))
                .collect();
        }
    };
    checked
        .diagnostics
        .into_iter()
        .map(|d| (d.is_error(), d.message))
        .collect()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn kind_words(kind: StandKind) -> String {
    capitalised(&kind.as_str().replace('_', " "))
}
