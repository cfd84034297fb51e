//! The task queue's rows on every configured backend: claims in order,
//! leases that lapse and are taken over, a lost claim that changes
//! nothing, retries that wait, waiting duplicates that are one task, and
//! concurrent claims that never hand one task to two workers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use chrono::{Duration, NaiveDateTime};
use tolk_store::tasks::{self, NewTask, Outcome};
use tolk_store::testing::TestDb;
use tolk_store::{DbConnection, StoreResult, time};

fn task(id: &str, priority: i32, at: NaiveDateTime, key: Option<&str>) -> NewTask {
    NewTask {
        id: id.into(),
        kind: "pull".into(),
        payload: "{}".into(),
        priority,
        run_after: at,
        user_id: None,
        project_id: None,
        component_id: None,
        created: at,
        updated: at,
        dedup_key: key.map(str::to_owned),
    }
}

fn write<T>(db: &TestDb, f: impl FnOnce(&mut DbConnection) -> StoreResult<T>) -> T {
    db.store.write(|c| f(c)).unwrap()
}

fn claim(db: &TestDb, worker: &str, now: NaiveDateTime) -> Option<String> {
    let kind = db.store.kind();
    write(db, |c| {
        tasks::claim(c, kind, worker, now, now + Duration::seconds(45))
    })
    .map(|t| t.id)
}

#[test]
fn claims_go_by_priority_then_age_and_skip_what_is_not_due() {
    for db in TestDb::all() {
        let t0 = time::now();
        write(&db, |c| tasks::enqueue(c, &task("old", 0, t0, None)));
        write(&db, |c| {
            tasks::enqueue(c, &task("new", 0, t0 + Duration::seconds(1), None))
        });
        write(&db, |c| {
            tasks::enqueue(c, &task("urgent", 5, t0 + Duration::seconds(2), None))
        });
        write(&db, |c| {
            tasks::enqueue(c, &task("later", 9, t0 + Duration::hours(1), None))
        });
        let now = t0 + Duration::seconds(3);
        let order: Vec<Option<String>> =
            (0..4).map(|n| claim(&db, &format!("w{n}"), now)).collect();
        assert_eq!(
            order,
            [
                Some("urgent".into()),
                Some("old".into()),
                Some("new".into()),
                None
            ]
        );
        let row = db.store.read(|c| tasks::get(c, "old")).unwrap().unwrap();
        assert_eq!(row.claimed_by.as_deref(), Some("w1"));
        assert_eq!(row.attempts, 1);
        assert_eq!(row.lease_until, Some(now + Duration::seconds(45)));
    }
}

#[test]
fn a_lapsed_lease_is_taken_over_and_the_first_worker_changes_nothing() {
    for db in TestDb::all() {
        let t0 = time::now();
        write(&db, |c| tasks::enqueue(c, &task("t", 0, t0, None)));
        assert_eq!(claim(&db, "a", t0).as_deref(), Some("t"));
        // While the lease holds, and after a renewal, nobody else gets it.
        assert_eq!(claim(&db, "b", t0 + Duration::seconds(30)), None);
        assert!(write(&db, |c| tasks::renew(
            c,
            "t",
            "a",
            t0 + Duration::seconds(75)
        )));
        assert_eq!(claim(&db, "b", t0 + Duration::seconds(60)), None);
        // Once it lapses (worker a stopped renewing), b takes over.
        assert_eq!(
            claim(&db, "b", t0 + Duration::seconds(76)).as_deref(),
            Some("t")
        );
        let at = t0 + Duration::seconds(80);
        assert!(!write(&db, |c| tasks::renew(c, "t", "a", at)));
        assert!(!write(&db, |c| tasks::report(
            c, "t", "a", 50, "a's log", at
        )));
        let a_done = Outcome::Finished {
            result: "\"a\"",
            failed: false,
        };
        assert!(!write(&db, |c| tasks::finish(c, "t", "a", a_done, "a", at)));
        let b_done = Outcome::Finished {
            result: "\"b\"",
            failed: false,
        };
        assert!(write(&db, |c| tasks::finish(c, "t", "b", b_done, "b", at)));
        let row = db.store.read(|c| tasks::get(c, "t")).unwrap().unwrap();
        assert_eq!(
            (
                row.completed,
                row.failed,
                row.attempts,
                row.result.as_deref(),
                row.log.as_str()
            ),
            (true, false, 2, Some("\"b\""), "b")
        );
        assert_eq!(claim(&db, "c", at + Duration::hours(1)), None);
    }
}

#[test]
fn a_retry_waits_and_a_final_failure_is_kept() {
    for db in TestDb::all() {
        let t0 = time::now();
        write(&db, |c| tasks::enqueue(c, &task("t", 0, t0, None)));
        claim(&db, "a", t0).unwrap();
        let again = t0 + Duration::seconds(10);
        let retry = Outcome::Retry { run_after: again };
        assert!(write(&db, |c| tasks::finish(
            c,
            "t",
            "a",
            retry,
            "attempt 1 failed",
            t0
        )));
        assert_eq!(claim(&db, "b", t0 + Duration::seconds(9)), None);
        assert_eq!(claim(&db, "b", again).as_deref(), Some("t"));
        let failed = Outcome::Finished {
            result: "\"unreachable\"",
            failed: true,
        };
        assert!(write(&db, |c| tasks::finish(
            c, "t", "b", failed, "gave up", again
        )));
        let row = db.store.read(|c| tasks::get(c, "t")).unwrap().unwrap();
        assert_eq!(
            (row.completed, row.failed, row.attempts, row.progress),
            (true, true, 2, 100)
        );
        assert_eq!(row.result.as_deref(), Some("\"unreachable\""));
    }
}

#[test]
fn waiting_duplicates_are_one_task_until_it_is_claimed() {
    for db in TestDb::all() {
        let t0 = time::now();
        let first = write(&db, |c| {
            tasks::enqueue(c, &task("p1", 0, t0, Some("pull:7")))
        });
        let second = write(&db, |c| {
            tasks::enqueue(c, &task("p2", 0, t0, Some("pull:7")))
        });
        let later = t0 + Duration::milliseconds(1);
        let other = write(&db, |c| {
            tasks::enqueue(c, &task("p3", 0, later, Some("pull:8")))
        });
        assert_eq!(
            (first.as_str(), second.as_str(), other.as_str()),
            ("p1", "p1", "p3")
        );
        assert_eq!(claim(&db, "a", later).as_deref(), Some("p1"));
        // Running now: a new notification must pull again afterwards.
        let third = write(&db, |c| {
            tasks::enqueue(c, &task("p4", 0, t0, Some("pull:7")))
        });
        assert_eq!(third, "p4");
        assert!(db.store.read(|c| tasks::get(c, "p2")).unwrap().is_none());
    }
}

#[test]
fn released_claims_are_free_at_once() {
    for db in TestDb::all() {
        let t0 = time::now();
        for (n, id) in ["t1", "t2", "t3"].into_iter().enumerate() {
            let at = t0 + Duration::milliseconds(n as i64);
            write(&db, |c| tasks::enqueue(c, &task(id, 0, at, None)));
        }
        let t0 = t0 + Duration::seconds(1);
        assert_eq!(claim(&db, "host/100/0", t0).as_deref(), Some("t1"));
        assert_eq!(claim(&db, "elsewhere/5/0", t0).as_deref(), Some("t2"));
        assert_eq!(claim(&db, "host/100/1", t0).as_deref(), Some("t3"));
        let mut found = db.store.read(|c| tasks::claimants(c, "host/")).unwrap();
        found.sort();
        assert_eq!(found, ["host/100/0", "host/100/1"]);
        let released = write(&db, |c| tasks::release(c, &found, t0));
        assert_eq!(released, 2);
        let now = t0 + Duration::seconds(1);
        let mut taken = vec![
            claim(&db, "x", now),
            claim(&db, "y", now),
            claim(&db, "z", now),
        ];
        taken.sort();
        assert_eq!(taken, [None, Some("t1".into()), Some("t3".into())]);
    }
}

#[test]
fn concurrent_claims_hand_each_task_to_one_worker() {
    for db in TestDb::all() {
        let t0 = time::now();
        for n in 0..40 {
            write(&db, |c| {
                tasks::enqueue(c, &task(&format!("t{n:02}"), 0, t0, None))
            });
        }
        let claimed: Vec<String> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|w| {
                    let db = &db;
                    scope.spawn(move || {
                        let mut mine = Vec::new();
                        while let Some(id) = claim(db, &format!("w{w}"), time::now()) {
                            mine.push(id);
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap())
                .collect()
        });
        let mut sorted = claimed.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 40, "each task claimed once: {claimed:?}");
        assert_eq!(claimed.len(), 40);
    }
}
