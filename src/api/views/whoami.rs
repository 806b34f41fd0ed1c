//! Who the credentials belong to.

use serde::Serialize;
use utoipa::ToSchema;

use crate::api::auth::Role;

#[derive(Debug, Serialize, ToSchema)]
pub struct WhoAmI {
    pub role: Role,
    /// The token's name (server, admin) or the player's name.
    pub name: String,
}
