DROP TABLE conduct_pending;
