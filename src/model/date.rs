//! Calendar dates of game moves.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A calendar date, written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(time::Date);

impl Date {
    /// `None` when there is no such day.
    pub fn from_ymd(year: i32, month: u8, day: u8) -> Option<Date> {
        let month = time::Month::try_from(month).ok()?;
        time::Date::from_calendar_date(year, month, day).ok().map(Date)
    }

    /// Reads `YYYY-MM-DD`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.splitn(3, '-');
        let year = parts.next()?.parse().ok()?;
        let month = parts.next()?.parse().ok()?;
        let day = parts.next()?.parse().ok()?;
        Date::from_ymd(year, month, day)
    }

    /// The date `days` later, or `None` past the calendar's end.
    pub fn plus_days(self, days: i64) -> Option<Date> {
        self.0.checked_add(time::Duration::days(days)).map(Date)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.0.year(),
            u8::from(self.0.month()),
            self.0.day()
        )
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Date::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a YYYY-MM-DD date")))
    }
}
