//! A closed-loop HTTP/1.1 load driver: `connections` keep-alive connections, each sending its
//! next request as soon as the previous answer is in, all multiplexed on one client thread.
//! One thread (rather than one per connection) matters on a small machine: the client then
//! takes one core's share at most and does not steal time slices from the server's workers
//! with context switches, so the figure measures the server.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What one run saw.
pub struct Tally {
    pub latencies: Vec<Duration>,
    /// Answers whose status was not the expected one.
    pub errors: usize,
    /// Of those, answers with a 5xx status.
    pub server_errors: usize,
    /// The first few unexpected answers, status line and body.
    pub samples: Vec<String>,
    pub elapsed: Duration,
}

impl Tally {
    pub fn requests(&self) -> usize {
        self.latencies.len()
    }

    pub fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// The `q` quantile of the latencies, in milliseconds (`latencies` must be sorted).
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let n = self.latencies.len();
        let i = ((n as f64 * q).ceil() as usize).clamp(1, n) - 1;
        self.latencies[i].as_secs_f64() * 1e3
    }
}

/// One parsed answer.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Runs `connections` connections against `addr` for `duration`; connection `c` sends
/// `request(c, k)` as its `k`-th request (a complete HTTP/1.1 request with keep-alive).
/// Answers other than `expected_status` are counted as errors.
pub fn run<F>(
    addr: SocketAddr,
    connections: usize,
    duration: Duration,
    expected_status: u16,
    request: F,
) -> Result<Tally, String>
where
    F: Fn(usize, usize) -> Vec<u8> + Clone + 'static,
{
    run_spread(&[addr], connections, duration, expected_status, request)
}

/// [`run`] against several instances of the service: connection `c` talks to
/// `addrs[c % addrs.len()]`.
pub fn run_spread<F>(
    addrs: &[SocketAddr],
    connections: usize,
    duration: Duration,
    expected_status: u16,
    request: F,
) -> Result<Tally, String>
where
    F: Fn(usize, usize) -> Vec<u8> + Clone + 'static,
{
    if addrs.is_empty() {
        return Err("no address to load".into());
    }
    let addrs = addrs.to_vec();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| e.to_string())?;
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async move {
        let started = Instant::now();
        let until = started + duration;
        let tasks: Vec<_> = (0..connections)
            .map(|c| {
                let request = request.clone();
                let addr = addrs[c % addrs.len()];
                tokio::task::spawn_local(async move {
                    let mut connection = Connection::open(addr).await?;
                    let mut tally = Tally {
                        latencies: Vec::with_capacity(1 << 16),
                        errors: 0,
                        server_errors: 0,
                        samples: Vec::new(),
                        elapsed: Duration::ZERO,
                    };
                    let mut k = 0;
                    while Instant::now() < until {
                        let bytes = request(c, k);
                        k += 1;
                        let sent = Instant::now();
                        let answer = connection.exchange(&bytes).await?;
                        tally.latencies.push(sent.elapsed());
                        if answer.status >= 500 {
                            tally.server_errors += 1;
                        }
                        if answer.status != expected_status {
                            tally.errors += 1;
                            if tally.samples.len() < 3 {
                                tally.samples.push(format!(
                                    "{}: {}",
                                    answer.status,
                                    String::from_utf8_lossy(&answer.body)
                                ));
                            }
                        }
                    }
                    Ok::<Tally, String>(tally)
                })
            })
            .collect();
        let mut all = Tally {
            latencies: Vec::new(),
            errors: 0,
            server_errors: 0,
            samples: Vec::new(),
            elapsed: Duration::ZERO,
        };
        for task in tasks {
            let tally = task.await.map_err(|e| e.to_string())??;
            all.latencies.extend(tally.latencies);
            all.errors += tally.errors;
            all.server_errors += tally.server_errors;
            all.samples.extend(tally.samples);
        }
        all.elapsed = started.elapsed();
        all.latencies.sort_unstable();
        all.samples.truncate(3);
        Ok(all)
    })
}

/// Sends one request on a fresh runtime and returns its answer: for checking content before
/// a run.
pub fn once(addr: SocketAddr, request: &[u8]) -> Result<Answer, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut connection = Connection::open(addr).await?;
        connection.exchange(request).await
    })
}

struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    async fn open(addr: SocketAddr) -> Result<Connection, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Connection {
            stream,
            buffer: Vec::with_capacity(4096),
        })
    }

    /// Writes `request` and reads one answer framed by `Content-Length`.
    async fn exchange(&mut self, request: &[u8]) -> Result<Answer, String> {
        self.stream
            .write_all(request)
            .await
            .map_err(|e| format!("write: {e}"))?;
        loop {
            if let Some((head, length)) = parse_head(&self.buffer)? {
                if self.buffer.len() >= head.end + length {
                    let body = self.buffer[head.end..head.end + length].to_vec();
                    self.buffer.drain(..head.end + length);
                    return Ok(Answer {
                        status: head.status,
                        body,
                    });
                }
            }
            let mut chunk = [0u8; 4096];
            let read = self
                .stream
                .read(&mut chunk)
                .await
                .map_err(|e| format!("read: {e}"))?;
            if read == 0 {
                return Err("the server closed the connection".into());
            }
            self.buffer.extend_from_slice(&chunk[..read]);
        }
    }
}

struct Head {
    status: u16,
    /// Offset of the body.
    end: usize,
}

/// The status and body length of a complete answer head in `buffer`, if there is one yet.
fn parse_head(buffer: &[u8]) -> Result<Option<(Head, usize)>, String> {
    let Some(blank) = buffer.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Ok(None);
    };
    let text = std::str::from_utf8(&buffer[..blank]).map_err(|_| "answer head is not UTF-8")?;
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut length = 0;
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad content-length {value:?}"))?;
            }
        }
    }
    Ok(Some((
        Head {
            status,
            end: blank + 4,
        },
        length,
    )))
}

/// Warms up for a second (connections, statement caches, pages), then drives for `seconds`,
/// and prints `{bench} [{label}]: ...` and the figure line `{route}: N req/s, p50, p99` (with
/// ` ({label})` after the route except on SQLite). Any answer other than 200 fails the run.
pub fn measure(
    bench: &str,
    route: &str,
    label: &str,
    connections: usize,
    seconds: u64,
    mut drive: impl FnMut(Duration) -> Result<Tally, String>,
) -> Result<(), String> {
    let warm = drive(Duration::from_secs(1))?;
    if warm.errors > 0 {
        return Err(format!("warm-up answers not 200: {:?}", warm.samples));
    }
    let tally = drive(Duration::from_secs(seconds))?;
    println!(
        "{bench} [{label}]: {} requests in {:.1} s over {connections} connections, \
         {} not 200; max {:.3} ms",
        tally.requests(),
        tally.elapsed.as_secs_f64(),
        tally.errors,
        tally.quantile_ms(1.0)
    );
    for sample in &tally.samples {
        println!("{bench} [{label}]: not 200: {sample}");
    }
    let backend = if label == "sqlite" {
        String::new()
    } else {
        format!(" ({label})")
    };
    println!(
        "{route}{backend}: {:.0} req/s, p50 {:.3} ms, p99 {:.3} ms",
        tally.per_second(),
        tally.quantile_ms(0.50),
        tally.quantile_ms(0.99)
    );
    if tally.errors > 0 {
        return Err(format!("{} answers were not 200", tally.errors));
    }
    Ok(())
}
