//! Background tasks: long work (cloning and reading a component, pulling,
//! rescanning, removing a work tree) queued in the database, run by
//! workers, and watched over `GET /api/tasks/{uuid}/`.
//!
//! A worker claims a task for a lease ([`crate::ServiceConfig::task_lease`],
//! [`DEFAULT_LEASE`] by default) that a heartbeat renews
//! while the task runs, so the task of a process that died is taken over
//! once the lease lapses (at once when the process was on this host, see
//! [`Tasks::recover`](crate::tasks::Tasks::recover)). A failure the network or a busy
//! repository caused is retried with exponential backoff; any other
//! failure, a panic included, or the last of [`MAX_ATTEMPTS`], ends the
//! task as failed with its reason as the result. Tasks that do the same
//! work (a pull of one component) are queued once while they wait.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use tolk_domain::permission::Subject;
use tolk_store::tasks::{self, Outcome, TaskRow};
use tolk_store::time;

pub use crate::config::{DEFAULT_LEASE, DEFAULT_RETENTION};
use crate::jobs::Job;
use crate::{Service, ServiceError, ServiceResult};

/// A running task renews its claim this many times per lease.
const HEARTBEATS_PER_LEASE: u32 = 4;
/// Claims of one task before a failing one fails for good.
pub const MAX_ATTEMPTS: i32 = 5;
/// The wait before the first retry; each next one waits twice as long.
const FIRST_BACKOFF: Duration = Duration::from_secs(10);
/// Progress is saved at most this often (and always at the end).
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// How old an unused scratch directory must be to count as left behind:
/// far longer than any request takes to fill one.
pub(crate) const SCRATCH_AGE: Duration = Duration::from_secs(3600);

/// Why a task failed: the words its result shows, and whether trying
/// again later may succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaskFailure {
    message: String,
    transient: bool,
}

impl From<ServiceError> for TaskFailure {
    /// A failure as its task's result tells it: never SQL or the server's
    /// paths (those go to the log), transient for the network, time
    /// limits, a busy repository, a lost database connection and a
    /// transaction the database rolled back (deadlock, serialization).
    fn from(error: ServiceError) -> Self {
        let transient = match &error {
            ServiceError::Vcs(e) => e.is_transient(),
            ServiceError::Store(e) => e.is_transient(),
            _ => false,
        };
        let message = match &error {
            ServiceError::Store(_) => "A database error occurred.".to_owned(),
            ServiceError::Vcs(tolk_vcs::VcsError::Io { .. } | tolk_vcs::VcsError::Spawn { .. }) => {
                "A file operation on the repository failed.".to_owned()
            }
            ServiceError::NotFound => "The component no longer exists.".to_owned(),
            ServiceError::Validation(errors) => errors
                .iter()
                .map(|e| e.detail.clone())
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        };
        if matches!(
            error,
            ServiceError::Store(_) | ServiceError::Vcs(tolk_vcs::VcsError::Io { .. })
        ) {
            tracing::warn!("task failed: {error}");
        }
        TaskFailure { message, transient }
    }
}

impl TaskFailure {
    /// The end of a task whose cancellation was asked.
    pub(crate) fn cancelled() -> TaskFailure {
        TaskFailure::from("Task cancelled.".to_owned())
    }
}

impl From<String> for TaskFailure {
    /// A failure in words, for good.
    fn from(message: String) -> Self {
        TaskFailure {
            message,
            transient: false,
        }
    }
}

/// What a job returns: its result, or why it failed.
pub(crate) type TaskResult = Result<serde_json::Value, TaskFailure>;

/// The words of a panic's payload.
fn panic_words(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

/// How a run ends, to be stored: finished (the result as JSON, whether it
/// failed), or to be retried after a time.
enum StoredOutcome {
    Finished(String, bool),
    Retry(chrono::NaiveDateTime),
}

/// The wait before the retry that follows `attempts` claims.
fn backoff(attempts: i32) -> Duration {
    let doublings = u32::try_from(attempts.clamp(1, 10) - 1).unwrap_or(0);
    FIRST_BACKOFF * 2u32.pow(doublings)
}

/// A task as `GET /api/tasks/{uuid}/` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskView {
    /// Finished, successfully or not.
    pub completed: bool,
    /// Percent done.
    pub progress: i32,
    /// What it returned (a failure's message), when finished.
    pub result: Option<serde_json::Value>,
    /// Its log.
    pub log: String,
}

/// A running task's channel back: progress and log lines, saved at most
/// every [`REPORT_EVERY`] while it runs and in full when it ends.
pub(crate) struct Run<'a> {
    service: &'a Service,
    id: String,
    worker: String,
    log: Mutex<Vec<String>>,
    saved: Mutex<Option<Instant>>,
    /// The part of the whole task's progress the current step fills.
    span: Mutex<(i32, i32)>,
    /// Its cancellation was asked, as last read.
    cancelled: AtomicBool,
}

impl<'a> Run<'a> {
    /// A run of the task `id` claimed by `worker`, its log so far `log`.
    fn new(service: &'a Service, id: String, worker: String, log: &str) -> Run<'a> {
        Run {
            service,
            id,
            worker,
            log: Mutex::new(log.lines().map(str::to_owned).collect()),
            saved: Mutex::new(None),
            span: Mutex::new((0, 100)),
            cancelled: AtomicBool::new(false),
        }
    }

    /// Whether the task's cancellation was asked, as its last saved
    /// report read: work that can stop between steps stops then.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The next reports' progress (0-100) fills `start..end` of the whole
    /// task's: for a task of several steps.
    pub(crate) fn step(&self, start: i32, end: i32) {
        if let Ok(mut span) = self.span.lock() {
            *span = (start, end);
        }
    }

    /// Sets the progress (0-100 of the current step) without a log line.
    pub(crate) fn advance(&self, progress: i32) {
        self.save(progress, None);
    }

    /// A run that is no queued task: its reports go to the log only.
    pub(crate) fn detached(service: &'a Service) -> Run<'a> {
        Run::new(service, String::new(), String::new(), "")
    }

    /// Appends a log line and sets the progress (0-100 of the current step).
    pub(crate) fn report(&self, progress: i32, line: String) {
        tracing::debug!(task = %self.id, "{line}");
        self.save(progress, Some(line));
    }

    /// Adds `line` to the log, and saves the log and the progress unless
    /// they were saved less than [`REPORT_EVERY`] ago.
    fn save(&self, progress: i32, line: Option<String>) {
        if self.id.is_empty() {
            return;
        }
        let text = match self.log.lock() {
            Ok(mut log) => {
                log.extend(line);
                log.join("\n")
            }
            Err(_) => return,
        };
        let (start, end) = self.span.lock().map(|s| *s).unwrap_or((0, 100));
        let progress = start + progress.clamp(0, 100) * (end - start) / 100;
        let Ok(mut saved) = self.saved.lock() else {
            return;
        };
        if saved.is_some_and(|at| at.elapsed() < REPORT_EVERY) {
            return;
        }
        *saved = Some(Instant::now());
        let written = self.service.store.write(|conn| {
            let held = tasks::report(
                conn,
                &self.id,
                &self.worker,
                progress.clamp(0, 99),
                &text,
                time::now(),
            )?;
            Ok::<_, tolk_store::StoreError>(held && tasks::is_cancelled(conn, &self.id)?)
                .map(|cancelled| (held, cancelled))
        });
        match written {
            Ok((true, cancelled)) => self.cancelled.store(cancelled, Ordering::Relaxed),
            Ok((false, _)) => {
                tracing::warn!(task = %self.id, "the task was taken over by another worker")
            }
            Err(e) => tracing::warn!(task = %self.id, "cannot save task progress: {e}"),
        }
    }

    fn text(&self) -> String {
        self.log.lock().map(|l| l.join("\n")).unwrap_or_default()
    }

    fn line(&self, line: String) {
        if let Ok(mut log) = self.log.lock() {
            log.push(line);
        }
    }
}

/// The name of task worker `n` of this process: host, process id and
/// number, so that [`Tasks::recover`](crate::tasks::Tasks::recover) can tell the claims of dead
/// processes of this host.
pub fn worker_name(host: &str, n: usize) -> String {
    format!("{host}/{}/{n}", std::process::id())
}

/// Whether the process `pid` of this host runs.
fn alive(pid: u32) -> bool {
    pid == std::process::id() || std::path::Path::new(&format!("/proc/{pid}")).exists()
}

crate::service::area!(
    /// The use-cases of background tasks: running, waiting for, stopping,
    /// recovering and deleting them, and reading their progress.
    Tasks,
    tasks
);

impl Tasks<'_> {
    /// Waits until a task may be due: one is queued by this process, or
    /// `timeout` passes (tasks queued by other instances are seen then).
    pub fn wait(&self, timeout: Duration) {
        if !self.queue.stopping() {
            self.queue.wait(timeout);
        }
    }

    /// Tells this process's workers to claim nothing more (shutdown):
    /// running tasks go on, idle workers return.
    pub fn stop(&self) {
        self.queue.stop();
    }

    /// Whether [`Tasks::stop`](crate::tasks::Tasks::stop) was called.
    pub fn stopping(&self) -> bool {
        self.queue.stopping()
    }

    /// Ends the claims of `workers` (which stopped without finishing their
    /// tasks), so that any worker takes their tasks over at once.
    pub fn release(&self, workers: &[String]) -> ServiceResult<usize> {
        Ok(self
            .store
            .write(|conn| tasks::release(conn, workers, time::now()))?)
    }

    /// At start: stops the Git processes a killed server of this machine
    /// left running, removes the uploads and probes killed requests left
    /// (older than `SCRATCH_AGE`, needed by no task), then ends the claims of workers of `host` whose
    /// process is gone (killed, crashed), so their tasks run again at once
    /// instead of when their leases lapse; the number of tasks released.
    pub fn recover(&self, host: &str) -> ServiceResult<usize> {
        let orphans = tolk_vcs::reap_orphans();
        if !orphans.is_empty() {
            tracing::warn!("stopped Git processes left running by a stopped server: {orphans:?}");
        }
        let in_use = self.store.read(tasks::unfinished_payloads)?;
        let swept = self.workspace.sweep_scratch(&in_use, SCRATCH_AGE);
        if !swept.is_empty() {
            tracing::warn!("removed what stopped servers left unfinished: {swept:?}");
        }
        let prefix = format!("{host}/");
        let claimants = self.store.read(|conn| tasks::claimants(conn, &prefix))?;
        let dead: Vec<String> = claimants
            .into_iter()
            .filter(|w| {
                w[prefix.len()..]
                    .split('/')
                    .next()
                    .and_then(|pid| pid.parse::<u32>().ok())
                    .is_some_and(|pid| !alive(pid))
            })
            .collect();
        if dead.is_empty() {
            return Ok(0);
        }
        let released = self.tasks().release(&dead)?;
        tracing::info!(
            "took back {released} tasks of stopped workers: {}",
            dead.join(", ")
        );
        Ok(released)
    }

    /// Claims and runs the next due task as `worker`; false when none is
    /// due or the workers are stopping.
    pub fn run_next(&self, worker: &str) -> ServiceResult<bool> {
        if self.queue.stopping() {
            return Ok(false);
        }
        let kind = self.store.kind();
        let claimed = self.store.write(|conn| {
            let now = time::now();
            Ok::<_, ServiceError>(tasks::claim(conn, kind, worker, now, self.lease_from(now))?)
        })?;
        let Some(task) = claimed else {
            return Ok(false);
        };
        self.run_task(task, worker, &|job, run| self.perform(job, run))?;
        Ok(true)
    }

    /// Claims and runs, as `worker`, the oldest of the tasks `ids` that is
    /// due and unclaimed; false when none is (all finished, waiting for a
    /// retry, or run by other workers), true when it ran one or another
    /// worker claimed the one it found first (ask again). For commands
    /// that wait for their own tasks: one read finds the task, one write
    /// claims it.
    pub fn run_among(&self, worker: &str, ids: &[String]) -> ServiceResult<bool> {
        let Some(id) = self
            .store
            .read(|conn| tasks::next_claimable(conn, ids, time::now()))?
        else {
            return Ok(false);
        };
        let claimed = self.store.write(|conn| {
            let now = time::now();
            Ok::<_, ServiceError>(tasks::claim_id(
                conn,
                &id,
                worker,
                now,
                self.lease_from(now),
            )?)
        })?;
        // Another worker may have claimed it in between: the caller asks again.
        if let Some(task) = claimed {
            self.run_task(task, worker, &|job, run| self.perform(job, run))?;
        }
        Ok(true)
    }

    /// When a claim made or renewed at `now` lapses.
    fn lease_from(&self, now: chrono::NaiveDateTime) -> chrono::NaiveDateTime {
        now + chrono::Duration::from_std(self.config.task_lease).unwrap_or_default()
    }

    /// Deletes the tasks finished longer than
    /// [`crate::ServiceConfig::task_retention`] before `now`; the number deleted.
    /// One statement.
    pub fn delete_old(&self, now: chrono::NaiveDateTime) -> ServiceResult<usize> {
        let kept =
            chrono::Duration::from_std(self.config.task_retention).unwrap_or(chrono::Duration::MAX);
        let Some(before) = now.checked_sub_signed(kept) else {
            return Ok(0);
        };
        Ok(self
            .store
            .quick(|conn| tasks::delete_finished(conn, before))?)
    }

    /// Runs every due task in this thread; the number run. For tests and
    /// one-shot commands.
    pub fn run_due(&self) -> ServiceResult<usize> {
        let mut ran = 0;
        while self.tasks().run_next("inline")? {
            ran += 1;
        }
        Ok(ran)
    }

    /// Runs a claimed task with `perform` while a heartbeat renews the
    /// claim, then stores how it ended.
    fn run_task(
        &self,
        task: TaskRow,
        worker: &str,
        perform: &dyn Fn(&Job, &Run<'_>) -> TaskResult,
    ) -> ServiceResult<()> {
        let run = Run::new(self, task.id.clone(), worker.to_owned(), &task.log);
        let outcome = if task.cancelled {
            // Cancelled while its last worker held it, which died.
            Err(TaskFailure::cancelled())
        } else if task.attempts > MAX_ATTEMPTS {
            // Claimed again after its last attempt was cut off (its
            // process died each time): it fails now rather than forever.
            Err(TaskFailure::from(format!(
                "The task was interrupted {} times; it was given up.",
                task.attempts - 1
            )))
        } else {
            std::thread::scope(|scope| {
                let (done, finished) = mpsc::channel::<()>();
                let id = task.id.as_str();
                scope.spawn(move || self.heartbeat(id, worker, &finished));
                let outcome = match serde_json::from_str::<Job>(&task.payload) {
                    Ok(job) => catch_unwind(AssertUnwindSafe(|| perform(&job, &run)))
                        .unwrap_or_else(|panic| {
                            Err(TaskFailure::from(format!(
                                "The task stopped unexpectedly: {}",
                                panic_words(panic.as_ref())
                            )))
                        }),
                    Err(e) => Err(TaskFailure::from(format!("unreadable task payload: {e}"))),
                };
                drop(done);
                outcome
            })
        };
        if outcome.is_ok() && run.cancelled() {
            run.line(
                "cancelled while running: this work cannot stop halfway, so it was finished".into(),
            );
        }
        let now = time::now();
        let (stored, retrying) = match &outcome {
            Ok(value) => (StoredOutcome::Finished(value.to_string(), false), false),
            Err(failure) if failure.transient && task.attempts < MAX_ATTEMPTS => {
                let wait = backoff(task.attempts);
                tracing::info!(task = %task.id, kind = %task.kind, "task to be retried: {}", failure.message);
                run.line(format!(
                    "attempt {} failed: {}; trying again in {} s",
                    task.attempts,
                    failure.message,
                    wait.as_secs()
                ));
                let run_after = now + chrono::Duration::from_std(wait).unwrap_or_default();
                (StoredOutcome::Retry(run_after), true)
            }
            Err(failure) => {
                tracing::warn!(task = %task.id, kind = %task.kind, "task failed: {}", failure.message);
                run.line(format!("failed: {}", failure.message));
                (
                    StoredOutcome::Finished(
                        serde_json::Value::String(failure.message.clone()).to_string(),
                        true,
                    ),
                    false,
                )
            }
        };
        let kept = self.store.write(|conn| {
            let outcome = match &stored {
                StoredOutcome::Finished(result, failed) => Outcome::Finished {
                    result,
                    failed: *failed,
                },
                StoredOutcome::Retry(run_after) => Outcome::Retry {
                    run_after: *run_after,
                },
            };
            let kept = tasks::finish(conn, &task.id, worker, outcome, &run.text(), now)?;
            if kept
                && !retrying
                && let Some(component_id) = task.component_id
            {
                tolk_store::components::clear_task(conn, component_id, &task.id)?;
            }
            Ok::<_, ServiceError>(kept)
        })?;
        if !kept {
            tracing::warn!(task = %task.id, "the task was taken over by another worker; its outcome counts");
        } else if let (Err(failure), false, Some(component_id)) =
            (&outcome, retrying, task.component_id)
            && matches!(task.kind.as_str(), "setup" | "pull" | "relocate")
        {
            self.lock_on_error(component_id, &failure.message)?;
        }
        Ok(())
    }

    /// After a component's repository could not be set up or updated for
    /// good: locks it when its `auto_lock_error` says so, with the reason
    /// in its history.
    fn lock_on_error(&self, component_id: i64, reason: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let Some(component) = tolk_store::components::get_by_ids(conn, &[component_id])?.pop()
            else {
                return Ok(());
            };
            if !component.settings.auto_lock_error || component.locked {
                return Ok(());
            }
            tolk_store::components::set_locked(conn, &[component_id], true)?;
            let change = tolk_store::changes::NewChange {
                project_id: Some(component.project_id),
                component_id: Some(component_id),
                target: format!("Locked after a repository error: {reason}"),
                ..tolk_store::changes::NewChange::new(tolk_domain::change::Action::LOCK, None)
            };
            tolk_store::changes::record(conn, &change, time::now())?;
            Ok::<_, ServiceError>(())
        })
    }

    /// Renews `worker`'s claim on a task [`HEARTBEATS_PER_LEASE`] times
    /// per lease until `finished` says the task ended.
    fn heartbeat(&self, id: &str, worker: &str, finished: &mpsc::Receiver<()>) {
        let every = self.config.task_lease / HEARTBEATS_PER_LEASE;
        while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(every) {
            let lease = self.lease_from(time::now());
            match self
                .store
                .write(|conn| tasks::renew(conn, id, worker, lease))
            {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!(task = %id, "lost the claim on the task");
                    return;
                }
                Err(e) => tracing::warn!(task = %id, "cannot renew the claim on the task: {e}"),
            }
        }
    }

    /// Does the work of one job; its result, or why it failed.
    fn perform(&self, job: &Job, run: &Run<'_>) -> TaskResult {
        match job {
            Job::Setup {
                component_id,
                staged,
            } => self.setup_component(*component_id, staged.as_deref(), run),
            Job::Rescan { component_id } => Ok(self.rescan_component(*component_id, run)?),
            Job::Pull { component_id } => self.pull_component(*component_id, run),
            Job::Relocate { component_id } => self.relocate_component(*component_id, run),
            Job::AutoTranslate(job) => self.run_autotranslate(job, run),
            Job::AddonRun { addon_id } => self.run_installed_addon(*addon_id, run),
            Job::RemoveTree { path } => {
                match std::fs::remove_dir_all(path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        tracing::warn!("cannot remove {path}: {e}");
                        return Err(TaskFailure::from(
                            "The repository could not be removed.".to_owned(),
                        ));
                    }
                    _ => {}
                }
                Ok(serde_json::Value::Bool(true))
            }
        }
    }

    /// A task's state, if the caller may see it: its starter, or anybody
    /// who may see its component or project.
    pub fn get(&self, subject: &Subject, id: &str) -> ServiceResult<TaskView> {
        self.tasks()
            .list(subject, &[id.to_owned()])?
            .pop()
            .flatten()
            .ok_or(ServiceError::NotFound)
    }

    /// The states of the tasks `ids`, in their order, each `None` when it
    /// does not exist or the caller may not see it (see [`Tasks::get`](crate::tasks::Tasks::get));
    /// two statements whatever their number.
    pub fn list(&self, subject: &Subject, ids: &[String]) -> ServiceResult<Vec<Option<TaskView>>> {
        self.store.read(|conn| {
            let rows = visible_tasks(conn, subject, ids)?;
            Ok(ids
                .iter()
                .map(|id| {
                    let task = rows.iter().find(|t| t.id == *id)?;
                    Some(TaskView {
                        completed: task.completed,
                        progress: if task.completed { 100 } else { task.progress },
                        result: task
                            .result
                            .as_deref()
                            .map(|r| serde_json::from_str(r).unwrap_or(serde_json::Value::Null)),
                        log: task.log.clone(),
                    })
                })
                .collect())
        })
    }
}

/// The tasks of `ids` the caller may see: their starter's, and those of
/// a project the caller sees (a superuser's, for tasks of no project);
/// two statements whatever their number.
pub(crate) fn visible_tasks(
    conn: &mut tolk_store::DbConnection,
    subject: &Subject,
    ids: &[String],
) -> ServiceResult<Vec<TaskRow>> {
    let mut rows = tasks::get_many(conn, ids)?;
    let mut project_ids: Vec<i64> = rows.iter().filter_map(|t| t.project_id).collect();
    project_ids.sort_unstable();
    project_ids.dedup();
    let projects = if project_ids.is_empty() {
        Vec::new()
    } else {
        tolk_store::projects::get_by_ids(conn, &project_ids)?
    };
    rows.retain(|task| {
        let own = task.user_id.is_some() && task.user_id == subject.user_id();
        own || match task.project_id {
            Some(id) => projects
                .iter()
                .find(|p| p.id == id)
                .is_some_and(|p| subject.can_view_project(p.as_ref())),
            None => subject.is_superuser(),
        }
    });
    Ok(rows)
}

impl Service {
    /// Wakes this process's workers after a transaction queued tasks.
    pub(crate) fn queued(&self) {
        self.queue.notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ServiceConfig;
    use crate::jobs::{Owner, enqueue};
    use tolk_store::testing::TestDb;

    /// A service on `db` whose claims last `lease`, and a queued job
    /// (removing a directory that does not exist: harmless).
    fn queued(db: &TestDb, lease: Duration) -> (Service, String) {
        let config = ServiceConfig {
            task_lease: lease,
            ..ServiceConfig::default()
        };
        let service = Service::new(db.store.clone(), config).unwrap();
        let id = queue_harmless(&service, "tolk-test");
        (service, id)
    }

    /// Queues the removal of a directory that does not exist (`name`
    /// under `/nonexistent`); its id.
    fn queue_harmless(service: &Service, name: &str) -> String {
        let job = Job::RemoveTree {
            path: format!("/nonexistent/{name}"),
        };
        service
            .store
            .write(|c| enqueue(c, &job, Owner::default()))
            .unwrap()
    }

    /// Claims the next task as `worker` and runs it with `perform`.
    fn run_with(
        service: &Service,
        worker: &str,
        perform: &dyn Fn(&Job, &Run<'_>) -> TaskResult,
    ) -> bool {
        let now = time::now();
        let kind = service.store.kind();
        let claimed = service
            .store
            .write(|c| tasks::claim(c, kind, worker, now, service.tasks().lease_from(now)))
            .unwrap();
        match claimed {
            Some(task) => {
                service.tasks().run_task(task, worker, perform).unwrap();
                true
            }
            None => false,
        }
    }

    fn view(service: &Service, id: &str) -> TaskView {
        service.tasks().get(&Subject::System, id).unwrap()
    }

    #[test]
    fn a_panic_fails_its_task_and_the_worker_goes_on() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            assert!(run_with(&service, "w", &|_, run| {
                run.report(10, "working".into());
                panic!("boom")
            }));
            let task = view(&service, &id);
            assert!(task.completed);
            assert_eq!(
                task.result,
                Some(serde_json::json!("The task stopped unexpectedly: boom"))
            );
            assert_eq!(
                task.log,
                "working\nfailed: The task stopped unexpectedly: boom"
            );
            // The same worker runs the next task.
            let second = service
                .store
                .write(|c| enqueue(c, &Job::Rescan { component_id: 0 }, Owner::default()))
                .unwrap();
            assert!(run_with(&service, "w", &|_, _| Ok(serde_json::json!(1))));
            assert_eq!(view(&service, &second).result, Some(serde_json::json!(1)));
        }
    }

    #[test]
    fn a_waiting_task_ends_at_its_cancellation_and_never_runs() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let cancel = || {
                service
                    .store
                    .write(|c| tasks::cancel(c, &id, time::now()))
                    .unwrap()
            };
            assert_eq!(cancel(), tasks::Cancellation::Ended);
            assert!(!run_with(&service, "w", &|_, _| panic!("ran")));
            let task = view(&service, &id);
            assert!(task.completed);
            assert_eq!(task.result, Some(serde_json::json!("Task cancelled.")));
            assert_eq!(cancel(), tasks::Cancellation::Finished);
        }
    }

    #[test]
    fn a_running_task_learns_of_its_cancellation_at_its_next_report() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let store = service.store.clone();
            assert!(run_with(&service, "w", &|_, run| {
                run.report(10, "first".into());
                assert!(!run.cancelled());
                let asked = store.write(|c| tasks::cancel(c, &id, time::now()));
                assert_eq!(asked.unwrap(), tasks::Cancellation::Asked);
                std::thread::sleep(REPORT_EVERY);
                run.report(20, "second".into());
                if run.cancelled() {
                    return Err(TaskFailure::cancelled());
                }
                Ok(serde_json::json!("went on"))
            }));
            let task = view(&service, &id);
            assert_eq!(task.result, Some(serde_json::json!("Task cancelled.")));
            assert_eq!(task.log, "first\nsecond\nfailed: Task cancelled.");
        }
    }

    #[test]
    fn work_that_cannot_stop_finishes_and_says_so() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let store = service.store.clone();
            assert!(run_with(&service, "w", &|_, run| {
                let asked = store.write(|c| tasks::cancel(c, &id, time::now()));
                assert_eq!(asked.unwrap(), tasks::Cancellation::Asked);
                run.report(50, "reading".into());
                Ok(serde_json::json!("read"))
            }));
            let task = view(&service, &id);
            assert_eq!(task.result, Some(serde_json::json!("read")));
            assert!(task.log.ends_with("it was finished"), "{}", task.log);
        }
    }

    #[test]
    fn a_cancelled_task_of_a_dead_worker_is_not_run_again() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, Duration::from_millis(100));
            let now = time::now();
            let kind = service.store.kind();
            let lease = service.tasks().lease_from(now);
            let claimed = service
                .store
                .write(|c| tasks::claim(c, kind, "dead", now, lease))
                .unwrap();
            assert!(claimed.is_some());
            let asked = service
                .store
                .write(|c| tasks::cancel(c, &id, time::now()))
                .unwrap();
            assert_eq!(asked, tasks::Cancellation::Asked);
            std::thread::sleep(Duration::from_millis(300));
            assert!(run_with(&service, "w", &|_, _| panic!("ran again")));
            let task = view(&service, &id);
            assert_eq!(task.result, Some(serde_json::json!("Task cancelled.")));
        }
    }

    #[test]
    fn a_running_task_keeps_its_claim_past_the_lease() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, Duration::from_millis(400));
            let other = service.clone();
            assert!(run_with(&service, "slow", &|_, _| {
                // Three leases long; another worker keeps trying meanwhile.
                let until = Instant::now() + Duration::from_millis(1_200);
                while Instant::now() < until {
                    assert!(!other.tasks().run_next("thief").unwrap(), "taken over");
                    std::thread::sleep(Duration::from_millis(50));
                }
                Ok(serde_json::json!("done"))
            }));
            let task = view(&service, &id);
            assert_eq!(task.result, Some(serde_json::json!("done")));
        }
    }

    #[test]
    fn progress_is_saved_a_few_times_a_second_not_per_report() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let seen = service.clone();
            assert!(run_with(&service, "w", &|_, run| {
                for n in 0..1_000 {
                    run.report(n / 10, format!("file {n}"));
                }
                // Only the first report of the burst was written.
                let task = view(&seen, &id);
                assert_eq!((task.progress, task.log.as_str()), (0, "file 0"));
                std::thread::sleep(REPORT_EVERY);
                run.report(99, "last".into());
                let task = view(&seen, &id);
                assert_eq!(task.progress, 99);
                assert_eq!(task.log.lines().count(), 1_001, "every line kept");
                Ok(serde_json::json!("done"))
            }));
        }
    }

    #[test]
    fn a_step_fills_its_part_of_the_progress_and_advances_add_no_log_line() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let seen = service.clone();
            assert!(run_with(&service, "w", &|_, run| {
                run.report(1, "cloning".into());
                run.step(0, 50);
                std::thread::sleep(REPORT_EVERY);
                run.advance(80);
                let task = view(&seen, &id);
                assert_eq!((task.progress, task.log.as_str()), (40, "cloning"));
                run.step(50, 100);
                std::thread::sleep(REPORT_EVERY);
                run.report(50, "reading".into());
                let task = view(&seen, &id);
                assert_eq!((task.progress, task.log.as_str()), (75, "cloning\nreading"));
                Ok(serde_json::json!("done"))
            }));
            // Several tasks are read at once, in the order asked, unknown ones as None.
            let other = service
                .store
                .write(|c| enqueue(c, &Job::Rescan { component_id: 0 }, Owner::default()))
                .unwrap();
            let views = service
                .tasks()
                .list(
                    &Subject::System,
                    &[other.clone(), "nope".into(), id.clone()],
                )
                .unwrap();
            let states: Vec<Option<bool>> = views
                .iter()
                .map(|v| v.as_ref().map(|v| v.completed))
                .collect();
            assert_eq!(states, [Some(false), None, Some(true)]);
            // Tasks of no project are the superuser's to see.
            let nobody = Subject::anonymous(Vec::new());
            assert_eq!(service.tasks().list(&nobody, &[id]).unwrap(), [None]);
        }
    }

    #[test]
    fn a_transient_failure_is_retried_with_backoff_then_fails_for_good() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let unreachable = || -> TaskResult {
                Err(
                    ServiceError::Vcs(tolk_vcs::VcsError::Unreachable("Connection refused".into()))
                        .into(),
                )
            };
            for attempt in 1..=MAX_ATTEMPTS {
                assert!(run_with(&service, "w", &|_, _| unreachable()), "{attempt}");
                let row = service.store.read(|c| tasks::get(c, &id)).unwrap().unwrap();
                assert_eq!(row.attempts, attempt);
                if attempt < MAX_ATTEMPTS {
                    assert!(!row.completed);
                    let wait = (row.run_after - row.updated).num_seconds();
                    assert_eq!(wait, 10 * 2i64.pow(u32::try_from(attempt - 1).unwrap()));
                    assert!(row.log.ends_with(&format!(
                        "attempt {attempt} failed: the repository could not be reached: \
                         Connection refused; trying again in {wait} s"
                    )));
                    // Not due before its time; made due to go on.
                    assert!(!service.tasks().run_next("w").unwrap());
                    tolk_store::testing::make_tasks_due(&service.store);
                } else {
                    assert!(row.completed && row.failed);
                }
            }
            assert_eq!(
                view(&service, &id).result,
                Some(serde_json::json!(
                    "the repository could not be reached: Connection refused"
                ))
            );
        }
    }

    #[test]
    fn a_task_interrupted_too_often_is_given_up() {
        for db in TestDb::all() {
            let (service, id) = queued(&db, DEFAULT_LEASE);
            let kind = service.store.kind();
            // Five workers of this host claimed it and died.
            for n in 0..MAX_ATTEMPTS {
                let now = time::now();
                let dead = format!("testhost/{}/{n}", u32::MAX - 1);
                service
                    .store
                    .write(|c| tasks::claim(c, kind, &dead, now, service.tasks().lease_from(now)))
                    .unwrap()
                    .unwrap();
                assert_eq!(service.tasks().recover("testhost").unwrap(), 1);
            }
            assert!(service.tasks().run_next("w").unwrap());
            let task = view(&service, &id);
            assert_eq!(
                task.result,
                Some(serde_json::json!(
                    "The task was interrupted 5 times; it was given up."
                ))
            );
        }
    }

    #[test]
    fn what_killed_requests_left_is_swept_and_what_tasks_need_is_kept() {
        for db in TestDb::all() {
            let tmp = tempfile::tempdir().unwrap();
            let service = Service::new(db.store.clone(), ServiceConfig::local(tmp.path())).unwrap();
            let root = service.config.vcs_root.clone();
            let make = |name: &str, age: Duration| {
                let dir = root.join(name);
                std::fs::create_dir_all(dir.join("po")).unwrap();
                std::fs::write(dir.join("po/cs.po"), "").unwrap();
                let at = std::time::SystemTime::now() - age;
                std::fs::File::open(&dir).unwrap().set_modified(at).unwrap();
                dir
            };
            let old = SCRATCH_AGE * 2;
            let left = make(".upload-left", old);
            let probe = make(".probe-left", old);
            let filling = make(".upload-filling", Duration::ZERO);
            let needed = make(".upload-needed", old);
            let component = make("7", old);
            let job = Job::Setup {
                component_id: 7,
                staged: Some(needed.display().to_string()),
            };
            service
                .store
                .write(|c| enqueue(c, &job, Owner::default()))
                .unwrap();
            service.tasks().recover("testhost").unwrap();
            let kept: Vec<bool> = [&left, &probe, &filling, &needed, &component]
                .iter()
                .map(|d| d.exists())
                .collect();
            assert_eq!(kept, [false, false, true, true, true]);
        }
    }

    #[test]
    fn finished_tasks_are_deleted_after_the_retention() {
        for db in TestDb::all() {
            let (service, done) = queued(&db, DEFAULT_LEASE);
            assert!(run_with(&service, "w", &|_, _| Ok(serde_json::json!(
                "done"
            ))));
            let waiting = queue_harmless(&service, "tolk-waiting");
            let now = time::now();
            assert_eq!(service.tasks().delete_old(now).unwrap(), 0);
            let week = chrono::Duration::from_std(DEFAULT_RETENTION).unwrap();
            let later = now + week + chrono::Duration::minutes(1);
            assert_eq!(service.tasks().delete_old(later).unwrap(), 1);
            assert!(matches!(
                service.tasks().get(&Subject::System, &done),
                Err(ServiceError::NotFound)
            ));
            // Unfinished work is never deleted.
            assert!(!view(&service, &waiting).completed);
            assert_eq!(service.tasks().delete_old(later).unwrap(), 0);
        }
    }

    #[test]
    fn stopping_workers_claim_nothing() {
        for db in TestDb::all() {
            let (service, _) = queued(&db, DEFAULT_LEASE);
            service.tasks().stop();
            assert!(service.tasks().stopping());
            assert!(!service.tasks().run_next("w").unwrap());
            let started = Instant::now();
            service.tasks().wait(Duration::from_secs(5));
            assert!(started.elapsed() < Duration::from_secs(1));
        }
    }
}
