//! The project itself: the README's claims, and the layers of `src/`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod layers;
mod readme;
