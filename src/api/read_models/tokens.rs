//! API tokens as admins list them: in creation order, never the token itself.

use crate::api::error::ApiError;
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::views::tokens::TokenView;
use crate::store::api_tokens;

/// One page of the tokens, oldest first.
pub async fn read_tokens(state: &AppState, page: IdPage) -> Result<Page<TokenView>, ApiError> {
    let rows = state
        .read(move |conn| api_tokens::list_page(conn, page.after_id, page.fetch_limit()))
        .await?;
    Page::try_from_rows(rows, page, |row| row.id, TokenView::from_row)
}
