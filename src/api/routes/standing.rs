//! A player's standing (`GET /api/v1/players/{name}/standing`, server and admin roles): what
//! the player may do now, computed from sanctions and report timeouts at read time.

use actix_web::web;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::auth::{record_caller, AnyCaller, Credentials};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::state::AppState;
use crate::moderation::{Ground, ReportReason, SanctionKind};
use crate::store::sanctions::{self, SanctionRow};
use crate::store::{self, to_utc};

/// What a player may do now. A `false` permission with a null end time is permanent.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingView {
    pub player: String,
    pub at: DateTime<Utc>,
    pub may_chat: bool,
    pub chat_until: Option<DateTime<Utc>>,
    pub may_play: bool,
    pub play_until: Option<DateTime<Utc>>,
    pub may_report: bool,
    pub report_until: Option<DateTime<Utc>>,
    pub club_banned: bool,
    pub club_until: Option<DateTime<Utc>>,
    /// Ids of the sanctions in force.
    pub active_sanctions: Vec<i64>,
}

/// A sanction as stored, with its end after appeals.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionView {
    pub id: i64,
    pub case_id: Option<i64>,
    #[schema(value_type = SanctionKind)]
    pub kind: String,
    #[schema(value_type = ReportReason)]
    pub reason: String,
    #[schema(value_type = Ground)]
    pub ground: String,
    pub starts_at: DateTime<Utc>,
    /// The planned end; null for a permanent sanction.
    pub ends_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    /// When it ends after appeals (null: never).
    pub effective_end: Option<DateTime<Utc>>,
}

impl From<SanctionRow> for SanctionView {
    fn from(row: SanctionRow) -> Self {
        let effective_end = row.to_policy().ok().and_then(|s| s.effective_end());
        SanctionView {
            id: row.id,
            case_id: row.case_id,
            kind: row.kind,
            reason: row.reason,
            ground: row.ground,
            starts_at: to_utc(row.starts_at),
            ends_at: row.ends_at.map(to_utc),
            reduced_until: row.reduced_until.map(to_utc),
            lifted_at: row.lifted_at.map(to_utc),
            effective_end,
        }
    }
}

/// What a player may do now: chat, play, report, with end times. A player the service never
/// saw may do everything.
#[utoipa::path(get, path = "/api/v1/players/{name}/standing", tag = "sanctions",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    responses(
        (status = 200, description = "The player's standing now", body = StandingView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a game server or admin", body = ErrorEnvelope),
    ))]
pub async fn player_standing(
    credentials: Credentials,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<web::Json<StandingView>, ApiError> {
    let name = name.into_inner();
    // Authentication and the standing share one read on one pooled connection; on SQLite it
    // usually runs without leaving the worker.
    let (caller, touch, name, standing) = state
        .read_inline(move |conn| {
            let (caller, touch) = credentials.resolve_read_only(conn)?;
            if let AnyCaller::Player(_) = caller {
                return Err(ApiError::Forbidden {
                    allowed: &["server", "admin"],
                    actual: "player",
                });
            }
            let standing = sanctions::standing_of(conn, &name, store::now())?;
            Ok::<_, ApiError>((caller, touch, name, standing))
        })
        .await?;
    record_caller(&caller);
    if let Some(touch) = touch {
        touch.apply_later(&state);
    }
    Ok(web::Json(StandingView {
        player: name,
        at: standing.at,
        may_chat: standing.may_chat,
        chat_until: standing.chat_until,
        may_play: standing.may_play,
        play_until: standing.play_until,
        may_report: standing.may_report,
        report_until: standing.report_until,
        club_banned: standing.club_banned,
        club_until: standing.club_until,
        active_sanctions: standing.active_sanctions.iter().map(|s| s.0).collect(),
    }))
}
