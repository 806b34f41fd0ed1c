//! Small text helpers of the console's pages: URL encoding, wire names, times and ages.

use chrono::{DateTime, Utc};
use serde::Serialize;

pub use crate::api::wire_enums::wire_name;

/// `text` percent-encoded for a query string value (everything but unreserved characters).
pub fn url_encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(char::from(byte));
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// A form field's text, trimmed, or None when it is empty ("any" in a filter).
pub fn filled(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Where a form or sign-in sends the browser next: a console page, never another site.
pub fn console_path(next: Option<&str>) -> String {
    match next {
        Some(next)
            if next.starts_with("/admin")
                && !next.starts_with("//")
                && next.chars().all(|c| c.is_ascii_graphic()) =>
        {
            next.to_string()
        }
        _ => "/admin/".to_string(),
    }
}

/// A wire name for people: `offensive_chat` -> `offensive chat`.
pub fn spoken(name: &str) -> String {
    name.replace('_', " ")
}

/// A closed set's value for people: `ReportReason::OffensiveChat` -> `offensive chat`.
pub fn spoken_name<T: Serialize>(value: &T) -> String {
    spoken(&wire_name(value))
}

/// A time as admins read it in lists: `2026-11-26 14:05 UTC`.
pub fn when(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// How long ago `then` was at `now`, in its largest unit: `5 min`, `3 h`, `2 d`.
pub fn age(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let minutes = (now - then).num_minutes().max(0);
    if minutes < 60 {
        format!("{minutes} min")
    } else if minutes < 48 * 60 {
        format!("{} h", minutes / 60)
    } else {
        format!("{} d", minutes / (24 * 60))
    }
}

/// A sanction's length in minutes as people say it: `24 hours`, `7 days`, `90 minutes`.
pub fn duration_minutes(minutes: u64) -> String {
    let plural = |n: u64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    if minutes.is_multiple_of(24 * 60) {
        plural(minutes / (24 * 60), "day")
    } else if minutes.is_multiple_of(60) {
        plural(minutes / 60, "hour")
    } else {
        plural(minutes, "minute")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn encodes_only_what_a_query_value_cannot_hold() {
        assert_eq!(
            url_encoded("/admin/cases/3?x=a b&c"),
            "/admin/cases/3%3Fx%3Da%20b%26c"
        );
        assert_eq!(url_encoded("é"), "%C3%A9");
    }

    #[test]
    fn only_console_pages_are_followed() {
        assert_eq!(console_path(Some("/admin/cases/3")), "/admin/cases/3");
        assert_eq!(console_path(Some("https://evil.example/")), "/admin/");
        assert_eq!(console_path(Some("//evil.example/admin")), "/admin/");
        assert_eq!(console_path(Some("/admin/x\ny")), "/admin/");
        assert_eq!(console_path(None), "/admin/");
    }

    #[test]
    fn ages_and_durations_read_naturally() {
        let now = Utc::now();
        assert_eq!(age(now - Duration::minutes(5), now), "5 min");
        assert_eq!(age(now - Duration::hours(3), now), "3 h");
        assert_eq!(age(now - Duration::days(9), now), "9 d");
        assert_eq!(duration_minutes(1440), "1 day");
        assert_eq!(duration_minutes(120), "2 hours");
        assert_eq!(duration_minutes(90), "90 minutes");
    }
}
