-- Separations (issue #42, item 4): a sanction of kind 'separation' keeps its members apart at
-- the table; every member (the sanctioned accused first) has a row in separation_members, read
-- by player for the table check. The sanctions table is rebuilt for the wider CHECK on its
-- kind (see metadata.toml).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE sanctions_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id BIGINT NOT NULL REFERENCES players (id),
    case_id BIGINT REFERENCES cases (id),
    kind TEXT NOT NULL CHECK (kind IN ('chat_ban', 'play_ban', 'club_ban', 'separation')),
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
INSERT INTO sanctions_new (id, player_id, case_id, kind, reason, ground, starts_at, ends_at, lifted_at, reduced_until, issued_by, note, end_announced_at) SELECT id, player_id, case_id, kind, reason, ground, starts_at, ends_at, lifted_at, reduced_until, issued_by, note, end_announced_at FROM sanctions;
DROP TABLE sanctions;
ALTER TABLE sanctions_new RENAME TO sanctions;
CREATE INDEX sanctions_player ON sanctions (player_id, starts_at);
CREATE TABLE separation_members (
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (sanction_id, player_id)
);
CREATE INDEX separation_members_player ON separation_members (player_id, sanction_id);
COMMIT;
PRAGMA foreign_keys = ON;
