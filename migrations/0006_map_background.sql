-- umpire save, schema 6: the picture drawn under the map.
-- The map file's [background] table (file name and edges in miles) as JSON, and the
-- picture's bytes kept in the save, so a save opens with its picture wherever it is moved.

ALTER TABLE campaign ADD COLUMN map_background TEXT
    CHECK (map_background IS NULL OR json_valid(map_background));

CREATE TABLE pictures (
    name TEXT PRIMARY KEY,                                  -- the file name the map gives
    png  BLOB NOT NULL                                      -- the PNG file's bytes
);
