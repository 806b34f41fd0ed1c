//! An IP network in CIDR notation (`10.1.0.0/16`, `fd00::/8`, or one address), as the
//! operator writes it in `[webhooks] allowed_networks`.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpNetwork {
    base: IpAddr,
    bits: u8,
}

impl IpNetwork {
    /// Whether `ip` lies in this network. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is
    /// its IPv4 address, so `127.0.0.0/8` holds `::ffff:127.0.0.1`.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.base, ip.to_canonical()) {
            (IpAddr::V4(base), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.bits)).unwrap_or(0);
                u32::from(ip) & mask == u32::from(base) & mask
            }
            (IpAddr::V6(base), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.bits))
                    .unwrap_or(0);
                u128::from(ip) & mask == u128::from(base) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for IpNetwork {
    type Err = String;

    fn from_str(text: &str) -> Result<IpNetwork, String> {
        let text = text.trim();
        let (address, bits) = match text.split_once('/') {
            Some((address, bits)) => (address, Some(bits)),
            None => (text, None),
        };
        let base: IpAddr = address
            .parse()
            .map_err(|_| format!("{text:?} is not an address or network (e.g. \"10.1.0.0/16\")"))?;
        let max = if base.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => max,
            Some(bits) => bits
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= max)
                .ok_or_else(|| format!("{text:?}: the prefix length must be 0 to {max}"))?,
        };
        Ok(IpNetwork { base, bits })
    }
}

impl fmt::Display for IpNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.base, self.bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(text: &str) -> IpNetwork {
        text.parse().expect("a network")
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn networks_hold_their_addresses() {
        let local = net("127.0.0.0/8");
        assert!(local.contains(ip("127.0.0.1")));
        assert!(local.contains(ip("127.255.255.255")));
        assert!(local.contains(ip("::ffff:127.0.0.1")));
        assert!(!local.contains(ip("128.0.0.1")));
        assert!(!local.contains(ip("::1")));
        assert!(net("10.1.0.0/16").contains(ip("10.1.200.3")));
        assert!(!net("10.1.0.0/16").contains(ip("10.2.0.1")));
        assert!(net("fd00::/8").contains(ip("fd12::1")));
        assert!(net("::1").contains(ip("::1")));
        assert!(net("0.0.0.0/0").contains(ip("8.8.8.8")));
        assert!(!net("10.0.0.1").contains(ip("10.0.0.2")));
        assert_eq!(net(" 10.1.0.0/16 ").to_string(), "10.1.0.0/16");
    }

    #[test]
    fn bad_networks_are_named() {
        for text in [
            "",
            "10.1.0.0/33",
            "fd00::/129",
            "10.1.0.0/x",
            "intranet",
            "10.1/16",
        ] {
            let err = text.parse::<IpNetwork>().unwrap_err();
            assert!(err.contains(text.trim()), "{text}: {err}");
        }
    }
}
