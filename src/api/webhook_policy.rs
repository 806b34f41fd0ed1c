//! Where webhooks may go: a URL is taken apart with the `url` crate (which reads hosts as a
//! browser does: `2130706433`, `0x7f.1` and `[::ffff:7f00:1]` are addresses), and its host is
//! judged against the operator's allowances. Without one, only public addresses
//! (`address_class`) are allowed. The DNS part is in `webhook_resolver`.

use std::net::IpAddr;

use url::Host;

use super::address_class::{classify, NonPublic};
use crate::config::ip_network::IpNetwork;
use crate::config::webhook_allowances::{self, host_key};
use crate::config::WebhookSettings;
use crate::store::webhook_url::WebhookUrl;

/// The operator's allowances: `[webhooks] allowed_hosts` and `allowed_networks`.
#[derive(Debug, Clone, Default)]
pub struct DestinationPolicy {
    /// Lower case, without a trailing dot.
    hosts: Vec<String>,
    networks: Vec<IpNetwork>,
}

/// An address the policy does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("address {address} is not public ({class})")]
pub struct AddressRefused {
    pub address: IpAddr,
    pub class: NonPublic,
}

impl DestinationPolicy {
    /// The policy of the settings; `Err` names the setting and what is wrong with it.
    pub fn from_settings(hooks: &WebhookSettings) -> Result<Self, (&'static str, String)> {
        let allowances = webhook_allowances::read(&hooks.allowed_hosts, &hooks.allowed_networks)?;
        Ok(DestinationPolicy {
            hosts: allowances.hosts,
            networks: allowances.networks,
        })
    }

    /// Whether the operator allows this host name, whatever it resolves to.
    pub fn allows_host(&self, host: &str) -> bool {
        let key = host_key(host);
        self.hosts.contains(&key)
    }

    /// Public addresses, and those in an allowed network.
    pub fn check_address(&self, address: IpAddr) -> Result<(), AddressRefused> {
        match classify(address) {
            None => Ok(()),
            Some(_) if self.networks.iter().any(|n| n.contains(address)) => Ok(()),
            Some(class) => Err(AddressRefused { address, class }),
        }
    }

    /// What must still be checked before sending to `url`: nothing, or the addresses its
    /// host name resolves to. A literal address is judged here.
    pub fn target<'a>(&self, url: &'a WebhookUrl) -> Result<Target<'a>, AddressRefused> {
        match url.host() {
            Some(Host::Ipv4(ip)) => self.check_address(IpAddr::V4(ip)).map(|_| Target::Allowed),
            Some(Host::Ipv6(ip)) => self.check_address(IpAddr::V6(ip)).map(|_| Target::Allowed),
            Some(Host::Domain(name)) if self.allows_host(name) => Ok(Target::Allowed),
            Some(Host::Domain(name)) => Ok(Target::Name(name)),
            // `WebhookUrl::parse` refuses URLs without a host.
            None => Ok(Target::Allowed),
        }
    }
}

/// What is left to check of a URL's host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// An allowed address or host.
    Allowed,
    /// A name whose addresses must all be allowed.
    Name(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(hosts: &[&str], networks: &[&str]) -> DestinationPolicy {
        let mut hooks = crate::config::Settings::defaults()
            .expect("defaults")
            .webhooks;
        hooks.allowed_hosts = hosts.iter().map(|s| s.to_string()).collect();
        hooks.allowed_networks = networks.iter().map(|s| s.to_string()).collect();
        DestinationPolicy::from_settings(&hooks).expect("valid policy")
    }

    fn target(policy: &DestinationPolicy, url: &str) -> Result<Option<String>, AddressRefused> {
        let url = WebhookUrl::parse(url).expect("a URL");
        policy.target(&url).map(|t| match t {
            Target::Allowed => None,
            Target::Name(name) => Some(name.to_string()),
        })
    }

    #[test]
    fn literal_addresses_in_every_spelling_are_judged() {
        let strict = policy(&[], &[]);
        for (url, address) in [
            ("http://127.0.0.1:8080/x", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1"),
            ("http://0x7f.1/", "127.0.0.1"),
            ("http://0177.0.0.1/", "127.0.0.1"),
            ("http://[::1]:9/", "::1"),
            ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1"),
            ("http://0.0.0.0/", "0.0.0.0"),
            (
                "http://169.254.169.254/latest/meta-data/",
                "169.254.169.254",
            ),
            ("https://10.0.0.1/", "10.0.0.1"),
        ] {
            let refused = target(&strict, url).unwrap_err();
            assert_eq!(refused.address.to_string(), address, "{url}");
        }
        assert_eq!(target(&strict, "https://93.184.215.14/e"), Ok(None));
        assert_eq!(
            target(&strict, "https://Hooks.Example.org./e"),
            Ok(Some("hooks.example.org.".into()))
        );
        assert_eq!(
            target(&strict, "http://localhost:8080/"),
            Ok(Some("localhost".into()))
        );
    }

    #[test]
    fn allowances_let_hosts_and_networks_through() {
        let open = policy(&["hooks.internal.example"], &["127.0.0.0/8", "10.1.0.0/16"]);
        assert_eq!(target(&open, "http://127.0.0.1:8080/x"), Ok(None));
        assert_eq!(target(&open, "http://[::ffff:127.0.0.1]/"), Ok(None));
        assert_eq!(target(&open, "http://10.1.2.3/"), Ok(None));
        assert!(target(&open, "http://10.2.0.1/").is_err());
        assert!(target(&open, "http://[::1]/").is_err());
        assert_eq!(target(&open, "https://HOOKS.internal.example./e"), Ok(None));
        assert_eq!(
            target(&open, "https://other.internal.example/e"),
            Ok(Some("other.internal.example".into()))
        );
    }

    #[test]
    fn bad_allowances_are_named() {
        let mut hooks = crate::config::Settings::defaults()
            .expect("defaults")
            .webhooks;
        hooks.allowed_networks = vec!["10.1.0.0/40".into()];
        let (key, message) = DestinationPolicy::from_settings(&hooks).unwrap_err();
        assert_eq!(key, "webhooks.allowed_networks");
        assert!(message.contains("10.1.0.0/40"), "{message}");
        hooks.allowed_networks = vec![];
        hooks.allowed_hosts = vec!["http://x.example/".into()];
        let (key, _) = DestinationPolicy::from_settings(&hooks).unwrap_err();
        assert_eq!(key, "webhooks.allowed_hosts");
    }
}
