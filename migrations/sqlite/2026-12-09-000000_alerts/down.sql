PRAGMA foreign_keys = OFF;
BEGIN;
DROP TABLE alerts;
DROP TABLE alert_marks;
DROP INDEX cases_open_by_age;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id WHERE e.kind = 'case_needs_attention');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
    WHERE kind = 'case_needs_attention');
CREATE TABLE webhook_events_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('sanction_started', 'sanction_reduced',
        'sanction_lifted', 'sanction_ended', 'refunds_due', 'warning_issued',
        'report_decided')),
    sanction_id BIGINT REFERENCES sanctions (id),
    case_id BIGINT REFERENCES cases (id),
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (kind, case_id)
);
INSERT INTO webhook_events_old (id, event_id, kind, sanction_id, case_id, body, created_at)
    SELECT id, event_id, kind, sanction_id, case_id, body, created_at FROM webhook_events
    WHERE kind <> 'case_needs_attention';
DROP TABLE webhook_events;
ALTER TABLE webhook_events_old RENAME TO webhook_events;
CREATE INDEX webhook_events_sanction ON webhook_events (sanction_id, id);
COMMIT;
PRAGMA foreign_keys = ON;
