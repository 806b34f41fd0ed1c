//! Route table: one module per resource; `configure` mounts them all.

pub mod admin_cases;
pub mod admin_entries;
pub mod admin_queue;
pub mod admin_tokens;
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
pub mod webhooks;
pub mod whoami;

use actix_web::web;

pub fn configure(cfg: &mut web::ServiceConfig) {
    // `web::resource` (not the attribute macros) so a known path with another method gets 405.
    cfg.service(web::resource("/healthz").route(web::get().to(health::healthz)))
        .service(web::resource("/readyz").route(web::get().to(health::readyz)))
        .service(
            web::scope("/api/v1")
                // First: the router tries resources in order, each dynamic one with a
                // regex, and game servers call this before every game and chat line.
                .service(
                    web::resource("/players/{name}/standing")
                        .route(web::get().to(standing::player_standing)),
                )
                .service(web::resource("/whoami").route(web::get().to(whoami::whoami)))
                .service(web::resource("/chat/check").route(web::post().to(chat::check_line)))
                .service(
                    web::resource("/admin/tokens")
                        .route(web::get().to(admin_tokens::list_tokens))
                        .route(web::post().to(admin_tokens::create_token)),
                )
                .service(
                    web::resource("/admin/tokens/{id}")
                        .route(web::delete().to(admin_tokens::revoke_token)),
                )
                .service(
                    web::resource("/admin/cases")
                        .route(web::get().to(admin_queue::list_cases))
                        .route(web::post().to(admin_entries::open_case)),
                )
                .service(
                    web::resource("/admin/cases/{id}").route(web::get().to(admin_queue::get_case)),
                )
                .service(
                    web::resource("/admin/appeals").route(web::get().to(admin_queue::list_appeals)),
                )
                .service(
                    web::resource("/admin/webhooks")
                        .route(web::get().to(webhooks::list_subscriptions))
                        .route(web::post().to(webhooks::create_subscription)),
                )
                .service(
                    web::resource("/admin/webhooks/{id}")
                        .route(web::delete().to(webhooks::revoke_subscription)),
                )
                .service(
                    web::resource("/admin/webhooks/{id}/deliveries")
                        .route(web::get().to(webhooks::list_deliveries)),
                )
                .service(
                    web::resource("/admin/presets").route(web::get().to(presets::list_presets)),
                )
                .service(web::resource("/admin/modlog").route(web::get().to(modlog::list_modlog)))
                .service(
                    web::resource("/admin/players")
                        .route(web::get().to(player_search::search_players)),
                )
                .service(
                    web::resource("/admin/players/{name}/erase")
                        .route(web::post().to(personal_data::erase_player)),
                )
                .service(
                    web::resource("/players/{name}/export")
                        .route(web::get().to(personal_data::export_player)),
                )
                .service(
                    web::resource("/admin/players/{name}/notes")
                        .route(web::get().to(notes::list_notes))
                        .route(web::post().to(notes::add_note)),
                )
                .service(
                    web::resource("/games")
                        .route(web::get().to(games::list_games))
                        .route(web::post().to(games::ingest_game)),
                )
                .service(
                    web::resource("/games/by-number/{number}")
                        .route(web::get().to(games::get_game_by_number)),
                )
                .service(web::resource("/games/{id}").route(web::get().to(games::get_game)))
                .service(web::resource("/games/{id}/pgn4").route(web::get().to(games::export_pgn4)))
                .service(web::resource("/games/{id}/flags").route(web::get().to(flags::game_flags)))
                .service(
                    web::resource("/players/{name}/flags")
                        .route(web::get().to(flags::player_flags)),
                )
                .service(
                    web::resource("/players/{name}/summary")
                        .route(web::get().to(players::player_summary)),
                )
                .service(
                    web::resource("/players/{name}/conduct")
                        .route(web::get().to(conduct::player_conduct)),
                )
                .service(
                    web::resource("/players/{name}/games")
                        .route(web::get().to(players::shared_games)),
                )
                .service(web::resource("/reports").route(web::post().to(reports::file_report)))
                .service(web::resource("/reports/mine").route(web::get().to(reports::my_reports)))
                .service(
                    web::resource("/sanctions/mine").route(web::get().to(sanctions::my_sanctions)),
                )
                .service(
                    web::resource("/admin/sanctions")
                        .route(web::get().to(sanctions::list_sanctions)),
                )
                .service(
                    web::resource("/admin/sanctions/{id}/change")
                        .route(web::post().to(sanctions::change_sanction)),
                )
                .service(
                    web::resource("/admin/cases/{id}/claim")
                        .route(web::post().to(admin_cases::claim_case)),
                )
                .service(
                    web::resource("/admin/cases/{id}/release")
                        .route(web::post().to(admin_cases::release_case)),
                )
                .service(
                    web::resource("/admin/cases/{id}/decision")
                        .route(web::post().to(admin_cases::decide_case)),
                )
                .service(
                    web::resource("/sanctions/{id}/appeal")
                        .route(web::post().to(appeals::file_appeal)),
                )
                .service(
                    web::resource("/admin/appeals/{id}/decision")
                        .route(web::post().to(appeals::decide_appeal)),
                ),
        );
}
