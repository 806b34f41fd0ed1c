//! Sanction events: what game servers are told when a sanction starts, is reduced, is lifted
//! or ends, as the JSON body a webhook carries.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::language::Language;
use super::webhook_event_kind::WebhookEventKind;

use super::types::{Ground, ReportReason, Sanction, SanctionKind};

/// The sanction as an event states it, after the change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SanctionState {
    pub id: i64,
    pub player: String,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: DateTime<Utc>,
    /// When it stops having effect, after reductions; `None` while permanent.
    pub ends_at: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    /// Whether it restricts the player at the event's time.
    pub in_force: bool,
    /// The language of `text`: the player's last known one when the sanction was decided,
    /// else English.
    pub language: Language,
    /// Why, as the player was told it, in `language`.
    pub text: String,
    /// The same in English.
    pub text_en: String,
    /// A separation's members by name, the sanctioned player among them; absent for other
    /// kinds, so their bodies stay as they were.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
}

/// One event, serialised as the webhook's body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SanctionEvent {
    /// Unique per event: receivers deduplicate redeliveries by it.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: WebhookEventKind,
    pub created_at: DateTime<Utc>,
    pub sanction: SanctionState,
}

impl SanctionEvent {
    pub fn new(
        id: String,
        kind: WebhookEventKind,
        sanction: &Sanction,
        player: &str,
        now: DateTime<Utc>,
    ) -> SanctionEvent {
        SanctionEvent {
            id,
            kind,
            created_at: now,
            sanction: SanctionState {
                id: sanction.id.0,
                player: player.to_string(),
                kind: sanction.kind,
                reason: sanction.reason,
                ground: sanction.ground,
                starts_at: sanction.starts_at,
                ends_at: sanction.effective_end(),
                lifted_at: sanction.lifted_at,
                in_force: sanction.is_active(now),
                language: Language::En,
                text: String::new(),
                text_en: String::new(),
                members: Vec::new(),
            },
        }
    }

    /// The event with the sanction's note: in the player's language, and in English.
    pub fn with_texts(
        mut self,
        language: Language,
        text: String,
        text_en: String,
    ) -> SanctionEvent {
        self.sanction.language = language;
        self.sanction.text = text;
        self.sanction.text_en = text_en;
        self
    }

    /// The event naming a separation's members.
    pub fn with_members(mut self, members: Vec<String>) -> SanctionEvent {
        self.sanction.members = members;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::{PlayerId, SanctionDuration, SanctionId};
    use chrono::{TimeDelta, TimeZone};

    #[test]
    fn an_event_states_the_sanction_after_the_change() {
        let start = Utc
            .with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
            .single()
            .unwrap_or_default();
        let mut sanction = Sanction {
            id: SanctionId(7),
            player: PlayerId(3),
            kind: SanctionKind::ChatBan,
            reason: ReportReason::OffensiveChat,
            ground: Ground::Harassment,
            starts_at: start,
            duration: SanctionDuration::hours(24),
            lifted_at: None,
            reduced_until: Some(start + TimeDelta::hours(6)),
        };
        let event = SanctionEvent::new(
            "e1".into(),
            WebhookEventKind::SanctionReduced,
            &sanction,
            "Spaksi",
            start + TimeDelta::hours(1),
        );
        let json = serde_json::to_value(&event).unwrap_or_default();
        assert_eq!(json["type"], "sanction_reduced");
        assert_eq!(json["sanction"]["player"], "Spaksi");
        assert_eq!(json["sanction"]["ends_at"], "2026-03-01T18:00:00Z");
        assert_eq!(json["sanction"]["in_force"], true);

        sanction.lifted_at = Some(start + TimeDelta::hours(2));
        let lifted = SanctionEvent::new(
            "e2".into(),
            WebhookEventKind::SanctionLifted,
            &sanction,
            "Spaksi",
            start + TimeDelta::hours(2),
        );
        assert!(!lifted.sanction.in_force);
        assert!(
            json["sanction"].get("members").is_none(),
            "only separations name members"
        );
        sanction.kind = SanctionKind::Separation;
        let separated = SanctionEvent::new(
            "e3".into(),
            WebhookEventKind::SanctionStarted,
            &sanction,
            "Spaksi",
            start,
        )
        .with_members(vec!["Spaksi".into(), "Ally".into()]);
        let json = serde_json::to_value(&separated).unwrap_or_default();
        assert_eq!(json["sanction"]["kind"], "separation");
        assert_eq!(json["sanction"]["members"][1], "Ally");
        for kind in WebhookEventKind::ALL {
            assert_eq!(WebhookEventKind::from_name(kind.name()), Some(kind));
        }
    }
}
