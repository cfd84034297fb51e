//! Waking this process's idle task workers when a task is queued, and
//! telling them to stop claiming when the process shuts down.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Wakes idle workers of this process when a task is queued, and tells
/// them to stop claiming when the process shuts down.
#[derive(Debug, Clone, Default)]
pub(crate) struct Wakeup {
    ready: Arc<(Mutex<u64>, Condvar)>,
    stopping: Arc<AtomicBool>,
}

impl Wakeup {
    pub(crate) fn notify(&self) {
        let (count, ready) = &*self.ready;
        if let Ok(mut n) = count.lock() {
            *n += 1;
        }
        ready.notify_all();
    }

    pub(crate) fn wait(&self, timeout: Duration) {
        let (count, ready) = &*self.ready;
        if let Ok(guard) = count.lock() {
            let seen = *guard;
            // A poisoned lock or a spurious wake-up only means an early poll.
            let _ = ready.wait_timeout_while(guard, timeout, |n| {
                *n == seen && !self.stopping.load(Ordering::Relaxed)
            });
        }
    }

    pub(crate) fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.notify();
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }
}
