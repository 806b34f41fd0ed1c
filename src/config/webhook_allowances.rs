//! `[webhooks] allowed_hosts` and `allowed_networks` read: the hosts and networks webhooks may
//! reach although they are not public (`api::webhook_policy` applies them).

use super::ip_network::IpNetwork;

/// A host name as `allowed_hosts` compares it: lower case, without a trailing dot.
pub fn host_key(host: &str) -> String {
    host.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// The allowances, read.
#[derive(Debug, Clone, Default)]
pub struct Allowances {
    /// As `host_key` writes them.
    pub hosts: Vec<String>,
    pub networks: Vec<IpNetwork>,
}

/// The allowances, read: `Err` names the setting and what is wrong with it.
pub fn read(hosts: &[String], networks: &[String]) -> Result<Allowances, (&'static str, String)> {
    let mut keys = Vec::with_capacity(hosts.len());
    for host in hosts {
        let key = host_key(host);
        let valid = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !valid {
            return Err((
                "webhooks.allowed_hosts",
                format!("{host:?} is not a host name (e.g. \"hooks.internal.example\")"),
            ));
        }
        keys.push(key);
    }
    let networks = networks
        .iter()
        .map(|n| n.parse::<IpNetwork>())
        .collect::<Result<_, _>>()
        .map_err(|e| ("webhooks.allowed_networks", e))?;
    Ok(Allowances {
        hosts: keys,
        networks,
    })
}
