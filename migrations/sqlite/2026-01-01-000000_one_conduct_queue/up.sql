-- One conduct queue on both backends: a game waits in conduct_pending until the applier takes
-- it. Games still queued in their own rows (after the mark) move there; the mark, the column
-- and the records' version numbers go (the applier's one transaction and PostgreSQL's row
-- locks make them redundant).
INSERT INTO conduct_pending (game_id, played_at, seats)
SELECT id, played_at, conduct_seats FROM games
WHERE id > (SELECT applied_through FROM conduct_progress) AND conduct_seats IS NOT NULL;
DROP TABLE conduct_progress;
ALTER TABLE games DROP COLUMN conduct_seats;
ALTER TABLE conduct_records DROP COLUMN version;
