DROP TABLE warnings;
ALTER TABLE decisions DROP COLUMN reporter_note;
ALTER TABLE reports DROP COLUMN decision_id;
ALTER TABLE reports DROP COLUMN reporter_note;
ALTER TABLE players DROP COLUMN language;
ALTER TABLE sanctions DROP COLUMN language;
ALTER TABLE sanctions DROP COLUMN player_note;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id
    WHERE e.kind IN ('warning_issued', 'report_decided'));
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
    WHERE kind IN ('warning_issued', 'report_decided'));
DELETE FROM webhook_events WHERE kind IN ('warning_issued', 'report_decided');
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_check
    CHECK (kind IN ('sanction_started', 'sanction_reduced', 'sanction_lifted',
        'sanction_ended', 'refunds_due'));
