//! Background tasks: long work (cloning and reading a component, pulling,
//! rescanning, removing a work tree) queued in the database, run by
//! workers, and watched over `GET /api/tasks/{uuid}/`.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tolk_domain::permission::Subject;
use tolk_store::tasks::{self, NewTask, TaskRow};
use tolk_store::{DbConnection, StoreResult, time};

use crate::{Service, ServiceError, ServiceResult};

/// A claimed task whose worker stopped reporting this long ago is taken over.
const STALE_AFTER: chrono::Duration = chrono::Duration::minutes(30);

/// What a task does, with its typed payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "job", rename_all = "snake_case")]
pub(crate) enum Job {
    /// Clone a new component's repository (unless it shares one) and read its files.
    Setup {
        /// The component.
        component_id: i64,
        /// A repository made from uploaded files, to move into place first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        staged: Option<String>,
    },
    /// Read every file of a component again.
    Rescan {
        /// The component.
        component_id: i64,
    },
    /// Fetch and merge upstream, then read the changed files.
    Pull {
        /// The component.
        component_id: i64,
    },
    /// Remove the work tree of a deleted component.
    RemoveTree {
        /// The directory.
        path: String,
    },
}

impl Job {
    /// The task kind as stored (and counted by the metrics).
    fn kind(&self) -> &'static str {
        match self {
            Job::Setup { .. } => "setup",
            Job::Rescan { .. } => "rescan",
            Job::Pull { .. } => "pull",
            Job::RemoveTree { .. } => "remove_tree",
        }
    }
}

/// Who and what a queued task belongs to, for access to its status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Owner {
    pub user_id: Option<i64>,
    pub project_id: Option<i64>,
    pub component_id: Option<i64>,
}

/// Wakes idle workers of this process when a task is queued.
#[derive(Debug, Clone, Default)]
pub(crate) struct Wakeup(Arc<(Mutex<u64>, Condvar)>);

impl Wakeup {
    fn notify(&self) {
        let (count, ready) = &*self.0;
        if let Ok(mut n) = count.lock() {
            *n += 1;
        }
        ready.notify_all();
    }

    fn wait(&self, timeout: Duration) {
        let (count, ready) = &*self.0;
        if let Ok(guard) = count.lock() {
            let seen = *guard;
            // A poisoned lock or a spurious wake-up only means an early poll.
            let _ = ready.wait_timeout_while(guard, timeout, |n| *n == seen);
        }
    }
}

/// Queues `job`; returns the task id. Workers are woken by
/// [`Service::queued`] once the transaction is committed.
pub(crate) fn enqueue(conn: &mut DbConnection, job: &Job, owner: Owner) -> StoreResult<String> {
    let id = new_uuid();
    let now = time::now();
    tasks::enqueue(
        conn,
        &NewTask {
            id: id.clone(),
            kind: job.kind().into(),
            payload: serde_json::to_string(job).unwrap_or_default(),
            priority: 0,
            run_after: now,
            user_id: owner.user_id,
            project_id: owner.project_id,
            component_id: owner.component_id,
            created: now,
            updated: now,
        },
    )?;
    Ok(id)
}

/// A random (version 4) UUID.
pub(crate) fn new_uuid() -> String {
    let mut b = [0u8; 16];
    // Without randomness task ids would collide; no process can go on then.
    getrandom::fill(&mut b).expect("the system's random source");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
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

/// A running task's channel back: progress and log lines, saved as they come.
pub(crate) struct Run<'a> {
    service: &'a Service,
    id: String,
    log: Mutex<Vec<String>>,
}

impl<'a> Run<'a> {
    /// A run that is no queued task: its reports go to the log only.
    pub(crate) fn detached(service: &'a Service) -> Run<'a> {
        Run {
            service,
            id: String::new(),
            log: Mutex::new(Vec::new()),
        }
    }

    /// Appends a log line and sets the progress (0-100).
    pub(crate) fn report(&self, progress: i32, line: String) {
        tracing::debug!(task = %self.id, "{line}");
        if self.id.is_empty() {
            return;
        }
        let text = match self.log.lock() {
            Ok(mut log) => {
                log.push(line);
                log.join("\n")
            }
            Err(_) => return,
        };
        let saved = self
            .service
            .store
            .write(|conn| tasks::report(conn, &self.id, progress.clamp(0, 99), &text, time::now()));
        if let Err(e) = saved {
            tracing::warn!(task = %self.id, "cannot save task progress: {e}");
        }
    }

    fn text(&self) -> String {
        self.log.lock().map(|l| l.join("\n")).unwrap_or_default()
    }
}

impl Service {
    /// Wakes this process's workers after a transaction queued tasks.
    pub(crate) fn queued(&self) {
        self.queue.notify();
    }

    /// Waits until a task may be due: one is queued by this process, or
    /// `timeout` passes (tasks queued by other instances are seen then).
    pub fn wait_for_tasks(&self, timeout: Duration) {
        self.queue.wait(timeout);
    }

    /// Claims and runs the next due task as `worker`; false when none is due.
    pub fn run_next_task(&self, worker: &str) -> ServiceResult<bool> {
        let kind = self.store.kind();
        let claimed = self.store.write(|conn| {
            let now = time::now();
            Ok::<_, ServiceError>(tasks::claim(conn, kind, worker, now, now - STALE_AFTER)?)
        })?;
        let Some(task) = claimed else {
            return Ok(false);
        };
        self.run_task(task)?;
        Ok(true)
    }

    /// Runs every due task in this thread; the number run. For tests and
    /// one-shot commands.
    pub fn run_due_tasks(&self) -> ServiceResult<usize> {
        let mut ran = 0;
        while self.run_next_task("inline")? {
            ran += 1;
        }
        Ok(ran)
    }

    fn run_task(&self, task: TaskRow) -> ServiceResult<()> {
        let run = Run {
            service: self,
            id: task.id.clone(),
            log: Mutex::new(Vec::new()),
        };
        let outcome = match serde_json::from_str::<Job>(&task.payload) {
            Ok(job) => self.perform(&job, &run),
            Err(e) => Err(format!("unreadable task payload: {e}")),
        };
        let result = match outcome {
            Ok(value) => value,
            Err(message) => {
                tracing::warn!(task = %task.id, kind = %task.kind, "task failed: {message}");
                serde_json::Value::String(message)
            }
        };
        self.store.write(|conn| {
            tasks::finish(
                conn,
                &task.id,
                &result.to_string(),
                &run.text(),
                time::now(),
            )?;
            if let Some(component_id) = task.component_id {
                tolk_store::components::clear_task(conn, component_id, &task.id)?;
            }
            Ok::<_, ServiceError>(())
        })
    }

    /// Does the work of one job; its result, or why it failed in words.
    fn perform(&self, job: &Job, run: &Run<'_>) -> Result<serde_json::Value, String> {
        match job {
            Job::Setup {
                component_id,
                staged,
            } => self.setup_component(*component_id, staged.as_deref(), run),
            Job::Rescan { component_id } => self.rescan_component(*component_id, run),
            Job::Pull { component_id } => self.pull_component(*component_id, run),
            Job::RemoveTree { path } => {
                match std::fs::remove_dir_all(path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(format!("cannot remove the repository: {e}"));
                    }
                    _ => {}
                }
                Ok(serde_json::Value::Bool(true))
            }
        }
    }

    /// A task's state, if the caller may see it: its starter, or anybody
    /// who may see its component or project.
    pub fn task(&self, subject: &Subject, id: &str) -> ServiceResult<TaskView> {
        self.store.read(|conn| {
            let task = tasks::get(conn, id)?.ok_or(ServiceError::NotFound)?;
            let own = task.user_id.is_some() && task.user_id == subject.user_id();
            let visible = match task.project_id {
                Some(project_id) => tolk_store::projects::get_by_ids(conn, &[project_id])?
                    .first()
                    .is_some_and(|p| subject.can_view_project(p.as_ref())),
                None => subject.is_superuser(),
            };
            if !own && !visible {
                return Err(ServiceError::NotFound);
            }
            Ok(TaskView {
                completed: task.completed,
                progress: if task.completed { 100 } else { task.progress },
                result: task
                    .result
                    .as_deref()
                    .map(|r| serde_json::from_str(r).unwrap_or(serde_json::Value::Null)),
                log: task.log,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_version_4() {
        let id = new_uuid();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert!("89ab".contains(&id[19..20]));
        assert_ne!(id, new_uuid());
    }

    #[test]
    fn jobs_are_stored_tagged() {
        let job = Job::Setup {
            component_id: 7,
            staged: None,
        };
        let text = serde_json::to_string(&job).unwrap();
        assert_eq!(text, r#"{"job":"setup","component_id":7}"#);
        assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), job);
    }
}
