-- Admins are alerted when a case needs them (issue #43, item 1; docs/moderation.md, "Alerts").
-- `alerts`: what each rule fired, at most once per rule and case (the unique key), and for the
-- queue-depth rules at most one standing alert per rule (the partial unique index; it clears
-- when the queue is back under the depth). `alert_marks`: how far in opening time the rules
-- that wait (unclaimed, undecided, on open) have looked.
-- `webhook_events` gains the kind `case_needs_attention`.
CREATE TABLE alerts (
    id BIGSERIAL PRIMARY KEY,
    rule TEXT NOT NULL,
    case_id BIGINT REFERENCES cases (id),
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
CREATE INDEX cases_open_by_age ON cases (opened_at, id) WHERE status = 'open';
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_check
    CHECK (kind IN ('sanction_started', 'sanction_reduced', 'sanction_lifted',
        'sanction_ended', 'refunds_due', 'warning_issued', 'report_decided',
        'case_needs_attention'));
