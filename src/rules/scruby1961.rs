//! `scruby-1961`: Jack Scruby's 1961 Strategy-Tactical Wargame (`scruby-1961-strategy-tactical-wargame.txt`).

use super::RuleSet;

/// Not built yet: `None` keeps it out of the registry until it is complete.
pub const RULE_SET: Option<&dyn RuleSet> = None;
