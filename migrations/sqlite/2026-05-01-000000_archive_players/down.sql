DROP TABLE archive_players;
