//! Typed settings: the built-in `config/default.toml`, then an optional file, then
//! `ARBITER_<SECTION>__<KEY>` environment variables. `Settings` composes the settings types
//! each room defines (`store::DatabaseSettings`, `chat::ChatSettings`, ...) with the server's
//! own.

use std::net::SocketAddr;
use std::path::Path;

use figment::providers::{Env, Format, Toml};
use figment::Figment;
use serde::{Deserialize, Serialize};

mod limits;

pub use crate::archive::ArchiveSettings;
pub use crate::chat::{ChatSettings, MAX_CHAT_WINDOW_GAMES};
pub use crate::collusion::CollusionSettings;
pub use crate::conduct::{ConductSettings, MAX_CONDUCT_APPLY_BATCH, MAX_CONDUCT_APPLY_INTERVAL_MS};
pub use crate::moderation::retention::RetentionSettings;
pub use crate::store::{DatabaseSettings, MAX_CHECKPOINT_INTERVAL_MS, MAX_WRITE_DEADLINE_MS};
pub use limits::LimitSettings;

pub mod ip_network;
pub mod webhook_allowances;

/// The documented defaults, compiled in so the binary needs no files beside it.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// Upper bound of every webhook time setting: one day.
const MAX_WEBHOOK_MS: u64 = 86_400_000;

/// Prefix of environment overrides; `__` separates section and key.
pub const ENV_PREFIX: &str = "ARBITER_";

/// Names the optional configuration file when `--config` is not given.
pub const CONFIG_FILE_ENV: &str = "ARBITER_CONFIG";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub server: ServerSettings,
    pub api: ApiSettings,
    pub database: DatabaseSettings,
    pub auth: AuthSettings,
    pub log: LogSettings,
    pub archive: ArchiveSettings,
    pub chat: ChatSettings,
    pub conduct: ConductSettings,
    pub collusion: CollusionSettings,
    pub retention: RetentionSettings,
    pub privacy: PrivacySettings,
    pub moderation: ModerationSettings,
    pub metrics: MetricsSettings,
    pub webhooks: WebhookSettings,
    pub console: ConsoleSettings,
    pub limits: LimitSettings,
}

/// The admin console's sign-in sessions.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsoleSettings {
    /// A session unused this long ends (1-1440).
    pub session_idle_minutes: u32,
    /// A session ends this long after sign-in, used or not (1-720).
    pub session_lifetime_hours: u32,
    /// Where admins reach the console (e.g. `https://mod.example.org`), so that an alert's
    /// message links the case; empty: messages carry no link.
    pub public_url: String,
}

/// How sanction events are delivered to subscribed game servers.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookSettings {
    /// Run the deliverer in this instance.
    pub enabled: bool,
    /// Milliseconds between looks for due deliveries and ended sanctions (a decision in this
    /// instance wakes it at once).
    pub poll_interval_ms: u64,
    /// Milliseconds a receiver has to answer.
    pub timeout_ms: u64,
    /// The wait after the first failure; it doubles after each further one, up to `retry_max_ms`.
    pub retry_base_ms: u64,
    pub retry_max_ms: u64,
    /// Attempts before a delivery is given up.
    pub max_attempts: u32,
    /// Host names webhooks may be sent to whatever they resolve to (e.g. an internal name);
    /// otherwise only public addresses are allowed.
    pub allowed_hosts: Vec<String>,
    /// Networks (CIDR, e.g. "10.1.0.0/16") webhooks may be sent to although not public.
    pub allowed_networks: Vec<String>,
    /// The key webhook secrets and URL credentials are sealed with (at least 32 bytes).
    /// Empty refuses new subscriptions. Keep it out of the database and its backups.
    pub sealing_key: String,
}

// Hand-written so the sealing key never reaches a log line through `{:?}`.
impl std::fmt::Debug for WebhookSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookSettings")
            .field("enabled", &self.enabled)
            .field("poll_interval_ms", &self.poll_interval_ms)
            .field("timeout_ms", &self.timeout_ms)
            .field("retry_base_ms", &self.retry_base_ms)
            .field("retry_max_ms", &self.retry_max_ms)
            .field("max_attempts", &self.max_attempts)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_networks", &self.allowed_networks)
            .field("sealing_key", &redacted(&self.sealing_key))
            .finish()
    }
}

/// Where the moderation policy (report limits, priorities, ladders...) comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModerationSettings {
    /// A policy file in the format of `config/moderation.toml`; empty for the built-in one.
    pub policy_file: String,
    /// A presets file in the format of `config/presets.toml`; empty for the built-in one.
    pub presets_file: String,
}

impl ModerationSettings {
    /// The built-in policy, or the configured file's, checked for unknown keys and consistency.
    pub fn load_policy(&self) -> Result<crate::moderation::ModerationPolicy, String> {
        if self.policy_file.trim().is_empty() {
            return Ok(crate::moderation::ModerationPolicy::default());
        }
        let text = std::fs::read_to_string(&self.policy_file)
            .map_err(|e| format!("moderation.policy_file {}: {e}", self.policy_file))?;
        crate::moderation::ModerationPolicy::from_toml_str(&text)
            .map_err(|e| format!("moderation.policy_file {}: {e}", self.policy_file))
    }

    /// The built-in decision presets, or the configured file's, checked.
    pub fn load_presets(&self) -> Result<crate::moderation::DecisionPresets, String> {
        let path = self.presets_file.trim();
        let text = if path.is_empty() {
            crate::moderation::DEFAULT_PRESETS_TOML.to_string()
        } else {
            std::fs::read_to_string(path)
                .map_err(|e| format!("moderation.presets_file {path}: {e}"))?
        };
        crate::moderation::DecisionPresets::from_toml_str(&text).map_err(|e| {
            let source = if path.is_empty() { "built-in" } else { path };
            format!("moderation.presets_file {source}: {e}")
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    pub listen: SocketAddr,
    pub body_limit_bytes: usize,
    pub workers: usize,
    pub shutdown_timeout_secs: u64,
    /// Seconds a client has to send a request's headers (408 after).
    pub header_deadline_secs: u64,
    /// Seconds a client has to send a request's body once its headers are in (408 after).
    pub body_deadline_secs: u64,
    /// Connections open at once, all clients together; more wait to be accepted.
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold open at once; more are closed.
    pub max_connections_per_address: u32,
}

/// Upper bound of `[server] header_deadline_secs` and `body_deadline_secs`.
pub const MAX_REQUEST_DEADLINE_SECS: u64 = 600;

/// The HTTP API's own key.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiSettings {
    /// The key list cursors are sealed with; empty: a random key at each start-up, which
    /// instances behind one load balancer do not share.
    pub cursor_key: String,
}

// Hand-written so the key never reaches a log line through `{:?}`.
impl std::fmt::Debug for ApiSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiSettings")
            .field("cursor_key", &redacted(&self.cursor_key))
            .finish()
    }
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSettings {
    pub player_token_secret: String,
    pub clock_skew_secs: u64,
    pub last_used_resolution_secs: u64,
    /// Longest a player token may still be valid when presented: `exp` at most this many
    /// seconds (plus the clock skew) ahead.
    pub max_token_lifetime_secs: u64,
}

// Hand-written so the secret never reaches a log line through `{:?}`.
impl std::fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("player_token_secret", &redacted(&self.player_token_secret))
            .field("clock_skew_secs", &self.clock_skew_secs)
            .field("last_used_resolution_secs", &self.last_used_resolution_secs)
            .field("max_token_lifetime_secs", &self.max_token_lifetime_secs)
            .finish()
    }
}

/// A player's export and erasure (docs/personal-data.md).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivacySettings {
    /// The key of the keyed hash that keeps an erased player's name answering the standing
    /// check. Empty refuses erasures. Keep it out of the database and its backups.
    pub erasure_key: String,
}

impl PrivacySettings {
    /// The stored key of a name, when erasures are configured.
    pub fn erased_name_key(&self, name: &str) -> Option<String> {
        (!self.erasure_key.is_empty())
            .then(|| crate::moderation::erasure::name_key(&self.erasure_key, name))
    }

    /// The check value of the erasure key, when one is configured.
    pub fn erasure_key_check(&self) -> Option<String> {
        (!self.erasure_key.is_empty())
            .then(|| crate::moderation::erasure::key_check(&self.erasure_key))
    }
}

// Hand-written so the key never reaches a log line through `{:?}`.
impl std::fmt::Debug for PrivacySettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivacySettings")
            .field("erasure_key", &redacted(&self.erasure_key))
            .finish()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    pub level: String,
    pub format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// Where `/metrics` is served and who may read it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSettings {
    /// A separate address for `/metrics`; empty serves it on `server.listen`.
    pub listen: String,
    /// A bearer token scrapers must present; empty leaves `/metrics` open.
    pub token: String,
}

/// Minimum length of `[metrics] token`: long enough not to be guessed by a scraper's peers.
pub const MIN_METRICS_TOKEN_BYTES: usize = 16;

impl MetricsSettings {
    /// The separate listen address, if one is configured (checked by `Settings::validate`).
    pub fn listen_addr(&self) -> Option<SocketAddr> {
        self.listen.trim().parse().ok()
    }

    fn validate(&self, server_listen: SocketAddr) -> Result<(), ConfigError> {
        if !self.listen.trim().is_empty() {
            let Some(addr) = self.listen_addr() else {
                return Err(bad(
                    "metrics.listen",
                    "must be empty (serve /metrics on server.listen) or an address and port \
                     like \"127.0.0.1:9090\"",
                ));
            };
            // Port 0 asks for any free port, so two such addresses never collide.
            if addr == server_listen && addr.port() != 0 {
                return Err(bad(
                    "metrics.listen",
                    "must differ from server.listen (leave it empty to serve /metrics there)",
                ));
            }
        }
        if !self.token.is_empty()
            && (self.token.len() < MIN_METRICS_TOKEN_BYTES
                || !self.token.bytes().all(|b| b.is_ascii_graphic()))
        {
            return Err(bad(
                "metrics.token",
                &format!(
                    "must be empty (open) or at least {MIN_METRICS_TOKEN_BYTES} printable ASCII \
                     characters without spaces"
                ),
            ));
        }
        Ok(())
    }
}

// Hand-written so the token never reaches a log line through `{:?}`.
impl std::fmt::Debug for MetricsSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsSettings")
            .field("listen", &self.listen)
            .field("token", &redacted(&self.token))
            .finish()
    }
}

/// Minimum length of the player token secret: HS256 keys shorter than the hash are weak.
pub const MIN_PLAYER_SECRET_BYTES: usize = 32;

/// Upper bound of `auth.max_token_lifetime_secs` (30 days): a bearer token valid for longer
/// is no longer short-lived.
pub const MAX_TOKEN_LIFETIME_LIMIT_SECS: u64 = 30 * 24 * 3600;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration file {0} does not exist")]
    MissingFile(String),
    #[error("invalid configuration: {0}")]
    Invalid(String),
    #[error("invalid configuration: key `{key}`: {message}")]
    BadValue { key: &'static str, message: String },
}

impl Settings {
    /// Loads defaults, then `file` if given, then the process environment.
    pub fn load(file: Option<&Path>) -> Result<Settings, ConfigError> {
        let mut figment = Figment::from(Toml::string(DEFAULT_TOML));
        if let Some(path) = file {
            if !path.is_file() {
                return Err(ConfigError::MissingFile(path.display().to_string()));
            }
            figment = figment.merge(Toml::file_exact(path));
        }
        // Only `SECTION__KEY` variables are settings; ARBITER_CONFIG and other
        // ARBITER_* variables (e.g. for tests) are not.
        figment = figment.merge(
            Env::prefixed(ENV_PREFIX)
                .filter(|key| key.as_str().contains("__"))
                .split("__"),
        );
        Self::extract(figment)
    }

    /// The built-in defaults only (used by tests and tools).
    pub fn defaults() -> Result<Settings, ConfigError> {
        Self::extract(Figment::from(Toml::string(DEFAULT_TOML)))
    }

    /// Parses a TOML document layered over the defaults, ignoring the environment.
    pub fn from_toml_str(toml: &str) -> Result<Settings, ConfigError> {
        Self::extract(Figment::from(Toml::string(DEFAULT_TOML)).merge(Toml::string(toml)))
    }

    fn extract(figment: Figment) -> Result<Settings, ConfigError> {
        let settings: Settings = figment.extract().map_err(|errors| {
            // figment reports every failure with its key path and source.
            let all: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
            ConfigError::Invalid(all.join("; "))
        })?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks the rules types alone cannot express, section by section; the first problem
    /// found is the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_webhooks()?;
        self.validate_console_and_server()?;
        self.validate_database()?;
        self.validate_auth()?;
        self.validate_chat_and_conduct()?;
        self.validate_privacy_metrics_and_log()?;
        if let Some((key, message)) = self.limits.problem() {
            return Err(bad(key, &message));
        }
        Ok(())
    }

    /// The webhook deliverer's timings.
    fn validate_webhooks(&self) -> Result<(), ConfigError> {
        let hooks = &self.webhooks;
        for (key, value) in [
            ("webhooks.poll_interval_ms", hooks.poll_interval_ms),
            ("webhooks.timeout_ms", hooks.timeout_ms),
            ("webhooks.retry_base_ms", hooks.retry_base_ms),
            ("webhooks.retry_max_ms", hooks.retry_max_ms),
        ] {
            if !(1..=MAX_WEBHOOK_MS).contains(&value) {
                return Err(bad(key, &format!("must be between 1 and {MAX_WEBHOOK_MS}")));
            }
        }
        if hooks.retry_max_ms < hooks.retry_base_ms {
            return Err(bad(
                "webhooks.retry_max_ms",
                "must be at least webhooks.retry_base_ms",
            ));
        }
        if !(1..=100).contains(&hooks.max_attempts) {
            return Err(bad("webhooks.max_attempts", "must be between 1 and 100"));
        }
        let key_len = hooks.sealing_key.len();
        if key_len > 0 && key_len < MIN_PLAYER_SECRET_BYTES {
            return Err(bad(
                "webhooks.sealing_key",
                &format!(
                    "must be empty (new subscriptions refused) or at least \
                     {MIN_PLAYER_SECRET_BYTES} bytes"
                ),
            ));
        }
        if let Err((key, message)) =
            webhook_allowances::read(&hooks.allowed_hosts, &hooks.allowed_networks)
        {
            return Err(bad(key, &message));
        }
        Ok(())
    }

    /// Console sessions and the request body limit.
    fn validate_console_and_server(&self) -> Result<(), ConfigError> {
        if !(1..=1440).contains(&self.console.session_idle_minutes) {
            return Err(bad(
                "console.session_idle_minutes",
                "must be between 1 and 1440",
            ));
        }
        if !(1..=720).contains(&self.console.session_lifetime_hours) {
            return Err(bad(
                "console.session_lifetime_hours",
                "must be between 1 and 720",
            ));
        }
        let url = &self.console.public_url;
        let web_address = (url.starts_with("https://") || url.starts_with("http://"))
            && !url.chars().any(char::is_whitespace);
        if !url.is_empty() && !web_address {
            return Err(bad(
                "console.public_url",
                "must be empty or an http(s):// address without spaces",
            ));
        }
        if self.server.body_limit_bytes == 0 {
            return Err(bad("server.body_limit_bytes", "must be greater than 0"));
        }
        self.validate_connections()
    }

    /// Request deadlines and connection bounds.
    fn validate_connections(&self) -> Result<(), ConfigError> {
        let deadlines = [
            (
                "server.header_deadline_secs",
                self.server.header_deadline_secs,
            ),
            ("server.body_deadline_secs", self.server.body_deadline_secs),
        ];
        for (key, secs) in deadlines {
            if !(1..=MAX_REQUEST_DEADLINE_SECS).contains(&secs) {
                return Err(bad(
                    key,
                    &format!("must be between 1 and {MAX_REQUEST_DEADLINE_SECS}"),
                ));
            }
        }
        if self.server.max_connections == 0 {
            return Err(bad("server.max_connections", "must be greater than 0"));
        }
        if self.server.max_connections_per_address == 0 {
            return Err(bad(
                "server.max_connections_per_address",
                "must be greater than 0",
            ));
        }
        Ok(())
    }

    /// The pool, the write line and the store's address.
    fn validate_database(&self) -> Result<(), ConfigError> {
        if self.database.pool_size == 0 {
            return Err(bad("database.pool_size", "must be greater than 0"));
        }
        if self.database.postgres_bulk_writers == 0 {
            return Err(bad(
                "database.postgres_bulk_writers",
                "must be greater than 0",
            ));
        }
        if self.database.connect_timeout_secs == 0 {
            return Err(bad(
                "database.connect_timeout_secs",
                "must be greater than 0",
            ));
        }
        if self.database.write_deadline_ms == 0
            || self.database.write_deadline_ms > MAX_WRITE_DEADLINE_MS
        {
            return Err(bad(
                "database.write_deadline_ms",
                &format!("must be between 1 and {MAX_WRITE_DEADLINE_MS}"),
            ));
        }
        if self.database.checkpoint_interval_ms > MAX_CHECKPOINT_INTERVAL_MS {
            return Err(bad(
                "database.checkpoint_interval_ms",
                &format!("must be at most {MAX_CHECKPOINT_INTERVAL_MS} (0: checkpoints at commit)"),
            ));
        }
        if crate::store::DatabaseTarget::parse(&self.database.url).is_err() {
            return Err(bad(
                "database.url",
                "must start with sqlite://, postgres:// or postgresql://",
            ));
        }
        Ok(())
    }

    /// Token secrets and lifetimes, and the cursor key.
    fn validate_auth(&self) -> Result<(), ConfigError> {
        let secret_len = self.auth.player_token_secret.len();
        if secret_len > 0 && secret_len < MIN_PLAYER_SECRET_BYTES {
            return Err(bad(
                "auth.player_token_secret",
                &format!("must be empty (disabled) or at least {MIN_PLAYER_SECRET_BYTES} bytes"),
            ));
        }
        let cursor_key_len = self.api.cursor_key.len();
        if cursor_key_len > 0 && cursor_key_len < MIN_PLAYER_SECRET_BYTES {
            return Err(bad(
                "api.cursor_key",
                &format!(
                    "must be empty (a random key at each start-up) or at least \
                     {MIN_PLAYER_SECRET_BYTES} bytes"
                ),
            ));
        }
        if !(1..=MAX_TOKEN_LIFETIME_LIMIT_SECS).contains(&self.auth.max_token_lifetime_secs) {
            return Err(bad(
                "auth.max_token_lifetime_secs",
                &format!("must be between 1 and {MAX_TOKEN_LIFETIME_LIMIT_SECS} (30 days)"),
            ));
        }
        Ok(())
    }

    /// The chat window and the conduct applier; the collusion and retention
    /// policies check themselves.
    fn validate_chat_and_conduct(&self) -> Result<(), ConfigError> {
        if self.chat.window_games > MAX_CHAT_WINDOW_GAMES {
            return Err(bad(
                "chat.window_games",
                &format!("must be at most {MAX_CHAT_WINDOW_GAMES} (0 disables the window)"),
            ));
        }
        if self.chat.window_games > 0 && self.chat.window_min_games > self.chat.window_games {
            return Err(bad(
                "chat.window_min_games",
                "must not exceed chat.window_games (0 disables the window)",
            ));
        }
        if !(1..=3600).contains(&self.chat.word_list_check_secs) {
            return Err(bad(
                "chat.word_list_check_secs",
                "must be between 1 and 3600",
            ));
        }
        if self.conduct.apply_interval_ms == 0
            || self.conduct.apply_interval_ms > MAX_CONDUCT_APPLY_INTERVAL_MS
        {
            return Err(bad(
                "conduct.apply_interval_ms",
                &format!("must be between 1 and {MAX_CONDUCT_APPLY_INTERVAL_MS}"),
            ));
        }
        if self.conduct.apply_batch == 0 || self.conduct.apply_batch > MAX_CONDUCT_APPLY_BATCH {
            return Err(bad(
                "conduct.apply_batch",
                &format!("must be between 1 and {MAX_CONDUCT_APPLY_BATCH}"),
            ));
        }
        if let Some((key, message)) = self.collusion.policy().problem() {
            return Err(bad(key, message));
        }
        if let Some((key, message)) = self.retention.problem() {
            return Err(bad(key, message));
        }
        Ok(())
    }

    /// The erasure key, the metrics listener and the log filter.
    fn validate_privacy_metrics_and_log(&self) -> Result<(), ConfigError> {
        let key_len = self.privacy.erasure_key.len();
        if key_len > 0 && key_len < MIN_PLAYER_SECRET_BYTES {
            return Err(bad(
                "privacy.erasure_key",
                &format!(
                    "must be empty (erasure refused) or at least {MIN_PLAYER_SECRET_BYTES} bytes"
                ),
            ));
        }
        self.metrics.validate(self.server.listen)?;
        if tracing_subscriber::EnvFilter::try_new(&self.log.level).is_err() {
            return Err(bad(
                "log.level",
                "is not a level or tracing filter (e.g. \"info\" or \"info,arbiter=debug\")",
            ));
        }
        Ok(())
    }

    /// The settings as TOML with secrets blanked, for `arbiter config`.
    pub fn to_redacted_toml(&self) -> String {
        let mut shown = self.clone();
        shown.auth.player_token_secret = redacted(&self.auth.player_token_secret).to_string();
        shown.api.cursor_key = redacted(&self.api.cursor_key).to_string();
        shown.database.url = redact_url_password(&self.database.url);
        shown.metrics.token = redacted(&self.metrics.token).to_string();
        shown.privacy.erasure_key = redacted(&self.privacy.erasure_key).to_string();
        shown.webhooks.sealing_key = redacted(&self.webhooks.sealing_key).to_string();
        toml::to_string_pretty(&shown).unwrap_or_else(|e| format!("# cannot render: {e}\n"))
    }
}

fn bad(key: &'static str, message: &str) -> ConfigError {
    ConfigError::BadValue {
        key,
        message: message.to_string(),
    }
}

fn redacted(secret: &str) -> &'static str {
    if secret.is_empty() {
        ""
    } else {
        "<redacted>"
    }
}

/// Blanks the password of `scheme://user:password@host/...`.
fn redact_url_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:<redacted>@{host}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse() {
        let s = Settings::defaults().expect("defaults are valid");
        assert_eq!(s.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(s.database.url, "sqlite://data/arbiter.db");
        assert_eq!(s.log.format, LogFormat::Text);
    }

    #[test]
    fn production_example_parses() {
        let s = Settings::from_toml_str(include_str!("../config/production.example.toml"))
            .expect("example is valid");
        assert_eq!(s.log.format, LogFormat::Json);
    }

    #[test]
    fn unknown_key_is_named() {
        let err = Settings::from_toml_str("[server]\nlisten_port = 9\n").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("listen_port"), "{msg}");
    }

    #[test]
    fn unknown_section_is_named() {
        let err = Settings::from_toml_str("[serverz]\nlisten = 9\n").unwrap_err();
        assert!(err.to_string().contains("serverz"), "{err}");
    }

    #[test]
    fn bad_type_names_key() {
        let err = Settings::from_toml_str("[server]\nworkers = \"many\"\n").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("workers"), "{msg}");
    }

    #[test]
    fn bad_enum_names_key() {
        let err = Settings::from_toml_str("[log]\nformat = \"xml\"\n").unwrap_err();
        assert!(err.to_string().contains("format"), "{err}");
    }

    #[test]
    fn short_secret_rejected() {
        let err = Settings::from_toml_str("[auth]\nplayer_token_secret = \"short\"\n").unwrap_err();
        assert!(
            err.to_string().contains("auth.player_token_secret"),
            "{err}"
        );
    }

    #[test]
    fn token_lifetime_is_validated() {
        let s = Settings::defaults().expect("defaults");
        assert_eq!(s.auth.max_token_lifetime_secs, 86_400);
        for toml in [
            "[auth]\nmax_token_lifetime_secs = 0\n",
            "[auth]\nmax_token_lifetime_secs = 2592001\n",
        ] {
            let err = Settings::from_toml_str(toml).unwrap_err();
            assert!(
                err.to_string().contains("auth.max_token_lifetime_secs"),
                "{toml}: {err}"
            );
        }
        let err = Settings::from_toml_str("[auth]\nmax_token_lifetime_secs = -1\n").unwrap_err();
        assert!(err.to_string().contains("max_token_lifetime_secs"), "{err}");
        let s = Settings::from_toml_str("[auth]\nmax_token_lifetime_secs = 2592000\n")
            .expect("30 days");
        assert_eq!(s.auth.max_token_lifetime_secs, 2_592_000);
    }

    #[test]
    fn bad_database_url_rejected() {
        let err = Settings::from_toml_str("[database]\nurl = \"mysql://x\"\n").unwrap_err();
        assert!(err.to_string().contains("database.url"), "{err}");
    }

    #[test]
    fn chat_window_is_validated() {
        let s = Settings::defaults().expect("defaults");
        assert_eq!((s.chat.window_games, s.chat.window_min_games), (10, 3));
        let err = Settings::from_toml_str("[chat]\nwindow_games = 2\nwindow_min_games = 3\n")
            .unwrap_err();
        assert!(err.to_string().contains("chat.window_min_games"), "{err}");
        let err = Settings::from_toml_str("[chat]\nwindow_games = 100000\n").unwrap_err();
        assert!(err.to_string().contains("chat.window_games"), "{err}");
        let off = Settings::from_toml_str("[chat]\nwindow_games = 0\nwindow_min_games = 5\n")
            .expect("0 disables");
        assert!(!off.chat.window_rule().enabled());
    }

    #[test]
    fn checkpoint_interval_is_validated() {
        let s = Settings::defaults().expect("defaults");
        assert_eq!(s.database.checkpoint_interval_ms, 100);
        let err =
            Settings::from_toml_str("[database]\ncheckpoint_interval_ms = 60001\n").unwrap_err();
        assert!(
            err.to_string().contains("database.checkpoint_interval_ms"),
            "{err}"
        );
        let off = Settings::from_toml_str("[database]\ncheckpoint_interval_ms = 0\n")
            .expect("0 leaves checkpoints to commits");
        assert_eq!(off.database.checkpoint_interval_ms, 0);
    }

    #[test]
    fn conduct_applier_settings_are_validated() {
        for (toml, key) in [
            (
                "[conduct]\napply_interval_ms = 0\n",
                "conduct.apply_interval_ms",
            ),
            (
                "[conduct]\napply_interval_ms = 60001\n",
                "conduct.apply_interval_ms",
            ),
            ("[conduct]\napply_batch = 0\n", "conduct.apply_batch"),
            ("[conduct]\napply_batch = 5001\n", "conduct.apply_batch"),
            (
                "[database]\nwrite_deadline_ms = 0\n",
                "database.write_deadline_ms",
            ),
            (
                "[database]\nwrite_deadline_ms = 60001\n",
                "database.write_deadline_ms",
            ),
        ] {
            let err = Settings::from_toml_str(toml).unwrap_err();
            assert!(err.to_string().contains(key), "{toml}: {err}");
        }
        let s = Settings::from_toml_str("[conduct]\napply_interval_ms = 50\napply_batch = 1\n")
            .expect("in range");
        assert_eq!(
            (s.conduct.apply_interval_ms, s.conduct.apply_batch),
            (50, 1)
        );
    }

    #[test]
    fn metrics_settings_are_validated() {
        let s = Settings::defaults().expect("defaults");
        assert_eq!(
            (s.metrics.listen.as_str(), s.metrics.token.as_str()),
            ("", "")
        );
        assert_eq!(s.metrics.listen_addr(), None);
        for (toml, key) in [
            ("[metrics]\nlisten = \"localhost\"\n", "metrics.listen"),
            ("[metrics]\nlisten = \"127.0.0.1:8080\"\n", "metrics.listen"),
            ("[metrics]\ntoken = \"short\"\n", "metrics.token"),
            (
                "[metrics]\ntoken = \"has a space in the middle\"\n",
                "metrics.token",
            ),
        ] {
            let err = Settings::from_toml_str(toml).unwrap_err();
            assert!(err.to_string().contains(key), "{toml}: {err}");
        }
        let s = Settings::from_toml_str(
            "[metrics]\nlisten = \"127.0.0.1:9090\"\ntoken = \"scrape-0123456789abcdef\"\n",
        )
        .expect("valid");
        assert_eq!(s.metrics.listen_addr(), Some(([127, 0, 0, 1], 9090).into()));
        // Port 0 on both: two ephemeral ports, no clash.
        Settings::from_toml_str(
            "[server]\nlisten = \"127.0.0.1:0\"\n[metrics]\nlisten = \"127.0.0.1:0\"\n",
        )
        .expect("ephemeral ports");
    }

    #[test]
    fn redaction_hides_secrets() {
        let s = Settings::from_toml_str(
            "[auth]\nplayer_token_secret = \"0123456789abcdef0123456789abcdef\"\n\
             [api]\ncursor_key = \"cursor-key-0123456789-0123456789\"\n\
             [database]\nurl = \"postgres://u:pw@h/db\"\n\
             [metrics]\ntoken = \"scrape-fedcba9876543210\"\n\
             [webhooks]\nsealing_key = \"sealing-key-0123456789-0123456789\"\n",
        )
        .expect("valid");
        let shown = s.to_redacted_toml();
        assert!(!shown.contains("0123456789abcdef"), "{shown}");
        assert!(!shown.contains("cursor-key-0123456789"), "{shown}");
        assert!(!shown.contains(":pw@"), "{shown}");
        assert!(!shown.contains("fedcba9876543210"), "{shown}");
        assert!(!format!("{s:?}").contains("0123456789abcdef"));
        assert!(!format!("{s:?}").contains("cursor-key-0123456789"));
        assert!(!format!("{s:?}").contains("fedcba9876543210"));
        assert!(!shown.contains("sealing-key-0123456789"), "{shown}");
        assert!(!format!("{s:?}").contains("sealing-key-0123456789"));
    }

    #[test]
    fn short_cursor_key_rejected() {
        let err = Settings::from_toml_str("[api]\ncursor_key = \"short\"\n").unwrap_err();
        assert!(err.to_string().contains("api.cursor_key"), "{err}");
        let s = Settings::defaults().expect("defaults");
        assert_eq!(s.api.cursor_key, "", "a random key by default");
    }

    #[test]
    fn request_deadlines_connection_bounds_and_limits_are_checked() {
        for (toml, key) in [
            (
                "[server]\nbody_deadline_secs = 0\n",
                "server.body_deadline_secs",
            ),
            (
                "[server]\nheader_deadline_secs = 601\n",
                "server.header_deadline_secs",
            ),
            (
                "[server]\nmax_connections_per_address = 0\n",
                "server.max_connections_per_address",
            ),
            ("[limits]\naddress_burst = 10\n", "limits.address_burst"),
            (
                "[limits]\nsign_in_lockout_failures = 0\n",
                "limits.sign_in_lockout_failures",
            ),
            (
                "[limits]\ntrusted_proxies = [\"proxy\"]\n",
                "trusted_proxies",
            ),
        ] {
            let err = Settings::from_toml_str(toml).unwrap_err();
            assert!(err.to_string().contains(key), "{toml}: {err}");
        }
        let off = Settings::from_toml_str("[limits]\naddress_per_second = 0\naddress_burst = 0\n")
            .expect("a rate of 0 turns the limit off");
        assert_eq!(off.limits.address_per_second, 0);
    }

    #[test]
    fn sqlite_synchronous_defaults_to_full() {
        use crate::store::SqliteSynchronous;
        let s = Settings::defaults().expect("defaults");
        assert_eq!(s.database.sqlite_synchronous, SqliteSynchronous::Full);
        let s = Settings::from_toml_str("[database]\nsqlite_synchronous = \"normal\"\n")
            .expect("normal");
        assert_eq!(s.database.sqlite_synchronous, SqliteSynchronous::Normal);
        let err =
            Settings::from_toml_str("[database]\nsqlite_synchronous = \"off\"\n").unwrap_err();
        assert!(err.to_string().contains("sqlite_synchronous"), "{err}");
    }
}
