//! Response views of the API: the typed bodies the handlers in `routes` answer with, and how
//! they are built from store rows. One module per resource.

pub mod alerts;
pub mod appeals;
pub mod cases;
pub mod chat;
pub mod conduct;
pub mod flags;
pub mod games;
pub mod health;
pub mod modlog;
pub mod notes;
pub mod player_export;
pub mod players;
pub mod presets;
pub mod queue;
pub mod refunds;
pub mod reports;
pub mod sanction_listing;
pub mod sanctions;
pub mod standing;
pub mod stats;
pub mod table_check;
pub mod tokens;
pub mod warnings;
pub mod webhooks;
pub mod whoami;
pub mod word_list;
