//! How many connections one client address may hold open at once (`[server]
//! max_connections_per_address`). actix-web bounds the total per worker (`[server]
//! max_connections`) but not per address, so without this one client could take every
//! connection (and file descriptor) there is. A connection over the bound is shut down as soon
//! as it is accepted, before a byte of it is read; the others, and other addresses, are served.
//! IPv6 clients are counted by their /64, which one subscriber usually holds whole.

use std::any::Any;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown};
use std::sync::{Arc, Mutex};

use actix_web::dev::Extensions;
use actix_web::rt::net::TcpStream;

/// Open connections per address, shared by every worker of a listener.
#[derive(Debug)]
pub struct ConnectionLimits {
    per_address: u32,
    open: Mutex<HashMap<IpAddr, u32>>,
}

/// One admitted connection's place; gives it back when the connection closes (actix-web
/// drops a connection's extensions with it).
#[derive(Debug)]
pub struct ConnectionSlot {
    limits: Arc<ConnectionLimits>,
    address: IpAddr,
}

impl ConnectionLimits {
    pub fn new(per_address: u32) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            per_address,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// `HttpServer::on_connect`: admits the connection, or shuts it down when its address
    /// already holds as many as allowed.
    pub fn on_connect(self: &Arc<Self>, connection: &dyn Any, extensions: &mut Extensions) {
        let Some(stream) = connection.downcast_ref::<TcpStream>() else {
            return;
        };
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        match self.admit(peer.ip()) {
            Some(slot) => {
                extensions.insert(slot);
            }
            None => {
                tracing::warn!(
                    address = %peer.ip(),
                    limit = self.per_address,
                    "connection refused: too many open from this address"
                );
                let _ = socket2::SockRef::from(stream).shutdown(Shutdown::Both);
            }
        }
    }

    /// A place for one more connection from `address`, if it has one left.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Option<ConnectionSlot> {
        let address = counted_as(address);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let held = open.entry(address).or_insert(0);
        if self.per_address > 0 && *held >= self.per_address {
            return None;
        }
        *held += 1;
        Some(ConnectionSlot {
            limits: self.clone(),
            address,
        })
    }

    /// Connections `address` holds now.
    pub fn held_by(&self, address: IpAddr) -> u32 {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&counted_as(address)).copied().unwrap_or(0)
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut open = self.limits.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(held) = open.get_mut(&self.address) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// The address a connection is counted under: IPv4 as is, IPv6 by its /64 (an IPv4-mapped
/// one as its IPv4).
pub fn counted_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let segments = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(
                    segments[0],
                    segments[1],
                    segments[2],
                    segments[3],
                    0,
                    0,
                    0,
                    0,
                ))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_places_back() {
        let limits = ConnectionLimits::new(2);
        let here: IpAddr = "203.0.113.7".parse().expect("address");
        let there: IpAddr = "203.0.113.8".parse().expect("address");
        let first = limits.admit(here).expect("first");
        let _second = limits.admit(here).expect("second");
        assert!(limits.admit(here).is_none(), "a third is refused");
        assert!(limits.admit(there).is_some(), "another address is not");
        drop(first);
        assert_eq!(limits.held_by(here), 1);
        assert!(
            limits.admit(here).is_some(),
            "a closed one gives its place back"
        );
    }

    #[test]
    fn ipv6_counts_by_its_64() {
        let limits = ConnectionLimits::new(1);
        let _one = limits.admit("2001:db8:1:2::1".parse().expect("address"));
        assert!(limits
            .admit("2001:db8:1:2:ffff::9".parse().expect("address"))
            .is_none());
        assert!(limits
            .admit("2001:db8:1:3::1".parse().expect("address"))
            .is_some());
        assert_eq!(
            counted_as("::ffff:198.51.100.4".parse().expect("address")),
            "198.51.100.4".parse::<IpAddr>().expect("address")
        );
    }
}
