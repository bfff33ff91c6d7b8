//! The battle pack's `table.png`: the table drawn to scale with its terrain,
//! its grid (square-grid games) or inch marks (inch-scale games), each side's
//! deployment zone and reserve arrival areas, the objectives, every stand
//! where it starts, and a legend in a band below the table.
//!
//! Pure: [`table_picture`] returns pixels and [`table_png`] PNG bytes; the
//! caller writes the file. No scenario makes it panic: an invalid scenario
//! (see [`Scenario::problems`]) is drawn as far as it can be, and the legend
//! says what is wrong with it.
//!
//! Scale: a whole number of pixels to the inch of table, chosen so the
//! table's long side is about [`TARGET_LONG_SIDE_PX`] pixels (at most
//! [`MAX_PIXELS_PER_INCH`]); tables too long for a pixel to the inch are
//! drawn at a fraction of one, so the picture's size stays bounded. A fixed
//! scale cannot serve both an 8 x 6 ft inch table (96 in) and an 18 x 12
//! grid of 2 in squares (36 in) at 1,000 to 2,500 pixels wide.
//!
//! Coordinates: the scenario's cell (0, 0) is the top-left corner; x grows
//! to the right and y down the picture, so side 0's usual edge is the top.
//! Squares and inches are numbered from 0 at that corner, as in the
//! scenario file.

use crate::model::{Colour, StandKind};
use crate::rules::board::{Board, Point, floor};
use crate::rules::doctrine;
use crate::scenario::{Area, Cell, Cover, Ground, Role, Scenario, Table};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::{Rgb, RgbImage};

/// The table's longer side is drawn about this long, in pixels.
pub const TARGET_LONG_SIDE_PX: f64 = 1920.0;
/// Small tables are drawn at most this many pixels to the inch.
pub const MAX_PIXELS_PER_INCH: f64 = 40.0;
/// Room around the table for the frame, the inch marks and their numbers.
const MARGIN: u32 = 64;
/// The picture is at least this wide, so the legend has room.
const MIN_WIDTH: u32 = 1000;
/// Padding around the legend band.
const LEGEND_PAD: u32 = 32;
/// Tables of more cells than this have their terrain left undrawn (the
/// scenario allows at most 1,000 x 1,000).
pub(crate) const MAX_CELLS: u64 = 1_000_000;
/// Sides drawn and listed; a scenario has two.
const MAX_SIDES: usize = 8;
/// Labels placed on the table, at most (each looks for a free place).
const MAX_LABELS: usize = 400;

const BACKGROUND: [u8; 3] = [255, 255, 255];
const FRAME: [u8; 3] = [0, 0, 0];
const INK: [u8; 3] = [28, 28, 28];
const WARNING_INK: [u8; 3] = [170, 20, 20];
/// The width of the frame around the table, in pixels, drawn just outside it.
pub const FRAME_WIDTH: u32 = 2;

/// Roads, as a band along the road cells.
pub const ROAD_COLOUR: [u8; 3] = [184, 122, 66];
const ROAD_EDGE: [u8; 3] = [112, 70, 34];
/// The line along each step up a hill.
pub const CONTOUR_COLOUR: [u8; 3] = [122, 84, 46];
/// Hills are their ground shaded toward this colour, more for each level.
const HILL_TINT: [u8; 3] = [140, 98, 52];
const RIVER_BANK: [u8; 3] = [58, 106, 168];
const OBJECTIVE_GOLD: [u8; 3] = [246, 196, 28];

/// Blue for the first side and red for the second when the scenario gives
/// no colour; then green, purple, orange and others for stray extra sides.
const SIDE_DEFAULTS: [[u8; 3]; 6] = [
    [34, 84, 196],
    [200, 36, 36],
    [30, 140, 60],
    [120, 60, 170],
    [230, 120, 20],
    [0, 150, 160],
];

/// The colour of each kind of ground: distinct, and light enough to print.
pub fn ground_colour(ground: Ground) -> [u8; 3] {
    match ground {
        Ground::Open => [240, 236, 214],
        Ground::BuiltUpOuter => [228, 180, 162],
        Ground::BuiltUpInner => [192, 112, 96],
        Ground::ForestEdge => [178, 214, 150],
        Ground::ForestInterior => [106, 162, 98],
        Ground::River => [112, 166, 222],
        Ground::Bridge => [168, 164, 158],
        Ground::Ford => [180, 216, 238],
        Ground::TallCrops => [238, 218, 120],
    }
}

/// A cell's fill: its ground, shaded darker for each hill level (levels
/// above 4 look like 4).
pub fn cell_colour(cell: &Cell) -> [u8; 3] {
    let base = ground_colour(cell.ground);
    if cell.level == 0 {
        return base;
    }
    mix(base, HILL_TINT, f64::from(cell.level.min(4)) * 0.17)
}

/// Walls and hedges are a dark line round the cells that have them;
/// entrenchments a red-brown line with hachures.
pub fn cover_colour(cover: Cover) -> [u8; 3] {
    match cover {
        Cover::WallOrHedge => [64, 64, 64],
        Cover::Entrenchment => [156, 62, 38],
    }
}

/// The colour a side is drawn in: its own, or blue, red and so on by its place.
pub fn side_colour(colour: Option<Colour>, index: usize) -> [u8; 3] {
    colour.map_or_else(
        || {
            SIDE_DEFAULTS
                .get(index % SIDE_DEFAULTS.len())
                .copied()
                .unwrap_or(FRAME)
        },
        |c| c.0,
    )
}

/// One thing of the terrain the legend names and the picture colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    Ground(Ground),
    /// Open ground at this hill level.
    Hill(u8),
    Road,
    Cover(Cover),
}

impl Feature {
    /// The colour it is drawn in.
    pub fn colour(self) -> [u8; 3] {
        match self {
            Feature::Ground(g) => ground_colour(g),
            Feature::Hill(level) => cell_colour(&Cell {
                level,
                ..Cell::default()
            }),
            Feature::Road => ROAD_COLOUR,
            Feature::Cover(c) => cover_colour(c),
        }
    }

    /// Its name in the legend.
    pub fn label(self) -> String {
        match self {
            Feature::Ground(g) => ground_label(g).to_owned(),
            Feature::Hill(level) => format!("hill, level {level}"),
            Feature::Road => "road".to_owned(),
            Feature::Cover(Cover::WallOrHedge) => "wall or hedge".to_owned(),
            Feature::Cover(Cover::Entrenchment) => "entrenchment".to_owned(),
        }
    }
}

fn ground_label(g: Ground) -> &'static str {
    match g {
        Ground::Open => "open ground",
        Ground::BuiltUpOuter => "built-up, outer",
        Ground::BuiltUpInner => "built-up, inner",
        Ground::ForestEdge => "forest edge",
        Ground::ForestInterior => "forest interior",
        Ground::River => "river",
        Ground::Bridge => "bridge",
        Ground::Ford => "ford",
        Ground::TallCrops => "tall crops",
    }
}

/// A rectangle of pixels: `x..x+w`, `y..y+h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl PixelRect {
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x >= self.x && y >= self.y && x - self.x < self.w && y - self.y < self.h
    }
}

/// The drawn picture and where its parts are.
#[derive(Debug, Clone)]
pub struct Picture {
    pub image: RgbImage,
    /// The table itself; its frame is drawn [`FRAME_WIDTH`] pixels wide just outside.
    pub table: PixelRect,
    /// The band below the table holding the legend.
    pub legend: PixelRect,
    /// Pixels to one inch of table.
    pub pixels_per_inch: f64,
    /// Pixels to one cell of the table.
    pub pixels_per_cell: f64,
}

impl Picture {
    /// The pixel showing a point of the table (in cells); `None` off the table.
    pub fn pixel_at(&self, p: Point) -> Option<(u32, u32)> {
        let x = floor(f64::from(self.table.x) + p.0 * self.pixels_per_cell);
        let y = floor(f64::from(self.table.y) + p.1 * self.pixels_per_cell);
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        self.table.contains(x, y).then_some((x, y))
    }
}

/// Why the picture could not be made into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the table picture could not be encoded as PNG: {0}")]
    Png(#[from] image::ImageError),
}

/// The table picture, PNG-encoded.
pub fn table_png(scenario: &Scenario) -> Result<Vec<u8>, PictureError> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let picture = table_picture(scenario);
    let mut bytes = Vec::new();
    let encoder = PngEncoder::new_with_quality(&mut bytes, CompressionType::Default, FilterType::Adaptive);
    picture.image.write_with_encoder(encoder)?;
    Ok(bytes)
}

/// Draws the table picture.
pub fn table_picture(scenario: &Scenario) -> Picture {
    let geometry = Geometry::of(&scenario.table);
    let text = Type::new();
    let width = MIN_WIDTH.max(geometry.w_px.saturating_add(2 * MARGIN));
    let table = PixelRect {
        x: width.saturating_sub(geometry.w_px) / 2,
        y: MARGIN,
        w: geometry.w_px,
        h: geometry.h_px,
    };
    let geometry = Geometry {
        x: f64::from(table.x),
        y: f64::from(table.y),
        ..geometry
    };
    let cells = (u64::from(scenario.table.width) * u64::from(scenario.table.depth) <= MAX_CELLS)
        .then(|| scenario.table.cells());
    let starts = stand_starts(scenario);
    let legend_items = legend(scenario, cells.as_deref(), &starts, &geometry);
    let legend_width = width.saturating_sub(2 * LEGEND_PAD);
    let legend_layout = layout_legend(&text, &legend_items, legend_width);
    let legend_top = table.y.saturating_add(table.h).saturating_add(MARGIN);
    let legend = PixelRect {
        x: LEGEND_PAD,
        y: legend_top,
        w: legend_width,
        h: legend_layout.height,
    };
    let height = legend_top.saturating_add(legend.h).saturating_add(LEGEND_PAD);
    let mut canvas = Canvas {
        img: RgbImage::from_pixel(width, height, Rgb(BACKGROUND)),
    };
    let grid = TableGrid {
        g: &geometry,
        t: &scenario.table,
        cells: cells.as_deref(),
    };
    grid.terrain(&mut canvas);
    grid.lines(&mut canvas);
    frame(&mut canvas, &table);
    edge_marks(&mut canvas, &text, &geometry, &scenario.table);
    let mut labels = Labels::default();
    zones(&mut canvas, scenario, &geometry);
    objectives(&mut canvas, scenario, &geometry, &mut labels);
    let colours: Vec<[u8; 3]> = (scenario.sides.iter().enumerate())
        .map(|(i, side)| side_colour(side.colour, i))
        .collect();
    stands(&mut canvas, &text, &starts, &colours, &geometry, &mut labels);
    zone_labels(&mut canvas, &text, scenario, &geometry, &mut labels);
    objective_labels(&mut canvas, &text, scenario, &geometry, &mut labels);
    draw_legend(&mut canvas, &text, &legend_layout, &legend);
    Picture {
        image: canvas.img,
        table,
        legend,
        pixels_per_inch: geometry.ppi,
        pixels_per_cell: geometry.cell_px,
    }
}

// ---------------------------------------------------------------------------
// Scale

/// The table's scale and place in the picture.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    /// The table's top-left corner, in pixels.
    x: f64,
    y: f64,
    ppi: f64,
    cell_px: f64,
    /// The cell's size in inches used for drawing (1 if the scenario's is not a size).
    cell_inches: f64,
    w_px: u32,
    h_px: u32,
}

impl Geometry {
    fn of(table: &Table) -> Geometry {
        let cell_inches = if table.cell_inches.is_finite() && table.cell_inches > 0.0 {
            table.cell_inches
        } else {
            1.0
        };
        let long = f64::from(table.width.max(table.depth)) * cell_inches;
        let raw = if long > 0.0 {
            TARGET_LONG_SIDE_PX / long
        } else {
            MAX_PIXELS_PER_INCH
        };
        let ppi = if raw >= 1.0 {
            raw.floor().min(MAX_PIXELS_PER_INCH)
        } else if raw.is_finite() {
            raw
        } else {
            0.0
        };
        let cell_px = cell_inches * ppi;
        Geometry {
            x: 0.0,
            y: 0.0,
            ppi,
            cell_px,
            cell_inches,
            w_px: to_u32(f64::from(table.width) * cell_px),
            h_px: to_u32(f64::from(table.depth) * cell_px),
        }
    }

    /// The pixel edge of cell boundary `i` across (`x`) or down.
    fn edge_x(&self, i: f64) -> i64 {
        to_i64(self.x + (i * self.cell_px).round())
    }

    fn edge_y(&self, i: f64) -> i64 {
        to_i64(self.y + (i * self.cell_px).round())
    }

    fn cell_rect(&self, x: u32, y: u32) -> Rect {
        rect(
            self.edge_x(f64::from(x)),
            self.edge_y(f64::from(y)),
            self.edge_x(f64::from(x) + 1.0),
            self.edge_y(f64::from(y) + 1.0),
        )
    }

    fn area_rect(&self, a: &Area) -> Rect {
        rect(
            self.edge_x(f64::from(a.x)),
            self.edge_y(f64::from(a.y)),
            self.edge_x(f64::from(a.x) + f64::from(a.w)),
            self.edge_y(f64::from(a.y) + f64::from(a.h)),
        )
    }

    fn point(&self, p: Point) -> (f64, f64) {
        (self.x + p.0 * self.cell_px, self.y + p.1 * self.cell_px)
    }

    fn table_rect(&self) -> Rect {
        rect(
            to_i64(self.x),
            to_i64(self.y),
            to_i64(self.x) + i64::from(self.w_px),
            to_i64(self.y) + i64::from(self.h_px),
        )
    }
}

// ---------------------------------------------------------------------------
// Terrain

struct TableGrid<'a> {
    g: &'a Geometry,
    t: &'a Table,
    cells: Option<&'a [Cell]>,
}

impl TableGrid<'_> {
    fn cell(&self, x: i64, y: i64) -> Option<Cell> {
        if x < 0 || y < 0 || x >= i64::from(self.t.width) || y >= i64::from(self.t.depth) {
            return None;
        }
        let i = usize::try_from(y * i64::from(self.t.width) + x).ok()?;
        self.cells?.get(i).copied()
    }

    fn each_cell(&self) -> impl Iterator<Item = (u32, u32, Cell)> + '_ {
        let width = self.t.width.max(1);
        self.cells
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(move |(i, c)| {
                let i = u32::try_from(i).ok()?;
                Some((i % width, i / width, *c))
            })
    }

    fn terrain(&self, canvas: &mut Canvas) {
        let all = self.g.table_rect();
        canvas.fill(all, ground_colour(Ground::Open));
        if self.cells.is_none() {
            return;
        }
        let px = self.g.cell_px;
        for (x, y, cell) in self.each_cell() {
            let r = self.g.cell_rect(x, y);
            canvas.fill(r, cell_colour(&cell));
            if px >= 12.0 {
                self.texture(canvas, r, x, y, cell);
            }
        }
        // Contours: a line inside each cell along each side where the ground steps down.
        let contour = (px * 0.035).clamp(1.0, 3.0);
        for (x, y, cell) in self.each_cell() {
            if cell.level == 0 {
                continue;
            }
            let r = self.g.cell_rect(x, y);
            self.inner_edges(canvas, r, x, y, contour, CONTOUR_COLOUR, |n| {
                n.is_some_and(|n| n.level < cell.level)
            });
        }
        self.roads(canvas);
        self.covers(canvas);
    }

    /// Draws a band `width` wide inside `r` along each side whose neighbour
    /// (`None` off the table) passes `edge`.
    #[allow(clippy::too_many_arguments)]
    fn inner_edges(
        &self,
        canvas: &mut Canvas,
        r: Rect,
        x: u32,
        y: u32,
        width: f64,
        colour: [u8; 3],
        edge: impl Fn(Option<Cell>) -> bool,
    ) {
        let w = to_i64(width).max(1);
        let (x, y) = (i64::from(x), i64::from(y));
        if edge(self.cell(x - 1, y)) {
            canvas.fill(Rect { x1: r.x0 + w, ..r }, colour);
        }
        if edge(self.cell(x + 1, y)) {
            canvas.fill(Rect { x0: r.x1 - w, ..r }, colour);
        }
        if edge(self.cell(x, y - 1)) {
            canvas.fill(Rect { y1: r.y0 + w, ..r }, colour);
        }
        if edge(self.cell(x, y + 1)) {
            canvas.fill(Rect { y0: r.y1 - w, ..r }, colour);
        }
    }

    /// Trees, buildings, crop rows, water banks and bridge decks.
    fn texture(&self, canvas: &mut Canvas, r: Rect, x: u32, y: u32, cell: Cell) {
        let px = self.g.cell_px;
        let shade = |c: [u8; 3], by: f64| mix(c, [0, 0, 0], by);
        let fill = cell_colour(&cell);
        match cell.ground {
            Ground::ForestEdge | Ground::ForestInterior => {
                let dense = cell.ground == Ground::ForestInterior;
                let step = if dense { 14 } else { 20 };
                let radius = if dense { 4.5 } else { 4.0 };
                lattice(r, step, |cx, cy, odd| {
                    let cx = cx + if odd { step / 2 } else { 0 };
                    canvas.disc((cx as f64, cy as f64), radius, shade(fill, 0.28), Some(r));
                });
            }
            Ground::BuiltUpOuter | Ground::BuiltUpInner => {
                let dense = cell.ground == Ground::BuiltUpInner;
                let step: i64 = if dense { 16 } else { 24 };
                let size: i64 = if dense { 9 } else { 8 };
                lattice(r, step, |cx, cy, odd| {
                    let cx = cx + if odd { step / 3 } else { 0 };
                    let b = rect(cx - size / 2, cy - size / 2, cx + size / 2 + 1, cy + size / 2);
                    canvas.fill(b.clip(r), shade(fill, 0.35));
                });
            }
            Ground::TallCrops => {
                let mut yy = r.y0 + 3;
                while yy < r.y1 - 1 {
                    canvas.fill(
                        Rect {
                            y0: yy,
                            y1: yy + 1,
                            ..r
                        },
                        shade(fill, 0.18),
                    );
                    yy += 7;
                }
            }
            Ground::River => {
                let bank = (px * 0.04).clamp(1.0, 3.0);
                self.inner_edges(canvas, r, x, y, bank, RIVER_BANK, |n| {
                    n.is_some_and(|n| !matches!(n.ground, Ground::River | Ground::Bridge | Ground::Ford))
                });
            }
            Ground::Ford => {
                // Stepping stones across.
                lattice(r, 12, |cx, cy, odd| {
                    let cx = cx + if odd { 6 } else { 0 };
                    canvas.disc((cx as f64, cy as f64), 2.0, RIVER_BANK, Some(r));
                });
            }
            Ground::Bridge => self.bridge(canvas, r, x, y),
            Ground::Open => {}
        }
    }

    /// Water under a deck running across the river, parapets either side.
    fn bridge(&self, canvas: &mut Canvas, r: Rect, x: u32, y: u32) {
        let water = |c: Option<Cell>| {
            c.is_some_and(|c| matches!(c.ground, Ground::River | Ground::Ford | Ground::Bridge))
        };
        let (xi, yi) = (i64::from(x), i64::from(y));
        let river_across = water(self.cell(xi - 1, yi)) || water(self.cell(xi + 1, yi));
        let river_down = water(self.cell(xi, yi - 1)) || water(self.cell(xi, yi + 1));
        canvas.fill(r, ground_colour(Ground::River));
        let deck_runs_down = river_across || !river_down;
        let span = if deck_runs_down { r.x1 - r.x0 } else { r.y1 - r.y0 };
        let inset = span / 5;
        let parapet = (span / 18).max(2);
        let deck = if deck_runs_down {
            Rect {
                x0: r.x0 + inset,
                x1: r.x1 - inset,
                ..r
            }
        } else {
            Rect {
                y0: r.y0 + inset,
                y1: r.y1 - inset,
                ..r
            }
        };
        canvas.fill(deck, ground_colour(Ground::Bridge));
        let dark = mix(ground_colour(Ground::Bridge), [0, 0, 0], 0.5);
        if deck_runs_down {
            canvas.fill(
                Rect {
                    x1: deck.x0 + parapet,
                    ..deck
                },
                dark,
            );
            canvas.fill(
                Rect {
                    x0: deck.x1 - parapet,
                    ..deck
                },
                dark,
            );
        } else {
            canvas.fill(
                Rect {
                    y1: deck.y0 + parapet,
                    ..deck
                },
                dark,
            );
            canvas.fill(
                Rect {
                    y0: deck.y1 - parapet,
                    ..deck
                },
                dark,
            );
        }
    }

    /// Roads: a band from each road cell's centre to each road neighbour,
    /// and off the table where a straight road runs to the edge.
    fn roads(&self, canvas: &mut Canvas) {
        let px = self.g.cell_px;
        let half = (px * 0.11).clamp(1.0, 9.0);
        let road = |x: i64, y: i64| self.cell(x, y).is_some_and(|c| c.road);
        let on_table = |x: i64, y: i64| self.cell(x, y).is_some();
        for (pass, (extra, colour)) in [(1.5, ROAD_EDGE), (0.0, ROAD_COLOUR)].into_iter().enumerate() {
            let h = if pass == 0 && half < 2.0 {
                half + 0.5
            } else {
                half + extra
            };
            for (x, y, cell) in self.each_cell() {
                if !cell.road {
                    continue;
                }
                let r = self.g.cell_rect(x, y);
                let (cx, cy) = ((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
                let hi = to_i64(h);
                let hub = rect(cx - hi, cy - hi, cx + hi + 1, cy + hi + 1);
                canvas.fill(hub, colour);
                let (xi, yi) = (i64::from(x), i64::from(y));
                let arm = |dx: i64, dy: i64| {
                    road(xi + dx, yi + dy) || (!on_table(xi + dx, yi + dy) && road(xi - dx, yi - dy))
                };
                if arm(-1, 0) {
                    canvas.fill(
                        Rect {
                            x0: r.x0,
                            x1: cx,
                            ..hub
                        },
                        colour,
                    );
                }
                if arm(1, 0) {
                    canvas.fill(
                        Rect {
                            x0: cx,
                            x1: r.x1,
                            ..hub
                        },
                        colour,
                    );
                }
                if arm(0, -1) {
                    canvas.fill(
                        Rect {
                            y0: r.y0,
                            y1: cy,
                            ..hub
                        },
                        colour,
                    );
                }
                if arm(0, 1) {
                    canvas.fill(
                        Rect {
                            y0: cy,
                            y1: r.y1,
                            ..hub
                        },
                        colour,
                    );
                }
            }
        }
    }

    /// Walls, hedges and entrenchments: a line round each group of cells
    /// with the same cover, entrenchments with hachures outward.
    fn covers(&self, canvas: &mut Canvas) {
        let px = self.g.cell_px;
        let width = (px * 0.07).clamp(2.0, 6.0);
        let inset = to_i64((px * 0.06).clamp(0.0, 6.0));
        for (x, y, cell) in self.each_cell() {
            let Some(cover) = cell.cover else { continue };
            let colour = cover_colour(cover);
            let (xi, yi) = (i64::from(x), i64::from(y));
            let open = |dx: i64, dy: i64| self.cell(xi + dx, yi + dy).is_none_or(|n| n.cover != Some(cover));
            // Inset from the group's outside edges only, so the line runs on
            // unbroken from cell to cell.
            let by = |dx: i64, dy: i64| if open(dx, dy) { inset } else { 0 };
            let r = self.g.cell_rect(x, y);
            let r = Rect {
                x0: r.x0 + by(-1, 0),
                y0: r.y0 + by(0, -1),
                x1: r.x1 - by(1, 0),
                y1: r.y1 - by(0, 1),
            };
            let w = to_i64(width);
            let sides = [
                (open(-1, 0), Rect { x1: r.x0 + w, ..r }, (-1, 0)),
                (open(1, 0), Rect { x0: r.x1 - w, ..r }, (1, 0)),
                (open(0, -1), Rect { y1: r.y0 + w, ..r }, (0, -1)),
                (open(0, 1), Rect { y0: r.y1 - w, ..r }, (0, 1)),
            ];
            for (is_edge, band, (dx, dy)) in sides {
                if !is_edge {
                    continue;
                }
                canvas.fill(band, colour);
                if cover == Cover::Entrenchment {
                    // Hachures: short ticks outward every few pixels.
                    let tick = (w * 3 / 2).max(3);
                    let step = (w * 2).max(6);
                    if dx != 0 {
                        let x0 = if dx < 0 { band.x0 - tick } else { band.x1 };
                        let mut yy = band.y0 + step / 2;
                        while yy + 1 < band.y1 {
                            canvas.fill(rect(x0, yy, x0 + tick, yy + 2), colour);
                            yy += step;
                        }
                    } else {
                        let y0 = if dy < 0 { band.y0 - tick } else { band.y1 };
                        let mut xx = band.x0 + step / 2;
                        while xx + 1 < band.x1 {
                            canvas.fill(rect(xx, y0, xx + 2, y0 + tick), colour);
                            xx += step;
                        }
                    }
                }
            }
        }
    }

    /// Grid games: a line along every cell boundary (every few, if cells are
    /// too small to show each).
    fn lines(&self, canvas: &mut Canvas) {
        if !self.t.grid || self.g.cell_px <= 0.0 {
            return;
        }
        let every = every_nth(self.g.cell_px, 6.0);
        let all = self.g.table_rect();
        let mut i: u64 = every;
        while i < u64::from(self.t.width) {
            let x = self.g.edge_x(i as f64);
            canvas.fill_alpha(
                Rect {
                    x0: x,
                    x1: x + 1,
                    ..all
                },
                [0, 0, 0],
                0.45,
            );
            i += every;
        }
        let mut j: u64 = every;
        while j < u64::from(self.t.depth) {
            let y = self.g.edge_y(j as f64);
            canvas.fill_alpha(
                Rect {
                    y0: y,
                    y1: y + 1,
                    ..all
                },
                [0, 0, 0],
                0.45,
            );
            j += every;
        }
    }
}

/// Calls `f(x, y, odd_row)` at lattice points `step` apart (on the whole
/// picture's lattice, so patterns run on across cells) inside `r`.
fn lattice(r: Rect, step: i64, mut f: impl FnMut(i64, i64, bool)) {
    if step <= 0 || r.x1 <= r.x0 || r.y1 <= r.y0 {
        return;
    }
    let mut y = r.y0 - r.y0.rem_euclid(step) + step / 2;
    while y < r.y1 {
        let odd = (y / step) % 2 == 1;
        let mut x = r.x0 - r.x0.rem_euclid(step) - step + step / 2;
        while x < r.x1 {
            f(x, y, odd);
            x += step;
        }
        y += step;
    }
}

/// The least whole `n` such that `n` steps of `size` pixels are at least `min` pixels.
fn every_nth(size: f64, min: f64) -> u64 {
    if size >= min {
        1
    } else if size > 0.0 {
        to_u64((min / size).ceil()).max(1)
    } else {
        u64::MAX
    }
}

fn frame(canvas: &mut Canvas, t: &PixelRect) {
    let w = i64::from(FRAME_WIDTH);
    let (x0, y0) = (i64::from(t.x), i64::from(t.y));
    let (x1, y1) = (x0 + i64::from(t.w), y0 + i64::from(t.h));
    let outer = rect(x0 - w, y0 - w, x1 + w, y1 + w);
    canvas.fill(Rect { y1: y0, ..outer }, FRAME);
    canvas.fill(Rect { y0: y1, ..outer }, FRAME);
    canvas.fill(Rect { x1: x0, ..outer }, FRAME);
    canvas.fill(Rect { x0: x1, ..outer }, FRAME);
}

/// Inch tables: ticks along every edge (every inch, longer every 6 and 12,
/// feet numbered on the top and left). Grid games: squares numbered along
/// the top and left, a tick at each boundary.
fn edge_marks(canvas: &mut Canvas, text: &Type, g: &Geometry, t: &Table) {
    let r = g.table_rect();
    let fw = i64::from(FRAME_WIDTH);
    let size = 15.0;
    if t.grid {
        let cell = g.cell_px;
        if cell <= 0.0 {
            return;
        }
        let widest = text.width(size, &t.width.max(t.depth).to_string()) + 6.0;
        let every = every_nth(cell, widest.max(14.0));
        let tick_every = every_nth(cell, 4.0);
        for (n, along_x) in [(t.width, true), (t.depth, false)] {
            let mut i: u64 = 0;
            while i <= u64::from(n) {
                let edge = if along_x {
                    g.edge_x(i as f64)
                } else {
                    g.edge_y(i as f64)
                };
                tick(canvas, &r, fw, along_x, edge, 6, 1);
                i = i.saturating_add(tick_every);
            }
            let mut i: u64 = 0;
            while i < u64::from(n) {
                let label = i.to_string();
                let mid = i as f64 + 0.5;
                let lw = text.width(size, &label);
                if along_x {
                    let x = g.x + mid * cell - lw / 2.0;
                    text.draw(canvas, x, g.y - 30.0, size, &label, INK, false);
                    text.draw(
                        canvas,
                        x,
                        g.y + f64::from(g.h_px) + 12.0,
                        size,
                        &label,
                        INK,
                        false,
                    );
                } else {
                    let y = g.y + mid * cell - size / 2.0 - 2.0;
                    text.draw(canvas, g.x - 12.0 - lw, y, size, &label, INK, false);
                    text.draw(
                        canvas,
                        g.x + f64::from(g.w_px) + 12.0,
                        y,
                        size,
                        &label,
                        INK,
                        false,
                    );
                }
                i = i.saturating_add(every);
            }
        }
        return;
    }
    let ppi = g.ppi;
    if ppi <= 0.0 {
        return;
    }
    // The step between ticks, in inches: 1, 6, 12, then 2, 5, 10, 20... feet.
    let steps = tick_steps(ppi, 4.0);
    let (w_in, d_in) = (
        f64::from(t.width) * g.cell_inches,
        f64::from(t.depth) * g.cell_inches,
    );
    let label_every = tick_steps(ppi, text.width(size, "88 ft") + 10.0)
        .into_iter()
        .find(|s| s % 12 == 0)
        .unwrap_or(12);
    for (len_in, along_x) in [(w_in, true), (d_in, false)] {
        let Some(&first) = steps.first() else { continue };
        let last = to_u64(len_in.floor());
        let mut i: u64 = 0;
        while i <= last {
            let (length, width) = if i.is_multiple_of(12) {
                (18, 2)
            } else if i.is_multiple_of(6) {
                (11, 1)
            } else {
                (6, 1)
            };
            let along = i as f64 * ppi;
            let edge = if along_x {
                to_i64(g.x + along.round())
            } else {
                to_i64(g.y + along.round())
            };
            tick(canvas, &r, fw, along_x, edge, length, width);
            if i.is_multiple_of(label_every) {
                let label = if i == 0 {
                    "0".to_owned()
                } else {
                    format!("{} ft", i / 12)
                };
                let lw = text.width(size, &label);
                if along_x {
                    text.draw(
                        canvas,
                        g.x + along - lw / 2.0,
                        g.y - 44.0,
                        size,
                        &label,
                        INK,
                        false,
                    );
                } else {
                    text.draw(
                        canvas,
                        g.x - 24.0 - lw,
                        g.y + along - size / 2.0 - 2.0,
                        size,
                        &label,
                        INK,
                        false,
                    );
                }
            }
            i = i.saturating_add(first);
        }
    }
}

/// Tick steps in inches (1, 6, 12, 24, 60, 120...) at least `min_px` apart,
/// smallest first; the first is the step of the finest ticks drawn.
fn tick_steps(ppi: f64, min_px: f64) -> Vec<u64> {
    let mut candidates = vec![1_u64, 6, 12, 24, 60];
    let mut feet: u64 = 10;
    while candidates.len() < 40 {
        for m in [1, 2, 5] {
            candidates.push(feet.saturating_mul(m).saturating_mul(12));
        }
        feet = feet.saturating_mul(10);
    }
    candidates
        .into_iter()
        .filter(|s| *s as f64 * ppi >= min_px)
        .collect()
}

/// A tick on the top and bottom (`along_x`) or left and right edges, outward
/// from the frame.
fn tick(canvas: &mut Canvas, r: &Rect, fw: i64, along_x: bool, at: i64, length: i64, width: i64) {
    // The frame's corners mark the ends.
    let (start, end) = if along_x { (r.x0, r.x1) } else { (r.y0, r.y1) };
    if (at - start).abs() <= fw || (at - end).abs() <= fw {
        return;
    }
    let half = width / 2;
    if along_x {
        let (x0, x1) = (at - half, at - half + width);
        canvas.fill(rect(x0, r.y0 - fw - length, x1, r.y0 - fw), FRAME);
        canvas.fill(rect(x0, r.y1 + fw, x1, r.y1 + fw + length), FRAME);
    } else {
        let (y0, y1) = (at - half, at - half + width);
        canvas.fill(rect(r.x0 - fw - length, y0, r.x0 - fw, y1), FRAME);
        canvas.fill(rect(r.x1 + fw, y0, r.x1 + fw + length, y1), FRAME);
    }
}

// ---------------------------------------------------------------------------
// Sides, zones, objectives, stands

/// An area clipped to the table.
fn clip_area(a: Area, t: &Table) -> Area {
    let x = a.x.min(t.width);
    let y = a.y.min(t.depth);
    Area {
        x,
        y,
        w: a.w.min(t.width - x),
        h: a.h.min(t.depth - y),
    }
}

fn zones(canvas: &mut Canvas, scenario: &Scenario, g: &Geometry) {
    let t = &scenario.table;
    for (i, side) in scenario.sides.iter().enumerate().take(MAX_SIDES) {
        let colour = side_colour(side.colour, i);
        for reserve in &side.reserves {
            let r = g.area_rect(&clip_area(reserve.area, t));
            zone(canvas, r, colour, 3, 8, 7);
        }
        let r = g.area_rect(&clip_area(side.deployment, t));
        zone(canvas, r, colour, 4, 18, 10);
    }
}

/// A dashed outline in the side's colour, with a translucent band inside it.
fn zone(canvas: &mut Canvas, r: Rect, colour: [u8; 3], thickness: i64, dash: i64, gap: i64) {
    if r.x1 <= r.x0 || r.y1 <= r.y0 {
        return;
    }
    let inset = rect(r.x0 + 2, r.y0 + 2, r.x1 - 2, r.y1 - 2);
    let band = 12;
    let inner = rect(
        inset.x0 + thickness,
        inset.y0 + thickness,
        inset.x1 - thickness,
        inset.y1 - thickness,
    );
    for strip in [
        Rect {
            y1: inner.y0 + band,
            ..inner
        },
        Rect {
            y0: inner.y1 - band,
            ..inner
        },
        Rect {
            x1: inner.x0 + band,
            y0: inner.y0 + band,
            y1: inner.y1 - band,
            ..inner
        },
        Rect {
            x0: inner.x1 - band,
            y0: inner.y0 + band,
            y1: inner.y1 - band,
            ..inner
        },
    ] {
        canvas.fill_alpha(strip, colour, 0.3);
    }
    canvas.dashed_rect(inset, thickness, dash, gap, colour);
}

fn objectives(canvas: &mut Canvas, scenario: &Scenario, g: &Geometry, labels: &mut Labels) {
    let t = &scenario.table;
    for o in scenario
        .objectives
        .iter()
        .filter(|o| o.x < t.width && o.y < t.depth)
    {
        let r = g.cell_rect(o.x, o.y);
        let w = to_i64((g.cell_px * 0.05).clamp(1.0, 4.0));
        canvas.outline(r, w + 2, FRAME);
        canvas.outline(rect(r.x0 + 1, r.y0 + 1, r.x1 - 1, r.y1 - 1), w, OBJECTIVE_GOLD);
        let (cx, cy, radius) = objective_star(g, r);
        star(canvas, (cx, cy), radius);
        labels.taken.push(rect(
            to_i64(cx - radius),
            to_i64(cy - radius),
            to_i64(cx + radius),
            to_i64(cy + radius),
        ));
    }
}

/// Where an objective's star goes: its cell's top-left corner, or the cell
/// centre when cells are small.
fn objective_star(g: &Geometry, r: Rect) -> (f64, f64, f64) {
    let radius = (g.cell_px * 0.16).clamp(7.0, 14.0);
    if g.cell_px >= radius * 4.0 {
        (r.x0 as f64 + radius + 4.0, r.y0 as f64 + radius + 4.0, radius)
    } else {
        ((r.x0 + r.x1) as f64 / 2.0, (r.y0 + r.y1) as f64 / 2.0, radius)
    }
}

fn star(canvas: &mut Canvas, c: (f64, f64), radius: f64) {
    let points: Vec<(f64, f64)> = (0..10)
        .map(|i| {
            let angle = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            let rr = if i % 2 == 0 { radius } else { radius * 0.45 };
            (c.0 + rr * angle.cos(), c.1 + rr * angle.sin())
        })
        .collect();
    let outline: Vec<(f64, f64)> = (0..10)
        .map(|i| {
            let angle = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            let rr = if i % 2 == 0 {
                radius + 2.5
            } else {
                radius * 0.45 + 1.8
            };
            (c.0 + rr * angle.cos(), c.1 + rr * angle.sin())
        })
        .collect();
    canvas.polygon(&outline, FRAME);
    canvas.polygon(&points, OBJECTIVE_GOLD);
}

/// The mark on a stand for its arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Mark {
    Infantry,
    MountedInfantry,
    Cavalry,
    Artillery,
    HorseArtillery,
    MachineGun,
    Command,
    Transport,
}

impl Mark {
    pub(crate) fn of(kind: StandKind) -> Mark {
        match kind {
            StandKind::LineInfantry
            | StandKind::LightInfantry
            | StandKind::GrenadierInfantry
            | StandKind::GuardInfantry
            | StandKind::NativeSpearmen
            | StandKind::NativeRiflemen
            | StandKind::NativeRegulars => Mark::Infantry,
            StandKind::MountedInfantry => Mark::MountedInfantry,
            StandKind::HeavyCavalry | StandKind::LightCavalry => Mark::Cavalry,
            StandKind::FootArtillery => Mark::Artillery,
            StandKind::HorseArtillery => Mark::HorseArtillery,
            StandKind::MachineGun => Mark::MachineGun,
            StandKind::Command => Mark::Command,
            StandKind::Transport => Mark::Transport,
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Mark::Infantry => "infantry",
            Mark::MountedInfantry => "mounted infantry",
            Mark::Cavalry => "cavalry",
            Mark::Artillery => "artillery",
            Mark::HorseArtillery => "horse artillery",
            Mark::MachineGun => "Maxim gun",
            Mark::Command => "command",
            Mark::Transport => "transport",
        }
    }
}

/// The letters after a stand's number on the picture that tell apart kinds
/// sharing one arm's mark (line, light, grenadier and guard infantry look
/// alike otherwise), with what they mean for the legend. Line infantry and
/// the kinds with a mark of their own have none. This program's own.
fn kind_code(kind: StandKind) -> Option<(&'static str, &'static str)> {
    match kind {
        StandKind::LightInfantry => Some(("Lt", "light infantry")),
        StandKind::GrenadierInfantry => Some(("Gr", "grenadiers")),
        StandKind::GuardInfantry => Some(("Gd", "guard")),
        StandKind::NativeSpearmen => Some(("Sp", "native spearmen")),
        StandKind::NativeRiflemen => Some(("Ri", "native riflemen")),
        StandKind::NativeRegulars => Some(("NR", "native regulars")),
        StandKind::HeavyCavalry => Some(("H", "heavy cavalry")),
        StandKind::LightCavalry => Some(("L", "light cavalry")),
        StandKind::LineInfantry
        | StandKind::MountedInfantry
        | StandKind::FootArtillery
        | StandKind::HorseArtillery
        | StandKind::MachineGun
        | StandKind::Command
        | StandKind::Transport => None,
    }
}

/// The words under a stand on the picture: its campaign id, then its kind's
/// letters if its mark is shared.
pub fn stand_tag(id: crate::model::StandId, kind: StandKind) -> String {
    match kind_code(kind) {
        Some((code, _)) => format!("{id} {code}"),
        None => id.to_string(),
    }
}

/// Where one stand starts, for drawing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StandStart {
    pub(crate) side: usize,
    pub(crate) id: crate::model::StandId,
    pub(crate) kind: StandKind,
    pub(crate) at: Point,
    pub(crate) reserve: bool,
    pub(crate) mark: Mark,
}

/// Where every stand starts, by the doctrine every rule set uses, on a copy
/// of the scenario whose areas are clipped to the table (so an area off the
/// table cannot make the doctrine walk billions of cells). Tables too large
/// to hold in cells have none drawn.
pub(crate) fn stand_starts(scenario: &Scenario) -> Vec<StandStart> {
    let t = &scenario.table;
    if u64::from(t.width) * u64::from(t.depth) > MAX_CELLS {
        return Vec::new();
    }
    let mut safe = scenario.clone();
    safe.sides.truncate(MAX_SIDES);
    for side in &mut safe.sides {
        side.deployment = clip_area(side.deployment, t);
        for reserve in &mut side.reserves {
            reserve.area = clip_area(reserve.area, t);
        }
    }
    let board = Board::new(&safe);
    (0..safe.sides.len())
        .flat_map(|side| {
            doctrine::starts(&board, &safe, side)
                .into_iter()
                .map(move |s| StandStart {
                    side,
                    id: s.stand.id,
                    kind: s.stand.kind,
                    at: s.at,
                    reserve: s.arrives > 0,
                    mark: Mark::of(s.stand.kind),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A stand's size in pixels: not to scale, but fitting a cell where it can.
fn stand_size(g: &Geometry) -> (f64, f64) {
    let w = (g.cell_px * 0.5).clamp(18.0, 44.0);
    (w, (w * 0.5).round().max(10.0))
}

fn stands(
    canvas: &mut Canvas,
    text: &Type,
    starts: &[StandStart],
    colours: &[[u8; 3]],
    g: &Geometry,
    labels: &mut Labels,
) {
    let (w, h) = stand_size(g);
    let (max_x, max_y) = (f64::from(g.w_px), f64::from(g.h_px));
    let mut seen: std::collections::HashMap<(i64, i64), u32> = std::collections::HashMap::new();
    for s in starts {
        let (cx, cy) = g.point(s.at);
        let (dx, dy) = (cx - g.x, cy - g.y);
        // Only stands on the table (the scenario's problems name the others).
        if !(dx >= 0.0 && dy >= 0.0 && dx < max_x && dy < max_y) {
            continue;
        }
        // Stands at the same place are fanned out so each shows.
        let stacked = seen.entry((to_i64(cx), to_i64(cy))).or_insert(0);
        let shift = f64::from((*stacked).min(8)) * 5.0;
        *stacked += 1;
        let (cx, cy) = (cx + shift, cy + shift);
        let r = rect(
            to_i64(cx - w / 2.0),
            to_i64(cy - h / 2.0),
            to_i64(cx + w / 2.0),
            to_i64(cy + h / 2.0),
        );
        let colour = colours.get(s.side).copied().unwrap_or(FRAME);
        draw_stand(canvas, r, s.mark, s.reserve, colour);
        labels.taken.push(r);
        // Its campaign id, to find it in the briefing, and its kind's letters
        // where its mark is shared: on every table, smaller where cells are.
        {
            let id = stand_tag(s.id, s.kind);
            let size = if g.cell_px >= 48.0 { 13.0 } else { 11.0 };
            let tw = text.width(size, &id);
            let (tx, ty) = (cx - tw / 2.0, r.y1 as f64 + 1.0);
            let b = rect(
                to_i64(tx - 2.0),
                to_i64(ty),
                to_i64(tx + tw + 2.0),
                to_i64(ty + size + 3.0),
            );
            canvas.fill_alpha(b, BACKGROUND, 0.7);
            text.draw(canvas, tx, ty, size, &id, INK, false);
            labels.taken.push(b);
        }
    }
}

/// A stand: a rectangle in its side's colour (hollow for reserves) with its
/// arm's mark.
fn draw_stand(canvas: &mut Canvas, r: Rect, mark: Mark, hollow: bool, colour: [u8; 3]) {
    let ink = if hollow {
        canvas.fill(r, BACKGROUND);
        canvas.outline(r, 3, colour);
        colour
    } else {
        canvas.fill(r, colour);
        canvas.outline(r, 1, mix(colour, [0, 0, 0], 0.5));
        contrast(colour)
    };
    let inset = if hollow { 5.0 } else { 3.0 };
    let (x0, y0, x1, y1) = (
        r.x0 as f64 + inset,
        r.y0 as f64 + inset,
        r.x1 as f64 - inset,
        r.y1 as f64 - inset,
    );
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let line = 2.0;
    let dot = ((y1 - y0) * 0.32).max(2.0);
    let x = |c: &mut Canvas| {
        c.line((x0, y0), (x1, y1), line, ink);
        c.line((x0, y1), (x1, y0), line, ink);
    };
    let slash = |c: &mut Canvas| c.line((x0, y1), (x1, y0), line, ink);
    match mark {
        Mark::Infantry => x(canvas),
        Mark::MountedInfantry => {
            x(canvas);
            canvas.line((x0, cy), (x1, cy), line, ink);
        }
        Mark::Cavalry => slash(canvas),
        Mark::Artillery => canvas.disc((cx, cy), dot, ink, None),
        Mark::HorseArtillery => {
            slash(canvas);
            canvas.disc((cx, cy), dot, ink, None);
        }
        Mark::MachineGun => {
            let d = dot * 1.3;
            canvas.polygon(&[(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], ink);
        }
        Mark::Command => {
            let pole = x0 + (x1 - x0) * 0.3;
            canvas.line((pole, y0), (pole, y1), line, ink);
            canvas.polygon(&[(pole, y0), (x1, (y0 + cy) / 2.0), (pole, cy + 1.0)], ink);
        }
        Mark::Transport => canvas.ring((cx, cy), dot + 1.0, 2.0, ink),
    }
}

fn zone_labels(canvas: &mut Canvas, text: &Type, scenario: &Scenario, g: &Geometry, labels: &mut Labels) {
    let t = &scenario.table;
    let size = 17.0;
    for (i, side) in scenario.sides.iter().enumerate().take(MAX_SIDES) {
        let colour = side_colour(side.colour, i);
        let role = match side.role {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        };
        let r = g.area_rect(&clip_area(side.deployment, t));
        if r.x1 > r.x0 && r.y1 > r.y0 {
            let label = format!("{} ({role}) deploys here", side.name);
            labels.place_in(canvas, text, r, size, &label, colour, g.table_rect());
        }
        for reserve in &side.reserves {
            let r = g.area_rect(&clip_area(reserve.area, t));
            if r.x1 > r.x0 && r.y1 > r.y0 {
                let label = format!("{} reserve, arrives turn {}", side.name, reserve.turn);
                labels.place_in(canvas, text, r, size, &label, colour, g.table_rect());
            }
        }
    }
}

fn objective_labels(
    canvas: &mut Canvas,
    text: &Type,
    scenario: &Scenario,
    g: &Geometry,
    labels: &mut Labels,
) {
    let t = &scenario.table;
    let size = 17.0;
    for o in scenario
        .objectives
        .iter()
        .filter(|o| o.x < t.width && o.y < t.depth)
    {
        let (cx, cy, radius) = objective_star(g, g.cell_rect(o.x, o.y));
        labels.place_near(
            canvas,
            text,
            (cx, cy),
            radius + 4.0,
            size,
            &o.name,
            INK,
            g.table_rect(),
        );
    }
}

/// Labels placed on the table, each where it overlaps no stand, star or
/// label already placed, if such a place is among its candidates.
#[derive(Debug, Default)]
struct Labels {
    taken: Vec<Rect>,
    placed: usize,
}

impl Labels {
    /// A label inside area `r`, in one of its corners or along its edges.
    #[allow(clippy::too_many_arguments)]
    fn place_in(
        &mut self,
        canvas: &mut Canvas,
        text: &Type,
        r: Rect,
        size: f64,
        label: &str,
        colour: [u8; 3],
        bounds: Rect,
    ) {
        let label = &text.fit(size, label, (bounds.x1 - bounds.x0 - 20) as f64);
        let (w, h) = label_box(text, size, label);
        let pad = 10.0;
        let (x0, y0, x1, y1) = (
            r.x0 as f64 + pad,
            r.y0 as f64 + pad,
            r.x1 as f64 - pad - w,
            r.y1 as f64 - pad - h,
        );
        let xm = (x0 + x1) / 2.0;
        let candidates = [
            (x0, y0),
            (xm, y0),
            (x1, y0),
            (x0, y1),
            (xm, y1),
            (x1, y1),
            (x0, (y0 + y1) / 2.0),
            (x1, (y0 + y1) / 2.0),
            (x0, r.y1 as f64 + 4.0),
            (x0, r.y0 as f64 - h - 4.0),
        ];
        self.place(canvas, text, &candidates, size, label, colour, bounds);
    }

    /// A label beside a point: right, left, below or above it.
    #[allow(clippy::too_many_arguments)]
    fn place_near(
        &mut self,
        canvas: &mut Canvas,
        text: &Type,
        at: (f64, f64),
        gap: f64,
        size: f64,
        label: &str,
        colour: [u8; 3],
        bounds: Rect,
    ) {
        let label = &text.fit(size, label, (bounds.x1 - bounds.x0 - 20) as f64);
        let (w, h) = label_box(text, size, label);
        let (x, y) = at;
        let candidates = [
            (x + gap, y - h / 2.0),
            (x - gap - w, y - h / 2.0),
            (x - w / 2.0, y + gap),
            (x - w / 2.0, y - gap - h),
            (x + gap, y + gap),
            (x + gap, y - gap - h),
            (x - gap - w, y + gap),
            (x - gap - w, y - gap - h),
        ];
        self.place(canvas, text, &candidates, size, label, colour, bounds);
    }

    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        canvas: &mut Canvas,
        text: &Type,
        candidates: &[(f64, f64)],
        size: f64,
        label: &str,
        colour: [u8; 3],
        bounds: Rect,
    ) {
        if self.placed >= MAX_LABELS || label.trim().is_empty() {
            return;
        }
        self.placed += 1;
        let (w, h) = label_box(text, size, label);
        let boxed = |(x, y): (f64, f64)| rect(to_i64(x), to_i64(y), to_i64(x + w), to_i64(y + h));
        let free = candidates.iter().copied().find(|c| {
            let b = boxed(*c);
            b.x0 >= bounds.x0
                && b.y0 >= bounds.y0
                && b.x1 <= bounds.x1
                && b.y1 <= bounds.y1
                && !self.taken.iter().any(|t| t.overlaps(&b))
        });
        let Some(at) = free.or_else(|| candidates.first().copied()) else {
            return;
        };
        let b = boxed(at);
        canvas.fill_alpha(b, BACKGROUND, 0.85);
        canvas.outline(b, 1, colour);
        text.draw(canvas, at.0 + 5.0, at.1 + 3.0, size, label, INK, false);
        self.taken.push(b);
    }
}

fn label_box(text: &Type, size: f64, label: &str) -> (f64, f64) {
    (text.width(size, label) + 10.0, size + 8.0)
}

// ---------------------------------------------------------------------------
// Legend

#[derive(Debug, Clone)]
enum Swatch {
    Feature(Feature),
    Side([u8; 3]),
    Zone([u8; 3]),
    Reserve,
    ReserveArea,
    Mark(Mark),
    Objective,
    /// A scale bar this many pixels long.
    Bar(f64),
    /// Words alone.
    Words,
}

#[derive(Debug, Clone)]
enum Line {
    Title(String),
    Text(String, [u8; 3]),
    Section(&'static str, Vec<(Swatch, String)>),
}

fn legend(scenario: &Scenario, cells: Option<&[Cell]>, starts: &[StandStart], g: &Geometry) -> Vec<Line> {
    let t = &scenario.table;
    let mut lines = vec![Line::Title(if scenario.title.trim().is_empty() {
        "Untitled battle".to_owned()
    } else {
        scenario.title.clone()
    })];
    let kind = if t.grid {
        format!(
            "a square grid of {} x {} squares of {} in",
            t.width,
            t.depth,
            inches(t.cell_inches)
        )
    } else {
        format!("inch scale, in cells of {} in", inches(t.cell_inches))
    };
    lines.push(Line::Text(
        format!(
            "Table {} x {} in ({}); rule set {}; {} turns. Squares and inches count from 0 at the top left.",
            inches(f64::from(t.width) * g.cell_inches),
            inches(f64::from(t.depth) * g.cell_inches),
            kind,
            scenario.rules,
            scenario.turn_limit
        ),
        INK,
    ));
    let problems = scenario.problems();
    if let Some(first) = problems.first() {
        let more = match problems.len() {
            1 => String::new(),
            n => format!(" (and {} more problems)", n - 1),
        };
        lines.push(Line::Text(
            format!("Not fit to fight: {first}{more}."),
            WARNING_INK,
        ));
    }
    if cells.is_none() {
        lines.push(Line::Text(
            "The table is too large to draw its terrain and stands.".to_owned(),
            WARNING_INK,
        ));
    }

    let mut terrain: Vec<Feature> = Vec::new();
    let mut levels: Vec<u8> = Vec::new();
    let (mut road, mut wall, mut trench) = (false, false, false);
    let mut grounds = [false; 9];
    for c in cells.into_iter().flatten() {
        if let Some(slot) = Ground::ALL
            .iter()
            .position(|g| *g == c.ground)
            .and_then(|i| grounds.get_mut(i))
        {
            *slot = true;
        }
        if c.level > 0 && !levels.contains(&c.level) {
            levels.push(c.level);
        }
        road |= c.road;
        wall |= c.cover == Some(Cover::WallOrHedge);
        trench |= c.cover == Some(Cover::Entrenchment);
    }
    levels.sort_unstable();
    terrain.extend(
        Ground::ALL
            .iter()
            .zip(grounds)
            .filter(|(g, present)| *present || **g == Ground::Open)
            .map(|(g, _)| Feature::Ground(*g)),
    );
    terrain.extend(levels.iter().map(|l| Feature::Hill(*l)));
    if road {
        terrain.push(Feature::Road);
    }
    if wall {
        terrain.push(Feature::Cover(Cover::WallOrHedge));
    }
    if trench {
        terrain.push(Feature::Cover(Cover::Entrenchment));
    }
    lines.push(Line::Section(
        "Terrain",
        terrain
            .into_iter()
            .map(|f| (Swatch::Feature(f), f.label()))
            .collect(),
    ));

    let mut sides: Vec<(Swatch, String)> = Vec::new();
    for (i, side) in scenario.sides.iter().enumerate().take(MAX_SIDES) {
        let role = match side.role {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        };
        sides.push((
            Swatch::Side(side_colour(side.colour, i)),
            format!("{} ({role})", side.name),
        ));
    }
    if scenario.sides.len() > MAX_SIDES {
        sides.push((
            Swatch::Side(FRAME),
            format!("{} more sides not drawn", scenario.sides.len() - MAX_SIDES),
        ));
    }
    if let Some(first) = scenario.sides.first() {
        sides.push((
            Swatch::Zone(side_colour(first.colour, 0)),
            "deployment zone".to_owned(),
        ));
    }
    if scenario.sides.iter().any(|s| !s.reserves.is_empty()) {
        sides.push((Swatch::ReserveArea, "reserve arrival area".to_owned()));
    }
    if !scenario.objectives.is_empty() {
        sides.push((Swatch::Objective, "objective".to_owned()));
    }
    lines.push(Line::Section("Sides", sides));

    let mut marks: Vec<Mark> = starts.iter().map(|s| s.mark).collect();
    marks.sort_unstable();
    marks.dedup();
    let mut stand_items: Vec<(Swatch, String)> = marks
        .into_iter()
        .map(|m| (Swatch::Mark(m), m.label().to_owned()))
        .collect();
    if starts.iter().any(|s| s.reserve) {
        stand_items.push((Swatch::Reserve, "reserve (hollow): comes on later".to_owned()));
    }
    if !starts.is_empty() {
        stand_items.push((
            Swatch::Words,
            "under each stand: its number in the briefing".to_owned(),
        ));
    }
    let mut codes: Vec<(&str, &str)> = starts.iter().filter_map(|s| kind_code(s.kind)).collect();
    codes.sort_unstable();
    codes.dedup();
    for (code, what) in codes {
        stand_items.push((Swatch::Words, format!("{code}: {what}")));
    }
    if !stand_items.is_empty() {
        stand_items.push((Swatch::Words, "stands are not to scale".to_owned()));
        lines.push(Line::Section("Stands", stand_items));
    }

    let mut scale = Vec::new();
    if let Some(step) = tick_steps(g.ppi, 120.0).first() {
        let bar = *step as f64 * g.ppi;
        let what = if step % 12 == 0 {
            format!("{} ft", step / 12)
        } else {
            format!("{step} in")
        };
        scale.push((Swatch::Bar(bar), what));
    }
    let ppi_words = if g.ppi >= 1.0 {
        format!("{} pixels to the inch", inches(g.ppi))
    } else {
        format!("1 pixel to {} in", inches(1.0 / g.ppi))
    };
    scale.push((Swatch::Words, ppi_words));
    if t.grid {
        scale.push((Swatch::Words, format!("a square is {} in", inches(t.cell_inches))));
    }
    lines.push(Line::Section("Scale", scale));
    lines
}

/// Inches as people write them: "6", "2.5".
fn inches(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let rounded = (v * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

const TITLE_SIZE: f64 = 30.0;
const LEGEND_SIZE: f64 = 19.0;
const HEADING_WIDTH: f64 = 110.0;
const SWATCH_W: f64 = 44.0;
const SWATCH_H: f64 = 24.0;
const ROW: f64 = 36.0;

#[derive(Debug)]
struct LegendLayout {
    /// What to draw, at offsets from the legend's top-left corner.
    parts: Vec<(f64, f64, Part)>,
    height: u32,
}

#[derive(Debug)]
enum Part {
    Text(String, f64, [u8; 3], bool),
    Swatch(Swatch),
}

fn layout_legend(text: &Type, lines: &[Line], width: u32) -> LegendLayout {
    let width = f64::from(width);
    let mut parts = Vec::new();
    let mut y = 0.0;
    for line in lines {
        match line {
            Line::Title(title) => {
                let title = text.fit(TITLE_SIZE, title, width);
                parts.push((0.0, y, Part::Text(title, TITLE_SIZE, INK, true)));
                y += TITLE_SIZE + 16.0;
            }
            Line::Text(words, colour) => {
                for row in text.wrap(LEGEND_SIZE, words, width) {
                    parts.push((0.0, y, Part::Text(row, LEGEND_SIZE, *colour, false)));
                    y += LEGEND_SIZE + 10.0;
                }
            }
            Line::Section(heading, items) => {
                y += 10.0;
                parts.push((
                    0.0,
                    y + 2.0,
                    Part::Text((*heading).to_owned(), LEGEND_SIZE, INK, true),
                ));
                let mut x = HEADING_WIDTH;
                for (swatch, label) in items {
                    let swatch_w = match swatch {
                        Swatch::Bar(len) => len.max(SWATCH_W),
                        Swatch::Words => -10.0,
                        _ => SWATCH_W,
                    };
                    let label = text.fit(LEGEND_SIZE, label, width - HEADING_WIDTH - swatch_w - 10.0);
                    let item_w = swatch_w + 10.0 + text.width(LEGEND_SIZE, &label);
                    if x > HEADING_WIDTH && x + item_w > width {
                        x = HEADING_WIDTH;
                        y += ROW;
                    }
                    if swatch_w > 0.0 {
                        parts.push((x, y, Part::Swatch(swatch.clone())));
                    }
                    parts.push((
                        x + swatch_w + 10.0,
                        y + 2.0,
                        Part::Text(label, LEGEND_SIZE, INK, false),
                    ));
                    x += item_w + 34.0;
                }
                y += ROW;
            }
        }
    }
    LegendLayout {
        parts,
        height: to_u32(y),
    }
}

fn draw_legend(canvas: &mut Canvas, text: &Type, layout: &LegendLayout, at: &PixelRect) {
    let (ox, oy) = (f64::from(at.x), f64::from(at.y));
    canvas.fill(
        rect(
            i64::from(at.x),
            i64::from(at.y) - 24,
            i64::from(at.x) + i64::from(at.w),
            i64::from(at.y) - 22,
        ),
        [180, 180, 180],
    );
    for (x, y, part) in &layout.parts {
        let (x, y) = (ox + x, oy + y);
        match part {
            Part::Text(words, size, colour, bold) => text.draw(canvas, x, y, *size, words, *colour, *bold),
            Part::Swatch(s) => swatch(canvas, s, x, y),
        }
    }
}

fn swatch(canvas: &mut Canvas, s: &Swatch, x: f64, y: f64) {
    let r = rect(to_i64(x), to_i64(y), to_i64(x + SWATCH_W), to_i64(y + SWATCH_H));
    let grey = [110, 110, 110];
    match s {
        Swatch::Feature(f) => {
            match f {
                Feature::Ground(_) | Feature::Hill(_) => canvas.fill(r, f.colour()),
                Feature::Road => {
                    canvas.fill(r, ground_colour(Ground::Open));
                    let mid = (r.y0 + r.y1) / 2;
                    canvas.fill(
                        Rect {
                            y0: mid - 5,
                            y1: mid + 5,
                            ..r
                        },
                        ROAD_EDGE,
                    );
                    canvas.fill(
                        Rect {
                            y0: mid - 3,
                            y1: mid + 3,
                            ..r
                        },
                        ROAD_COLOUR,
                    );
                }
                Feature::Cover(c) => {
                    canvas.fill(r, ground_colour(Ground::Open));
                    let mid = (r.y0 + r.y1) / 2;
                    canvas.fill(
                        Rect {
                            y0: mid - 2,
                            y1: mid + 2,
                            ..r
                        },
                        cover_colour(*c),
                    );
                    if *c == Cover::Entrenchment {
                        let mut xx = r.x0 + 3;
                        while xx < r.x1 - 1 {
                            canvas.fill(rect(xx, mid - 8, xx + 2, mid - 2), cover_colour(*c));
                            xx += 8;
                        }
                    }
                }
            }
            if let Feature::Hill(_) = f {
                canvas.fill(Rect { y1: r.y0 + 2, ..r }, CONTOUR_COLOUR);
            }
            canvas.outline(r, 1, grey);
        }
        Swatch::Side(c) => {
            canvas.fill(r, *c);
            canvas.outline(r, 1, mix(*c, [0, 0, 0], 0.5));
        }
        Swatch::Zone(c) => {
            canvas.fill(r, BACKGROUND);
            zone(canvas, rect(r.x0 - 2, r.y0 - 2, r.x1 + 2, r.y1 + 2), *c, 3, 8, 5);
        }
        Swatch::ReserveArea => {
            zone(
                canvas,
                rect(r.x0 - 2, r.y0 - 2, r.x1 + 2, r.y1 + 2),
                grey,
                3,
                6,
                5,
            );
        }
        Swatch::Reserve => draw_stand(canvas, r, Mark::Infantry, true, grey),
        Swatch::Mark(m) => draw_stand(canvas, r, *m, false, grey),
        Swatch::Objective => star(canvas, (x + SWATCH_W / 2.0, y + SWATCH_H / 2.0), 11.0),
        Swatch::Words => {}
        Swatch::Bar(len) => {
            let x1 = to_i64(x + len);
            let mid = (r.y0 + r.y1) / 2;
            canvas.fill(
                Rect {
                    x1,
                    y0: mid - 2,
                    y1: mid + 2,
                    ..r
                },
                FRAME,
            );
            canvas.fill(Rect { x1: r.x0 + 2, ..r }, FRAME);
            canvas.fill(Rect { x0: x1 - 2, x1, ..r }, FRAME);
        }
    }
}

// ---------------------------------------------------------------------------
// Text

/// Text set in egui's own font (Ubuntu Light), rasterised by ab_glyph.
struct Type {
    font: Option<FontRef<'static>>,
}

impl Type {
    fn new() -> Type {
        Type {
            font: FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).ok(),
        }
    }

    fn width(&self, size: f64, words: &str) -> f64 {
        let Some(font) = &self.font else { return 0.0 };
        let scaled = font.as_scaled(PxScale::from(to_f32(size)));
        let mut w = 0.0_f32;
        let mut last = None;
        for ch in words.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(prev) = last {
                w += scaled.kern(prev, id);
            }
            w += scaled.h_advance(id);
            last = Some(id);
        }
        f64::from(w)
    }

    /// `words` cut short with an ellipsis to fit `max` pixels.
    fn fit(&self, size: f64, words: &str, max: f64) -> String {
        if self.width(size, words) <= max {
            return words.to_owned();
        }
        // One pass, adding each character's width (kerning ignored), so a
        // long text costs time in proportion to its length.
        let room = max - self.width(size, "…");
        let mut out = String::new();
        let mut used = 0.0;
        for ch in words.chars() {
            used += self.width(size, ch.encode_utf8(&mut [0; 4]));
            if used > room {
                break;
            }
            out.push(ch);
        }
        out.push('…');
        out
    }

    /// `words` broken into rows of at most `max` pixels.
    fn wrap(&self, size: f64, words: &str, max: f64) -> Vec<String> {
        let mut rows: Vec<String> = Vec::new();
        let mut row = String::new();
        for word in words.split_whitespace() {
            let candidate = if row.is_empty() {
                word.to_owned()
            } else {
                format!("{row} {word}")
            };
            if self.width(size, &candidate) > max && !row.is_empty() {
                rows.push(std::mem::take(&mut row));
                row = word.to_owned();
            } else {
                row = candidate;
            }
            if rows.len() > 50 {
                break;
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
        rows.into_iter().map(|r| self.fit(size, &r, max)).collect()
    }

    /// Draws `words` with the top of the line at `y`.
    #[allow(clippy::too_many_arguments)]
    fn draw(&self, canvas: &mut Canvas, x: f64, y: f64, size: f64, words: &str, colour: [u8; 3], bold: bool) {
        let Some(font) = &self.font else { return };
        let scale = PxScale::from(to_f32(size));
        let scaled = font.as_scaled(scale);
        let baseline = to_f32(y) + scaled.ascent();
        let passes: &[f32] = if bold { &[0.0, 0.6] } else { &[0.0, 0.25] };
        let mut caret = to_f32(x);
        let mut last = None;
        for ch in words.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(prev) = last {
                caret += scaled.kern(prev, id);
            }
            for dx in passes {
                let glyph = id.with_scale_and_position(scale, point(caret + dx, baseline));
                if let Some(outlined) = font.outline_glyph(glyph) {
                    let b = outlined.px_bounds();
                    let (bx, by) = (to_i64(f64::from(b.min.x)), to_i64(f64::from(b.min.y)));
                    outlined.draw(|gx, gy, c| {
                        canvas.blend(bx + i64::from(gx), by + i64::from(gy), colour, f64::from(c));
                    });
                }
            }
            caret += scaled.h_advance(id);
            last = Some(id);
        }
    }
}

// ---------------------------------------------------------------------------
// Pixels

/// A rectangle of pixels, `x0..x1` by `y0..y1`, possibly off the picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

/// A rectangle from its corners.
fn rect(x0: i64, y0: i64, x1: i64, y1: i64) -> Rect {
    Rect { x0, y0, x1, y1 }
}

impl Rect {
    fn clip(self, to: Rect) -> Rect {
        rect(
            self.x0.max(to.x0),
            self.y0.max(to.y0),
            self.x1.min(to.x1),
            self.y1.min(to.y1),
        )
    }

    fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }
}

struct Canvas {
    img: RgbImage,
}

impl Canvas {
    fn bounds(&self) -> Rect {
        rect(0, 0, i64::from(self.img.width()), i64::from(self.img.height()))
    }

    fn pixel(&mut self, x: i64, y: i64) -> Option<&mut Rgb<u8>> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        self.img.get_pixel_mut_checked(x, y)
    }

    fn blend(&mut self, x: i64, y: i64, colour: [u8; 3], alpha: f64) {
        let alpha = alpha.clamp(0.0, 1.0);
        if let Some(p) = self.pixel(x, y) {
            p.0 = mix(p.0, colour, alpha);
        }
    }

    fn fill(&mut self, r: Rect, colour: [u8; 3]) {
        let r = r.clip(self.bounds());
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                if let Some(p) = self.pixel(x, y) {
                    p.0 = colour;
                }
            }
        }
    }

    fn fill_alpha(&mut self, r: Rect, colour: [u8; 3], alpha: f64) {
        let r = r.clip(self.bounds());
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                self.blend(x, y, colour, alpha);
            }
        }
    }

    /// A border `width` pixels wide inside `r`.
    fn outline(&mut self, r: Rect, width: i64, colour: [u8; 3]) {
        self.fill(
            Rect {
                y1: r.y0 + width,
                ..r
            },
            colour,
        );
        self.fill(
            Rect {
                y0: r.y1 - width,
                ..r
            },
            colour,
        );
        self.fill(
            Rect {
                x1: r.x0 + width,
                ..r
            },
            colour,
        );
        self.fill(
            Rect {
                x0: r.x1 - width,
                ..r
            },
            colour,
        );
    }

    fn dashed_rect(&mut self, r: Rect, width: i64, dash: i64, gap: i64, colour: [u8; 3]) {
        let period = (dash + gap).max(1);
        let on = |i: i64| i.rem_euclid(period) < dash;
        let r = r.clip(rect(
            self.bounds().x0 - period,
            self.bounds().y0 - period,
            self.bounds().x1 + period,
            self.bounds().y1 + period,
        ));
        for x in r.x0..r.x1 {
            if on(x - r.x0) {
                self.fill(rect(x, r.y0, x + 1, r.y0 + width), colour);
                self.fill(rect(x, r.y1 - width, x + 1, r.y1), colour);
            }
        }
        for y in r.y0..r.y1 {
            if on(y - r.y0) {
                self.fill(rect(r.x0, y, r.x0 + width, y + 1), colour);
                self.fill(rect(r.x1 - width, y, r.x1, y + 1), colour);
            }
        }
    }

    /// The pixels within `extra` of a shape's bounding box, clipped to the picture.
    fn around(&self, x0: f64, y0: f64, x1: f64, y1: f64, extra: f64) -> Rect {
        rect(
            to_i64((x0.min(x1) - extra).floor()),
            to_i64((y0.min(y1) - extra).floor()),
            to_i64((x0.max(x1) + extra).ceil()) + 1,
            to_i64((y0.max(y1) + extra).ceil()) + 1,
        )
        .clip(self.bounds())
    }

    /// A straight line `width` pixels wide, smoothed at its edges.
    fn line(&mut self, a: (f64, f64), b: (f64, f64), width: f64, colour: [u8; 3]) {
        let r = self.around(a.0, a.1, b.0, b.1, width + 1.0);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let t = if len2 > 0.0 {
                    (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (qx, qy) = (a.0 + t * dx - px, a.1 + t * dy - py);
                let d = (qx * qx + qy * qy).sqrt();
                let cover = width / 2.0 + 0.5 - d;
                if cover > 0.0 {
                    self.blend(x, y, colour, cover);
                }
            }
        }
    }

    /// A filled circle, smoothed, optionally kept inside `within`.
    fn disc(&mut self, c: (f64, f64), radius: f64, colour: [u8; 3], within: Option<Rect>) {
        let mut r = self.around(c.0, c.1, c.0, c.1, radius + 1.0);
        if let Some(w) = within {
            r = r.clip(w);
        }
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let d = ((x as f64 + 0.5 - c.0).powi(2) + (y as f64 + 0.5 - c.1).powi(2)).sqrt();
                let cover = radius + 0.5 - d;
                if cover > 0.0 {
                    self.blend(x, y, colour, cover);
                }
            }
        }
    }

    fn ring(&mut self, c: (f64, f64), radius: f64, width: f64, colour: [u8; 3]) {
        let r = self.around(c.0, c.1, c.0, c.1, radius + width);
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let d = ((x as f64 + 0.5 - c.0).powi(2) + (y as f64 + 0.5 - c.1).powi(2)).sqrt();
                let cover = width / 2.0 + 0.5 - (d - radius).abs();
                if cover > 0.0 {
                    self.blend(x, y, colour, cover);
                }
            }
        }
    }

    /// A filled polygon (even-odd rule, pixel centres).
    fn polygon(&mut self, points: &[(f64, f64)], colour: [u8; 3]) {
        let (Some(min_x), Some(max_x), Some(min_y), Some(max_y)) = (
            points.iter().map(|p| p.0).min_by(f64::total_cmp),
            points.iter().map(|p| p.0).max_by(f64::total_cmp),
            points.iter().map(|p| p.1).min_by(f64::total_cmp),
            points.iter().map(|p| p.1).max_by(f64::total_cmp),
        ) else {
            return;
        };
        let r = self.around(min_x, min_y, max_x, max_y, 1.0);
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let mut inside = false;
                for (a, b) in points.iter().zip(points.iter().cycle().skip(1)) {
                    if (a.1 > py) != (b.1 > py) && px < a.0 + (py - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                        inside = !inside;
                    }
                }
                if inside && let Some(p) = self.pixel(x, y) {
                    p.0 = colour;
                }
            }
        }
    }
}

/// `a` moved toward `b` by `t` (0 to 1).
fn mix(a: [u8; 3], b: [u8; 3], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| to_u8(f64::from(x) + (f64::from(y) - f64::from(x)) * t);
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

/// Black or white, whichever reads better on `c`.
fn contrast(c: [u8; 3]) -> [u8; 3] {
    let [r, g, b] = c;
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma > 150.0 { [0, 0, 0] } else { [255, 255, 255] }
}

#[allow(clippy::cast_possible_truncation)]
fn to_i64(v: f64) -> i64 {
    v.round() as i64 // saturating; NaN gives 0
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn to_u32(v: f64) -> u32 {
    v.round().clamp(0.0, f64::from(u32::MAX)) as u32 // NaN gives 0
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn to_u64(v: f64) -> u64 {
    v.round().max(0.0) as u64 // saturating; NaN gives 0
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn to_u8(v: f64) -> u8 {
    v.round().clamp(0.0, 255.0) as u8
}

#[allow(clippy::cast_possible_truncation)]
fn to_f32(v: f64) -> f32 {
    v as f32
}
