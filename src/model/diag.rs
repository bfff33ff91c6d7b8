//! Diagnostics: what `umpire check` reports about a file a person wrote.

use serde::Serialize;
use std::fmt;

/// How bad a problem is: errors stop a file from being used, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A place in a text file: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// The line and column of byte `offset` in `text`; offsets past the end
    /// are placed at the end. Scans `text` once: to place many offsets in one
    /// text, build a `Lines` once and ask it.
    pub fn of_offset(text: &str, offset: usize) -> Location {
        Lines::new(text).location(text, offset)
    }
}

/// Where each line of a text starts, found once, so that a byte offset is
/// placed in O(log n) (a binary search for its line), plus the characters
/// before it on its line when that line is not plain ASCII.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// Byte offset of the start of each line; the first is 0.
    starts: Vec<usize>,
    /// Whether each line (by index) holds only ASCII, so its columns are bytes.
    ascii: Vec<bool>,
}

impl Lines {
    /// Indexes `text`'s lines in one pass.
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        let mut ascii = Vec::new();
        let mut line_ascii = true;
        for (i, byte) in text.bytes().enumerate() {
            if byte == b'\n' {
                starts.push(i + 1);
                ascii.push(line_ascii);
                line_ascii = true;
            } else if !byte.is_ascii() {
                line_ascii = false;
            }
        }
        ascii.push(line_ascii);
        Lines { starts, ascii }
    }

    /// The line and column of byte `offset` in `text` (the text this index
    /// was built from); offsets past the end are placed at the end.
    pub fn location(&self, text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        // The last line starting at or before `offset`.
        let line = self.starts.partition_point(|start| *start <= offset).max(1) - 1;
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let column = if self.ascii.get(line).copied().unwrap_or(false) {
            offset - start
        } else {
            text.get(start..offset).unwrap_or_default().chars().count()
        };
        Location {
            line: line + 1,
            column: column + 1,
        }
    }
}

/// One problem found in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The file as the user named it.
    pub file: String,
    pub location: Location,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:column: error: message`, the form editors and terminals link;
    /// control characters from the file are escaped (`text::printable`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {}: {}",
            super::text::printable(&self.file),
            self.location.line,
            self.location.column,
            severity,
            super::text::printable(&self.message)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index agrees with a plain scan from the start at every offset.
    #[test]
    fn lines_place_every_offset_as_a_scan_does() {
        let text = "a = 1\nnom = \"Zo\u{eb}\"\n\n  x\u{e9}y = 2\nlast";
        let lines = Lines::new(text);
        for offset in 0..=text.len() + 3 {
            let mut at = offset.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let before = &text[..at];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let expected = Location {
                line: before.matches('\n').count() + 1,
                column: before[line_start..].chars().count() + 1,
            };
            assert_eq!(lines.location(text, offset), expected, "offset {offset}");
        }
        assert_eq!(Lines::new("").location("", 5), Location { line: 1, column: 1 });
    }
}
