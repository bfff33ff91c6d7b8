//! `scruby-basic`: Jack Scruby's Basic War Game Rules (`scruby-basic-war-game-rules.txt`).

use super::RuleSet;

/// Not built yet: `None` keeps it out of the registry until it is complete.
pub const RULE_SET: Option<&dyn RuleSet> = None;
