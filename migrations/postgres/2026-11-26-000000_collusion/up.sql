-- Collusion statistics kept current at ingest. One row per FFA or Solo game, player and
-- opponent: what the player did to the opponent (chances to capture or check and how many were
-- taken, pieces left hanging to them, points taken) and the surprising moments as
-- `ply:kind:piece` items. Per player, the running sums of those rows (what they did, and what
-- was done to them), the same sums over everybody (one row), and per pair the shared-game
-- count at its last automatic report.
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis', 'conduct_signal', 'collusion_analysis'));
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'collusion_analysis', 'admin'));

CREATE TABLE game_pair_play (
    player TEXT COLLATE "C" NOT NULL,
    opponent TEXT COLLATE "C" NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    -- Seats from the player to the opponent in turn order: 1 next, 2 opposite, 3 previous.
    seat_offset SMALLINT NOT NULL CHECK (seat_offset BETWEEN 1 AND 3),
    turns INTEGER NOT NULL,
    capture_chances INTEGER NOT NULL,
    captures INTEGER NOT NULL,
    check_chances INTEGER NOT NULL,
    checks INTEGER NOT NULL,
    gifts INTEGER NOT NULL,
    points_taken INTEGER NOT NULL,
    moments TEXT NOT NULL,
    PRIMARY KEY (player, opponent, game_id),
    CHECK (player <> opponent)
);

CREATE INDEX game_pair_play_game ON game_pair_play (game_id);

CREATE TABLE collusion_baselines (
    player TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE collusion_population (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE collusion_reported (
    player_low TEXT COLLATE "C" NOT NULL,
    player_high TEXT COLLATE "C" NOT NULL,
    games BIGINT NOT NULL,
    automatic_report_id BIGINT NOT NULL REFERENCES automatic_reports (id),
    reported_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
);
