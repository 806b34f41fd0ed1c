//! OpenAPI schemas for the closed sets of the pure modules. The domain types stay free of
//! `utoipa`: each schema here is a string `enum` built from the type's own list of variants
//! (`ALL`), written as the type serialises, so the document cannot name a value the service
//! would refuse or miss one it accepts (a test compares both).

use std::borrow::Cow;

use serde::de::value::{Error as NameError, StrDeserializer};
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::RefOr;

use super::error::ApiError;
use crate::archive::{ChatChannel, EventKind, SeatColour};
use crate::chat::ffa::FfaClass;
use crate::chat::{Category, EntryKind, MatchMode, Severity, Strictness};
use crate::conduct::abort::AbortReason;
use crate::moderation::stats::{BucketSize, CaseOrigin};
use crate::moderation::{
    AppealStatus, AuditAction, CaseStatus, DecisionKind, Ground, Language, ReportOutcome,
    ReportReason, ReportSource, SanctionKind, WebhookEventKind,
};

/// The wire names of `values`, as serde writes them.
pub fn wire_names<T: Serialize>(values: &[T]) -> Vec<String> {
    values
        .iter()
        .map(|value| match serde_json::to_value(value) {
            Ok(serde_json::Value::String(name)) => name,
            other => panic!("a closed set serialises to strings, not {other:?}"),
        })
        .collect()
}

/// The name one value of a closed set has on the wire (`chat_ban`); empty for a value that
/// does not serialise to a string.
pub fn wire_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// The value of a closed set that `name` names on the wire, read as serde reads the type
/// (`"chat_ban"` is `SanctionKind::ChatBan`); `None` for a name the set does not hold.
pub fn from_wire<T: DeserializeOwned>(name: &str) -> Option<T> {
    let name: StrDeserializer<'_, NameError> = name.into_deserializer();
    T::deserialize(name).ok()
}

/// A closed set's value as a row stores it; a name the set does not hold is a broken row,
/// answered as an internal error naming `what`.
pub fn stored<T: DeserializeOwned>(what: &str, name: &str) -> Result<T, ApiError> {
    from_wire(name).ok_or_else(|| ApiError::internal(format!("stored {what} {name:?}")))
}

/// A string schema allowing exactly `names`.
pub fn string_enum(names: Vec<String>, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .description(Some(description))
        .enum_values(Some(names))
        .into()
}

/// Implements `ToSchema` for a domain type under its own name, from a list of wire names.
macro_rules! closed_set {
    ($type:ty, $name:literal, $names:expr, $description:literal) => {
        impl utoipa::PartialSchema for $type {
            fn schema() -> RefOr<Schema> {
                string_enum($names, $description)
            }
        }

        impl utoipa::ToSchema for $type {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }
        }
    };
}

closed_set!(
    ReportReason,
    "ReportReason",
    wire_names(&ReportReason::ALL),
    "Why a player is reported; `rule_violating_chat` and `prearranged_teaming` apply to FFA and Solo games only."
);
closed_set!(
    Ground,
    "Ground",
    wire_names(&Ground::ALL),
    "What an admin found the accused did."
);
closed_set!(
    DecisionKind,
    "DecisionKind",
    wire_names(&DecisionKind::ALL),
    "What an admin decided about a case."
);
closed_set!(
    SanctionKind,
    "SanctionKind",
    wire_names(&SanctionKind::ALL),
    "A chat ban, a play ban, or a club ban (no play, chat or reports)."
);
closed_set!(
    CaseStatus,
    "CaseStatus",
    wire_names(&CaseStatus::ALL),
    "A case: `open` until an admin decides it."
);

closed_set!(
    AppealStatus,
    "AppealStatus",
    wire_names(&AppealStatus::ALL),
    "An appeal: `open` until an admin upholds, reduces or lifts the sanction."
);

closed_set!(
    ReportOutcome,
    "ReportOutcome",
    wire_names(&ReportOutcome::ALL),
    "How a decided report counts for its reporter."
);
closed_set!(
    ReportSource,
    "ReportSource",
    wire_names(&ReportSource::ALL),
    "Who filed a report: a player, the chat analysis, conduct tracking, the collusion statistics, a fingerprint match with a banned player, or an admin who saw it."
);
closed_set!(
    CaseOrigin,
    "CaseOrigin",
    wire_names(&CaseOrigin::ALL),
    "Where a case came from: its first entry's filer (a player, an automatic analysis, or an admin)."
);
closed_set!(
    BucketSize,
    "StatsBucket",
    wire_names(&[BucketSize::Day, BucketSize::Week]),
    "How stats group days: by day, or by ISO week (Monday to Sunday)."
);
closed_set!(
    WebhookEventKind,
    "SanctionEvent",
    wire_names(&WebhookEventKind::ALL),
    "A kind of webhook event: what happened to a sanction (it started, was reduced, was lifted, or its time ran out), or what a decided case announces (refunds owed, a warning issued, reports decided), or an alert to admins (a case or the queue needs attention)."
);
closed_set!(
    Language,
    "Language",
    wire_names(&Language::ALL),
    "A language the texts players read are written in (ISO 639-1); English is the fallback."
);
closed_set!(
    Category,
    "FlagCategory",
    wire_names(&Category::ALL),
    "What the chat analysis found in a line."
);
closed_set!(
    Severity,
    "FlagSeverity",
    wire_names(&Severity::ALL),
    "How serious a finding is."
);
closed_set!(
    Strictness,
    "Strictness",
    wire_names(&Strictness::ALL),
    "How hard flags of one category are acted on: `off` drops them, `low` counts each one severity lower, `medium` as built, `high` one severity higher."
);
closed_set!(
    MatchMode,
    "TermMode",
    wire_names(&MatchMode::ALL),
    "How a term must sit in a line: `word` a whole word (with endings such as -s, -ing), `phrase` several whole words, `prefix` at the start of a word, `sub` anywhere inside a word. Spelling tricks (leet, look-alike letters, repeats, separators, asterisks) are folded away first, as for the built-in lexicon."
);
closed_set!(
    EntryKind,
    "WordListEntryKind",
    wire_names(&EntryKind::ALL),
    "A word-list entry: a `term` flagged, or an `allowed` word never flagged."
);
closed_set!(
    FfaClass,
    "FfaClass",
    wire_names(&FfaClass::ALL),
    "How a line reads under the FFA chat rules."
);
closed_set!(
    AbortReason,
    "AbortReason",
    AbortReason::ALL
        .iter()
        .map(|r| r.as_str().to_string())
        .collect(),
    "The abort rule that applied."
);

/// The kinds of the moderation log (`AuditAction::KINDS`), a type of its own for the
/// document.
pub struct ModlogKind;

closed_set!(
    ModlogKind,
    "ModlogKind",
    AuditAction::KINDS.iter().map(|k| k.to_string()).collect(),
    "One kind of moderation-log line."
);
closed_set!(
    SeatColour,
    "SeatColour",
    wire_names(&SeatColour::ALL),
    "A seat colour as the API writes it."
);
closed_set!(
    ChatChannel,
    "ChatChannel",
    wire_names(&ChatChannel::ALL),
    "Where a chat line was posted."
);
closed_set!(
    EventKind,
    "EventKind",
    wire_names(&EventKind::ALL),
    "A connection or game event reported by the game server."
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_the_values_they_name() {
        for kind in SanctionKind::ALL {
            assert_eq!(from_wire::<SanctionKind>(&wire_name(&kind)), Some(kind));
        }
        assert_eq!(
            from_wire::<ChatChannel>("spectator"),
            Some(ChatChannel::Spectator)
        );
        assert_eq!(from_wire::<SanctionKind>("chat ban"), None);
        assert!(stored::<Ground>("ground", "nope").is_err());
    }
}
