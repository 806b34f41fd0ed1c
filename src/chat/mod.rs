//! Chat analysis (pure).
pub mod normalize;
