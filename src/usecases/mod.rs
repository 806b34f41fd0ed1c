//! Use cases: what a person or a machine asks Arbiter to do, one file each, named as its user
//! would say it. Each reads top to bottom as its steps: load (store queries), decide (a pure
//! call into `moderation`, `chat`, `conduct` or `collusion`), write, log, emit events, all in
//! the caller's one transaction. `api` and `cli` call these; `store` holds queries and rows
//! only and never calls back up here.

pub mod acknowledge_alert;
pub mod acknowledge_warning;
pub mod add_note;
pub mod add_word_list_entry;
pub mod apply_conduct;
pub mod change_sanction;
pub mod check_erasure_key;
pub mod check_filing;
pub mod claim_case;
pub mod decide_appeal;
pub mod decide_case;
pub mod erase_player;
pub mod export_player;
pub mod file_appeal;
pub mod file_report;
pub mod import_games;
pub mod ingest_game;
pub mod issue_warning;
pub mod judge_chat_window;
pub mod judge_collusion;
pub mod notice_returning_players;
pub mod open_case;
pub mod owe_refunds;
pub mod raise_alerts;
pub mod raise_automatic_report;
pub mod remove_word_list_entry;
pub mod roll_stats;
pub mod seal_webhook_secrets;
pub mod set_chat_strictness;
pub mod tell_reporters;
