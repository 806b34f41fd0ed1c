-- Reports, cases, decisions, sanctions, appeals, report timeouts and the moderation log.
-- Players are referred to by a stable id; the name is what the site and game servers use.
CREATE TABLE players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL
);

-- One filing: by a player, or an automatic report joining the queue.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('player', 'chat_analysis', 'conduct_signal')),
    reporter_id BIGINT REFERENCES players (id),
    automatic_report_id BIGINT UNIQUE REFERENCES automatic_reports (id) ON DELETE SET NULL,
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'rule_violating_chat', 'abandoning',
        'self_partnering', 'prearranged_teaming', 'other')),
    message TEXT,
    -- The game the report was filed from (archive id), if any.
    game_id BIGINT REFERENCES games (id),
    -- Automatic evidence strength, 0..1 (automatic reports only).
    score DOUBLE PRECISION CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
    filed_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    -- Set when the case was decided: upheld, dismissed_unjustified, dismissed_not_actionable.
    outcome TEXT CHECK (outcome IS NULL OR outcome IN ('upheld', 'dismissed_unjustified',
        'dismissed_not_actionable')),
    decided_at TIMESTAMP,
    CHECK ((source = 'player') = (reporter_id IS NOT NULL))
);
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);
CREATE INDEX reports_reporter_decided ON reports (reporter_id, decided_at);

-- Everyone a report names (up to three).
CREATE TABLE report_accused (
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (report_id, player_id)
);
CREATE INDEX report_accused_player ON report_accused (player_id);

-- The further games a report cites (archive ids), the main game excluded.
CREATE TABLE report_games (
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL REFERENCES games (id),
    PRIMARY KEY (report_id, game_id)
);

-- One case per accused player and reason while open; decided cases stay as history.
CREATE TABLE cases (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    accused_id BIGINT NOT NULL REFERENCES players (id),
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'rule_violating_chat', 'abandoning',
        'self_partnering', 'prearranged_teaming', 'other')),
    status TEXT NOT NULL CHECK (status IN ('open', 'decided')),
    opened_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    -- Queue priority without its age part (0..100 minus the age weight), kept current on
    -- every write that changes it; the age part is added when the queue is read.
    priority_base DOUBLE PRECISION NOT NULL,
    entry_count INTEGER NOT NULL,
    claimed_by BIGINT REFERENCES players (id),
    claimed_until TIMESTAMP,
    decided_at TIMESTAMP
);
CREATE UNIQUE INDEX cases_one_open ON cases (accused_id, reason) WHERE status = 'open';
CREATE INDEX cases_queue ON cases (status, priority_base DESC, id);
CREATE INDEX cases_queue_reason ON cases (status, reason, priority_base DESC, id);
CREATE INDEX cases_accused ON cases (accused_id, id);

-- A case's entries: each report filed into it.
CREATE TABLE case_reports (
    case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    PRIMARY KEY (case_id, report_id)
);
CREATE INDEX case_reports_report ON case_reports (report_id);

CREATE TABLE sanctions (
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
    note TEXT NOT NULL
);
CREATE INDEX sanctions_player ON sanctions (player_id, starts_at);

-- The decision that closed a case (dismissals and warnings included).
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id BIGINT NOT NULL UNIQUE REFERENCES cases (id),
    admin_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL CHECK (kind IN ('dismiss_unjustified', 'dismiss_not_actionable', 'warn',
        'sanction')),
    ground TEXT,
    note TEXT,
    sanction_id BIGINT REFERENCES sanctions (id),
    decided_at TIMESTAMP NOT NULL
);

CREATE TABLE appeals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sanction_id BIGINT NOT NULL UNIQUE REFERENCES sanctions (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    text TEXT NOT NULL,
    filed_at TIMESTAMP NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'upheld', 'reduced', 'lifted')),
    decided_by BIGINT REFERENCES players (id),
    decided_at TIMESTAMP,
    note TEXT
);
CREATE INDEX appeals_open ON appeals (status, filed_at);

-- Report timeouts: a reporter who filed too many unjustified reports may not file until ends_at.
CREATE TABLE report_timeouts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id BIGINT NOT NULL REFERENCES players (id),
    step INTEGER NOT NULL,
    starts_at TIMESTAMP NOT NULL,
    ends_at TIMESTAMP NOT NULL,
    case_id BIGINT REFERENCES cases (id)
);
CREATE INDEX report_timeouts_player ON report_timeouts (player_id, starts_at);

-- The moderation log: append-only (triggers refuse updates and deletes).
CREATE TABLE modlog (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TIMESTAMP NOT NULL,
    -- player, admin or system; actor is the name (NULL for the system).
    actor_kind TEXT NOT NULL CHECK (actor_kind IN ('player', 'admin', 'system')),
    actor TEXT,
    -- AuditAction::kind(): report_filed, case_claimed, decision, sanction_created, ...
    kind TEXT NOT NULL,
    -- The player the action is about, if any.
    subject TEXT,
    case_id BIGINT,
    report_id BIGINT,
    sanction_id BIGINT,
    appeal_id BIGINT,
    -- Why: the note, message or rule behind the action.
    why TEXT,
    -- The full action as JSON (AuditAction).
    details TEXT NOT NULL
);
CREATE INDEX modlog_at ON modlog (at, id);
CREATE INDEX modlog_subject ON modlog (subject, id);
CREATE INDEX modlog_actor ON modlog (actor, id);
CREATE INDEX modlog_kind ON modlog (kind, id);
CREATE INDEX modlog_case ON modlog (case_id);
CREATE TRIGGER modlog_no_update BEFORE UPDATE ON modlog
BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
CREATE TRIGGER modlog_no_delete BEFORE DELETE ON modlog
BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
