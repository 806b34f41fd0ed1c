//! The admin console served under `/admin/`: server-rendered pages for volunteer admins.
//! So far the board picture the case and game pages show.

pub mod board_svg;
