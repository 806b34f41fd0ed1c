DROP TABLE refunds;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id WHERE e.kind = 'refunds_due');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
    WHERE kind = 'refunds_due');
DELETE FROM webhook_events WHERE kind = 'refunds_due';
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_case;
ALTER TABLE webhook_events DROP COLUMN case_id;
ALTER TABLE webhook_events ALTER COLUMN sanction_id SET NOT NULL;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_check
    CHECK (kind IN ('sanction_started', 'sanction_reduced', 'sanction_lifted',
        'sanction_ended'));
