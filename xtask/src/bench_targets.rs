//! The targets of `cargo xtask bench` (issue 39's table for large
//! installations and the floor), printed beside the figures they judge,
//! so every run says which it meets.

use std::time::Duration;

use crate::bench::Figures;

/// What a figure is held to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target {
    /// At least this many requests a second.
    Rate(f64),
    /// At least this many requests a second, with the 99th percentile
    /// under this many milliseconds.
    RateWithin(f64, f64),
    /// At least this share of the floor's throughput.
    ShareOfFloor(f64),
}

impl Target {
    /// The target in words, and whether `figures` meet it (`floor`: the
    /// bare framework's throughput, for [`Target::ShareOfFloor`]).
    fn judge(self, figures: &Figures, floor: f64) -> (String, bool) {
        match self {
            Target::Rate(rate) => (format!("≥ {rate:.0} req/s"), figures.per_second >= rate),
            Target::RateWithin(rate, ms) => (
                format!("≥ {rate:.0} req/s, p99 < {ms:.0} ms"),
                figures.per_second >= rate && figures.p99.as_secs_f64() * 1000.0 < ms,
            ),
            Target::ShareOfFloor(share) => (
                format!("≥ {:.0}% of the floor", share * 100.0),
                figures.per_second >= share * floor,
            ),
        }
    }
}

/// `figures` with the verdict of `target`.
pub(crate) fn judged(figures: &Figures, target: Target, floor: f64) -> String {
    let (words, met) = target.judge(figures, floor);
    format!("{figures}   target {words}: {}", verdict(met))
}

/// A time taken with the verdict of `limit`.
pub(crate) fn timed(what: &str, taken: Duration, limit: Duration) -> String {
    format!(
        "{what}: {:.3} s   target < {:.3} s: {}",
        taken.as_secs_f64(),
        limit.as_secs_f64(),
        verdict(taken < limit)
    )
}

/// One client's median time with the verdict of `limit`.
pub(crate) fn median_within(figures: &Figures, limit: Duration) -> String {
    format!(
        "{figures}   target p50 < {:.0} ms: {}",
        limit.as_secs_f64() * 1000.0,
        verdict(figures.p50 < limit)
    )
}

/// A layer's line of `tolk layers` (`micros` its figure) with the verdict
/// of `limit`.
pub(crate) fn layer_within(line: &str, micros: f64, limit: Duration) -> String {
    let limit_micros = limit.as_secs_f64() * 1e6;
    format!(
        "{line:<32} target ≤ {limit_micros:.0} µs: {}",
        verdict(micros <= limit_micros)
    )
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT MET" }
}
