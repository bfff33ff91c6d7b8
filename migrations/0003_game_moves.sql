-- umpire save, schema 3: what game moves need. Forces march, tire and run
-- short of supply; HQs fall; contacts make battles; sides give orders.

ALTER TABLE campaign ADD COLUMN miles_per_inch REAL NOT NULL DEFAULT 2.5 CHECK (miles_per_inch > 0);

ALTER TABLE hqs ADD COLUMN captured_turn INTEGER;          -- set while an enemy holds it

ALTER TABLE forces ADD COLUMN en_route_to TEXT REFERENCES regions(id);   -- NULL: in `region`
ALTER TABLE forces ADD COLUMN en_route_miles REAL NOT NULL DEFAULT 0;    -- miles out of `region`
ALTER TABLE forces ADD COLUMN standing_order TEXT NOT NULL DEFAULT '{"order":"hold"}'
    CHECK (json_valid(standing_order));
ALTER TABLE forces ADD COLUMN forced_in_row INTEGER NOT NULL DEFAULT 0;
ALTER TABLE forces ADD COLUMN must_rest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE forces ADD COLUMN supply_cut_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE forces ADD COLUMN supply_next_loss TEXT;      -- arm of the next cut-off loss

CREATE TABLE battles (
    id        INTEGER PRIMARY KEY,
    turn      INTEGER NOT NULL,
    region    TEXT NOT NULL REFERENCES regions(id),
    attacker  TEXT NOT NULL REFERENCES sides(id),
    defender  TEXT NOT NULL REFERENCES sides(id),
    forces    TEXT NOT NULL CHECK (json_valid(forces)),     -- JSON list of force ids
    reserves  TEXT NOT NULL CHECK (json_valid(reserves)),   -- JSON list of force ids
    status    TEXT NOT NULL
);

-- Orders as given, one row per submission. `resolved_turn` is set when a game
-- move used them, and cleared again if that move is undone.
CREATE TABLE orders (
    seq           INTEGER PRIMARY KEY,
    turn          INTEGER NOT NULL,
    side          TEXT NOT NULL REFERENCES sides(id),
    source        TEXT NOT NULL,                           -- file name, or "app"
    body          TEXT NOT NULL CHECK (json_valid(body)),  -- the checked orders
    resolved_turn INTEGER
);
