-- umpire save, schema 13: the campaign's end.
-- The campaign file's [end] conditions and, once it came, the end itself (which game
-- move, why), as the JSON of `model::end::End`; NULL when the campaign has neither.
-- Undo puts back the state below, end and all, from the checkpoints.

ALTER TABLE campaign ADD COLUMN campaign_end TEXT
    CHECK (campaign_end IS NULL OR json_valid(campaign_end));
