//! The background threads of a running server: task workers, the
//! housekeeping that commits due edits and deletes old tasks, and the
//! step that folds statistics changes into the kept statistics.

use tolk_service::Service;

use crate::opening::hostname;

/// Runs background tasks on `count` threads until the service's workers
/// are told to stop; the threads, to wait for, and their names.
pub(crate) fn start_task_workers(
    service: &Service,
    count: usize,
) -> (Vec<std::thread::JoinHandle<()>>, Vec<String>) {
    let host = hostname();
    if let Err(e) = service.tasks().recover(&host) {
        tracing::error!("cannot take back the tasks of stopped workers: {e}");
    }
    let names: Vec<String> = (0..count)
        .map(|n| tolk_service::tasks::worker_name(&host, n))
        .collect();
    let handles = names
        .iter()
        .map(|name| {
            let service = service.clone();
            let name = name.clone();
            std::thread::spawn(move || {
                while !service.tasks().stopping() {
                    match service.tasks().run_next(&name) {
                        Ok(true) => {}
                        Ok(false) => service.tasks().wait(std::time::Duration::from_secs(1)),
                        Err(e) => {
                            tracing::error!("task worker {name}: {e}");
                            service.tasks().wait(std::time::Duration::from_secs(1));
                        }
                    }
                }
            })
        })
        .collect();
    (handles, names)
}

/// How long a stopping server waits for running tasks before it hands
/// them over to other instances (or its own next start).
const TASK_GRACE: std::time::Duration = std::time::Duration::from_secs(20);

/// Stops the task workers: no new claims; running tasks get
/// [`TASK_GRACE`] to finish, then their claims are released so another
/// worker takes them over at once.
pub(crate) fn stop_task_workers(
    service: &Service,
    handles: Vec<std::thread::JoinHandle<()>>,
    names: &[String],
) {
    service.tasks().stop();
    let deadline = std::time::Instant::now() + TASK_GRACE;
    while handles.iter().any(|h| !h.is_finished()) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if handles.iter().any(|h| !h.is_finished()) {
        match service.tasks().release(names) {
            Ok(n) => tracing::info!("released {n} running tasks for other workers"),
            Err(e) => tracing::error!("cannot release running tasks: {e}"),
        }
    }
}

/// Every minute, commits the pending edits older than their component's
/// `commit_pending_age` and deletes the tasks finished longer ago than
/// the retention setting.
pub(crate) fn start_housekeeping(service: &Service) {
    let service = service.clone();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(60));
            let now = chrono::Utc::now().naive_utc();
            if let Err(e) = service.repository().commit_pending_due(now) {
                tracing::error!("committing pending edits: {e}");
            }
            if let Err(e) = service.tasks().delete_old(now) {
                tracing::error!("deleting finished tasks: {e}");
            }
            if let Err(e) = service.accounts().sweep(now) {
                tracing::error!("forgetting ended sessions: {e}");
            }
        }
    });
}

/// How often the changes of statistics are folded into the statistics
/// kept above translations: reads are exact either way, the fold keeps
/// what they add up small.
const FOLD_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Folds the changes of statistics into the kept statistics every
/// [`FOLD_EVERY`].
pub(crate) fn start_statistics_folding(service: &Service) {
    let service = service.clone();
    std::thread::spawn(move || {
        loop {
            if let Err(e) = service.site().fold_statistics() {
                tracing::error!("folding statistics: {e}");
            }
            std::thread::sleep(FOLD_EVERY);
        }
    });
}
