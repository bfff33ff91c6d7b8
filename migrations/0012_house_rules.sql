-- umpire save, schema 12: house rules, and stands fallen out that may rejoin.
-- 1. `campaign.house_rules`: the campaign file's [house_rules] table as JSON
--    (model::HouseRules); NULL for the seeds' rules, as every older save plays.
-- 2. `forces.fallen_out`: under the house rule `rejoin_after_moves`, the stands
--    fallen out on a forced march that may still rejoin, as JSON
--    (a list of model::FallenOut); NULL when there are none.

ALTER TABLE campaign ADD COLUMN house_rules TEXT
    CHECK (house_rules IS NULL OR json_valid(house_rules));

ALTER TABLE forces ADD COLUMN fallen_out TEXT
    CHECK (fallen_out IS NULL OR json_valid(fallen_out));
