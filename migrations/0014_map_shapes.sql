-- umpire save, schema 14: the map's drawn shapes and water.
-- Each region's outline when the map file draws one (`shape`, a JSON array of [x, y]
-- points in miles; NULL when the program derives it), and the map's rivers, canals,
-- lakes and sea (`[[waters]]`, the JSON of `Vec<model::Water>`; NULL when none).
-- Written once when the save is made, like the rest of the map.

ALTER TABLE regions ADD COLUMN shape TEXT
    CHECK (shape IS NULL OR json_valid(shape));

ALTER TABLE campaign ADD COLUMN map_waters TEXT
    CHECK (map_waters IS NULL OR json_valid(map_waters));
