//! A fast reader for plain TOML, the shape the map and campaign files take:
//! `key = value` lines, `[table]`, `[[array]]` and `[[array.nested]]` headers,
//! strings without escapes (`"""` ones over lines too), decimal numbers, dates
//! and one-line arrays (of values, or of such arrays: a map's points).
//!
//! It reads the text into a light tree of borrowed strings, which serde
//! deserializes as `toml::from_str` would, with the same spans: a value's span
//! is its token's (a string's quotes included), a table's its header's. On
//! anything else (an escape, a multi-line literal string, an inline table, a dotted or
//! quoted key, a boolean, a duplicate key, and any value the target type does
//! not take) it answers `None`, and the caller reads the text with the `toml`
//! crate, which reports every problem in its own words. So it changes how fast
//! a file is read, never what is read or what is reported.
//!
//! Why: the `toml` crate lists every token, then every parse event, then builds
//! a tree of B-tree maps with spans for the whole file before deserializing. On
//! a generated map of 100,000 regions (22 MB) that took most of `umpire check`'s
//! time (about 1.2 of 1.7 s) and 860 MB; this reader takes a small part of both.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use std::fmt;
use std::ops::Range;
use toml::value::Datetime;

/// `text` read into `T` when it is plain TOML and `T` takes it; else `None`.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    let root = Parser::new(text).document()?;
    T::deserialize(Item {
        span: 0..0,
        value: Value::Table(root),
    })
    .ok()
}

/// The top-level keys of `text` (a `[[regions]]` header names `regions`) when
/// it is plain TOML; else `None`.
pub(crate) fn top_level_keys(text: &str) -> Option<Vec<&str>> {
    let root = Parser::new(text).document()?;
    Some(root.into_iter().map(|(key, _)| key).collect())
}

/// A value with its place in the text.
#[derive(Debug)]
struct Item<'a> {
    span: Range<usize>,
    value: Value<'a>,
}

type Table<'a> = Vec<(&'a str, Item<'a>)>;

#[derive(Debug)]
enum Value<'a> {
    String(&'a str),
    Integer(i64),
    Float(f64),
    Datetime(Datetime),
    Array(Vec<Item<'a>>),
    /// An array of tables, made by `[[name]]` headers.
    Tables(Vec<Item<'a>>),
    Table(Table<'a>),
}

/// Where the lines being read put their keys.
#[derive(Debug, Clone, Copy)]
enum Target {
    Root,
    /// The table of root entry `i` (`[name]`).
    Table(usize),
    /// The last table of root entry `i`'s array (`[[name]]`).
    Element(usize),
    /// The last table of entry `j`'s array in the last table of root entry
    /// `i`'s array (`[[name.inner]]`).
    Nested(usize, usize),
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

/// Whether `b` may end a scalar: what can follow a value on its line or in an array.
fn ends_value(b: Option<u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'#' | b',' | b']'))
}

/// Control characters TOML allows in no string or comment (tab is allowed).
fn forbidden(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

fn last_table<'t, 'a>(item: Option<&'t mut Item<'a>>) -> Option<&'t mut Table<'a>> {
    let Some(Item {
        value: Value::Tables(elements),
        ..
    }) = item
    else {
        return None;
    };
    match elements.last_mut() {
        Some(Item {
            value: Value::Table(table),
            ..
        }) => Some(table),
        _ => None,
    }
}

fn table_at<'t, 'a>(root: &'t mut Table<'a>, target: Target) -> Option<&'t mut Table<'a>> {
    match target {
        Target::Root => Some(root),
        Target::Table(i) => match root.get_mut(i) {
            Some((
                _,
                Item {
                    value: Value::Table(table),
                    ..
                },
            )) => Some(table),
            _ => None,
        },
        Target::Element(i) => last_table(root.get_mut(i).map(|(_, item)| item)),
        Target::Nested(i, j) => {
            let outer = last_table(root.get_mut(i).map(|(_, item)| item))?;
            last_table(outer.get_mut(j).map(|(_, item)| item))
        }
    }
}

fn position(table: &Table<'_>, key: &str) -> Option<usize> {
    table.iter().position(|(k, _)| *k == key)
}

/// Appends a table to the array of tables at `table[key]`, making the array
/// if there is none; its place in `table`, or `None` when `key` holds anything else.
fn push_element<'a>(table: &mut Table<'a>, key: &'a str, span: Range<usize>) -> Option<usize> {
    let element = Item {
        span: span.clone(),
        value: Value::Table(Vec::new()),
    };
    match position(table, key) {
        Some(i) => match table.get_mut(i) {
            Some((
                _,
                Item {
                    value: Value::Tables(elements),
                    ..
                },
            )) => {
                elements.push(element);
                Some(i)
            }
            _ => None,
        },
        None => {
            table.push((
                key,
                Item {
                    span,
                    value: Value::Tables(vec![element]),
                },
            ));
            Some(table.len() - 1)
        }
    }
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.at + ahead).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    fn document(mut self) -> Option<Table<'a>> {
        let mut root: Table<'a> = Vec::new();
        let mut target = Target::Root;
        loop {
            self.skip_blanks();
            match self.peek() {
                None => return Some(root),
                Some(b'\n' | b'\r' | b'#') => self.line_end()?,
                Some(b'[') => {
                    target = self.header(&mut root)?;
                    self.line_end()?;
                }
                Some(_) => {
                    let key = self.bare_key()?;
                    self.skip_blanks();
                    self.expect(b'=')?;
                    self.skip_blanks();
                    let value = self.value(0)?;
                    let table = table_at(&mut root, target)?;
                    if position(table, key).is_some() {
                        return None;
                    }
                    table.push((key, value));
                    self.line_end()?;
                }
            }
        }
    }

    /// Blanks, a comment, then the end of the line or of the text.
    fn line_end(&mut self) -> Option<()> {
        self.skip_blanks();
        if self.peek() == Some(b'#') {
            self.at += 1;
            while let Some(b) = self.peek() {
                if b == b'\n' || (b == b'\r' && self.peek_at(1) == Some(b'\n')) {
                    break;
                }
                if forbidden(b) {
                    return None;
                }
                self.at += 1;
            }
        }
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.at += 1;
                Some(())
            }
            Some(b'\r') if self.peek_at(1) == Some(b'\n') => {
                self.at += 2;
                Some(())
            }
            Some(_) => None,
        }
    }

    fn bare_key(&mut self) -> Option<&'a str> {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-')
        ) {
            self.at += 1;
        }
        (self.at > start).then(|| self.text.get(start..self.at)).flatten()
    }

    /// `[name]`, `[[name]]` or `[[name.inner]]`: where the keys below it go.
    fn header(&mut self, root: &mut Table<'a>) -> Option<Target> {
        let start = self.at;
        self.expect(b'[')?;
        if self.peek() != Some(b'[') {
            let key = self.bare_key()?;
            self.expect(b']')?;
            if position(root, key).is_some() {
                return None;
            }
            root.push((
                key,
                Item {
                    span: start..self.at,
                    value: Value::Table(Vec::new()),
                },
            ));
            return Some(Target::Table(root.len() - 1));
        }
        self.at += 1;
        let key = self.bare_key()?;
        let inner = if self.peek() == Some(b'.') {
            self.at += 1;
            Some(self.bare_key()?)
        } else {
            None
        };
        self.expect(b']')?;
        self.expect(b']')?;
        let span = start..self.at;
        match inner {
            None => push_element(root, key, span).map(Target::Element),
            Some(inner) => {
                let i = position(root, key)?;
                let outer = table_at(root, Target::Element(i))?;
                push_element(outer, inner, span).map(|j| Target::Nested(i, j))
            }
        }
    }

    /// A value `depth` arrays deep: arrays of arrays (a map's points,
    /// `[[x, y], ...]`) are read, deeper ones left to the toml crate.
    fn value(&mut self, depth: u8) -> Option<Item<'a>> {
        let start = self.at;
        let value = match self.peek()? {
            b'"' if self.peek_at(1) == Some(b'"') && self.peek_at(2) == Some(b'"') => {
                Value::String(self.multi_line_string()?)
            }
            quote @ (b'"' | b'\'') => {
                if self.peek_at(1) == Some(quote) && self.peek_at(2) == Some(quote) {
                    return None;
                }
                self.at += 1;
                loop {
                    let b = self.peek()?;
                    if b == quote {
                        break;
                    }
                    if forbidden(b) || (b == b'\\' && quote == b'"') {
                        return None;
                    }
                    self.at += 1;
                }
                let text = self.text.get(start + 1..self.at)?;
                self.at += 1;
                Value::String(text)
            }
            b'[' if depth < 2 => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_blanks();
                    if self.peek() == Some(b']') {
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip_blanks();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b']') => break,
                        _ => return None,
                    }
                }
                self.at += 1;
                Value::Array(items)
            }
            b'-' | b'0'..=b'9' => self.number_or_date()?,
            _ => return None,
        };
        ends_value(self.peek()).then_some(Item {
            span: start..self.at,
            value,
        })
    }

    /// A `"""` string over lines with no escape and no carriage return: its
    /// text after the line break that may follow the opening quotes.
    fn multi_line_string(&mut self) -> Option<&'a str> {
        self.at += 3;
        if self.peek() == Some(b'\n') {
            self.at += 1;
        }
        let start = self.at;
        loop {
            match self.peek()? {
                b'"' if self.peek_at(1) == Some(b'"') && self.peek_at(2) == Some(b'"') => {
                    // Quotes just inside the closing ones belong to the text: left to toml.
                    if self.peek_at(3) == Some(b'"') {
                        return None;
                    }
                    let text = self.text.get(start..self.at)?;
                    self.at += 3;
                    return Some(text);
                }
                b'\\' | b'\r' => return None,
                b'\n' => self.at += 1,
                b if forbidden(b) => return None,
                _ => self.at += 1,
            }
        }
    }

    /// A decimal integer, a float (`1.5`, `-2e3`) or a local date (`1895-03-01`).
    fn number_or_date(&mut self) -> Option<Value<'a>> {
        let start = self.at;
        let digit = |p: &Self, ahead: usize| p.peek_at(ahead).is_some_and(|b| b.is_ascii_digit());
        let is_date = (0..10).all(|i| match i {
            4 | 7 => self.peek_at(i) == Some(b'-'),
            _ => digit(self, i),
        });
        if is_date {
            self.at += 10;
            let date: Datetime = self.text.get(start..self.at)?.parse().ok()?;
            return (date.date.is_some() && date.time.is_none() && date.offset.is_none())
                .then_some(Value::Datetime(date));
        }
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.at += 1;
            }
            p.at - from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let whole_start = self.at;
        if digits(self) == 0 || (self.bytes.get(whole_start) == Some(&b'0') && self.at - whole_start > 1) {
            return None;
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return None;
            }
            float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return None;
            }
            float = true;
        }
        let token = self.text.get(start..self.at)?;
        if float {
            let value: f64 = token.parse().ok()?;
            value.is_finite().then_some(Value::Float(value))
        } else {
            token.parse().ok().map(Value::Integer)
        }
    }
}

/// Why the tree did not deserialize; the `toml` crate says it properly.
#[derive(Debug)]
struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not plain TOML of the expected shape")
    }
}

impl std::error::Error for Unsupported {}

impl de::Error for Unsupported {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Unsupported
    }
}

impl<'de> IntoDeserializer<'de, Unsupported> for Item<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Item<'de> {
    type Error = Unsupported;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.value {
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Integer(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Datetime(d) => visitor.visit_map(toml_datetime::de::DatetimeDeserializer::new(d)),
            Value::Array(items) | Value::Tables(items) => visitor.visit_seq(Seq(items.into_iter())),
            Value::Table(entries) => visitor.visit_map(Entries {
                entries: entries.into_iter(),
                value: None,
            }),
        }
    }

    // As the `toml` crate: a value present is `Some`, a key absent `None`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Unsupported> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Unsupported> {
        if serde_spanned::de::is_spanned(name) {
            let span = self.span.clone();
            return visitor.visit_map(serde_spanned::de::SpannedDeserializer::new(self, span));
        }
        if toml_datetime::de::is_datetime(name) {
            return match self.value {
                Value::Datetime(d) => visitor.visit_map(toml_datetime::de::DatetimeDeserializer::new(d)),
                _ => Err(Unsupported),
            };
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Unsupported> {
        Err(Unsupported)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

struct Seq<'de>(std::vec::IntoIter<Item<'de>>);

impl<'de> de::SeqAccess<'de> for Seq<'de> {
    type Error = Unsupported;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Unsupported> {
        self.0.next().map(|item| seed.deserialize(item)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'de> {
    entries: std::vec::IntoIter<(&'de str, Item<'de>)>,
    value: Option<Item<'de>>,
}

impl<'de> de::MapAccess<'de> for Entries<'de> {
    type Error = Unsupported;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Unsupported> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Unsupported> {
        seed.deserialize(self.value.take().ok_or(Unsupported)?)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn plain_files_are_read_and_the_rest_left_to_the_toml_crate() {
        let keys = |text| top_level_keys(text);
        assert_eq!(
            keys(
                "a = 1\nb = \"x\" # note\r\n\n[[c]]\nd = 2.5\n[[c.e]]\nf = 1895-03-01\n[g]\nh = ['x', \"y\",]\n"
            ),
            Some(vec!["a", "b", "c", "g"])
        );
        for refused in [
            "a = \"x\\ty\"",          // an escape
            "a = \"\"\"x\\\ny\"\"\"", // a multi-line string with an escape
            "a = \"\"\"x\"\"\"\"",    // a quote just inside the closing ones
            "a = '''x'''",            // a multi-line literal string
            "a = { b = 1 }",          // an inline table
            "a.b = 1",                // a dotted key
            "\"a\" = 1",              // a quoted key
            "a = true",               // a boolean
            "a = 1\na = 2",           // a duplicate key
            "a = 01",                 // a leading zero
            "a = 1_000",              // an underscore
            "a = 0x1f",               // hexadecimal
            "a = +1",                 // a plus sign
            "a = inf",                // not a number
            "a = 1e999",              // too big
            "a = 99999999999999999999",
            "a = 1.", // a dot with no digits after it
            "a = 1895-03-01T10:00:00",
            "a = 1895-13-01", // no such month
            "a = [\n1]",      // an array over lines
            "a = [[[1]]]",    // an array in an array in an array
            "a = 1 b",        // something after the value
            "a = \"x",        // a string not closed
            "a = 1\r",        // a carriage return alone
            "# a \u{7f} in a comment",
            "[a]\n[a]",     // a table twice
            "a = 1\n[[a]]", // a value made an array of tables
            "[[a.b]]",      // a nested array with no table above it
            "[ a ]",        // blanks in a header
            "[a.b]",        // a dotted table
        ] {
            assert_eq!(keys(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn spans_are_the_tokens_and_the_headers() {
        let text = "a = \"xy\"\n[[b]]\nc = -1.5e2\n";
        let root = Parser::new(text).document().unwrap();
        let spans: Vec<Range<usize>> = root.iter().map(|(_, item)| item.span.clone()).collect();
        assert_eq!(spans, [4..8, 9..14]);
        let Some((
            _,
            Item {
                value: Value::Tables(elements),
                ..
            },
        )) = root.get(1)
        else {
            panic!("an array of tables");
        };
        let Some(Item {
            value: Value::Table(table),
            span,
        }) = elements.first()
        else {
            panic!("a table");
        };
        assert_eq!(span, &(9..14));
        assert_eq!(table.first().map(|(_, item)| item.span.clone()), Some(19..25));
    }
}
