//! A decision preset as admins choose it.

use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::{DecisionKind, DecisionPreset, ReportReason};

/// A message preset: its key goes in a decision's `preset`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PresetView {
    pub key: String,
    #[schema(value_type = ReportReason)]
    pub reason: ReportReason,
    #[schema(value_type = DecisionKind)]
    pub decision: DecisionKind,
    pub title: String,
    /// The text with its `{placeholders}` (filled in when a decision uses it).
    pub text: String,
}

impl From<&DecisionPreset> for PresetView {
    fn from(preset: &DecisionPreset) -> Self {
        PresetView {
            key: preset.key.clone(),
            reason: preset.reason,
            decision: preset.decision,
            title: preset.title.clone(),
            text: preset.text.clone(),
        }
    }
}

/// Every preset that matches the filters, in the file's order.
#[derive(Debug, Serialize, ToSchema)]
pub struct PresetList {
    pub items: Vec<PresetView>,
}
