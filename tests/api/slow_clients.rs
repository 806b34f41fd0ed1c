//! Slow and stalled clients against the real HTTP server (`Listeners::start`, as `arbiter
//! serve` runs it): 1,000 connections that stall in their headers or their body do not hold
//! up a normal request, and each is answered 408 once its deadline passes; one address cannot
//! hold more than `[server] max_connections_per_address` connections, while another is served.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use actix_web::web;
use arbiter::api::server::Listeners;
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{migrated_pool, test_settings, TestDb};

const STALLED: usize = 1_000;

/// A server on an ephemeral port with `adjust`ed settings; returns its address, its handle
/// and the database it must outlive.
fn serve(adjust: impl FnOnce(&mut Settings)) -> (SocketAddr, actix_web::dev::ServerHandle, TestDb) {
    let db = TestDb::new();
    let mut settings = test_settings(&db);
    settings.server.listen = "127.0.0.1:0".parse().expect("address");
    settings.server.workers = 2;
    adjust(&mut settings);
    let pool = migrated_pool(&settings);
    let state = web::Data::new(AppState::new(settings, pool).expect("state"));
    let listeners = Listeners::start(state, false).expect("listeners");
    let addr = listeners.api_addrs[0];
    let handle = listeners.api_handle();
    actix_web::rt::spawn(listeners.run());
    (addr, handle, db)
}

/// A plain GET over a fresh connection from `from`, with its status and how long it took.
fn timed_get(addr: SocketAddr, from: &str, path: &str) -> (u16, Duration) {
    let started = Instant::now();
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
    let local: SocketAddr = format!("{from}:0").parse().expect("address");
    socket.bind(&local.into()).expect("bind");
    socket.connect(&addr.into()).expect("connect");
    let mut stream: std::net::TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: arbiter\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, started.elapsed())
}

/// What a stalled connection receives once the server gives up on it.
async fn answer(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut bytes)).await;
    assert!(read.is_ok(), "the server never closed a stalled connection");
    String::from_utf8_lossy(&bytes).into_owned()
}

#[actix_web::test]
async fn a_thousand_stalled_connections_do_not_hold_up_a_normal_request() {
    let (soft, hard) = rlimit::Resource::NOFILE.get().expect("open-file limit");
    // Both ends of every connection live in this process, beside the other tests' files.
    let needed = 2 * STALLED as u64 + 512;
    assert!(
        hard >= needed,
        "the open-file limit's hard cap ({hard}) is below the {needed} this test needs: \
         raise it (`ulimit -Hn`)"
    );
    let wanted = (4 * STALLED as u64 + 1_024).min(hard);
    if soft < wanted {
        rlimit::Resource::NOFILE
            .set(wanted, hard)
            .expect("raise the open-file limit");
    }
    let (addr, handle, _db) = serve(|s| {
        s.server.header_deadline_secs = 3;
        s.server.body_deadline_secs = 3;
        s.server.max_connections_per_address = 4 * STALLED as u32;
    });
    let (_, before) =
        actix_web::rt::task::spawn_blocking(move || timed_get(addr, "127.0.0.1", "/healthz"))
            .await
            .expect("request");

    // Half stall in their headers, half after announcing a 100-byte body and sending 10.
    let mut stalled = Vec::with_capacity(STALLED);
    for i in 0..STALLED {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        let opening = if i % 2 == 0 {
            "POST /admin/sign-in HTTP/1.1\r\nHost: arbiter\r\nContent-Type: applic".to_string()
        } else {
            "POST /admin/sign-in HTTP/1.1\r\nHost: arbiter\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n\
             token=0123"
                .to_string()
        };
        stream.write_all(opening.as_bytes()).await.expect("write");
        stalled.push(stream);
    }

    let (status, during) =
        actix_web::rt::task::spawn_blocking(move || timed_get(addr, "127.0.0.1", "/readyz"))
            .await
            .expect("request");
    assert_eq!(
        status, 200,
        "a normal request is served beside {STALLED} stalled ones"
    );
    println!(
        "normal request: {:.1} ms alone, {:.1} ms beside {STALLED} stalled connections",
        before.as_secs_f64() * 1e3,
        during.as_secs_f64() * 1e3
    );

    // Each is cut off with 408 once its deadline passes.
    let in_headers = answer(&mut stalled[0]).await;
    assert!(in_headers.starts_with("HTTP/1.1 408"), "{in_headers}");
    let in_body = answer(&mut stalled[1]).await;
    assert!(in_body.starts_with("HTTP/1.1 408"), "{in_body}");
    assert!(in_body.contains("request_timeout"), "{in_body}");
    let mut closed = 2;
    for stream in stalled.iter_mut().skip(2) {
        let text = answer(stream).await;
        assert!(
            text.is_empty() || text.starts_with("HTTP/1.1 408"),
            "{text}"
        );
        closed += 1;
    }
    assert_eq!(closed, STALLED);
    handle.stop(false).await;
}

#[actix_web::test]
async fn one_address_cannot_hold_more_than_its_share_of_connections() {
    let (addr, handle, _db) = serve(|s| s.server.max_connections_per_address = 5);
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: arbiter\r\n")
            .await
            .expect("write");
        held.push(stream);
    }
    // Give the server the moment it takes to accept them all.
    tokio::time::sleep(Duration::from_millis(300)).await;

    // The sixth from the same address is closed unanswered, at once.
    let mut sixth = TcpStream::connect(addr).await.expect("connect");
    let _ = sixth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: arbiter\r\n\r\n")
        .await;
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), sixth.read_to_end(&mut bytes)).await;
    assert!(read.is_ok(), "the sixth connection was held open");
    assert!(bytes.is_empty(), "{}", String::from_utf8_lossy(&bytes));

    // Another address is served meanwhile.
    let (status, _) =
        actix_web::rt::task::spawn_blocking(move || timed_get(addr, "127.0.0.2", "/healthz"))
            .await
            .expect("request");
    assert_eq!(status, 200);

    // Once one closes, the address may connect again.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) =
        actix_web::rt::task::spawn_blocking(move || timed_get(addr, "127.0.0.1", "/healthz"))
            .await
            .expect("request");
    assert_eq!(status, 200);
    handle.stop(false).await;
}
