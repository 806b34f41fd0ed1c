-- Outcome rows are written four per ingested game and read by game only (the primary key):
-- the (player, played_at) index only cost every insert.
DROP INDEX conduct_outcomes_player;
