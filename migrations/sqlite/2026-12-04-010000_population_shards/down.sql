-- Back to one row: the tallies are JSON text, which SQL cannot sum, so the games counted in
-- rows 2 to 16 drop out of the population (it judges by rates, which a part still gives).
DELETE FROM collusion_population WHERE id <> 1;
CREATE TABLE collusion_population_old (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
INSERT INTO collusion_population_old (id, tally, updated_at)
SELECT id, tally, updated_at FROM collusion_population;
DROP TABLE collusion_population;
ALTER TABLE collusion_population_old RENAME TO collusion_population;
