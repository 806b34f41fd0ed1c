//! Prometheus metrics, in a registry per application (so tests in one process do not mix).

use std::time::Duration;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

use crate::store::DbPool;

/// Upper bounds (seconds) of the request latency buckets: 50 µs to 10 s in 1-2.5-5 steps, so
/// sub-millisecond routes (the standing check takes about 0.2 ms) are told apart from each
/// other and from slow queries. Prometheus adds `+Inf`.
pub const LATENCY_BUCKETS: [f64; 17] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0, 10.0,
];

pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    pool_connections: IntGauge,
    pool_idle: IntGauge,
    pool_max: IntGauge,
    /// Stored games applied to conduct records by this instance's applier.
    pub conduct_applied: IntCounter,
    /// Stored games waiting for a conduct applier, as this instance's applier last saw.
    pub conduct_pending: IntGauge,
    /// SQLite: write-ahead log pages not yet copied into the database file, as the
    /// checkpointer last saw.
    pub sqlite_wal_behind: IntGauge,
    /// Open cases by reason, as the alert job last counted.
    pub open_cases: IntGaugeVec,
    /// Seconds since the oldest open case opened (0 with none), as the alert job last saw.
    pub oldest_open_case_age: IntGauge,
    /// Alerts nobody has acknowledged, as the alert job last counted.
    pub alerts_unacknowledged: IntGauge,
}

impl Metrics {
    pub fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new_custom(Some("arbiter".to_string()), None)?;
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests by method, route pattern and status.",
            ),
            &["method", "route", "status"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "HTTP request latency by method and route pattern.",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["method", "route"],
        )?;
        let pool_connections = IntGauge::new(
            "db_pool_connections",
            "Database connections open (in use plus idle).",
        )?;
        let pool_idle = IntGauge::new("db_pool_idle_connections", "Idle database connections.")?;
        let pool_max = IntGauge::new("db_pool_max_connections", "Configured pool size.")?;
        let conduct_applied = IntCounter::new(
            "conduct_applied_games_total",
            "Stored games applied to conduct records by this instance.",
        )?;
        let conduct_pending = IntGauge::new(
            "conduct_pending_games",
            "Stored games not yet applied to conduct records (as last counted).",
        )?;
        let sqlite_wal_behind = IntGauge::new(
            "sqlite_wal_uncheckpointed_pages",
            "SQLite log pages not yet copied into the database file (as last checkpointed).",
        )?;
        let open_cases = IntGaugeVec::new(
            Opts::new(
                "open_cases",
                "Open cases by reason (as the alert job last counted).",
            ),
            &["reason"],
        )?;
        let oldest_open_case_age = IntGauge::new(
            "oldest_open_case_age_seconds",
            "Seconds since the oldest open case opened (as the alert job last saw).",
        )?;
        let alerts_unacknowledged = IntGauge::new(
            "alerts_unacknowledged",
            "Alerts nobody has acknowledged (as the alert job last counted).",
        )?;
        registry.register(Box::new(open_cases.clone()))?;
        registry.register(Box::new(oldest_open_case_age.clone()))?;
        registry.register(Box::new(alerts_unacknowledged.clone()))?;
        registry.register(Box::new(sqlite_wal_behind.clone()))?;
        registry.register(Box::new(conduct_applied.clone()))?;
        registry.register(Box::new(conduct_pending.clone()))?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(pool_connections.clone()))?;
        registry.register(Box::new(pool_idle.clone()))?;
        registry.register(Box::new(pool_max.clone()))?;
        Ok(Metrics {
            registry,
            requests,
            latency,
            pool_connections,
            pool_idle,
            pool_max,
            conduct_applied,
            conduct_pending,
            sqlite_wal_behind,
            open_cases,
            oldest_open_case_age,
            alerts_unacknowledged,
        })
    }

    /// `route` is the matched pattern (e.g. `/api/v1/admin/tokens/{id}`), never the raw path,
    /// so label cardinality stays bounded.
    pub fn observe_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        self.requests
            .with_label_values(&[method, route, &status.to_string()])
            .inc();
        self.latency
            .with_label_values(&[method, route])
            .observe(elapsed.as_secs_f64());
    }

    /// The text exposition format, with pool gauges read now.
    pub fn render(&self, pool: &DbPool) -> Result<String, prometheus::Error> {
        let state = pool.state();
        self.pool_connections.set(i64::from(state.connections));
        self.pool_idle.set(i64::from(state.idle_connections));
        self.pool_max.set(i64::from(pool.max_size()));
        let mut out = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut out)?;
        String::from_utf8(out).map_err(|e| prometheus::Error::Msg(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cumulative count of one latency bucket of GET `route`, from the exposition text.
    fn bucket(text: &str, route: &str, le: &str) -> u64 {
        let prefix = format!(
            "arbiter_http_request_duration_seconds_bucket{{method=\"GET\",route=\"{route}\",le=\"{le}\"}} "
        );
        text.lines()
            .find_map(|line| line.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no {prefix} in:\n{text}"))
            .parse()
            .expect("count")
    }

    #[test]
    fn sub_millisecond_latencies_get_buckets_of_their_own() {
        let metrics = Metrics::new().expect("metrics");
        metrics.observe_request("GET", "/fast", 200, Duration::from_micros(200));
        metrics.observe_request("GET", "/slow", 200, Duration::from_secs(3));
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&metrics.registry.gather(), &mut out)
            .expect("encode");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(bucket(&text, "/fast", "0.0001"), 0);
        assert_eq!(bucket(&text, "/fast", "0.00025"), 1);
        assert_eq!(bucket(&text, "/fast", "0.001"), 1);
        assert_eq!(bucket(&text, "/slow", "2.5"), 0);
        assert_eq!(bucket(&text, "/slow", "5"), 1);
        assert_eq!(bucket(&text, "/slow", "10"), 1);
        assert_eq!(bucket(&text, "/slow", "0.00005"), 0);
    }
}
