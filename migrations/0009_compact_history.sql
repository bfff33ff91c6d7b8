-- umpire save, schema 9: history kept by what changed, in fewer bytes.
-- 1. What a side made of a force it saw is kept in columns, not as JSON: `seen_name`
--    NULL for a blind, else the force's name with its points and stands as they
--    looked. A first game move of 2,000 forces adds some 600 sightings; their JSON
--    was a third of each row.
-- 2. No table changes for history itself: the deflated JSON of `checkpoints.state`
--    and `change_events.events` may now hold lists kept by their columns (an object
--    `{"~cols": ...}`, store::pack), which an umpire before this schema cannot read;
--    hence the new schema number.

CREATE TABLE knowledge_new (
    by_side        TEXT NOT NULL REFERENCES sides(id),   -- the side that knows
    marker         INTEGER NOT NULL CHECK (marker >= 1), -- its number for the force: "blind 3"
    force          TEXT NOT NULL,                        -- the force seen (the umpire's key)
    side           TEXT NOT NULL REFERENCES sides(id),   -- whose force it is
    turn           INTEGER NOT NULL,                     -- game move last seen
    region         TEXT NOT NULL REFERENCES regions(id), -- where last seen
    en_route_to    TEXT REFERENCES regions(id),          -- NULL: in `region`
    en_route_miles REAL NOT NULL DEFAULT 0,
    in_sight       INTEGER NOT NULL CHECK (in_sight IN (0, 1)),
    seen_name      TEXT,                                 -- NULL: a blind
    seen_points    INTEGER CHECK ((seen_name IS NULL) = (seen_points IS NULL) AND seen_points >= 0),
    seen_stands    INTEGER CHECK ((seen_name IS NULL) = (seen_stands IS NULL) AND seen_stands >= 0),
    how            TEXT NOT NULL CHECK (how IN ('vision', 'scouts', 'battle')),
    PRIMARY KEY (by_side, marker)
);

INSERT INTO knowledge_new (by_side, marker, force, side, turn, region, en_route_to, en_route_miles,
                           in_sight, seen_name, seen_points, seen_stands, how)
    SELECT by_side, marker, force, side, turn, region, en_route_to, en_route_miles, in_sight,
           CASE json_extract(seen, '$.as') WHEN 'full' THEN json_extract(seen, '$.name') END,
           CASE json_extract(seen, '$.as') WHEN 'full' THEN json_extract(seen, '$.points') END,
           CASE json_extract(seen, '$.as') WHEN 'full' THEN json_extract(seen, '$.stands') END,
           how
    FROM knowledge ORDER BY rowid;

DROP TABLE knowledge;
ALTER TABLE knowledge_new RENAME TO knowledge;
