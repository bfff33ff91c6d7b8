-- umpire save, schema 4: battles handed off to the table and brought back.
-- Each force's approach (its table edge) and the battle's record: the
-- scenario, the odds before it was fought, and the result and its source.

ALTER TABLE battles ADD COLUMN came_from TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(came_from));
ALTER TABLE battles ADD COLUMN record TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(record));
