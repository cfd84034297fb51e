//! What a caller may do with a component from its page: the repository
//! operations, its lock and adding a language, by the rules the
//! use-cases apply.

use tolk_domain::operation::Operation;
use tolk_domain::permission::{Permission, Subject};

use crate::component_view::ComponentView;

/// What the caller may do with a component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ComponentRights {
    /// May commit pending edits.
    pub commit: bool,
    /// May push.
    pub push: bool,
    /// May update from upstream.
    pub pull: bool,
    /// May lock and unlock it.
    pub lock: bool,
    /// May add a language (the permission, and its `new_lang` setting).
    pub add_language: bool,
}

impl ComponentRights {
    /// What `subject` may do with `view`.
    pub fn of(subject: &Subject, view: &ComponentView) -> ComponentRights {
        let target = view.target();
        let can = |permission| subject.can(permission, target);
        ComponentRights {
            commit: can(Operation::Commit.permission()),
            push: can(Operation::Push.permission()),
            pull: can(Operation::Pull.permission()),
            lock: can(Permission::COMPONENT_LOCK),
            add_language: can(Permission::TRANSLATION_ADD) && view.effective().new_lang == "add",
        }
    }

    /// Whether the caller looks after the repository (any of its operations).
    pub fn maintains(&self) -> bool {
        self.commit || self.push || self.pull
    }
}
