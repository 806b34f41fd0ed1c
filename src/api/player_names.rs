//! Player names as requests carry them: a name in a path, a name in a body.

use serde_json::json;

use crate::api::error::ApiError;
use crate::archive::{name_problem, MAX_NAME_CHARS};

/// A player name from the path: trimmed, a possible player name ([`name_problem`]).
pub fn checked_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if let Some(problem) = name_problem(name) {
        return Err(ApiError::BadRequest {
            code: "invalid_path",
            message: format!(
                "`name` must be 1 to {MAX_NAME_CHARS} characters without control, format or \
                 invisible characters; it {problem}."
            ),
            details: json!({ "field": "name" }),
        });
    }
    Ok(name.to_string())
}

/// A possible player name in a report or an admin's entry, by the rule the archive applies
/// to names from game servers ([`name_problem`]).
pub fn check_player_name(field: &str, name: &str) -> Result<(), ApiError> {
    let Some(problem) = name_problem(name) else {
        return Ok(());
    };
    Err(ApiError::unprocessable(
        "invalid_report",
        format!("`{field}` {problem}."),
        json!({ "field": field }),
    ))
}
