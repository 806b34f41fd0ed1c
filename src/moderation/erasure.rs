//! A player's erasure, as pure rules: the pseudonym that replaces the name, the keyed hash
//! that still recognises the name for the standing check, where in free text the name
//! counts as written, and the checks on an erasure request.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::types::PlayerId;

/// The stable name an erased player is known by: unique (the `players` row's id) and
/// meaningless outside this database.
pub fn pseudonym(player_id: PlayerId) -> String {
    format!("erased-{player_id}")
}

/// Whether a name is already an erasure's pseudonym (erasing it again would do nothing).
pub fn is_pseudonym(name: &str) -> bool {
    name.strip_prefix("erased-")
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

/// A name as compared for erasure: case-folded, so "Spaksi" and "SPAKSI" are one name.
pub fn fold_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// HMAC-SHA256 of the folded name under the operator's erasure key, in hex: what
/// `erased_names` stores instead of the name. Without the key the stored value says nothing
/// about the name, even to someone holding a list of candidate names.
pub fn name_key(erasure_key: &str, name: &str) -> String {
    // HMAC accepts keys of any length; an empty key is refused by the caller.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(erasure_key.as_bytes()) else {
        return String::new();
    };
    mac.update(fold_name(name).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The check value of an erasure key: HMAC-SHA256 of a fixed label under the key, in hex.
/// Stored beside the erased names, it tells whether a configured key is the one they were
/// hashed with, and says nothing about the key itself. The label starts with a NUL, which no
/// name holds, so it is never also a name's key.
pub fn key_check(erasure_key: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(erasure_key.as_bytes()) else {
        return String::new();
    };
    mac.update(b"\0arbiter erasure key check");
    hex::encode(mac.finalize().into_bytes())
}

/// `text` with every whole-word occurrence of `name` (case-insensitive) replaced by
/// `replacement`, or `None` when the name does not occur. A word boundary is any character
/// that cannot be part of a site name (letters, digits, `_`), so "Spaksi's" and "@spaksi"
/// match while "Spaksi2" (another player) does not.
pub fn replace_name(text: &str, name: &str, replacement: &str) -> Option<String> {
    let folded_name = fold_name(name);
    if folded_name.is_empty() {
        return None;
    }
    let is_name_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut copied = 0;
    let mut found = false;
    // Compare char by char so the byte offsets stay those of `text`, whatever case folding
    // does to the length of other characters.
    for (start, _) in text.char_indices() {
        if start < copied {
            continue;
        }
        let Some(end) = match_at(text, start, &folded_name) else {
            continue;
        };
        let before_ok = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_name_char(c));
        let after_ok = text[end..].chars().next().is_none_or(|c| !is_name_char(c));
        if before_ok && after_ok {
            out.push_str(&text[copied..start]);
            out.push_str(replacement);
            copied = end;
            found = true;
        }
    }
    if !found {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// The end of a case-insensitive match of `folded_name` starting at byte `start`, if any.
fn match_at(text: &str, start: usize, folded_name: &str) -> Option<usize> {
    let mut wanted = folded_name.chars();
    let mut pending = String::new();
    for (offset, c) in text[start..].char_indices() {
        pending.clear();
        pending.extend(c.to_lowercase());
        for lower in pending.chars() {
            if wanted.next() != Some(lower) {
                return None;
            }
        }
        if wanted.as_str().is_empty() {
            return Some(start + offset + c.len_utf8());
        }
    }
    None
}

/// The PGN4 text with the name replaced in its tag section (`[Red "Spaksi"]`,
/// `[Result "Spaksi: 25 - ..."]`); the moves carry no names.
pub fn replace_name_in_pgn4_tags(pgn4: &str, name: &str, replacement: &str) -> Option<String> {
    let mut out = String::with_capacity(pgn4.len());
    let mut found = false;
    for line in pgn4.split_inclusive('\n') {
        if line.trim_start().starts_with('[') {
            if let Some(replaced) = replace_name(line, name, replacement) {
                out.push_str(&replaced);
                found = true;
                continue;
            }
        }
        out.push_str(line);
    }
    found.then_some(out)
}

/// Why an erasure request cannot be carried out as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErasureProblem {
    /// `confirm` is not the name being erased.
    ConfirmMismatch,
    /// `why` is empty or longer than `max` characters.
    Why { max: usize },
    /// The name is already a pseudonym.
    AlreadyErased,
}

/// Most characters of an erasure's reason.
pub const MAX_ERASURE_WHY: usize = 2000;

/// Checks an erasure request: the admin typed the name again, and said why.
pub fn validate_erasure(name: &str, confirm: &str, why: &str) -> Result<(), ErasureProblem> {
    if is_pseudonym(name) {
        return Err(ErasureProblem::AlreadyErased);
    }
    if confirm != name {
        return Err(ErasureProblem::ConfirmMismatch);
    }
    let length = why.trim().chars().count();
    if length == 0 || length > MAX_ERASURE_WHY {
        return Err(ErasureProblem::Why {
            max: MAX_ERASURE_WHY,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_check_tells_keys_apart_and_is_no_name_key() {
        let check = key_check("key-a-0123456789abcdef0123456789ab");
        assert_eq!(check.len(), 64);
        assert_eq!(check, key_check("key-a-0123456789abcdef0123456789ab"));
        assert_ne!(check, key_check("key-b-0123456789abcdef0123456789ab"));
        assert_ne!(
            check,
            name_key(
                "key-a-0123456789abcdef0123456789ab",
                "arbiter erasure key check"
            )
        );
    }

    #[test]
    fn the_name_is_replaced_as_a_whole_word_in_any_case() {
        assert_eq!(
            replace_name("gg Spaksi, @spaksi's queen; SPAKSI!", "Spaksi", "erased-7").as_deref(),
            Some("gg erased-7, @erased-7's queen; erased-7!")
        );
    }

    #[test]
    fn other_names_containing_the_name_are_left() {
        assert_eq!(
            replace_name("Spaksi2 and xSpaksi", "Spaksi", "erased-7"),
            None
        );
        assert_eq!(
            replace_name("Spaksi_ vs Spaksi", "Spaksi", "e").as_deref(),
            Some("Spaksi_ vs e")
        );
    }

    #[test]
    fn names_with_non_ascii_letters_and_underscores_match() {
        assert_eq!(
            replace_name("hi BJØRN_b and bjørn_b", "Bjørn_B", "e").as_deref(),
            Some("hi e and e")
        );
        assert_eq!(replace_name("", "x", "e"), None);
        assert_eq!(replace_name("text", "", "e"), None);
    }

    #[test]
    fn pgn4_tags_change_and_moves_do_not() {
        let pgn4 = "[Red \"Ann\"]\n[Result \"Ann: 20 - Bob: 0\"]\n\n1. Ann .. b\n";
        assert_eq!(
            replace_name_in_pgn4_tags(pgn4, "ann", "erased-1").as_deref(),
            Some("[Red \"erased-1\"]\n[Result \"erased-1: 20 - Bob: 0\"]\n\n1. Ann .. b\n")
        );
        assert_eq!(replace_name_in_pgn4_tags(pgn4, "Cid", "e"), None);
    }

    #[test]
    fn the_name_key_is_keyed_and_case_blind() {
        let key = name_key("secret-1", "Spaksi");
        assert_eq!(key.len(), 64);
        assert_eq!(key, name_key("secret-1", " SPAKSI"));
        assert_ne!(key, name_key("secret-2", "Spaksi"));
        assert!(!key.contains("paksi"));
    }

    #[test]
    fn requests_are_checked() {
        assert_eq!(validate_erasure("Ann", "Ann", "request 12"), Ok(()));
        assert_eq!(
            validate_erasure("Ann", "ann", "request 12"),
            Err(ErasureProblem::ConfirmMismatch)
        );
        assert_eq!(
            validate_erasure("Ann", "Ann", "  "),
            Err(ErasureProblem::Why {
                max: MAX_ERASURE_WHY
            })
        );
        assert_eq!(
            validate_erasure("erased-4", "erased-4", "again"),
            Err(ErasureProblem::AlreadyErased)
        );
        assert!(is_pseudonym(&pseudonym(PlayerId(42))));
        assert!(!is_pseudonym("erased-"));
        assert!(!is_pseudonym("erased-x"));
    }
}
