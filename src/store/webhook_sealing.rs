//! Webhook secrets and URL credentials sealed at rest under `[webhooks] sealing_key`: a copy
//! of the database (a backup, a replica, a support dump) does not let its reader sign events
//! as this service or call the receivers. XChaCha20-Poly1305 with a random 24-byte nonce per
//! sealing, stored with the ciphertext as `sealed:v1:<base64url(nonce || ciphertext)>`; the
//! version names the algorithm and key derivation so they can change. Each value is bound to
//! what it is (secret or credentials), so one cannot be moved into the other's column. A value
//! without the prefix is a legacy plain one, written before sealing existed.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Marks a sealed value, and its format's version.
pub const SEALED_PREFIX: &str = "sealed:v1:";

/// Separates this key from any other use of the configured secret.
const LABEL: &[u8] = b"arbiter webhook sealing key v1\0";

const NONCE_BYTES: usize = 24;

/// What a sealed value is: its associated data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sealed {
    /// A subscription's signing secret.
    Secret,
    /// A subscription URL's `user:password`.
    UrlCredentials,
}

impl Sealed {
    fn associated_data(self) -> &'static [u8] {
        match self {
            Sealed::Secret => b"webhook secret",
            Sealed::UrlCredentials => b"webhook url credentials",
        }
    }
}

/// Why a stored value could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("it is sealed, and [webhooks] sealing_key is empty")]
    NoKey,
    #[error("it was sealed under another [webhooks] sealing_key, or is damaged")]
    WrongKey,
}

/// Whether a stored value is sealed (else it is a legacy plain one).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with(SEALED_PREFIX)
}

/// The key of `[webhooks] sealing_key`.
#[derive(Clone)]
pub struct SealingKey {
    cipher: XChaCha20Poly1305,
    check: String,
}

impl SealingKey {
    /// The key of the setting; `None` when it is empty.
    pub fn from_setting(secret: &str) -> Option<SealingKey> {
        if secret.is_empty() {
            return None;
        }
        // Hashed: a fixed length whatever the setting's, and a key for sealing alone.
        let key: [u8; 32] = Sha256::new()
            .chain_update(LABEL)
            .chain_update(secret)
            .finalize()
            .into();
        Some(SealingKey {
            cipher: XChaCha20Poly1305::new(&key.into()),
            check: key_check(secret),
        })
    }

    /// The key's check value (`key_checks`): tells at start-up whether the configured key is
    /// the one rows were sealed under, and says nothing about the key.
    pub fn check(&self) -> &str {
        &self.check
    }

    /// `plain` sealed as `what`, under a fresh random nonce.
    pub fn seal(&self, what: Sealed, plain: &str) -> String {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::thread_rng().fill_bytes(&mut nonce);
        let payload = Payload {
            msg: plain.as_bytes(),
            aad: what.associated_data(),
        };
        // Encryption fails only for messages beyond 256 GiB.
        let sealed = self
            .cipher
            .encrypt(XNonce::from_slice(&nonce), payload)
            .unwrap_or_default();
        let mut bytes = nonce.to_vec();
        bytes.extend_from_slice(&sealed);
        format!("{SEALED_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
    }

    /// The plain text of a value `seal` made as `what` under this key.
    fn open_sealed(&self, what: Sealed, sealed: &str) -> Result<String, OpenError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(sealed)
            .map_err(|_| OpenError::WrongKey)?;
        if bytes.len() < NONCE_BYTES {
            return Err(OpenError::WrongKey);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_BYTES);
        let payload = Payload {
            msg: ciphertext,
            aad: what.associated_data(),
        };
        let plain = self
            .cipher
            .decrypt(XNonce::from_slice(nonce), payload)
            .map_err(|_| OpenError::WrongKey)?;
        String::from_utf8(plain).map_err(|_| OpenError::WrongKey)
    }
}

/// The plain text of a stored value: opened when sealed, as it is when legacy plain.
pub fn open(key: Option<&SealingKey>, what: Sealed, stored: &str) -> Result<String, OpenError> {
    match (stored.strip_prefix(SEALED_PREFIX), key) {
        (None, _) => Ok(stored.to_string()),
        (Some(_), None) => Err(OpenError::NoKey),
        (Some(sealed), Some(key)) => key.open_sealed(what, sealed),
    }
}

/// HMAC-SHA256 under the key of a fixed label, in hex.
fn key_check(secret: &str) -> String {
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()) else {
        return String::new();
    };
    mac.update(b"\0arbiter webhook sealing key check");
    hex::encode(mac.finalize().into_bytes())
}

// Hand-written so the key never reaches a log line through `{:?}`.
impl std::fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealingKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sealing-key-of-at-least-32-bytes-long";

    fn key(secret: &str) -> SealingKey {
        SealingKey::from_setting(secret).expect("a key")
    }

    #[test]
    fn sealed_values_open_under_their_key_only() {
        let k = key(KEY);
        let sealed = k.seal(Sealed::Secret, "whsec_abc");
        assert!(
            is_sealed(&sealed) && !sealed.contains("whsec_abc"),
            "{sealed}"
        );
        assert_eq!(
            open(Some(&k), Sealed::Secret, &sealed),
            Ok("whsec_abc".into())
        );
        // A fresh nonce each time.
        assert_ne!(sealed, k.seal(Sealed::Secret, "whsec_abc"));
        let other = key("another-key-of-at-least-32-bytes-long!");
        assert_eq!(
            open(Some(&other), Sealed::Secret, &sealed),
            Err(OpenError::WrongKey)
        );
        assert_eq!(open(None, Sealed::Secret, &sealed), Err(OpenError::NoKey));
        // Bound to its column.
        assert_eq!(
            open(Some(&k), Sealed::UrlCredentials, &sealed),
            Err(OpenError::WrongKey)
        );
    }

    #[test]
    fn damaged_values_do_not_open() {
        let k = key(KEY);
        let sealed = k.seal(Sealed::UrlCredentials, "bob:pw");
        let mut damaged = sealed.clone().into_bytes();
        let last = damaged.len() - 1;
        damaged[last] = if damaged[last] == b'A' { b'B' } else { b'A' };
        let damaged = String::from_utf8(damaged).expect("ascii");
        assert_eq!(
            open(Some(&k), Sealed::UrlCredentials, &damaged),
            Err(OpenError::WrongKey)
        );
        for text in ["sealed:v1:", "sealed:v1:!!", "sealed:v1:AAAA"] {
            assert_eq!(
                open(Some(&k), Sealed::Secret, text),
                Err(OpenError::WrongKey)
            );
        }
    }

    #[test]
    fn legacy_plain_values_are_taken_as_they_are() {
        assert_eq!(
            open(None, Sealed::Secret, "whsec_old"),
            Ok("whsec_old".into())
        );
        assert_eq!(
            open(Some(&key(KEY)), Sealed::Secret, "whsec_old"),
            Ok("whsec_old".into())
        );
        assert!(!is_sealed("whsec_old"));
    }

    #[test]
    fn key_checks_tell_keys_apart_and_hide_them() {
        assert!(SealingKey::from_setting("").is_none());
        let check = key(KEY).check().to_string();
        assert_eq!(check.len(), 64);
        assert_eq!(check, key(KEY).check());
        assert_ne!(check, key("another-key-of-at-least-32-bytes-long!").check());
        assert!(!check.contains("sealing"));
        assert_eq!(format!("{:?}", key(KEY)), "SealingKey(<redacted>)");
    }
}
