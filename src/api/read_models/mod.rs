//! Read models: each read the JSON routes and the console's pages both make, as one plain
//! function answering the typed view of `views`. A route handler checks the caller and the
//! input, calls the function and wraps its answer in JSON; a console page renders the same
//! answer as HTML. A page that shows several answers gathers them in one read
//! (`player_page`, `case_page`) from the connection-level functions the single reads use.

pub mod appeals;
pub mod case_detail;
pub mod case_page;
pub mod conduct;
pub mod flags;
pub mod games;
pub mod modlog;
pub mod notes;
pub mod player_page;
pub mod player_search;
pub mod player_summary;
pub mod queue;
pub mod sanctions;
pub mod standing;
pub mod stats;
pub mod table_check;
pub mod tokens;
pub mod webhooks;
pub mod word_list;
