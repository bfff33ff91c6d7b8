-- umpire save, schema 10: railway and river steamer rates and capacities.
-- The campaign file's [railways] and [rivers] tables as JSON (`model::Transport`);
-- NULL keeps this program's defaults, as every save made before schema 10 does.

ALTER TABLE campaign ADD COLUMN transport TEXT
    CHECK (transport IS NULL OR json_valid(transport));
