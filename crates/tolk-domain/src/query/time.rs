//! Dates and times in queries: `2026-11-25`, `2026-11-25T10:30`,
//! `2026-11-25 10:30:15`, a year (`2026`), or `today`/`yesterday`. A value
//! without a time stands for its whole day (a year for its whole year), so
//! it is a span; comparisons take its start or its end.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};

/// The first and last instant a written time stands for, or why it is
/// not a time; `now` resolves the relative words.
pub(crate) fn span(
    value: &str,
    now: NaiveDateTime,
) -> Result<(NaiveDateTime, NaiveDateTime), String> {
    let value = value.trim();
    let day = |date: NaiveDate| {
        let start = date.and_time(NaiveTime::MIN);
        (start, start + Duration::days(1) - Duration::microseconds(1))
    };
    match value.to_ascii_lowercase().as_str() {
        "today" => return Ok(day(now.date())),
        "yesterday" => return Ok(day(now.date() - Duration::days(1))),
        _ => {}
    }
    if value.len() == 4
        && let Ok(year) = value.parse::<i32>()
        && let (Some(first), Some(next)) = (
            NaiveDate::from_ymd_opt(year, 1, 1),
            NaiveDate::from_ymd_opt(year + 1, 1, 1),
        )
    {
        return Ok((
            first.and_time(NaiveTime::MIN),
            next.and_time(NaiveTime::MIN) - Duration::microseconds(1),
        ));
    }
    if let Ok(date) = NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        return Ok(day(date));
    }
    for format in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(at) = NaiveDateTime::parse_from_str(value, format) {
            return Ok((at, at));
        }
    }
    Err(format!("Invalid timestamp: {value}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f").unwrap()
    }

    #[test]
    fn days_years_and_instants() {
        let now = at("2026-11-25 18:00:00.0");
        assert_eq!(
            span("2026-11-24", now).unwrap(),
            (
                at("2026-11-24 00:00:00.0"),
                at("2026-11-24 23:59:59.999999")
            )
        );
        assert_eq!(span("yesterday", now), span("2026-11-24", now));
        assert_eq!(
            span("2019", now).unwrap(),
            (
                at("2019-01-01 00:00:00.0"),
                at("2019-12-31 23:59:59.999999")
            )
        );
        let instant = at("2026-11-25 10:30:00.0");
        assert_eq!(span("2026-11-25T10:30", now).unwrap(), (instant, instant));
        assert_eq!(
            span("last tuesday", now).unwrap_err(),
            "Invalid timestamp: last tuesday"
        );
    }
}
