//! What the console's player page shows, from one read on one connection: standing, archive
//! record, conduct record, recent games, flagged chat, cases, sanctions in force, warnings and
//! notes, each as the JSON routes answer it.

use crate::api::error::ApiError;
use crate::api::pagination::{Page, PageQuery};
use crate::api::player_names::checked_name;
use crate::api::read_models::conduct::admin_record;
use crate::api::read_models::flags::player_flags;
use crate::api::read_models::games::{games_page, GameListQuery};
use crate::api::read_models::notes::player_notes;
use crate::api::read_models::player_summary::summary;
use crate::api::read_models::queue::{cases_page, CaseListQuery};
use crate::api::read_models::sanctions::{sanctions_page, SanctionListQuery};
use crate::api::read_models::standing::standing;
use crate::api::state::AppState;
use crate::api::views::flags::FlagView;
use crate::api::views::games::GameSummary;
use crate::api::views::notes::NoteView;
use crate::api::views::players::PlayerSummaryView;
use crate::api::views::queue::CasePage;
use crate::api::views::sanction_listing::SanctionListingView;
use crate::api::views::standing::StandingView;
use crate::api::views::warnings::WarningView;
use crate::conduct::AdminConductView;
use crate::store::{players, to_utc, warnings, DbConnection};

pub struct PlayerPage {
    pub standing: StandingView,
    pub summary: PlayerSummaryView,
    /// `None` when no game of theirs is recorded.
    pub conduct: Option<AdminConductView>,
    pub games: Page<GameSummary>,
    pub flags: Page<FlagView>,
    /// Their cases, open and decided.
    pub cases: CasePage,
    pub sanctions_in_force: Page<SanctionListingView>,
    pub notes: Page<NoteView>,
    /// Their latest warnings, with whether each was acknowledged.
    pub warnings: Vec<WarningView>,
}

/// `name`'s page, with the first `listed` rows of each list.
pub async fn read_player_page(
    state: &AppState,
    name: String,
    listed: u32,
) -> Result<PlayerPage, ApiError> {
    let noted = checked_name(&name)?;
    let page = PageQuery {
        limit: Some(listed),
        cursor: None,
    }
    .by_id(&state.cursor_key)?;
    let games = GameListQuery {
        player: Some(name.clone()),
        ..GameListQuery::default()
    }
    .filter()?;
    let cases = CaseListQuery {
        status: Some("all".into()),
        accused: Some(name.clone()),
        limit: Some(listed),
        ..CaseListQuery::default()
    }
    .checked(&state.cursor_key)?;
    let now = crate::store::now();
    let in_force = SanctionListQuery {
        player: Some(name.clone()),
        status: Some("in_force".into()),
        ..SanctionListQuery::default()
    }
    .filter(now)?;
    let name_key = state.settings.privacy.erased_name_key(&name);
    let (conduct_policy, moderation) = (state.conduct.clone(), state.moderation.clone());
    let window_days = moderation.appeal.window_days;
    state
        .read(move |conn| {
            Ok::<_, ApiError>(PlayerPage {
                standing: standing(conn, name.clone(), name_key.as_deref(), now)?,
                summary: summary(conn, name.clone())?,
                conduct: admin_record(conn, &name, to_utc(now), &conduct_policy)?,
                games: games_page(conn, &games, page)?,
                flags: player_flags(conn, &name, page)?,
                cases: cases_page(conn, &cases, &moderation)?,
                sanctions_in_force: sanctions_page(conn, &in_force, page, now, window_days)?,
                notes: player_notes(conn, &noted, page)?,
                warnings: latest_warnings(conn, &name, listed)?,
            })
        })
        .await
}

/// The player's latest `listed` warnings, newest first.
fn latest_warnings(
    conn: &mut DbConnection,
    name: &str,
    listed: u32,
) -> Result<Vec<WarningView>, ApiError> {
    let Some(id) = players::find_id(conn, name)? else {
        return Ok(Vec::new());
    };
    Ok(warnings::page_of(conn, id, None, i64::from(listed))?
        .into_iter()
        .map(WarningView::from)
        .collect())
}
