//! Who may do what: permission codenames, built-in roles and the single
//! access check every use-case asks before it acts.
//!
//! The check knows superusers, authenticated users and the anonymous
//! caller, and grants what Weblate's built-in site-wide teams grant:
//! anonymous callers are `Guests` (suggest and access the repository of
//! public projects), signed-in users are `Users` (Power user on public
//! projects), and both are `Viewers` (read protected projects). Team and
//! role records will feed [`Subject`] through the same entry point.

/// A permission codename (§29.3), e.g. `project.edit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Permission(&'static str);

macro_rules! permissions {
    ($($name:ident = $code:literal),* $(,)?) => {
        impl Permission {
            $(
                #[doc = concat!("`", $code, "`")]
                pub const $name: Permission = Permission($code);
            )*
            /// Every permission.
            pub const ALL: &'static [Permission] = &[$(Permission::$name),*];
        }
    };
}

permissions! {
    ANNOUNCEMENT_ADD = "announcement.add",
    ANNOUNCEMENT_DELETE = "announcement.delete",
    ANNOUNCEMENT_EDIT = "announcement.edit",
    BILLING_MANAGE = "billing.manage",
    CHANGE_DOWNLOAD = "change.download",
    COMMENT_ADD = "comment.add",
    COMMENT_DELETE = "comment.delete",
    COMMENT_RESOLVE = "comment.resolve",
    COMPONENT_EDIT = "component.edit",
    COMPONENT_LOCK = "component.lock",
    COMPONENTLIST_EDIT = "componentlist.edit",
    GLOSSARY_ADD = "glossary.add",
    GLOSSARY_DELETE = "glossary.delete",
    GLOSSARY_EDIT = "glossary.edit",
    GLOSSARY_TERMINOLOGY = "glossary.terminology",
    GLOSSARY_UPLOAD = "glossary.upload",
    GROUP_EDIT = "group.edit",
    GROUP_VIEW = "group.view",
    LANGUAGE_ADD = "language.add",
    LANGUAGE_EDIT = "language.edit",
    MACHINERY_EDIT = "machinery.edit",
    MACHINERY_VIEW = "machinery.view",
    MANAGEMENT_ADDONS = "management.addons",
    MANAGEMENT_CONFIGURE = "management.configure",
    MANAGEMENT_USE = "management.use",
    MEMORY_DELETE = "memory.delete",
    MEMORY_EDIT = "memory.edit",
    MEMORY_MANAGE = "memory.manage",
    PROJECT_ADD = "project.add",
    PROJECT_EDIT = "project.edit",
    PROJECT_PERMISSIONS = "project.permissions",
    REPORTS_VIEW = "reports.view",
    ROLE_EDIT = "role.edit",
    ROLE_VIEW = "role.view",
    SCREENSHOT_ADD = "screenshot.add",
    SCREENSHOT_DELETE = "screenshot.delete",
    SCREENSHOT_EDIT = "screenshot.edit",
    SOURCE_EDIT = "source.edit",
    SUGGESTION_ACCEPT = "suggestion.accept",
    SUGGESTION_ADD = "suggestion.add",
    SUGGESTION_DELETE = "suggestion.delete",
    SUGGESTION_VOTE = "suggestion.vote",
    TRANSLATION_ADD = "translation.add",
    TRANSLATION_ADD_MORE = "translation.add_more",
    TRANSLATION_AUTO = "translation.auto",
    TRANSLATION_DELETE = "translation.delete",
    TRANSLATION_DOWNLOAD = "translation.download",
    UNIT_ADD = "unit.add",
    UNIT_BULK_EDIT = "unit.bulk_edit",
    UNIT_CHECK = "unit.check",
    UNIT_DELETE = "unit.delete",
    UNIT_EDIT = "unit.edit",
    UNIT_OVERRIDE = "unit.override",
    UNIT_REVIEW = "unit.review",
    UNIT_TEMPLATE = "unit.template",
    UPLOAD_AUTHORSHIP = "upload.authorship",
    UPLOAD_OVERWRITE = "upload.overwrite",
    UPLOAD_PERFORM = "upload.perform",
    USER_EDIT = "user.edit",
    USER_VIEW = "user.view",
    VCS_ACCESS = "vcs.access",
    VCS_COMMIT = "vcs.commit",
    VCS_PUSH = "vcs.push",
    VCS_RESET = "vcs.reset",
    VCS_UPDATE = "vcs.update",
    VCS_VIEW = "vcs.view",
    WORKSPACE_ADD = "workspace.add",
    WORKSPACE_ADD_PROJECT = "workspace.add_project",
    WORKSPACE_EDIT = "workspace.edit",
    WORKSPACE_EDIT_MEMBERS = "workspace.edit_members",
}

/// Site-wide permissions: granted only by teams selecting all projects, or to superusers.
const GLOBAL: &[Permission] = &[
    Permission::MANAGEMENT_USE,
    Permission::MANAGEMENT_CONFIGURE,
    Permission::PROJECT_ADD,
    Permission::WORKSPACE_ADD,
    Permission::LANGUAGE_ADD,
    Permission::LANGUAGE_EDIT,
    Permission::GROUP_EDIT,
    Permission::GROUP_VIEW,
    Permission::USER_EDIT,
    Permission::USER_VIEW,
    Permission::ROLE_EDIT,
    Permission::ROLE_VIEW,
    Permission::ANNOUNCEMENT_EDIT,
    Permission::MEMORY_MANAGE,
    Permission::MACHINERY_EDIT,
    Permission::COMPONENTLIST_EDIT,
    Permission::BILLING_MANAGE,
    Permission::MANAGEMENT_ADDONS,
];

impl Permission {
    /// The codename, e.g. `project.edit`.
    pub fn codename(self) -> &'static str {
        self.0
    }

    /// Looks up a codename.
    pub fn from_codename(codename: &str) -> Option<Permission> {
        Self::ALL.iter().copied().find(|p| p.0 == codename)
    }

    /// True for site-wide permissions.
    pub fn is_global(self) -> bool {
        GLOBAL.contains(&self)
    }
}

/// The permissions every translating role shares (§29.4).
const TRANSLATE: &[Permission] = &[
    Permission::COMMENT_ADD,
    Permission::SUGGESTION_ACCEPT,
    Permission::SUGGESTION_ADD,
    Permission::SUGGESTION_VOTE,
    Permission::UNIT_CHECK,
    Permission::UNIT_EDIT,
    Permission::TRANSLATION_DOWNLOAD,
    Permission::UPLOAD_OVERWRITE,
    Permission::UPLOAD_PERFORM,
    Permission::MACHINERY_VIEW,
];

/// The built-in `Power user` role, granted to signed-in users on public projects.
fn power_user(permission: Permission) -> bool {
    TRANSLATE.contains(&permission)
        || [
            Permission::TRANSLATION_ADD,
            Permission::UNIT_TEMPLATE,
            Permission::SUGGESTION_DELETE,
            Permission::VCS_ACCESS,
            Permission::VCS_VIEW,
            Permission::GLOSSARY_ADD,
            Permission::GLOSSARY_EDIT,
            Permission::GLOSSARY_DELETE,
            Permission::GLOSSARY_UPLOAD,
        ]
        .contains(&permission)
}

/// The built-in `Add suggestion` and `Access repository` roles of the `Guests` team.
fn guest(permission: Permission) -> bool {
    [
        Permission::SUGGESTION_ADD,
        Permission::TRANSLATION_DOWNLOAD,
        Permission::VCS_ACCESS,
        Permission::VCS_VIEW,
    ]
    .contains(&permission)
}

/// Project access control levels (`access_control`, §29.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessControl {
    /// Visible and translatable by everybody.
    Public,
    /// Visible to everybody, translatable by members.
    Protected,
    /// Visible only to members.
    Private,
    /// Access managed entirely by custom teams.
    Custom,
}

impl AccessControl {
    /// The stored numeric code.
    pub fn code(self) -> i32 {
        match self {
            AccessControl::Public => 0,
            AccessControl::Protected => 1,
            AccessControl::Private => 100,
            AccessControl::Custom => 200,
        }
    }

    /// Parses a stored code.
    pub fn from_code(code: i32) -> Option<AccessControl> {
        [
            AccessControl::Public,
            AccessControl::Protected,
            AccessControl::Private,
            AccessControl::Custom,
        ]
        .into_iter()
        .find(|a| a.code() == code)
    }

    /// Levels visible to callers who are not members of the project.
    pub const OPEN: [AccessControl; 2] = [AccessControl::Public, AccessControl::Protected];
}

/// The caller a use-case acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Nobody signed in.
    Anonymous,
    /// Tolk itself, acting for the command line or a background task:
    /// passes every check and is recorded as nobody.
    System,
    /// A signed-in user.
    User {
        /// The user's id.
        id: i64,
        /// Superusers pass every check.
        superuser: bool,
    },
}

/// The object a permission is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The whole site (global permissions).
    Site,
    /// A project with the given access level.
    Project(AccessControl),
}

/// Which projects a caller may see, for filtering lists in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectVisibility {
    /// Every project.
    All,
    /// Only projects with one of these access levels.
    Levels(Vec<AccessControl>),
}

impl ProjectVisibility {
    /// True when a project with this access level is visible.
    pub fn allows(&self, access: AccessControl) -> bool {
        match self {
            ProjectVisibility::All => true,
            ProjectVisibility::Levels(levels) => levels.contains(&access),
        }
    }
}

impl Subject {
    /// True for a signed-in user.
    pub fn is_authenticated(&self) -> bool {
        !matches!(self, Subject::Anonymous)
    }

    /// True for a superuser.
    pub fn is_superuser(&self) -> bool {
        matches!(
            self,
            Subject::System
                | Subject::User {
                    superuser: true,
                    ..
                }
        )
    }

    /// The signed-in user's id.
    pub fn user_id(&self) -> Option<i64> {
        match self {
            Subject::User { id, .. } => Some(*id),
            Subject::Anonymous | Subject::System => None,
        }
    }

    /// The one access check: may this caller use `permission` on `target`?
    pub fn can(&self, permission: Permission, target: Target) -> bool {
        if self.is_superuser() {
            return true;
        }
        match target {
            Target::Site => false,
            Target::Project(AccessControl::Public) if !permission.is_global() => {
                if self.is_authenticated() {
                    power_user(permission)
                } else {
                    guest(permission)
                }
            }
            Target::Project(_) => false,
        }
    }

    /// Which projects this caller may see.
    pub fn project_visibility(&self) -> ProjectVisibility {
        if self.is_superuser() {
            ProjectVisibility::All
        } else {
            ProjectVisibility::Levels(AccessControl::OPEN.to_vec())
        }
    }

    /// May this caller see a project with this access level?
    pub fn can_view_project(&self, access: AccessControl) -> bool {
        self.project_visibility().allows(access)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANON: Subject = Subject::Anonymous;
    const USER: Subject = Subject::User {
        id: 2,
        superuser: false,
    };
    const ADMIN: Subject = Subject::User {
        id: 1,
        superuser: true,
    };

    #[test]
    fn superuser_passes_every_check() {
        assert!(Subject::System.can(Permission::USER_EDIT, Target::Site));
        assert_eq!(Subject::System.user_id(), None);
        for p in Permission::ALL {
            assert!(ADMIN.can(*p, Target::Site));
            assert!(ADMIN.can(*p, Target::Project(AccessControl::Private)));
        }
    }

    #[test]
    fn global_permissions_need_a_superuser() {
        assert!(!USER.can(Permission::PROJECT_ADD, Target::Site));
        assert!(!USER.can(Permission::LANGUAGE_EDIT, Target::Site));
        assert!(!ANON.can(Permission::USER_VIEW, Target::Site));
        assert!(!USER.can(
            Permission::USER_EDIT,
            Target::Project(AccessControl::Public)
        ));
    }

    #[test]
    fn default_teams_on_public_projects() {
        let public = Target::Project(AccessControl::Public);
        assert!(USER.can(Permission::UNIT_EDIT, public));
        assert!(!USER.can(Permission::PROJECT_EDIT, public));
        assert!(!USER.can(Permission::UNIT_REVIEW, public));
        assert!(ANON.can(Permission::SUGGESTION_ADD, public));
        assert!(!ANON.can(Permission::UNIT_EDIT, public));
        let protected = Target::Project(AccessControl::Protected);
        assert!(!USER.can(Permission::UNIT_EDIT, protected));
    }

    #[test]
    fn visibility() {
        assert!(ANON.can_view_project(AccessControl::Protected));
        assert!(!ANON.can_view_project(AccessControl::Private));
        assert!(!USER.can_view_project(AccessControl::Custom));
        assert!(ADMIN.can_view_project(AccessControl::Private));
        assert_eq!(ADMIN.project_visibility(), ProjectVisibility::All);
    }

    #[test]
    fn codenames_round_trip() {
        assert_eq!(Permission::ALL.len(), 70);
        for p in Permission::ALL {
            assert_eq!(Permission::from_codename(p.codename()), Some(*p));
        }
        assert_eq!(AccessControl::from_code(100), Some(AccessControl::Private));
        assert_eq!(AccessControl::from_code(5), None);
    }
}
