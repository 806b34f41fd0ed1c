DROP TABLE game_events;
DROP TABLE game_chat;
DROP TABLE game_seats;
DROP TABLE games;
