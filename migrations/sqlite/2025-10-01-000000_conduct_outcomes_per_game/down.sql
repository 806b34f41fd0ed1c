-- Back to one row per seat (empty: `arbiter conduct rebuild` fills it again).
DROP TABLE conduct_outcomes;
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
) WITHOUT ROWID;
