//! The address a request is counted under. Directly connected clients are their peer address.
//! Behind a reverse proxy every request comes from the proxy, so when the peer is one of
//! `[limits] trusted_proxies` the client is the right-most `X-Forwarded-For` entry that is not
//! itself a trusted proxy (entries further left are whatever the client chose to send, RFC
//! 7239 section 5.2 on the same header's successor). IPv6 clients count by their /64.

use std::net::IpAddr;

use crate::api::connection_limits::counted_as;

pub fn client_address(
    peer: Option<IpAddr>,
    forwarded_for: Option<&str>,
    trusted_proxies: &[IpAddr],
) -> Option<IpAddr> {
    let peer = peer?;
    let is_trusted = |address: &IpAddr| trusted_proxies.contains(address);
    if !is_trusted(&peer) {
        return Some(counted_as(peer));
    }
    let forwarded = forwarded_for
        .into_iter()
        .flat_map(|header| header.split(','))
        .rev()
        .map(|entry| entry.trim().parse::<IpAddr>())
        .find(|entry| !matches!(entry, Ok(address) if is_trusted(address)));
    match forwarded {
        Some(Ok(client)) => Some(counted_as(client)),
        // An entry that is no address: count the proxy itself rather than guess.
        Some(Err(_)) | None => Some(counted_as(peer)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn the_peer_unless_it_is_a_trusted_proxy() {
        let proxy = ip("10.0.0.2");
        let direct = client_address(Some(ip("198.51.100.9")), Some("1.2.3.4"), &[proxy]);
        assert_eq!(
            direct,
            Some(ip("198.51.100.9")),
            "a client's own header is ignored"
        );
        let proxied = client_address(Some(proxy), Some("1.2.3.4, 203.0.113.5"), &[proxy]);
        assert_eq!(proxied, Some(ip("203.0.113.5")), "the right-most entry");
        let chained = client_address(
            Some(proxy),
            Some("203.0.113.5, 10.0.0.3"),
            &[proxy, ip("10.0.0.3")],
        );
        assert_eq!(chained, Some(ip("203.0.113.5")), "trusted hops are skipped");
        let bare = client_address(Some(proxy), None, &[proxy]);
        assert_eq!(bare, Some(proxy));
        let junk = client_address(Some(proxy), Some("unknown"), &[proxy]);
        assert_eq!(junk, Some(proxy));
    }
}
