//! Group commit: small writes that arrive while another is under way are
//! run together in one SQLite transaction, each in a savepoint of its
//! own, and committed at once.
//!
//! SQLite lets one writer in at a time, and each commit writes every page
//! it touched to the log. Many edits of one translation touch the same
//! pages (its counters, the tail of the change history and of its
//! indexes), so committing them one by one writes those pages again and
//! again, and each hand-over of the write lock waits for a sleeping thread
//! to wake. Here the first writer to arrive leads: it takes the queued
//! writes, runs them one after another on one connection inside one
//! transaction, commits, and hands each writer its outcome; the writers
//! that queued meanwhile form the next group under the first of them. A
//! write that fails rolls back to its savepoint and leaves the others in
//! place; a failed commit fails them all. Each caller returns only after
//! the commit that holds its write.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use crate::DbConnection;
use crate::error::StoreError;

/// What a writer hears while it waits.
enum Turn<T, E> {
    /// It leads the next group (its write is still queued).
    Lead,
    /// Its write's outcome, or the panic it raised.
    Done(std::thread::Result<Result<T, E>>),
}

/// Where a writer waits for its turn (none yet while it waits).
struct Ticket<T, E> {
    turn: Mutex<Option<Turn<T, E>>>,
    told: Condvar,
}

impl<T, E> Ticket<T, E> {
    fn tell(&self, turn: Turn<T, E>) {
        *self.turn.lock() = Some(turn);
        self.told.notify_one();
    }

    fn wait(&self) -> Turn<T, E> {
        let mut turn = self.turn.lock();
        loop {
            match turn.take() {
                Some(told) => return told,
                None => self.told.wait(&mut turn),
            }
        }
    }
}

/// A queued write, as its leader sees it.
trait Job: Send {
    /// Runs the write in a transaction of its own (a savepoint inside the
    /// group's transaction), keeping its outcome.
    fn run(&mut self, conn: &mut DbConnection);
    /// Turns a kept success into `error`: the group did not commit.
    fn fail(&mut self, error: &str);
    /// Tells its writer to lead the next group.
    fn lead(&self);
}

/// A writer's write, its outcome once run, and where its writer waits.
/// Dropping it hands the outcome over (a failure if it never ran).
struct Slot<F, T, E> {
    write: Option<F>,
    outcome: Option<std::thread::Result<Result<T, E>>>,
    span: tracing::Span,
    ticket: Arc<Ticket<T, E>>,
}

impl<F, T, E> Job for Slot<F, T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E> + Send,
    T: Send,
    E: From<StoreError> + From<diesel::result::Error> + Send,
{
    fn run(&mut self, conn: &mut DbConnection) {
        let Some(write) = self.write.take() else {
            return;
        };
        let _entered = self.span.enter();
        let mut panic = None;
        let result = conn.write_transaction(|c| {
            catch_unwind(AssertUnwindSafe(|| write(c))).unwrap_or_else(|payload| {
                panic = Some(payload);
                Err(E::from(diesel::result::Error::RollbackTransaction))
            })
        });
        self.outcome = Some(match panic {
            Some(payload) => Err(payload),
            None => Ok(result),
        });
    }

    fn fail(&mut self, error: &str) {
        if matches!(self.outcome, Some(Ok(Ok(_))) | None) {
            let error = StoreError::GroupCommit(error.to_owned());
            self.outcome = Some(Ok(Err(E::from(error))));
        }
    }

    fn lead(&self) {
        self.ticket.tell(Turn::Lead);
    }
}

impl<F, T, E> Drop for Slot<F, T, E> {
    fn drop(&mut self) {
        let outcome = self
            .outcome
            .take()
            .unwrap_or_else(|| Err(Box::new("a grouped write was dropped before it ran")));
        self.ticket.tell(Turn::Done(outcome));
    }
}

#[derive(Default)]
struct State {
    queue: Vec<Box<dyn Job>>,
    leading: bool,
}

/// The queue of writes waiting for a group, shared by a store's clones.
#[derive(Default)]
pub(crate) struct Group {
    state: Mutex<State>,
}

impl Group {
    /// Runs `write` in a group transaction; a leader calls `begin` for its
    /// connection (which holds the write lock while it lives).
    pub(crate) fn write<F, T, E, C>(
        &self,
        begin: impl FnOnce() -> Result<C, StoreError>,
        write: F,
    ) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + From<diesel::result::Error> + Send + 'static,
        C: std::ops::DerefMut<Target = DbConnection>,
    {
        let ticket = Arc::new(Ticket {
            turn: Mutex::new(None),
            told: Condvar::new(),
        });
        let slot = Slot {
            write: Some(write),
            outcome: None,
            span: tracing::Span::current(),
            ticket: Arc::clone(&ticket),
        };
        let lead = {
            let mut state = self.state.lock();
            state.queue.push(Box::new(slot));
            !std::mem::replace(&mut state.leading, true)
        };
        let mut turn = if lead { Turn::Lead } else { ticket.wait() };
        if let Turn::Lead = turn {
            let handover = Handover(self);
            self.lead(begin);
            drop(handover);
            turn = ticket.wait();
        }
        match turn {
            Turn::Done(Ok(result)) => result,
            Turn::Done(Err(payload)) => resume_unwind(payload),
            Turn::Lead => Err(E::from(StoreError::GroupCommit(
                "a grouped write was not run".into(),
            ))),
        }
    }

    /// Runs every queued write (this leader's own among them) in one
    /// transaction; dropping each hands its writer the outcome.
    fn lead<C>(&self, begin: impl FnOnce() -> Result<C, StoreError>)
    where
        C: std::ops::DerefMut<Target = DbConnection>,
    {
        let mut jobs = std::mem::take(&mut self.state.lock().queue);
        let mut conn = match begin() {
            Ok(conn) => conn,
            Err(e) => {
                let message = e.to_string();
                jobs.iter_mut().for_each(|job| job.fail(&message));
                return;
            }
        };
        if let [job] = jobs.as_mut_slice() {
            job.run(&mut conn);
        } else {
            let committed = conn.write_transaction(|c| {
                jobs.iter_mut().for_each(|job| job.run(c));
                Ok::<_, diesel::result::Error>(())
            });
            if let Err(e) = committed {
                let message = e.to_string();
                jobs.iter_mut().for_each(|job| job.fail(&message));
            }
        }
        // The write lock goes before the writers hear their outcomes.
        drop(conn);
        drop(jobs);
    }
}

/// Passes the lead to the first writer that queued during a group, or
/// ends the leading when none did; runs even when the leader unwinds.
struct Handover<'a>(&'a Group);

impl Drop for Handover<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock();
        match state.queue.first() {
            Some(next) => next.lead(),
            None => state.leading = false,
        }
    }
}
