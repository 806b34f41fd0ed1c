-- Outcome rows are written four per ingested game and read by game only: one b-tree keyed by
-- (game, seat), without the rowid table and without the unused (player, played_at) index.
CREATE TABLE conduct_outcomes_by_game (
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
INSERT INTO conduct_outcomes_by_game SELECT * FROM conduct_outcomes;
DROP TABLE conduct_outcomes;
ALTER TABLE conduct_outcomes_by_game RENAME TO conduct_outcomes;
