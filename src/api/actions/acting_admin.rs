//! The admin acting, as the moderation records name them.

use crate::api::error::ApiError;
use crate::moderation::PlayerId;
use crate::store::{self, players, DbConnection};

/// The admin's player id (admins act under their player name).
pub fn admin_id(conn: &mut DbConnection, name: &str) -> Result<PlayerId, ApiError> {
    Ok(players::id_or_create(conn, name, store::now())?)
}
