-- Admins are alerted when a case needs them (issue #43, item 1; docs/moderation.md, "Alerts").
-- `alerts`: what each rule fired, at most once per rule and case (the unique key), and for the
-- queue-depth rules at most one standing alert per rule (the partial unique index; it clears
-- when the queue is back under the depth). `alert_marks`: how far in opening time the rules
-- that wait (unclaimed, undecided, on open) have looked, so a pass reads only the cases that
-- crossed their age since the last one.
-- `webhook_events` gains the kind `case_needs_attention` (its events name no case in
-- `case_id`: the alert's key keeps them once per rule and case).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE alerts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    rule TEXT NOT NULL,
    case_id BIGINT REFERENCES cases (id),
    -- The one-line message the event carried.
    message TEXT NOT NULL,
    fired_at TIMESTAMP NOT NULL,
    cleared_at TIMESTAMP,
    acknowledged_by BIGINT REFERENCES players (id),
    acknowledged_at TIMESTAMP,
    UNIQUE (rule, case_id)
);
CREATE UNIQUE INDEX alerts_standing_queue ON alerts (rule)
    WHERE case_id IS NULL AND cleared_at IS NULL;
CREATE INDEX alerts_unacknowledged ON alerts (id) WHERE acknowledged_at IS NULL;
CREATE TABLE alert_marks (
    rule TEXT PRIMARY KEY,
    through TIMESTAMP NOT NULL
);
-- The waiting rules read open cases by opening time.
CREATE INDEX cases_open_by_age ON cases (opened_at, id) WHERE status = 'open';
CREATE TABLE webhook_events_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('sanction_started', 'sanction_reduced',
        'sanction_lifted', 'sanction_ended', 'refunds_due', 'warning_issued',
        'report_decided', 'case_needs_attention')),
    sanction_id BIGINT REFERENCES sanctions (id),
    case_id BIGINT REFERENCES cases (id),
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (kind, case_id)
);
INSERT INTO webhook_events_new (id, event_id, kind, sanction_id, case_id, body, created_at)
    SELECT id, event_id, kind, sanction_id, case_id, body, created_at FROM webhook_events;
DROP TABLE webhook_events;
ALTER TABLE webhook_events_new RENAME TO webhook_events;
CREATE INDEX webhook_events_sanction ON webhook_events (sanction_id, id);
COMMIT;
PRAGMA foreign_keys = ON;
