//! Text a person or a player supplies (names, titles, descriptions) and text
//! printed to a terminal.
//!
//! Names enter through files, orders and the app; each is checked here once,
//! for every entry: not blank, at most [`MAX_NAME_CHARS`] characters, and no
//! control characters (an escape sequence would clear the umpire's screen, a
//! newline would forge a line of the turn log). Whatever came from a file is
//! still printed through [`printable`], since a save can be edited by hand.

use std::borrow::Cow;

/// Longest name of a force, stand, region, side, HQ, road or map, or a
/// campaign's title, in characters. A choice of this program's own (the seeds
/// are silent): the longest real name in the bundled campaigns is under 40
/// characters, and a status table stays readable at 100.
pub const MAX_NAME_CHARS: usize = 100;

/// Longest description of a map or campaign, in characters. A choice of this
/// program's own: a few paragraphs.
pub const MAX_DESCRIPTION_CHARS: usize = 10_000;

/// Why a name (`what`: "force", "region", "campaign title"...) cannot be used,
/// or `None` when it can.
pub fn name_problem(name: &str, what: &str) -> Option<String> {
    if name.trim().is_empty() {
        return Some(format!("{what} name is empty: give it a name people will read"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Some(format!(
            "{what} name is {chars} characters long: shorten it to at most {MAX_NAME_CHARS}"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Some(format!(
            "{what} name holds the control character {}: names are plain text on one line, remove it",
            c.escape_unicode()
        ));
    }
    None
}

/// Why a description (several lines allowed: newlines and tabs are kept)
/// cannot be used, or `None` when it can.
pub fn description_problem(text: &str, what: &str) -> Option<String> {
    let chars = text.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        return Some(format!(
            "{what} description is {chars} characters long: shorten it to at most {MAX_DESCRIPTION_CHARS}"
        ));
    }
    if let Some(c) = text
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
    {
        return Some(format!(
            "{what} description holds the control character {}: remove it",
            c.escape_unicode()
        ));
    }
    None
}

/// "1 stand", "3 stands": a count with its noun, singular for one.
pub fn count(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "1 inch", "3 inches", "0.5 miles": `amount` to `decimals` places with its
/// noun, singular only when it reads exactly one.
pub fn quantity(amount: f64, decimals: usize, one: &str, many: &str) -> String {
    let number = format!("{amount:.decimals$}");
    let noun = if number == "1" || number.trim_start_matches('-') == "1" {
        one
    } else {
        many
    };
    format!("{number} {noun}")
}

/// `text` safe to print on one line of a terminal: every control character
/// (escape, newline, carriage return, tab, ...) written as `\u{1b}` and the
/// like, everything else as it is. Borrowed when nothing needed escaping.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantity_is_singular_only_when_it_reads_one() {
        for (amount, decimals, text) in [
            (1.0, 0, "1 mile"),
            (0.6, 0, "1 mile"),
            (1.0, 1, "1.0 miles"),
            (2.0, 0, "2 miles"),
            (0.0, 0, "0 miles"),
            (0.3, 1, "0.3 miles"),
            (15.04, 1, "15.0 miles"),
        ] {
            assert_eq!(quantity(amount, decimals, "mile", "miles"), text);
        }
        assert_eq!(quantity(1.2, 0, "inch", "inches"), "1 inch");
        assert_eq!(quantity(18.0, 0, "inch", "inches"), "18 inches");
        assert_eq!(count(1, "stand", "stands"), "1 stand");
        assert_eq!(count(0, "stand", "stands"), "0 stands");
        assert_eq!(count(7, "game move", "game moves"), "7 game moves");
    }

    #[test]
    fn printable_escapes_control_characters_only() {
        assert_eq!(printable("Zoë's 1st"), "Zoë's 1st");
        assert_eq!(
            printable("E\u{1b}[2J\nGame move 9"),
            "E\\u{1b}[2J\\u{a}Game move 9"
        );
        assert!(!printable("a\u{9b}b\r\t").chars().any(char::is_control));
    }

    #[test]
    fn names_are_refused_with_a_reason() {
        assert_eq!(name_problem("Red Column", "force"), None);
        assert!(name_problem(" ", "force").is_some_and(|m| m.contains("empty")));
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert!(name_problem(&long, "force").is_some_and(|m| m.contains("at most 100")));
        assert_eq!(name_problem(&"é".repeat(MAX_NAME_CHARS), "force"), None);
        assert!(name_problem("a\nb", "stand").is_some_and(|m| m.starts_with("stand name holds")));
        assert_eq!(description_problem("two\nlines\twith a tab", "map"), None);
        assert!(description_problem("\u{1b}[2J", "map").is_some());
    }
}
