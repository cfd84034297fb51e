//! Rate limiting as Weblate applies it to its API: a `user` throttle keyed
//! by the user (or the client address for anonymous callers) and an `anon`
//! throttle keyed by the client address that only anonymous callers meet.
//!
//! Each throttle is a generic cell rate algorithm (GCRA) per key: `limit`
//! requests may come at once, and capacity comes back at `limit` per
//! window. A key costs one point in time, and keys whose capacity is whole
//! again are forgotten, so memory follows the callers of the last window
//! (a window's log of every request, as Weblate keeps, grew by 30 MB for
//! 60,000 addresses). A request one throttle refuses is counted by none.
//!
//! Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
//! `X-RateLimit-Reset` (seconds until the whole limit is available again)
//! of the last throttle that ran (the anonymous one for anonymous
//! callers); a refused request is 429 with `Retry-After`.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue, RETRY_AFTER};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError, web};
use tolk_domain::permission::Subject;
use tolk_service::Service;
use tolk_service::rate_limits::RateKey;

use crate::caller::Caller;
use crate::client::Client;
use crate::error::ApiError;

/// How often (in checks) keys whose capacity is whole again are forgotten.
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

impl Scope {
    fn name(self) -> &'static str {
        match self {
            Scope::Anon => "anon",
            Scope::User => "user",
        }
    }

    /// The name of `key` of this throttle in the database, e.g. `user:7`.
    fn stored(self, key: &str) -> String {
        format!("{}:{key}", self.name())
    }
}

/// What a throttle check decided, for the response headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The limit of the throttle reported (the last that ran, or the one
    /// that refused).
    pub limit: u32,
    /// Requests left after this one.
    pub remaining: u32,
    /// Seconds until the whole limit is available again.
    pub reset: u64,
    /// Seconds to wait when the request was refused.
    pub retry_after: Option<u64>,
}

/// Where the state of the keys is kept: when each key's capacity is whole
/// again (GCRA's "theoretical arrival time"), as time since the epoch.
enum Counters {
    /// In this process (one instance: SQLite).
    Memory(Mutex<HashMap<(Scope, String), Duration>>),
    /// In the database, shared by every instance on it (PostgreSQL).
    Shared(Box<Shared>),
}

/// Counters in the database, and the requests this instance counted
/// there ahead of time for signed-in callers (see [`credit_block`]).
struct Shared {
    service: Service,
    credits: Mutex<HashMap<String, Credit>>,
}

/// Requests of one key counted in the database ahead of time.
#[derive(Debug, Clone, Copy)]
struct Credit {
    /// How many are left to use.
    left: u32,
    /// The key's time of whole capacity in the database after the block.
    full_at: i64,
    /// When the block was taken; unused requests lapse a second later
    /// (counted, never served: the limit errs on the strict side).
    taken: Duration,
}

/// How long counted-ahead requests may wait to be used.
const CREDIT_LIFE: Duration = Duration::from_secs(1);

/// How many requests of a signed-in caller's limit one database statement
/// counts ahead: one per 500 of the limit, 1 to 1,024. A limit of 5,000
/// an hour counts ten at a time, so nine requests in ten cost no
/// statement; limits under 1,000 stay exact, one statement each; a limit
/// of a million an hour or more counts 1,024 at a time, so a statement's
/// round trip (some 150 µs on PostgreSQL) weighs under 0.2 µs per
/// request. An instance's unused block lapses after a second: at most one
/// request in 500 of the limit (9 for 5,000 an hour) is then counted
/// without being served.
fn credit_block(rate: Rate) -> u32 {
    (rate.limit / 500).clamp(1, MAX_CREDIT_BLOCK)
}

/// The largest block of requests counted ahead at once.
const MAX_CREDIT_BLOCK: u32 = 1024;

/// The throttles, shared by all workers.
pub struct Throttle {
    limits: RateLimits,
    counters: Counters,
    checks: AtomicU64,
}

impl Default for Throttle {
    /// Weblate's rates, counted in memory.
    fn default() -> Self {
        Throttle::new(RateLimits::default())
    }
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.counters {
            Counters::Memory(_) => "memory",
            Counters::Shared(_) => "database",
        };
        f.debug_struct("Throttle")
            .field("limits", &self.limits)
            .field("counters", &kind)
            .finish()
    }
}

/// Whole seconds, rounded up.
fn ceil_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

impl Rate {
    /// The capacity one request uses up.
    fn interval(&self) -> Duration {
        self.window / self.limit.max(1)
    }

    /// How long a request must wait when `used` of the window is in use
    /// before it; `None` when it fits now.
    fn wait(&self, used: Duration) -> Option<Duration> {
        let after = used + self.interval();
        (after > self.window).then(|| after - self.window)
    }

    /// The headers' numbers after a request that found `used` of the
    /// window in use, counted or (with `retry_after`) refused.
    fn verdict(&self, used: Duration, retry_after: Option<u64>) -> Verdict {
        let (used, remaining) = if retry_after.is_some() {
            (used, 0)
        } else {
            let after = used + self.interval();
            let left = self.window.saturating_sub(after);
            (
                after,
                (left.as_nanos() / self.interval().as_nanos().max(1)) as u32,
            )
        };
        Verdict {
            limit: self.limit,
            remaining: remaining.min(self.limit),
            reset: ceil_seconds(used),
            retry_after,
        }
    }
}

/// What counting a request found: the window in use before it, per key
/// looked at, and the key that refused it, if one did.
type Count = (Vec<Duration>, Option<usize>);

impl Throttle {
    /// Throttles with the given rates, counting in this process's memory.
    pub fn new(limits: RateLimits) -> Throttle {
        Throttle {
            limits,
            counters: Counters::Memory(Mutex::default()),
            checks: AtomicU64::new(0),
        }
    }

    /// Throttles whose counters are kept in `service`'s database, shared
    /// by every instance on it.
    pub fn shared(limits: RateLimits, service: Service) -> Throttle {
        Throttle {
            limits,
            counters: Counters::Shared(Box::new(Shared {
                service,
                credits: Mutex::default(),
            })),
            checks: AtomicU64::new(0),
        }
    }

    /// The keys a request by `subject` from `client` counts against, in order.
    fn keys(&self, subject: &Subject, client: &str) -> Vec<((Scope, String), Rate)> {
        let mut keys = Vec::with_capacity(2);
        match subject {
            Subject::User { id, .. } => {
                keys.extend(self.limits.user.map(|r| ((Scope::User, id.to_string()), r)));
            }
            Subject::Anonymous { .. } => {
                let by_address =
                    |scope, rate: Option<Rate>| rate.map(|r| ((scope, client.to_owned()), r));
                keys.extend(by_address(Scope::User, self.limits.user));
                keys.extend(by_address(Scope::Anon, self.limits.anon));
            }
            Subject::System => {}
        }
        keys
    }

    /// Counts a request by `subject` from `client` at `now` (time since
    /// the epoch), unless a throttle refuses it; `None` when no throttle
    /// applies.
    pub fn check(
        &self,
        subject: &Subject,
        client: &str,
        now: Duration,
    ) -> Result<Option<Verdict>, ApiError> {
        let keys = self.keys(subject, client);
        if keys.is_empty() {
            return Ok(None);
        }
        let sweep = self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1;
        let (used, refused_by) = match &self.counters {
            Counters::Memory(full_at) => count_in_memory(full_at, &keys, now, sweep),
            Counters::Shared(shared) => shared.count(&keys, now, sweep)?,
        };
        Ok(Some(verdict(&keys, &used, refused_by)))
    }

    /// [`Throttle::check`] when it needs no database: in memory, or with
    /// a request counted ahead; `None` when the database must be asked.
    pub fn check_now(
        &self,
        subject: &Subject,
        client: &str,
        now: Duration,
    ) -> Option<Option<Verdict>> {
        match &self.counters {
            Counters::Memory(_) => self.check(subject, client, now).ok(),
            Counters::Shared(shared) => {
                let keys = self.keys(subject, client);
                match keys.as_slice() {
                    [] => Some(None),
                    [((scope, key), rate)] => {
                        let used = shared.use_credit(&scope.stored(key), *rate, now)?;
                        Some(Some(verdict(&keys, &[used], None)))
                    }
                    _ => None,
                }
            }
        }
    }

    /// Number of keys remembered in memory.
    #[cfg(test)]
    fn keys_remembered(&self) -> usize {
        match &self.counters {
            Counters::Memory(full_at) => full_at.lock().map(|m| m.len()).unwrap_or(0),
            Counters::Shared(_) => 0,
        }
    }
}

/// The headers' numbers of a request counted (or refused by key
/// `refused_by`) against `keys`, which had `used` of their windows in use.
fn verdict(
    keys: &[((Scope, String), Rate)],
    used: &[Duration],
    refused_by: Option<usize>,
) -> Verdict {
    match refused_by {
        Some(i) => {
            let rate = keys[i].1;
            let wait = rate.wait(used[i]).map(ceil_seconds).unwrap_or(1);
            rate.verdict(used[i], Some(wait))
        }
        None => {
            let last = keys.len() - 1;
            keys[last].1.verdict(used[last], None)
        }
    }
}

/// Counts a request against `keys` in this process's memory: all of them,
/// or none when one refuses it.
fn count_in_memory(
    full_at: &Mutex<HashMap<(Scope, String), Duration>>,
    keys: &[((Scope, String), Rate)],
    now: Duration,
    sweep: bool,
) -> Count {
    let mut full_at = full_at.lock().unwrap_or_else(|e| e.into_inner());
    if sweep {
        full_at.retain(|_, at| *at > now);
    }
    let mut used = Vec::with_capacity(keys.len());
    for (i, (key, rate)) in keys.iter().enumerate() {
        let before = full_at
            .get(key)
            .map_or(Duration::ZERO, |at| at.saturating_sub(now));
        used.push(before);
        if rate.wait(before).is_some() {
            return (used, Some(i));
        }
    }
    for ((key, rate), before) in keys.iter().zip(&used) {
        full_at.insert(key.clone(), now + *before + rate.interval());
    }
    (used, None)
}

fn micros(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

impl Shared {
    /// Counts a request against `keys` in the database, shared by every
    /// instance on it: all of them, or none when one refuses it. A lone
    /// key (a signed-in caller) uses requests counted ahead when it has
    /// some, else counts a block ahead while it fits, else one.
    fn count(
        &self,
        keys: &[((Scope, String), Rate)],
        now: Duration,
        sweep: bool,
    ) -> Result<Count, ApiError> {
        let now_us = micros(now);
        if sweep {
            self.service.rate_limits().sweep(now_us)?;
            self.credits
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|_, c| now.saturating_sub(c.taken) <= CREDIT_LIFE);
        }
        let names: Vec<String> = keys
            .iter()
            .map(|((scope, key), _)| scope.stored(key))
            .collect();
        if let [(_, rate)] = keys {
            if let Some(used) = self.use_credit(&names[0], *rate, now) {
                return Ok((vec![used], None));
            }
            let block = credit_block(*rate);
            if block > 1 {
                let key = RateKey {
                    key: names[0].clone(),
                    interval: micros(rate.interval()) * i64::from(block),
                    window: micros(rate.window),
                };
                let count = self.service.rate_limits().count(&[key], now_us)?;
                if count.refused_by.is_none() {
                    let used = count.used_before[0];
                    let full_at = now_us + used + micros(rate.interval()) * i64::from(block);
                    let mut credits = self.credits.lock().unwrap_or_else(|e| e.into_inner());
                    let credit = credits.entry(names[0].clone()).or_insert(Credit {
                        left: 0,
                        full_at,
                        taken: now,
                    });
                    // Blocks taken at once by several threads add up: they
                    // lie back to back before the latest time in the database.
                    credit.left += block - 1;
                    credit.full_at = credit.full_at.max(full_at);
                    credit.taken = now;
                    return Ok((vec![duration_of(used)], None));
                }
            }
        }
        let rate_keys: Vec<RateKey> = keys
            .iter()
            .zip(names)
            .map(|((_, rate), key)| RateKey {
                key,
                interval: micros(rate.interval()),
                window: micros(rate.window),
            })
            .collect();
        let count = self.service.rate_limits().count(&rate_keys, now_us)?;
        let used = count
            .used_before
            .iter()
            .map(|us| duration_of(*us))
            .collect();
        Ok((used, count.refused_by))
    }

    /// Uses one request counted ahead for `key`; how much of the window
    /// was in use before it, or `None` when none is left.
    fn use_credit(&self, key: &str, rate: Rate, now: Duration) -> Option<Duration> {
        let mut credits = self.credits.lock().unwrap_or_else(|e| e.into_inner());
        let credit = credits.get_mut(key)?;
        if credit.left == 0 || now.saturating_sub(credit.taken) > CREDIT_LIFE {
            credits.remove(key);
            return None;
        }
        let used = credit.full_at - i64::from(credit.left) * micros(rate.interval()) - micros(now);
        credit.left -= 1;
        Some(duration_of(used))
    }
}

/// Microseconds as a duration; negative ones as zero.
fn duration_of(micros: i64) -> Duration {
    Duration::from_micros(u64::try_from(micros).unwrap_or(0))
}

/// The 429 error of a refused request.
fn throttled(wait: u64) -> ApiError {
    let unit = if wait == 1 { "second" } else { "seconds" };
    ApiError::Throttled(format!(
        "Request was throttled. Expected available in {wait} {unit}."
    ))
}

/// The middleware: applies the throttles to API paths, keyed by the
/// caller the `identify` middleware found and the client's address, and
/// adds their headers.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let subject = req.extensions().get::<Caller>().map(|c| c.0.clone());
    let throttle = req.app_data::<web::Data<Throttle>>().cloned();
    let verdict = match (subject, throttle) {
        (Some(subject), Some(throttle)) if crate::negotiate::is_api_path(req.path()) => {
            let client = Client::of(req.request()).address;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            match throttle.check_now(&subject, &client, now) {
                Some(verdict) => verdict,
                None => web::block(move || throttle.check(&subject, &client, now)).await??,
            }
        }
        _ => None,
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
    fn a_spent_limit_refuses_until_capacity_comes_back() {
        let throttle = Throttle::new(RateLimits {
            anon: Some(rate("2/minute")),
            user: Some(rate("3/hour")),
        });
        let at = |seconds: u64| Duration::from_secs(1_000_000 + seconds);
        let anonymous = |seconds| {
            throttle
                .check(&Subject::anonymous(vec![]), "10.0.0.1", at(seconds))
                .unwrap()
        };
        let first = anonymous(0).unwrap();
        assert_eq!((first.limit, first.remaining, first.reset), (2, 1, 30));
        assert_eq!(first.retry_after, None);
        let second = anonymous(10).unwrap();
        assert_eq!((second.remaining, second.reset), (0, 50));
        // Full: one request's capacity (30 s) comes back at 30 s.
        let refused = anonymous(20).unwrap();
        assert_eq!((refused.remaining, refused.retry_after), (0, Some(10)));
        // The refused request was counted by neither throttle.
        let again = anonymous(31).unwrap();
        assert_eq!((again.remaining, again.retry_after), (0, None));
        // The hourly user throttle (keyed by address) is spent after three.
        let hourly = anonymous(200).unwrap();
        assert_eq!(hourly.retry_after, Some(1200 - 200));
        // Another address and a signed-in user have their own state.
        assert_eq!(
            throttle
                .check(&Subject::anonymous(vec![]), "10.0.0.2", at(200))
                .unwrap()
                .unwrap()
                .remaining,
            1
        );
        let user = Subject::user(7, false);
        let signed_in = throttle.check(&user, "10.0.0.1", at(200)).unwrap().unwrap();
        assert_eq!((signed_in.limit, signed_in.remaining), (3, 2));
        assert_eq!(throttle.check(&Subject::System, "", at(200)).unwrap(), None);
        let off = Throttle::new(RateLimits {
            anon: None,
            user: None,
        });
        assert_eq!(
            off.check(&Subject::anonymous(vec![]), "10.0.0.1", at(0))
                .unwrap(),
            None
        );
    }

    #[test]
    fn memory_follows_the_callers_of_the_last_window() {
        let throttle = Throttle::new(RateLimits {
            anon: Some(rate("100/minute")),
            user: None,
        });
        let start = Duration::from_secs(1_000_000);
        for address in 0..(2 * SWEEP_EVERY) {
            throttle
                .check(
                    &Subject::anonymous(vec![]),
                    &format!("10.1.{address}"),
                    start,
                )
                .unwrap();
        }
        assert_eq!(throttle.keys_remembered() as u64, 2 * SWEEP_EVERY);
        // A minute later every key has its whole capacity back: the next
        // sweep forgets them all.
        let later = start + Duration::from_secs(61);
        for address in 0..SWEEP_EVERY {
            throttle
                .check(
                    &Subject::anonymous(vec![]),
                    &format!("10.2.{address}"),
                    later,
                )
                .unwrap();
        }
        assert!(
            throttle.keys_remembered() as u64 <= SWEEP_EVERY,
            "{}",
            throttle.keys_remembered()
        );
    }
}
