-- Chat analysis at ingest: one row per flag on a stored chat line, and the automatic reports
-- the flags raised (consumed by the review queue).
CREATE TABLE chat_flags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    line_idx INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    sender TEXT NOT NULL,
    category TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
    span_start INTEGER NOT NULL,
    span_end INTEGER NOT NULL,
    rule TEXT NOT NULL,
    explanation TEXT NOT NULL,
    report_worthy BOOLEAN NOT NULL,
    evidence_fen4 TEXT,
    evidence_finding TEXT,
    FOREIGN KEY (game_id, line_idx) REFERENCES game_chat (game_id, idx) ON DELETE CASCADE
);
CREATE INDEX chat_flags_game ON chat_flags (game_id, line_idx);
CREATE INDEX chat_flags_sender ON chat_flags (sender, id);

CREATE TABLE automatic_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('chat_analysis')),
    player TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'ffa_chat')),
    score DOUBLE PRECISION NOT NULL CHECK (score >= 0 AND score <= 1),
    summary TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX automatic_reports_player ON automatic_reports (player, id);
CREATE INDEX automatic_reports_game ON automatic_reports (game_id);
