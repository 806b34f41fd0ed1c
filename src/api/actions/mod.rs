//! Actions: each write an admin makes both through the JSON API and through the console's
//! forms, as one function. It checks the typed request, runs the use case through
//! `AppState::write`, does what follows it (waking the webhook deliverer, logging) and answers
//! the typed view, or the `ApiError` the route sends and the console puts in a sentence.

pub mod acting_admin;
pub mod add_note;
pub mod change_sanction;
pub mod claim_case;
pub mod decide_appeal;
pub mod decide_case;
pub mod open_case;
pub mod report_refusals;
pub mod tokens;
pub mod webhooks;
pub mod word_list;
