//! Prints what the chat analyser finds in each line (arguments, or stdin lines), for tuning
//! the lexicons: `cargo run --example chat_line -- "knight to c8" "fk off"`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::io::BufRead;

use arbiter::chat::{analyze_line, Analyzer, LineContext};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let analyzer = Analyzer::shared()?;
    let context = LineContext::ffa_in_progress();
    let mut lines: Vec<String> = std::env::args().skip(1).collect();
    if lines.is_empty() {
        lines = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    }
    for line in lines {
        let analysis = analyze_line(&analyzer, &context, &line);
        let flags: Vec<String> = analysis
            .flags
            .iter()
            .map(|f| {
                format!(
                    "{:?}/{:?} {} {:?}",
                    f.category,
                    f.severity,
                    f.rule,
                    f.span.slice(&line)
                )
            })
            .collect();
        println!("{:?}\t{:?}\t{}", analysis.action, line, flags.join("; "));
    }
    Ok(())
}
