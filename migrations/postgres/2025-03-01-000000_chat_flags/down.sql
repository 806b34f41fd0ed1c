DROP TABLE automatic_reports;
DROP TABLE chat_flags;
