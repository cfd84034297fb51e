//! Site-wide metrics.

use tolk_domain::permission::Subject;
use tolk_store::metrics::{self, SiteCounts};

use crate::access::require_authenticated;
use crate::{ServiceError, ServiceResult};

/// Names of the background queues reported even when empty.
pub const QUEUES: [&str; 5] = ["backup", "translate", "celery", "notify", "memory"];

/// Site-wide counts and queue lengths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    /// Object counts.
    pub counts: SiteCounts,
    /// Unfinished tasks per queue.
    pub queues: Vec<(String, i64)>,
}

impl crate::search::Site<'_> {
    /// Site-wide metrics, for signed-in callers.
    pub fn metrics(&self, subject: &Subject) -> ServiceResult<Metrics> {
        require_authenticated(subject)?;
        let (counts, lengths) = self.store.read(|conn| {
            Ok::<_, ServiceError>((metrics::site_counts(conn)?, metrics::queue_lengths(conn)?))
        })?;
        let mut queues: Vec<(String, i64)> = QUEUES.iter().map(|q| ((*q).to_owned(), 0)).collect();
        for (queue, length) in lengths {
            match queues.iter_mut().find(|(q, _)| *q == queue) {
                Some(entry) => entry.1 = length,
                None => queues.push((queue, length)),
            }
        }
        Ok(Metrics { counts, queues })
    }
}
