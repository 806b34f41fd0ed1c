//! Charts drawn on the server as SVG, with no script and no inline style (the console's
//! content security policy allows neither): columns over time and labelled bars. Each chart
//! is an image titled for screen readers; the page puts the numbers in a table beside it.

use maud::{html, Markup};

const WIDTH: f64 = 640.0;
const COLUMNS_HEIGHT: f64 = 180.0;
const BAR_HEIGHT: f64 = 22.0;
const LABEL_WIDTH: f64 = 190.0;
const AXIS: f64 = 24.0;

/// The largest value, at least 1 so an empty chart still draws.
fn top(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(1.0, f64::max)
}

/// One column per point (a day or a week), `label` under every few columns, the largest
/// value written at the top of the axis.
pub fn columns(title: &str, points: &[(String, f64)]) -> Markup {
    let max = top(points.iter().map(|(_, v)| *v));
    let n = points.len().max(1) as f64;
    let slot = (WIDTH - AXIS) / n;
    let every = (points.len() / 8).max(1);
    let plot = COLUMNS_HEIGHT - AXIS;
    html! {
        svg.chart viewBox=(format!("0 0 {WIDTH} {COLUMNS_HEIGHT}")) role="img" aria-label=(title) {
            title { (title) }
            line x1=(AXIS) y1=(plot) x2=(WIDTH) y2=(plot) stroke="currentColor" {}
            text x="0" y="12" font-size="11" fill="currentColor" { (format!("{max:.0}")) }
            @for (i, (label, value)) in points.iter().enumerate() {
                @let height = plot * value / max;
                @let x = AXIS + slot * i as f64;
                rect.column x=(format!("{:.1}", x + slot * 0.1)) y=(format!("{:.1}", plot - height))
                    width=(format!("{:.1}", (slot * 0.8).max(1.0))) height=(format!("{height:.1}")) {
                    title { (format!("{label}: {value}")) }
                }
                @if i % every == 0 {
                    text x=(format!("{x:.1}")) y=(COLUMNS_HEIGHT - 6.0) font-size="10" fill="currentColor" { (label) }
                }
            }
        }
    }
}

/// One horizontal bar per label, its value written after it by `show`.
pub fn bars(title: &str, rows: &[(String, f64)], show: impl Fn(f64) -> String) -> Markup {
    let max = top(rows.iter().map(|(_, v)| *v));
    let height = BAR_HEIGHT * rows.len().max(1) as f64 + 4.0;
    let room = WIDTH - LABEL_WIDTH - 80.0;
    html! {
        svg.chart viewBox=(format!("0 0 {WIDTH} {height}")) role="img" aria-label=(title) {
            title { (title) }
            @for (i, (label, value)) in rows.iter().enumerate() {
                @let y = BAR_HEIGHT * i as f64 + 2.0;
                @let length = room * value / max;
                text x="0" y=(format!("{:.1}", y + 15.0)) font-size="12" fill="currentColor" { (label) }
                rect.bar x=(LABEL_WIDTH) y=(format!("{y:.1}")) width=(format!("{length:.1}"))
                    height=(BAR_HEIGHT - 6.0) {}
                text x=(format!("{:.1}", LABEL_WIDTH + length + 6.0)) y=(format!("{:.1}", y + 15.0))
                    font-size="12" fill="currentColor" { (show(*value)) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_scale_to_the_largest_value() {
        let svg = columns(
            "Open cases",
            &[("12-01".into(), 5.0), ("12-02".into(), 10.0)],
        )
        .into_string();
        assert!(svg.contains("role=\"img\""));
        assert!(svg.contains("<title>Open cases</title>"));
        // The tallest column fills the plot (180 - 24 = 156 units); the other half of it.
        assert!(svg.contains("height=\"156.0\""), "{svg}");
        assert!(svg.contains("height=\"78.0\""), "{svg}");
        assert!(!svg.contains("style="));
    }

    #[test]
    fn bars_write_their_values() {
        let svg = bars("Decisions", &[("alice".into(), 3.0)], |v| {
            format!("{v:.0} decisions")
        })
        .into_string();
        assert!(
            svg.contains(">alice<") && svg.contains(">3 decisions<"),
            "{svg}"
        );
    }
}
