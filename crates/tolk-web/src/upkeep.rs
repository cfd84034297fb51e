//! The actions those who look after a component take from its page
//! (commit, push, update, lock, unlock), as its forms and the page's
//! address after them name them, with what the page then tells.

use serde::Deserialize;

/// An action on a component's repository or lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Upkeep {
    /// Commit the pending edits.
    Commit,
    /// Push (committing first).
    Push,
    /// Update from upstream.
    Pull,
    /// Lock the component: nobody translates it.
    Lock,
    /// Unlock it.
    Unlock,
}

impl Upkeep {
    /// Every action, as the forms name them.
    const ALL: [Upkeep; 5] = [
        Upkeep::Commit,
        Upkeep::Push,
        Upkeep::Pull,
        Upkeep::Lock,
        Upkeep::Unlock,
    ];

    /// Its name in forms and in the page's address after it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Upkeep::Commit => "commit",
            Upkeep::Push => "push",
            Upkeep::Pull => "pull",
            Upkeep::Lock => "lock",
            Upkeep::Unlock => "unlock",
        }
    }

    /// What the page tells once it is done.
    fn notice(self) -> &'static str {
        match self {
            Upkeep::Commit => "The pending changes were committed.",
            Upkeep::Push => "The repository was pushed.",
            Upkeep::Pull => "The repository was updated from upstream.",
            Upkeep::Lock => "The component is locked: nobody can translate it.",
            Upkeep::Unlock => "The component is unlocked.",
        }
    }

    /// The action named `name`.
    pub(crate) fn parse(name: &str) -> Option<Upkeep> {
        Upkeep::ALL.into_iter().find(|action| action.name() == name)
    }
}

/// What the component's page was sent back with.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Done {
    /// The action done.
    done: String,
}

impl Done {
    /// The notice of the action done, if the address tells of one.
    pub(crate) fn notice(&self) -> Option<String> {
        Upkeep::parse(&self.done).map(|action| action.notice().to_owned())
    }
}
