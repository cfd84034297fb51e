//! The rate limits counted in the database behave as those counted in
//! memory, and two instances on one database share them: requests sent
//! to either count against one limit, even when they race.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::time::Duration;

use tolk_api::{Rate, RateLimits, Throttle};
use tolk_domain::permission::Subject;
use tolk_service::testing::TestDb;
use tolk_service::{Service, ServiceConfig};

fn limits(anon: &str, user: &str) -> RateLimits {
    RateLimits {
        anon: Some(anon.parse::<Rate>().unwrap()),
        user: Some(user.parse::<Rate>().unwrap()),
    }
}

/// Two servers' services on one database.
fn instances(db: &TestDb) -> (Service, Service) {
    let open = || Service::new(db.store.clone(), ServiceConfig::default()).unwrap();
    (open(), open())
}

/// Anonymous requests from one address at `seconds`, alternating between
/// the throttles given: (remaining, reset, retry_after) of each.
fn walk(throttles: &[&Throttle]) -> Vec<(u32, u64, Option<u64>)> {
    let at = |seconds: u64| Duration::from_secs(2_000_000 + seconds);
    [0, 10, 20, 31, 200]
        .iter()
        .enumerate()
        .map(|(i, seconds)| {
            let throttle = throttles[i % throttles.len()];
            let v = throttle
                .check(&Subject::anonymous(vec![]), "10.9.0.1", at(*seconds))
                .unwrap()
                .unwrap();
            (v.remaining, v.reset, v.retry_after)
        })
        .collect()
}

#[test]
fn shared_counters_answer_as_memory_does_across_instances() {
    let memory = Throttle::new(limits("2/minute", "3/hour"));
    let expected = walk(&[&memory]);
    assert_eq!(
        expected,
        [
            (1, 30, None),
            (0, 50, None),
            (0, 40, Some(10)),
            (0, 59, None),
            (0, 3400, Some(1000))
        ]
    );
    for db in TestDb::all() {
        let (a, b) = instances(&db);
        let first = Throttle::shared(limits("2/minute", "3/hour"), a);
        let second = Throttle::shared(limits("2/minute", "3/hour"), b);
        assert_eq!(walk(&[&first, &second]), expected);
    }
}

#[test]
fn racing_instances_never_exceed_a_shared_limit() {
    for db in TestDb::all() {
        let (a, b) = instances(&db);
        let throttles = [
            Throttle::shared(limits("1000/hour", "50/hour"), a),
            Throttle::shared(limits("1000/hour", "50/hour"), b),
        ];
        let user = Subject::user(42, false);
        let now = Duration::from_secs(3_000_000);
        let accepted: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..8)
                .map(|n| {
                    let throttle = &throttles[n % 2];
                    let user = &user;
                    scope.spawn(move || {
                        (0..20)
                            .filter(|_| {
                                let v = throttle.check(user, "", now).unwrap().unwrap();
                                v.retry_after.is_none()
                            })
                            .count()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert_eq!(accepted, 50, "160 requests, a limit of 50");
    }
}

#[test]
fn large_limits_are_counted_ahead_but_never_overrun() {
    for db in TestDb::all() {
        let (a, b) = instances(&db);
        // 5,000 an hour: ten requests counted per statement.
        let throttles = [
            Throttle::shared(limits("100/day", "5000/hour"), a),
            Throttle::shared(limits("100/day", "5000/hour"), b),
        ];
        let user = Subject::user(7, false);
        let now = Duration::from_secs(4_000_000);
        let remaining: Vec<u32> = (0..7)
            .map(|_| {
                throttles[0]
                    .check(&user, "", now)
                    .unwrap()
                    .unwrap()
                    .remaining
            })
            .collect();
        assert_eq!(remaining, [4999, 4998, 4997, 4996, 4995, 4994, 4993]);
        let accepted: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..8)
                .map(|n| {
                    let throttle = &throttles[n % 2];
                    let user = &user;
                    scope.spawn(move || {
                        (0..700)
                            .filter(|_| {
                                throttle
                                    .check(user, "", now)
                                    .unwrap()
                                    .unwrap()
                                    .retry_after
                                    .is_none()
                            })
                            .count()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        // 7 before, 5,600 sent: never past 5,000, and at most the unused
        // part of each instance's last block (9) short of it.
        let served = accepted + 7;
        assert!((4982..=5000).contains(&served), "{served}");
    }
}
