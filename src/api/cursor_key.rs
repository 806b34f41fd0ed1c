//! The key that seals list cursors. A cursor carries the last item's sort key and, for the
//! queue, the moment its ranking was computed; a caller who could write one would steer the
//! query (a queue ranked in the year 4878, issue #40). Each cursor ends with an HMAC-SHA256
//! tag of its content under this key, so only a cursor this service issued is accepted.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::digest::Key;
use hmac::{Hmac, Mac};
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Bytes of the tag: the whole HMAC-SHA256 output.
const TAG_BYTES: usize = 32;

/// Separates this key from any other use of the configured secret.
const LABEL: &[u8] = b"arbiter list cursor key\0";

/// The key; `Copy` so a page request can carry it to the page it answers.
#[derive(Clone, Copy)]
pub struct CursorKey([u8; 32]);

impl CursorKey {
    /// The key of `[api] cursor_key`, or a random one when that is empty (then cursors
    /// outlive neither a restart nor a hop to another instance).
    pub fn from_setting(secret: &str) -> CursorKey {
        if secret.is_empty() {
            let mut key = [0; 32];
            OsRng.fill_bytes(&mut key);
            return CursorKey(key);
        }
        // Hashed: a fixed length whatever the setting's, and a key for cursors alone.
        CursorKey(
            Sha256::new()
                .chain_update(LABEL)
                .chain_update(secret)
                .finalize()
                .into(),
        )
    }

    /// `payload` and its tag, base64url without padding: opaque and safe in a URL.
    pub fn seal(&self, payload: &[u8]) -> String {
        let mut sealed = payload.to_vec();
        sealed.extend_from_slice(&self.mac(payload).finalize().into_bytes());
        URL_SAFE_NO_PAD.encode(sealed)
    }

    /// The payload of a cursor `seal` made under this key; `None` for anything else (forged,
    /// edited, truncated, sealed under another key, not base64url).
    pub fn open(&self, cursor: &str) -> Option<Vec<u8>> {
        let mut payload = URL_SAFE_NO_PAD.decode(cursor).ok()?;
        let tag = payload.split_off(payload.len().checked_sub(TAG_BYTES)?);
        // Constant time, so the tag cannot be guessed a byte at a time.
        self.mac(&payload).verify_slice(&tag).ok()?;
        Some(payload)
    }

    fn mac(&self, payload: &[u8]) -> Hmac<Sha256> {
        // HMAC pads a key shorter than its block with zeros (RFC 2104, section 2); padding
        // it here makes the key the block-sized one `new` takes, which cannot fail.
        let mut key = Key::<Hmac<Sha256>>::default();
        key[..self.0.len()].copy_from_slice(&self.0);
        let mut mac = <Hmac<Sha256> as Mac>::new(&key);
        mac.update(payload);
        mac
    }
}

// Hand-written so the key never reaches a log line through `{:?}`.
impl std::fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_only_what_it_sealed() {
        let key = CursorKey::from_setting("a-cursor-key-of-at-least-32-bytes!");
        let sealed = key.seal(b"queue:1:2:3:4");
        assert_eq!(key.open(&sealed).as_deref(), Some(&b"queue:1:2:3:4"[..]));
        assert!(!sealed.contains(['+', '/', '=']), "{sealed}");
        // Unsealed, truncated, edited, or sealed under another key.
        assert_eq!(key.open(&URL_SAFE_NO_PAD.encode("queue:0:0:0:0")), None);
        assert_eq!(key.open(&sealed[..sealed.len() - 1]), None);
        let mut edited = sealed.clone().into_bytes();
        edited[0] = if edited[0] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            key.open(&String::from_utf8(edited).unwrap_or_default()),
            None
        );
        assert_eq!(CursorKey::from_setting("").open(&sealed), None);
        assert_eq!(key.open(""), None);
    }

    #[test]
    fn the_same_setting_gives_the_same_key() {
        let sealed = CursorKey::from_setting("shared-by-every-instance-0123456789").seal(b"id:7");
        let other = CursorKey::from_setting("shared-by-every-instance-0123456789");
        assert_eq!(other.open(&sealed).as_deref(), Some(&b"id:7"[..]));
    }
}
