//! The admins' word list as read: its entries, every category's strictness, the version in
//! force and the one this instance serves.

use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::word_list::{StrictnessView, WordListEntryView, WordListView};
use crate::store::word_list;

/// The list; `removed` adds the removed entries.
pub async fn read_word_list(state: &AppState, removed: bool) -> Result<WordListView, ApiError> {
    let (version, entries, strictness) = state
        .read(move |conn| {
            Ok::<_, ApiError>((
                word_list::version(conn)?,
                word_list::list(conn, removed)?,
                word_list::strictness_rows(conn)?,
            ))
        })
        .await?;
    Ok(WordListView {
        version,
        served_version: state.chat.version(),
        entries: entries.into_iter().map(WordListEntryView::from).collect(),
        strictness: StrictnessView::all(strictness),
    })
}
