//! A webhook URL as stored: parsed with the `url` crate (which reads hosts as a browser does:
//! `2130706433`, `0x7f.1` and `[::ffff:7f00:1]` are addresses), only http(s), and its
//! credentials (`user:password@`) held apart: they are sealed at rest (`url_credentials`) and
//! never listed. Requests carry them as an `Authorization: Basic` header.

use percent_encoding::percent_decode_str;
use url::{Host, Url};

/// Why a text is not a webhook URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlProblem {
    #[error("`url` is not a URL ({0}).")]
    NotAUrl(String),
    #[error("`url` must be an absolute http:// or https:// URL with a host.")]
    NotHttp,
}

/// A webhook URL, its credentials (`user:password@`) held apart: they are sealed at rest and
/// never listed.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookUrl {
    /// Without credentials.
    url: Url,
    /// `user` or `user:password`, percent-encoded as in the URL.
    credentials: Option<String>,
}

// Hand-written so the credentials never reach a log line through `{:?}`.
impl std::fmt::Debug for WebhookUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookUrl")
            .field("url", &self.url.as_str())
            .field(
                "credentials",
                &self.credentials.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

impl WebhookUrl {
    pub fn parse(text: &str) -> Result<WebhookUrl, UrlProblem> {
        let mut url = Url::parse(text.trim()).map_err(|e| UrlProblem::NotAUrl(e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return Err(UrlProblem::NotHttp);
        }
        let credentials = match (url.username(), url.password()) {
            ("", None) => None,
            (user, None) => Some(user.to_string()),
            (user, Some(password)) => Some(format!("{user}:{password}")),
        };
        // Cannot fail for http(s) URLs with a host.
        let cleared = url.set_username("").is_ok() && url.set_password(None).is_ok();
        if !cleared {
            return Err(UrlProblem::NotHttp);
        }
        Ok(WebhookUrl { url, credentials })
    }

    /// A stored URL with its credentials (unsealed) put back. A URL stored before sealing
    /// keeps the credentials written in it.
    pub fn from_stored(url: &str, credentials: Option<String>) -> Result<WebhookUrl, UrlProblem> {
        let mut parsed = WebhookUrl::parse(url)?;
        if credentials.is_some() {
            parsed.credentials = credentials;
        }
        Ok(parsed)
    }

    /// The host, as the `url` crate reads it.
    pub fn host(&self) -> Option<Host<&str>> {
        self.url.host()
    }

    /// The URL without credentials: what is stored, listed and requested.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    pub fn host_str(&self) -> &str {
        self.url.host_str().unwrap_or_default()
    }

    /// The port requests go to (80 or 443 unless the URL names one).
    pub fn port(&self) -> u16 {
        self.url.port_or_known_default().unwrap_or(80)
    }

    /// `user` or `user:password` as written in the URL, if it had them.
    pub fn credentials(&self) -> Option<&str> {
        self.credentials.as_deref()
    }

    /// The decoded user and password, for an `Authorization: Basic` header.
    pub fn basic_auth(&self) -> Option<(String, String)> {
        let credentials = self.credentials.as_deref()?;
        let (user, password) = credentials.split_once(':').unwrap_or((credentials, ""));
        let decode = |s: &str| percent_decode_str(s).decode_utf8_lossy().into_owned();
        Some((decode(user), decode(password)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls_with_hosts_parse() {
        for text in [
            "ftp://x.example/e",
            "not a url",
            "/relative",
            "file:///etc/passwd",
        ] {
            assert!(WebhookUrl::parse(text).is_err(), "{text}");
        }
        assert!(matches!(
            WebhookUrl::parse("mailto:a@x.example"),
            Err(UrlProblem::NotHttp)
        ));
    }

    #[test]
    fn credentials_are_held_apart() {
        let url = WebhookUrl::parse("https://hook:p%40ss:w@x.example:8443/e?a=1").expect("URL");
        assert_eq!(url.as_str(), "https://x.example:8443/e?a=1");
        assert_eq!(url.credentials(), Some("hook:p%40ss%3Aw"));
        assert_eq!(
            url.basic_auth(),
            Some(("hook".to_string(), "p@ss:w".to_string()))
        );
        assert_eq!(url.port(), 8443);
        let user_only = WebhookUrl::parse("http://bob@x.example/").expect("URL");
        assert_eq!(user_only.credentials(), Some("bob"));
        assert_eq!(user_only.basic_auth(), Some(("bob".into(), String::new())));
        assert!(!format!("{url:?}").contains("p%40ss"), "{url:?}");
        let plain = WebhookUrl::parse("http://x.example/").expect("URL");
        assert_eq!((plain.credentials(), plain.port()), (None, 80));
        let restored = WebhookUrl::from_stored(plain.as_str(), Some("bob:pw".into())).expect("URL");
        assert_eq!(restored.basic_auth(), Some(("bob".into(), "pw".into())));
        let legacy = WebhookUrl::from_stored("http://bob:pw@x.example/", None).expect("URL");
        assert_eq!(legacy.as_str(), "http://x.example/");
        assert_eq!(legacy.credentials(), Some("bob:pw"));
    }
}
