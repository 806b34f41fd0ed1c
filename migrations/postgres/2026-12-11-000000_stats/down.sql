DROP TABLE stats_days;
DROP INDEX cases_opened_at;
DROP INDEX cases_decided_at;
