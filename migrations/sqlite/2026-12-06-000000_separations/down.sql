PRAGMA foreign_keys = OFF;
BEGIN;
DROP TABLE separation_members;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN sanctions s ON s.id = e.sanction_id WHERE s.kind = 'separation');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT e.id FROM webhook_events e JOIN sanctions s ON s.id = e.sanction_id WHERE s.kind = 'separation');
DELETE FROM webhook_events WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
DELETE FROM appeals WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
UPDATE decisions SET sanction_id = NULL WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
CREATE TABLE sanctions_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id BIGINT NOT NULL REFERENCES players (id),
    case_id BIGINT REFERENCES cases (id),
    kind TEXT NOT NULL CHECK (kind IN ('chat_ban', 'play_ban', 'club_ban')),
    reason TEXT NOT NULL,
    ground TEXT NOT NULL,
    starts_at TIMESTAMP NOT NULL,
    -- NULL: permanent.
    ends_at TIMESTAMP,
    lifted_at TIMESTAMP,
    reduced_until TIMESTAMP,
    issued_by BIGINT NOT NULL REFERENCES players (id),
    note TEXT NOT NULL,
    end_announced_at TIMESTAMP
);
INSERT INTO sanctions_old (id, player_id, case_id, kind, reason, ground, starts_at, ends_at, lifted_at, reduced_until, issued_by, note, end_announced_at) SELECT id, player_id, case_id, kind, reason, ground, starts_at, ends_at, lifted_at, reduced_until, issued_by, note, end_announced_at FROM sanctions WHERE kind <> 'separation';
DROP TABLE sanctions;
ALTER TABLE sanctions_old RENAME TO sanctions;
CREATE INDEX sanctions_player ON sanctions (player_id, starts_at);
COMMIT;
PRAGMA foreign_keys = ON;
