PRAGMA foreign_keys = OFF;
BEGIN;
DROP TABLE refunds;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id WHERE e.kind = 'refunds_due');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
    WHERE kind = 'refunds_due');
CREATE TABLE webhook_events_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('sanction_started', 'sanction_reduced',
        'sanction_lifted', 'sanction_ended')),
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO webhook_events_old (id, event_id, kind, sanction_id, body, created_at)
    SELECT id, event_id, kind, sanction_id, body, created_at FROM webhook_events
    WHERE kind <> 'refunds_due';
DROP TABLE webhook_events;
ALTER TABLE webhook_events_old RENAME TO webhook_events;
CREATE INDEX webhook_events_sanction ON webhook_events (sanction_id, id);
COMMIT;
PRAGMA foreign_keys = ON;
