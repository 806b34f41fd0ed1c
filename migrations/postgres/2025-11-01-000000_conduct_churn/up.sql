-- The conduct tables churn: every applied game rewrites its players' records and deletes its
-- queue row. Room on each records page lets a rewrite stay on its page (a HOT update: no new
-- index entry, and the page reclaims the dead version itself when next read, with or without
-- a vacuum). Both tables are vacuumed after a fixed number of dead rows rather than a share of
-- the table, since the queue is near empty between batches.
ALTER TABLE conduct_records SET (
    fillfactor = 50,
    autovacuum_vacuum_scale_factor = 0.05,
    autovacuum_vacuum_threshold = 1000
);
ALTER TABLE conduct_pending SET (
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0
);
