-- Storage parameters of the PostgreSQL conduct tables (fill factor, vacuum thresholds); SQLite
-- has none: this migration keeps the two directories in step.
SELECT 1;
