-- umpire save, schema 5: the fog of war. What each side knows of the others'
-- forces: each force it has seen, where and when it was last seen and how
-- strong it looked (strategy::fog). A remembered force may since be gone, so
-- `force` names no row of `forces`.

CREATE TABLE knowledge (
    by_side        TEXT NOT NULL REFERENCES sides(id),   -- the side that knows
    marker         INTEGER NOT NULL CHECK (marker >= 1), -- its number for the force: "blind 3"
    force          TEXT NOT NULL,                        -- the force seen (the umpire's key)
    side           TEXT NOT NULL REFERENCES sides(id),   -- whose force it is
    turn           INTEGER NOT NULL,                     -- game move last seen
    region         TEXT NOT NULL REFERENCES regions(id), -- where last seen
    en_route_to    TEXT REFERENCES regions(id),          -- NULL: in `region`
    en_route_miles REAL NOT NULL DEFAULT 0,
    in_sight       INTEGER NOT NULL CHECK (in_sight IN (0, 1)),
    seen           TEXT NOT NULL CHECK (json_valid(seen)), -- {"as":"blind"} or {"as":"full","name":..,"points":..,"stands":..}
    how            TEXT NOT NULL CHECK (how IN ('vision', 'scouts', 'battle')),
    PRIMARY KEY (by_side, marker)
);

-- The last marker number each side has given, so none is given twice.
CREATE TABLE knowledge_markers (
    side TEXT PRIMARY KEY REFERENCES sides(id),
    last INTEGER NOT NULL CHECK (last >= 0)
);
