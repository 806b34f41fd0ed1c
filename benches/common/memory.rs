//! A process's resident memory over a run: sampled from `/proc/<pid>/status` (Linux), printed
//! as a curve with the spread of its later part, so memory that keeps growing shows.

use std::time::{Duration, Instant};

/// One sample: seconds since the start, VmRSS in kB, and of it the anonymous part
/// (`RssAnon`: the heap, stacks) and the file-backed part (`RssFile`: the binary's pages,
/// memory-mapped files) with shared memory (`RssShmem`: SQLite's WAL index).
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub at_secs: u64,
    pub resident_kb: u64,
    pub anon_kb: u64,
    pub file_kb: u64,
}

/// Samples `pid`'s VmRSS every `every` for `duration` (and once at the end).
pub fn sample(pid: u32, duration: Duration, every: Duration) -> Vec<Sample> {
    let started = Instant::now();
    let mut samples = Vec::new();
    loop {
        let at = started.elapsed();
        if let Some(mut sample) = read(pid) {
            sample.at_secs = at.as_secs();
            samples.push(sample);
        }
        if at >= duration {
            return samples;
        }
        std::thread::sleep(every.min(duration - at));
    }
}

/// `pid`'s resident memory now (`at_secs` 0), if readable.
pub fn read(pid: u32) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
    };
    Some(Sample {
        at_secs: 0,
        resident_kb: field("VmRSS:")?,
        anon_kb: field("RssAnon:")?,
        file_kb: field("RssFile:")? + field("RssShmem:")?,
    })
}

/// Prints the curve (at most 31 points) and the spread, (max - min) / min, over the last two
/// thirds of the run: for a 15-minute soak, its last 10 minutes.
pub fn print(samples: &[Sample]) {
    let Some(last) = samples.last().map(|s| s.at_secs) else {
        println!("memory: no samples (is /proc readable?)");
        return;
    };
    let step = samples.len().div_ceil(30).max(1);
    let curve: Vec<String> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i == samples.len() - 1)
        .map(|(_, s)| {
            format!(
                "{}s {:.1} ({:.1} anon)",
                s.at_secs,
                s.resident_kb as f64 / 1024.0,
                s.anon_kb as f64 / 1024.0
            )
        })
        .collect();
    println!("memory: resident MB over the run: {}", curve.join(", "));
    if let Some(end) = samples.last() {
        println!(
            "memory: at the end {:.1} MB anonymous (heap, stacks), {:.1} MB file-backed and shared",
            end.anon_kb as f64 / 1024.0,
            end.file_kb as f64 / 1024.0
        );
    }
    let from = last / 3;
    let later: Vec<u64> = samples
        .iter()
        .filter(|s| s.at_secs >= from)
        .map(|s| s.resident_kb)
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
