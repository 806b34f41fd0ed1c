-- The review queue reads cases in priority order: the stored base descending, then the oldest
-- first within one base (so the age part only falls along the index), then id. A reader can
-- then stop a group, and the whole scan, as soon as nothing further can reach its page.
CREATE INDEX cases_queue_age ON cases (status, priority_base DESC, opened_at, id);
CREATE INDEX cases_queue_reason_age ON cases (status, reason, priority_base DESC, opened_at, id);
-- A case's log lines, newest first.
CREATE INDEX modlog_case_id ON modlog (case_id, id);
