DROP TABLE alerts;
DROP TABLE alert_marks;
DROP INDEX cases_open_by_age;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id WHERE e.kind = 'case_needs_attention');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
    WHERE kind = 'case_needs_attention');
DELETE FROM webhook_events WHERE kind = 'case_needs_attention';
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_check
    CHECK (kind IN ('sanction_started', 'sanction_reduced', 'sanction_lifted',
        'sanction_ended', 'refunds_due', 'warning_issued', 'report_decided'));
