//! The background task queue: rows that workers claim, run, report
//! progress on and finish. On PostgreSQL several instances claim safely
//! (`FOR UPDATE SKIP LOCKED`); on SQLite writes are serialised anyway.

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
}

/// Queues a task.
pub fn enqueue(conn: &mut DbConnection, task: &NewTask) -> StoreResult<()> {
    diesel::insert_into(tasks::table)
        .values(task)
        .execute(conn)?;
    Ok(())
}

/// A task by id.
pub fn get(conn: &mut DbConnection, id: &str) -> StoreResult<Option<TaskRow>> {
    Ok(tasks::table
        .find(id)
        .select(TaskRow::as_select())
        .first(conn)
        .optional()?)
}

/// Claims the next due task for `worker`: unfinished, due by `now`, and
/// unclaimed or claimed before `stale` (a worker that died). Highest
/// priority first, then oldest.
pub fn claim(
    conn: &mut DbConnection,
    kind: BackendKind,
    worker: &str,
    now: NaiveDateTime,
    stale: NaiveDateTime,
) -> StoreResult<Option<TaskRow>> {
    let lock = match kind {
        BackendKind::Postgres => " FOR UPDATE SKIP LOCKED",
        BackendKind::Sqlite => "",
    };
    let sql = format!(
        "UPDATE tasks SET claimed_by = $1, claimed_at = $2, attempts = attempts + 1, updated = $2 \
         WHERE id = (SELECT id FROM tasks WHERE NOT completed AND run_after <= $2 \
         AND (claimed_at IS NULL OR claimed_at < $3) \
         ORDER BY priority DESC, run_after, created LIMIT 1{lock}) \
         RETURNING *"
    );
    Ok(diesel::sql_query(sql)
        .bind::<Text, _>(worker)
        .bind::<Timestamp, _>(now)
        .bind::<Timestamp, _>(stale)
        .get_result::<TaskRow>(conn)
        .optional()?)
}

/// Records progress and appends log lines.
pub fn report(
    conn: &mut DbConnection,
    id: &str,
    progress: i32,
    log: &str,
    at: NaiveDateTime,
) -> StoreResult<()> {
    diesel::update(tasks::table.find(id))
        .set((
            tasks::progress.eq(progress),
            tasks::log.eq(log),
            tasks::updated.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Marks a task finished with its result and log.
pub fn finish(
    conn: &mut DbConnection,
    id: &str,
    result: &str,
    log: &str,
    at: NaiveDateTime,
) -> StoreResult<()> {
    diesel::update(tasks::table.find(id))
        .set((
            tasks::completed.eq(true),
            tasks::progress.eq(100),
            tasks::result.eq(Some(result)),
            tasks::log.eq(log),
            tasks::claimed_by.eq(None::<String>),
            tasks::updated.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}
