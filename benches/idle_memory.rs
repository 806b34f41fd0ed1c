//! Resident memory of the idle service: starts the `arbiter` binary (`arbiter serve` on a
//! fresh SQLite file and a free port), waits until it is ready, lets it settle and prints its
//! resident set (VmRSS) and peak (VmHWM) from /proc. Linux only.
//!   cargo bench --bench idle_memory                    (settles 10 s, then samples for 5 s)
//!   cargo bench --bench idle_memory -- --settle 30 --samples 10

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Options {
    settle_secs: u64,
    samples: usize,
}

fn options() -> Options {
    let mut o = Options {
        settle_secs: 10,
        samples: 5,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--settle", Some(v)) => o.settle_secs = v,
            ("--samples", Some(v)) => o.samples = usize::try_from(v).unwrap_or(5).max(1),
            // `cargo bench` passes `--bench`; anything else is ignored likewise.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn ready(addr: SocketAddr) -> bool {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) else {
        return false;
    };
    let request = "GET /readyz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200")
}

/// A `/proc/<pid>/status` field in kB.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn main() {
    let options = options();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("idle.db");
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let binary = env!("CARGO_BIN_EXE_arbiter");
    let mut child = Command::new(binary)
        .arg("serve")
        .env("ARBITER_SERVER__LISTEN", addr.to_string())
        .env(
            "ARBITER_DATABASE__URL",
            format!("sqlite://{}", db.display()),
        )
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let started = Instant::now();
    while !ready(addr) {
        if started.elapsed() > Duration::from_secs(60) || child.try_wait().ok().flatten().is_some()
        {
            stop(&mut child);
            eprintln!("idle_memory: the service was not ready within 60 s");
            std::process::exit(1);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let ready_after = started.elapsed();
    std::thread::sleep(Duration::from_secs(options.settle_secs));
    let pid = child.id();
    let mut samples = Vec::new();
    for _ in 0..options.samples {
        samples.extend(status_kb(pid, "VmRSS:"));
        std::thread::sleep(Duration::from_secs(1));
    }
    let peak = status_kb(pid, "VmHWM:");
    stop(&mut child);
    let (Some(&low), Some(&high)) = (samples.iter().min(), samples.iter().max()) else {
        eprintln!("idle_memory: /proc/{pid}/status unreadable");
        std::process::exit(1);
    };
    let binary_size = std::fs::metadata(binary).map(|m| m.len()).unwrap_or(0);
    println!(
        "idle_memory: ready after {:.2} s; resident {:.1}-{:.1} MB over {} s after {} s idle; peak {:.1} MB; binary {:.1} MB",
        ready_after.as_secs_f64(),
        mb(low),
        mb(high),
        samples.len(),
        options.settle_secs,
        peak.map_or(0.0, mb),
        binary_size as f64 / 1_000_000.0,
    );
}
