//! The API's handlers: one module per resource. Each handler's `#[utoipa::path]` attribute is
//! the one declaration of its method and path: `api_handlers!` lists the handlers once,
//! `openapi.rs` documents that list, and `route_table.rs` mounts each handler at the method and
//! path the document gives it.

pub mod admin_cases;
pub mod admin_entries;
pub mod admin_queue;
pub mod admin_tokens;
pub mod alerts;
pub mod appeals;
pub mod chat;
pub mod conduct;
pub mod flags;
pub mod games;
pub mod health;
pub mod modlog;
pub mod notes;
pub mod personal_data;
pub mod player_search;
pub mod players;
pub mod presets;
pub mod reports;
pub mod sanctions;
pub mod standing;
pub mod stats;
pub mod tables;
pub mod warnings;
pub mod webhooks;
pub mod whoami;
pub mod word_list;

/// Every API handler, once, in the order the router tries their paths: the standing route
/// first among `/api/v1` (game servers call it before every game and chat line, and each
/// dynamic path tried costs a regex), static segments before a parameter in their place
/// (`/games/by-number/{number}` before `/games/{id}`, `/admin/cases` before
/// `/admin/cases/{id}`).
///
/// Expands to `$then! { module::handler, ... }`, so mounting and the document read one list.
/// `/metrics` is not listed: `metrics_endpoint` mounts it and `openapi.rs` documents it.
macro_rules! api_handlers {
    ($then:ident) => {
        $then! {
            health::healthz,
            health::readyz,
            standing::player_standing,
            tables::check_table,
            whoami::whoami,
            chat::check_line,
            admin_tokens::list_tokens,
            admin_tokens::create_token,
            admin_tokens::revoke_token,
            admin_queue::list_cases,
            admin_entries::open_case,
            admin_queue::get_case,
            admin_queue::list_appeals,
            alerts::list_alerts,
            alerts::acknowledge_alert,
            stats::admin_stats,
            word_list::get_word_list,
            word_list::add_term,
            word_list::allow_word,
            word_list::set_strictness,
            word_list::test_line,
            word_list::remove_entry,
            webhooks::list_subscriptions,
            webhooks::create_subscription,
            webhooks::revoke_subscription,
            webhooks::list_deliveries,
            presets::list_presets,
            modlog::list_modlog,
            player_search::search_players,
            personal_data::erase_player,
            personal_data::export_player,
            notes::list_notes,
            notes::add_note,
            games::list_games,
            games::ingest_game,
            games::get_game_by_number,
            games::get_game,
            games::export_pgn4,
            flags::game_flags,
            flags::player_flags,
            players::player_summary,
            conduct::player_conduct,
            players::shared_games,
            reports::file_report,
            reports::my_reports,
            sanctions::my_sanctions,
            warnings::my_warnings,
            warnings::acknowledge,
            sanctions::list_sanctions,
            sanctions::change_sanction,
            admin_cases::claim_case,
            admin_cases::release_case,
            admin_cases::decide_case,
            appeals::file_appeal,
            appeals::decide_appeal,
        }
    };
}
pub(crate) use api_handlers;
