-- The population tally spread over 16 rows (issue #41): each FFA game adds to one, judges sum
-- them. One row made every game's transaction wait for the previous game's to commit. The
-- stored row keeps id 1.
ALTER TABLE collusion_population DROP CONSTRAINT collusion_population_id_check;
ALTER TABLE collusion_population ADD CONSTRAINT collusion_population_id_check
    CHECK (id BETWEEN 1 AND 16);
