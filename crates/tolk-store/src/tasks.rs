//! The background task queue: rows that workers claim, run, report
//! progress on and finish. A claim is a lease (`lease_until`) that the
//! running worker renews; when it lapses (the worker's process died) any
//! worker may take the task over. Every change a worker makes to its task
//! names the worker, so a worker that lost its lease changes nothing. On
//! PostgreSQL several instances claim safely (`FOR UPDATE SKIP LOCKED`);
//! on SQLite writes are serialised anyway.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};

use crate::error::StoreResult;
use crate::schema::tasks;
use crate::{BackendKind, DbConnection};

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = tasks)]
pub struct TaskRow {
    /// UUID.
    pub id: String,
    /// What the task does.
    pub kind: String,
    /// Its typed payload, as JSON.
    pub payload: String,
    /// Higher runs first.
    pub priority: i32,
    /// Times a worker claimed it.
    pub attempts: i32,
    /// Not to run before.
    pub run_after: NaiveDateTime,
    /// The worker running it.
    pub claimed_by: Option<String>,
    /// When that worker claimed it.
    pub claimed_at: Option<NaiveDateTime>,
    /// Who started it.
    pub user_id: Option<i64>,
    /// The project it works on.
    pub project_id: Option<i64>,
    /// The component it works on.
    pub component_id: Option<i64>,
    /// Finished, successfully or not.
    pub completed: bool,
    /// Percent done.
    pub progress: i32,
    /// What it returned, as JSON.
    pub result: Option<String>,
    /// Its log, one line per entry.
    pub log: String,
    /// When it was queued.
    pub created: NaiveDateTime,
    /// When it last reported.
    pub updated: NaiveDateTime,
    /// Until when its worker's claim holds.
    pub lease_until: Option<NaiveDateTime>,
    /// Finished with a failure, for good.
    pub failed: bool,
    /// Tasks with the same key do the same work.
    pub dedup_key: Option<String>,
    /// Its cancellation was asked.
    pub cancelled: bool,
}

/// A task to queue.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = tasks)]
#[allow(missing_docs)]
pub struct NewTask {
    pub id: String,
    pub kind: String,
    pub payload: String,
    pub priority: i32,
    pub run_after: NaiveDateTime,
    pub user_id: Option<i64>,
    pub project_id: Option<i64>,
    pub component_id: Option<i64>,
    pub created: NaiveDateTime,
    pub updated: NaiveDateTime,
    pub dedup_key: Option<String>,
}

/// Queues a task; the id of the task that will do its work: the new one,
/// or, when a task with the same `dedup_key` waits unclaimed, that one
/// (the database keeps at most one such task per key).
pub fn enqueue(conn: &mut DbConnection, task: &NewTask) -> StoreResult<String> {
    loop {
        let inserted = crate::with_backend!(conn, |c| diesel::insert_into(tasks::table)
            .values(task)
            .on_conflict_do_nothing()
            .execute(c))?;
        let Some(key) = task.dedup_key.as_deref().filter(|_| inserted == 0) else {
            return Ok(task.id.clone());
        };
        let waiting: Option<String> = tasks::table
            .filter(tasks::dedup_key.eq(key))
            .filter(diesel::dsl::not(tasks::completed))
            .filter(tasks::attempts.eq(0))
            .select(tasks::id)
            .first(conn)
            .optional()?;
        if let Some(id) = waiting {
            return Ok(id);
        }
        // Claimed between the insert and the look: insert again.
    }
}

/// A task by id.
pub fn get(conn: &mut DbConnection, id: &str) -> StoreResult<Option<TaskRow>> {
    Ok(tasks::table
        .find(id)
        .select(TaskRow::as_select())
        .first(conn)
        .optional()?)
}

/// The claim of a task by a worker (`$1`) at `$2` until `$3`.
const CLAIM: &str = "UPDATE tasks SET claimed_by = $1, claimed_at = $2, lease_until = $3, \
                     attempts = attempts + 1, updated = $2";
/// A task that may be claimed at `$2`: unfinished, due, and unclaimed or
/// with a lapsed lease.
const CLAIMABLE: &str = "NOT completed AND run_after <= $2 \
                         AND (claimed_by IS NULL OR lease_until IS NULL OR lease_until < $2)";

/// The tasks among `ids` that exist, in no particular order.
pub fn get_many(conn: &mut DbConnection, ids: &[String]) -> StoreResult<Vec<TaskRow>> {
    Ok(tasks::table
        .filter(tasks::id.eq_any(ids))
        .select(TaskRow::as_select())
        .load(conn)?)
}

/// Claims the next due task for `worker` until `lease_until`: unfinished,
/// due by `now`, and unclaimed or with a lapsed lease. Highest priority
/// first, then oldest.
pub fn claim(
    conn: &mut DbConnection,
    kind: BackendKind,
    worker: &str,
    now: NaiveDateTime,
    lease_until: NaiveDateTime,
) -> StoreResult<Option<TaskRow>> {
    let lock = match kind {
        BackendKind::Postgres => " FOR UPDATE SKIP LOCKED",
        BackendKind::Sqlite => "",
    };
    let sql = format!(
        "{CLAIM} WHERE id = (SELECT id FROM tasks WHERE {CLAIMABLE} \
         ORDER BY priority DESC, run_after, created LIMIT 1{lock}) RETURNING *"
    );
    Ok(diesel::sql_query(sql)
        .bind::<Text, _>(worker)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(lease_until)
        .get_result::<TaskRow>(conn)
        .optional()?)
}

/// The oldest of the tasks `ids` that may be claimed at `now` (see
/// `CLAIMABLE`), to claim with [`claim_id`].
pub fn next_claimable(
    conn: &mut DbConnection,
    ids: &[String],
    now: NaiveDateTime,
) -> StoreResult<Option<String>> {
    Ok(tasks::table
        .filter(tasks::id.eq_any(ids))
        .filter(diesel::dsl::not(tasks::completed))
        .filter(tasks::run_after.le(now))
        .filter(
            tasks::claimed_by
                .is_null()
                .or(tasks::lease_until.is_null())
                .or(tasks::lease_until.lt(now)),
        )
        .order(tasks::created)
        .select(tasks::id)
        .first(conn)
        .optional()?)
}

/// Claims the task `id` for `worker` until `lease_until` if it may be
/// claimed now, as [`claim`] would.
pub fn claim_id(
    conn: &mut DbConnection,
    id: &str,
    worker: &str,
    now: NaiveDateTime,
    lease_until: NaiveDateTime,
) -> StoreResult<Option<TaskRow>> {
    let sql = format!("{CLAIM} WHERE id = $4 AND {CLAIMABLE} RETURNING *");
    Ok(diesel::sql_query(sql)
        .bind::<Text, _>(worker)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(lease_until)
        .bind::<Text, _>(id)
        .get_result::<TaskRow>(conn)
        .optional()?)
}

/// The rows a worker may change: its task, while it holds the claim.
macro_rules! held {
    ($id:expr, $worker:expr) => {
        tasks::table
            .filter(tasks::id.eq($id))
            .filter(tasks::claimed_by.eq($worker))
            .filter(diesel::dsl::not(tasks::completed))
    };
}

/// Extends `worker`'s lease on a task; false when the claim was lost.
pub fn renew(
    conn: &mut DbConnection,
    id: &str,
    worker: &str,
    lease_until: NaiveDateTime,
) -> StoreResult<bool> {
    let n = diesel::update(held!(id, worker))
        .set(tasks::lease_until.eq(Some(lease_until)))
        .execute(conn)?;
    Ok(n > 0)
}

/// Records progress and the log so far; false when the claim was lost.
pub fn report(
    conn: &mut DbConnection,
    id: &str,
    worker: &str,
    progress: i32,
    log: &str,
    at: NaiveDateTime,
) -> StoreResult<bool> {
    let n = diesel::update(held!(id, worker))
        .set((
            tasks::progress.eq(progress),
            tasks::log.eq(log),
            tasks::updated.eq(at),
        ))
        .execute(conn)?;
    Ok(n > 0)
}

/// How a claimed task ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome<'a> {
    /// Done (successfully, or failed for good with `failed`): its result as JSON.
    Finished {
        /// The result.
        result: &'a str,
        /// Whether it failed.
        failed: bool,
    },
    /// Failed for now: runs again, not before `run_after`.
    Retry {
        /// When it may run again.
        run_after: NaiveDateTime,
    },
}

/// Ends `worker`'s run of a task with its log; false when the claim was
/// lost (another worker took the task over, and its outcome counts).
pub fn finish(
    conn: &mut DbConnection,
    id: &str,
    worker: &str,
    outcome: Outcome<'_>,
    log: &str,
    at: NaiveDateTime,
) -> StoreResult<bool> {
    let n = match outcome {
        Outcome::Finished { result, failed } => diesel::update(held!(id, worker))
            .set((
                tasks::completed.eq(true),
                tasks::failed.eq(failed),
                tasks::progress.eq(100),
                tasks::result.eq(Some(result)),
                tasks::log.eq(log),
                tasks::claimed_by.eq(None::<String>),
                tasks::lease_until.eq(None::<NaiveDateTime>),
                tasks::updated.eq(at),
            ))
            .execute(conn)?,
        Outcome::Retry { run_after } => diesel::update(held!(id, worker))
            .set((
                tasks::run_after.eq(run_after),
                tasks::log.eq(log),
                tasks::claimed_by.eq(None::<String>),
                tasks::lease_until.eq(None::<NaiveDateTime>),
                tasks::updated.eq(at),
            ))
            .execute(conn)?,
    };
    Ok(n > 0)
}

/// The result a cancelled task ends with.
pub const CANCELLED: &str = "\"Task cancelled.\"";

/// What asking to cancel a task did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancellation {
    /// It was waiting: it ended, failed with [`CANCELLED`].
    Ended,
    /// It runs: its worker is told at its next report.
    Asked,
    /// It had finished already: nothing changed.
    Finished,
}

/// Cancels the task `id` (which must exist): ends it if no worker holds
/// it, else marks it for its worker to see.
pub fn cancel(conn: &mut DbConnection, id: &str, at: NaiveDateTime) -> StoreResult<Cancellation> {
    let ended = diesel::update(
        tasks::table
            .filter(tasks::id.eq(id))
            .filter(diesel::dsl::not(tasks::completed))
            .filter(tasks::claimed_by.is_null()),
    )
    .set((
        tasks::completed.eq(true),
        tasks::failed.eq(true),
        tasks::cancelled.eq(true),
        tasks::progress.eq(100),
        tasks::result.eq(Some(CANCELLED)),
        tasks::updated.eq(at),
    ))
    .execute(conn)?;
    if ended > 0 {
        return Ok(Cancellation::Ended);
    }
    let asked = diesel::update(
        tasks::table
            .filter(tasks::id.eq(id))
            .filter(diesel::dsl::not(tasks::completed)),
    )
    .set((tasks::cancelled.eq(true), tasks::updated.eq(at)))
    .execute(conn)?;
    Ok(if asked > 0 {
        Cancellation::Asked
    } else {
        Cancellation::Finished
    })
}

/// Whether the cancellation of the task `id` was asked.
pub fn is_cancelled(conn: &mut DbConnection, id: &str) -> StoreResult<bool> {
    Ok(tasks::table
        .find(id)
        .select(tasks::cancelled)
        .first::<bool>(conn)
        .optional()?
        .unwrap_or(false))
}

/// How many tasks are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskCounts {
    /// Waiting for a worker.
    pub queued: i64,
    /// Claimed by a worker, not finished.
    pub running: i64,
    /// Finished with a failure.
    pub failed: i64,
}

/// How many tasks wait, run and failed; two statements.
pub fn counts(conn: &mut DbConnection) -> StoreResult<TaskCounts> {
    let unfinished: Vec<bool> = tasks::table
        .filter(diesel::dsl::not(tasks::completed))
        .select(tasks::claimed_by.is_not_null())
        .load(conn)?;
    let running = unfinished.iter().filter(|claimed| **claimed).count();
    let failed = tasks::table
        .filter(tasks::failed.eq(true))
        .count()
        .get_result(conn)?;
    Ok(TaskCounts {
        queued: i64::try_from(unfinished.len() - running).unwrap_or(i64::MAX),
        running: i64::try_from(running).unwrap_or(i64::MAX),
        failed,
    })
}

/// Deletes the finished tasks (done, or failed for good) last changed
/// before `before`; the number deleted. One statement. (A component shows
/// its task only until it finishes.)
pub fn delete_finished(conn: &mut DbConnection, before: NaiveDateTime) -> StoreResult<usize> {
    Ok(diesel::delete(
        tasks::table
            .filter(tasks::completed.eq(true))
            .filter(tasks::updated.lt(before)),
    )
    .execute(conn)?)
}

/// The payloads of the unfinished tasks (to tell which files they still need).
pub fn unfinished_payloads(conn: &mut DbConnection) -> StoreResult<Vec<String>> {
    Ok(tasks::table
        .filter(diesel::dsl::not(tasks::completed))
        .select(tasks::payload)
        .load(conn)?)
}

/// The workers holding claims on unfinished tasks whose names start with `prefix`.
pub fn claimants(conn: &mut DbConnection, prefix: &str) -> StoreResult<Vec<String>> {
    let mut found: Vec<String> = tasks::table
        .filter(diesel::dsl::not(tasks::completed))
        .filter(tasks::claimed_by.is_not_null())
        .select(tasks::claimed_by.assume_not_null())
        .distinct()
        .load(conn)?;
    found.retain(|w| w.starts_with(prefix));
    Ok(found)
}

/// Ends the leases of `workers` at `now` (they stopped, or their process
/// is gone): their tasks may be claimed at once. The number released.
pub fn release(
    conn: &mut DbConnection,
    workers: &[String],
    now: NaiveDateTime,
) -> StoreResult<usize> {
    Ok(diesel::update(
        tasks::table
            .filter(diesel::dsl::not(tasks::completed))
            .filter(tasks::claimed_by.eq_any(workers)),
    )
    .set(tasks::lease_until.eq(Some(now)))
    .execute(conn)?)
}
