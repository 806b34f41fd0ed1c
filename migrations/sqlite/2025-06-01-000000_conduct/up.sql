-- Conduct tracking, written at ingest in the game's own transaction.
-- One row per seat of every archived game: what became of the seat and the qualifiers of a
-- departure (moves made, in check, lost position, partner still playing, rating change).
CREATE TABLE conduct_outcomes (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat SMALLINT NOT NULL CHECK (seat >= 0 AND seat <= 3),
    player TEXT NOT NULL,
    played_at TIMESTAMP NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('completed', 'aborted', 'resigned', 'timed_out',
        'forfeited', 'claimed_win')),
    caused_abort BOOLEAN NOT NULL,
    departure TEXT CHECK (departure IN ('resigned', 'timed_out', 'forfeited')),
    departure_ply INTEGER,
    moves_made INTEGER,
    early BOOLEAN,
    in_check BOOLEAN,
    lost_position BOOLEAN,
    partner_still_playing BOOLEAN,
    disconnects INTEGER NOT NULL,
    reconnects INTEGER NOT NULL,
    rating_change INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX conduct_outcomes_player ON conduct_outcomes (player, played_at);

-- One bounded record per player (the JSON of `conduct::PlayerRecord`); `version` rises by one
-- on every change.
CREATE TABLE conduct_records (
    player TEXT PRIMARY KEY NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    record TEXT NOT NULL,
    version BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
