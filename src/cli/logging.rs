//! Log output for `serve`: text or JSON lines, filtered by `log.level`.

use std::io::IsTerminal;

use anyhow::Context;
use tracing_subscriber::EnvFilter;

use crate::config::{LogFormat, LogSettings};

pub fn init(settings: &LogSettings) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&settings.level).context("log.level")?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour only for people, not for log files and collectors.
        .with_ansi(std::io::stderr().is_terminal());
    let result = match settings.format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .try_init(),
    };
    result.map_err(|e| anyhow::anyhow!("initialising logging: {e}"))?;
    // Panics (contained per request by the HTTP middleware) go to the log in its format,
    // inside the request's span, instead of as raw text on stderr.
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!(panic.location = %location, panic.message = %panic_text(info), "panic");
    }));
    Ok(())
}

fn panic_text(info: &std::panic::PanicHookInfo<'_>) -> String {
    if let Some(text) = info.payload().downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = info.payload().downcast_ref::<String>() {
        text.clone()
    } else {
        "non-string panic payload".to_string()
    }
}
