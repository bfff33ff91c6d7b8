//! The battle pack's `pack.pdf`, ready to print: a cover with the briefing,
//! each side's roster with a tick box per roster point it may lose, the
//! results sheet (the fields of `result.toml`, with the battle's id), the
//! whole table on one page for reference, a page map, and the table at true
//! scale cut into sheets of A4 or US Letter (see [`super::tiles`]) with cut
//! and join marks, so that the sheets taped together are the table.
//!
//! The table is drawn as vectors (terrain cells, roads, walls, zones,
//! objectives, every stand where it starts with its campaign id), once, as a
//! form each sheet shows through its window, so the file stays small however
//! many sheets the table takes. Text is set in egui's own font (Ubuntu
//! Light), embedded as a TrueType CID font cut to the glyphs used, with a
//! ToUnicode map, so the words can be searched and copied.
//!
//! Pure: [`pack_pdf`] returns the file's bytes; `desk` writes it. No input
//! makes it panic: a table too large to draw or to tile says so instead.

use super::build::Handoff;
use super::picture::{self, Feature, Mark, StandStart};
use super::sheet::{SheetFields, sheet_fields};
use super::tiles::{MARGIN, MM_PER_INCH, OVERLAP, Paper, Tile, TileLayout, tile_layout};
use crate::model::{Battle, Campaign};
use crate::rules::rule_set;
use crate::scenario::{Cell, Cover, Ground, Role, Scenario, Table};
use ab_glyph::{Font, FontRef};
use pdf_writer::types::{CidFontType, FontFlags, LineCapStyle, SystemInfo, TextRenderingMode};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};
use std::collections::{BTreeMap, BTreeSet};

/// Points (the PDF's unit) to the inch.
const PT: f64 = 72.0;
/// At most this many sheets of tiles; a larger table is left to the page
/// at one page and the page map says so.
pub const MAX_TILE_SHEETS: u64 = 600;
/// The font's name in the file.
const FONT: Name<'static> = Name(b"F1");
/// The table drawn at true scale, shown through each sheet's window.
const TABLE_FORM: Name<'static> = Name(b"T");
/// The table drawn for the page at one page and the page map.
const SMALL_FORM: Name<'static> = Name(b"S");

const INK: [u8; 3] = [28, 28, 28];
const GREY: [u8; 3] = [120, 120, 120];
const LIGHT: [u8; 3] = [200, 200, 200];
const WHITE: [u8; 3] = [255, 255, 255];
const JOIN: [u8; 3] = [196, 0, 120];
const RIVER_BANK: [u8; 3] = [58, 106, 168];
const ROAD_EDGE: [u8; 3] = [112, 70, 34];
const GOLD: [u8; 3] = [246, 196, 28];

/// The pack as a PDF, its sheets of table on `paper`.
pub fn pack_pdf(campaign: &Campaign, battle: &Battle, handoff: &Handoff, paper: Paper) -> Vec<u8> {
    let scenario = &handoff.scenario;
    let briefing = super::briefing::write_briefing(campaign, battle, handoff);
    let fields = sheet_fields(campaign, battle, scenario);
    write_pdf(scenario, &briefing, &fields, paper)
}

/// The PDF of `scenario` with its briefing's Markdown and results sheet.
fn write_pdf(scenario: &Scenario, briefing: &str, fields: &SheetFields, paper: Paper) -> Vec<u8> {
    let (table_w, table_d) = table_inches(&scenario.table);
    let layout = tile_layout(table_w, table_d, paper, MARGIN, OVERLAP);
    let mut doc = Doc::new(paper);

    cover(&mut doc, fields, briefing);
    for (i, side) in scenario.sides.iter().enumerate() {
        roster(&mut doc, scenario, i, side);
    }
    results_sheet(&mut doc, fields);

    let cells = (u64::from(scenario.table.width) * u64::from(scenario.table.depth) <= picture::MAX_CELLS)
        .then(|| scenario.table.cells());
    let starts = picture::stand_starts(scenario);
    let small = small_scale(paper, table_w, table_d);
    let small_form = {
        let mut pen = Pen::new(table_d * PT);
        draw_table(
            &mut pen,
            &mut doc.ty,
            scenario,
            cells.as_deref(),
            &starts,
            1.0 / small,
        );
        pen.c.finish().into_vec()
    };
    let tiles_drawn = layout.count() <= MAX_TILE_SHEETS;
    let table_form = if tiles_drawn {
        let mut pen = Pen::new(table_d * PT);
        draw_table(&mut pen, &mut doc.ty, scenario, cells.as_deref(), &starts, 1.0);
        pen.c.finish().into_vec()
    } else {
        Vec::new()
    };
    whole_table(&mut doc, scenario, cells.as_deref(), small, fields);
    let first_tile_page = doc.pages.len() + 2;
    page_map(&mut doc, &layout, small, first_tile_page, tiles_drawn);
    if tiles_drawn {
        for tile in layout.tiles() {
            tile_page(&mut doc, &layout, &tile, scenario, first_tile_page);
        }
    }
    doc.finish(
        fields,
        [(TABLE_FORM, table_form), (SMALL_FORM, small_form)],
        (table_w, table_d),
    )
}

/// The table's width and depth in inches (a cell of no size counts as an inch).
pub fn table_inches(t: &Table) -> (f64, f64) {
    let ci = cell_inches(t);
    (f64::from(t.width) * ci, f64::from(t.depth) * ci)
}

fn cell_inches(t: &Table) -> f64 {
    if t.cell_inches.is_finite() && t.cell_inches > 0.0 {
        t.cell_inches
    } else {
        1.0
    }
}

/// The scale of the page at one page: the table fitted to an upright or
/// sideways sheet, whichever shows it larger, below its heading.
fn small_scale(paper: Paper, table_w: f64, table_d: f64) -> f64 {
    let (pw, ph) = paper.size();
    let (w, d) = (table_w.max(1e-6) * PT, table_d.max(1e-6) * PT);
    let fit = |page_w: f64, page_h: f64| {
        let avail_w = page_w * PT - 2.0 * MARGIN_PT;
        let avail_h = page_h * PT - 2.0 * MARGIN_PT - SMALL_TOP - SMALL_BOTTOM;
        (avail_w / w).min(avail_h / d)
    };
    fit(pw, ph).max(fit(ph, pw)).max(1e-6)
}

const MARGIN_PT: f64 = 42.0;
/// Room above the table on the page at one page, for its heading.
const SMALL_TOP: f64 = 58.0;
/// Room below it for the legend.
const SMALL_BOTTOM: f64 = 120.0;

// ---------------------------------------------------------------------------
// Text

/// Text set in Ubuntu Light: widths from the font, glyphs used recorded for
/// the file's width table and ToUnicode map.
struct Type {
    font: Option<FontRef<'static>>,
    units_per_em: f64,
    used: BTreeMap<u16, char>,
}

impl std::fmt::Debug for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Type").field("used", &self.used.len()).finish()
    }
}

impl Type {
    fn new() -> Type {
        let font = FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).ok();
        let units_per_em = font
            .as_ref()
            .and_then(|f| f.units_per_em())
            .map_or(1000.0, f64::from);
        Type {
            font,
            units_per_em,
            used: BTreeMap::new(),
        }
    }

    fn glyph(&self, ch: char) -> u16 {
        let Some(font) = &self.font else { return 0 };
        let id = font.glyph_id(ch).0;
        if id == 0 && !ch.is_whitespace() {
            font.glyph_id('?').0
        } else {
            id
        }
    }

    /// A glyph's advance in thousandths of the font size.
    fn advance(&self, glyph: u16) -> f64 {
        let Some(font) = &self.font else { return 500.0 };
        f64::from(font.h_advance_unscaled(ab_glyph::GlyphId(glyph))) * 1000.0 / self.units_per_em
    }

    fn width(&self, size: f64, text: &str) -> f64 {
        text.chars().map(|c| self.advance(self.glyph(c))).sum::<f64>() * size / 1000.0
    }

    /// The text as the font's glyph ids, two bytes each (Identity-H).
    fn encode(&mut self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for ch in text.chars() {
            let ch = if ch.is_control() { ' ' } else { ch };
            let g = self.glyph(ch);
            self.used.entry(g).or_insert(ch);
            out.extend_from_slice(&g.to_be_bytes());
        }
        out
    }

    /// `text` cut short with an ellipsis to fit `max` points.
    fn fit(&self, size: f64, text: &str, max: f64) -> String {
        if self.width(size, text) <= max {
            return text.to_owned();
        }
        let room = max - self.width(size, "…");
        let mut out = String::new();
        let mut used = 0.0;
        for ch in text.chars() {
            used += self.advance(self.glyph(ch)) * size / 1000.0;
            if used > room {
                break;
            }
            out.push(ch);
        }
        out.push('…');
        out
    }

    /// `text` broken into lines of at most `max` points (a word too long
    /// for a line is cut short).
    fn wrap(&self, size: f64, text: &str, max: f64) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if self.width(size, &candidate) > max && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                line = word.to_owned();
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(line);
        }
        lines.into_iter().map(|l| self.fit(size, &l, max)).collect()
    }
}

// ---------------------------------------------------------------------------
// Drawing

fn rgb(c: [u8; 3]) -> (f32, f32, f32) {
    let f = |v: u8| f32::from(v) / 255.0;
    (f(c[0]), f(c[1]), f(c[2]))
}

#[allow(clippy::cast_possible_truncation)]
fn f(v: f64) -> f32 {
    if v.is_finite() { v as f32 } else { 0.0 }
}

/// A content stream drawn with y measured down from the top of a page (or
/// form) `h` points high, as the rest of the program draws.
struct Pen {
    c: Content,
    h: f64,
}

impl Pen {
    fn new(h: f64) -> Pen {
        Pen { c: Content::new(), h }
    }

    fn y(&self, y: f64) -> f32 {
        f(self.h - y)
    }

    fn fill_rgb(&mut self, c: [u8; 3]) {
        let (r, g, b) = rgb(c);
        self.c.set_fill_rgb(r, g, b);
    }

    fn stroke_rgb(&mut self, c: [u8; 3]) {
        let (r, g, b) = rgb(c);
        self.c.set_stroke_rgb(r, g, b);
    }

    fn rect_path(&mut self, x: f64, y: f64, w: f64, h: f64) {
        self.c.rect(f(x), self.y(y + h), f(w), f(h));
    }

    fn fill_rect(&mut self, x: f64, y: f64, w: f64, h: f64, colour: [u8; 3]) {
        self.fill_rgb(colour);
        self.rect_path(x, y, w, h);
        self.c.fill_nonzero();
    }

    fn stroke_rect(&mut self, x: f64, y: f64, w: f64, h: f64, colour: [u8; 3], width: f64) {
        self.stroke_rgb(colour);
        self.c.set_line_width(f(width));
        self.rect_path(x, y, w, h);
        self.c.stroke();
    }

    fn dash(&mut self, on: f64, off: f64) {
        self.c.set_dash_pattern([f(on), f(off)], 0.0);
    }

    fn solid(&mut self) {
        self.c.set_dash_pattern([], 0.0);
    }

    fn line(&mut self, a: (f64, f64), b: (f64, f64), colour: [u8; 3], width: f64) {
        self.stroke_rgb(colour);
        self.c.set_line_width(f(width));
        self.c.move_to(f(a.0), self.y(a.1));
        self.c.line_to(f(b.0), self.y(b.1));
        self.c.stroke();
    }

    fn polygon_path(&mut self, points: &[(f64, f64)]) {
        let mut first = true;
        for &(x, y) in points {
            if first {
                self.c.move_to(f(x), self.y(y));
                first = false;
            } else {
                self.c.line_to(f(x), self.y(y));
            }
        }
        self.c.close_path();
    }

    /// A circle as four Bézier arcs.
    fn circle_path(&mut self, (cx, cy): (f64, f64), r: f64) {
        let k = 0.552_284_75 * r;
        let y = |v: f64| self.h - v;
        self.c.move_to(f(cx + r), f(y(cy)));
        self.c.cubic_to(
            f(cx + r),
            f(y(cy - k)),
            f(cx + k),
            f(y(cy - r)),
            f(cx),
            f(y(cy - r)),
        );
        self.c.cubic_to(
            f(cx - k),
            f(y(cy - r)),
            f(cx - r),
            f(y(cy - k)),
            f(cx - r),
            f(y(cy)),
        );
        self.c.cubic_to(
            f(cx - r),
            f(y(cy + k)),
            f(cx - k),
            f(y(cy + r)),
            f(cx),
            f(y(cy + r)),
        );
        self.c.cubic_to(
            f(cx + k),
            f(y(cy + r)),
            f(cx + r),
            f(y(cy + k)),
            f(cx + r),
            f(y(cy)),
        );
        self.c.close_path();
    }

    /// Text with its baseline at `y`.
    #[allow(clippy::too_many_arguments)]
    fn text(&mut self, ty: &mut Type, x: f64, y: f64, size: f64, text: &str, colour: [u8; 3], bold: bool) {
        let glyphs = ty.encode(text);
        self.fill_rgb(colour);
        if bold {
            self.stroke_rgb(colour);
            self.c.set_line_width(f(size * 0.035));
        }
        self.c.begin_text();
        self.c.set_font(FONT, f(size));
        // The rendering mode is kept in the graphics state: set it every time.
        self.c.set_text_rendering_mode(if bold {
            TextRenderingMode::FillStroke
        } else {
            TextRenderingMode::Fill
        });
        self.c.next_line(f(x), self.y(y));
        self.c.show(Str(&glyphs));
        self.c.end_text();
    }
}

// ---------------------------------------------------------------------------
// The document

#[derive(Debug)]
struct Page {
    w: f64,
    h: f64,
    pen: Pen,
    /// Has its own page number in its margin (the sheets of table).
    numbered: bool,
}

impl std::fmt::Debug for Pen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pen").field("h", &self.h).finish()
    }
}

#[derive(Debug)]
struct Doc {
    paper: Paper,
    ty: Type,
    pages: Vec<Page>,
    /// Drawn on only if there were no page, which `Doc::pen` prevents.
    scratch: Pen,
}

/// Where text flows down the pages of the cover, rosters and sheet.
#[derive(Debug, Clone, Copy)]
struct At {
    y: f64,
}

impl Doc {
    fn new(paper: Paper) -> Doc {
        Doc {
            paper,
            ty: Type::new(),
            pages: Vec::new(),
            scratch: Pen::new(0.0),
        }
    }

    fn upright(&self) -> (f64, f64) {
        let (w, h) = self.paper.size();
        (w * PT, h * PT)
    }

    fn new_page(&mut self, w: f64, h: f64, numbered: bool) {
        self.pages.push(Page {
            w,
            h,
            pen: Pen::new(h),
            numbered,
        });
    }

    /// A new upright page for flowing text.
    fn flow_page(&mut self) -> At {
        let (w, h) = self.upright();
        self.new_page(w, h, false);
        At { y: MARGIN_PT }
    }

    /// The page being drawn, with the font.
    fn pen(&mut self) -> (&mut Pen, &mut Type) {
        if self.pages.is_empty() {
            let (w, h) = self.upright();
            self.new_page(w, h, false);
        }
        let pen = match self.pages.last_mut() {
            Some(p) => &mut p.pen,
            None => &mut self.scratch,
        };
        (pen, &mut self.ty)
    }

    fn text_width(&self) -> f64 {
        self.upright().0 - 2.0 * MARGIN_PT
    }

    /// Room for `height` more points below `at`, else a new page.
    fn room(&mut self, at: &mut At, height: f64) {
        let bottom = self.upright().1 - MARGIN_PT;
        if at.y + height > bottom && at.y > MARGIN_PT + 1.0 {
            *at = self.flow_page();
        }
    }

    /// A paragraph, wrapped, indented by `indent`.
    #[allow(clippy::too_many_arguments)]
    fn paragraph(&mut self, at: &mut At, text: &str, size: f64, indent: f64, bold: bool, colour: [u8; 3]) {
        let width = self.text_width() - indent;
        let lead = size * 1.3;
        for line in self.ty.wrap(size, text, width) {
            self.room(at, lead);
            at.y += lead;
            let (pen, ty) = self.pen();
            pen.text(
                ty,
                MARGIN_PT + indent,
                at.y - size * 0.25,
                size,
                &line,
                colour,
                bold,
            );
        }
    }

    fn heading(&mut self, at: &mut At, text: &str, size: f64) {
        self.room(at, size * 3.0);
        at.y += size * 0.6;
        self.paragraph(at, text, size, 0.0, true, INK);
        at.y += size * 0.3;
    }

    /// A table with `head` over `rows`, columns fitted to the page, each
    /// row kept whole on one page (the head repeated on a new page).
    fn table(&mut self, at: &mut At, head: &[String], rows: &[Vec<Entry>], size: f64) {
        let n = head.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
        if n == 0 {
            return;
        }
        let gap = 7.0;
        let avail = self.text_width() - gap * (n as f64 - 1.0);
        let natural: Vec<f64> = (0..n)
            .map(|i| {
                let head_w = head.get(i).map_or(0.0, |h| self.ty.width(size, h));
                rows.iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.natural(&self.ty, size))
                    .fold(head_w, f64::max)
                    .max(8.0)
            })
            .collect();
        // Boxes keep their width; the words share what is left.
        let rigid: Vec<bool> = (0..n)
            .map(|i| {
                rows.iter()
                    .any(|r| r.get(i).is_some_and(|c| !matches!(c, Entry::Text(_))))
            })
            .collect();
        let fixed: f64 = natural
            .iter()
            .zip(&rigid)
            .filter(|(_, r)| **r)
            .map(|(w, _)| *w)
            .sum();
        let flexible: Vec<f64> = natural
            .iter()
            .zip(&rigid)
            .filter(|(_, r)| !**r)
            .map(|(w, _)| *w)
            .collect();
        let mut shared = share(&flexible, avail - fixed).into_iter();
        let widths: Vec<f64> = natural
            .iter()
            .zip(&rigid)
            .map(|(w, r)| if *r { *w } else { shared.next().unwrap_or(*w) })
            .collect();
        let lead = size * 1.3;
        let head_cells: Vec<Entry> = head.iter().map(|h| Entry::Text(h.clone())).collect();
        let draw_head = |doc: &mut Doc, at: &mut At| {
            doc.row(at, &head_cells, &widths, size, gap, true);
            let (pen, _) = doc.pen();
            let w = widths.iter().sum::<f64>() + gap * (n as f64 - 1.0);
            pen.line((MARGIN_PT, at.y + 2.0), (MARGIN_PT + w, at.y + 2.0), INK, 0.7);
            at.y += 4.0;
        };
        self.room(at, lead * 3.0);
        draw_head(self, at);
        for row in rows {
            let height = row
                .iter()
                .zip(&widths)
                .map(|(c, w)| c.lines(&self.ty, size, *w))
                .max()
                .unwrap_or(1) as f64
                * lead
                + 3.0;
            let before = self.pages.len();
            self.room(at, height);
            if self.pages.len() != before {
                draw_head(self, at);
            }
            self.row(at, row, &widths, size, gap, false);
            let (pen, _) = self.pen();
            let w = widths.iter().sum::<f64>() + gap * (n as f64 - 1.0);
            pen.line((MARGIN_PT, at.y + 2.0), (MARGIN_PT + w, at.y + 2.0), LIGHT, 0.4);
            at.y += 3.0;
        }
        at.y += lead * 0.5;
    }

    /// One row of a table; returns its height.
    #[allow(clippy::too_many_arguments)]
    fn row(&mut self, at: &mut At, cells: &[Entry], widths: &[f64], size: f64, gap: f64, bold: bool) {
        let lead = size * 1.3;
        let mut x = MARGIN_PT;
        let mut tallest = 1_usize;
        let top = at.y;
        for (cell, w) in cells.iter().zip(widths) {
            let (pen, ty) = self.pen();
            let lines = cell.draw(pen, ty, x, top, *w, size, bold);
            tallest = tallest.max(lines);
            x += w + gap;
        }
        at.y = top + tallest as f64 * lead;
    }

    /// The finished file: fonts, the two forms of the table, every page.
    fn finish(
        mut self,
        fields: &SheetFields,
        forms: [(Name<'static>, Vec<u8>); 2],
        table: (f64, f64),
    ) -> Vec<u8> {
        let total = self.pages.len();
        let footer = format!(
            "Battle {} at {} · {} · game move {}",
            fields.battle, fields.region, fields.campaign, fields.turn
        );
        for (i, page) in self.pages.iter_mut().enumerate() {
            if page.numbered {
                continue;
            }
            let words = format!("{footer} · page {} of {total}", i + 1);
            let words = self.ty.fit(7.5, &words, page.w - 2.0 * MARGIN_PT);
            let w = self.ty.width(7.5, &words);
            page.pen.text(
                &mut self.ty,
                (page.w - w) / 2.0,
                page.h - 20.0,
                7.5,
                &words,
                GREY,
                false,
            );
        }

        let mut pdf = Pdf::new();
        let mut next = 1;
        let mut alloc = || {
            let r = Ref::new(next);
            next += 1;
            r
        };
        let catalog = alloc();
        let tree = alloc();
        let info = alloc();
        let type0 = alloc();
        let cid = alloc();
        let descriptor = alloc();
        let font_file = alloc();
        let cmap = alloc();
        let cid_map = alloc();
        let form_refs = [alloc(), alloc()];
        let page_refs: Vec<(Ref, Ref)> = self.pages.iter().map(|_| (alloc(), alloc())).collect();

        pdf.catalog(catalog).pages(tree);
        let count = i32::try_from(page_refs.len()).unwrap_or(i32::MAX);
        pdf.pages(tree).kids(page_refs.iter().map(|p| p.0)).count(count);
        let title = format!("Battle {} at {}: battle pack", fields.battle, fields.region);
        pdf.document_info(info)
            .title(pdf_writer::TextStr(&title))
            .creator(pdf_writer::TextStr("umpire"));

        self.write_font(&mut pdf, [type0, cid, descriptor, font_file, cmap, cid_map]);

        let (tw, td) = (table.0 * PT, table.1 * PT);
        for ((name, content), id) in forms.iter().zip(form_refs) {
            let data = deflate(content);
            let mut form = pdf.form_xobject(id, &data);
            form.filter(Filter::FlateDecode);
            // Room round the table for labels that reach past its edges.
            let pad = if *name == SMALL_FORM { tw.max(td) } else { 4.0 * PT };
            form.bbox(Rect::new(f(-pad), f(-pad), f(tw + pad), f(td + pad)));
            form.resources().fonts().pair(FONT, type0);
            form.finish();
        }

        for (page, (page_ref, content_ref)) in self.pages.into_iter().zip(&page_refs) {
            let mut p = pdf.page(*page_ref);
            p.media_box(Rect::new(0.0, 0.0, f(page.w), f(page.h)));
            p.parent(tree);
            p.contents(*content_ref);
            let mut resources = p.resources();
            resources.fonts().pair(FONT, type0);
            let mut x = resources.x_objects();
            x.pair(forms[0].0, form_refs[0]);
            x.pair(forms[1].0, form_refs[1]);
            x.finish();
            resources.finish();
            p.finish();
            let data = deflate(&page.pen.c.finish());
            pdf.stream(*content_ref, &data).filter(Filter::FlateDecode);
        }
        pdf.finish()
    }

    fn write_font(&self, pdf: &mut Pdf, [type0, cid, descriptor, file, cmap, cid_map]: [Ref; 6]) {
        let subset = subset_font(&self.ty.used);
        // A subset's name starts with a tag of six capitals.
        let base = Name(if subset.is_some() {
            b"UMPIRE+Ubuntu-Light"
        } else {
            b"Ubuntu-Light"
        });
        let system = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        pdf.type0_font(type0)
            .base_font(base)
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap);
        let mut font = pdf.cid_font(cid);
        font.subtype(CidFontType::Type2)
            .base_font(base)
            .system_info(system)
            .font_descriptor(descriptor)
            .default_width(500.0);
        // The text's codes are the whole font's glyph ids; the subset
        // numbers its glyphs anew, so a map from one to the other.
        match &subset {
            Some(_) => font.cid_to_gid_map_stream(cid_map),
            None => font.cid_to_gid_map_predefined(Name(b"Identity")),
        };
        {
            let mut widths = font.widths();
            for g in self.ty.used.keys() {
                widths.consecutive(*g, [f(self.ty.advance(*g))]);
            }
        }
        font.finish();
        let scale = 1000.0 / self.ty.units_per_em;
        let (ascent, descent) = self.ty.font.as_ref().map_or((800.0, -200.0), |font| {
            (
                f64::from(font.ascent_unscaled()) * scale,
                f64::from(font.descent_unscaled()) * scale,
            )
        });
        pdf.font_descriptor(descriptor)
            .name(base)
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(-200.0, f(descent), 1200.0, f(ascent)))
            .italic_angle(0.0)
            .ascent(f(ascent))
            .descent(f(descent))
            .cap_height(f(ascent * 0.85))
            .stem_v(60.0)
            .font_file2(file);
        let bytes = subset
            .as_ref()
            .map_or(epaint_default_fonts::UBUNTU_LIGHT, |(font, _)| font.as_slice());
        let data = deflate(bytes);
        pdf.stream(file, &data)
            .filter(Filter::FlateDecode)
            .pair(Name(b"Length1"), i32::try_from(bytes.len()).unwrap_or(i32::MAX));
        if let Some((_, map)) = &subset {
            pdf.stream(cid_map, &deflate(map)).filter(Filter::FlateDecode);
        }
        let mut map = pdf_writer::types::UnicodeCmap::new(Name(b"Umpire-UCS"), system);
        for (g, ch) in &self.ty.used {
            map.pair(*g, *ch);
        }
        let map = map.finish();
        pdf.cmap(cmap, map.as_slice());
    }
}

/// The font cut down to the glyphs `used`, and the CIDToGIDMap from the
/// whole font's glyph ids to the subset's (two bytes each); `None` if the
/// font could not be cut, when it goes in whole.
fn subset_font(used: &BTreeMap<u16, char>) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut remapper = subsetter::GlyphRemapper::new();
    for g in used.keys() {
        remapper.remap(*g);
    }
    let font = subsetter::subset(epaint_default_fonts::UBUNTU_LIGHT, 0, &remapper).ok()?;
    let last = used.keys().next_back().copied().unwrap_or(0);
    let map = (0..=last)
        .flat_map(|g| remapper.get(g).unwrap_or(0).to_be_bytes())
        .collect();
    Some((font, map))
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    if e.write_all(bytes).is_err() {
        return Vec::new();
    }
    e.finish().unwrap_or_default()
}

/// Column widths: each column its natural width if all fit, else the
/// narrow ones theirs and the rest an even share of what is left.
fn share(natural: &[f64], avail: f64) -> Vec<f64> {
    let total: f64 = natural.iter().sum();
    if total <= avail {
        return natural.to_vec();
    }
    let mut widths = vec![0.0; natural.len()];
    let mut order: Vec<usize> = (0..natural.len()).collect();
    order.sort_by(|a, b| {
        natural
            .get(*a)
            .unwrap_or(&0.0)
            .total_cmp(natural.get(*b).unwrap_or(&0.0))
    });
    let mut left = avail.max(0.0);
    let mut count = natural.len();
    for i in order {
        let fair = left / count.max(1) as f64;
        let w = natural.get(i).copied().unwrap_or(0.0).min(fair);
        if let Some(slot) = widths.get_mut(i) {
            *slot = w;
        }
        left -= w;
        count -= 1;
    }
    widths
}

/// One entry of a printed table.
#[derive(Debug, Clone)]
enum Entry {
    Text(String),
    /// A row of tick boxes, one per roster point.
    Boxes(u32),
    /// A box to write a number in.
    WriteIn,
    /// One tick box.
    Tick,
}

const BOX: f64 = 7.0;
const BOX_PITCH: f64 = 9.5;
/// Tick boxes in a row at most; more wrap.
const MAX_BOXES: u32 = 200;

impl Entry {
    fn natural(&self, ty: &Type, size: f64) -> f64 {
        match self {
            Entry::Text(t) => ty.width(size, t),
            Entry::Boxes(n) => f64::from((*n).clamp(1, 10)) * BOX_PITCH,
            Entry::WriteIn => 34.0,
            Entry::Tick => BOX + 2.0,
        }
    }

    fn lines(&self, ty: &Type, size: f64, width: f64) -> usize {
        match self {
            Entry::Text(t) => ty.wrap(size, t, width).len(),
            Entry::Boxes(n) => {
                let per = boxes_per_line(width);
                let n = (*n).min(MAX_BOXES) as usize;
                n.div_ceil(per).max(1)
            }
            Entry::WriteIn | Entry::Tick => 1,
        }
    }

    /// Draws the cell with its top at `top`; returns the lines it took.
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &self,
        pen: &mut Pen,
        ty: &mut Type,
        x: f64,
        top: f64,
        width: f64,
        size: f64,
        bold: bool,
    ) -> usize {
        let lead = size * 1.3;
        match self {
            Entry::Text(t) => {
                let lines = ty.wrap(size, t, width);
                for (i, line) in lines.iter().enumerate() {
                    let y = top + (i as f64 + 1.0) * lead - size * 0.25;
                    pen.text(ty, x, y, size, line, INK, bold);
                }
                lines.len()
            }
            Entry::Boxes(n) => {
                let per = boxes_per_line(width);
                let n = (*n).min(MAX_BOXES) as usize;
                for i in 0..n {
                    let (col, line) = (i % per, i / per);
                    let bx = x + col as f64 * BOX_PITCH;
                    let by = top + line as f64 * lead + (lead - BOX) / 2.0;
                    pen.stroke_rect(bx, by, BOX, BOX, INK, 0.6);
                }
                n.div_ceil(per).max(1)
            }
            Entry::WriteIn => {
                pen.stroke_rect(x, top + 1.0, width.min(34.0), lead - 1.0, INK, 0.7);
                1
            }
            Entry::Tick => {
                pen.stroke_rect(x, top + (lead - BOX) / 2.0, BOX, BOX, INK, 0.7);
                1
            }
        }
    }
}

fn boxes_per_line(width: f64) -> usize {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let per = (width / BOX_PITCH).floor().clamp(1.0, 1000.0) as usize;
    per
}

// ---------------------------------------------------------------------------
// Cover, rosters, results sheet

/// The cover: the battle's id large, then the briefing.
fn cover(doc: &mut Doc, fields: &SheetFields, briefing: &str) {
    let mut at = doc.flow_page();
    let title = briefing
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("The battle")
        .to_owned();
    {
        let (pen, ty) = doc.pen();
        pen.text(ty, MARGIN_PT, at.y + 14.0, 11.0, "Battle pack", GREY, false);
        pen.text(ty, MARGIN_PT, at.y + 44.0, 26.0, &title, INK, true);
        let id = format!("Battle {}", fields.battle);
        pen.text(ty, MARGIN_PT, at.y + 70.0, 16.0, &id, INK, true);
    }
    at.y += 78.0;
    doc.paragraph(
        &mut at,
        &format!(
            "{} · game move {} · {} · rules: {}",
            fields.campaign, fields.turn, fields.region, fields.rules
        ),
        10.0,
        0.0,
        false,
        GREY,
    );
    doc.paragraph(
        &mut at,
        "In this pack: the briefing; each side's roster; the results sheet; the table on one page; the page map; then the table at true scale on sheets to print at 100% (actual size) and tape together.",
        9.0,
        0.0,
        false,
        GREY,
    );
    at.y += 6.0;
    markdown(doc, &mut at, briefing);
}

/// The briefing's Markdown, set plainly: headings, bullets, tables, paragraphs.
fn markdown(doc: &mut Doc, at: &mut At, text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        let plain = |s: &str| s.replace(['`', '*'], "");
        if line.starts_with("# ") {
            i += 1;
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            doc.heading(at, &plain(h), 11.0);
        } else if let Some(h) = line.strip_prefix("## ") {
            doc.heading(at, &plain(h), 14.0);
        } else if line.trim_start().starts_with('|') {
            let mut rows: Vec<Vec<String>> = Vec::new();
            while let Some(l) = lines.get(i).filter(|l| l.trim_start().starts_with('|')) {
                let cells: Vec<String> = l
                    .trim()
                    .trim_matches('|')
                    .split('|')
                    .map(|c| plain(c.trim()))
                    .collect();
                if !cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':')) {
                    rows.push(cells);
                }
                i += 1;
            }
            let mut rows = rows.into_iter();
            let head = rows.next().unwrap_or_default();
            let body: Vec<Vec<Entry>> = rows.map(|r| r.into_iter().map(Entry::Text).collect()).collect();
            doc.table(at, &head, &body, 8.5);
            continue;
        } else if let Some(b) = line.strip_prefix("  - ") {
            doc.paragraph(at, &format!("– {}", plain(b)), 9.5, 22.0, false, INK);
        } else if let Some(b) = line.strip_prefix("- ") {
            doc.paragraph(at, &format!("• {}", plain(b)), 9.5, 8.0, false, INK);
        } else if let Some(code) = line.strip_prefix("    ") {
            doc.paragraph(at, code, 9.5, 22.0, false, INK);
        } else if line.trim().is_empty() {
            at.y += 4.0;
        } else {
            doc.paragraph(at, &plain(line), 9.5, 0.0, false, INK);
        }
        i += 1;
    }
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::Attacker => "attacker",
        Role::Defender => "defender",
    }
}

/// A side's roster: each stand in the rule set's own terms, with a tick
/// box per roster point it may lose.
fn roster(doc: &mut Doc, scenario: &Scenario, index: usize, side: &crate::scenario::ScenarioSide) {
    let mut at = doc.flow_page();
    let rules = rule_set(scenario.rules);
    let colour = picture::side_colour(side.colour, index);
    {
        let (pen, _) = doc.pen();
        pen.fill_rect(MARGIN_PT, at.y, 14.0, 14.0, colour);
    }
    let title = format!("Roster: {} ({})", side.name, role_word(side.role));
    {
        let (pen, ty) = doc.pen();
        pen.text(ty, MARGIN_PT + 20.0, at.y + 12.0, 16.0, &title, INK, true);
    }
    at.y += 24.0;
    doc.paragraph(
        &mut at,
        &format!(
            "Under {}. Tick a box for each loss a stand takes, counted as the rule set counts them (a box is the figure, model or points the row names). For the results sheet its after is its points in the same share as the boxes left unticked (0 if destroyed).",
            scenario.rules
        ),
        9.0,
        0.0,
        false,
        GREY,
    );
    at.y += 6.0;
    let head: Vec<String> = [
        "id",
        "stand",
        "kind",
        "quality",
        &format!("under {}", scenario.rules),
        "arrives",
        "points",
        "a box is",
        "losses",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let groups = std::iter::once((&side.stands, 0)).chain(side.reserves.iter().map(|r| (&r.stands, r.turn)));
    let mut rows = Vec::new();
    for (stands, turn) in groups {
        for t in stands {
            let muster = rules.map(|r| r.muster(t, side.army)).unwrap_or_default();
            let losses = rules.map_or_else(|| crate::rules::Losses::in_points(t), |r| r.losses(t, side.army));
            rows.push(vec![
                Entry::Text(t.id.0.to_string()),
                Entry::Text(t.name.clone()),
                Entry::Text(t.kind.label().to_owned()),
                Entry::Text(format!("{:?}", t.quality)),
                Entry::Text(muster),
                Entry::Text(if turn == 0 {
                    "start".to_owned()
                } else {
                    format!("turn {turn}")
                }),
                Entry::Text(format!("{} of {}", t.strength, t.full)),
                Entry::Text(losses.each),
                Entry::Boxes(losses.boxes),
            ]);
        }
    }
    doc.table(&mut at, &head, &rows, 8.5);
}

/// The results sheet: `result.toml`'s fields, to fill in by hand.
fn results_sheet(doc: &mut Doc, fields: &SheetFields) {
    let mut at = doc.flow_page();
    {
        let (pen, ty) = doc.pen();
        pen.text(
            ty,
            MARGIN_PT,
            at.y + 16.0,
            18.0,
            &format!("Results sheet: battle {}", fields.battle),
            INK,
            true,
        );
    }
    at.y += 26.0;
    doc.paragraph(
        &mut at,
        &format!(
            "The fields of result.toml. After the battle, write each stand's after (its strength at the end in roster points, 0 if destroyed), tick captured for a gun the enemy took, and the winner; copy them into result.toml and run: umpire result SAVE {} result.toml",
            fields.battle
        ),
        9.0,
        0.0,
        false,
        GREY,
    );
    at.y += 4.0;
    let head = vec!["field".to_owned(), "value".to_owned()];
    let rows = vec![
        vec![
            Entry::Text("campaign".into()),
            Entry::Text(fields.campaign.clone()),
        ],
        vec![
            Entry::Text("battle".into()),
            Entry::Text(fields.battle.to_string()),
        ],
        vec![Entry::Text("turn".into()), Entry::Text(fields.turn.to_string())],
        vec![Entry::Text("region".into()), Entry::Text(fields.region.clone())],
        vec![
            Entry::Text("rules".into()),
            Entry::Text(fields.rules.as_str().to_owned()),
        ],
    ];
    doc.table(&mut at, &head, &rows, 9.5);
    // The winner: a box for each side's id and for a draw.
    doc.room(&mut at, 40.0);
    at.y += 14.0;
    {
        let (pen, ty) = doc.pen();
        pen.text(ty, MARGIN_PT, at.y, 9.5, "winner", INK, true);
        let mut x = MARGIN_PT + 60.0;
        let choices = fields
            .sides
            .iter()
            .map(|s| s.id.clone())
            .chain(["draw".to_owned()]);
        for choice in choices {
            pen.stroke_rect(x, at.y - 7.5, 8.0, 8.0, INK, 0.7);
            pen.text(ty, x + 12.0, at.y, 9.5, &choice, INK, false);
            x += 24.0 + ty.width(9.5, &choice);
        }
    }
    at.y += 16.0;
    {
        let (pen, ty) = doc.pen();
        pen.text(ty, MARGIN_PT, at.y, 9.5, "notes", INK, true);
    }
    for _ in 0..3 {
        let w = doc.text_width();
        let (pen, _) = doc.pen();
        pen.line(
            (MARGIN_PT + 60.0, at.y + 2.0),
            (MARGIN_PT + w, at.y + 2.0),
            GREY,
            0.5,
        );
        at.y += 16.0;
    }
    at.y += 4.0;
    let head: Vec<String> = ["id", "name", "side", "kind", "before", "after", "captured"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    for side in &fields.sides {
        doc.heading(
            &mut at,
            &format!("{} ({})", side.name, role_word(side.role)),
            11.0,
        );
        let rows: Vec<Vec<Entry>> = side
            .stands
            .iter()
            .map(|s| {
                vec![
                    Entry::Text(s.id.0.to_string()),
                    Entry::Text(s.name.clone()),
                    Entry::Text(s.side.clone()),
                    Entry::Text(s.kind.as_str().to_owned()),
                    Entry::Text(s.before.to_string()),
                    Entry::WriteIn,
                    if s.gun {
                        Entry::Tick
                    } else {
                        Entry::Text("-".to_owned())
                    },
                ]
            })
            .collect();
        doc.table(&mut at, &head, &rows, 9.0);
    }
}

// ---------------------------------------------------------------------------
// The table

/// Draws the whole table into `pen` in points at true scale (a point of the
/// drawing is a point of table), its far-left corner at the origin. Marks,
/// lines and words are `grow` times their printed size, for a drawing
/// shown at 1 / `grow` of true scale.
fn draw_table(
    pen: &mut Pen,
    ty: &mut Type,
    scenario: &Scenario,
    cells: Option<&[Cell]>,
    starts: &[StandStart],
    grow: f64,
) {
    let t = &scenario.table;
    let cp = cell_inches(t) * PT;
    let (w, d) = (f64::from(t.width) * cp, f64::from(t.depth) * cp);
    // The terrain stays on the table (roads' round ends, textures).
    pen.c.save_state();
    pen.rect_path(0.0, 0.0, w, d);
    pen.c.clip_nonzero();
    pen.c.end_path();
    pen.fill_rect(0.0, 0.0, w, d, picture::ground_colour(Ground::Open));
    let grid = Grid { t, cells, cp };
    if let Some(cells) = cells {
        // Runs of one colour along each row.
        for (y, row) in cells.chunks(t.width.max(1) as usize).enumerate() {
            let mut x = 0;
            while x < row.len() {
                let colour = row.get(x).map_or([0; 3], picture::cell_colour);
                let mut end = x + 1;
                while row.get(end).is_some_and(|c| picture::cell_colour(c) == colour) {
                    end += 1;
                }
                if colour != picture::ground_colour(Ground::Open) {
                    pen.fill_rect(x as f64 * cp, y as f64 * cp, (end - x) as f64 * cp, cp, colour);
                }
                x = end;
            }
        }
        grid.textures(pen, grow);
        grid.edges(
            pen,
            |c, n| c.level > 0 && n.is_some_and(|n| n.level < c.level),
            picture::CONTOUR_COLOUR,
            (cp * 0.03).max(1.2 * grow),
        );
        grid.edges(
            pen,
            |c, n| {
                c.ground == Ground::River
                    && n.is_some_and(|n| !matches!(n.ground, Ground::River | Ground::Bridge | Ground::Ford))
            },
            RIVER_BANK,
            (cp * 0.03).max(1.0 * grow),
        );
        grid.roads(pen, grow);
        for cover in [Cover::WallOrHedge, Cover::Entrenchment] {
            grid.edges(
                pen,
                |c, n| c.cover == Some(cover) && n.is_none_or(|n| n.cover != Some(cover)),
                picture::cover_colour(cover),
                (cp * 0.06).clamp(2.0, 6.0).max(1.5 * grow),
            );
        }
    }
    // Grid games: every square; inch games: a faint line every foot.
    if t.grid {
        let every = (1.0_f64).max((3.0 * grow / cp).ceil());
        lines_at(pen, (w, d), cp * every, GREY, 0.5 * grow, None);
    } else {
        let foot = PT * 12.0;
        let every = (1.0_f64).max((6.0 * grow / foot).ceil());
        lines_at(pen, (w, d), foot * every, LIGHT, 0.6 * grow, Some(6.0 * grow));
    }
    pen.solid();
    pen.c.restore_state();
    // Zones and reserve areas.
    for (i, side) in scenario.sides.iter().enumerate().take(8) {
        let colour = picture::side_colour(side.colour, i);
        for reserve in &side.reserves {
            let label = format!("{} reserve, arrives turn {}", side.name, reserve.turn);
            zone(pen, ty, grid.area(reserve.area), colour, 1.6 * grow, &label, grow);
        }
        let label = format!("{} ({}) deploys here", side.name, role_word(side.role));
        zone(
            pen,
            ty,
            grid.area(side.deployment),
            colour,
            2.6 * grow,
            &label,
            grow,
        );
    }
    pen.solid();
    // Objectives.
    for o in scenario
        .objectives
        .iter()
        .filter(|o| o.x < t.width && o.y < t.depth)
    {
        let (cx, cy) = ((f64::from(o.x) + 0.5) * cp, (f64::from(o.y) + 0.5) * cp);
        let r = (cp * 0.3).clamp(8.0, 24.0).max(7.0 * grow);
        let points: Vec<(f64, f64)> = (0..10)
            .map(|i| {
                let a = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
                let rr = if i % 2 == 0 { r } else { r * 0.45 };
                (cx + rr * a.cos(), cy + rr * a.sin())
            })
            .collect();
        pen.fill_rgb(GOLD);
        pen.stroke_rgb(INK);
        pen.c.set_line_width(f(0.8 * grow));
        pen.polygon_path(&points);
        pen.c.fill_nonzero_and_stroke();
        label(
            pen,
            ty,
            cx + r + 2.0 * grow,
            cy + 3.0 * grow,
            8.5 * grow,
            &o.name,
            false,
        );
    }
    // Stands where they start.
    let ci = cell_inches(t);
    let sw = ((ci * 0.5).clamp(0.75, 1.5) * PT).max(11.0 * grow);
    let sh = sw / 2.0;
    let mut seen: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    for s in starts {
        let (x, y) = (s.at.0 * cp, s.at.1 * cp);
        if !(x >= 0.0 && y >= 0.0 && x < w && y < d) {
            continue;
        }
        let key = (round(x), round(y));
        let stacked = seen.entry(key).or_insert(0);
        let shift = f64::from((*stacked).min(8)) * sh * 0.4;
        *stacked += 1;
        let (x, y) = (x + shift, y + shift);
        let colour = picture::side_colour(scenario.sides.get(s.side).and_then(|sd| sd.colour), s.side);
        stand(
            pen,
            (x - sw / 2.0, y - sh / 2.0, sw, sh),
            s.mark,
            s.reserve,
            colour,
            grow,
        );
        let tag = picture::stand_tag(s.id, s.kind);
        let size = if grow > 1.0 { 5.0 * grow } else { 7.0 };
        let tw = ty.width(size, &tag);
        label(
            pen,
            ty,
            x - tw / 2.0,
            y + sh / 2.0 + size * 1.05,
            size,
            &tag,
            true,
        );
    }
    // The frame, just inside the table, so a sheet's window shows it whole.
    pen.solid();
    let frame = 2.0 * grow;
    pen.stroke_rect(frame / 2.0, frame / 2.0, w - frame, d - frame, INK, frame);
}

fn round(v: f64) -> i64 {
    #[allow(clippy::cast_possible_truncation)]
    let r = v.round() as i64;
    r
}

/// Words on the table on a pale ground so they read over the terrain.
/// `words` at the top of a fixed page, under its title, wrapped to `width`
/// in 8.5-point type; returns the lines it took.
fn page_note(pen: &mut Pen, ty: &mut Type, words: &str, width: f64, colour: [u8; 3]) -> usize {
    let lines = ty.wrap(8.5, words, width);
    for (i, line) in lines.iter().enumerate() {
        pen.text(
            ty,
            MARGIN_PT,
            MARGIN_PT + 30.0 + i as f64 * 11.0,
            8.5,
            line,
            colour,
            false,
        );
    }
    lines.len()
}

fn label(pen: &mut Pen, ty: &mut Type, x: f64, y: f64, size: f64, words: &str, pale: bool) {
    if pale {
        let w = ty.width(size, words);
        pen.fill_rect(
            x - size * 0.15,
            y - size * 0.8,
            w + size * 0.3,
            size * 1.05,
            WHITE,
        );
    }
    pen.text(ty, x, y, size, words, INK, false);
}

/// Lines across and down the table `spacing` points apart.
#[allow(clippy::too_many_arguments)]
fn lines_at(pen: &mut Pen, (w, d): (f64, f64), spacing: f64, colour: [u8; 3], line: f64, dash: Option<f64>) {
    if !(spacing.is_finite() && spacing > 0.0) || w / spacing > 5000.0 || d / spacing > 5000.0 {
        return;
    }
    if let Some(dash) = dash {
        pen.dash(dash, dash);
    }
    let mut x = spacing;
    while x < w - 0.01 {
        pen.line((x, 0.0), (x, d), colour, line);
        x += spacing;
    }
    let mut y = spacing;
    while y < d - 0.01 {
        pen.line((0.0, y), (w, y), colour, line);
        y += spacing;
    }
    pen.solid();
}

/// A zone: a dashed outline in the side's colour, its words inside.
#[allow(clippy::too_many_arguments)]
fn zone(
    pen: &mut Pen,
    ty: &mut Type,
    r: (f64, f64, f64, f64),
    colour: [u8; 3],
    width: f64,
    words: &str,
    grow: f64,
) {
    let (x, y, w, h) = r;
    if w <= 0.0 || h <= 0.0 {
        return;
    }
    pen.dash(width * 4.0, width * 2.0);
    pen.stroke_rect(
        x + width,
        y + width,
        w - 2.0 * width,
        h - 2.0 * width,
        colour,
        width,
    );
    pen.solid();
    let size = 9.0 * grow;
    let words = ty.fit(size, words, (w - 4.0 * width).max(size));
    let tw = ty.width(size, &words);
    pen.fill_rect(
        x + 2.5 * width,
        y + 2.5 * width,
        tw + size * 0.4,
        size * 1.3,
        WHITE,
    );
    pen.text(
        ty,
        x + 2.5 * width + size * 0.2,
        y + 2.5 * width + size,
        size,
        &words,
        colour,
        true,
    );
}

/// A stand: a rectangle in its side's colour (hollow for reserves) with
/// its arm's mark, as on `table.png`.
fn stand(
    pen: &mut Pen,
    (x, y, w, h): (f64, f64, f64, f64),
    mark: Mark,
    hollow: bool,
    colour: [u8; 3],
    grow: f64,
) {
    let edge = 0.8 * grow;
    let ink = if hollow {
        pen.fill_rect(x, y, w, h, WHITE);
        pen.stroke_rect(x, y, w, h, colour, 2.0 * edge);
        colour
    } else {
        pen.fill_rect(x, y, w, h, colour);
        pen.stroke_rect(x, y, w, h, INK, edge);
        contrast(colour)
    };
    let inset = h * 0.18;
    let (x0, y0, x1, y1) = (x + inset, y + inset, x + w - inset, y + h - inset);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let line = (h * 0.08).max(0.6 * grow);
    let dot = (y1 - y0) * 0.3;
    let cross = |pen: &mut Pen| {
        pen.line((x0, y0), (x1, y1), ink, line);
        pen.line((x0, y1), (x1, y0), ink, line);
    };
    let slash = |pen: &mut Pen| pen.line((x0, y1), (x1, y0), ink, line);
    let disc = |pen: &mut Pen, r: f64| {
        pen.fill_rgb(ink);
        pen.circle_path((cx, cy), r);
        pen.c.fill_nonzero();
    };
    match mark {
        Mark::Infantry => cross(pen),
        Mark::MountedInfantry => {
            cross(pen);
            pen.line((x0, cy), (x1, cy), ink, line);
        }
        Mark::Cavalry => slash(pen),
        Mark::Artillery => disc(pen, dot),
        Mark::HorseArtillery => {
            slash(pen);
            disc(pen, dot);
        }
        Mark::MachineGun => {
            let d = dot * 1.3;
            pen.fill_rgb(ink);
            pen.polygon_path(&[(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]);
            pen.c.fill_nonzero();
        }
        Mark::Command => {
            let pole = x0 + (x1 - x0) * 0.3;
            pen.line((pole, y0), (pole, y1), ink, line);
            pen.fill_rgb(ink);
            pen.polygon_path(&[(pole, y0), (x1, (y0 + cy) / 2.0), (pole, cy)]);
            pen.c.fill_nonzero();
        }
        Mark::Transport => {
            pen.stroke_rgb(ink);
            pen.c.set_line_width(f(line));
            pen.circle_path((cx, cy), dot + line);
            pen.c.stroke();
        }
    }
}

/// Black or white, whichever reads better on `c`.
fn contrast(c: [u8; 3]) -> [u8; 3] {
    let [r, g, b] = c;
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma > 150.0 { [0, 0, 0] } else { WHITE }
}

/// The table's cells, for the drawing of edges and roads.
struct Grid<'a> {
    t: &'a Table,
    cells: Option<&'a [Cell]>,
    /// Points to the cell.
    cp: f64,
}

impl Grid<'_> {
    fn cell(&self, x: i64, y: i64) -> Option<Cell> {
        if x < 0 || y < 0 || x >= i64::from(self.t.width) || y >= i64::from(self.t.depth) {
            return None;
        }
        let i = usize::try_from(y * i64::from(self.t.width) + x).ok()?;
        self.cells?.get(i).copied()
    }

    fn each(&self) -> impl Iterator<Item = (i64, i64, Cell)> + '_ {
        let width = i64::from(self.t.width.max(1));
        self.cells.into_iter().flatten().enumerate().map(move |(i, c)| {
            let i = i64::try_from(i).unwrap_or(0);
            (i % width, i / width, *c)
        })
    }

    /// An area clipped to the table, in points: x, y, w, h.
    fn area(&self, a: crate::scenario::Area) -> (f64, f64, f64, f64) {
        let x = a.x.min(self.t.width);
        let y = a.y.min(self.t.depth);
        let w = a.w.min(self.t.width - x);
        let h = a.h.min(self.t.depth - y);
        (
            f64::from(x) * self.cp,
            f64::from(y) * self.cp,
            f64::from(w) * self.cp,
            f64::from(h) * self.cp,
        )
    }

    /// A line along each side of a cell where `edge(cell, neighbour)` holds
    /// (the neighbour `None` off the table), just inside the cell.
    fn edges(&self, pen: &mut Pen, edge: impl Fn(&Cell, Option<Cell>) -> bool, colour: [u8; 3], width: f64) {
        let cp = self.cp;
        let inset = width / 2.0;
        pen.stroke_rgb(colour);
        pen.c.set_line_width(f(width));
        pen.c.set_line_cap(LineCapStyle::ProjectingSquareCap);
        let mut any = false;
        for (x, y, cell) in self.each() {
            let (x0, y0) = (x as f64 * cp, y as f64 * cp);
            let (x1, y1) = (x0 + cp, y0 + cp);
            let sides = [
                ((-1, 0), (x0 + inset, y0), (x0 + inset, y1)),
                ((1, 0), (x1 - inset, y0), (x1 - inset, y1)),
                ((0, -1), (x0, y0 + inset), (x1, y0 + inset)),
                ((0, 1), (x0, y1 - inset), (x1, y1 - inset)),
            ];
            for ((dx, dy), a, b) in sides {
                if edge(&cell, self.cell(x + dx, y + dy)) {
                    pen.c.move_to(f(a.0), pen.y(a.1));
                    pen.c.line_to(f(b.0), pen.y(b.1));
                    any = true;
                }
            }
        }
        if any {
            pen.c.stroke();
        } else {
            pen.c.end_path();
        }
        pen.c.set_line_cap(LineCapStyle::ButtCap);
    }

    /// Roads: a band from each road cell's centre to each road neighbour,
    /// and off the table where a straight road runs to the edge.
    fn roads(&self, pen: &mut Pen, grow: f64) {
        let cp = self.cp;
        let width = (cp * 0.2).clamp(4.0, 36.0).max(2.5 * grow);
        let road = |x: i64, y: i64| self.cell(x, y).is_some_and(|c| c.road);
        let on = |x: i64, y: i64| self.cell(x, y).is_some();
        for (colour, w) in [
            (ROAD_EDGE, width + 2.0 * grow.min(cp * 0.05).max(0.8)),
            (picture::ROAD_COLOUR, width),
        ] {
            pen.stroke_rgb(colour);
            pen.c.set_line_width(f(w));
            pen.c.set_line_cap(LineCapStyle::RoundCap);
            let mut any = false;
            for (x, y, cell) in self.each() {
                if !cell.road {
                    continue;
                }
                let c = ((x as f64 + 0.5) * cp, (y as f64 + 0.5) * cp);
                let mut arms = 0;
                for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                    let to_road = road(x + dx, y + dy) && (dx > 0 || dy > 0);
                    let off_edge = !on(x + dx, y + dy) && road(x - dx, y - dy);
                    if road(x + dx, y + dy) {
                        arms += 1;
                    }
                    if to_road || off_edge {
                        let end = (
                            c.0 + dx as f64 * cp * if off_edge { 0.5 } else { 1.0 },
                            c.1 + dy as f64 * cp * if off_edge { 0.5 } else { 1.0 },
                        );
                        pen.c.move_to(f(c.0), pen.y(c.1));
                        pen.c.line_to(f(end.0), pen.y(end.1));
                        any = true;
                    }
                }
                if arms == 0 {
                    pen.c.move_to(f(c.0), pen.y(c.1));
                    pen.c.line_to(f(c.0 + 0.01), pen.y(c.1));
                    any = true;
                }
            }
            if any {
                pen.c.stroke();
            }
        }
        pen.c.set_line_cap(LineCapStyle::ButtCap);
    }

    /// Water under a deck running across the river, parapets either side,
    /// as `table.png` draws a bridge.
    fn bridge(&self, pen: &mut Pen, x: i64, y: i64, grow: f64) {
        let cp = self.cp;
        let water = |c: Option<Cell>| {
            c.is_some_and(|c| matches!(c.ground, Ground::River | Ground::Ford | Ground::Bridge))
        };
        let across = water(self.cell(x - 1, y)) || water(self.cell(x + 1, y));
        let down = water(self.cell(x, y - 1)) || water(self.cell(x, y + 1));
        let (x0, y0) = (x as f64 * cp, y as f64 * cp);
        pen.fill_rect(x0, y0, cp, cp, picture::ground_colour(Ground::River));
        let inset = cp / 5.0;
        let parapet = (cp / 18.0).max(0.8 * grow);
        let dark = [84, 82, 79];
        if across || !down {
            // The river runs across: the deck runs down the table.
            pen.fill_rect(
                x0 + inset,
                y0,
                cp - 2.0 * inset,
                cp,
                picture::ground_colour(Ground::Bridge),
            );
            pen.fill_rect(x0 + inset, y0, parapet, cp, dark);
            pen.fill_rect(x0 + cp - inset - parapet, y0, parapet, cp, dark);
        } else {
            pen.fill_rect(
                x0,
                y0 + inset,
                cp,
                cp - 2.0 * inset,
                picture::ground_colour(Ground::Bridge),
            );
            pen.fill_rect(x0, y0 + inset, cp, parapet, dark);
            pen.fill_rect(x0, y0 + cp - inset - parapet, cp, parapet, dark);
        }
    }

    /// Trees in woods and houses in built-up cells, a few to a cell, where
    /// cells are large enough to show them.
    fn textures(&self, pen: &mut Pen, grow: f64) {
        let cp = self.cp;
        if cp < 14.0 * grow {
            return;
        }
        let step = (cp / 3.0).max(10.0 * grow);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = (cp / step).floor().clamp(1.0, 12.0) as u32;
        for (x, y, cell) in self.each() {
            if cell.ground == Ground::Bridge {
                self.bridge(pen, x, y, grow);
                continue;
            }
            let dark = |c: [u8; 3]| {
                let m = |v: u8| v.saturating_sub(v / 3);
                [m(c[0]), m(c[1]), m(c[2])]
            };
            let fill = dark(picture::cell_colour(&cell));
            let woods = matches!(cell.ground, Ground::ForestEdge | Ground::ForestInterior);
            let town = matches!(cell.ground, Ground::BuiltUpOuter | Ground::BuiltUpInner);
            if !woods && !town {
                continue;
            }
            pen.fill_rgb(fill);
            let s = cp / f64::from(n);
            for i in 0..n {
                for j in 0..n {
                    let cx =
                        x as f64 * cp + (f64::from(i) + 0.5) * s + if j % 2 == 1 { s * 0.25 } else { 0.0 };
                    let cy = y as f64 * cp + (f64::from(j) + 0.5) * s;
                    if woods {
                        pen.circle_path((cx, cy), s * 0.22);
                    } else {
                        pen.rect_path(cx - s * 0.2, cy - s * 0.15, s * 0.4, s * 0.3);
                    }
                }
            }
            pen.c.fill_nonzero();
        }
    }
}

// ---------------------------------------------------------------------------
// The table on one page, the page map and the sheets

/// Where the small drawing goes on a page `page_w` x `page_h` points:
/// its top-left corner, centred below the heading.
fn small_origin(page_w: f64, table_w: f64, small: f64) -> (f64, f64) {
    ((page_w - table_w * PT * small) / 2.0, MARGIN_PT + SMALL_TOP)
}

/// The page size that shows the small drawing (upright or sideways).
fn small_page(paper: Paper, table_w: f64, table_d: f64, small: f64) -> (f64, f64) {
    let (pw, ph) = paper.size();
    let fits = |w: f64, h: f64| {
        table_w * PT * small <= w * PT - 2.0 * MARGIN_PT + 0.01
            && table_d * PT * small <= h * PT - 2.0 * MARGIN_PT - SMALL_TOP - SMALL_BOTTOM + 0.01
    };
    if fits(pw, ph) {
        (pw * PT, ph * PT)
    } else {
        (ph * PT, pw * PT)
    }
}

/// Shows a form with its top-left corner at (`x`, `y`) of the page, scaled.
fn show_form(pen: &mut Pen, form: Name, x: f64, y: f64, scale: f64, form_h: f64) {
    pen.c.save_state();
    // The form's origin is its bottom-left corner, `form_h` points below its top.
    pen.c
        .transform([f(scale), 0.0, 0.0, f(scale), f(x), f(pen.h - y - form_h * scale)]);
    pen.c.x_object(form);
    pen.c.restore_state();
}

/// The whole table at one page, with a legend.
fn whole_table(doc: &mut Doc, scenario: &Scenario, cells: Option<&[Cell]>, small: f64, fields: &SheetFields) {
    let (tw, td) = table_inches(&scenario.table);
    let (pw, ph) = small_page(doc.paper, tw, td, small);
    doc.new_page(pw, ph, false);
    let t = &scenario.table;
    let (pen, ty) = doc.pen();
    pen.text(
        ty,
        MARGIN_PT,
        MARGIN_PT + 14.0,
        15.0,
        &format!(
            "The table at one page: battle {} at {}",
            fields.battle, fields.region
        ),
        INK,
        true,
    );
    let unit = if t.grid { "squares" } else { "cells" };
    let scale_words = format!(
        "{} x {} {unit} of {} in: {:.0} x {:.0} inches ({:.1} x {:.1} ft). Not to scale: 1 inch here is {:.1} inches of table; the sheets after the page map are at true scale.",
        t.width,
        t.depth,
        cell_inches(t),
        tw,
        td,
        tw / 12.0,
        td / 12.0,
        1.0 / small
    );
    page_note(pen, ty, &scale_words, pw - 2.0 * MARGIN_PT, GREY);
    let (x, y) = small_origin(pw, tw, small);
    show_form(pen, SMALL_FORM, x, y, small, td * PT);
    // Edge words: the far edge on top, the near edge (attacker's approach) below.
    let below = y + td * PT * small;
    let near = "near edge: the attacker's main approach";
    let near_w = ty.width(8.0, near);
    pen.text(ty, (pw - near_w) / 2.0, below + 12.0, 8.0, near, GREY, false);
    legend(
        pen,
        ty,
        scenario,
        cells,
        (MARGIN_PT, below + 30.0),
        pw - 2.0 * MARGIN_PT,
    );
}

/// The terrain and marks the table shows, with their colours.
fn legend(
    pen: &mut Pen,
    ty: &mut Type,
    scenario: &Scenario,
    cells: Option<&[Cell]>,
    (x0, y0): (f64, f64),
    width: f64,
) {
    let mut features: BTreeSet<(u8, String)> = BTreeSet::new();
    let mut items: Vec<([u8; 3], String, bool)> = Vec::new();
    for c in cells.into_iter().flatten() {
        let f = if c.level > 0 && c.ground == Ground::Open {
            Feature::Hill(c.level.min(4))
        } else {
            Feature::Ground(c.ground)
        };
        if features.insert((0, f.label())) {
            items.push((f.colour(), f.label(), false));
        }
        if c.road && features.insert((1, "road".into())) {
            items.push((picture::ROAD_COLOUR, "road".into(), false));
        }
        if let Some(cover) = c.cover {
            let f = Feature::Cover(cover);
            if features.insert((2, f.label())) {
                items.push((f.colour(), f.label(), false));
            }
        }
    }
    for (i, side) in scenario.sides.iter().enumerate().take(8) {
        let colour = picture::side_colour(side.colour, i);
        items.push((colour, format!("{} ({})", side.name, role_word(side.role)), true));
    }
    let marks: BTreeSet<Mark> = scenario
        .sides
        .iter()
        .flat_map(|s| {
            s.stands
                .iter()
                .chain(s.reserves.iter().flat_map(|r| r.stands.iter()))
        })
        .map(|s| Mark::of(s.kind))
        .collect();
    let size = 8.0;
    let (mut x, mut y) = (x0, y0);
    let mut place = |w: f64| {
        if x + w > x0 + width {
            x = x0;
            y += 15.0;
        }
        let at = (x, y);
        x += w + 12.0;
        at
    };
    for (colour, words, side) in &items {
        let w = 16.0 + ty.width(size, words);
        let (lx, ly) = place(w);
        if *side {
            pen.fill_rect(lx, ly, 12.0, 8.0, *colour);
        } else {
            pen.fill_rect(lx, ly, 12.0, 8.0, *colour);
            pen.stroke_rect(lx, ly, 12.0, 8.0, GREY, 0.4);
        }
        pen.text(ty, lx + 16.0, ly + 7.5, size, words, INK, false);
    }
    for m in marks {
        let words = m.label();
        let w = 24.0 + ty.width(size, words);
        let (lx, ly) = place(w);
        stand(pen, (lx, ly - 1.0, 20.0, 10.0), m, false, GREY, 1.0);
        pen.text(ty, lx + 24.0, ly + 7.5, size, words, INK, false);
    }
    let words = "hollow: a reserve, where it comes on; under each stand its campaign id";
    let w = ty.width(size, words);
    let (lx, ly) = place(w);
    pen.text(ty, lx, ly + 7.5, size, words, GREY, false);
}

/// The page map: which sheet goes where, and how to put them together.
fn page_map(doc: &mut Doc, layout: &TileLayout, small: f64, first: usize, drawn: bool) {
    let (tw, td) = (layout.table_w, layout.table_d);
    let (pw, ph) = small_page(doc.paper, tw, td, small);
    doc.new_page(pw, ph, false);
    let (pen, ty) = doc.pen();
    pen.text(
        ty,
        MARGIN_PT,
        MARGIN_PT + 14.0,
        15.0,
        "Page map: the table at true scale",
        INK,
        true,
    );
    let count = layout.count();
    let words = if drawn {
        format!(
            "{count} sheets of {} {}, pages {first} to {}: {} columns (A to {}) by {} rows. Print them at 100% (actual size, not fit to page); check the bar at the foot of a sheet measures 4 inches. Trim each sheet along its cut lines (its left and top edges, marked at the corners) and lay it over its neighbours with the cut edge on their dashed join line; tape from behind. The {:.0} mm strips under the joins repeat the table.",
            layout.paper.name(),
            if layout.landscape { "sideways" } else { "upright" },
            first + usize::try_from(count).unwrap_or(usize::MAX) - 1,
            layout.columns,
            super::tiles::tile_name(layout.columns.saturating_sub(1), 0).trim_end_matches(char::is_numeric),
            layout.rows,
            layout.overlap * MM_PER_INCH,
        )
    } else {
        format!(
            "The table would take {count} sheets of {}: more than {MAX_TILE_SHEETS}, so they are left out; use the page at one page and measure from it.",
            layout.paper.name()
        )
    };
    let lines = page_note(pen, ty, &words, pw - 2.0 * MARGIN_PT, INK);
    let (x, y) = small_origin(pw, tw, small);
    let y = y + (lines.saturating_sub(2) as f64) * 11.0;
    show_form(pen, SMALL_FORM, x, y, small, td * PT);
    if !drawn {
        return;
    }
    // Each sheet's own part (up to its neighbours' cut edges), named.
    let k = small * PT;
    for tile in layout.tiles() {
        let x0 = x + tile.x * k;
        let y0 = y + tile.y * k;
        let w = (layout.stride_x().min(tw - tile.x)) * k;
        let h = (layout.stride_y().min(td - tile.y)) * k;
        pen.stroke_rect(x0, y0, w, h, JOIN, 1.0);
        let name = tile.name();
        let page = format!("p. {}", first as u64 + tile.row * layout.columns + tile.column);
        let size = (w.min(h) * 0.28).clamp(4.0, 11.0);
        let nw = ty.width(size, &name).max(ty.width(size * 0.75, &page));
        pen.fill_rect(
            x0 + w / 2.0 - nw / 2.0 - 1.5,
            y0 + h / 2.0 - size,
            nw + 3.0,
            size * 1.9,
            WHITE,
        );
        pen.text(
            ty,
            x0 + w / 2.0 - ty.width(size, &name) / 2.0,
            y0 + h / 2.0,
            size,
            &name,
            JOIN,
            true,
        );
        pen.text(
            ty,
            x0 + w / 2.0 - ty.width(size * 0.75, &page) / 2.0,
            y0 + h / 2.0 + size * 0.8,
            size * 0.75,
            &page,
            INK,
            false,
        );
    }
}

/// One sheet of the table at true scale.
fn tile_page(doc: &mut Doc, layout: &TileLayout, tile: &Tile, scenario: &Scenario, first: usize) {
    let (pw, ph) = (layout.page_w * PT, layout.page_h * PT);
    doc.new_page(pw, ph, true);
    let page_no = doc.pages.len();
    let (pen, ty) = doc.pen();
    let m = layout.margin * PT;
    let (ww, wh) = (layout.window_w * PT, layout.window_h * PT);
    let td = layout.table_d * PT;
    // The table through the window: its point (x, y) inches at
    // (m + (x - tile.x) * 72, m + (y - tile.y) * 72) of the page.
    pen.c.save_state();
    pen.rect_path(m, m, ww, wh);
    pen.c.clip_nonzero();
    pen.c.end_path();
    show_form(pen, TABLE_FORM, m - tile.x * PT, m - tile.y * PT, 1.0, td);
    pen.c.restore_state();
    let (right, bottom) = (m + (tile.w * PT).min(ww), m + (tile.h * PT).min(wh));
    // Corner marks on the window's corners, in the margin.
    let mark = m * 0.6;
    for (cx, cy) in [(m, m), (m + ww, m), (m, m + wh), (m + ww, m + wh)] {
        let sx = if cx <= m { -1.0 } else { 1.0 };
        let sy = if cy <= m { -1.0 } else { 1.0 };
        pen.line((cx + sx * 3.0, cy), (cx + sx * mark, cy), INK, 0.5);
        pen.line((cx, cy + sy * 3.0), (cx, cy + sy * mark), INK, 0.5);
    }
    // Cut lines: the left edge past the first column, the top past the first row.
    pen.dash(3.0, 2.0);
    if tile.column > 0 {
        pen.line((m, 0.0), (m, m - 2.0), INK, 0.6);
        pen.line((m, m + wh + 2.0), (m, ph), INK, 0.6);
        pen.text(ty, m + 2.0, m + wh + 16.0, 6.5, "cut", INK, false);
    }
    if tile.row > 0 {
        pen.line((0.0, m), (m - 2.0, m), INK, 0.6);
        pen.line((m + ww + 2.0, m), (pw, m), INK, 0.6);
    }
    // Join lines: where the next sheet's cut edge lies.
    let joins_x = tile.column + 1 < layout.columns;
    let joins_y = tile.row + 1 < layout.rows;
    let (jx, jy) = (m + layout.stride_x() * PT, m + layout.stride_y() * PT);
    pen.dash(6.0, 3.0);
    if joins_x {
        pen.line((jx, m), (jx, bottom), JOIN, 0.9);
    }
    if joins_y {
        pen.line((m, jy), (right, jy), JOIN, 0.9);
    }
    pen.solid();
    if joins_x {
        let next = super::tiles::tile_name(tile.column + 1, tile.row);
        pen.text(
            ty,
            jx + 2.0,
            m + wh + 9.0,
            6.5,
            &format!("join: {next} here"),
            JOIN,
            false,
        );
    }
    if joins_y {
        let next = super::tiles::tile_name(tile.column, tile.row + 1);
        pen.text(ty, m + ww + 2.0, jy + 2.5, 6.5, &next, JOIN, true);
    }
    // The sheet's name and where it is.
    let name = tile.name();
    pen.text(ty, m + 5.0, 11.0, 9.5, &name, INK, true);
    let words = format!(
        "column {} of {}, row {} of {} · table {:.1}-{:.1} in across, {:.1}-{:.1} in in from the far edge · sheet {} of {}, page {page_no} · print at 100%",
        tile.column + 1,
        layout.columns,
        tile.row + 1,
        layout.rows,
        tile.x,
        tile.x + tile.w,
        tile.y,
        tile.y + tile.h,
        page_no + 1 - first,
        layout.count(),
    );
    let words = ty.fit(6.5, &words, ww - 40.0);
    pen.text(
        ty,
        m + 12.0 + ty.width(9.5, &name),
        11.0,
        6.5,
        &words,
        GREY,
        false,
    );
    // Rulers along the top and left edges, in the table's own measure.
    rulers(pen, ty, tile, scenario, (m, right, bottom));
    // The scale check: a bar of 4 inches with a tick every inch.
    let (bx, by) = (m + ww - 4.0 * PT - 4.0, ph - m * 0.35);
    pen.line((bx, by), (bx + 4.0 * PT, by), INK, 1.0);
    for i in 0..=4 {
        let x = bx + f64::from(i) * PT;
        pen.line((x, by - 3.0), (x, by), INK, 0.6);
    }
    let check = "this bar is 4 in (101.6 mm) printed at 100%";
    let cw = ty.width(6.0, check);
    pen.text(ty, bx - cw - 4.0, by + 1.5, 6.0, check, GREY, false);
}

/// Ticks along the window's top and left edges: every inch (a longer one
/// every 6 and 12) on inch tables, every square on grid tables, numbered.
fn rulers(
    pen: &mut Pen,
    ty: &mut Type,
    tile: &Tile,
    scenario: &Scenario,
    (m, right, bottom): (f64, f64, f64),
) {
    let t = &scenario.table;
    let step = if t.grid { cell_inches(t) } else { 1.0 };
    for along_x in [true, false] {
        let (start, len) = if along_x {
            (tile.x, tile.w)
        } else {
            (tile.y, tile.h)
        };
        let first = (start / step).ceil();
        let last = ((start + len) / step).floor();
        if !(first.is_finite() && last.is_finite()) || last - first > 2000.0 {
            continue;
        }
        #[allow(clippy::cast_possible_truncation)]
        let (first, last) = (first as i64, last as i64);
        for i in first..=last {
            let v = i as f64 * step;
            let at = (v - start) * PT + m;
            let (long, number) = if t.grid {
                (i % 5 == 0, None)
            } else if i % 12 == 0 {
                (true, Some(format!("{i}")))
            } else if i % 6 == 0 {
                (false, Some(format!("{i}")))
            } else {
                (false, None)
            };
            let len = if long {
                7.0
            } else if number.is_some() {
                5.0
            } else {
                3.0
            };
            if along_x {
                if at > right + 0.1 {
                    continue;
                }
                pen.line((at, m - len - 1.0), (at, m - 1.0), INK, 0.4);
            } else {
                if at > bottom + 0.1 {
                    continue;
                }
                pen.line((m - len - 1.0, at), (m - 1.0, at), INK, 0.4);
            }
            let number = if t.grid && i < i64::from(if along_x { t.width } else { t.depth }) {
                // Squares are numbered at their middles, from 0 as in the scenario file.
                Some(i.to_string())
            } else {
                number
            };
            if let Some(n) = number {
                let offset = if t.grid { step * PT / 2.0 } else { 0.0 };
                let nw = ty.width(5.5, &n);
                if along_x {
                    let x = at + offset - nw / 2.0;
                    if x + nw <= right + 4.0 {
                        pen.text(ty, x, m - 9.0, 5.5, &n, GREY, false);
                    }
                } else {
                    let y = at + offset + 2.0;
                    if y <= bottom + 4.0 {
                        pen.text(ty, m - nw - 9.0, y, 5.5, &n, GREY, false);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::model::RuleSetId;
    use crate::scenario::Patch;

    fn scenario(width: u32, depth: u32, cell_inches: f64, grid: bool) -> Scenario {
        Scenario {
            title: "Test".into(),
            rules: RuleSetId::Scruby1965,
            seed: 1,
            turn_limit: 12,
            table: Table {
                width,
                depth,
                cell_inches,
                grid,
                terrain: vec![Patch {
                    area: crate::scenario::Area {
                        x: 1,
                        y: 1,
                        w: 3,
                        h: 2,
                    },
                    ground: Some(Ground::ForestInterior),
                    level: Some(1),
                    road: Some(true),
                    cover: Some(Cover::WallOrHedge),
                }],
            },
            sides: Vec::new(),
            objectives: Vec::new(),
            notes: None,
        }
    }

    fn fields() -> SheetFields {
        SheetFields {
            campaign: "C".into(),
            battle: 7,
            turn: 3,
            region: "R".into(),
            rules: RuleSetId::Scruby1965,
            sides: Vec::new(),
        }
    }

    /// Pages in the file, counted from its page tree.
    fn page_count(pdf: &[u8]) -> usize {
        let text = String::from_utf8_lossy(pdf);
        let at = text.find("/Type /Pages").unwrap();
        let rest = &text[at..];
        let count = rest.find("/Count ").unwrap() + "/Count ".len();
        rest[count..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn any_table_makes_a_pdf_and_too_large_a_table_is_not_tiled() {
        let briefing = "# The battle\n\n## The game\n\n- a line\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        // (table, paper, sheets of table expected)
        let cases = [
            (scenario(32, 24, 3.0, false), Paper::A4, Some(98)),
            (scenario(18, 12, 2.0, true), Paper::Letter, None),
            (scenario(0, 0, 0.0, true), Paper::A4, Some(1)),
            (scenario(5, 5, f64::NAN, false), Paper::A4, Some(1)),
            (scenario(1000, 1000, 6.0, true), Paper::A4, Some(0)),
        ];
        for (s, paper, sheets) in cases {
            let pdf = write_pdf(&s, briefing, &fields(), paper);
            assert!(pdf.starts_with(b"%PDF-"));
            assert!(String::from_utf8_lossy(&pdf[pdf.len() - 8..]).contains("%%EOF"));
            let (w, d) = table_inches(&s.table);
            let layout = tile_layout(w, d, paper, MARGIN, OVERLAP);
            let expected = sheets.unwrap_or_else(|| usize::try_from(layout.count()).unwrap());
            // Cover, results sheet, the table at one page, the page map, the sheets.
            assert_eq!(
                page_count(&pdf),
                4 + expected,
                "{} x {}",
                s.table.width,
                s.table.depth
            );
        }
    }
}
