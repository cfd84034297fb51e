//! Counts of the Git processes a [`crate::Git`] ran, by subcommand and
//! outcome, with the time they took: what an operator's metrics show.
//! Subcommands outside a fixed list are counted as `other`, so the set of
//! names stays small whatever a caller runs.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// The subcommands counted under their own name.
const NAMED: &[&str] = &[
    "--version",
    "add",
    "am",
    "branch",
    "checkout",
    "cherry-pick",
    "clean",
    "clone",
    "commit",
    "config",
    "diff",
    "fetch",
    "gc",
    "init",
    "log",
    "ls-remote",
    "merge",
    "pull",
    "push",
    "rebase",
    "remote",
    "reset",
    "rev-list",
    "rev-parse",
    "rm",
    "show",
    "status",
    "symbolic-ref",
    "update-ref",
];

/// What the processes of one subcommand came to.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CommandTally {
    /// Processes that ended successfully.
    pub succeeded: u64,
    /// Processes that failed, could not start or ran out of time.
    pub failed: u64,
    /// Time they took, in all.
    pub seconds: f64,
}

/// The counts of one [`crate::Git`] and its clones.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    commands: Mutex<BTreeMap<&'static str, CommandTally>>,
}

impl Tally {
    /// Counts one process of `command` that took `took`.
    pub(crate) fn record(&self, command: &str, succeeded: bool, took: Duration) {
        let name = NAMED
            .iter()
            .find(|n| **n == command)
            .copied()
            .unwrap_or("other");
        let mut commands = self
            .commands
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = commands.entry(name).or_default();
        if succeeded {
            entry.succeeded += 1;
        } else {
            entry.failed += 1;
        }
        entry.seconds += took.as_secs_f64();
    }

    /// Every subcommand run so far with its counts, by name.
    pub(crate) fn snapshot(&self) -> Vec<(&'static str, CommandTally)> {
        self.commands
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(name, tally)| (*name, *tally))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_counted_by_name_and_outcome() {
        let tally = Tally::default();
        tally.record("fetch", true, Duration::from_millis(250));
        tally.record("fetch", false, Duration::from_millis(750));
        tally.record("x=y", true, Duration::ZERO);
        assert_eq!(
            tally.snapshot(),
            [
                (
                    "fetch",
                    CommandTally {
                        succeeded: 1,
                        failed: 1,
                        seconds: 1.0
                    }
                ),
                (
                    "other",
                    CommandTally {
                        succeeded: 1,
                        failed: 0,
                        seconds: 0.0
                    }
                ),
            ]
        );
    }
}
