INSERT INTO conduct_pending (game_id, played_at, seats)
SELECT id, played_at, conduct_seats FROM games
WHERE id > (SELECT applied_through FROM conduct_progress) AND conduct_seats IS NOT NULL;
DROP TABLE conduct_progress;
ALTER TABLE games DROP COLUMN conduct_seats;
