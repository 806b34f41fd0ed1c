//! The DNS half of the webhook destination check. A host name is allowed only when every
//! address it resolves to is (`webhook_policy`): checked when a URL is subscribed, before each
//! send, and by the HTTP client's own resolver when it connects, so a name that resolves to a
//! public address when checked and to an inward one a moment later (DNS rebinding) still
//! cannot be reached: the client connects only to addresses this resolver returned.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use actix_tls::connect::Resolve;
use futures_util::future::LocalBoxFuture;

use super::webhook_policy::{AddressRefused, DestinationPolicy, Target};
use crate::store::webhook_url::WebhookUrl;

/// A destination the policy does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DestinationRefused {
    #[error("{0}")]
    Address(AddressRefused),
    #[error("{name} resolves to {}, which is not public ({})", refused.address, refused.class)]
    Name {
        name: String,
        refused: AddressRefused,
    },
}

impl DestinationRefused {
    pub fn address(&self) -> &AddressRefused {
        match self {
            DestinationRefused::Address(refused) | DestinationRefused::Name { refused, .. } => {
                refused
            }
        }
    }
}

/// Resolves `host` (brackets around an IPv6 address allowed) to socket addresses, within
/// `limit`.
async fn lookup(host: &str, port: u16, limit: Duration) -> std::io::Result<Vec<SocketAddr>> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    match tokio::time::timeout(limit, tokio::net::lookup_host((bare, port))).await {
        Ok(found) => Ok(found?.collect()),
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("resolving {bare} took longer than {} ms", limit.as_millis()),
        )),
    }
}

/// The addresses of `host` that may be connected to: all of them, or an error naming the
/// first that may not (one inward address refuses the name: which one a connection would use
/// is not ours to choose).
fn allowed(
    policy: &DestinationPolicy,
    host: &str,
    found: Vec<SocketAddr>,
) -> Result<Vec<SocketAddr>, DestinationRefused> {
    if policy.allows_host(host) {
        return Ok(found);
    }
    for address in &found {
        policy
            .check_address(address.ip())
            .map_err(|refused| DestinationRefused::Name {
                name: host.to_string(),
                refused,
            })?;
    }
    Ok(found)
}

/// Whether `url` may be sent to now. A name that does not resolve passes: the connection then
/// fails (and is recorded), and the client's resolver checks again in any case.
pub async fn check_destination(
    policy: &DestinationPolicy,
    url: &WebhookUrl,
    limit: Duration,
) -> Result<(), DestinationRefused> {
    let name = match policy.target(url).map_err(DestinationRefused::Address)? {
        Target::Allowed => return Ok(()),
        Target::Name(name) => name,
    };
    match lookup(name, url.port(), limit).await {
        Ok(found) => allowed(policy, name, found).map(|_| ()),
        Err(error) => {
            tracing::debug!(host = name, %error, "webhook host does not resolve");
            Ok(())
        }
    }
}

/// The webhook client's resolver: returns a host's addresses only when the policy allows them
/// all. (The client does not ask it about literal addresses: `check_destination` judges those
/// before each send.)
pub struct CheckedResolver {
    policy: Arc<DestinationPolicy>,
    limit: Duration,
}

impl CheckedResolver {
    pub fn new(policy: Arc<DestinationPolicy>, limit: Duration) -> CheckedResolver {
        CheckedResolver { policy, limit }
    }
}

impl Resolve for CheckedResolver {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> LocalBoxFuture<'a, Result<Vec<SocketAddr>, Box<dyn std::error::Error>>> {
        Box::pin(async move {
            let found = lookup(host, port, self.limit).await?;
            Ok(allowed(&self.policy, host, found)?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(networks: &[&str]) -> DestinationPolicy {
        let mut hooks = crate::config::Settings::defaults()
            .expect("defaults")
            .webhooks;
        hooks.allowed_networks = networks.iter().map(|s| s.to_string()).collect();
        DestinationPolicy::from_settings(&hooks).expect("policy")
    }

    fn addrs(list: &[&str]) -> Vec<SocketAddr> {
        list.iter()
            .map(|a| SocketAddr::new(a.parse().expect("ip"), 443))
            .collect()
    }

    #[actix_rt::test]
    async fn the_clients_resolver_returns_only_allowed_addresses() {
        let strict = CheckedResolver::new(Arc::new(policy(&[])), Duration::from_secs(5));
        let refused = strict.lookup("localhost", 80).await.unwrap_err();
        assert!(
            refused.to_string().contains("localhost resolves to"),
            "{refused}"
        );
        let refused = strict.lookup("[::1]", 80).await.unwrap_err();
        assert!(refused.to_string().contains("::1"), "{refused}");
        let public = strict.lookup("8.8.8.8", 53).await.expect("public");
        assert_eq!(
            public,
            addrs(&["8.8.8.8"])
                .iter()
                .map(|a| SocketAddr::new(a.ip(), 53))
                .collect::<Vec<_>>()
        );
        let open = CheckedResolver::new(
            Arc::new(policy(&["127.0.0.0/8", "::1"])),
            Duration::from_secs(5),
        );
        let local = open.lookup("localhost", 80).await.expect("allowed");
        assert!(local.iter().all(|a| a.ip().is_loopback()), "{local:?}");
    }

    #[test]
    fn one_inward_address_refuses_the_name() {
        let strict = policy(&[]);
        let refused =
            allowed(&strict, "mixed.example", addrs(&["8.8.8.8", "10.0.0.5"])).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "mixed.example resolves to 10.0.0.5, which is not public \
             (a private (RFC 1918) address)",
        );
        assert_eq!(refused.address().address.to_string(), "10.0.0.5");
        assert_eq!(
            allowed(&strict, "public.example", addrs(&["8.8.8.8"])).map(|a| a.len()),
            Ok(1)
        );
        let open = policy(&["10.0.0.0/8"]);
        assert_eq!(
            allowed(&open, "mixed.example", addrs(&["8.8.8.8", "10.0.0.5"])).map(|a| a.len()),
            Ok(2)
        );
    }
}
