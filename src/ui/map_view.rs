//! The strategic map: regions by terrain, roads by kind with their river
//! crossings, HQ flags, force counters, overlays, pan and zoom, and orders
//! given by clicking or dragging.
//!
//! Speed: what never changes during a session (region positions, road ends,
//! colours, a grid of map cells for culling) is built once into a
//! [`Geometry`]; what changes with the campaign (counters, flags, supply
//! lines) is rebuilt only when the session's revision moves. Each frame
//! culls to the visible cells and writes the many small shapes (territories
//! and waters from `map_shapes`, roads, small counters) into one reused mesh,
//! so a frame allocates nothing in proportion to the map.

use super::command::{Command, Selection};
use super::labels;
use super::map_shapes::{self, Shapes};
use super::text::{forecast_text, march_words, plural, side_colour, supply_text, where_is};
use super::view::Scene;
use super::{session, theme};
use crate::model::{Campaign, Conveyance, ForceId, RegionId, RiverCrossing, RoadKind, StandingOrder};
use crate::strategy::{self, Action, MarchForecast, Order, OrderRequest, SupplyLine};
use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{
    Align2, Color32, FontId, Painter, PointerButton, Pos2, Rect, Response, Sense, Shape, Stroke, StrokeKind,
    Ui, Vec2, pos2, vec2,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Where the map is looked at from: the map point at the centre of the view
/// (miles east and south of the map's corner) and pixels per mile.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    pub center: [f32; 2],
    pub zoom: f32,
}

/// What the user has switched on over the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overlays {
    pub supply: bool,
    pub forecast: bool,
    pub battles: bool,
    pub names: bool,
    pub background: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            supply: false,
            forecast: true,
            battles: true,
            names: true,
            background: true,
        }
    }
}

const MIN_ZOOM: f32 = 0.01;
/// The margin round the regions that zoom to fit leaves, as a share of the
/// map's longer side (the counters above and the names below a region need it).
const FIT_MARGIN_SHARE: f32 = 0.04;
const MAX_ZOOM: f32 = 200.0;
/// Maps with at most this many regions always show names, centres and full counters.
const SMALL_MAP: usize = 300;
/// Size of a force counter at full size, in points.
const COUNTER: Vec2 = vec2(30.0, 18.0);

/// The map as fixed for the session.
#[derive(Debug)]
struct Geometry {
    /// Which campaign map it was built for: (save path, region count).
    key: (std::path::PathBuf, usize),
    pos: Vec<Pos2>,
    radius: Vec<f32>,
    fill: Vec<Color32>,
    /// Label priority: towns and HQs first.
    rank: Vec<u8>,
    roads: Vec<RoadGeom>,
    by_id: HashMap<RegionId, usize>,
    bounds: Rect,
    /// Median distance between neighbouring regions, in miles.
    spacing: f32,
    grid: CellGrid,
    /// The regions' territories and the map's waters (`map_shapes`).
    shapes: Shapes,
}

#[derive(Debug, Clone, Copy)]
struct RoadGeom {
    a: u32,
    b: u32,
    kind: RoadKind,
    river: Option<RiverCrossing>,
}

/// Regions and roads bucketed by square cells of the map, for culling.
#[derive(Debug, Default)]
struct CellGrid {
    origin: Pos2,
    cell: f32,
    cols: usize,
    rows: usize,
    regions: Vec<Vec<u32>>,
    roads: Vec<Vec<u32>>,
}

impl CellGrid {
    fn cell_of(&self, p: Pos2) -> (usize, usize) {
        let c = cell_number((p.x - self.origin.x) / self.cell);
        let r = cell_number((p.y - self.origin.y) / self.cell);
        (
            c.min(self.cols.saturating_sub(1)),
            r.min(self.rows.saturating_sub(1)),
        )
    }

    /// Cells overlapping `area`, as (col range, row range).
    fn span(&self, area: Rect) -> (std::ops::RangeInclusive<usize>, std::ops::RangeInclusive<usize>) {
        let (c0, r0) = self.cell_of(area.min);
        let (c1, r1) = self.cell_of(area.max);
        (c0..=c1, r0..=r1)
    }
}

/// What the campaign puts on the map now; rebuilt when it changes.
#[derive(Debug, Default)]
struct Layout {
    revision: u64,
    counters: Vec<Counter>,
    flags: Vec<Flag>,
    battles: Vec<(Pos2, u32, Vec<Pos2>)>,
    /// Routes of marching forces: force index, region path (first is where it is), forced, given this move.
    /// Each marching force's route: force, regions, forced, how it goes, given this move.
    routes: Vec<(usize, Vec<usize>, bool, Conveyance, bool)>,
    /// The counters in one spot, by `Counter::spot`: how many, and what the
    /// stack's one counter says and is coloured while it is not spread out.
    stacks: Vec<Stack>,
    /// By region: the points of the forces seen standing there (a blind or
    /// a force not made out counts one), for the names' priority.
    weight: Vec<u64>,
}

/// A name's claim to its place, highest first when sorted: always shown
/// (under the pointer or selected), then the region's rank (HQ, town), then
/// the points of the forces seen there.
type LabelPriority = std::cmp::Reverse<(bool, u8, u64)>;

/// What the names need besides the map: the campaign, the counters' scale,
/// and the regions under the pointer and selected (always named).
struct Names<'a> {
    campaign: &'a Campaign,
    scale: f32,
    hovered: Option<usize>,
    selected: Option<usize>,
}

/// Two or more counters in one spot, drawn as one counter (the number of
/// forces and their points together) until the pointer is over it or one of
/// them is selected or dragged; then spread out, each its own counter.
#[derive(Debug, Default, Clone)]
struct Stack {
    size: usize,
    text: String,
    colour: Color32,
    ink: Color32,
}

#[derive(Debug, Clone)]
struct Counter {
    force: usize,
    world: Pos2,
    /// Place in the stack of counters in one spot, from 0.
    stack: usize,
    /// The stack it is in ([`Layout::stacks`]).
    spot: usize,
    colour: Color32,
    text: String,
    /// The colour of its text and edge, and whether it is a blind (drawn pale, edged in its side's colour).
    ink: Color32,
    blind: bool,
}

#[derive(Debug)]
struct Flag {
    world: Pos2,
    holder: Color32,
    owner: Color32,
    captured: bool,
}

/// Supply traced from where the forces stand, per revision.
#[derive(Debug, Default)]
struct SupplyView {
    revision: u64,
    lines: Vec<SupplyLine>,
    /// Each road of a supply line once: (region, region, side colour, cut).
    edges: Vec<(u32, u32, Color32, bool)>,
    cut_regions: Vec<u32>,
    /// By force index: (supplied, moves before losses).
    by_force: HashMap<usize, (bool, u32)>,
    /// Ids of the forces cut off, as marked.
    cut_forces: Vec<String>,
}

/// A march the user is pointing at, before it is ordered.
#[derive(Debug, Clone)]
struct Preview {
    key: (u64, ForceId, usize, bool, Conveyance),
    path: Vec<usize>,
    forecast: Option<MarchForecast>,
    problem: Option<String>,
}

/// The map widget's state.
#[derive(Debug)]
pub struct MapView {
    pub camera: Option<Camera>,
    geometry: Option<Geometry>,
    layout: Layout,
    supply: SupplyView,
    preview: Option<Preview>,
    /// The forecast of a force's route, kept until the campaign changes.
    route_forecast: Option<((u64, ForceId), Option<MarchForecast>)>,
    /// Reused meshes: the map's base, the counters and the supply lines, two of each so that
    /// one may still be held by the last frame's output while the other is filled.
    meshes: [Arc<Mesh>; 6],
    /// Per-road stamp of the frame it was last drawn in, so roads in several cells draw once.
    stamps: Vec<u32>,
    frame: u32,
    /// The label placer and its buffers, reused from frame to frame.
    labels: labels::Placer,
    label_order: Vec<(LabelPriority, u32)>,
    label_wanted: Vec<labels::Wanted>,
    label_places: Vec<Option<Rect>>,
    /// The names drawn last frame: region index and rectangle on screen.
    shown_labels: Vec<(u32, Rect)>,
    dragging: Option<usize>,
    /// The stack spread out this frame, if any ([`Stack`]).
    spread: Option<usize>,
    fit_next: bool,
    /// Screen position of each region last frame, for tests and tools.
    last_rect: Rect,
    background: Option<Background>,
    /// The background belongs to another map than the one shown (a report's).
    background_hidden: bool,
}

/// The picture under the map and the map rectangle (in miles) it covers.
struct Background(egui::TextureHandle, Rect);

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Background")
            .field(&self.0.id())
            .field(&self.1)
            .finish()
    }
}

impl Default for MapView {
    fn default() -> Self {
        MapView {
            camera: None,
            geometry: None,
            layout: Layout::default(),
            supply: SupplyView::default(),
            preview: None,
            route_forecast: None,
            meshes: Default::default(),
            stamps: Vec::new(),
            frame: 0,
            labels: labels::Placer::default(),
            label_order: Vec::new(),
            label_wanted: Vec::new(),
            label_places: Vec::new(),
            shown_labels: Vec::new(),
            dragging: None,
            spread: None,
            fit_next: false,
            last_rect: Rect::NOTHING,
            background: None,
            background_hidden: false,
        }
    }
}

/// What the map needs from the window each frame.
#[derive(Debug)]
pub struct MapInput<'a> {
    /// The campaign as the viewer knows it, and the orders given.
    pub scene: Scene<'a>,
    pub selection: &'a mut Selection,
    pub overlays: Overlays,
    pub forced: bool,
    /// Orders given on the map go on foot, by train or by steamer.
    pub by: Conveyance,
    /// The pencil's reason, for a counter Alt-dragged by the umpire.
    pub pencil_reason: &'a str,
    pub commands: &'a mut Vec<Command>,
}

impl MapView {
    /// Forgets the map, for another campaign.
    pub fn reset(&mut self) {
        let camera = self.camera;
        *self = MapView::default();
        self.camera = camera;
    }

    /// Forgets what was drawn for the campaign (counters, routes, supply,
    /// forecasts), keeping the map, the camera and the background: for
    /// another view of the same map.
    pub fn redraw(&mut self) {
        self.layout = Layout::default();
        self.supply = SupplyView::default();
        self.preview = None;
        self.route_forecast = None;
        self.dragging = None;
    }

    /// Centres the view on a region at `zoom` pixels per mile; false before
    /// the map has been drawn once or for an unknown region.
    pub fn look_at(&mut self, region: &RegionId, zoom: f32) -> bool {
        let Some(p) = self
            .geometry
            .as_ref()
            .and_then(|g| g.pos.get(*g.by_id.get(region)?))
        else {
            return false;
        };
        self.camera = Some(Camera {
            center: [p.x, p.y],
            zoom: zoom.clamp(MIN_ZOOM, MAX_ZOOM),
        });
        self.fit_next = false;
        true
    }

    pub fn zoom_to_fit(&mut self) {
        self.fit_next = true;
    }

    /// Sets the picture drawn under the map, covering `world` (in miles).
    pub fn set_background(&mut self, texture: egui::TextureHandle, world: Rect) {
        self.background = Some(Background(texture, world));
    }

    pub fn has_background(&self) -> bool {
        self.background.is_some() && !self.background_hidden
    }

    /// How many region territories the map draws (one per region), once it has been drawn.
    pub fn territories(&self) -> usize {
        self.geometry.as_ref().map_or(0, |g| g.shapes.territories())
    }

    /// Hides the background picture (kept for the save) while another map is shown.
    pub fn hide_background(&mut self, hide: bool) {
        self.background_hidden = hide;
    }

    /// Where a region is on screen now, if the map has been drawn.
    pub fn screen_pos(&self, region: &RegionId) -> Option<Pos2> {
        let g = self.geometry.as_ref()?;
        let camera = self.camera?;
        let i = *g.by_id.get(region)?;
        Some(to_screen(camera, self.last_rect, *g.pos.get(i)?))
    }

    /// Where a region's name was drawn on screen last frame; `None`: hidden.
    pub fn label_rect(&self, region: &RegionId) -> Option<Rect> {
        let i = *self.geometry.as_ref()?.by_id.get(region)?;
        self.shown_labels
            .iter()
            .find(|(r, _)| *r as usize == i)
            .map(|(_, rect)| *rect)
    }

    /// Where a force's counter is on screen now.
    pub fn counter_pos(&self, force: &ForceId, campaign: &Campaign) -> Option<Pos2> {
        let camera = self.camera?;
        let i = campaign.forces.iter().position(|f| &f.id == force)?;
        let c = self.layout.counters.iter().find(|c| c.force == i)?;
        let scale = self.counter_scale(camera.zoom);
        Some(counter_rect(camera, self.last_rect, c, scale).center())
    }

    /// Whether a force's counter is drawn as it was last drawn ([`shown`]).
    pub fn counter_shown(&self, force: &ForceId, campaign: &Campaign) -> Option<bool> {
        let i = campaign.forces.iter().position(|f| &f.id == force)?;
        let c = self.layout.counters.iter().find(|c| c.force == i)?;
        Some(shown(&self.layout, self.spread, c))
    }

    /// The forecast of the route a force is on (its order this move, else its
    /// standing order), computed once per change of the campaign.
    pub fn route_forecast(&mut self, scene: &Scene<'_>, force: &ForceId) -> Option<MarchForecast> {
        let key = (scene.revision, force.clone());
        if let Some((k, forecast)) = &self.route_forecast
            && *k == key
        {
            return forecast.clone();
        }
        let campaign = scene.campaign;
        let forecast = campaign.force(force).and_then(|f| {
            let (path, forced, by) = match scene.ordered_march(force) {
                Some((path, forced, by)) => (path.to_vec(), forced, by),
                None => match &f.order {
                    StandingOrder::March { path, forced, by } => (path.clone(), *forced, *by),
                    StandingOrder::Hold => return None,
                },
            };
            strategy::journey_forecast(campaign, f, &path, forced, by)
        });
        self.route_forecast = Some((key, forecast.clone()));
        forecast
    }

    /// Forces the supply overlay marks as cut off, as last drawn.
    pub fn cut_off_forces(&self) -> Vec<String> {
        self.supply.cut_forces.clone()
    }

    /// The supply line of a force, when the supply overlay has traced it.
    pub fn supply_line(&self, force: &ForceId) -> Option<&SupplyLine> {
        self.supply.lines.iter().find(|l| &l.force == force)
    }

    fn counter_scale(&self, zoom: f32) -> f32 {
        let spacing = self.geometry.as_ref().map_or(10.0, |g| g.spacing);
        let smallest = if self.small_map() { 0.7 } else { 0.25 };
        (spacing * zoom / 40.0).clamp(smallest, 1.0)
    }

    /// A map small enough to show every name and counter in full when zoomed out.
    fn small_map(&self) -> bool {
        self.geometry.as_ref().is_some_and(|g| g.pos.len() <= SMALL_MAP)
    }

    /// Draws the map filling `ui` and handles its input.
    pub fn map_ui(&mut self, ui: &mut Ui, mut input: MapInput<'_>) -> Response {
        let campaign = input.scene.campaign;
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Campaign map"));
        self.last_rect = rect;
        self.frame = self.frame.wrapping_add(1);
        self.ensure_geometry(&input.scene);
        self.ensure_layout(&input.scene);
        if input.overlays.supply {
            self.ensure_supply(&input.scene);
        }
        let Some(g) = self.geometry.as_ref() else {
            return response;
        };
        if self.fit_next || self.camera.is_none_or(|c| !c.zoom.is_finite() || c.zoom <= 0.0) {
            self.camera = Some(fit(g.bounds, rect));
            self.fit_next = false;
        }
        let mut camera = self.camera.unwrap_or(fit(g.bounds, rect));
        pan_and_zoom(ui, &response, rect, &mut camera, self.dragging.is_some());
        self.camera = Some(camera);

        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, theme::MAP_GROUND);
        let picture = input.overlays.background && !self.background_hidden && self.background.is_some();
        if picture && let Some(Background(texture, world)) = &self.background {
            let screen = Rect::from_min_max(
                to_screen(camera, rect, world.min),
                to_screen(camera, rect, world.max),
            );
            painter.image(
                texture.id(),
                screen,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        }

        let scale = self.counter_scale(camera.zoom);
        let selected = match &*input.selection {
            Selection::Force(id) => campaign.forces.iter().position(|f| &f.id == id),
            _ => None,
        };
        self.spread = self.spread_now(camera, rect, response.hover_pos(), scale, selected);
        let hit = response
            .hover_pos()
            .and_then(|p| self.hit(camera, rect, p, scale));
        self.handle_input(&response, &mut input, camera, rect, hit, scale);

        self.paint_base(&painter, camera, rect, picture);
        if input.overlays.supply {
            self.paint_supply(&painter, camera, rect);
        }
        let forecast = match (&*input.selection, input.overlays.forecast) {
            (Selection::Force(id), true) => self.route_forecast(&input.scene, id),
            _ => None,
        };
        self.paint_routes(&painter, camera, rect, &input, forecast.as_ref());
        if input.overlays.names {
            let names = Names {
                campaign,
                scale,
                hovered: match hit {
                    Some(Hit::Region(r)) => Some(r),
                    _ => None,
                },
                selected: match &*input.selection {
                    Selection::Region(id) => self.region_index(id),
                    _ => None,
                },
            };
            self.paint_names(&painter, camera, rect, names);
        } else {
            self.shown_labels.clear();
        }
        self.paint_flags(&painter, camera, rect);
        self.paint_counters(&painter, camera, rect, &input, scale);
        if input.overlays.battles {
            self.paint_battles(&painter, camera, rect);
        }
        self.paint_preview(&painter, camera, rect, &input, hit);
        paint_scale_bar(&painter, rect, camera.zoom);

        match hit {
            Some(hit) if self.dragging.is_none() => response.on_hover_ui_at_pointer(|ui| {
                self.tooltip_ui(ui, &input.scene, hit, input.overlays);
            }),
            _ => response,
        }
    }

    fn ensure_geometry(&mut self, scene: &Scene<'_>) {
        let campaign = scene.campaign;
        let key = (scene.source.to_owned(), campaign.map.regions.len());
        if self.geometry.as_ref().is_some_and(|g| g.key == key) {
            return;
        }
        self.geometry = Some(build_geometry(campaign, key));
        self.layout = Layout::default();
        self.supply = SupplyView::default();
        self.preview = None;
        if self.camera.is_none() {
            self.fit_next = true;
        }
        self.stamps = vec![0; campaign.map.roads.len()];
    }

    fn ensure_layout(&mut self, scene: &Scene<'_>) {
        let revision = scene.revision.wrapping_add(1);
        if self.layout.revision == revision {
            return;
        }
        if let Some(g) = &self.geometry {
            self.layout = build_layout(scene, g);
            self.layout.revision = revision;
        }
    }

    fn ensure_supply(&mut self, scene: &Scene<'_>) {
        let revision = scene.revision.wrapping_add(1);
        if self.supply.revision == revision {
            return;
        }
        let Some(g) = &self.geometry else { return };
        let campaign = scene.campaign;
        let lines = scene.supply_lines();
        let mut seen = HashSet::new();
        let mut edges = Vec::new();
        let mut cut_regions = Vec::new();
        let mut by_force = HashMap::new();
        for line in &lines {
            let colour = side_colour(campaign, &line.side);
            let ids: Vec<u32> = line
                .route
                .iter()
                .filter_map(|r| g.by_id.get(r).and_then(|i| u32::try_from(*i).ok()))
                .collect();
            for pair in ids.windows(2) {
                if let [a, b] = pair
                    && seen.insert((*a.min(b), *a.max(b), line.supplied))
                {
                    edges.push((*a, *b, colour, !line.supplied));
                }
            }
            cut_regions.extend(
                line.cuts
                    .iter()
                    .filter_map(|r| g.by_id.get(r).and_then(|i| u32::try_from(*i).ok())),
            );
            if let Some(i) = campaign.forces.iter().position(|f| f.id == line.force) {
                by_force.insert(i, (line.supplied, line.moves_before_losses));
            }
        }
        cut_regions.sort_unstable();
        cut_regions.dedup();
        let cut_forces = lines
            .iter()
            .filter(|l| !l.supplied)
            .map(|l| l.force.to_string())
            .collect();
        self.supply = SupplyView {
            revision,
            lines,
            edges,
            cut_regions,
            by_force,
            cut_forces,
        };
    }

    /// The stack to spread out this frame: the dragged force's; else the one
    /// whose counters, spread, would be under the pointer (the one spread
    /// already first, so that moving up its column keeps it open); else the
    /// selected force's.
    fn spread_now(
        &self,
        camera: Camera,
        rect: Rect,
        pointer: Option<Pos2>,
        scale: f32,
        selected: Option<usize>,
    ) -> Option<usize> {
        let spot_of = |force: usize| {
            self.layout
                .counters
                .iter()
                .find(|c| c.force == force)
                .map(|c| c.spot)
        };
        if let Some(f) = self.dragging {
            return spot_of(f);
        }
        let stacked = |c: &&Counter| self.layout.stacks.get(c.spot).is_some_and(|s| s.size > 1);
        if let Some(p) = pointer {
            // The stacks whose counters, spread, would be under the pointer;
            // the one spread already first.
            let under: Vec<usize> = self
                .layout
                .counters
                .iter()
                .filter(stacked)
                .filter(|c| counter_rect(camera, rect, c, scale).expand(3.0).contains(p))
                .map(|c| c.spot)
                .collect();
            if let Some(spot) = self
                .spread
                .filter(|s| under.contains(s))
                .or(under.first().copied())
            {
                return Some(spot);
            }
        }
        selected
            .and_then(spot_of)
            .filter(|&s| self.layout.stacks.get(s).is_some_and(|s| s.size > 1))
    }

    /// The counter or region under the pointer.
    fn hit(&self, camera: Camera, rect: Rect, pointer: Pos2, scale: f32) -> Option<Hit> {
        let g = self.geometry.as_ref()?;
        // Counters on top, the last drawn first.
        for c in self
            .layout
            .counters
            .iter()
            .rev()
            .filter(|c| shown(&self.layout, self.spread, c))
        {
            if counter_rect(camera, rect, c, scale).expand(1.0).contains(pointer) {
                return Some(Hit::Counter(c.force));
            }
        }
        let world = to_world(camera, rect, pointer);
        let reach = (14.0 / camera.zoom).max(g.spacing * 0.5);
        let area = Rect::from_center_size(world, Vec2::splat(reach * 2.0));
        let (cols, rows) = g.grid.span(area);
        let mut best: Option<(f32, usize)> = None;
        for r in rows {
            for c in cols.clone() {
                for &i in g.grid.regions.get(r * g.grid.cols + c).into_iter().flatten() {
                    let i = i as usize;
                    let Some(p) = g.pos.get(i) else { continue };
                    let d = p.distance(world);
                    let limit = g.radius.get(i).copied().unwrap_or(0.0).max(12.0 / camera.zoom);
                    if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, i));
                    }
                }
            }
        }
        best.map(|(_, i)| Hit::Region(i))
    }

    fn handle_input(
        &mut self,
        response: &Response,
        input: &mut MapInput<'_>,
        camera: Camera,
        rect: Rect,
        hit: Option<Hit>,
        scale: f32,
    ) {
        let campaign = input.scene.campaign;
        if response.drag_started_by(PointerButton::Primary)
            && let Some(p) = response.interact_pointer_pos()
            && let Some(Hit::Counter(f)) = self.hit(camera, rect, p, scale)
        {
            self.dragging = Some(f);
            if let Some(force) = campaign.forces.get(f) {
                *input.selection = Selection::Force(force.id.clone());
            }
        }
        if let Some(f) = self.dragging
            && response.drag_stopped()
        {
            self.dragging = None;
            if let (Some(Hit::Region(r)), Some(force)) = (hit, campaign.forces.get(f)) {
                let alt = response.ctx.input(|i| i.modifiers.alt);
                if alt && input.scene.viewer.is_none() {
                    self.pencil_move(input, force, r);
                } else {
                    self.order_march(input, force, r);
                }
            }
            return;
        }
        if response.clicked_by(PointerButton::Primary) {
            match hit {
                Some(Hit::Counter(f)) => {
                    if let Some(force) = campaign.forces.get(f) {
                        *input.selection = Selection::Force(force.id.clone());
                    }
                }
                Some(Hit::Region(r)) => {
                    let selected = match &*input.selection {
                        Selection::Force(id) => campaign.force(id),
                        _ => None,
                    };
                    match selected {
                        Some(force)
                            if input.scene.may_give(&force.side)
                                && (self.region_index(&force.region) != Some(r)
                                    || force.en_route.is_some()) =>
                        {
                            self.order_march(input, force, r);
                        }
                        _ => self.select_region(input.selection, campaign, r),
                    }
                }
                None => *input.selection = Selection::None,
            }
        }
        if response.clicked_by(PointerButton::Secondary) {
            match hit {
                Some(Hit::Region(r)) => self.select_region(input.selection, campaign, r),
                Some(Hit::Counter(f)) => {
                    if let Some(force) = campaign.forces.get(f) {
                        *input.selection = Selection::Force(force.id.clone());
                    }
                }
                None => *input.selection = Selection::None,
            }
        }
    }

    fn select_region(&self, selection: &mut Selection, campaign: &Campaign, r: usize) {
        if let Some(region) = campaign.map.regions.get(r) {
            *selection = Selection::Region(region.id.clone());
        }
    }

    fn region_index(&self, id: &RegionId) -> Option<usize> {
        self.geometry.as_ref()?.by_id.get(id).copied()
    }

    fn order_march(&self, input: &mut MapInput<'_>, force: &crate::model::Force, region: usize) {
        if !input.scene.may_give(&force.side) {
            return;
        }
        let Some(target) = input.scene.campaign.map.regions.get(region) else {
            return;
        };
        input.commands.push(Command::Session(session::Command::Order {
            side: force.side.clone(),
            request: OrderRequest {
                force: force.id.clone(),
                action: Action::To(target.id.clone()),
                forced: input.forced,
                by: input.by,
            },
        }));
    }

    /// The umpire's pencil: puts the force in the region, outside the rules.
    fn pencil_move(&self, input: &mut MapInput<'_>, force: &crate::model::Force, region: usize) {
        let Some(target) = input.scene.campaign.map.regions.get(region) else {
            return;
        };
        let reason = match input.pencil_reason.trim() {
            "" => super::pencil::DRAGGED.to_owned(),
            reason => reason.to_owned(),
        };
        input.commands.push(Command::Session(session::Command::Edit {
            edit: crate::model::event::Edit::MoveForce {
                force: force.id.clone(),
                to: target.id.clone(),
            },
            reason,
        }));
    }

    /// Territories and waters, roads and crossings: the many small shapes, in
    /// one mesh; `picture` when the background picture is drawn under them.
    fn paint_base(&mut self, painter: &Painter, camera: Camera, rect: Rect, picture: bool) {
        let Some(g) = self.geometry.as_ref() else { return };
        let slot = (self.frame % 2) as usize;
        let Some(mesh) = self.meshes.get_mut(slot) else {
            return;
        };
        let mesh = Arc::make_mut(mesh);
        mesh.clear();
        let view = to_world_rect(camera, rect).expand(g.spacing * 0.6);
        let whole = view.contains_rect(g.bounds);
        let px_spacing = g.spacing * camera.zoom;
        let frame = self.frame;

        // Waters and the regions' territories under everything.
        g.shapes.paint(
            mesh,
            map_shapes::View {
                origin: to_screen(camera, rect, Pos2::ZERO),
                zoom: camera.zoom,
                world: view,
                px_spacing,
                picture,
            },
            &g.fill,
        );

        // Roads by kind; railways get sleepers and river crossings a mark when there is room.
        let detail = px_spacing > 45.0;
        let thin = px_spacing < 12.0;
        let draw_road = |mesh: &mut Mesh, i: usize| {
            let Some(road) = g.roads.get(i) else { return };
            let (Some(a), Some(b)) = (g.pos.get(road.a as usize), g.pos.get(road.b as usize)) else {
                return;
            };
            let (a, b) = (to_screen(camera, rect, *a), to_screen(camera, rect, *b));
            let closed = road.river == Some(RiverCrossing::None);
            let (width, colour) = match road.kind {
                RoadKind::Road => (2.2, theme::ROAD),
                RoadKind::Track => (1.3, theme::TRACK),
                RoadKind::Railway => (1.8, theme::RAILWAY),
                RoadKind::River => (3.2, theme::RIVER),
            };
            let width = if thin { width * 0.6 } else { width };
            let colour = if closed {
                colour.gamma_multiply(0.45)
            } else {
                colour
            };
            if road.kind == RoadKind::Track && !thin {
                dashed(mesh, a, b, width, colour, 6.0, 4.0);
            } else {
                segment(mesh, a, b, width, colour);
            }
            if detail && road.kind == RoadKind::Railway {
                sleepers(mesh, a, b, colour);
            }
            if let Some(crossing) = road.river
                && !thin
            {
                crossing_mark(mesh, a, b, crossing, detail);
            }
        };
        if whole {
            for i in 0..g.roads.len() {
                draw_road(mesh, i);
            }
        } else {
            let (cols, rows) = g.grid.span(view);
            for r in rows {
                for c in cols.clone() {
                    for &i in g.grid.roads.get(r * g.grid.cols + c).into_iter().flatten() {
                        let i = i as usize;
                        if let Some(stamp) = self.stamps.get_mut(i) {
                            if *stamp == frame {
                                continue;
                            }
                            *stamp = frame;
                        }
                        draw_road(mesh, i);
                    }
                }
            }
        }

        // Region centres.
        if px_spacing > 18.0 || g.pos.len() <= SMALL_MAP {
            let (cols, rows) = g.grid.span(view);
            for r in rows {
                for c in cols.clone() {
                    for &i in g.grid.regions.get(r * g.grid.cols + c).into_iter().flatten() {
                        if let Some(p) = g.pos.get(i as usize) {
                            disc(mesh, to_screen(camera, rect, *p), 2.5, theme::REGION_DOT, 8);
                        }
                    }
                }
            }
        }
        if let Some(mesh) = self.meshes.get(slot) {
            painter.add(Shape::Mesh(mesh.clone()));
        }
    }

    fn paint_names(&mut self, painter: &Painter, camera: Camera, rect: Rect, names: Names<'_>) {
        self.shown_labels.clear();
        let Some(g) = self.geometry.as_ref() else { return };
        let px_spacing = g.spacing * camera.zoom;
        let crowded = px_spacing < 14.0 && g.pos.len() > SMALL_MAP;
        let font = FontId::proportional(11.0);
        // The regions in view, most important first: the one under the
        // pointer or selected (always named), then HQs, then towns, then by
        // the forces seen there, then the rest.
        let view = to_world_rect(camera, rect);
        let (gc, gr) = g.grid.span(view);
        let (layout, spread) = (&self.layout, self.spread);
        let order = &mut self.label_order;
        order.clear();
        let mut consider = |i: u32| {
            let always = names.hovered == Some(i as usize) || names.selected == Some(i as usize);
            let Some(p) = g.pos.get(i as usize) else { return };
            if !view.contains(*p) {
                return;
            }
            let rank = g.rank.get(i as usize).copied().unwrap_or(0);
            let weight = layout.weight.get(i as usize).copied().unwrap_or(0);
            order.push((std::cmp::Reverse((always, rank, weight)), i));
        };
        if crowded {
            // Too many to name: only the region under the pointer or selected.
            let mut always: Vec<usize> = names.hovered.into_iter().chain(names.selected).collect();
            always.dedup();
            for i in always {
                if let Ok(i) = u32::try_from(i) {
                    consider(i);
                }
            }
        } else {
            for r in gr {
                for c in gc.clone() {
                    for &i in g.grid.regions.get(r * g.grid.cols + c).into_iter().flatten() {
                        consider(i);
                    }
                }
            }
        }
        if order.is_empty() {
            return;
        }
        order.sort_unstable();
        let mut galleys = Vec::with_capacity(order.len());
        self.label_wanted.clear();
        for &(std::cmp::Reverse((always, _, _)), i) in order.iter() {
            let (Some(p), Some(region)) = (g.pos.get(i as usize), names.campaign.map.regions.get(i as usize))
            else {
                continue;
            };
            let galley = painter.layout_no_wrap(region.name.clone(), font.clone(), Color32::PLACEHOLDER);
            self.label_wanted.push(labels::Wanted {
                point: to_screen(camera, rect, *p),
                size: galley.size(),
                always,
            });
            galleys.push((i, galley));
        }
        // Counters (a stack with its shadow and badge) and flags are drawn
        // over names: a name does not go under one.
        let scale = names.scale;
        let counters = layout
            .counters
            .iter()
            .filter(|c| shown(layout, spread, c))
            .map(|c| {
                let body = counter_rect(camera, rect, c, scale).expand(1.0);
                let stacked = layout.stacks.get(c.spot).is_some_and(|s| s.size > 1) && spread != Some(c.spot);
                if stacked {
                    body.union(body.translate(vec2(3.0, -3.0) * scale))
                        .union(Rect::from_center_size(
                            body.right_top() + vec2(2.0, -4.0) * scale,
                            vec2(16.0, 16.0) * scale.max(0.8),
                        ))
                } else {
                    body
                }
            });
        let smallest = if g.pos.len() <= SMALL_MAP { 8.0 } else { 5.0 };
        let size = (g.spacing * camera.zoom / 3.0).clamp(smallest, 14.0);
        let flags = layout.flags.iter().map(|f| {
            let base = to_screen(camera, rect, f.world) + vec2(-size * 0.9, 0.0);
            Rect::from_min_max(base - vec2(1.0, size * 1.8), base + vec2(size * 1.1, 0.0))
        });
        self.labels.place(
            rect,
            24.0,
            counters.chain(flags),
            &self.label_wanted,
            &mut self.label_places,
        );
        for ((i, galley), place) in galleys.into_iter().zip(&self.label_places) {
            let Some(place) = place else { continue };
            let colour = if g.rank.get(i as usize).is_some_and(|r| *r > 0) {
                theme::LABEL_STRONG
            } else {
                theme::LABEL
            };
            painter.galley(place.min, galley, colour);
            self.shown_labels.push((i, *place));
        }
    }

    fn paint_flags(&self, painter: &Painter, camera: Camera, rect: Rect) {
        let Some(g) = self.geometry.as_ref() else { return };
        let smallest = if g.pos.len() <= SMALL_MAP { 8.0 } else { 5.0 };
        let size = (g.spacing * camera.zoom / 3.0).clamp(smallest, 14.0);
        for flag in &self.layout.flags {
            let base = to_screen(camera, rect, flag.world) + vec2(-size * 0.9, 0.0);
            if !rect.expand(size * 2.0).contains(base) {
                continue;
            }
            let top = base - vec2(0.0, size * 1.8);
            painter.line_segment([base, top], Stroke::new(1.5, theme::FLAGPOLE));
            let cloth = vec![
                top,
                top + vec2(size * 1.1, size * 0.35),
                top + vec2(0.0, size * 0.7),
            ];
            painter.add(Shape::convex_polygon(
                cloth,
                flag.holder,
                Stroke::new(if flag.captured { 2.0 } else { 0.8 }, flag.owner),
            ));
        }
    }

    fn paint_counters(
        &mut self,
        painter: &Painter,
        camera: Camera,
        rect: Rect,
        input: &MapInput<'_>,
        scale: f32,
    ) {
        let selected = match &*input.selection {
            Selection::Force(id) => input.scene.campaign.forces.iter().position(|f| &f.id == id),
            _ => None,
        };
        let small = scale < 0.5;
        let font = FontId::proportional(11.0 * scale.max(0.7));
        let slot = 2 + (self.frame % 2) as usize;
        let Some(mesh) = self.meshes.get_mut(slot) else {
            return;
        };
        let mesh = Arc::make_mut(mesh);
        mesh.clear();
        let mut texts = Vec::new();
        let mut badges = Vec::new();
        let layout = &self.layout;
        let spread = self.spread;
        for c in layout.counters.iter() {
            let stack = layout.stacks.get(c.spot).filter(|s| s.size > 1);
            let whole = stack.filter(|_| spread != Some(c.spot));
            if whole.is_some() && c.stack > 0 {
                continue;
            }
            let body = counter_rect(camera, rect, c, scale);
            if !rect.intersects(body) {
                continue;
            }
            if let Some(stack) = whole {
                // The stack as one counter, a shadow behind it for the
                // counters under it and their number at its corner.
                let shadow = body.translate(vec2(3.0, -3.0) * scale);
                mesh.add_colored_rect(shadow.expand(1.0), theme::COUNTER_EDGE);
                mesh.add_colored_rect(shadow, stack.colour);
                mesh.add_colored_rect(body.expand(1.0), theme::COUNTER_EDGE);
                mesh.add_colored_rect(body, stack.colour);
                if !small {
                    texts.push((body.center(), stack.text.as_str(), false, c.force, stack.ink));
                    badges.push((body.right_top() + vec2(2.0, -4.0) * scale, stack.size));
                }
                continue;
            }
            let cut = input.overlays.supply && self.supply.by_force.get(&c.force).is_some_and(|(s, _)| !s);
            let fill = if cut {
                theme::CUT_OFF
            } else if c.blind {
                theme::BLIND_FILL
            } else {
                c.colour
            };
            let (edge, width) = if c.blind {
                (c.colour, 2.0)
            } else {
                (theme::COUNTER_EDGE, 1.0)
            };
            mesh.add_colored_rect(body.expand(width), edge);
            mesh.add_colored_rect(body, fill);
            if !small {
                texts.push((body.center(), c.text.as_str(), cut, c.force, c.ink));
            }
        }
        if let Some(mesh) = self.meshes.get(slot) {
            painter.add(Shape::Mesh(mesh.clone()));
        }
        for (at, count) in badges {
            painter.circle(
                at,
                7.0 * scale.max(0.8),
                theme::LABEL_STRONG,
                Stroke::new(1.0, Color32::WHITE),
            );
            painter.text(
                at,
                Align2::CENTER_CENTER,
                count.to_string(),
                FontId::proportional(9.5 * scale.max(0.8)),
                Color32::WHITE,
            );
        }
        for (at, text, cut, force, ink) in texts {
            painter.text(at, Align2::CENTER_CENTER, text, font.clone(), ink);
            if cut && let Some((_, left)) = self.supply.by_force.get(&force) {
                let note = if *left == 0 {
                    "losing stands".to_owned()
                } else {
                    format!("cut: {left} move{} left", if *left == 1 { "" } else { "s" })
                };
                painter.text(
                    at + vec2(0.0, COUNTER.y * scale * 0.5 + 1.0),
                    Align2::CENTER_TOP,
                    note,
                    FontId::proportional(10.0),
                    theme::CUT_OFF,
                );
            }
        }
        if let Some(c) = selected.and_then(|s| self.layout.counters.iter().find(|c| c.force == s)) {
            // In a stack not spread out, the stack's counter is ringed.
            let body = if shown(&self.layout, self.spread, c) {
                counter_rect(camera, rect, c, scale)
            } else {
                counter_rect(
                    camera,
                    rect,
                    &Counter {
                        stack: 0,
                        ..c.clone()
                    },
                    scale,
                )
            };
            painter.rect_stroke(
                body.expand(2.0),
                2.0,
                Stroke::new(2.5, theme::SELECTED),
                StrokeKind::Outside,
            );
        }
    }

    fn paint_supply(&mut self, painter: &Painter, camera: Camera, rect: Rect) {
        let Some(g) = self.geometry.as_ref() else { return };
        let slot = 4 + (self.frame % 2) as usize;
        let Some(mesh) = self.meshes.get_mut(slot) else {
            return;
        };
        let mesh = Arc::make_mut(mesh);
        mesh.clear();
        let view = rect.expand(10.0);
        for &(a, b, colour, cut) in &self.supply.edges {
            let (Some(pa), Some(pb)) = (g.pos.get(a as usize), g.pos.get(b as usize)) else {
                continue;
            };
            let (sa, sb) = (to_screen(camera, rect, *pa), to_screen(camera, rect, *pb));
            if !view.intersects(Rect::from_two_pos(sa, sb)) {
                continue;
            }
            if cut {
                dashed(mesh, sa, sb, 2.5, theme::CUT_OFF, 6.0, 4.0);
            } else {
                segment(mesh, sa, sb, 4.0, colour.gamma_multiply(0.45));
            }
        }
        for &r in &self.supply.cut_regions {
            let Some(p) = g.pos.get(r as usize) else { continue };
            let at = to_screen(camera, rect, *p);
            if !view.contains(at) {
                continue;
            }
            let s = 7.0;
            segment(mesh, at - vec2(s, s), at + vec2(s, s), 3.0, theme::CUT_OFF);
            segment(mesh, at - vec2(s, -s), at + vec2(s, -s), 3.0, theme::CUT_OFF);
        }
        if let Some(mesh) = self.meshes.get(slot) {
            painter.add(Shape::Mesh(mesh.clone()));
        }
    }

    fn paint_routes(
        &self,
        painter: &Painter,
        camera: Camera,
        rect: Rect,
        input: &MapInput<'_>,
        forecast: Option<&MarchForecast>,
    ) {
        let Some(g) = self.geometry.as_ref() else { return };
        let campaign = input.scene.campaign;
        let selected = match &*input.selection {
            Selection::Force(id) => campaign.forces.iter().position(|f| &f.id == id),
            _ => None,
        };
        for (force, path, forced, by, given) in &self.layout.routes {
            let mine = Some(*force) == selected;
            let points: Vec<Pos2> = path
                .iter()
                .filter_map(|r| g.pos.get(*r).map(|p| to_screen(camera, rect, *p)))
                .collect();
            if points.len() < 2 || !rect.intersects(Rect::from_points(&points)) {
                continue;
            }
            let colour = theme::route(*forced, *by);
            let colour = if mine || *given {
                colour
            } else {
                colour.gamma_multiply(0.5)
            };
            let width = if mine { 3.0 } else { 2.0 };
            if by.is_foot() {
                painter.add(Shape::dashed_line(&points, Stroke::new(width, colour), 8.0, 4.0));
            } else {
                // Carried: a solid line, the way trains and steamers go.
                painter.add(Shape::line(points.clone(), Stroke::new(width + 1.0, colour)));
            }
            if let [.., before, last] = points.as_slice() {
                arrow_head(painter, *before, *last, colour);
            }
            if mine && let (Some(forecast), Some(last)) = (forecast, points.last()) {
                route_label(
                    painter,
                    *last,
                    &forecast_text(forecast, *forced),
                    Align2::CENTER_TOP,
                );
            }
        }
    }

    fn paint_battles(&self, painter: &Painter, camera: Camera, rect: Rect) {
        for (world, id, reserves) in &self.layout.battles {
            let at = to_screen(camera, rect, *world);
            if !rect.expand(30.0).contains(at) {
                continue;
            }
            for r in reserves {
                let from = to_screen(camera, rect, *r);
                painter.add(Shape::dashed_line(
                    &[from, at],
                    Stroke::new(1.5, theme::BATTLE),
                    4.0,
                    4.0,
                ));
            }
            painter.circle_stroke(at, 16.0, Stroke::new(3.0, theme::BATTLE));
            painter.text(
                at + vec2(0.0, -18.0),
                Align2::CENTER_BOTTOM,
                format!("battle {id}"),
                FontId::proportional(12.0),
                theme::BATTLE,
            );
        }
    }

    /// The march the pointer would order: its route, time and cost.
    fn paint_preview(
        &mut self,
        painter: &Painter,
        camera: Camera,
        rect: Rect,
        input: &MapInput<'_>,
        hit: Option<Hit>,
    ) {
        let campaign = input.scene.campaign;
        let force = match (&self.dragging, &*input.selection) {
            (Some(f), _) => campaign.forces.get(*f),
            (None, Selection::Force(id)) => campaign.force(id),
            _ => None,
        };
        let (Some(force), Some(Hit::Region(region))) = (force, hit) else {
            return;
        };
        if self.region_index(&force.region) == Some(region) && force.en_route.is_none() {
            return;
        }
        if !input.scene.may_give(&force.side) {
            return;
        }
        let key = (
            input.scene.revision,
            force.id.clone(),
            region,
            input.forced,
            input.by,
        );
        if self.preview.as_ref().is_none_or(|p| p.key != key) {
            self.preview = Some(self.make_preview(input, force, region, key));
        }
        let (Some(g), Some(preview)) = (self.geometry.as_ref(), self.preview.as_ref()) else {
            return;
        };
        let points: Vec<Pos2> = preview
            .path
            .iter()
            .filter_map(|r| g.pos.get(*r).map(|p| to_screen(camera, rect, *p)))
            .collect();
        let colour = if input.forced { theme::FORCED } else { theme::ROUTE };
        if points.len() >= 2 {
            painter.add(Shape::line(
                points.clone(),
                Stroke::new(3.0, colour.gamma_multiply(0.8)),
            ));
            if let [.., before, last] = points.as_slice() {
                arrow_head(painter, *before, *last, colour);
            }
        }
        let at = g
            .pos
            .get(region)
            .map_or(rect.center(), |p| to_screen(camera, rect, *p));
        let text = match (&preview.problem, &preview.forecast) {
            (Some(problem), _) => format!("cannot march: {problem}"),
            (None, Some(f)) if input.overlays.forecast => {
                format!("click to order: {}", forecast_text(f, input.forced))
            }
            (None, Some(f)) => format!(
                "click to order: {} game move{}",
                f.game_moves,
                plural(f.game_moves)
            ),
            (None, None) => "click to order the march".to_owned(),
        };
        // Above the region: the tooltip opens below the pointer.
        route_label(painter, at - vec2(0.0, 16.0), &text, Align2::CENTER_BOTTOM);
    }

    fn make_preview(
        &self,
        input: &MapInput<'_>,
        force: &crate::model::Force,
        region: usize,
        key: (u64, ForceId, usize, bool, Conveyance),
    ) -> Preview {
        let campaign = input.scene.campaign;
        let Some(target) = campaign.map.regions.get(region) else {
            return Preview {
                key,
                path: Vec::new(),
                forecast: None,
                problem: Some("no such region".to_owned()),
            };
        };
        let request = OrderRequest {
            force: force.id.clone(),
            action: Action::To(target.id.clone()),
            forced: input.forced,
            by: input.by,
        };
        match input.scene.check(&force.side, &request) {
            Ok(set) => {
                let path: Vec<RegionId> = set
                    .orders
                    .iter()
                    .find_map(|o| match o {
                        Order::March { path, .. } => Some(path.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                let forecast = strategy::journey_forecast(campaign, force, &path, input.forced, input.by);
                let start = self.region_index(&force.region);
                let path = start
                    .into_iter()
                    .chain(path.iter().filter_map(|r| self.region_index(r)))
                    .collect();
                Preview {
                    key,
                    path,
                    forecast,
                    problem: None,
                }
            }
            Err(refusal) => Preview {
                key,
                path: Vec::new(),
                forecast: None,
                problem: Some(match refusal {
                    session::Refusal::Order(problems) => problems.join("; "),
                    other => other.to_string(),
                }),
            },
        }
    }

    fn tooltip_ui(&self, ui: &mut Ui, scene: &Scene<'_>, hit: Hit, overlays: Overlays) {
        let campaign = scene.campaign;
        match hit {
            Hit::Counter(f) => {
                let Some(force) = campaign.forces.get(f) else {
                    return;
                };
                let side = campaign
                    .side(&force.side)
                    .map_or(force.side.as_str(), |s| s.name.as_str());
                ui.strong(&force.name);
                if let Some(mark) = scene.mark(&force.id).filter(|m| !m.in_battle) {
                    ui.label(format!("{side}; {}", mark.strength(force)));
                    ui.label(format!("At {}, {}", where_is(campaign, force), mark.when()));
                    ui.weak("Click to inspect.");
                    return;
                }
                ui.label(format!(
                    "{side}; {}, {} of {} points",
                    crate::model::text::count(force.stands.len() as u64, "stand", "stands"),
                    force.points(),
                    force.full_points()
                ));
                ui.label(format!("At {}", where_is(campaign, force)));
                if let StandingOrder::March { path, forced, by } = &force.order {
                    ui.label(format!(
                        "{} to {}",
                        march_words(*forced, *by, true),
                        path.last().map_or("?", |r| campaign.map.region_name(r))
                    ));
                }
                if overlays.supply
                    && let Some(line) = self.supply.lines.iter().find(|l| l.force == force.id)
                {
                    ui.label(supply_text(campaign, line));
                } else if force.supply.cut_moves > 0 {
                    ui.label(format!(
                        "Cut off for {}",
                        crate::model::text::count(
                            u64::from(force.supply.cut_moves),
                            "game move",
                            "game moves"
                        )
                    ));
                }
                if scene.may_give(&force.side) {
                    ui.weak("Click to select; drag to a region to order a march.");
                } else {
                    ui.weak("Click to inspect.");
                }
            }
            Hit::Region(r) => {
                let Some(region) = campaign.map.regions.get(r) else {
                    return;
                };
                ui.strong(&region.name);
                let features: Vec<&str> = region.features.iter().map(|f| f.as_str()).collect();
                ui.label(format!(
                    "{}{}",
                    region.terrain,
                    if features.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", features.join(", "))
                    }
                ));
                for hq in campaign.hqs.iter().filter(|h| h.region == region.id) {
                    let owner = campaign
                        .side(&hq.side)
                        .map_or(hq.side.as_str(), |s| s.name.as_str());
                    let holder = campaign
                        .side(&hq.held_by)
                        .map_or(hq.held_by.as_str(), |s| s.name.as_str());
                    ui.label(format!("HQ: {} (held by {holder})", hq.label(owner)));
                }
                for force in campaign
                    .forces
                    .iter()
                    .filter(|f| f.region == region.id && f.en_route.is_none())
                {
                    match scene.mark(&force.id).filter(|m| !m.in_battle) {
                        Some(mark) if mark.blind => ui.label(format!("{}: {}", force.name, mark.when())),
                        Some(mark) => ui.label(format!(
                            "{}: {} points, {}",
                            force.name,
                            mark.points.unwrap_or(0),
                            mark.when()
                        )),
                        None => ui.label(format!("{}: {} points", force.name, force.points())),
                    };
                }
                if let Some(battle) = campaign.battle_in(&region.id) {
                    ui.colored_label(theme::BATTLE, format!("Battle {} pending", battle.id));
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Hit {
    Counter(usize),
    Region(usize),
}

fn to_screen(camera: Camera, rect: Rect, world: Pos2) -> Pos2 {
    let [cx, cy] = camera.center;
    rect.center() + (world - pos2(cx, cy)) * camera.zoom
}

fn to_world(camera: Camera, rect: Rect, screen: Pos2) -> Pos2 {
    let [cx, cy] = camera.center;
    pos2(cx, cy) + (screen - rect.center()) / camera.zoom
}

fn to_world_rect(camera: Camera, rect: Rect) -> Rect {
    Rect::from_min_max(to_world(camera, rect, rect.min), to_world(camera, rect, rect.max))
}

pub(super) fn fit(bounds: Rect, rect: Rect) -> Camera {
    let size = bounds.size().max(Vec2::splat(1.0));
    let zoom = ((rect.width() - 40.0).max(10.0) / size.x)
        .min((rect.height() - 40.0).max(10.0) / size.y)
        .clamp(MIN_ZOOM, MAX_ZOOM);
    let c = bounds.center();
    Camera {
        center: [c.x, c.y],
        zoom,
    }
}

fn counter_rect(camera: Camera, rect: Rect, c: &Counter, scale: f32) -> Rect {
    // Above and to the right of the region's centre, stacked upwards, so the
    // region's name below it stays clear.
    let size = COUNTER * scale;
    let at = to_screen(camera, rect, c.world) + vec2(3.0, -size.y - 3.0);
    Rect::from_min_size(
        at + vec2(c.stack as f32 * 4.0 * scale, -(c.stack as f32) * (size.y + 2.0)),
        size,
    )
}

/// Pan with a drag, the arrow keys or WASD; zoom with the wheel, pinch or + and -.
pub(super) fn pan_and_zoom(
    ui: &Ui,
    response: &Response,
    rect: Rect,
    camera: &mut Camera,
    dragging_counter: bool,
) {
    let [cx, cy] = camera.center;
    let mut center = pos2(cx, cy);
    let mut zoom = camera.zoom;
    if !dragging_counter
        && (response.dragged_by(PointerButton::Primary)
            || response.dragged_by(PointerButton::Middle)
            || response.dragged_by(PointerButton::Secondary))
    {
        center -= response.drag_delta() / zoom;
    }
    if let Some(pointer) = response.hover_pos() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = pinch * (scroll * 0.002).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let before = pos2(cx, cy) + (pointer - rect.center()) / zoom;
            zoom = (zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
            center = before - (pointer - rect.center()) / zoom;
        }
    }
    if !ui.ctx().egui_wants_keyboard_input() {
        use egui::Key;
        let (dt, keys) = ui.input(|i| {
            let down = |a: Key, b: Key| i.key_down(a) || i.key_down(b);
            (
                i.stable_dt.min(0.1),
                [
                    down(Key::ArrowLeft, Key::A),
                    down(Key::ArrowRight, Key::D),
                    down(Key::ArrowUp, Key::W),
                    down(Key::ArrowDown, Key::S),
                    i.key_down(Key::Plus) || i.key_down(Key::Equals),
                    i.key_down(Key::Minus),
                ],
            )
        });
        let step = 500.0 * dt / zoom;
        let [left, right, up, down, zoom_in, zoom_out] = keys;
        center += vec2(
            f32::from(u8::from(right)) - f32::from(u8::from(left)),
            f32::from(u8::from(down)) - f32::from(u8::from(up)),
        ) * step;
        if zoom_in {
            zoom = (zoom * (1.0 + 2.0 * dt)).min(MAX_ZOOM);
        }
        if zoom_out {
            zoom = (zoom / (1.0 + 2.0 * dt)).max(MIN_ZOOM);
        }
        if keys.iter().any(|k| *k) {
            ui.ctx().request_repaint();
        }
    }
    camera.center = [center.x, center.y];
    camera.zoom = zoom;
}

fn build_geometry(campaign: &Campaign, key: (std::path::PathBuf, usize)) -> Geometry {
    let map = &campaign.map;
    let pos: Vec<Pos2> = map.regions.iter().map(|r| pos2(miles(r.x), miles(r.y))).collect();
    let by_id: HashMap<RegionId, usize> = map
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.clone(), i))
        .collect();
    let bounds = if pos.is_empty() {
        Rect::from_min_size(Pos2::ZERO, Vec2::splat(100.0))
    } else {
        // A margin in proportion to the map, so a map of a few miles (the
        // Jumbo table) fills the panel as one of a thousand does.
        let points = Rect::from_points(&pos);
        points.expand(points.size().max_elem().max(1.0) * FIT_MARGIN_SHARE)
    };
    let roads: Vec<RoadGeom> = map
        .roads
        .iter()
        .filter_map(|r| {
            Some(RoadGeom {
                a: u32::try_from(*by_id.get(&r.from)?).ok()?,
                b: u32::try_from(*by_id.get(&r.to)?).ok()?,
                kind: r.kind,
                river: r.river,
            })
        })
        .collect();
    // Nearest neighbour along the roads gives each region's disc.
    let mut nearest = vec![f32::INFINITY; pos.len()];
    for road in &roads {
        let (a, b) = (road.a as usize, road.b as usize);
        if let (Some(pa), Some(pb)) = (pos.get(a), pos.get(b)) {
            let d = pa.distance(*pb).max(0.5);
            if let Some(n) = nearest.get_mut(a) {
                *n = n.min(d);
            }
            if let Some(n) = nearest.get_mut(b) {
                *n = n.min(d);
            }
        }
    }
    let mut finite: Vec<f32> = nearest.iter().copied().filter(|d| d.is_finite()).collect();
    finite.sort_by(f32::total_cmp);
    let spacing = finite.get(finite.len() / 2).copied().unwrap_or(20.0).max(1.0);
    let radius = nearest
        .iter()
        .map(|d| if d.is_finite() { d * 0.45 } else { spacing * 0.45 }.clamp(spacing * 0.2, spacing * 1.2))
        .collect();
    let fill = map.regions.iter().map(|r| theme::terrain(r.terrain)).collect();
    let hq_regions: HashSet<&RegionId> = campaign.hqs.iter().map(|h| &h.region).collect();
    let rank = map
        .regions
        .iter()
        .map(|r| {
            if hq_regions.contains(&r.id) {
                2
            } else if r.has(crate::model::Feature::Town) {
                1
            } else {
                0
            }
        })
        .collect();
    // About four regions to a cell.
    let cell = (spacing * 2.0).max(1.0);
    let cols = cell_number((bounds.width() / cell).ceil()).clamp(1, 4096);
    let rows = cell_number((bounds.height() / cell).ceil()).clamp(1, 4096);
    let mut grid = CellGrid {
        origin: bounds.min,
        cell,
        cols,
        rows,
        regions: vec![Vec::new(); cols * rows],
        roads: vec![Vec::new(); cols * rows],
    };
    for (i, p) in pos.iter().enumerate() {
        let (c, r) = grid.cell_of(*p);
        if let (Some(list), Ok(i)) = (grid.regions.get_mut(r * cols + c), u32::try_from(i)) {
            list.push(i);
        }
    }
    for (i, road) in roads.iter().enumerate() {
        let (Some(a), Some(b)) = (pos.get(road.a as usize), pos.get(road.b as usize)) else {
            continue;
        };
        let (cs, rs) = grid.span(Rect::from_two_pos(*a, *b));
        for r in rs {
            for c in cs.clone() {
                if let (Some(list), Ok(i)) = (grid.roads.get_mut(r * cols + c), u32::try_from(i)) {
                    list.push(i);
                }
            }
        }
    }
    Geometry {
        key,
        pos,
        radius,
        fill,
        rank,
        roads,
        by_id,
        bounds,
        spacing,
        grid,
        shapes: Shapes::of(map),
    }
}

fn build_layout(scene: &Scene<'_>, g: &Geometry) -> Layout {
    let campaign = scene.campaign;
    let mut stacks: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    let mut counters = Vec::with_capacity(campaign.forces.len());
    let mut routes = Vec::new();
    for (i, force) in campaign.forces.iter().enumerate() {
        let Some(&from) = g.by_id.get(&force.region) else {
            continue;
        };
        let Some(at) = g.pos.get(from).copied() else {
            continue;
        };
        let world = match &force.en_route {
            Some(e) => {
                let toward = g
                    .by_id
                    .get(&e.toward)
                    .and_then(|t| g.pos.get(*t))
                    .copied()
                    .unwrap_or(at);
                let length = campaign
                    .map
                    .roads_from(&force.region)
                    .find(|r| r.other_end(&force.region) == Some(&e.toward))
                    .map_or(1.0, |r| r.miles.max(0.1));
                at.lerp(toward, miles((e.miles / length).clamp(0.0, 1.0)))
            }
            None => at,
        };
        let spot = (
            cell_number(world.x * 10.0 + 1e6),
            cell_number(world.y * 10.0 + 1e6),
        );
        let next_spot = stacks.len();
        let (spot, stack) = stacks.entry(spot).or_insert((next_spot, 0));
        let colour = side_colour(campaign, &force.side);
        let mark = scene.mark(&force.id);
        counters.push(Counter {
            force: i,
            world,
            stack: *stack,
            spot: *spot,
            colour: mark.map_or(colour, |m| super::text::mark_colour(colour, m.in_sight)),
            text: mark.map_or_else(|| force.points().to_string(), |m| m.counter_text(force)),
            ink: match mark {
                Some(m) if m.blind => colour,
                Some(m) if !m.in_sight => theme::LABEL_STRONG,
                _ => Color32::WHITE,
            },
            blind: mark.is_some_and(|m| m.blind),
        });
        *stack += 1;
        let (path, forced, by, given) = match scene.ordered_march(&force.id) {
            Some((path, forced, by)) => (Some(path), forced, by, true),
            None => match &force.order {
                StandingOrder::March { path, forced, by } => (Some(path.as_slice()), *forced, *by, false),
                StandingOrder::Hold => (None, false, Conveyance::Foot, false),
            },
        };
        if let Some(path) = path {
            let regions: Vec<usize> = std::iter::once(from)
                .chain(path.iter().filter_map(|r| g.by_id.get(r).copied()))
                .collect();
            routes.push((i, regions, forced, by, given));
        }
    }
    let flags = campaign
        .hqs
        .iter()
        .filter_map(|hq| {
            let world = *g.pos.get(*g.by_id.get(&hq.region)?)?;
            Some(Flag {
                world,
                holder: side_colour(campaign, &hq.held_by),
                owner: side_colour(campaign, &hq.side),
                captured: hq.held_by != hq.side,
            })
        })
        .collect();
    let battles = campaign
        .battles
        .iter()
        .filter(|b| b.status == crate::model::BattleStatus::Pending)
        .filter_map(|b| {
            let world = *g.pos.get(*g.by_id.get(&b.region)?)?;
            let reserves = b
                .reserves
                .iter()
                .filter_map(|f| campaign.force(f))
                .filter_map(|f| g.by_id.get(&f.region).and_then(|r| g.pos.get(*r)).copied())
                .collect();
            Some((world, b.id, reserves))
        })
        .collect();
    let stacks = stacks_of(&counters, stacks.len());
    let mut weight = vec![0u64; g.pos.len()];
    for (c, force) in counters
        .iter()
        .filter_map(|c| Some((c, campaign.forces.get(c.force)?)))
    {
        if force.en_route.is_none()
            && let Some(w) = g.by_id.get(&force.region).and_then(|r| weight.get_mut(*r))
        {
            let points = if c.blind {
                1
            } else {
                c.text.parse::<u64>().unwrap_or(1)
            };
            *w = w.saturating_add(points);
        }
    }
    Layout {
        revision: 0,
        counters,
        flags,
        battles,
        routes,
        stacks,
        weight,
    }
}

/// Whether counter `c` is drawn, `spread` being the stack spread out: alone
/// in its spot, in the stack spread out, or the one counter a stack shows.
fn shown(layout: &Layout, spread: Option<usize>, c: &Counter) -> bool {
    c.stack == 0 || spread == Some(c.spot) || layout.stacks.get(c.spot).is_none_or(|s| s.size < 2)
}

/// What each spot's stack shows while not spread out: the points of its
/// counters together (`?` when one is a blind or not made out), in the
/// colour they share, or a dark counter when sides share the spot.
fn stacks_of(counters: &[Counter], spots: usize) -> Vec<Stack> {
    let mut stacks = vec![Stack::default(); spots];
    let mut totals: Vec<Option<u64>> = vec![Some(0); spots];
    for c in counters {
        let (Some(stack), Some(total)) = (stacks.get_mut(c.spot), totals.get_mut(c.spot)) else {
            continue;
        };
        if stack.size == 0 {
            stack.colour = c.colour;
            stack.ink = c.ink;
        } else if stack.colour != c.colour {
            stack.colour = theme::COUNTER_EDGE;
            stack.ink = Color32::WHITE;
        }
        stack.size += 1;
        *total = match (*total, c.text.parse::<u64>()) {
            (Some(sum), Ok(points)) if !c.blind => Some(sum.saturating_add(points)),
            _ => None,
        };
    }
    for (stack, total) in stacks.iter_mut().zip(totals) {
        stack.text = total.map_or_else(|| "?".to_owned(), |t| t.to_string());
    }
    stacks
}

/// A non-negative float as a cell or bucket number: rounded down, negative
/// and NaN to 0, and too large to the largest number.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn cell_number(value: f32) -> usize {
    // `as` from a float saturates and turns NaN into 0.
    value.floor().max(0.0) as usize
}

/// Map miles as drawing coordinates: an f32 keeps a map's positions to within inches.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn miles(value: f64) -> f32 {
    value as f32
}

// -- Mesh helpers -------------------------------------------------------------

fn vertex(mesh: &mut Mesh, pos: Pos2, color: Color32) -> u32 {
    let i = u32::try_from(mesh.vertices.len()).unwrap_or(u32::MAX);
    mesh.vertices.push(Vertex {
        pos,
        uv: WHITE_UV,
        color,
    });
    i
}

fn disc(mesh: &mut Mesh, center: Pos2, radius: f32, color: Color32, segments: u32) {
    let c = vertex(mesh, center, color);
    for k in 0..segments {
        let angle = k as f32 / segments as f32 * std::f32::consts::TAU;
        vertex(mesh, center + radius * Vec2::angled(angle), color);
    }
    for k in 0..segments {
        mesh.add_triangle(c, c + 1 + k, c + 1 + (k + 1) % segments);
    }
}

fn segment(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
    let along = b - a;
    if along.length_sq() < 1e-6 {
        return;
    }
    let n = along.normalized().rot90() * (width / 2.0);
    let i = vertex(mesh, a + n, color);
    vertex(mesh, a - n, color);
    vertex(mesh, b - n, color);
    vertex(mesh, b + n, color);
    mesh.add_triangle(i, i + 1, i + 2);
    mesh.add_triangle(i, i + 2, i + 3);
}

fn dashed(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, color: Color32, dash: f32, gap: f32) {
    let length = a.distance(b);
    if length < 1e-3 {
        return;
    }
    let dir = (b - a) / length;
    let mut t = 0.0;
    let mut dashes = 0;
    while t < length && dashes < 400 {
        let end = (t + dash).min(length);
        segment(mesh, a + dir * t, a + dir * end, width, color);
        t = end + gap;
        dashes += 1;
    }
}

fn sleepers(mesh: &mut Mesh, a: Pos2, b: Pos2, color: Color32) {
    let length = a.distance(b);
    if length < 1e-3 {
        return;
    }
    let dir = (b - a) / length;
    let n = dir.rot90() * 3.0;
    let mut t = 5.0;
    let mut count = 0;
    while t < length - 3.0 && count < 200 {
        let p = a + dir * t;
        segment(mesh, p - n, p + n, 1.0, color);
        t += 8.0;
        count += 1;
    }
}

/// A river across the road at its middle: a bridge's parapets, a ford's
/// stepping stones, or the road stopped at the water.
fn crossing_mark(mesh: &mut Mesh, a: Pos2, b: Pos2, crossing: RiverCrossing, detail: bool) {
    let length = a.distance(b);
    if length < 1e-3 {
        return;
    }
    let dir = (b - a) / length;
    let n = dir.rot90();
    let mid = a + (b - a) * 0.5;
    let half = if detail { 9.0 } else { 6.0 };
    segment(
        mesh,
        mid - n * half - dir * 2.0,
        mid + n * half + dir * 2.0,
        3.0,
        theme::RIVER,
    );
    match crossing {
        RiverCrossing::Bridge => {
            for side in [-1.0, 1.0] {
                let p = mid + dir * (3.5 * side);
                segment(mesh, p - n * 5.0, p + n * 5.0, 1.5, theme::BRIDGE);
            }
        }
        RiverCrossing::Ford => {
            for k in [-1.0, 0.0, 1.0] {
                disc(mesh, mid + n * (3.0 * k), 1.4, theme::FORD, 6);
            }
        }
        RiverCrossing::None => {
            segment(
                mesh,
                mid - n * 4.0 - dir * 4.0,
                mid + n * 4.0 + dir * 4.0,
                1.5,
                theme::CUT_OFF,
            );
            segment(
                mesh,
                mid - n * 4.0 + dir * 4.0,
                mid + n * 4.0 - dir * 4.0,
                1.5,
                theme::CUT_OFF,
            );
        }
    }
}

fn arrow_head(painter: &Painter, from: Pos2, to: Pos2, colour: Color32) {
    let dir = (to - from).normalized();
    if !dir.is_finite() {
        return;
    }
    let n = dir.rot90();
    let tip = to;
    let base = to - dir * 10.0;
    painter.add(Shape::convex_polygon(
        vec![tip, base + n * 5.0, base - n * 5.0],
        colour,
        Stroke::NONE,
    ));
}

fn route_label(painter: &Painter, at: Pos2, text: &str, anchor: Align2) {
    let galley = painter.layout_no_wrap(text.to_owned(), FontId::proportional(12.0), theme::LABEL_STRONG);
    let rect = anchor.anchor_size(at, galley.size()).expand(3.0);
    let rect = rect.translate(clamp_into(rect, painter.clip_rect()));
    painter.rect(
        rect,
        3.0,
        theme::NOTE_FILL,
        Stroke::new(1.0, theme::LABEL),
        StrokeKind::Inside,
    );
    painter.galley(rect.min + vec2(3.0, 3.0), galley, theme::LABEL_STRONG);
}

/// The shift that keeps `rect` inside `clip`.
fn clamp_into(rect: Rect, clip: Rect) -> Vec2 {
    let mut shift = Vec2::ZERO;
    if rect.max.x > clip.max.x {
        shift.x = clip.max.x - rect.max.x;
    }
    if rect.min.x + shift.x < clip.min.x {
        shift.x = clip.min.x - rect.min.x;
    }
    if rect.max.y > clip.max.y {
        shift.y = clip.max.y - rect.max.y;
    }
    if rect.min.y + shift.y < clip.min.y {
        shift.y = clip.min.y - rect.min.y;
    }
    shift
}

pub(super) fn paint_scale_bar(painter: &Painter, rect: Rect, zoom: f32) {
    let target = 120.0 / zoom;
    let nice = [
        1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0,
    ];
    let miles = nice.iter().copied().rev().find(|m| *m <= target).unwrap_or(1.0);
    let width = miles * zoom;
    let at = rect.left_bottom() + vec2(14.0, -14.0);
    let stroke = Stroke::new(2.0, theme::LABEL_STRONG);
    painter.line_segment([at, at + vec2(width, 0.0)], stroke);
    painter.line_segment([at, at - vec2(0.0, 5.0)], stroke);
    painter.line_segment([at + vec2(width, 0.0), at + vec2(width, -5.0)], stroke);
    painter.text(
        at + vec2(width / 2.0, -4.0),
        Align2::CENTER_BOTTOM,
        crate::model::text::quantity(f64::from(miles), 0, "mile", "miles"),
        FontId::proportional(11.0),
        theme::LABEL_STRONG,
    );
}
