ALTER TABLE sanctions DROP COLUMN end_announced_at;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhook_subscriptions;
