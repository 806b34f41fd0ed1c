-- Decisions reach the people they concern, in their language (issue #42, items 1-3).
-- `warnings`: one per warning decision, with the text the player was sent and, when the
-- policy asked for it, when they acknowledged it. `decisions.reporter_note` is what the
-- reporters are told; `reports.decision_id` is the decision that settled the report, so the
-- reporter reads the note and the measure of that decision.
-- `webhook_events` gains the kinds `warning_issued` and `report_decided` (each once per case,
-- by the existing unique key on kind and case).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE warnings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id BIGINT NOT NULL REFERENCES players (id),
    case_id BIGINT NOT NULL UNIQUE REFERENCES cases (id),
    reason TEXT NOT NULL,
    ground TEXT,
    -- What the player is told, in `language`, and the same in English.
    language TEXT NOT NULL,
    text TEXT NOT NULL,
    text_en TEXT NOT NULL,
    needs_acknowledgement BOOLEAN NOT NULL,
    issued_at TIMESTAMP NOT NULL,
    acknowledged_at TIMESTAMP
);
CREATE INDEX warnings_player ON warnings (player_id, id);
-- The standing's lookup: a player's warnings still awaiting acknowledgement.
CREATE INDEX warnings_awaiting ON warnings (player_id, id)
    WHERE needs_acknowledgement AND acknowledged_at IS NULL;
ALTER TABLE decisions ADD COLUMN reporter_note TEXT;
ALTER TABLE reports ADD COLUMN decision_id BIGINT REFERENCES decisions (id);
-- What the reporter was told, in their language (the decision holds it in English).
ALTER TABLE reports ADD COLUMN reporter_note TEXT;
-- A sanction's note as the player was told it, in their language (`note` stays English).
ALTER TABLE sanctions ADD COLUMN language TEXT;
ALTER TABLE sanctions ADD COLUMN player_note TEXT;
-- The player's last known language (their token's `locale` claim, or `Accept-Language`).
ALTER TABLE players ADD COLUMN language TEXT;
CREATE TABLE webhook_events_new (
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
INSERT INTO webhook_events_new (id, event_id, kind, sanction_id, case_id, body, created_at)
    SELECT id, event_id, kind, sanction_id, case_id, body, created_at FROM webhook_events;
DROP TABLE webhook_events;
ALTER TABLE webhook_events_new RENAME TO webhook_events;
CREATE INDEX webhook_events_sanction ON webhook_events (sanction_id, id);
COMMIT;
PRAGMA foreign_keys = ON;
