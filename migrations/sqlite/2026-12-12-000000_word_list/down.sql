DROP TABLE word_list_version;
DROP TABLE chat_strictness;
DROP TABLE word_list_entries;
