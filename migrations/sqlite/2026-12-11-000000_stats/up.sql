-- Workload and response times (issue #43, item 2; docs/moderation.md, "Stats"): each day's
-- tally of the moderation log (cases opened by reason and origin, decided by outcome, waits
-- to first claim and to decision as histograms, per admin decisions, dropped claims and
-- decisions reversed on appeal) as JSON, with the queue at the day's end. `complete` is false
-- for today (and a day still settling), which the roller rewrites.
CREATE TABLE stats_days (
    day DATE NOT NULL PRIMARY KEY,
    tally TEXT NOT NULL,
    open_at_end BIGINT NOT NULL,
    oldest_open_at TIMESTAMP,
    complete BOOLEAN NOT NULL,
    rolled_at TIMESTAMP NOT NULL
);
-- The queue at a day's end: cases opened before it, less those decided before it.
CREATE INDEX cases_opened_at ON cases (opened_at, id);
CREATE INDEX cases_decided_at ON cases (decided_at) WHERE decided_at IS NOT NULL;
