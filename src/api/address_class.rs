//! Which IP addresses are public: reachable on the Internet, and so safe for this service to
//! send a webhook to. Everything else (loopback, private networks, link-local and cloud
//! metadata, CGNAT, unique-local, multicast, documentation and reserved ranges) belongs to the
//! network the service runs in, where a webhook URL must not reach unless the operator allows
//! it (issue #40: server-side request forgery). IPv6 forms that embed an IPv4 address
//! (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by the address they embed.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not public.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonPublic {
    /// `0.0.0.0/8`, `::`: "this host", which connects to the local machine.
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`.
    Private,
    /// `169.254.0.0/16` (where cloud metadata services answer), `fe80::/10`.
    LinkLocal,
    /// `100.64.0.0/10`, carrier-grade NAT (RFC 6598).
    SharedNat,
    /// `fc00::/7` (RFC 4193), and the deprecated site-local `fec0::/10`.
    UniqueLocal,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// Special-purpose or unallocated: `192.0.0.0/24`, `192.88.99.0/24`, `198.18.0.0/15`,
    /// `240.0.0.0/4`; IPv6 outside `2000::/3`, `2001::/23`, `100::/64`, `64:ff9b:1::/48`.
    Reserved,
}

impl NonPublic {
    /// The class in words, for messages ("a loopback address").
    pub fn describe(self) -> &'static str {
        match self {
            NonPublic::Unspecified => "an unspecified (this-host) address",
            NonPublic::Loopback => "a loopback address",
            NonPublic::Private => "a private (RFC 1918) address",
            NonPublic::LinkLocal => "a link-local address",
            NonPublic::SharedNat => "a carrier-grade NAT (100.64.0.0/10) address",
            NonPublic::UniqueLocal => "a unique-local address",
            NonPublic::Multicast => "a multicast address",
            NonPublic::Broadcast => "the broadcast address",
            NonPublic::Documentation => "a documentation address",
            NonPublic::Reserved => "a reserved address",
        }
    }

    /// A stable name for the class, for error details.
    pub fn name(self) -> &'static str {
        match self {
            NonPublic::Unspecified => "unspecified",
            NonPublic::Loopback => "loopback",
            NonPublic::Private => "private",
            NonPublic::LinkLocal => "link_local",
            NonPublic::SharedNat => "shared_nat",
            NonPublic::UniqueLocal => "unique_local",
            NonPublic::Multicast => "multicast",
            NonPublic::Broadcast => "broadcast",
            NonPublic::Documentation => "documentation",
            NonPublic::Reserved => "reserved",
        }
    }
}

impl fmt::Display for NonPublic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// `None` for a public address, else why it is not one.
pub fn classify(ip: IpAddr) -> Option<NonPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `ip` starts with the first `bits` bits of `prefix`.
fn in_v4(ip: Ipv4Addr, prefix: [u8; 4], bits: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(prefix)) & mask
}

fn in_v6(ip: Ipv6Addr, prefix: Ipv6Addr, bits: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
    u128::from(ip) & mask == u128::from(prefix) & mask
}

fn classify_v4(ip: Ipv4Addr) -> Option<NonPublic> {
    const RANGES: [([u8; 4], u32, NonPublic); 16] = [
        ([0, 0, 0, 0], 8, NonPublic::Unspecified),
        ([10, 0, 0, 0], 8, NonPublic::Private),
        ([100, 64, 0, 0], 10, NonPublic::SharedNat),
        ([127, 0, 0, 0], 8, NonPublic::Loopback),
        ([169, 254, 0, 0], 16, NonPublic::LinkLocal),
        ([172, 16, 0, 0], 12, NonPublic::Private),
        ([192, 0, 0, 0], 24, NonPublic::Reserved),
        ([192, 0, 2, 0], 24, NonPublic::Documentation),
        ([192, 88, 99, 0], 24, NonPublic::Reserved),
        ([192, 168, 0, 0], 16, NonPublic::Private),
        ([198, 18, 0, 0], 15, NonPublic::Reserved),
        ([198, 51, 100, 0], 24, NonPublic::Documentation),
        ([203, 0, 113, 0], 24, NonPublic::Documentation),
        ([224, 0, 0, 0], 4, NonPublic::Multicast),
        // Before 240/4, which holds it.
        ([255, 255, 255, 255], 32, NonPublic::Broadcast),
        ([240, 0, 0, 0], 4, NonPublic::Reserved),
    ];
    RANGES
        .iter()
        .find(|(prefix, bits, _)| in_v4(ip, *prefix, *bits))
        .map(|(_, _, class)| *class)
}

fn classify_v6(ip: Ipv6Addr) -> Option<NonPublic> {
    if ip.is_unspecified() {
        return Some(NonPublic::Unspecified);
    }
    if ip.is_loopback() {
        return Some(NonPublic::Loopback);
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    const RANGES: [(Ipv6Addr, u32, NonPublic); 9] = [
        (
            Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0),
            48,
            NonPublic::Reserved,
        ),
        (
            Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0),
            64,
            NonPublic::Reserved,
        ),
        (
            Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
            32,
            NonPublic::Documentation,
        ),
        (
            Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
            23,
            NonPublic::Reserved,
        ),
        (
            Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
            20,
            NonPublic::Documentation,
        ),
        (
            Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0),
            7,
            NonPublic::UniqueLocal,
        ),
        (
            Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0),
            10,
            NonPublic::LinkLocal,
        ),
        (
            Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0),
            10,
            NonPublic::UniqueLocal,
        ),
        (
            Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0),
            8,
            NonPublic::Multicast,
        ),
    ];
    if let Some((_, _, class)) = RANGES
        .iter()
        .find(|(prefix, bits, _)| in_v6(ip, *prefix, *bits))
    {
        return Some(*class);
    }
    // Only 2000::/3 is allocated for global unicast; the rest is reserved.
    let global_unicast = Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0);
    (!in_v6(ip, global_unicast, 3)).then_some(NonPublic::Reserved)
}

/// The IPv4 address an IPv6 one stands for, when it embeds one: IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) or 6to4
/// (`2002:aabb:ccdd::`). A connection to it reaches (or is translated to) that IPv4 address.
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let low32 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    let mapped = Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0);
    let compatible = Ipv6Addr::UNSPECIFIED;
    let nat64 = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0);
    if in_v6(ip, mapped, 96) || in_v6(ip, compatible, 96) || in_v6(ip, nat64, 96) {
        return Some(low32);
    }
    let six_to_four = Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0);
    if in_v6(ip, six_to_four, 16) {
        return Some(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(text: &str) -> Option<NonPublic> {
        classify(text.parse().expect("an address"))
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.215.14",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.167.255.255",
            "198.20.0.1",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2a00:1450:4001:82a::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert_eq!(class(ip), None, "{ip}");
        }
    }

    #[test]
    fn inward_addresses_are_classified() {
        use NonPublic::*;
        for (ip, expected) in [
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("::", Unspecified),
            ("127.0.0.1", Loopback),
            ("127.255.0.9", Loopback),
            ("::1", Loopback),
            ("10.0.0.1", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.168.1.1", Private),
            ("169.254.169.254", LinkLocal),
            ("fe80::1", LinkLocal),
            ("100.64.0.1", SharedNat),
            ("100.127.255.255", SharedNat),
            ("fc00::1", UniqueLocal),
            ("fd12:3456::1", UniqueLocal),
            ("fec0::1", UniqueLocal),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("ff02::1", Multicast),
            ("255.255.255.255", Broadcast),
            ("192.0.2.1", Documentation),
            ("198.51.100.7", Documentation),
            ("203.0.113.9", Documentation),
            ("2001:db8::1", Documentation),
            ("3fff::1", Documentation),
            ("192.0.0.8", Reserved),
            ("198.18.0.1", Reserved),
            ("198.19.255.255", Reserved),
            ("240.0.0.1", Reserved),
            ("100::1", Reserved),
            ("2001::1", Reserved),
            ("64:ff9b:1::1", Reserved),
            ("4000::1", Reserved),
        ] {
            assert_eq!(class(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn embedded_ipv4_is_judged_by_what_it_embeds() {
        use NonPublic::*;
        for (ip, expected) in [
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:169.254.169.254", LinkLocal),
            ("::ffff:10.1.2.3", Private),
            ("::127.0.0.1", Loopback),
            ("::10.0.0.1", Private),
            ("64:ff9b::7f00:1", Loopback),
            ("64:ff9b::a9fe:a9fe", LinkLocal),
            ("2002:7f00:1::", Loopback),
            ("2002:c0a8:101::1", Private),
        ] {
            assert_eq!(class(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn classes_have_words_and_names() {
        assert_eq!(NonPublic::Loopback.to_string(), "a loopback address");
        assert_eq!(NonPublic::LinkLocal.name(), "link_local");
    }
}
