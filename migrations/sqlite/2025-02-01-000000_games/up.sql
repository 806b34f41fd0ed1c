-- The game archive: one row per game (PGN4 text and derived facts), one per seat, chat lines
-- and connection/game events in game order.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_game_id TEXT NOT NULL UNIQUE,
    content_hash TEXT NOT NULL,
    variant TEXT NOT NULL,
    rule_variants TEXT NOT NULL,
    time_control TEXT NOT NULL,
    start_setup TEXT NOT NULL,
    termination TEXT NOT NULL,
    termination_text TEXT NOT NULL,
    result_tag TEXT NOT NULL,
    started_at TIMESTAMP,
    ended_at TIMESTAMP,
    played_at TIMESTAMP NOT NULL,
    plies INTEGER NOT NULL,
    aborted BOOLEAN NOT NULL,
    aborted_seat SMALLINT,
    aborted_ply INTEGER,
    aborted_reason TEXT,
    pgn4 TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX games_played_at ON games (played_at, id);

CREATE TABLE game_seats (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat SMALLINT NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player TEXT NOT NULL,
    rating_before INTEGER,
    rating_after INTEGER,
    device_fp TEXT,
    network_fp TEXT,
    points INTEGER NOT NULL,
    team_result TEXT,
    placement SMALLINT NOT NULL,
    elimination_ply INTEGER,
    elimination_cause TEXT,
    moves_made INTEGER NOT NULL,
    points_from_red INTEGER NOT NULL,
    points_from_blue INTEGER NOT NULL,
    points_from_yellow INTEGER NOT NULL,
    points_from_green INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_player ON game_seats (player, game_id);

CREATE TABLE game_chat (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    sent_at TIMESTAMP,
    sender TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('game', 'team', 'spectator')),
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE game_events (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat SMALLINT NOT NULL CHECK (seat BETWEEN 0 AND 3),
    ply INTEGER NOT NULL,
    at TIMESTAMP,
    PRIMARY KEY (game_id, idx)
);
