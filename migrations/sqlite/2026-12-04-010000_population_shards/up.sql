-- The population tally spread over 16 rows (issue #41): each FFA game adds to one, judges sum
-- them. One row made every game's transaction wait for the previous game's on PostgreSQL; the
-- same layout on both backends keeps one set of queries. The stored row keeps id 1.
CREATE TABLE collusion_population_new (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id BETWEEN 1 AND 16),
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
INSERT INTO collusion_population_new (id, tally, updated_at)
SELECT id, tally, updated_at FROM collusion_population;
DROP TABLE collusion_population;
ALTER TABLE collusion_population_new RENAME TO collusion_population;
