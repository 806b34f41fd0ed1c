DROP TABLE game_pairs;
DROP TABLE archive_pairs;
DROP TABLE archive_player_variants;
ALTER TABLE archive_players DROP COLUMN aborted;
ALTER TABLE archive_players DROP COLUMN placed_fourth;
ALTER TABLE archive_players DROP COLUMN placed_third;
ALTER TABLE archive_players DROP COLUMN placed_second;
ALTER TABLE archive_players DROP COLUMN placed_first;
