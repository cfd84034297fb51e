//! Rate limiting as Weblate applies it to its API: a `user` throttle keyed
//! by the user (or the client address for anonymous callers) and an `anon`
//! throttle keyed by the client address that only anonymous callers meet.
//! Each keeps, per key, the times of the requests in its sliding window and
//! refuses a request when the window is full.
//!
//! Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
//! `X-RateLimit-Reset` of the last throttle that ran (the anonymous one for
//! anonymous callers); a refused request is 429 with `Retry-After`.

use std::collections::{HashMap, VecDeque};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue, RETRY_AFTER};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError, web};
use tolk_domain::permission::Subject;

use crate::auth::{self, Caller};
use crate::error::ApiError;
use crate::state::AppState;

/// How often (in checks) keys whose windows emptied are forgotten.
const SWEEP_EVERY: u64 = 4096;

/// A rate: at most `limit` requests per `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed in one window.
    pub limit: u32,
    /// The window's length.
    pub window: Duration,
}

impl FromStr for Rate {
    type Err = String;

    /// Reads Weblate's syntax, `N/second`, `N/minute`, `N/hour` or `N/day`,
    /// where only the period's first letter counts (`100/d` is `100/day`).
    fn from_str(text: &str) -> Result<Rate, String> {
        let invalid =
            || format!("invalid rate {text:?}: expected N/second, N/minute, N/hour or N/day");
        let (limit, period) = text.trim().split_once('/').ok_or_else(invalid)?;
        let limit = limit.trim().parse().map_err(|_| invalid())?;
        let seconds = match period.trim().chars().next() {
            Some('s') => 1,
            Some('m') => 60,
            Some('h') => 3600,
            Some('d') => 86_400,
            _ => return Err(invalid()),
        };
        Ok(Rate {
            limit,
            window: Duration::from_secs(seconds),
        })
    }
}

/// The two throttles' rates; `None` turns a throttle off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Anonymous callers, per client address (Weblate: `100/day`).
    pub anon: Option<Rate>,
    /// Every caller, per user or anonymous client address (Weblate: `5000/hour`).
    pub user: Option<Rate>,
}

impl Default for RateLimits {
    /// Weblate's defaults.
    fn default() -> Self {
        RateLimits {
            anon: Some(Rate {
                limit: 100,
                window: Duration::from_secs(86_400),
            }),
            user: Some(Rate {
                limit: 5000,
                window: Duration::from_secs(3600),
            }),
        }
    }
}

/// Which throttle a window belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Scope {
    Anon,
    User,
}

/// What a throttle check decided, for the response headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The limit of the last throttle that ran.
    pub limit: u32,
    /// Requests left in its window after this one.
    pub remaining: u32,
    /// Seconds until the oldest request in its window leaves it.
    pub reset: u64,
    /// Seconds to wait when the request was refused.
    pub retry_after: Option<u64>,
}

/// The request history of every key, shared by all workers.
#[derive(Debug, Default)]
pub struct Throttle {
    limits: RateLimits,
    history: Mutex<HashMap<(Scope, String), VecDeque<Instant>>>,
    checks: AtomicU64,
}

/// How long until the oldest request of `times` leaves its window (the
/// whole window when there is none).
fn time_left(times: &VecDeque<Instant>, rate: &Rate, now: Instant) -> Duration {
    let oldest = times.front().copied().unwrap_or(now);
    rate.window
        .saturating_sub(now.saturating_duration_since(oldest))
}

/// Whole seconds, rounded up.
fn ceil_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

impl Throttle {
    /// A throttle with the given rates.
    pub fn new(limits: RateLimits) -> Throttle {
        Throttle {
            limits,
            ..Throttle::default()
        }
    }

    /// Counts a request by `subject` from `client` at `now`, unless a
    /// throttle's window is full; `None` when no throttle applies.
    pub fn check(&self, subject: &Subject, client: &str, now: Instant) -> Option<Verdict> {
        let mut scopes: Vec<((Scope, String), Rate)> = Vec::with_capacity(2);
        match subject {
            Subject::User { id, .. } => {
                scopes.extend(self.limits.user.map(|r| ((Scope::User, id.to_string()), r)));
            }
            Subject::Anonymous => {
                let by_address =
                    |scope, rate: Option<Rate>| rate.map(|r| ((scope, client.to_owned()), r));
                scopes.extend(by_address(Scope::User, self.limits.user));
                scopes.extend(by_address(Scope::Anon, self.limits.anon));
            }
            Subject::System => {}
        }
        let mut history = self.history.lock().unwrap_or_else(|e| e.into_inner());
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.forget_idle(&mut history, now);
        }
        // Every window is brought up to date first, so that a request one
        // throttle refuses is not counted by the other.
        let mut waits = Vec::new();
        for (key, rate) in &scopes {
            let times = history.entry(key.clone()).or_default();
            while times
                .front()
                .is_some_and(|t| now.saturating_duration_since(*t) >= rate.window)
            {
                times.pop_front();
            }
            if times.len() >= rate.limit as usize {
                waits.push(time_left(times, rate, now));
            }
        }
        let retry_after = waits.into_iter().max().map(ceil_seconds);
        if retry_after.is_none() {
            for (key, _) in &scopes {
                history.entry(key.clone()).or_default().push_back(now);
            }
        }
        let (key, rate) = scopes.last()?;
        let times = &history[key];
        Some(Verdict {
            limit: rate.limit,
            remaining: rate.limit.saturating_sub(times.len() as u32),
            reset: ceil_seconds(time_left(times, rate, now)),
            retry_after,
        })
    }

    /// Drops the keys whose windows hold no request any more, so that
    /// memory follows the callers of the last window, not all callers.
    fn forget_idle(&self, history: &mut HashMap<(Scope, String), VecDeque<Instant>>, now: Instant) {
        history.retain(|(scope, _), times| {
            let rate = match scope {
                Scope::Anon => self.limits.anon,
                Scope::User => self.limits.user,
            };
            let window = rate.map_or(Duration::ZERO, |r| r.window);
            times
                .back()
                .is_some_and(|last| now.saturating_duration_since(*last) < window)
        });
    }
}

/// The 429 error of a refused request.
fn throttled(wait: u64) -> ApiError {
    let unit = if wait == 1 { "second" } else { "seconds" };
    ApiError::Throttled(format!(
        "Request was throttled. Expected available in {wait} {unit}."
    ))
}

/// The middleware: authenticates the caller (kept for the [`Caller`]
/// extractor), applies the throttles to API paths and adds their headers.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let subject = match auth::authenticate(req.request()).await {
        Ok(subject) => subject,
        Err(error) => return Ok(req.into_response(error.error_response())),
    };
    req.extensions_mut().insert(Caller(subject.clone()));
    let verdict = if crate::negotiate::is_api_path(req.path()) {
        let client = req
            .peer_addr()
            .map_or_else(|| "unknown".to_owned(), |a| a.ip().to_string());
        req.app_data::<web::Data<AppState>>()
            .and_then(|state| state.throttle.check(&subject, &client, Instant::now()))
    } else {
        None
    };
    let mut response = match verdict.and_then(|v| v.retry_after) {
        Some(wait) => req.into_response(throttled(wait).error_response()),
        None => next.call(req).await?.map_into_boxed_body(),
    };
    if let Some(verdict) = verdict {
        let headers = response.headers_mut();
        let mut put = |name: &'static str, value: u64| {
            headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
        };
        put("x-ratelimit-limit", verdict.limit.into());
        put("x-ratelimit-remaining", verdict.remaining.into());
        put("x-ratelimit-reset", verdict.reset);
        if let Some(wait) = verdict.retry_after {
            headers.insert(RETRY_AFTER, HeaderValue::from(wait));
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(text: &str) -> Rate {
        text.parse().unwrap()
    }

    #[test]
    fn rates_read_like_weblate() {
        assert_eq!(
            rate("100/day"),
            Rate {
                limit: 100,
                window: Duration::from_secs(86_400)
            }
        );
        assert_eq!(rate("5000/hour").window, Duration::from_secs(3600));
        assert_eq!(rate(" 3/m ").window, Duration::from_secs(60));
        assert_eq!(rate("7/sec").limit, 7);
        for bad in ["100", "x/day", "100/week", "-1/day", "100/"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_full_window_refuses_until_its_oldest_request_leaves() {
        let throttle = Throttle::new(RateLimits {
            anon: Some(rate("2/minute")),
            user: Some(rate("3/hour")),
        });
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        let anonymous = |seconds| throttle.check(&Subject::Anonymous, "10.0.0.1", at(seconds));
        let first = anonymous(0).unwrap();
        assert_eq!((first.limit, first.remaining, first.reset), (2, 1, 60));
        assert_eq!(first.retry_after, None);
        assert_eq!(anonymous(10).unwrap().remaining, 0);
        let refused = anonymous(20).unwrap();
        assert_eq!((refused.remaining, refused.retry_after), (0, Some(40)));
        // The refused request was not counted: both left the window by 70 s.
        let again = anonymous(70).unwrap();
        assert_eq!((again.remaining, again.retry_after), (1, None));
        // The hourly user throttle (keyed by address) is full after three.
        let hourly = anonymous(200).unwrap();
        assert_eq!(hourly.retry_after, Some(3600 - 200));
        // Another address and a signed-in user have their own windows.
        assert_eq!(
            throttle
                .check(&Subject::Anonymous, "10.0.0.2", at(200))
                .unwrap()
                .remaining,
            1
        );
        let user = Subject::user(7, false);
        let signed_in = throttle.check(&user, "10.0.0.1", at(200)).unwrap();
        assert_eq!((signed_in.limit, signed_in.remaining), (3, 2));
        assert_eq!(throttle.check(&Subject::System, "", at(200)), None);
        // Keys are forgotten once their windows are empty.
        let mut history = throttle.history.lock().unwrap();
        throttle.forget_idle(&mut history, at(200 + 59));
        assert_eq!(history.len(), 4, "the minute windows at 200 s are not over");
        throttle.forget_idle(&mut history, at(200 + 3600));
        assert!(history.is_empty());
        drop(history);
        let off = Throttle::new(RateLimits {
            anon: None,
            user: None,
        });
        assert_eq!(off.check(&Subject::Anonymous, "10.0.0.1", at(0)), None);
    }
}
