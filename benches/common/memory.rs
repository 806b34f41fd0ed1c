//! A process's resident memory over a run: sampled from `/proc/<pid>/status` (Linux), printed
//! as a curve with the spread of its later part, so memory that keeps growing shows.

use std::time::{Duration, Instant};

/// One sample: seconds since the start and VmRSS in kB.
pub type Sample = (u64, u64);

/// Samples `pid`'s VmRSS every `every` for `duration` (and once at the end).
pub fn sample(pid: u32, duration: Duration, every: Duration) -> Vec<Sample> {
    let started = Instant::now();
    let mut samples = Vec::new();
    loop {
        let at = started.elapsed();
        if let Some(kb) = resident_kb(pid) {
            samples.push((at.as_secs(), kb));
        }
        if at >= duration {
            return samples;
        }
        std::thread::sleep(every.min(duration - at));
    }
}

/// VmRSS of `pid` in kB, if readable.
pub fn resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Prints the curve (at most 31 points) and the spread, (max - min) / min, over the last two
/// thirds of the run: for a 15-minute soak, its last 10 minutes.
pub fn print(samples: &[Sample]) {
    let Some(&(last, _)) = samples.last() else {
        println!("memory: no samples (is /proc readable?)");
        return;
    };
    let step = samples.len().div_ceil(30).max(1);
    let curve: Vec<String> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i == samples.len() - 1)
        .map(|(_, (at, kb))| format!("{at}s {:.1}", *kb as f64 / 1024.0))
        .collect();
    println!("memory: resident MB over the run: {}", curve.join(", "));
    let from = last / 3;
    let later: Vec<u64> = samples
        .iter()
        .filter(|(at, _)| *at >= from)
        .map(|(_, kb)| *kb)
        .collect();
    let (Some(&low), Some(&high)) = (later.iter().min(), later.iter().max()) else {
        return;
    };
    let spread = (high - low) as f64 / low.max(1) as f64 * 100.0;
    println!(
        "memory: from {from} s to {last} s resident {:.1}-{:.1} MB, spread {spread:.1} % ({})",
        low as f64 / 1024.0,
        high as f64 / 1024.0,
        if spread <= 10.0 {
            "flat within 10 %"
        } else {
            "NOT flat within 10 %"
        }
    );
}
