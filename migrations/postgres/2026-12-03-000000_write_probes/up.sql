-- The readiness probe's scratch table (issue #40): after a write failed on a database fault,
-- `/readyz` writes and deletes one row of a few pages here to learn whether writes work
-- again. Always empty between probes.
CREATE TABLE write_probes (
    id BIGSERIAL PRIMARY KEY,
    filler TEXT NOT NULL
);
