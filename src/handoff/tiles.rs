//! How the battle pack's `pack.pdf` cuts the table, at true scale, into
//! printed sheets that taped together are the table.
//!
//! Every length here is in inches of table (1 inch printed = 1 inch of
//! table). Each sheet shows a window of the table inside its margins;
//! neighbouring windows overlap by `overlap`, so column `c` starts at
//! `c * (window width - overlap)` inches from the table's left edge and row
//! `r` at `r * (window height - overlap)` from its far edge. A sheet's left
//! and top window edges are its cut lines: trimmed there, it is laid over
//! its left and upper neighbours so that the cut edge sits on their join
//! lines, the overlap under it to glue or tape.
//!
//! Pure and total: any sizes (negative, not a number, huge) give a layout.

/// The paper the pack is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 inches.
    Letter,
}

impl Paper {
    /// The written names, as `--paper` takes them.
    pub const CHOICES: &'static str = "a4, letter";

    /// Width and height in inches, upright.
    pub fn size(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0 / MM_PER_INCH, 297.0 / MM_PER_INCH),
            Paper::Letter => (8.5, 11.0),
        }
    }

    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "US Letter",
        }
    }

    /// `a4` or `letter`, in any case.
    pub fn parse(text: &str) -> Option<Paper> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" | "us-letter" | "usletter" => Some(Paper::Letter),
            _ => None,
        }
    }
}

pub const MM_PER_INCH: f64 = 25.4;
/// The blank border round each sheet's window, where the cut marks and the
/// sheet's name go: 10 mm, inside what home printers can print.
pub const MARGIN: f64 = 10.0 / MM_PER_INCH;
/// How much neighbouring windows share: 10 mm to glue or tape.
pub const OVERLAP: f64 = 10.0 / MM_PER_INCH;

/// The sheets for one table on one paper.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileLayout {
    pub paper: Paper,
    /// Sheets printed sideways (fewer sheets that way).
    pub landscape: bool,
    /// The sheet as printed, in inches.
    pub page_w: f64,
    pub page_h: f64,
    pub margin: f64,
    pub overlap: f64,
    /// The window of table each sheet shows.
    pub window_w: f64,
    pub window_h: f64,
    pub columns: u64,
    pub rows: u64,
    /// The table, in inches.
    pub table_w: f64,
    pub table_d: f64,
}

/// One sheet: which part of the table it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tile {
    /// From 0, left to right and far edge to near edge.
    pub column: u64,
    pub row: u64,
    /// The window's top-left corner in table inches from the table's
    /// top-left (far-left) corner.
    pub x: f64,
    pub y: f64,
    /// How much of the table the window holds (less than the window on the
    /// last column and row).
    pub w: f64,
    pub h: f64,
}

impl Tile {
    /// Its name: column letter(s) and row number, `A1` at the far left.
    pub fn name(&self) -> String {
        tile_name(self.column, self.row)
    }
}

/// `A1`, `B1`, ... `Z1`, `AA1`: the column's letters, the row's number from 1.
pub fn tile_name(column: u64, row: u64) -> String {
    let mut letters = Vec::new();
    let mut n = column.saturating_add(1);
    while n > 0 {
        let rem = (n - 1) % 26;
        letters.push(char::from(b'A' + u8::try_from(rem).unwrap_or(0)));
        n = (n - 1) / 26;
    }
    letters.reverse();
    let letters: String = letters.into_iter().collect();
    format!("{letters}{}", row.saturating_add(1))
}

impl TileLayout {
    /// How many sheets.
    pub fn count(&self) -> u64 {
        self.columns.saturating_mul(self.rows)
    }

    /// From one column's left window edge to the next one's.
    pub fn stride_x(&self) -> f64 {
        self.window_w - self.overlap
    }

    pub fn stride_y(&self) -> f64 {
        self.window_h - self.overlap
    }

    /// The sheet at `column`, `row`.
    pub fn tile(&self, column: u64, row: u64) -> Tile {
        let x = column as f64 * self.stride_x();
        let y = row as f64 * self.stride_y();
        Tile {
            column,
            row,
            x,
            y,
            w: self.window_w.min(self.table_w - x).max(0.0),
            h: self.window_h.min(self.table_d - y).max(0.0),
        }
    }

    /// Every sheet, row by row from the far edge, each row left to right:
    /// the order they are printed in.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.columns).map(move |column| self.tile(column, row)))
    }
}

/// A length fit for the layout: finite and not negative.
fn length(v: f64) -> f64 {
    if v.is_finite() { v.max(0.0) } else { 0.0 }
}

/// Sheets along one side: one if the table fits the window, else one more
/// for every stride (or part) beyond the first window.
fn along(len: f64, window: f64, stride: f64) -> u64 {
    if len <= window || stride <= 0.0 {
        return 1;
    }
    let more = ((len - window) / stride).ceil();
    // Saturating: a table too long to count is refused by the caller.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let more = more.min(1e15) as u64;
    more.saturating_add(1)
}

/// The layout of a `table_w` x `table_d` inch table on `paper` with
/// `margin` round each sheet and `overlap` between neighbours, upright or
/// sideways, whichever takes fewer sheets (upright when even).
pub fn tile_layout(table_w: f64, table_d: f64, paper: Paper, margin: f64, overlap: f64) -> TileLayout {
    let (table_w, table_d) = (length(table_w), length(table_d));
    let (pw, ph) = paper.size();
    let margin = length(margin).min(pw.min(ph) / 4.0);
    let layout = |landscape: bool| {
        let (page_w, page_h) = if landscape { (ph, pw) } else { (pw, ph) };
        let (window_w, window_h) = (page_w - 2.0 * margin, page_h - 2.0 * margin);
        let overlap = length(overlap).min(window_w.min(window_h) / 2.0);
        TileLayout {
            paper,
            landscape,
            page_w,
            page_h,
            margin,
            overlap,
            window_w,
            window_h,
            columns: along(table_w, window_w, window_w - overlap),
            rows: along(table_d, window_h, window_h - overlap),
            table_w,
            table_d,
        }
    };
    let (upright, sideways) = (layout(false), layout(true));
    if sideways.count() < upright.count() {
        sideways
    } else {
        upright
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const MM: f64 = 1.0 / MM_PER_INCH;

    #[test]
    fn an_eight_by_six_foot_table_on_a4_and_letter() {
        // A4 upright: a 190 x 277 mm window, strides of 180 and 267 mm.
        // 96 in = 2438.4 mm: 1 + ceil((2438.4 - 190) / 180) = 14 columns;
        // 72 in = 1828.8 mm: 1 + ceil((1828.8 - 277) / 267) = 7 rows: 98
        // sheets (sideways: 10 x 11 = 110).
        let a4 = tile_layout(96.0, 72.0, Paper::A4, MARGIN, OVERLAP);
        assert!(!a4.landscape);
        assert_eq!((a4.columns, a4.rows, a4.count()), (14, 7, 98));
        assert!((a4.stride_x() - 180.0 * MM).abs() < 1e-9);
        assert!((a4.stride_y() - 267.0 * MM).abs() < 1e-9);
        // Letter sideways: a 259.4 x 195.9 mm window, strides 249.4 and
        // 185.9 mm: 10 x 10 = 100 sheets (upright: 14 x 8 = 112).
        let letter = tile_layout(96.0, 72.0, Paper::Letter, MARGIN, OVERLAP);
        assert!(letter.landscape);
        assert_eq!((letter.columns, letter.rows, letter.count()), (10, 10, 100));
    }

    #[test]
    fn tiles_are_offset_by_the_window_less_the_overlap_and_cover_the_table() {
        let cases = [
            (96.0, 72.0, Paper::A4),
            (96.0, 72.0, Paper::Letter),
            (72.0, 48.0, Paper::A4),
            (36.0, 24.0, Paper::Letter),
            (6.0, 4.0, Paper::A4),
            (200.0, 3.0, Paper::A4),
        ];
        for (w, d, paper) in cases {
            let l = tile_layout(w, d, paper, MARGIN, OVERLAP);
            let tiles: Vec<Tile> = l.tiles().collect();
            assert_eq!(tiles.len() as u64, l.count());
            for t in &tiles {
                assert!((t.x - t.column as f64 * (l.window_w - OVERLAP)).abs() < 1e-9);
                assert!((t.y - t.row as f64 * (l.window_h - OVERLAP)).abs() < 1e-9);
                assert!(t.x < w && t.y < d, "every sheet shows some table: {t:?}");
                assert!(t.w > 0.0 && t.h > 0.0 && t.w <= l.window_w && t.h <= l.window_h);
            }
            // The last column and row reach the far side; one fewer would not.
            let last = l.tile(l.columns - 1, l.rows - 1);
            assert!(last.x + l.window_w >= w - 1e-9 && last.y + l.window_h >= d - 1e-9);
            if l.columns > 1 {
                assert!(l.tile(l.columns - 2, 0).x + l.window_w < w);
            }
            if l.rows > 1 {
                assert!(l.tile(0, l.rows - 2).y + l.window_h < d);
            }
            // The window and its margins fill the sheet.
            assert!((l.window_w + 2.0 * l.margin - l.page_w).abs() < 1e-9);
            assert!((l.window_h + 2.0 * l.margin - l.page_h).abs() < 1e-9);
            assert_eq!(tiles[0].name(), "A1");
        }
    }

    #[test]
    fn a_table_that_fits_takes_one_sheet_and_nonsense_sizes_take_one_too() {
        for (w, d) in [(6.0, 4.0), (0.0, 0.0), (-5.0, 3.0), (f64::NAN, f64::INFINITY)] {
            let l = tile_layout(w, d, Paper::A4, MARGIN, OVERLAP);
            assert_eq!(l.count(), 1, "{w} x {d}");
        }
        let huge = tile_layout(1e300, 1e300, Paper::A4, MARGIN, OVERLAP);
        assert!(huge.count() > 1_000_000);
    }

    proptest::proptest! {
        /// Any table on either paper: the sheets cover it, each shows some of
        /// it, one fewer column or row would not reach its far side, and the
        /// way round taken needs no more sheets than the other.
        #[test]
        fn the_sheets_cover_any_table_with_as_few_as_the_paper_allows(
            w in 0.0..400.0_f64,
            d in 0.0..400.0_f64,
            letter in proptest::bool::ANY,
        ) {
            let paper = if letter { Paper::Letter } else { Paper::A4 };
            let l = tile_layout(w, d, paper, MARGIN, OVERLAP);
            let last = l.tile(l.columns - 1, l.rows - 1);
            proptest::prop_assert!(last.x + l.window_w >= w - 1e-9);
            proptest::prop_assert!(last.y + l.window_h >= d - 1e-9);
            proptest::prop_assert!(l.columns == 1 || l.tile(l.columns - 1, 0).x < w);
            proptest::prop_assert!(l.rows == 1 || l.tile(0, l.rows - 1).y < d);
            let (pw, ph) = paper.size();
            let other = if l.landscape { (pw, ph) } else { (ph, pw) };
            let (ow, oh) = (other.0 - 2.0 * MARGIN, other.1 - 2.0 * MARGIN);
            let other_count = along(w, ow, ow - OVERLAP) * along(d, oh, oh - OVERLAP);
            proptest::prop_assert!(l.count() <= other_count);
        }
    }

    #[test]
    fn names_run_past_z() {
        assert_eq!(tile_name(0, 0), "A1");
        assert_eq!(tile_name(25, 2), "Z3");
        assert_eq!(tile_name(26, 0), "AA1");
        assert_eq!(tile_name(27, 9), "AB10");
    }

    #[test]
    fn paper_names() {
        assert_eq!(Paper::parse("A4"), Some(Paper::A4));
        assert_eq!(Paper::parse("letter"), Some(Paper::Letter));
        assert_eq!(Paper::parse("legal"), None);
    }
}
