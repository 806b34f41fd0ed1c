//! Read models: each read the JSON routes and the console's pages both make, as one plain
//! function answering the typed view of `views`. A route handler checks the caller and the
//! input, calls the function and wraps its answer in JSON. The reads a page may gather into
//! one are also connection-level functions (`&mut DbConnection` in, the view out).

pub mod appeals;
pub mod case_detail;
pub mod conduct;
pub mod flags;
pub mod games;
pub mod modlog;
pub mod notes;
pub mod player_search;
pub mod player_summary;
pub mod queue;
pub mod sanctions;
pub mod standing;
pub mod tokens;
pub mod webhooks;
