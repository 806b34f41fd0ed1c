//! Player names as requests carry them: a name in a path, a name in a body.

use serde_json::json;

use crate::api::error::ApiError;
use crate::archive::MAX_NAME_CHARS;

/// A player name from the path: trimmed, 1 to `MAX_NAME_CHARS` characters.
pub fn checked_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::BadRequest {
            code: "invalid_path",
            message: format!("`name` must be 1 to {MAX_NAME_CHARS} characters."),
            details: json!({ "field": "name" }),
        });
    }
    Ok(name.to_string())
}

/// A possible player name in a report or an admin's entry: 1 to `MAX_NAME_CHARS` printable
/// characters, as the archive takes names from game servers.
pub fn check_player_name(field: &str, name: &str) -> Result<(), ApiError> {
    let chars = name.chars().count();
    let problem = if name.is_empty() {
        "is empty: name a player".to_string()
    } else if chars > MAX_NAME_CHARS {
        format!("is {chars} characters long; a player name has at most {MAX_NAME_CHARS}")
    } else if name.chars().any(char::is_control) {
        "has a control character; a player name has none".to_string()
    } else {
        return Ok(());
    };
    Err(ApiError::unprocessable(
        "invalid_report",
        format!("`{field}` {problem}."),
        json!({ "field": field }),
    ))
}
