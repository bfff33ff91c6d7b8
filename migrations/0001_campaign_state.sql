-- umpire save, schema 1: the campaign's current state.
-- Every table is what the game's events produced; `events` (schema 2) is the log.

CREATE TABLE campaign (
    id            INTEGER PRIMARY KEY CHECK (id = 1),   -- one campaign per file
    title         TEXT NOT NULL,
    description   TEXT,
    turn          INTEGER NOT NULL CHECK (turn >= 1),
    start_turn    INTEGER NOT NULL CHECK (start_turn >= 1),
    start_date    TEXT NOT NULL,                        -- YYYY-MM-DD
    days_per_turn INTEGER NOT NULL CHECK (days_per_turn >= 1),
    rules         TEXT NOT NULL,                        -- default battle rule set id
    rng_seed      TEXT NOT NULL,                        -- u64 in decimal
    rng_word_pos  TEXT NOT NULL,                        -- u128 in decimal: words drawn so far
    map_name      TEXT NOT NULL,
    map_description TEXT
);

CREATE TABLE regions (
    id       TEXT PRIMARY KEY,
    ord      INTEGER NOT NULL UNIQUE,                   -- order in the map file
    name     TEXT NOT NULL UNIQUE,
    terrain  TEXT NOT NULL,
    x        REAL NOT NULL,
    y        REAL NOT NULL,
    features TEXT NOT NULL                              -- space-separated feature names
);

CREATE TABLE roads (
    ord         INTEGER PRIMARY KEY,
    from_region TEXT NOT NULL REFERENCES regions(id),
    to_region   TEXT NOT NULL REFERENCES regions(id),
    kind        TEXT NOT NULL,
    miles       REAL NOT NULL CHECK (miles > 0),
    river       TEXT,                                   -- NULL: crosses no water
    name        TEXT,
    CHECK (from_region <> to_region)
);

CREATE TABLE sides (
    id     TEXT PRIMARY KEY,
    ord    INTEGER NOT NULL UNIQUE,
    name   TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL,
    army   TEXT NOT NULL
);

CREATE TABLE hqs (
    ord     INTEGER NOT NULL UNIQUE,
    side    TEXT NOT NULL REFERENCES sides(id),
    wing    TEXT NOT NULL CHECK (wing IN ('left', 'centre', 'right')),
    region  TEXT NOT NULL REFERENCES regions(id),
    name    TEXT,
    held_by TEXT NOT NULL REFERENCES sides(id),
    PRIMARY KEY (side, wing)
);

CREATE TABLE forces (
    id     TEXT PRIMARY KEY,
    ord    INTEGER NOT NULL UNIQUE,
    name   TEXT NOT NULL UNIQUE,
    side   TEXT NOT NULL REFERENCES sides(id),
    region TEXT NOT NULL REFERENCES regions(id)
);

CREATE TABLE stands (
    id       INTEGER PRIMARY KEY CHECK (id >= 0),
    force    TEXT NOT NULL REFERENCES forces(id) ON DELETE CASCADE,
    ord      INTEGER NOT NULL,                          -- order within the force
    name     TEXT NOT NULL UNIQUE,
    kind     TEXT NOT NULL,
    quality  TEXT NOT NULL,
    strength INTEGER NOT NULL CHECK (strength >= 0),
    full     INTEGER NOT NULL CHECK (full > 0 AND strength <= full),
    UNIQUE (force, ord)
);
