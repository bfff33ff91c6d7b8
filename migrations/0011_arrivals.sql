-- umpire save, schema 11: troops still to come.
-- The campaign file's [[reinforcements]] not yet arrived and its [[replacements]], as JSON
-- ({"reinforcements": [...], "replacements": [...]}, model::Reinforcement and
-- model::Replacements); NULL when there are none, as in every save made before schema 11.

ALTER TABLE campaign ADD COLUMN arrivals TEXT
    CHECK (arrivals IS NULL OR json_valid(arrivals));
