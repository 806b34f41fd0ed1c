-- Sanction events to game servers: admins' subscriptions, the outbox of events written in the
-- same transaction as the change they announce, one delivery per event and subscription with
-- its retry schedule and lease, and every attempt kept for admins to see.
CREATE TABLE webhook_subscriptions (
    id BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL,
    -- The signing secret (shown to the admin once). Kept as is: signing needs it.
    secret TEXT NOT NULL,
    -- The event kinds delivered, comma-separated.
    events TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES players (id),
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);

CREATE TABLE webhook_events (
    id BIGSERIAL PRIMARY KEY,
    -- What receivers deduplicate by.
    event_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('sanction_started', 'sanction_reduced',
        'sanction_lifted', 'sanction_ended')),
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    -- The JSON body, exactly as signed and sent.
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX webhook_events_sanction ON webhook_events (sanction_id, id);

CREATE TABLE webhook_deliveries (
    id BIGSERIAL PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES webhook_events (id),
    subscription_id BIGINT NOT NULL REFERENCES webhook_subscriptions (id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    -- An instance sending it holds it until then; another may take it after.
    lease_until TIMESTAMP,
    delivered_at TIMESTAMP,
    UNIQUE (event_id, subscription_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, id);

CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    delivery_id BIGINT NOT NULL REFERENCES webhook_deliveries (id),
    attempted_at TIMESTAMP NOT NULL,
    -- The receiver's HTTP status, or none when it could not be reached.
    status_code INTEGER,
    error TEXT,
    duration_ms BIGINT NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

-- When the end of a timed sanction was announced; sanctions that ended or were lifted before
-- webhooks existed count as announced.
ALTER TABLE sanctions ADD COLUMN end_announced_at TIMESTAMP;
UPDATE sanctions SET end_announced_at = (now() AT TIME ZONE 'UTC')
    WHERE lifted_at IS NOT NULL OR reduced_until <= (now() AT TIME ZONE 'UTC') OR ends_at <= (now() AT TIME ZONE 'UTC');
